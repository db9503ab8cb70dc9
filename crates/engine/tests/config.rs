//! Configuration files: presets, includes, errors that name key, file and line.

use engine::config::{Config, OPTIONS, PRESETS};
use engine::testkit::CfaBuilder;

#[test]
fn every_option_has_a_valid_default_and_docs() {
    let c = Config::defaults();
    for o in OPTIONS {
        assert!(!o.doc.is_empty(), "{}", o.key);
        let mut c2 = c.clone();
        c2.set(o.key, o.default).unwrap_or_else(|e| panic!("default of {}: {e}", o.key));
    }
}

#[test]
fn presets_load_and_include_each_other() {
    for (name, _, _) in PRESETS {
        Config::preset(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let j = Config::preset("value-join").unwrap();
    assert_eq!(j.get("cpa.value.merge"), "JOIN");
    assert_eq!(j.get("CompositeCPA.cpas"), "cpa.location.LocationCPA, cpa.callstack.CallstackCPA, cpa.value.ValueAnalysisCPA");
    let w = Config::preset("octagon-widening").unwrap();
    assert_eq!(w.get("cpa.octagon.mergeop.type"), "WIDENING");
    assert_eq!(w.get("analysis.traversal.useReversePostorder"), "true");
}

#[test]
fn unknown_keys_and_bad_values_name_key_file_and_line() {
    let e = Config::parse("# comment\ncpa.value.merge = JOIN\nfoo.bar = 1\n", "my.properties").unwrap_err();
    assert_eq!(e.message, "my.properties:3: unknown option `foo.bar`");
    let e = Config::parse("\ncpa.value.merge = MAYBE\n", "my.properties").unwrap_err();
    assert!(e.message.starts_with("my.properties:2: bad value for `cpa.value.merge`"), "{}", e.message);
    let e = Config::parse("limits.steps = -3", "x.properties").unwrap_err();
    assert!(e.message.contains("x.properties:1") && e.message.contains("limits.steps"), "{}", e.message);
    let e = Config::parse("CompositeCPA.cpas = cpa.location.LocationCPA, cpa.foo.FooCPA", "x.properties").unwrap_err();
    assert!(e.message.contains("unknown CPA `cpa.foo.FooCPA`"), "{}", e.message);
    let e = Config::parse("#include nothere.properties", "x.properties").unwrap_err();
    assert!(e.message.contains("x.properties:1") && e.message.contains("nothere.properties"), "{}", e.message);
    let mut c = Config::preset("value").unwrap();
    let e = c.set_pair("no.such.key=1").unwrap_err();
    assert!(e.message.contains("no.such.key"), "{}", e.message);
    assert!(c.set_pair("analysis.traversal.order=bfs").is_ok());
    assert_eq!(c.get("analysis.traversal.order"), "BFS");
}

#[test]
fn octagon_presets_fail_cleanly_until_the_octagon_cpa_exists() {
    let program = CfaBuilder::new().build();
    let c = Config::preset("octagon-widening").unwrap();
    match engine::build_analysis(program, &c, true) {
        Ok(_) => {} // the Octagon CPA has been registered
        Err(e) => assert!(e.message.contains("Octagon CPA is not available"), "{}", e.message),
    }
}

#[test]
fn a_composite_without_location_is_rejected() {
    let program = CfaBuilder::new().build();
    let c = Config::parse("CompositeCPA.cpas = cpa.value.ValueAnalysisCPA", "x.properties").unwrap();
    let e = engine::build_analysis(program, &c, true).err().unwrap();
    assert!(e.message.contains("x.properties:1") && e.message.contains("LocationCPA"), "{}", e.message);
}

#[test]
fn files_on_disk_include_relative_to_themselves() {
    let dir = std::env::temp_dir().join(format!("engine-config-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("base.properties"), "cpa.value.merge = JOIN\n").unwrap();
    std::fs::write(
        dir.join("top.properties"),
        "#include base.properties\n#include value.properties\nanalysis.traversal.order = BFS\n",
    )
    .unwrap();
    let c = Config::load(dir.join("top.properties").to_str().unwrap()).unwrap();
    // value.properties (an embedded preset) sets merge back to SEP after base.
    assert_eq!(c.get("cpa.value.merge"), "SEP");
    assert_eq!(c.get("analysis.traversal.order"), "BFS");
    std::fs::remove_dir_all(&dir).ok();
}
