//! `cpaplay table31`: the octagon thesis's Table 3.1 next to ours. The page
//! in `docs/octagon-table-3-1.md` must be exactly the command's output, so
//! the numbers and explanations there stay true.

use std::process::Command;

fn cpaplay(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cpaplay")).args(args).output().expect("run cpaplay")
}

#[test]
fn docs_page_is_the_commands_output() {
    let out = cpaplay(&["table31"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let generated = String::from_utf8(out.stdout).unwrap();
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/octagon-table-3-1.md")).unwrap();
    assert!(
        generated == page,
        "docs/octagon-table-3-1.md is stale: regenerate it with `cargo run -p cpaplay -- table31 > docs/octagon-table-3-1.md`"
    );
    // Every closed form the page explains holds, and the thesis's figures are there.
    assert!(!generated.contains('✗'), "a formula on the page does not hold");
    assert_eq!(generated.matches(" ✓ |").count(), 15, "5 configurations × 3 bounds");
    for figure in ["902 reached", "11 reached", "30 created"] {
        assert!(generated.contains(figure), "{figure}");
    }
    assert!(generated.contains("| 100 | sep | true | 1012 | 1013 |"));
}

#[test]
fn bad_bounds_are_a_usage_error() {
    for args in
        [&["table31", "--bounds", "0"][..], &["table31", "--bounds", "x"], &["table31", "extra"], &["table31", "--bounds"]]
    {
        let out = cpaplay(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("cpaplay:"), "{args:?}");
    }
}

#[test]
fn gallery_card_shows_the_commands_table() {
    let out = cpaplay(&["table31", "--card"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("| sep, reached | 902 | 112 | 1012 | 10012 |"), "{table}");
    let card =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/examples/octagon-listing2-1-bounded.md"))
            .unwrap();
    assert!(card.contains(&table), "the card's table is stale: paste `cpaplay table31 --card` into it\n{table}");
}
