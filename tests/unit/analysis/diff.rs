//! Tests of `src/analysis/diff.rs` (`hantei::analysis::diff`).

use hantei::analysis::diff::*;

fn table(text: &str, keys: Option<usize>) -> Table {
    parse(text.as_bytes(), keys).unwrap()
}

#[test]
fn numbers_as_hantei_writes_them() {
    assert!(is_table_number("0.7500000000"));
    assert!(is_table_number("-12.0000000000"));
    assert!(!is_table_number("15"));
    assert!(!is_table_number("0.75"));
    assert!(!is_table_number("normal"));
    assert!(!is_table_number(""));
}

#[test]
fn key_columns_are_found_from_the_data() {
    let t = table(
            "system,roll,dc,p_success,p_critical\nd20,normal,15,0.5500000000,0.0500000000\nd20,advantage,15,0.7975000000,\n",
            None,
        );
    assert_eq!(t.keys, ["system", "roll", "dc"]);
    assert_eq!(t.columns.len(), 2);
    assert_eq!(t.rows[1].1, vec![Some(0.7975), None]);
    assert_eq!(t.cells(), 3);
}

#[test]
fn a_change_is_in_percentage_points_and_exact_to_the_tables_precision() {
    // 0.55 → 0.5525: +0.25 pp, not 0.2499999…
    assert_eq!(change_points(0.55, 0.5525, true), 0.25);
    assert_eq!(change_points(0.8, 0.805, true), 0.5);
    assert_eq!(change_points(5.0, 4.75, false), -0.25);
}

#[test]
fn changed_added_and_removed_cells() {
    let old = table(
            "system,dc,p_success,expected\nd20,10,0.5000000000,2.0000000000\nd20,15,0.2500000000,4.0000000000\nd20,20,0.0500000000,20.0000000000\n",
            None,
        );
    let new = table(
            "system,dc,p_success,expected\nd20,15,0.3000000000,4.0000000000\nd20,20,0.0500000000,\nd20,25,0.0500000000,20.0000000000\n",
            Some(2),
        );
    let d = compare("a", "a.csv", Some(&old), Some(&new), None);
    let got: Vec<(&str, &str, Status, Option<f64>)> = d
        .cells
        .iter()
        .map(|c| (c.row_label.as_str(), c.column.as_str(), c.status, c.change))
        .collect();
    assert_eq!(
        got,
        vec![
            ("dc=15", "p_success", Status::Changed, Some(5.0)),
            ("dc=20", "expected", Status::Removed, None),
            ("dc=25", "p_success", Status::Added, None),
            ("dc=25", "expected", Status::Added, None),
            ("dc=10", "p_success", Status::Removed, None),
            ("dc=10", "expected", Status::Removed, None),
        ]
    );
    let r = Report {
        against: "output/".into(),
        tolerance: 5.0,
        tables: vec![d],
        notes: vec![],
    };
    // Exactly 5 points is within a tolerance of 5.
    assert!(r.passed());
    let strict = Report {
        tolerance: 4.99,
        ..r.clone()
    };
    assert_eq!(strict.failures(), 1);
}

#[test]
fn rows_match_by_key_whatever_the_column_order() {
    let old = table(
        "system,roll,dc,p\nd20,normal,10,0.5500000000\nd20,normal,15,0.3000000000\n",
        None,
    );
    let new = table(
        "system,dc,roll,p\nd20,10,normal,0.5500000000\nd20,15,normal,0.3500000000\n",
        Some(3),
    );
    let d = compare("a", "a.csv", Some(&old), Some(&new), None);
    assert_eq!(d.cells.len(), 1);
    assert_eq!(d.cells[0].row_label, "dc=15, roll=normal");
    assert_eq!(d.cells[0].change, Some(5.0));
    assert!(d.notes.is_empty());
}

#[test]
fn shared_headers_are_told_apart() {
    let old = table(
        "system,dc,p_success,p_success\nd20,10,0.5000000000,0.0000000000\n",
        None,
    );
    let new = table(
        "system,dc,p_success,p_success\nd20,10,0.5000000000,1.0000000000\n",
        Some(2),
    );
    let schema = Schema {
        keys: 2,
        labels: vec![None, Some("equivalent bonus".into())],
        percent: vec![true, false],
    };
    let d = compare("a", "a.csv", Some(&old), Some(&new), Some(&schema));
    assert_eq!(d.cells.len(), 1);
    assert_eq!(d.cells[0].column, "p_success (equivalent bonus)");
    assert!(!d.cells[0].percent);
    assert_eq!(d.cells[0].change, Some(1.0));
}

#[test]
fn a_table_without_axes_names_its_row_by_system() {
    let old = table("system,p\nd20,0.5500000000\n", None);
    let new = table("system,p\nd20,0.6000000000\n", Some(1));
    let d = compare("a", "a.csv", Some(&old), Some(&new), None);
    assert_eq!(d.cells[0].row_label, "system=d20");
}

#[test]
fn a_new_axis_is_reported_not_matched() {
    let old = table("system,dc,p\nd20,10,0.5500000000\n", None);
    let new = table("system,roll,dc,p\nd20,normal,10,0.5500000000\n", Some(3));
    let d = compare("a", "a.csv", Some(&old), Some(&new), None);
    assert_eq!(d.count(Status::Added), 1);
    assert_eq!(d.count(Status::Removed), 1);
    assert_eq!(d.notes.len(), 1);
}

#[test]
fn a_committed_table_with_the_current_header_has_its_keys() {
    let new = table("system,dc,p\nd20,10,0.5500000000\n", Some(2));
    // Garbage where a number belongs is a value, named, not a key.
    let e = parse_committed(b"system,dc,p\nd20,10,lots\n", Some(&new)).unwrap_err();
    assert_eq!(e, "line 2, column 'p': 'lots' is not a number");
    // A different header: keys from the data.
    let t = parse_committed(b"system,roll,p\nd20,normal,0.5000000000\n", Some(&new)).unwrap();
    assert_eq!(t.keys, ["system", "roll"]);
}

#[test]
fn a_bad_number_is_named() {
    let e = parse(b"system,dc,p\nd20,10,0.55\nd20,11,abc\n", Some(2)).unwrap_err();
    assert_eq!(e, "line 3, column 'p': 'abc' is not a number");
}

#[test]
fn finer_changes_get_more_decimals() {
    let c = Cell {
        row: vec![],
        row_label: String::new(),
        column: "p".into(),
        old: Some(0.5),
        new: Some(0.500001),
        percent: true,
        status: Status::Changed,
        change: Some(change_points(0.5, 0.500001, true)),
    };
    assert_eq!(old_new(&c), "50.0000% → 50.0001%");
    assert_eq!(change_text(&c), "+0.0001 pp");
}
