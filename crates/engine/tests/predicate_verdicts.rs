//! Verdicts of predicate analysis (presets `predicate` and
//! `predicate-cartesian`, both integer models) on small programs with known
//! answers, through `engine::cegar::build_verifier` with the native z3:
//! safe loops that need one to six refinements, a call, real bugs found
//! after refinements, overflow that makes a "math-safe" program unsafe in
//! C, where the Cartesian abstraction is too weak for the WEAKEST
//! interpolants' predicates and needs the STRONGEST ones too, Listing 2.1 of the octagon thesis, and the ABE merge keeping
//! one state per location through a chain of branches; recursion cut off by
//! the abstraction at a recursive call, a path into the recursion bound
//! refined away, and one that cannot be.

use engine::cegar::build_verifier;
use engine::trace::Event;
use engine::view::Statistics;
use engine::{Config, Stepper, Verdict};
use minic::IntModel;
use std::sync::Arc;

const BOOLEAN: &str = "predicate";
const CARTESIAN: &str = "predicate-cartesian";

/// What a run must give: the verdict and, when given, the refinements.
#[derive(Clone, Copy, Debug)]
struct Expect {
    verdict: Verdict,
    refinements: Option<u64>,
}

const fn expect(verdict: Verdict, refinements: u64) -> Expect {
    Expect { verdict, refinements: Some(refinements) }
}

const fn just(verdict: Verdict) -> Expect {
    Expect { verdict, refinements: None }
}

use Verdict::{False, True, Unknown};

/// A program and its expected result per (preset, model); `None` = not run
/// (too slow under that model, see the notes).
struct Case {
    name: &'static str,
    src: &'static str,
    /// (predicate, c), (predicate, math), (cartesian, c), (cartesian, math).
    expect: [Option<Expect>; 4],
}

fn cases() -> Vec<Case> {
    let all = |e: Expect| [Some(e); 4];
    vec![
        // x == y after a lockstep loop: one refinement gives x == y.
        Case { name: "lockstep", src: include_str!("programs/predicate/lockstep.c"), expect: all(expect(True, 1)) },
        // Swapping a and b keeps a != b: one refinement.
        Case { name: "parity", src: include_str!("programs/predicate/parity.c"), expect: all(expect(True, 1)) },
        // A call whose result the block's formula decides: no refinement.
        Case { name: "callsafe", src: include_str!("programs/predicate/callsafe.c"), expect: all(expect(True, 0)) },
        // The WEAKEST interpolant of the exit is `i == 10 || 10 <= i`'s
        // negation: two predicates whose Boolean combination `i <= 10` is
        // inductive; the Cartesian abstraction cannot keep the disjunction
        // and finds the same path again, where WEAKEST has nothing new but
        // the STRONGEST fallback has (`predicate_refinement::next_attempt`).
        Case {
            name: "counter",
            src: include_str!("programs/predicate/counter.c"),
            expect: [Some(expect(True, 1)), Some(expect(True, 1)), Some(expect(True, 2)), Some(expect(True, 2))],
        },
        Case {
            name: "flag",
            src: include_str!("programs/predicate/flag.c"),
            // Cartesian needs the other paths through the merges and the
            // STRONGEST fallback.
            expect: [Some(expect(True, 1)), Some(expect(True, 1)), Some(expect(True, 6)), Some(expect(True, 5))],
        },
        // A call inside the loop.
        Case {
            name: "callloop",
            src: include_str!("programs/predicate/callloop.c"),
            expect: [Some(expect(True, 1)), Some(expect(True, 1)), Some(expect(True, 2)), Some(expect(True, 2))],
        },
        // Nested loops: six refinements. Under c the interpolants of the
        // wrapped encoding give many range-like predicates and the run takes
        // minutes, so only math.
        Case {
            name: "nested",
            src: include_str!("programs/predicate/nested.c"),
            expect: [None, Some(expect(True, 6)), None, Some(expect(True, 6))],
        },
        Case {
            name: "twoloops",
            src: include_str!("programs/predicate/twoloops.c"),
            expect: [None, Some(expect(True, 3)), Some(expect(True, 2)), Some(expect(True, 2))],
        },
        // Real bugs: found at once, or after unrolling the loop twice.
        Case { name: "eq42", src: include_str!("programs/predicate/eq42.c"), expect: all(expect(False, 0)) },
        Case { name: "loop2", src: include_str!("programs/predicate/loop2.c"), expect: all(expect(False, 2)) },
        // Overflow: x > 0 && x + 1 <= 0 only with int wrap-around; an
        // unsigned char at 255 plus one is 0 only in C.
        Case {
            name: "overflow",
            src: include_str!("programs/predicate/overflow.c"),
            expect: [Some(just(False)), Some(just(True)), Some(just(False)), Some(just(True))],
        },
        Case {
            name: "uwrap",
            src: include_str!("programs/predicate/uwrap.c"),
            expect: [Some(just(False)), Some(just(True)), Some(just(False)), Some(just(True))],
        },
    ]
}

fn config(preset: &str, model: IntModel) -> Config {
    let mut c = Config::preset(preset).unwrap();
    c.set("analysis.intModel", if model == IntModel::C { "C" } else { "MATH" }).unwrap();
    c.set("limits.steps", "20000").unwrap();
    // The refinement counts below are the interpolants' (path invariants,
    // on by default, change a few: `tests/path_invariants.rs`).
    c.set("cpa.predicate.refinement.pathInvariants", "NONE").unwrap();
    c
}

struct Outcome {
    verdict: Verdict,
    reason: String,
    confirmed: Option<bool>,
    stats: Statistics,
    events: Vec<Event>,
}

fn run(src: &str, preset: &str, model: IntModel) -> Outcome {
    let p = Arc::new(cfa::from_source(src).expect("the test program parses"));
    let mut v = build_verifier(p, &config(preset, model), false).unwrap();
    let events = v.run();
    let (verdict, reason) = v.outcome().expect("the run finished");
    Outcome { verdict, reason: reason.to_string(), confirmed: v.confirmed(), stats: Statistics::of(&events), events }
}

#[test]
fn the_table_of_verdicts() {
    let runs = [(BOOLEAN, IntModel::C), (BOOLEAN, IntModel::Math), (CARTESIAN, IntModel::C), (CARTESIAN, IntModel::Math)];
    let mut failures = Vec::new();
    for case in cases() {
        for ((preset, model), expected) in runs.iter().zip(case.expect) {
            let Some(e) = expected else { continue };
            let o = run(case.src, preset, *model);
            let what = format!("{} {preset} {model:?}", case.name);
            println!("{what}: {:?} after {} refinements — {}", o.verdict, o.stats.refinements, o.reason);
            if o.verdict != e.verdict {
                failures.push(format!("{what}: {:?}, expected {:?} ({})", o.verdict, e.verdict, o.reason));
                continue;
            }
            if o.verdict == False && o.confirmed != Some(true) {
                failures.push(format!("{what}: FALSE without a confirmed error path"));
            }
            if o.verdict == Unknown && !o.reason.contains("no progress") {
                failures.push(format!("{what}: UNKNOWN for another reason: {}", o.reason));
            }
            if let Some(k) = e.refinements {
                if o.stats.refinements != k {
                    failures.push(format!("{what}: {} refinements, expected {k}", o.stats.refinements));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_confirmed_overflow_under_c_replays_with_int_max() {
    for preset in [BOOLEAN, CARTESIAN] {
        let p = Arc::new(cfa::from_source(include_str!("programs/predicate/overflow.c")).unwrap());
        let mut v = build_verifier(p.clone(), &config(preset, IntModel::C), false).unwrap();
        v.run();
        assert_eq!(v.outcome().map(|o| o.0), Some(False));
        assert_eq!(v.inputs(), &[i32::MAX as i128], "{preset}: the only input that overflows");
        let ex = engine::feasibility::replay(&p, v.inputs(), IntModel::C, 10_000);
        assert!(matches!(ex.outcome, concrete::Outcome::ReachedError { .. }), "{preset}");
        // Under math the same program is TRUE with the integer-model caveat.
        let o = run(include_str!("programs/predicate/overflow.c"), preset, IntModel::Math);
        assert_eq!(o.verdict, True);
        assert!(o.reason.contains("mathematical integers only"), "{}", o.reason);
    }
}

#[test]
fn listing_2_1_is_true_and_no_predicate_mentions_ticks() {
    let src = include_str!("../../../static/examples/octagon-listing2-1.c");
    for preset in [BOOLEAN, CARTESIAN] {
        for model in [IntModel::C, IntModel::Math] {
            let o = run(src, preset, model);
            assert_eq!(o.verdict, True, "{preset} {model:?}: {}", o.reason);
            // The block from the loop exit to ERROR is infeasible on its own
            // (flag <= 0 and flag > 0 both fail): no refinement, no predicate.
            assert_eq!(o.stats.refinements, 0, "{preset} {model:?}");
            let predicates: Vec<String> = o
                .events
                .iter()
                .flat_map(|e| match e {
                    Event::Refinement { predicates, predicates_added, .. } => {
                        predicates.iter().chain(predicates_added).map(|p| p.predicate.clone()).collect()
                    }
                    _ => Vec::new(),
                })
                .collect();
            assert!(predicates.iter().all(|p| !p.contains("ticks")), "{preset} {model:?}: {predicates:?}");
        }
    }
}

#[test]
fn abe_keeps_one_state_per_location_through_a_chain_of_branches() {
    // Ten sequential ifs in one block. Each state merged into another is
    // covered by the result; before, it stayed in the reached set too and
    // every branch doubled the states (and the size of φ).
    for preset in [BOOLEAN, CARTESIAN] {
        let o = run(include_str!("programs/predicate/diamonds.c"), preset, IntModel::Math);
        assert_eq!(o.verdict, True, "{}", o.reason);
        assert_eq!(o.stats.merges_replaced, 10, "{preset}: one merge per join point");
        assert!(o.stats.created <= 60, "{preset}: {} states created", o.stats.created);
        assert!(o.stats.covered >= 10, "{preset}: each merged-in state is covered ({} covered)", o.stats.covered);
    }
}

#[test]
fn a_recursion_is_cut_off_by_the_abstraction_at_the_recursive_call() {
    // `down(3)` returns at once; the recursive call's block
    // (`cpa.predicate.blk.alwaysAtRecursion`) is infeasible on its own
    // (k == 3 && 5 <= k): TRUE without a refinement and without ever
    // meeting the recursion bound.
    for preset in [BOOLEAN, CARTESIAN] {
        for model in [IntModel::C, IntModel::Math] {
            let o = run(include_str!("programs/predicate/countdown_safe.c"), preset, model);
            assert_eq!(o.verdict, True, "{preset} {model:?}: {}", o.reason);
            assert_eq!(o.stats.refinements, 0, "{preset} {model:?}");
        }
    }
}

#[test]
fn a_path_into_the_recursion_bound_is_refuted_and_refined_away() {
    // With no predicates `down(6)` recurses until cpa.callstack.depth; the
    // path there is infeasible (k falls below 5 after two calls), so CEGAR
    // refines it like a spurious counterexample (predicates on k at
    // down's entry) and the next iteration finds the real bug.
    let o = run(include_str!("programs/predicate/countdown_bug.c"), BOOLEAN, IntModel::C);
    assert_eq!(o.verdict, False, "{}", o.reason);
    assert_eq!(o.confirmed, Some(true));
    assert_eq!(o.stats.refinements, 1);
    let refuted_bound = o.events.iter().any(|e| {
        matches!(e, Event::Counterexample { feasible: Some(false), description, .. } if description.contains("cpa.callstack.depth"))
    });
    assert!(refuted_bound, "the first counterexample is the path into the recursion bound");
}

#[test]
fn a_feasible_path_into_the_recursion_bound_stays_unknown() {
    // sum(n) with n up to 100 really recurses deeper than 32: the path to
    // the bound is feasible, so no refinement and no TRUE.
    for preset in [BOOLEAN, CARTESIAN] {
        let o = run(include_str!("programs/predicate/unbounded_recursion.c"), preset, IntModel::C);
        assert_eq!(o.verdict, Unknown, "{preset}: {}", o.reason);
        assert!(o.reason.contains("recursion deeper than") && o.reason.contains("cannot be refuted"), "{}", o.reason);
        assert_eq!(o.stats.refinements, 0, "{preset}");
    }
}

#[test]
fn every_covering_stop_says_how_coverage_was_decided_and_other_analyses_say_nothing() {
    // counter.c: the loop head's abstraction state of the second lap is
    // covered by the first's (after the refinement that adds i's predicates).
    let o = run(include_str!("programs/predicate/counter.c"), BOOLEAN, IntModel::Math);
    let mut how = Vec::new();
    for e in &o.events {
        if let Event::Stop { covered, decided_by, .. } = e {
            assert_eq!(*covered, decided_by.is_some(), "only a covering stop says how: {e:?}");
            how.extend(decided_by.clone());
        }
    }
    assert!(!how.is_empty(), "counter.c has covered states");
    assert!(
        how.iter().all(|h| h.starts_with("syntactic") || h.starts_with("propositional implication over the predicates")),
        "{how:?}"
    );
    let described: Vec<String> =
        o.events.iter().filter(|e| matches!(e, Event::Stop { covered: true, .. })).map(engine::view::describe_event).collect();
    assert!(described.iter().all(|d| d.contains("(decided by ")), "{described:?}");
    // The octagon analysis's Stop events carry no such field, in JSON neither.
    let p = Arc::new(cfa::from_source(include_str!("programs/predicate/counter.c")).unwrap());
    let mut v = build_verifier(p, &config("octagon-widening", IntModel::Math), false).unwrap();
    let events = v.run();
    let stops: Vec<&Event> = events.iter().filter(|e| matches!(e, Event::Stop { covered: true, .. })).collect();
    assert!(!stops.is_empty());
    for e in stops {
        assert!(matches!(e, Event::Stop { decided_by: None, .. }));
        assert!(!serde_json::to_string(e).unwrap().contains("decided_by"));
    }
}
