//! Whole-analysis soundness against the concrete interpreter: random small
//! programs (from the shared generator `progen`) run on random inputs; every visited concrete
//! state must be covered by some reached state of a completed analysis —
//! value analysis (location, call stack, values) and octagon analysis
//! (location, values in the octagon) — and no configuration may answer
//! TRUE when a concrete run reaches the error location.

use cfa::{NodeId, Program};
use concrete::{execute, ConcreteState, Options, Outcome};
use domains::{Cmp, LinExpr, Octagon};
use engine::cpas::callstack::CallstackState;
use engine::cpas::octagon::OctagonState;
use engine::cpas::value::ValueState;
use engine::Stepper;
use engine::{build_analysis, Analysis, Config, Verdict};
use minic::IntModel;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The program of `seed`: the shared generator's small `int` programs
/// (calls, loops with `break`/`continue`, casts, every nondet function),
/// which the analyses prove safe often enough for the coverage check to
/// run.
fn generated(seed: u64) -> progen::GenProgram {
    progen::generate(seed, &progen::Options::simple())
}

/// The shared check of one generated program: under both integer models,
/// eight concrete runs are the ground truth; each configuration (preset and
/// extra settings, at most `steps` waitlist pops) must not answer TRUE when
/// a run reaches the error, and after a TRUE every visited concrete state
/// must be `covered` by one of the reached states (`reached_of`). Returns
/// (TRUE verdicts, concrete states checked).
fn check_coverage<R>(
    seed: u64,
    configs: &[(&str, &[&str])],
    steps: &str,
    reached_of: impl Fn(&Analysis) -> Vec<R>,
    covered: impl Fn(&R, &ConcreteState) -> bool,
) -> Result<(usize, usize), TestCaseError> {
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
        for (preset, sets) in configs {
            let mut c = Config::preset(preset).unwrap();
            c.set("analysis.intModel", model.name()).unwrap();
            c.set("limits.steps", steps).unwrap();
            for s in *sets {
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
            let reached = reached_of(&a);
            for run in &runs {
                for cs in &run.states {
                    counts.1 += 1;
                    let ok = reached.iter().any(|r| covered(r, cs));
                    prop_assert!(ok, "concrete state {cs:?} not covered ({preset} {sets:?}, {model:?}) in\n{src}");
                }
            }
        }
    }
    Ok(counts)
}

/// Runs `check` on `seeds` programs and asserts that the coverage check
/// really ran: at least 60 TRUE verdicts and 5000 concrete states.
fn assert_not_vacuous(what: &str, seeds: u64, check: impl Fn(u64) -> Result<(usize, usize), TestCaseError>) {
    let (mut trues, mut states) = (0, 0);
    for seed in 1..=seeds {
        let (t, s) = check(seed.wrapping_mul(0x2545_F491_4F6C_DD1D)).unwrap_or_else(|e| panic!("{e}"));
        trues += t;
        states += s;
    }
    eprintln!("{what} soundness: {trues} TRUE verdicts, {states} concrete states checked for coverage");
    assert!(trues >= 60, "only {trues} TRUE verdicts: the coverage check hardly ran");
    assert!(states >= 5000, "only {states} concrete states checked");
}

// ---------------------------------------------------------------------------
// Value analysis
// ---------------------------------------------------------------------------

/// The value analysis on one generated program.
fn check_value(seed: u64) -> Result<(usize, usize), TestCaseError> {
    let configs: [(&str, &[&str]); 3] = [("value", &[]), ("value-join", &[]), ("value", &["analysis.traversal.order=BFS"])];
    check_coverage(
        seed,
        &configs,
        "20000",
        |a| {
            a.reached()
                .map(|(_, s)| {
                    let loc = *s.parts[0].as_any().downcast_ref::<NodeId>().unwrap();
                    let cs = s.parts[1].as_any().downcast_ref::<CallstackState>().unwrap();
                    let v = s.parts[2].as_any().downcast_ref::<ValueState>().unwrap().clone();
                    (loc, cs.frames.iter().map(|f| f.call_site).collect::<Vec<NodeId>>(), v)
                })
                .collect()
        },
        |(loc, stack, v), cs| {
            *loc == cs.node
                && *stack == cs.call_stack
                && v.values.iter().all(|(var, val)| cs.values.get(var).is_none_or(|c| c == val))
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]
    #[test]
    fn value_analysis_covers_every_concrete_run(seed in any::<u64>()) {
        check_value(seed)?;
    }
}

#[test]
fn the_soundness_check_is_not_vacuous() {
    assert_not_vacuous("value", 40, check_value);
}

// ---------------------------------------------------------------------------
// Octagon analysis
// ---------------------------------------------------------------------------

/// Whether the concrete values (variables without a value are free) lie in `o`.
fn contains(o: &Octagon, values: &BTreeMap<cfa::VarId, i128>) -> bool {
    let mut o = o.clone();
    for (v, val) in values {
        let d = v.0 as usize;
        if d >= o.vars() || val.abs() >= 1 << 60 {
            continue; // too large for the domain's bounds: do not constrain
        }
        o.guard(&LinExpr::new(vec![(d, 1)], -(*val as i64)), Cmp::Eq);
    }
    !o.is_bottom()
}

/// The octagon analysis (sep, join, widening) on one generated program.
fn check_octagon(seed: u64) -> Result<(usize, usize), TestCaseError> {
    let configs: [(&str, &[&str]); 3] = [("octagon-sep", &[]), ("octagon-join", &[]), ("octagon-widening", &[])];
    check_coverage(
        seed,
        &configs,
        "3000",
        |a| {
            a.reached()
                .map(|(_, s)| {
                    let loc = *s.parts[0].as_any().downcast_ref::<NodeId>().unwrap();
                    (loc, s.parts[2].as_any().downcast_ref::<OctagonState>().unwrap().clone())
                })
                .collect()
        },
        |(loc, o), cs| *loc == cs.node && contains(&o.octagon, &cs.values),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]
    #[test]
    fn octagon_analysis_covers_every_concrete_run(seed in any::<u64>()) {
        check_octagon(seed)?;
    }
}

#[test]
fn the_octagon_soundness_check_is_not_vacuous() {
    assert_not_vacuous("octagon", 30, check_octagon);
}

/// A longer hunt: `OCTAGON_SEEDS=2000 cargo test -p engine --test soundness
/// soundness_hunt -- --ignored`.
#[test]
#[ignore]
fn soundness_hunt() {
    let n: u64 = std::env::var("OCTAGON_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(500);
    let (mut trues, mut states) = (0, 0);
    for seed in 1..=n {
        let (t, s) =
            check_octagon(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xABCD).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        trues += t;
        states += s;
    }
    println!("octagon soundness hunt: {n} programs, {trues} TRUE verdicts, {states} concrete states checked");
}
