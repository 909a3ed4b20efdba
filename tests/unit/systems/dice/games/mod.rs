//! Tests of `src/systems/dice/games/mod.rs` (`hantei::systems::dice::games`).

use hantei::systems::dice::games::*;

/// Prefixes and substrings win over edit distance (`sw` is no
/// misspelt `Insane`); abbreviations name their game; a misspelling
/// still finds its game.
#[test]
fn suggestions() {
    for (key, id) in [
        ("sw", "SwordWorld2.5"),
        ("sword", "SwordWorld2.5"),
        ("sw20", "SwordWorld2.0"),
        ("coc", "Cthulhu7th"),
        ("coc6", "Cthulhu"),
        ("nechro", "Nechronica"),
        ("cross", "DoubleCross"),
        ("wizard", "NightWizard3rd"),
        ("swordworld25", "SwordWorld2.5"),
        ("shinobigmi", "ShinobiGami"),
        ("emokrore", "Emoklore"),
    ] {
        assert_eq!(nearest(key), id, "{key}");
    }
    // Every abbreviation names a registered game.
    for (_, id) in ABBREVIATIONS {
        assert!(find(id).is_ok(), "{id}");
    }
}

/// Test support: a game's exact law against the enumeration of its plain
/// rule over every sequence of faces.
pub mod enumerate {
    use std::collections::BTreeMap;

    use hantei::systems::dice::games::{GameLaw, Rolled};
    use hantei::weight::{Exact, Weight};

    /// The faces of sequence number `code` of `sides`-sided dice, the
    /// first die first (the plain rule's `Faces`).
    pub fn faces(code: i64, sides: i64) -> impl FnMut(i64) -> i64 {
        let mut k = code;
        move |_| {
            let f = k % sides + 1;
            k /= sides;
            f
        }
    }

    /// Roll each of the `total` equally likely sequences with `roll`, count
    /// the (value, word) cells, and hold the law to those counts over
    /// `total`, cell by cell and with no cell more or less.
    pub fn assert_law(what: &str, law: &GameLaw<Exact>, total: i64, roll: impl Fn(i64) -> Rolled) {
        let mut counts: BTreeMap<(i64, Option<&'static str>), i64> = BTreeMap::new();
        for code in 0..total {
            let r = roll(code);
            let v = r.value.expect("a printed value");
            *counts.entry((v, r.outcome.map(|o| o.key))).or_default() += 1;
        }
        assert_eq!(counts.len(), law.cells.len(), "{what}: cells");
        for ((v, key), m) in counts {
            let i = key.map(|k| law.outcomes.iter().position(|o| o.key == k).unwrap());
            assert_eq!(
                law.cells.get(&(v, i)),
                Some(&Exact::ratio(m, total)),
                "{what}: {v} {key:?}"
            );
        }
    }
}

mod amadeus;
mod arianrhod;
mod cthulhu7th;
mod double_cross;
mod emoklore;
mod facts;
mod log_horizon;
mod meikyu_kingdom;
mod nechronica;
mod night_wizard;
mod ryutama;
mod satasupe;
mod shinobigami;
mod sword_world;
mod tens;
