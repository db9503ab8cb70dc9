//! `cpaplay cfa` and `cpaplay run`, driven through the built binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn cpaplay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cpaplay")).args(args).output().expect("cpaplay runs")
}

/// Writes `src` to a fresh temporary file named `name` and returns its path.
fn temp_file(name: &str, src: &str) -> String {
    let dir = std::env::temp_dir().join(format!("cpaplay-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, src).unwrap();
    path.to_string_lossy().into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const LOOP: &str = "int main() {\n  int x = 0;\n  while (x < 3) {\n    x++;\n  }\n  if (x == 3) reach_error();\n  return x;\n}\n";

#[test]
fn cfa_listing_marks_loop_heads_and_error_nodes() {
    let f = temp_file("loop.c", LOOP);
    let o = cpaplay(&["cfa", &f]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "function main (entry N0, exit N8)\n\
         \x20 N0 -> N1  line 2  int x = 0;\n\
         \x20 N1 -> N2  line 3  while\n\
         \x20 N2 -> N3  line 3  [x < 3]\n\
         \x20 N2 -> N4  line 3  [!(x < 3)]\n\
         \x20 N3 -> N2  line 4  x = x + 1;\n\
         \x20 N4 -> N5  line 6  [x == 3]\n\
         \x20 N4 -> N6  line 6  [!(x == 3)]\n\
         \x20 N5 -> N7  line 6  reach_error()\n\
         \x20 N6 -> N8  line 7  return x;\n\
         \x20 loop heads: N2\n\
         \x20 error nodes: N7 (line 6)\n"
    );
}

#[test]
fn cfa_dot_has_clusters_and_marked_nodes() {
    let f = temp_file("loop_dot.c", LOOP);
    let o = cpaplay(&["cfa", &f, "--dot"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("digraph cfa {\n"), "{out}");
    assert!(out.trim_end().ends_with('}'));
    assert!(out.contains("subgraph cluster_0 {\n    label=\"main\";"), "{out}");
    assert!(out.contains("    N2 [shape=doublecircle];"), "{out}");
    assert!(out.contains("    N7 [color=red, fontcolor=red, style=bold];"), "{out}");
    assert!(out.contains("  N2 -> N3 [label=\"[x < 3]\"];"), "{out}");
    assert!(out.contains("  N2 -> N4 [label=\"[!(x < 3)]\"];"), "{out}");
}

#[test]
fn cfa_json_has_the_documented_shape() {
    let f = temp_file("loop_json.c", LOOP);
    let o = cpaplay(&["cfa", &f, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["main"], "main");
    assert_eq!(v["functions"][0]["name"], "main");
    assert_eq!(v["functions"][0]["entry"], 0);
    assert_eq!(v["functions"][0]["exit"], 8);
    assert_eq!(v["nodes"].as_array().unwrap().len(), 9);
    assert_eq!(v["nodes"][2]["loop_head"], true);
    assert_eq!(v["nodes"][7]["error"], true);
    assert_eq!(v["nodes"][0]["kind"], "entry");
    let e = &v["edges"][2];
    assert_eq!(e["source"], 2);
    assert_eq!(e["target"], 3);
    assert_eq!(e["kind"], "assume");
    assert_eq!(e["label"], "[x < 3]");
    assert_eq!(e["line"], 3);
    assert_eq!(v["variables"][1]["qualified"], "main::x");
}

#[test]
fn run_prints_path_outcome_and_final_values() {
    let f = temp_file("loop_run.c", LOOP);
    let o = cpaplay(&["run", &f]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("integer model: c\npath (11 steps):\n  line   2  N0 -> N1  int x = 0;\n"), "{out}");
    assert!(out.contains("  line   6  N5 -> N7  reach_error()\n"), "{out}");
    assert!(out.ends_with("outcome: reached the error location N7 (line 6)\nfinal values:\n  main::x = 3\n"), "{out}");
}

#[test]
fn run_takes_inputs_and_the_integer_model() {
    let src =
        "int main() {\n  unsigned int x = __VERIFIER_nondet_uint();\n  x = x - 1;\n  if (x > 5) reach_error();\n  return 0;\n}\n";
    let f = temp_file("wrap.c", src);
    let c = stdout(&cpaplay(&["run", &f, "--inputs", "0", "--int-model", "c"]));
    assert!(c.contains("inputs used: 0\noutcome: reached the error location"), "{c}");
    assert!(c.ends_with("main::x = 4294967295\n"), "{c}");
    let m = stdout(&cpaplay(&["run", &f, "--inputs=0", "--int-model=math"]));
    assert!(m.contains("outcome: main returned 0\n"), "{m}");
    assert!(m.ends_with("main::x = -1\n"), "{m}");
    let extra = stdout(&cpaplay(&["run", &f, "--inputs", "7, 8,9"]));
    assert!(extra.ends_with("main::x = 6\nnote: 2 of the 3 inputs were not used\n"), "{extra}");
    let none = stdout(&cpaplay(&["run", &f]));
    assert!(none.contains("outcome: ran out of inputs (edge 0) at line 2\n"), "{none}");
}

#[test]
fn run_stops_at_the_step_limit() {
    let f = temp_file("forever.c", "int main() {\n  int x = 0;\n  while (1) x++;\n}\n");
    let o = cpaplay(&["run", &f, "--max-steps", "20"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("outcome: step limit reached after 20 steps\n"), "{}", stdout(&o));
}

#[test]
fn a_syntax_error_is_reported_with_file_line_and_column() {
    let f = temp_file("bad.c", "int main() {\n  int x = 1;\n  x = x +;\n  return x;\n}\n");
    let o = cpaplay(&["cfa", &f]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.starts_with(&format!("{f}:3:10: error: ")), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(stdout(&o).is_empty());
    let o = cpaplay(&["run", &f]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with(&format!("{f}:3:10: error: ")));
}

#[test]
fn an_unsupported_construct_names_its_position() {
    let f = temp_file("union.c", "int main() {\n  int x = 1;\n  union u v;\n  return x;\n}\n");
    let o = cpaplay(&["cfa", &f]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.starts_with(&format!("{f}:3:")), "{err}");
    assert!(err.contains("error: "), "{err}");
}

/// A memory error is a located outcome of `run`, not a crash.
#[test]
fn run_reports_a_memory_error_with_its_edge() {
    let f = temp_file("oob.c", "int main() {\n  int a[2];\n  a[2] = 1;\n  return 0;\n}\n");
    let o = cpaplay(&["run", &f]);
    let out = stdout(&o);
    assert!(out.contains("memory error: out-of-bounds access: 4 bytes at offset 8 of an object of 8 bytes"), "{out}");
    assert!(!stderr(&o).contains("panicked"));
}

#[test]
fn warnings_go_to_stderr_and_do_not_fail() {
    let f = temp_file("warn.c", "extern int systemCall(void);\nint main() {\n  int s = systemCall();\n  return s;\n}\n");
    let o = cpaplay(&["cfa", &f]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stderr(&o),
        format!("{f}:3:11: warning: `systemCall` is declared but not defined; each call yields an arbitrary value\n")
    );
}

#[test]
fn a_missing_file_is_bad_input() {
    let o = cpaplay(&["cfa", "/definitely/not/here.c"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("/definitely/not/here.c: cannot read file"), "{}", stderr(&o));
}

#[test]
fn bad_options_are_usage_errors() {
    let f = temp_file("ok.c", LOOP);
    for args in [
        vec!["cfa", f.as_str(), "--bogus"],
        vec!["cfa", f.as_str(), "--dot", "--json"],
        vec!["cfa"],
        vec!["run", f.as_str(), "--int-model", "float"],
        vec!["run", f.as_str(), "--inputs", "1,x"],
        vec!["run", f.as_str(), "--max-steps"],
        vec!["run", f.as_str(), "--frobnicate"],
    ] {
        let o = cpaplay(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("cpaplay: "), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
}
