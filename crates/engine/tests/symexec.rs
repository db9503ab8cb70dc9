//! Symbolic execution as a CPA (presets `symexec` and `symexec-predabs`,
//! the SymExec CPA under stop^never), natively with z3:
//!
//! * Algorithm 1 (SYMEX) on a two-branch program against a hand-computed
//!   trace: the states, the infeasible branch, the DFS order, the verdict;
//! * Algorithm 2 (SYMEXPA) pruning a path that is not p-simple, with the
//!   eq and simple formulas of the abstraction points;
//! * Algorithm 3 (CEGAR) refining the paper's running example once;
//! * the running example's verdicts under both integer models;
//! * Theorem 2 (soundness) and Theorem 3 (termination) on random programs.

use cfa::Program;
use engine::build::build_analysis_symexec;
use engine::cegar::build_verifier;
use engine::cpas::symexec::precision::SymExecPrecision;
use engine::cpas::symexec::SymExecState;
use engine::trace::{Event, PruneReason, StateId};
use engine::view::{Snapshot, Statistics};
use engine::{Config, Stepper, Verdict};
use minic::IntModel;
use smt::{Sort, Term};
use std::sync::Arc;

const RUNNING_EXAMPLE: &str = include_str!("../../../static/examples/symexec-running-example.c");

fn program(src: &str) -> Arc<Program> {
    Arc::new(cfa::from_source(src).expect("the test program parses"))
}

fn config(preset: &str, model: IntModel, sets: &[&str]) -> Config {
    let mut c = Config::preset(preset).unwrap();
    c.set("analysis.intModel", model.name()).unwrap();
    for s in sets {
        c.set_pair(s).unwrap();
    }
    c
}

/// A whole verifier run: events, verdict and reason.
fn verify(src: &str, preset: &str, model: IntModel, sets: &[&str]) -> (Vec<Event>, Verdict, String) {
    let mut v = build_verifier(program(src), &config(preset, model, sets), true).unwrap();
    let events = v.run();
    let (verdict, reason) = v.outcome().expect("the run finished");
    (events, verdict, reason.to_string())
}

/// The trace in a compact form: pops, transfers (label and successors) and
/// why a branch had none.
fn outline(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::WaitlistPop { state, .. } => Some(format!("pop {state}")),
            Event::Transfer { label, successors, .. } => {
                Some(format!("`{label}` -> [{}]", successors.iter().map(StateId::to_string).collect::<Vec<_>>().join(",")))
            }
            Event::BranchPruned { reason, .. } => Some(format!("pruned: {}", reason.describe())),
            Event::AbstractionPoint { state, .. } => Some(format!("abstraction point {state}")),
            _ => None,
        })
        .collect()
}

/// Algorithm 1: `x > 5` then `x < 3` is infeasible. Hand-computed: the
/// tree is s0 → s1 (x = x₁) → {s2: x₁ > 5, s3: !(x₁ > 5)}; DFS pops the
/// last pushed successor first (s3, the else branch, to the exit), then
/// backtracks to s2, whose `x < 3` branch is infeasible (x₁ > 5 ∧ x₁ < 3
/// is unsat) and whose `!(x < 3)` branch reaches the exit. Three paths,
/// one infeasible branch, TRUE, and every state in the reached set
/// (stop^never covers nothing).
#[test]
fn algorithm_1_explores_a_two_branch_program_depth_first() {
    let src = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
               int main() {\n  int x = __VERIFIER_nondet_int();\n  if (x > 5) {\n    if (x < 3) reach_error();\n  }\n  return 0;\n}\n";
    for model in [IntModel::Math, IntModel::C] {
        let (events, verdict, reason) = verify(src, "symexec", model, &[]);
        assert_eq!(verdict, Verdict::True, "{reason}");
        let expected = [
            "pop s0",
            "`int x = __VERIFIER_nondet_int();` -> [s1]",
            "pop s1",
            "`[x > 5]` -> [s2]",
            "`[!(x > 5)]` -> [s3]",
            "pop s3",
            "`return 0;` -> [s4]",
            "pop s4",
            "pop s2",
            "`[x < 3]` -> []",
            "pruned: infeasible",
            "`[!(x < 3)]` -> [s5]",
            "pop s5",
            "`return 0;` -> [s6]",
            "pop s6",
        ];
        assert_eq!(outline(&events), expected, "{model:?}");
        let stats = Statistics::of(&events);
        assert_eq!((stats.paths_explored, stats.infeasible_branches, stats.pruned_not_simple), (3, 1, 0));
        assert_eq!(stats.covered, 0, "stop^never covers nothing");
        // Each assumption asked about the whole path condition.
        assert_eq!(stats.solver_queries, 4);
        let snap = Snapshot::of(&events);
        assert_eq!(snap.reached_len(), 7);
        let b = snap.pruned_branches.first().expect("the infeasible branch is in the fold");
        assert_eq!((b.from, b.reason), (StateId(2), PruneReason::Infeasible));
        // The backtrack from the exit s4 to s2 (child of s1) is derived.
        let pos = events.iter().position(|e| matches!(e, Event::WaitlistPop { state: StateId(2), .. })).unwrap();
        let at = Snapshot::of(&events[..=pos]);
        let back = at.backtrack.expect("popping s2 after s4 is a backtrack");
        assert_eq!((back.from, back.to, back.parent), (StateId(4), StateId(2), Some(StateId(1))));
    }
}

/// Algorithm 2 with P(l) = {i == 0} at the loop head of an alternating
/// loop (threshold 0). Hand-computed (writing i's fresh values a, b, c;
/// the trace numbers them i₂, i₄, i₆): the 1st abstraction gives a with
/// eq `(i == 0) == (a == 0)` over i = 0, so a == 0; the 2nd, over
/// i = 1 - a, gives b with simple `!((b == 0) == (a == 0))` (sat: b != 0);
/// the 3rd needs c's valuation to differ from both a's (true) and b's
/// (false): unsat, so that path is not p-simple and is pruned.
#[test]
fn algorithm_2_prunes_a_path_that_is_not_p_simple() {
    let src = "int main() {\n  int i = 0;\n  while (1) {\n    i = 1 - i;\n  }\n  return 0;\n}\n";
    let p = program(src);
    let i = p.variables.iter().find(|v| v.name == "i").unwrap().id;
    let head = p.nodes.iter().find(|n| n.loop_head).unwrap().id;
    for model in [IntModel::Math, IntModel::C] {
        let c = config("symexec-predabs", model, &["analysis.algorithm.CEGAR=false"]);
        let mut precision = SymExecPrecision::initial(&p, 0);
        let predicate = Term::eq(Term::var(&format!("v{}", i.0), Sort::Int), Term::int(0));
        precision.locations.get_mut(&head).unwrap().predicates.push(predicate);
        let mut a = build_analysis_symexec(p.clone(), &c, true, &Arc::new(precision)).unwrap();
        let events = a.run();
        let (verdict, reason) = a.outcome().unwrap();
        assert_eq!(verdict, Verdict::True, "{reason}");
        let points: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::AbstractionPoint { point, .. } => Some(point.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(points.len(), 2, "{:#?}", outline(&events));
        // Every variable in scope gets a fresh value: main's return slot
        // takes the odd numbers, i the even ones.
        assert_eq!(points[0].eq, ["(main::i == 0) == (i₂ == 0)"]);
        assert!(points[0].simple.is_empty(), "the first abstraction has no earlier one");
        assert_eq!(points[1].visits, 1);
        assert_eq!(points[1].eq, ["(main::i == 0) == (i₄ == 0)"]);
        assert_eq!(points[1].simple, ["!((i₄ == 0) == (i₂ == 0))"]);
        let pruned: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::BranchPruned { reason, location, detail, .. } => Some((*reason, *location, detail.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(pruned.len(), 1, "{pruned:?}");
        assert_eq!((pruned[0].0, pruned[0].1), (PruneReason::NotSimple, head));
        assert!(pruned[0].2.contains("repeats an earlier abstraction"), "{}", pruned[0].2);
        let stats = Statistics::of(&events);
        assert_eq!((stats.abstraction_points, stats.pruned_not_simple), (2, 1));
        let snap = Snapshot::of(&events);
        let marked = snap.states.iter().filter(|s| s.abstraction_point).count();
        assert_eq!(marked, 2, "the fold marks the abstraction points");
    }
}

/// Algorithm 2 with no predicates: the second abstraction at a location
/// has simple = false and is pruned without asking the solver.
#[test]
fn without_predicates_the_second_abstraction_is_pruned() {
    let src = "int main() {\n  int i = 0;\n  while (i < 10) {\n    i = i + 1;\n  }\n  return 0;\n}\n";
    let (events, verdict, _) = verify(src, "symexec-predabs", IntModel::Math, &["analysis.algorithm.CEGAR=false"]);
    assert_eq!(verdict, Verdict::True);
    let pruned = events.iter().find_map(|e| match e {
        Event::BranchPruned { reason: PruneReason::NotSimple, detail, .. } => Some(detail.clone()),
        _ => None,
    });
    assert!(pruned.expect("the loop's second abstraction is pruned").contains("simple = false"));
}

/// Algorithm 3 on the running example (Fig. 1) under mathematical
/// integers: the first iteration abstracts at the loop head with no
/// predicates, reaches the error through `x < y`, whose path is infeasible
/// (explicit values along it refute it); one refinement adds `n <= 0` and
/// `y <= x` at the loop head (no threshold raised), and the second
/// iteration proves the program safe.
#[test]
fn algorithm_3_refines_the_running_example_once() {
    let (events, verdict, reason) = verify(RUNNING_EXAMPLE, "symexec-predabs", IntModel::Math, &[]);
    assert_eq!(verdict, Verdict::True, "{reason}");
    let refinements: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Refinement { predicates_added, thresholds_raised, precision_function, .. } => {
                Some((predicates_added.clone(), thresholds_raised.clone(), precision_function.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(refinements.len(), 1);
    let (added, raised, rows) = &refinements[0];
    let added: Vec<&str> = added.iter().map(|p| p.predicate.as_str()).collect();
    assert_eq!(added, ["main::n <= 0", "main::y <= main::x"]);
    assert!(raised.is_empty());
    assert_eq!(rows.len(), 1, "one loop head");
    assert_eq!(rows[0].threshold, 0);
    assert_eq!(rows[0].predicates, ["main::n <= 0", "main::y <= main::x"]);
    let snap = Snapshot::of(&events);
    assert_eq!(snap.precision_function.len(), 1);
    assert!(snap.precision_function[0].1, "the refined row is marked new");
    // PIVOT backtracks instead of restarting; same verdict, one refinement.
    let (events, verdict, _) = verify(RUNNING_EXAMPLE, "symexec-predabs", IntModel::Math, &["cegar.restart=PIVOT"]);
    assert_eq!(verdict, Verdict::True);
    assert!(events.iter().any(|e| matches!(e, Event::ArgPruned { .. })));
    assert_eq!(Statistics::of(&events).refinements, 1);
}

/// The running example: SYMEX never ends on its infinite tree (UNKNOWN at
/// the step limit, both models); SYMEXPA with CEGAR proves it under
/// mathematical integers (thresholds 0, 1 and 100: one refinement each).
/// Under C the interpolants cannot bound x against overflow with the
/// loop's predicates, and CEGAR gives up at cegar.maxIterations (UNKNOWN,
/// never TRUE or FALSE).
#[test]
fn the_running_example() {
    for model in [IntModel::Math, IntModel::C] {
        let (_, verdict, reason) = verify(RUNNING_EXAMPLE, "symexec", model, &["limits.steps=150"]);
        assert_eq!(verdict, Verdict::Unknown);
        assert!(reason.contains("step limit"), "{reason}");
    }
    for threshold in ["0", "1", "100"] {
        let set = format!("symexec.abstraction.threshold={threshold}");
        let (events, verdict, reason) = verify(RUNNING_EXAMPLE, "symexec-predabs", IntModel::Math, &[set.as_str()]);
        assert_eq!(verdict, Verdict::True, "threshold {threshold}: {reason}");
        assert!(Statistics::of(&events).refinements <= 3, "threshold {threshold}");
    }
    let (_, verdict, reason) = verify(RUNNING_EXAMPLE, "symexec-predabs", IntModel::C, &["cegar.maxIterations=4"]);
    assert_eq!(verdict, Verdict::Unknown, "{reason}");
}

/// A program whose error is reachable: SYMEX and SYMEXPA both answer a
/// confirmed FALSE.
#[test]
fn a_real_bug_is_found_and_confirmed() {
    let src = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
               int main() {\n  int n = __VERIFIER_nondet_int();\n  int i = 0;\n  while (i < n) { i = i + 1; }\n  if (i == 3) reach_error();\n  return 0;\n}\n";
    for preset in ["symexec", "symexec-predabs"] {
        for model in [IntModel::Math, IntModel::C] {
            let mut v = build_verifier(program(src), &config(preset, model, &[]), false).unwrap();
            v.run();
            let (verdict, reason) = v.outcome().unwrap();
            assert_eq!(verdict, Verdict::False, "{preset} {model:?}: {reason}");
            assert_eq!(v.confirmed(), Some(true), "{preset} {model:?}");
        }
    }
}

/// A configuration that cannot run soundly is refused, naming the option.
#[test]
fn unsound_combinations_are_refused() {
    let p = program("int main() { return 0; }");
    let mut c = Config::preset("symexec").unwrap();
    c.set("cpa.composite.stop", "SEP").unwrap();
    let e = build_verifier(p.clone(), &c, false).err().expect("stop^sep is refused");
    assert!(e.message.contains("cpa.composite.stop"), "{}", e.message);
    let mut c = Config::preset("symexec").unwrap();
    c.set(
        "CompositeCPA.cpas",
        "cpa.location.LocationCPA, cpa.callstack.CallstackCPA, cpa.symexec.SymExecCPA, cpa.predicate.PredicateCPA",
    )
    .unwrap();
    let e = build_verifier(p.clone(), &c, false).err().expect("two solver CPAs are refused");
    assert!(e.message.contains("cpa.predicate.PredicateCPA"), "{}", e.message);
    let mut c = Config::preset("symexec").unwrap();
    c.set("analysis.algorithm.CEGAR", "true").unwrap();
    let e = build_verifier(p, &c, false).err().expect("CEGAR without abstraction is refused");
    assert!(e.message.contains("symexec.abstraction"), "{}", e.message);
}

/// Theorem 2 (soundness) as a property: on random programs, whenever a
/// concrete run reaches the error, `symexec-predabs` never answers TRUE
/// (both integer models). Vacuity is checked: some programs do reach the
/// error.
#[test]
fn theorem_2_symexec_predabs_never_answers_true_for_a_reachable_error() {
    let mut reachable = 0;
    for seed in 0..40u64 {
        let generated = progen::generate(seed, &progen::Options::simple());
        let p = program(&generated.text);
        for model in [IntModel::Math, IntModel::C] {
            let reaches = (0..8u64).any(|s| {
                let opts = concrete::Options { model, max_steps: 10_000, record_states: false };
                let run = concrete::execute(&p, &mut progen::Inputs::for_run(&generated, s), opts);
                matches!(run.outcome, concrete::Outcome::ReachedError { .. })
            });
            if !reaches {
                continue;
            }
            reachable += 1;
            let c = config("symexec-predabs", model, &["limits.steps=3000", "cegar.maxIterations=5", "solver.timeout=2000"]);
            let mut v = build_verifier(p.clone(), &c, false).unwrap();
            v.run();
            let (verdict, reason) = v.outcome().unwrap();
            assert_ne!(verdict, Verdict::True, "seed {seed} {model:?}: {reason}\n{}", generated.text);
        }
    }
    assert!(reachable >= 5, "only {reachable} generated programs reach the error");
}

/// Theorem 3 (termination) on random programs with loops: one iteration
/// of SYMEXPA (no refinement) with every loop head in dom(p), threshold c
/// and P(l) = ∅ ends, because on a p-simple path a location l ∈ dom(p) is
/// visited at most c + 2^|P(l)| = c + 1 times (c visits below the
/// threshold, then one abstraction; the next abstraction at l has
/// simple = false and is pruned). The bound checked: on every path at most
/// 2^|P(l)| = 1 abstraction per loop head and call stack, every loop head
/// of `main` visited ≤ c + 1 times, and the run ends (TRUE, or FALSE at a
/// target) without the step limit.
#[test]
fn theorem_3_one_iteration_of_symexpa_terminates_within_the_bound() {
    let mut with_loops = 0;
    for seed in 0..40u64 {
        let generated = progen::generate(seed, &progen::Options::simple());
        let p = program(&generated.text);
        if !p.nodes.iter().any(|n| n.loop_head) {
            continue;
        }
        with_loops += 1;
        for threshold in [0u32, 1] {
            let t = format!("symexec.abstraction.threshold={threshold}");
            let c = config(
                "symexec-predabs",
                IntModel::Math,
                &["analysis.algorithm.CEGAR=false", t.as_str(), "limits.steps=200000", "cpa.callstack.depth=8"],
            );
            let precision = Arc::new(SymExecPrecision::initial(&p, threshold));
            let mut a = build_analysis_symexec(p.clone(), &c, false, &precision).unwrap();
            a.run();
            let (verdict, reason) = a.outcome().unwrap();
            assert!(!reason.contains("step limit"), "seed {seed}: {reason}\n{}", generated.text);
            assert!(verdict != Verdict::Unknown || reason.contains("call"), "seed {seed}: {reason}");
            let main = p.main;
            for (_, state) in a.reached() {
                let s = state.parts.iter().find_map(|x| x.as_any().downcast_ref::<SymExecState>()).unwrap();
                for (l, visits) in &s.visits {
                    // Loops of called functions are visited again per call.
                    if p.nodes[l.0 as usize].function == main {
                        assert!(*visits <= threshold + 1, "seed {seed}: {l} visited {visits} times (c = {threshold})");
                    }
                }
                for ((l, _), earlier) in &s.abstractions {
                    assert!(earlier.len() <= 1, "seed {seed}: {} abstractions at {l} with one call stack", earlier.len());
                }
            }
        }
    }
    assert!(with_loops >= 5, "only {with_loops} generated programs have loops");
}
