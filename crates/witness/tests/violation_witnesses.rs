//! Violation witnesses for every confirmed FALSE of the SV-COMP folder
//! (under `octagon-join-cex`, which confirms most FALSE tasks quickly):
//! each witness parses, has the format's structure (checked on the plain
//! YAML), and replaying the nondet values it prescribes — read from the
//! witness file, in order — with the concrete interpreter reaches the error.

use engine::cegar::build_verifier;
use engine::{Config, Stepper, Verdict};
use std::sync::Arc;
use witness::check::{check_structure, prescribed_inputs};

#[test]
fn every_confirmed_false_gets_a_witness_that_replays_to_the_error() {
    let mut config = Config::preset("octagon-join-cex").unwrap();
    config.set("analysis.intModel", "C").unwrap();
    config.set("limits.steps", "20000").unwrap();
    let mut checked = Vec::new();
    for task in svcomp_tasks::tasks().into_iter().filter(|t| t.expected == svcomp_tasks::Expected::False) {
        let source = task.source();
        let program = Arc::new(cfa::from_source(&source).unwrap_or_else(|d| panic!("{}: {d:?}", task.path)));
        let mut verifier = build_verifier(program.clone(), &config, false).unwrap();
        verifier.run_with(|_| {});
        if verifier.outcome().map(|o| o.0) != Some(Verdict::False) || verifier.confirmed() != Some(true) {
            continue;
        }
        let run = witness::RunInfo {
            file_name: task.path.rsplit('/').next().unwrap().to_string(),
            file_bytes: source.as_bytes().to_vec(),
            configuration: "octagon-join-cex".into(),
            data_model: "ILP32".into(),
            created_at: 1_796_000_000,
        };
        let entries = witness::violation_witness(&program, &source, &run, verifier.inputs())
            .unwrap_or_else(|e| panic!("{}: {e}", task.path));
        let text = witness::to_yaml(&entries);
        let summary = check_structure(&text, &source).unwrap_or_else(|e| panic!("{}: {e}\n{text}", task.path));
        assert_eq!(witness::from_yaml(&text).unwrap(), entries, "{}: reads back as written", task.path);
        let values = prescribed_inputs(&entries).unwrap();
        let exec = concrete::execute(&program, &mut concrete::SliceInputs::new(values.clone()), concrete::Options::default());
        assert!(
            matches!(exec.outcome, concrete::Outcome::ReachedError { .. }),
            "{}: replaying the witness's values {values:?} gives {}\n{text}",
            task.path,
            exec.outcome
        );
        checked.push((task.path.clone(), summary.waypoints.len()));
    }
    println!("{} witnesses checked: {checked:?}", checked.len());
    // docs/svcomp-results.md: octagon-join-cex confirms 13 FALSE tasks.
    assert!(checked.len() >= 10, "only {} confirmed FALSE tasks: {checked:?}", checked.len());
}

#[test]
fn a_witness_names_the_nondet_values_the_branches_and_the_target() {
    let source = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main() {\n  int x = __VERIFIER_nondet_int();\n  int y;\n  y = __VERIFIER_nondet_int();\n  if (x > 5) {\n    if (y == x + 1) reach_error();\n  }\n  return 0;\n}\n";
    let program = cfa::from_source(source).unwrap();
    let run = witness::RunInfo {
        file_name: "t.c".into(),
        file_bytes: source.as_bytes().to_vec(),
        configuration: "value-cegar".into(),
        data_model: "ILP32".into(),
        created_at: 0,
    };
    let entries = witness::violation_witness(&program, source, &run, &[7, 8]).unwrap();
    let text = witness::to_yaml(&entries);
    let summary = check_structure(&text, source).unwrap();
    assert_eq!(summary.waypoints, ["function_return", "function_return", "branching", "branching", "target"], "{text}");
    assert!(text.contains("value: \\result == 7") && text.contains("value: \\result == 8"), "{text}");
    assert!(text.contains("line: 4\n          column: 33"), "the first call's closing parenthesis:\n{text}");
    assert!(text.contains("line: 8\n          column: 21"), "the target is the reach_error() call:\n{text}");
    assert_eq!(prescribed_inputs(&entries).unwrap(), [7, 8]);
    let err = witness::violation_witness(&program, source, &run, &[7, 9]).unwrap_err();
    assert!(err.contains("does not reach the error"), "{err}");
}
