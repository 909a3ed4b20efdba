//! Tests of `src/serve/help_ja.rs` (`hantei::serve::help_ja`).

#[test]
fn no_entry_is_stale() {
    for (system, field, _) in hantei::serve::help_ja::HELP {
        let s = hantei::serve::schema::system_schema(system).expect(system);
        assert!(
            s.params.iter().any(|p| p.field == *field),
            "help_ja.rs names {system} {field}, which is no flag"
        );
    }
}
