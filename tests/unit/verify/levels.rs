//! Tests of `src/verify/levels.rs` (`hantei::verify::levels`).

use hantei::systems::levels::{Skill, ID};

use hantei::verify::levels::*;

#[test]
fn cells_are_consistent_and_sum_to_one() {
    let g = grid();
    assert!((8..=20).contains(&g.len()), "{} points", g.len());
    assert!(g.iter().all(|p| p.system == ID));
    crate::unit::verify::testing::assert_consistent(&g);
}

#[test]
fn simulation_fits_the_exact_law() {
    crate::unit::verify::testing::assert_fits(&grid(), 200_000, 3000);
}

#[test]
fn decisions_match_the_engine() {
    // The sampler's own decisions agree with the engine's choices.
    let def = Skill::new(&[70, 40, 30]).unwrap();
    assert_eq!(defender_level(&def, Reply::Best, 2), Some(2));
    assert_eq!(defender_level(&def, Reply::Best, 4), None);
    assert_eq!(defender_level(&def, Reply::Level(2), 3), None);
    let runs = Skill::new(&[100, 100, 90, 20]).unwrap();
    assert_eq!(defender_level(&runs, Reply::Best, 1), Some(1));
    assert_eq!(defender_level(&runs, Reply::Best, 3), Some(3));
    let g = grid();
    // Best levels: a tie between levels 2 and 3 goes to 2.
    assert!(g.iter().any(|p| p.label.contains("L=best(2)")));
    assert!(g.iter().any(|p| p.label.contains("La=best(1)")));
    assert!(g.iter().any(|p| p.label.contains("Ld=none")));
    assert!(g.iter().any(|p| p.label.contains("prior=")));
    assert!(g.iter().any(|p| p.label.contains("critical=top5")));
    assert!(g.iter().any(|p| p.label.contains("critical=exact")));
}
