//! Correctness witnesses: for every TRUE of the SV-COMP folder under the
//! fast presets (`octagon-widening`, `value-join`, `value`), the invariant
//! set has the format's structure, and every loop invariant — read from
//! the witness file, mapped back to its loop head by its location — holds
//! at every visit of that loop head in concrete runs on random inputs (one
//! that fails is an unsound witness). Predicate abstraction's invariants
//! are checked the same way on a small program.

use cfa::Program;
use engine::cegar::build_verifier;
use engine::{Config, Stepper, Verdict};
use std::sync::Arc;
use witness::check::{check_structure, compile_invariant, holds};
use witness::correctness::{loop_invariants, mentioned};
use witness::format::Entry;
use witness::scope::{in_scope, loop_keywords};
use witness::source_map::SourceMap;

/// How many visits of a loop head per run are checked.
const VISITS: usize = 300;

/// Runs `preset` on `source`; for TRUE the correctness witness's text.
fn witness_of(source: &str, preset: &str, steps: &str) -> Option<(Arc<Program>, String)> {
    let program = Arc::new(cfa::from_source(source).ok()?);
    let mut config = Config::preset(preset).unwrap();
    config.set("analysis.intModel", "C").unwrap();
    config.set("limits.steps", steps).unwrap();
    let mut verifier = build_verifier(program.clone(), &config, false).ok()?;
    verifier.run_with(|_| {});
    if verifier.outcome().map(|o| o.0) != Some(Verdict::True) {
        return None;
    }
    let invariants = loop_invariants(verifier.analysis(), source);
    let run = witness::RunInfo {
        file_name: "task.c".into(),
        file_bytes: source.as_bytes().to_vec(),
        configuration: preset.into(),
        data_model: "ILP32".into(),
        created_at: 1_796_000_000,
    };
    Some((program.clone(), witness::to_yaml(&witness::correctness_witness(&program, source, &run, &invariants))))
}

/// Checks every invariant of `text` on concrete runs; the number of
/// (invariant, visit) checks made.
fn check_on_runs(name: &str, program: &Program, source: &str, text: &str) -> usize {
    check_structure(text, source).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    let entries = witness::from_yaml(text).unwrap();
    let map = SourceMap::new(source);
    let heads = loop_keywords(program, &map);
    let mut checks = 0;
    for entry in &entries {
        let Entry::InvariantSet { content, .. } = entry else { panic!("{name}: not an invariant set") };
        for item in content {
            let inv = &item.invariant;
            let offset = map.offset(inv.location.line, inv.location.column).expect("location inside the file");
            let (&node, _) =
                heads.iter().find(|(_, at)| **at == offset).unwrap_or_else(|| panic!("{name}: no loop at {:?}", inv.location));
            let vars = mentioned(&in_scope(program, program.node(node).function, offset), &inv.value);
            let check = compile_invariant(program, &vars, &inv.value).unwrap_or_else(|e| panic!("{name}: {e}"));
            for seed in 1..=6u64 {
                let options = concrete::Options { model: minic::IntModel::C, max_steps: 20_000, record_states: true };
                let exec = concrete::execute(program, &mut concrete::RandomInputs::new(seed), options);
                // The first visits of each run (long runs repeat themselves).
                for state in exec.states.iter().filter(|s| s.node == node).take(VISITS) {
                    let Some(values) = vars.iter().map(|(v, _)| state.values.get(v).copied()).collect::<Option<Vec<i128>>>()
                    else {
                        continue;
                    };
                    let ok = holds(&check, &values).unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert!(
                        ok,
                        "{name}: invariant `{}` at line {} fails for {vars:?} = {values:?} (seed {seed})",
                        inv.value, inv.location.line
                    );
                    checks += 1;
                }
            }
        }
    }
    checks
}

#[test]
fn svcomp_loop_invariants_hold_on_concrete_runs() {
    let (mut witnesses, mut invariants, mut checks) = (0, 0, 0);
    for task in svcomp_tasks::tasks().into_iter().filter(|t| t.expected == svcomp_tasks::Expected::True) {
        let source = task.source();
        for preset in ["octagon-widening", "value-join", "value"] {
            let Some((program, text)) = witness_of(&source, preset, "3000") else { continue };
            witnesses += 1;
            invariants += text.matches("loop_invariant").count();
            checks += check_on_runs(&format!("{} ({preset})", task.path), &program, &source, &text);
        }
    }
    println!("{witnesses} correctness witnesses, {invariants} loop invariants, {checks} checks at loop-head visits");
    assert!(
        witnesses >= 20 && invariants >= 20 && checks >= 100,
        "{witnesses} witnesses, {invariants} invariants, {checks} checks"
    );
}

const COUNTER: &str = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main() {\n  int n = __VERIFIER_nondet_int();\n  int i = 0;\n  int s = 0;\n  while (i < 10) {\n    s = s + 1;\n    i++;\n  }\n  if (s > 10) reach_error();\n  return 0;\n}\n";

#[test]
fn octagon_and_value_invariants_say_what_the_analysis_proved() {
    let (program, text) = witness_of(COUNTER, "octagon-widening", "3000").expect("octagon-widening proves the counter");
    let Entry::InvariantSet { content, .. } = &witness::from_yaml(&text).unwrap()[0] else { panic!("{text}") };
    let at = &content[0].invariant.location;
    assert_eq!((at.line, at.column, at.function.as_str()), (7, 3, "main"), "the invariant sits at the `while`");
    assert!(text.contains("(long long)i - (long long)s <= 0") && text.contains("s <= 10"), "{text}");
    assert!(check_on_runs("counter (octagon)", &program, COUNTER, &text) >= 6);
    let (program, text) = witness_of(COUNTER, "value", "3000").expect("value analysis unrolls the counter");
    assert!(text.contains("(i == 0 && s == 0) || (i == 1 && s == 1) ||"), "the join of the unrolled states:\n{text}");
    check_on_runs("counter (value)", &program, COUNTER, &text);
}

#[test]
fn predicate_abstraction_invariants_hold_on_concrete_runs() {
    let source =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/examples/predicate-two-loops.c")).unwrap();
    let Some((program, text)) = witness_of(&source, "predicate", "5000") else {
        panic!("predicate does not prove predicate-two-loops.c under C integers");
    };
    let summary = check_structure(&text, &source).unwrap();
    assert!(!summary.invariants.is_empty(), "predicate abstraction proves loop invariants:\n{text}");
    assert!(check_on_runs("predicate-two-loops", &program, &source, &text) > 0);
}
