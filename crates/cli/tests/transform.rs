//! `cpaplay transform` and the transform presets through `cpaplay verify`
//! (the real binary).

use std::process::Command;

fn cpaplay(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cpaplay")).args(args).output().expect("run cpaplay")
}

fn write(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("cpaplay-transform-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

const EVEN: &str = "extern void reach_error(void);\nint g = 0;\nint main() {\n  int x = 0;\n  int n = __VERIFIER_nondet_int();\n  while (__VERIFIER_nondet_int()) { x = x + 2; }\n  g = n + 1;\n  if (x % 2 == 1) reach_error();\n  return 0;\n}\n";

#[test]
fn transform_prints_lifts_domain_operations_and_frozen_globals() {
    let f = write("even.c", EVEN);
    let out = cpaplay(&["transform", &f, "--domain", "parity", "--lift", "x"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("abstract x = lift(0);"), "{text}");
    assert!(text.contains("x = a_add(x, lift(2));"), "{text}");
    assert!(text.contains("freeze(&g, a_add(n, lift(1)));"), "{text}");
    assert!(text.contains("// line 6:"), "each line names its original line: {text}");
    let json = cpaplay(&["transform", &f, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["domain"], "term");
    assert!(v["lines"].as_array().unwrap().iter().any(|l| l["marks"].as_array().unwrap().iter().any(|m| m == "freeze")));
    let bad = cpaplay(&["transform", &f, "--lift", "nope"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no variable `nope`"));
}

#[test]
fn verify_with_a_transform_preset_reports_stored_states_and_equivalence_checks() {
    let f = write("even2.c", EVEN);
    let out = cpaplay(&["verify", &f, "--config", "transform-parity", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "true", "{v}");
    assert!(v["states_stored"].as_u64().unwrap() > 0);
    assert_eq!(v["equivalence_checks"], 0);
    let text = cpaplay(&["verify", &f, "--config", "transform-parity"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("states stored:"));
}
