//! C's integers by default, and the caveat of a TRUE under mathematical
//! integers (the real binary).
//!
//! Each program below reaches its error location under C's semantics but not
//! over mathematical integers. Under the default integer model no preset may
//! answer TRUE; under an explicit `--int-model math` a TRUE must name the
//! operation whose C result differs.

use std::process::Command;

fn cpaplay(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_cpaplay")).args(args).output().expect("run cpaplay");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn write(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("cpaplay-int-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

const HEADER: &str = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n";

/// (name, body of `main`, the operation a `math` TRUE must name, its line).
const C_ONLY_ERRORS: &[(&str, &str, &str, u32)] = &[
    ("unsigned-wrap", "unsigned int x = 0;\n  x = x - 1;\n  if (x > 0) reach_error();", "x - 1", 5),
    (
        "signed-overflow",
        "int x = __VERIFIER_nondet_int();\n  if (x > 0) {\n    int y = x + 1;\n    if (y <= 0) reach_error();\n  }",
        "x + 1",
        6,
    ),
    ("char-wrap", "char c = 127;\n  c = c + 1;\n  if (c < 0) reach_error();", "(char)", 5),
    ("short-wrap", "short s = 32767;\n  s = s + 1;\n  if (s < 0) reach_error();", "(short)", 5),
    ("shift-then-multiply", "int x = 1;\n  x = x << 30;\n  x = x * 2;\n  if (x < 0) reach_error();", "x * 2", 6),
    (
        "unsigned-compare",
        "int x = __VERIFIER_nondet_int();\n  if (x < 0) {\n    if ((unsigned)x > 5u) reach_error();\n  }",
        "(unsigned int) x",
        6,
    ),
];

const PRESETS: &[&str] = &["value", "value-join", "octagon-sep", "octagon-join", "octagon-widening", "value-cegar", "symbolic"];

fn program(body: &str) -> String {
    format!("{HEADER}int main() {{\n  {body}\n  return 0;\n}}\n")
}

#[test]
fn the_default_integer_model_is_c_and_no_preset_says_true() {
    for (name, body, _, _) in C_ONLY_ERRORS {
        let f = write(&format!("{name}.c"), &program(body));
        for preset in PRESETS {
            let v = cpaplay(&["verify", &f, "--config", preset, "--json"]);
            assert_eq!(v["int_model"], "c", "{name} {preset}");
            assert_ne!(v["verdict"], "true", "{name} under {preset}: wrong TRUE under the default model: {v}");
            assert!(v["int_model_caveat"].is_null(), "{name} {preset}");
        }
    }
}

#[test]
fn a_true_under_math_names_the_operation_whose_c_result_differs() {
    for (name, body, operation, line) in C_ONLY_ERRORS {
        let f = write(&format!("{name}-math.c"), &program(body));
        let mut trues = 0;
        for preset in PRESETS {
            let v = cpaplay(&["verify", &f, "--config", preset, "--int-model", "math", "--json"]);
            assert_eq!(v["int_model"], "math");
            if v["verdict"] != "true" {
                continue;
            }
            trues += 1;
            let c = &v["int_model_caveat"];
            assert!(c["operation"].as_str().unwrap().contains(operation), "{name} {preset}: {c}");
            assert_eq!(c["line"], *line, "{name} {preset}: {c}");
            let reason = v["reason"].as_str().unwrap();
            assert!(reason.contains("mathematical integers only") && reason.contains(&format!("line {line}")), "{reason}");
        }
        assert!(trues > 0, "{name}: no preset proves it over mathematical integers, so the caveat is never exercised");
    }
}

#[test]
fn a_math_true_without_operations_that_could_differ_has_no_caveat() {
    // i stays in 0..10: the octagon knows it, so `i + 1` cannot overflow.
    let f =
        write("bounded-loop.c", &program("int i = 0;\n  while (i < 10) {\n    i = i + 1;\n  }\n  if (i > 10) reach_error();"));
    let v = cpaplay(&["verify", &f, "--config", "octagon-widening", "--int-model", "math", "--json"]);
    assert_eq!(v["verdict"], "true", "{v}");
    assert!(v["int_model_caveat"].is_null(), "{v}");
    assert!(!v["reason"].as_str().unwrap().contains("mathematical integers only"));
}

#[test]
fn the_text_output_shows_the_caveat_in_the_reason() {
    let f = write("wrap-text.c", &program("unsigned int x = 0;\n  x = x - 1;\n  if (x > 0) reach_error();"));
    let out = Command::new(env!("CARGO_BIN_EXE_cpaplay"))
        .args(["verify", &f, "--config", "value", "--int-model", "math"])
        .output()
        .expect("run cpaplay");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Verification result: TRUE\n"), "{text}");
    assert!(text.contains("under C's integers the result could differ — line 5"), "{text}");
}
