//! `cpaplay verify` and `cpaplay trace` end to end (the real binary).

use std::process::Command;

fn cpaplay(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cpaplay")).args(args).output().expect("run cpaplay")
}

fn write(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("cpaplay-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

const UNSAFE: &str = "extern void reach_error(void);\nint main() {\n  int x = 1;\n  if (x == 1) reach_error();\n  return 0;\n}\n";
const SAFE: &str = "extern void reach_error(void);\nint main() {\n  int x = 1;\n  if (x == 2) reach_error();\n  return 0;\n}\n";

#[test]
fn verify_json_has_the_documented_keys_and_types() {
    let f = write("unsafe.c", UNSAFE);
    let out = cpaplay(&["verify", &f, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "false");
    assert!(v["reason"].as_str().unwrap().contains("unconfirmed"));
    for k in ["reached", "created", "steps", "refinements", "solver_queries", "retention_disjuncts", "time_ms"] {
        assert!(v[k].is_u64(), "{k}: {}", v[k]);
    }
    assert_eq!(v["confirmed"], false);
    assert_eq!(v["int_model"], "c", "C's integers are the default");
    assert_eq!(v["config"]["cpa.value.merge"], "SEP");
    let path = v["error_path"].as_array().unwrap();
    assert_eq!(path.last().unwrap()["line"], 4);
    assert!(path.iter().all(|e| e["label"].is_string() && e["line"].is_u64()));

    let f = write("safe.c", SAFE);
    let out = cpaplay(&["verify", &f, "--json", "--int-model", "c", "--set", "analysis.traversal.order=BFS"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "true");
    assert_eq!(v["int_model"], "c");
    assert_eq!(v["config"]["analysis.traversal.order"], "BFS");
    assert!(v["error_path"].is_null());
    assert!(v["confirmed"].is_null());
}

#[test]
fn verify_text_starts_with_the_result_line() {
    let f = write("safe2.c", SAFE);
    let out = cpaplay(&["verify", &f]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Verification result: TRUE\n"), "{text}");
    assert!(text.contains("steps (waitlist pops):"), "{text}");
}

#[test]
fn max_steps_gives_unknown() {
    let f = write("loop.c", "int main() { int x = 0; while (1) { x = x + 1; } return 0; }\n");
    let out = cpaplay(&["verify", &f, "--max-steps", "30", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "unknown");
    assert!(v["reason"].as_str().unwrap().contains("limits.steps = 30"));
    assert_eq!(v["steps"], 30);
}

#[test]
fn trace_json_is_a_list_of_events_from_start_to_finish() {
    let f = write("unsafe2.c", UNSAFE);
    let out = cpaplay(&["trace", &f, "--json"]);
    assert!(out.status.success());
    let events: Vec<engine::Event> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(matches!(events.first(), Some(engine::Event::AnalysisStarted { .. })));
    assert!(matches!(events.last(), Some(engine::Event::AnalysisFinished { verdict: engine::Verdict::False, .. })));
    let text = cpaplay(&["trace", &f]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("step 1: pop s0 @N"), "{text}");
    assert!(text.contains("finished: FALSE"), "{text}");
}

#[test]
fn bad_options_exit_2_naming_the_problem() {
    let f = write("safe3.c", SAFE);
    let out = cpaplay(&["verify", &f, "--set", "no.such.option=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no.such.option"));
    let out = cpaplay(&["verify", &f, "--set", "cpa.value.merge=SOMETIMES"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cpa.value.merge"));
    let out = cpaplay(&["verify", &f, "--config", "nonsense"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown configuration `nonsense`"));
    let out = cpaplay(&["verify", &f, "--int-model", "java"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bad_programs_exit_1_with_file_line_column() {
    let f = write("bad.c", "int main() {\n  union u v;\n  return 0;\n}\n");
    let out = cpaplay(&["verify", &f]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.c:2:"), "{err}");
    assert!(err.contains("error:"), "{err}");
}

const DEEP_BUG: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main() {\n  int x = __VERIFIER_nondet_int();\n  int i = 0;\n  while (i < 5) { i++; }\n  if (x * 3 == 126) reach_error();\n  return 0;\n}\n";

#[test]
fn cegar_false_is_confirmed_with_inputs_refinements_and_source_lines() {
    let f = write("deep.c", DEEP_BUG);
    let out = cpaplay(&["verify", &f, "--config", "value-cegar", "--int-model", "c", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "false");
    assert_eq!(v["confirmed"], true);
    assert_eq!(v["inputs"], serde_json::json!(["42"]));
    assert!(v["refinements"].as_u64().unwrap() >= 1, "{}", v["refinements"]);
    assert!(v["solver_queries"].as_u64().unwrap() >= 1);
    let path = v["error_path"].as_array().unwrap();
    let last = path.last().unwrap();
    assert_eq!(last["line"], 7);
    assert_eq!(last["code"], "if (x * 3 == 126) reach_error();");
    assert!(v["precision"].as_str().unwrap().contains("main::i"), "{}", v["precision"]);

    let text = String::from_utf8(cpaplay(&["verify", &f, "--config", "value-cegar"]).stdout).unwrap();
    assert!(text.starts_with("Verification result: FALSE\n"), "{text}");
    assert!(text.contains("Confirmed: yes"), "{text}");
    assert!(text.contains("| if (x * 3 == 126) reach_error();"), "{text}");
    assert!(text.contains("refinements:"), "{text}");

    let text = String::from_utf8(cpaplay(&["verify", &f]).stdout).unwrap();
    assert!(text.contains("Confirmed: no"), "a plain value analysis does not check its path: {text}");
}

#[test]
fn trace_of_a_cegar_run_has_counterexample_refinement_and_restart_events() {
    let f = write("deep2.c", DEEP_BUG);
    let out = cpaplay(&["trace", &f, "--config", "octagon-cegar", "--json"]);
    let events: Vec<engine::Event> = serde_json::from_slice(&out.stdout).unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e.kind()).collect();
    for k in ["counterexample", "refinement", "restart", "solver_query"] {
        assert!(kinds.contains(&k), "{k} missing");
    }
    assert_eq!(kinds.iter().filter(|k| **k == "analysis_started").count(), 1);
    assert_eq!(kinds.iter().filter(|k| **k == "analysis_finished").count(), 1);
    let text = String::from_utf8(cpaplay(&["trace", &f, "--config", "octagon-cegar"]).stdout).unwrap();
    assert!(text.contains("refinement: new precision"), "{text}");
    assert!(text.contains("restart with octagon-cegar"), "{text}");
}

#[test]
fn table_runs_the_new_configurations() {
    let dir = std::env::temp_dir().join(format!("cpaplay-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bug.c"), DEEP_BUG).unwrap();
    std::fs::write(dir.join("MANIFEST.tsv"), "path\texpected_verdict\tcategory\nbug.c\tfalse\tdemo\n").unwrap();
    let out = cpaplay(&["table", dir.to_str().unwrap(), "--config", "value-cegar,octagon-widening-cex", "--int-model", "c"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("| bug.c | false | false ✓ |"), "{text}");
    assert!(text.contains("FALSE confirmed"), "{text}");
}

fn z3_installed() -> bool {
    Command::new("z3").arg("-version").output().is_ok()
}

/// SV-COMP's `loop-invgen/down.i` in our own words (safe): symbolic
/// execution checks the target its windowed queries reach and goes on.
const DOWN: &str = include_str!("../../engine/tests/programs/down-shaped.c");
const DOWN_UNSAFE: &str = include_str!("../../engine/tests/programs/down-shaped-unsafe.c");

#[test]
fn symbolic_refutes_the_false_alarm_on_the_down_shaped_program() {
    if !z3_installed() {
        eprintln!("z3 not installed: skipped");
        return;
    }
    let f = write("down.c", DOWN);
    let out = cpaplay(&["verify", &f, "--config", "symbolic", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "true", "{}", v["reason"]);
    assert!(v["statistics"]["targets_refuted"].as_u64().unwrap() >= 1, "{}", v["statistics"]);

    let f = write("down-unsafe.c", DOWN_UNSAFE);
    let out = cpaplay(&["verify", &f, "--config", "symbolic"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Verification result: FALSE\n"), "{text}");
    assert!(text.contains("Confirmed: yes"), "{text}");
    assert!(text.contains("Error path ("), "{text}");
}

/// An off-by-one under `value`: FALSE, unconfirmed; `--check-path` finds
/// the input (`count = 8`) and replays it.
const OFF_BY_ONE: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) {\n  int count = __VERIFIER_nondet_int();\n  if (count > 8) return 0;\n  int i = 0;\n  while (i <= count) {\n    if (i == 8) reach_error();\n    i++;\n  }\n  return 0;\n}\n";

#[test]
fn check_path_confirms_an_unconfirmed_false_with_inputs() {
    let f = write("off-by-one.c", OFF_BY_ONE);
    let out = cpaplay(&["verify", &f]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Confirmed: no"), "{text}");
    assert!(text.contains("--check-path"), "the hint names the option: {text}");
    if !z3_installed() {
        eprintln!("z3 not installed: the rest skipped");
        return;
    }
    let out = cpaplay(&["verify", &f, "--check-path"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Verification result: FALSE\n"), "the verdict stays: {text}");
    assert!(
        text.contains("Path check: confirmed — the concrete interpreter reaches the error location with nondet inputs [8]"),
        "{text}"
    );
    let out = cpaplay(&["verify", &f, "--check-path", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["path_check"]["confirmed"], true);
    assert_eq!(v["path_check"]["inputs"][0], "8");
    // A safe program has no path to check.
    let f = write("safe3.c", SAFE);
    let out = cpaplay(&["verify", &f, "--check-path", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["path_check"].is_null());
    // Only `verify` takes it.
    let out = cpaplay(&["trace", &f, "--check-path"]);
    assert!(!out.status.success());
}

/// Block-abstraction memoization's counters: in `verify --json`, in the
/// text statistics, and the BAM events in `trace --json`. The program calls
/// `inc` five times: with value CEGAR's empty precision `inc(a)` and
/// `inc(0)` are two cache entries per iteration, the other three calls hit
/// (two iterations: 4 misses, 6 hits).
#[test]
fn bam_counts_cache_hits_and_misses() {
    let f = write("five.c", include_str!("../../engine/tests/programs/bam/five.c"));
    let out = cpaplay(&["verify", &f, "--config", "bam-value", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "true");
    assert_eq!((v["cache_hits"].as_u64(), v["cache_misses"].as_u64(), v["blocks_entered"].as_u64()), (Some(6), Some(4), Some(4)));
    let out = cpaplay(&["verify", &f, "--config", "bam-value"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("BAM cache hits / misses:  6 / 4 (4 blocks entered)"), "{text}");
    let out = cpaplay(&["trace", &f, "--config", "bam-value", "--json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for kind in ["cache_miss", "block_entered", "block_exited", "cache_hit", "block_expanded", "cache_invalidated"] {
        assert!(text.contains(&format!("\"event\":\"{kind}\"")), "{kind}");
    }
}
