//! Whole-analysis soundness against the concrete interpreter: random small
//! programs (from the shared generator `progen`) run on random inputs; every visited concrete
//! state (location, call stack, values) must be covered by some reached
//! state of a completed value analysis, and no configuration may answer
//! TRUE when a concrete run reaches the error location.

use cfa::Program;
use concrete::{execute, Options, Outcome};
use engine::cpas::value::ValueState;
use engine::Stepper;
use engine::{build_analysis, Config, Verdict};
use minic::IntModel;
use proptest::prelude::*;
use std::sync::Arc;

/// The program of `seed`: the shared generator's small `int` programs
/// (calls, loops with `break`/`continue`, casts, every nondet function),
/// which the value analysis proves safe often enough for the coverage check
/// to run.
fn generated(seed: u64) -> progen::GenProgram {
    progen::generate(seed, &progen::Options::simple())
}

/// Checks one generated program; returns (TRUE verdicts, concrete states checked).
fn check(seed: u64) -> Result<(usize, usize), TestCaseError> {
    let mut counts = (0, 0);
    let generated = generated(seed);
    let src = generated.text.clone();
    let program: Arc<Program> = Arc::new(cfa::from_source(&src).map_err(|d| TestCaseError::fail(format!("{d:?}\n{src}")))?);
    for model in [IntModel::Math, IntModel::C] {
        // Ground truth: a few random concrete runs.
        let runs: Vec<_> = (0..8u64)
            .map(|s| {
                let opts = Options { model, max_steps: 10_000, record_states: true };
                execute(&program, &mut progen::Inputs::for_run(&generated, s), opts)
            })
            .collect();
        let error_reachable = runs.iter().any(|r| matches!(r.outcome, Outcome::ReachedError { .. }));
        for (preset, sets) in [("value", vec![]), ("value-join", vec![]), ("value", vec!["analysis.traversal.order=BFS"])] {
            let mut c = Config::preset(preset).unwrap();
            c.set("analysis.intModel", model.name()).unwrap();
            c.set("limits.steps", "20000").unwrap();
            for s in &sets {
                c.set_pair(s).unwrap();
            }
            let mut a = build_analysis(program.clone(), &c, false).unwrap();
            a.run_with(|_| {});
            let (verdict, _) = a.outcome().unwrap();
            prop_assert!(!(error_reachable && verdict == Verdict::True), "wrong TRUE ({preset} {sets:?}, {model:?}) for\n{src}");
            if verdict != Verdict::True {
                continue; // not a complete reached set
            }
            counts.0 += 1;
            // Every visited concrete state is covered by a reached state.
            let reached: Vec<(cfa::NodeId, Vec<cfa::NodeId>, ValueState)> = a
                .reached()
                .map(|(_, s)| {
                    let loc = *s.parts[0].as_any().downcast_ref::<cfa::NodeId>().unwrap();
                    let cs = s.parts[1].as_any().downcast_ref::<engine::cpas::callstack::CallstackState>().unwrap();
                    let v = s.parts[2].as_any().downcast_ref::<ValueState>().unwrap().clone();
                    (loc, cs.frames.iter().map(|f| f.call_site).collect(), v)
                })
                .collect();
            for run in &runs {
                for cs in &run.states {
                    let covered = reached.iter().any(|(loc, stack, v)| {
                        *loc == cs.node
                            && *stack == cs.call_stack
                            && v.values.iter().all(|(var, val)| cs.values.get(var).is_none_or(|c| c == val))
                    });
                    counts.1 += 1;
                    prop_assert!(covered, "concrete state {cs:?} not covered ({preset} {sets:?}, {model:?}) in\n{src}");
                }
            }
        }
    }
    Ok(counts)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]
    #[test]
    fn value_analysis_covers_every_concrete_run(seed in any::<u64>()) {
        check(seed)?;
    }
}

#[test]
fn the_soundness_check_is_not_vacuous() {
    let (mut trues, mut states) = (0, 0);
    for seed in 1..=40u64 {
        let (t, s) = check(seed.wrapping_mul(0x2545_F491_4F6C_DD1D)).unwrap_or_else(|e| panic!("{e}"));
        trues += t;
        states += s;
    }
    eprintln!("soundness: {trues} TRUE verdicts, {states} concrete states checked for coverage");
    assert!(trues >= 60, "only {trues} TRUE verdicts: the coverage check hardly ran");
    assert!(states >= 5000, "only {states} concrete states checked");
}
