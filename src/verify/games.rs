//! Monte Carlo points for the game-system commands (`--game`, issue 19):
//! each command rolled with verify's [`Dice`] through its plain rule
//! ([`GameCmd::roll`], the function BCDice's own test data checks) and
//! compared with its exact law ([`GameCmd::law`], computed in exact
//! arithmetic where it is cheap, else in f64). Two points per command: the
//! result words (BCDice's words, then `none` where it prints none, then
//! `outside` for the cut tail) and the printed value (one cell per value or
//! range, then `outside`).

use crate::systems::dice::games::{self, GameCmd, GameLaw, Parsed, Rolled};

use crate::systems::dice::ID;
use crate::weight::Weight;

use super::dice::Dice;
use super::notation::{value_cells, Ranges};
use super::{Point, Sampler};

/// The commands checked: each game's main checks.
pub const GRID: &[(&str, &str)] = &[
    ("Cthulhu7th", "CC(1)<=50"),
    ("Cthulhu7th", "CC(-2)<=40h"),
    ("Cthulhu", "CCB(98)<=60"),
    ("SwordWorld2.5", "K20+5@10"),
    ("SwordWorld2.5", "K30$+1#1r5@9ad2OH+1"),
    ("SwordWorld2.0", "2D6@10+5>=20"),
    ("SwordWorld2.5", "2D6+4>=10"),
    ("DoubleCross", "6DX8+2>=20"),
    ("ShinobiGami", "3SG+1@11#3>=8"),
    ("Insane", "2D6+1>=8"),
    ("Emoklore", "3DM<=6"),
    ("Emoklore", "2DA3+1"),
    ("Arianrhod", "3D6+1>=10"),
    ("LogHorizon", "3LH+2>=10"),
    ("MeikyuKingdom", "3MK+2>=9"),
    ("MeikyuKingdom", "2D6>=7"),
    ("Nechronica", "2NC+1"),
    ("Nechronica", "2NA-1"),
    ("NightWizard3rd", "2NW+3@9,10#5$1>=15"),
    ("Satasupe", "5R>=7[3,2,10S]"),
    ("Ryutama", "R8,6>=9"),
    ("Amadeus", "RB+1>=5"),
];

/// The cut used for chains in verify.
const TAIL_EPS: f64 = 1e-12;

fn roll(cmd: &GameCmd, dice: &mut Dice) -> Rolled {
    cmd.roll(&mut |sides: i64| i64::from(dice.roll(sides as u32)))
}

struct WordSampler {
    cmd: GameCmd,
    words: Vec<games::Outcome>,
}

impl Sampler for WordSampler {
    fn cells(&self) -> usize {
        self.words.len() + 2
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        match roll(&self.cmd, dice).outcome {
            Some(o) => self
                .words
                .iter()
                .position(|w| *w == o)
                .unwrap_or(self.words.len() + 1),
            None => self.words.len(),
        }
    }
}

struct ValueSampler {
    cmd: GameCmd,
    ranges: Ranges,
}

impl Sampler for ValueSampler {
    fn cells(&self) -> usize {
        self.ranges.len() + 1
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        match roll(&self.cmd, dice).value {
            Some(v) => self.ranges.cell(v),
            None => self.ranges.len(),
        }
    }
}

fn law_of(cmd: &GameCmd) -> GameLaw<f64> {
    cmd.law::<f64>(TAIL_EPS).expect("grid command has a law")
}

/// The two points of one command.
pub fn points(game: &str, expr: &str) -> Vec<Point> {
    let g = games::find(game).expect("grid game");
    let Ok(Parsed::Game(cmd)) = g.parse(expr) else {
        panic!("{expr} is a {game} command")
    };
    let law = law_of(&cmd);
    let tail = law.tail.unwrap_or(0.0);
    let mut word_p = law.word_probs();
    let none: f64 = law
        .cells
        .iter()
        .filter(|((_, i), _)| i.is_none())
        .map(|(_, p)| *p)
        .sum();
    let mut names: Vec<String> = law.outcomes.iter().map(|o| o.key.to_string()).collect();
    names.push("none".into());
    names.push("outside".into());
    word_p.push(none);
    word_p.push(tail);
    let mut out = vec![Point {
        system: ID,
        label: format!("game={} {expr} words", g.id),
        cells: names,
        exact: word_p,
        sampler: Box::new(WordSampler {
            cmd: cmd.clone(),
            words: law.outcomes.clone(),
        }),
    }];
    if law.prints_value {
        let values: Vec<(i64, f64)> = law
            .values()
            .iter()
            .filter(|(_, p)| **p > 0.0)
            .map(|(v, p)| (v, p.to_f64()))
            .collect();
        let (cells, exact, ranges) = value_cells(&values, tail);
        out.push(Point {
            system: ID,
            label: format!("game={} {expr} value", g.id),
            cells,
            exact,
            sampler: Box::new(ValueSampler { cmd, ranges }),
        });
    }
    out
}

/// Every grid command's points.
pub fn grid() -> Vec<Point> {
    GRID.iter().flat_map(|(g, e)| points(g, e)).collect()
}
