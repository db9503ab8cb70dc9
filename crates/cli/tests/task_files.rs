//! `cpaplay verify TASK.yml`, `cpaplay table` over task files and
//! `cpaplay verify --witness` end to end (the real binary).

use std::path::PathBuf;
use std::process::Command;

fn cpaplay(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cpaplay")).args(args).output().expect("run cpaplay")
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cpaplay-tasks-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(d: &std::path::Path, name: &str, text: &str) -> String {
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

const UNSAFE: &str = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main() {\n  int x = __VERIFIER_nondet_int();\n  if (x == 41) reach_error();\n  return 0;\n}\n";
const SAFE: &str = "extern void reach_error(void);\nint main() {\n  int i = 0;\n  while (i < 5) i++;\n  if (i != 5) reach_error();\n  return 0;\n}\n";

fn task(file: &str, properties: &str, data_model: &str) -> String {
    format!("format_version: '2.0'\ninput_files: '{file}'\nproperties:\n{properties}\noptions:\n  language: C\n  data_model: {data_model}\n")
}

const UNREACH_FALSE: &str = "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false";
const UNREACH_TRUE: &str = "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true";

fn text(out: &std::process::Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn verify_reads_a_task_file_and_compares_the_expected_verdict() {
    let d = dir("verify");
    write(&d, "unsafe.c", UNSAFE);
    let t = write(&d, "unsafe.yml", &task("unsafe.c", UNREACH_FALSE, "ILP32"));
    let (out, err) = text(&cpaplay(&["verify", &t, "--config", "value-cegar"]));
    assert!(out.contains("Verification result: FALSE"), "{out}{err}");
    assert!(out.contains("Expected verdict: false — matches"), "{out}");
    let wrong = write(&d, "claims-safe.yml", &task("unsafe.c", UNREACH_TRUE, "ILP32"));
    let (out, _) = text(&cpaplay(&["verify", &wrong, "--config", "value-cegar", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["task"]["expected_verdict"], true);
    assert_eq!(v["task"]["matches_expected"], false);
    // A real SV-COMP task file (format 1.0, no options).
    let svcomp = svcomp_tasks::folder().join("loop-acceleration/const_1-2.yml");
    let (out, err) = text(&cpaplay(&["verify", svcomp.to_str().unwrap(), "--config", "value"]));
    assert!(out.contains("Task: ") && out.contains("expected verdict false"), "{out}{err}");
}

#[test]
fn bad_task_files_get_located_messages() {
    let d = dir("bad");
    write(&d, "p.c", SAFE);
    let broken =
        write(&d, "broken.yml", "format_version: '2.0'\ninput_files: 'p.c'\nproperties:\n  - property_file: [unclosed\n");
    let out = cpaplay(&["verify", &broken]);
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("broken.yml:") && err.contains("not a valid SV-COMP task definition"), "{err}");
    let line_col = err.split("broken.yml:").nth(1).unwrap_or("");
    assert!(line_col.starts_with(|c: char| c.is_ascii_digit()) && line_col.contains(':'), "line:column in {err}");
    let lp64 = write(&d, "lp64.yml", &task("p.c", UNREACH_TRUE, "LP64"));
    let (_, err) = text(&cpaplay(&["verify", &lp64]));
    assert!(err.contains("lp64.yml:8:15: error: data model `LP64` is not supported"), "{err}");
    let term = "  - property_file: ../properties/termination.prp\n    expected_verdict: true";
    let only_termination = write(&d, "term.yml", &task("p.c", term, "ILP32"));
    let (_, err) = text(&cpaplay(&["verify", &only_termination]));
    assert!(err.contains("term.yml:4:") && err.contains("property termination not supported"), "{err}");
    let missing = write(&d, "missing.yml", "format_version: '2.0'\nproperties: []\n");
    let (_, err) = text(&cpaplay(&["verify", &missing]));
    assert!(err.contains("missing.yml:") && err.contains("input_files"), "{err}");
}

#[test]
fn table_reads_a_folder_of_task_files() {
    let d = dir("table");
    write(&d, "unsafe.c", UNSAFE);
    write(&d, "unsafe.yml", &task("unsafe.c", UNREACH_FALSE, "ILP32"));
    write(&d, "safe.c", SAFE);
    write(
        &d,
        "safe.yml",
        &task(
            "safe.c",
            &format!("{UNREACH_TRUE}\n  - property_file: ../properties/termination.prp\n    expected_verdict: true"),
            "ILP32",
        ),
    );
    write(&d, "lp64.yml", &task("safe.c", UNREACH_TRUE, "LP64"));
    let (out, err) = text(&cpaplay(&["table", d.to_str().unwrap(), "--config", "value"]));
    assert!(out.contains("| safe.c | true | true |"), "{out}{err}");
    assert!(out.contains("| unsafe.c | false | false"), "{out}");
    assert!(err.contains("skipped:") && err.contains("LP64"), "{err}");
}

#[test]
fn table_generated_by_line_repeats_every_option() {
    let d = dir("table-generated-by");
    write(&d, "safe.c", SAFE);
    write(&d, "safe.yml", &task("safe.c", UNREACH_TRUE, "ILP32"));
    let folder = d.to_str().unwrap();
    let args = ["table", folder, "--config", "value", "--max-steps", "50", "--set", "restartAlgorithm.stageTimeMs=5000"];
    let (out, err) = text(&cpaplay(&args));
    let expected = "--config value --int-model c --max-steps 50 --set restartAlgorithm.stageTimeMs=5000`.";
    assert!(out.contains(expected), "{out}{err}");
}

#[test]
fn verify_writes_violation_and_correctness_witnesses() {
    let d = dir("witness");
    let unsafe_c = write(&d, "unsafe.c", UNSAFE);
    let out_file = d.join("violation.yml");
    let (out, err) = text(&cpaplay(&["verify", &unsafe_c, "--config", "value-cegar", "--witness", out_file.to_str().unwrap()]));
    assert!(out.contains("Witness: violation witness with 3 waypoints written to"), "{out}{err}");
    let w = std::fs::read_to_string(&out_file).unwrap();
    assert!(w.contains("entry_type: violation_sequence") && w.contains("\\result == 41") && w.contains("type: target"), "{w}");
    let safe_c = write(&d, "safe.c", SAFE);
    let out_file = d.join("correctness.yml");
    let (out, err) =
        text(&cpaplay(&["verify", &safe_c, "--config", "octagon-widening", "--witness", out_file.to_str().unwrap()]));
    assert!(out.contains("Witness: correctness witness with 1 loop invariants written to"), "{out}{err}");
    let w = std::fs::read_to_string(&out_file).unwrap();
    assert!(w.contains("entry_type: invariant_set") && w.contains("type: loop_invariant") && w.contains("i <= 5"), "{w}");
    // An unconfirmed FALSE gets no witness, and says why.
    let (out, _) = text(&cpaplay(&["verify", &unsafe_c, "--config", "value", "--witness", out_file.to_str().unwrap()]));
    assert!(out.contains("Witness: none written — the FALSE is not confirmed"), "{out}");
    // Math integers: refused before the run.
    let o = cpaplay(&["verify", &safe_c, "--int-model", "math", "--witness", out_file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}
