//! Tests of `src/serve/schema.rs` (`hantei::serve::schema`).

use hantei::serve::schema::*;

#[test]
fn d20_modifier_reads_its_range_and_help_from_clap() {
    let d20 = system_schema("d20").expect("d20");
    let m = d20.params.iter().find(|p| p.field == "modifier").unwrap();
    assert_eq!(m.kind, "int");
    assert_eq!((m.min, m.max), (Some(-50), Some(50)));
    assert_eq!(m.flag, "--modifier");
    assert!(m.help_en.starts_with("Ability modifier"));
    let adv = d20.params.iter().find(|p| p.field == "advantage").unwrap();
    assert_eq!(adv.kind, "switch");
}

#[test]
fn hit_pool_helper_repeats_and_edge_use_has_choices() {
    let hp = system_schema("hit-pool").unwrap();
    let h = hp.params.iter().find(|p| p.field == "helper").unwrap();
    assert!(h.repeatable);
    assert_eq!(h.kind, "int");
    let e = hp.params.iter().find(|p| p.field == "edge_use").unwrap();
    assert_eq!(e.kind, "choice");
    assert!(e.choices.iter().any(|c| c.name == "push"));
    let eps = hp.params.iter().find(|p| p.field == "tail_eps").unwrap();
    assert_eq!(eps.kind, "number");
    let pool = hp.params.iter().find(|p| p.field == "pool").unwrap();
    assert!(pool.required);
}

#[test]
fn levels_skill_is_a_list_and_dice_expr_is_text() {
    let lv = system_schema("levels").unwrap();
    let s = lv.params.iter().find(|p| p.field == "skill").unwrap();
    assert_eq!(s.kind, "list");
    let dice = system_schema("dice").unwrap();
    let e = dice.params.iter().find(|p| p.field == "expr").unwrap();
    assert_eq!(e.kind, "text");
    assert!(e.required);
}

#[test]
fn dice_game_is_a_choice_of_the_registry() {
    let dice = system_schema("dice").unwrap();
    let game = dice.params.iter().find(|p| p.field == "game").unwrap();
    assert_eq!(game.kind, "choice");
    let names: Vec<_> = game.choices.iter().map(|c| c.name.as_str()).collect();
    assert!(names.contains(&"Cthulhu7th") && names.contains(&"SwordWorld2.5"));
    assert_eq!(names.len(), hantei::systems::dice::games::GAMES.len());
}

#[test]
fn every_parameter_has_japanese_help() {
    for s in systems() {
        for p in &s.params {
            assert!(
                !p.help_ja.is_empty(),
                "{} {}: no Japanese help in help_ja.rs",
                s.id,
                p.field
            );
        }
    }
}
