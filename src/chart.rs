//! stub
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub body: ChartBody,
}
#[derive(Clone)]
pub enum ChartBody {
    Lines {
        x: Vec<f64>,
        series: Vec<(String, Vec<Option<f64>>)>,
        y_percent: bool,
    },
    Bars {
        categories: Vec<String>,
        series: Vec<(String, Vec<f64>)>,
        y_percent: bool,
    },
    Heatmap {
        x: Vec<String>,
        y: Vec<String>,
        values: Vec<Vec<Option<f64>>>,
        value_label: String,
        percent: bool,
    },
    Stacked {
        categories: Vec<String>,
        tiers: Vec<String>,
        values: Vec<Vec<f64>>,
    },
}
impl Clone for Chart {
    fn clone(&self) -> Self {
        Chart {
            title: self.title.clone(),
            x_label: self.x_label.clone(),
            y_label: self.y_label.clone(),
            body: self.body.clone(),
        }
    }
}
pub fn svg(_c: &Chart) -> crate::Result<Vec<u8>> {
    Ok(b"svg".to_vec())
}
pub fn png(_c: &Chart) -> crate::Result<Vec<u8>> {
    Ok(b"png".to_vec())
}
