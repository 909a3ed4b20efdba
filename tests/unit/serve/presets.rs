//! Tests of `src/serve/presets.rs` (`hantei::serve::presets`).

use hantei::serve::presets::*;

#[test]
fn splits_as_a_shell_does() {
    let w = split_words(r#"3D6 --tier "critical:count(==6)>=2" 'a b' c\ d "x\"y""#).unwrap();
    assert_eq!(
        w,
        [
            "3D6",
            "--tier",
            "critical:count(==6)>=2",
            "a b",
            "c d",
            "x\"y"
        ]
    );
    assert_eq!(split_words("\"open"), None);
    assert_eq!(split_words("  "), Some(vec![]));
}

#[test]
fn every_mechanic_of_the_page_is_a_preset() {
    let ids: Vec<_> = presets()
        .iter()
        .filter(|p| p.group == "mechanics")
        .map(|p| p.id.clone())
        .collect();
    let want: Vec<_> = (1..=24).map(|n| format!("W{n}")).collect();
    assert_eq!(ids, want);
    let w4 = presets().iter().find(|p| p.id == "W4").unwrap();
    assert_eq!(w4.title, "Blades in the Dark");
    assert_eq!(w4.title_ja, "ブレイズ・イン・ザ・ダーク");
    assert_eq!(w4.pairs[0], ("expr".to_string(), "3D6".to_string()));
    assert_eq!(
        w4.pairs[1],
        ("tier".to_string(), "critical:count(==6)>=2".to_string())
    );
    // The command line reads back to the same words.
    let words = split_words(w4.command.strip_prefix("hantei odds dice ").unwrap()).unwrap();
    assert_eq!(pairs(&dice_command(), &words).unwrap(), w4.pairs);
}

#[test]
fn every_chained_roll_of_the_page_is_a_titled_preset() {
    let c: Vec<_> = presets().iter().filter(|p| p.group == "chains").collect();
    assert_eq!(c.len(), CHAIN_TITLES.len());
    assert!(c.iter().all(|p| !p.title.is_empty() && !p.pairs.is_empty()));
    assert_eq!(
        c[0].pairs[0],
        (
            "expr".to_string(),
            "1D20+5 -> natural==20: 2D8+4; >=15: 1D8+4; 0".to_string()
        )
    );
    assert!(c[3]
        .pairs
        .contains(&("game".to_string(), "DoubleCross".to_string())));
}

#[test]
fn every_game_has_a_preset_and_every_preset_parses() {
    for g in hantei::systems::dice::games::GAMES {
        assert!(
            GAME_PRESETS.iter().any(|p| p.0 == g.id),
            "no preset for {}",
            g.id
        );
    }
    for p in presets() {
        assert!(
            !p.pairs.is_empty(),
            "{}: {} does not parse",
            p.id,
            p.command
        );
    }
    let y = presets().iter().find(|p| p.id == "W5").unwrap();
    assert!(y
        .pairs
        .contains(&("push_dice".to_string(), "skill:<6".to_string())));
}
