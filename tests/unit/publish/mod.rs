//! Tests of `src/publish/mod.rs` (`hantei::publish`).

#[test]
fn base64_matches_rfc_4648_examples() {
    // RFC 4648 §10 test vectors.
    for (plain, enc) in [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ] {
        assert_eq!(hantei::publish::base64(plain.as_bytes()), enc);
    }
}

#[test]
fn descriptions_become_paragraphs_with_code() {
    assert_eq!(
        hantei::publish::paragraphs("a `x<y`\nb\n\nc"),
        "<p>a <code>x&lt;y</code> b</p>\n<p>c</p>\n"
    );
    assert_eq!(
        hantei::publish::paragraphs("There:\n* one\n  more\n- two"),
        "<p>There:</p>\n<ul><li>one more</li><li>two</li></ul>\n"
    );
}

mod font;
