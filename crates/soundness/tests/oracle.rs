//! The oracle on a fixed slice of programs (every preset, both integer
//! models) — the part of the campaign `cargo test --workspace` runs — and
//! proof that the oracle can fail: fake results and a known-unsound
//! configuration must be reported as violations.

use minic::IntModel;
use progen::GenProgram;
use soundness::*;
use std::sync::Arc;

/// A hand-written program in the generator's shape (no input constants).
fn program(text: &str) -> GenProgram {
    GenProgram { seed: 0, text: text.to_string(), constants: vec![] }
}

const OVERFLOW: &str = "extern void reach_error(void);\nint main() {\n  int x = __VERIFIER_nondet_int();\n  int y = x + 1;\n  if (y < x) reach_error();\n  return 0;\n}\n";

#[test]
fn a_fixed_slice_of_the_campaign_has_no_violation() {
    let options = OracleOptions { runs: 10, ..OracleOptions::default() };
    assert_eq!(options.presets.len(), 21, "every preset of static/config but octagon-base");
    let summary = campaign(1, 12, 1, &options, |_, _| {});
    for v in &summary.violations {
        eprintln!("{v}\n");
    }
    print!("{}", summary.table());
    assert!(summary.violations.is_empty(), "{} violation(s)", summary.violations.len());
    assert_eq!(summary.program_runs(), 12 * 21 * 2);
    // Not vacuous: the slice has safe and unsafe programs, TRUE verdicts
    // whose reached sets were checked, and confirmed error paths.
    let total = |f: fn(&Tally) -> u64| summary.tallies.values().map(f).sum::<u64>();
    assert!(total(|t| t.trues) >= 50, "only {} TRUE verdicts", total(|t| t.trues));
    assert!(total(|t| t.error_reached) >= 40, "the error is reached in too few programs");
    assert!(total(|t| t.confirmed) >= 20, "only {} confirmed FALSE verdicts", total(|t| t.confirmed));
    assert!(total(|t| t.states_checked) >= 10_000, "only {} states checked for coverage", total(|t| t.states_checked));
}

/// Programs with memory (pointers, a struct, an array, a heap block, an
/// address-taken local): no preset is unsound under either integer model.
#[test]
fn a_fixed_slice_of_memory_programs_has_no_violation() {
    // Predicate analysis spends its whole stage time on some of these
    // programs: a short stage keeps the slice within CI's budget.
    let options =
        OracleOptions { runs: 8, stage_time_ms: 2000, generator: progen::Options::memory(), ..OracleOptions::default() };
    let summary = campaign(5000, 4, 1, &options, |_, _| {});
    for v in &summary.violations {
        eprintln!("{v}\n");
    }
    print!("{}", summary.table());
    assert!(summary.violations.is_empty(), "{} violation(s)", summary.violations.len());
    assert_eq!(summary.program_runs(), 4 * options.presets.len() as u64 * 2, "4 programs × every preset × 2 models");
    let total = |f: fn(&Tally) -> u64| summary.tallies.values().map(f).sum::<u64>();
    assert!(total(|t| t.error_reached) > 0, "the error is never reached in the memory slice");
    assert!(total(|t| t.trues) > 0, "no TRUE verdict to judge in the memory slice");
}

/// Predicate analysis models memory with regions
/// (`cpa.predicate.memoryRegions`): under each setting and both integer
/// models, no TRUE on a memory program whose error a concrete run reaches.
#[test]
fn predicate_analysis_with_each_memory_region_setting_is_sound_on_memory_programs() {
    let presets: Vec<String> = ["SINGLE", "TYPE", "BNB"]
        .iter()
        .flat_map(|r| {
            [
                format!("predicate[cpa.predicate.memoryRegions={r}]"),
                format!("predicate-cartesian[cpa.predicate.memoryRegions={r}]"),
            ]
        })
        .collect();
    let options = OracleOptions {
        presets: presets.clone(),
        runs: 8,
        stage_time_ms: 2000,
        generator: progen::Options::memory(),
        ..OracleOptions::default()
    };
    let summary = campaign(7000, 5, 1, &options, |_, _| {});
    for v in &summary.violations {
        eprintln!("{v}\n");
    }
    print!("{}", summary.table());
    assert!(summary.violations.is_empty(), "{} violation(s)", summary.violations.len());
    assert_eq!(summary.program_runs(), 5 * presets.len() as u64 * 2, "5 programs × 3 settings × 2 models");
    let total = |f: fn(&Tally) -> u64| summary.tallies.values().map(f).sum::<u64>();
    assert!(total(|t| t.error_reached) > 0, "the error is never reached in the slice");
    assert!(total(|t| t.trues) > 0, "no TRUE verdict to judge in the slice");
}

#[test]
fn a_fake_true_on_a_reachable_error_is_a_violation() {
    let g = program(OVERFLOW);
    let p = cfa::from_source(&g.text).unwrap();
    let options = OracleOptions::default();
    let truth = ground_truth(&p, &g, IntModel::C, &options);
    let witness = truth.error_witness().expect("the boundary run with INT_MAX overflows");
    let fake = AnalysisResult { verdict: engine::Verdict::True, confirmed: false, inputs: vec![], reason: "fake".into() };
    let found = judge(&p, &fake, None, &truth);
    assert!(matches!(&found[..], [ViolationKind::WrongTrue { inputs, .. }] if *inputs == witness), "{found:?}");
    // The same verdict is sound under math, where x + 1 never wraps.
    let math = ground_truth(&p, &g, IntModel::Math, &options);
    assert!(judge(&p, &fake, None, &math).is_empty());
}

#[test]
fn a_math_analysis_judged_by_the_c_interpreter_is_caught() {
    // A known-unsound configuration: the analysis assumes unbounded
    // integers while the program runs with C's int.
    let g = program(OVERFLOW);
    let p = Arc::new(cfa::from_source(&g.text).unwrap());
    let options = OracleOptions::default();
    let truth = ground_truth(&p, &g, IntModel::C, &options);
    for preset in
        ["octagon-sep", "octagon-widening", "symbolic", "predicate", "predicate-cartesian", "symexec", "symexec-predabs"]
    {
        let (result, reached) = analyze(&p, preset, IntModel::Math, &options).unwrap();
        assert_eq!(result.verdict, engine::Verdict::True, "{preset} under math");
        let found = judge(&p, &result, reached.as_ref(), &truth);
        assert!(found.iter().any(|v| matches!(v, ViolationKind::WrongTrue { .. })), "{preset}: {found:?}");
        // ... and sound when judged by its own model.
        let (c_result, _) = analyze(&p, preset, IntModel::C, &options).unwrap();
        assert_ne!(c_result.verdict, engine::Verdict::True, "{preset} under c");
    }
}

#[test]
fn a_confirmation_that_does_not_replay_is_a_violation() {
    let g = program(OVERFLOW);
    let p = cfa::from_source(&g.text).unwrap();
    let truth = ground_truth(&p, &g, IntModel::C, &OracleOptions::default());
    let fake =
        |inputs: Vec<i128>| AnalysisResult { verdict: engine::Verdict::False, confirmed: true, inputs, reason: "fake".into() };
    let found = judge(&p, &fake(vec![5]), None, &truth);
    assert!(matches!(&found[..], [ViolationKind::BadConfirmation { .. }]), "{found:?}");
    assert!(judge(&p, &fake(vec![2147483647]), None, &truth).is_empty());
}

#[test]
fn a_reached_set_missing_a_concrete_state_is_a_violation() {
    let g = program("extern void reach_error(void);\nint main() {\n  int x = __VERIFIER_nondet_int();\n  x = x & 7;\n  if (x > 7) reach_error();\n  return 0;\n}\n");
    let p = Arc::new(cfa::from_source(&g.text).unwrap());
    let options = OracleOptions::default();
    let truth = ground_truth(&p, &g, IntModel::C, &options);
    assert!(truth.error_witness().is_none());
    let (result, reached) = analyze(&p, "octagon-sep", IntModel::C, &options).unwrap();
    assert_eq!(result.verdict, engine::Verdict::True);
    let mut reached = reached.expect("an octagon reached set");
    assert!(judge(&p, &result, Some(&reached), &truth).is_empty());
    // Drop the states of one location the runs visit: now uncovered.
    let (loc, _) = reached.states.keys().nth(2).cloned().unwrap();
    reached.states.retain(|(l, _), _| *l != loc);
    let found = judge(&p, &result, Some(&reached), &truth);
    assert!(matches!(&found[..], [ViolationKind::NotCovered { .. }]), "{found:?}");
}

#[test]
fn every_preset_but_the_include_helpers_is_judged() {
    let p = presets();
    assert!(!p.contains(&"octagon-base"));
    for name in [
        "value",
        "value-join",
        "octagon-sep",
        "octagon-join",
        "octagon-widening",
        "value-cegar",
        "octagon-cegar",
        "symbolic",
        "predicate",
        "predicate-cartesian",
        "bam-value",
        "bam-predicate",
        "bam-value-predicate",
        "transform-term",
        "transform-parity",
        "transform-sign",
    ] {
        assert!(p.contains(&name), "{name}");
    }
    for name in &p {
        for model in [IntModel::C, IntModel::Math] {
            let c = configuration(name, model, &OracleOptions::default()).unwrap();
            assert_eq!(c.int_model(), model, "{name}: the model is set explicitly");
        }
    }
}

#[test]
fn predicate_analysis_is_judged_under_both_models() {
    // The oracle runs the predicate presets with the solver and judges them:
    // a confirmed FALSE under c (INT_MAX + 1 wraps) that replays, and a TRUE
    // under math that the math interpreter agrees with.
    let g = program(OVERFLOW);
    let p = Arc::new(cfa::from_source(&g.text).unwrap());
    let options = OracleOptions { presets: vec!["predicate".into(), "predicate-cartesian".into()], ..OracleOptions::default() };
    let report = check_program(&g, &options);
    assert!(report.violations.is_empty(), "{:?}", report.violations);
    assert_eq!(report.runs.len(), 4, "two presets × two models");
    for model in [IntModel::C, IntModel::Math] {
        let truth = ground_truth(&p, &g, model, &options);
        for preset in ["predicate", "predicate-cartesian"] {
            let (result, _) = analyze(&p, preset, model, &options).unwrap();
            let expected = if model == IntModel::C { engine::Verdict::False } else { engine::Verdict::True };
            assert_eq!(result.verdict, expected, "{preset} {model:?}: {}", result.reason);
            assert_eq!(result.confirmed, model == IntModel::C);
            assert!(judge(&p, &result, None, &truth).is_empty());
        }
    }
}

#[test]
fn predicate_abstraction_states_are_checked_for_coverage() {
    // A loop whose head is a block end: after the refinement its ψ must
    // hold for every concrete state there; a ψ that excludes one is caught.
    let g = program("extern void reach_error(void);\nint main() {\n  int x = 0;\n  int y = 0;\n  while (__VERIFIER_nondet_int()) {\n    x = x + 1;\n    y = y + 1;\n  }\n  if (x != y) reach_error();\n  return 0;\n}\n");
    let p = Arc::new(cfa::from_source(&g.text).unwrap());
    let options = OracleOptions::default();
    let truth = ground_truth(&p, &g, IntModel::Math, &options);
    let (result, reached) = analyze(&p, "predicate", IntModel::Math, &options).unwrap();
    assert_eq!(result.verdict, engine::Verdict::True, "{}", result.reason);
    let mut reached = reached.expect("a predicate reached set");
    assert!(judge(&p, &result, Some(&reached), &truth).is_empty());
    let head = p.nodes.iter().find(|n| n.loop_head).expect("a loop head").id;
    let at_head = reached.states.get(&(head, vec![])).expect("states at the loop head");
    assert!(at_head.iter().all(|d| matches!(d, DataState::Abstraction(_))), "{at_head:?}");
    // Replace ψ at the loop head by x != y: every concrete state there has x == y.
    let x = engine::cpas::predicate::pathformula::var_name(p.variables.iter().find(|v| v.name == "x").unwrap().id);
    let y = engine::cpas::predicate::pathformula::var_name(p.variables.iter().find(|v| v.name == "y").unwrap().id);
    let eq = smt::Term::eq(smt::Term::var(&x, smt::Sort::Int), smt::Term::var(&y, smt::Sort::Int));
    let wrong = engine::cpas::predicate::abstraction::Region { cubes: vec![vec![(eq, false)]] };
    reached.states.insert((head, vec![]), vec![DataState::Abstraction(wrong)]);
    let found = judge(&p, &result, Some(&reached), &truth);
    assert!(matches!(&found[..], [ViolationKind::NotCovered { .. }]), "{found:?}");
}

/// A confirmed FALSE whose error lies past the plain interpreter's step
/// limit (here 300 million iterations of a translation loop) is judged
/// with the accelerated replay, as counterexample acceleration confirms
/// it: the oracle's replay reaches the error instead of reporting a
/// "BAD CONFIRMATION" at its step limit. A near miss stays a miss.
#[test]
fn the_replay_of_a_confirmed_false_jumps_over_long_translation_loops() {
    let long = "extern void reach_error(void);\nint main() {\n  int i = 0;\n  while (i < 300000000) i = i + 1;\n  if (i == 300000000) reach_error();\n  return 0;\n}\n";
    let p = cfa::from_source(long).unwrap();
    for model in [IntModel::C, IntModel::Math] {
        let outcome = replay(&p, &[], model);
        assert!(matches!(outcome, concrete::Outcome::ReachedError { .. }), "{model:?}: {outcome}");
    }
    let miss = long.replace("i == 300000000", "i == 300000001");
    let p = cfa::from_source(&miss).unwrap();
    assert!(!matches!(replay(&p, &[], IntModel::C), concrete::Outcome::ReachedError { .. }));
}
