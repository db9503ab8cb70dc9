//! Counterexample acceleration in predicate refinement
//! (`cpa.predicate.refinement.acceleration`): errors behind loops of
//! hundreds of thousands to millions of iterations are confirmed FALSE with
//! it and stay UNKNOWN without it within a few refinements; two phases of
//! one loop; an error reachable only over mathematical integers (or only
//! through C's wrap-around) is reported under the one model where it is
//! real; a safe program keeps its TRUE. Through `build_verifier` with the
//! native z3.

use engine::cegar::build_verifier;
use engine::trace::Event;
use engine::{Config, Stepper, Verdict};
use std::sync::Arc;

struct Run {
    verdict: Verdict,
    reason: String,
    confirmed: Option<bool>,
    events: Vec<Event>,
}

fn run(src: &str, preset: &str, model: &str, acceleration: bool) -> Run {
    let p = Arc::new(cfa::from_source(src).expect("the test program parses"));
    let mut c = Config::preset(preset).unwrap();
    c.set("analysis.intModel", model).unwrap();
    c.set("cegar.maxIterations", "6").unwrap();
    c.set("limits.steps", "20000").unwrap();
    c.set("cpa.predicate.refinement.acceleration", if acceleration { "true" } else { "false" }).unwrap();
    let mut v = build_verifier(p, &c, false).unwrap();
    let events = v.run();
    let (verdict, reason) = v.outcome().expect("the run finished");
    Run { verdict, reason: reason.to_string(), confirmed: v.confirmed(), events }
}

/// The confirming counterexample event's check text.
fn accelerated_check(r: &Run) -> String {
    r.events
        .iter()
        .find_map(|e| match e {
            Event::Counterexample { check, confirmed: true, .. } if check.starts_with("accelerated replay") => {
                Some(check.clone())
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no accelerated counterexample event: {}", r.reason))
}

const EVEN: &str = include_str!("programs/predicate/accel_even.c");
const PHASES: &str = include_str!("programs/predicate/accel_phases.c");
const WRAP: &str = include_str!("programs/predicate/accel_wrap.c");
const WRAP224: &str = include_str!("programs/predicate/accel_wrap224.c");
const SAFE: &str = include_str!("programs/predicate/accel_safe.c");

#[test]
fn a_long_loop_is_confirmed_false_with_acceleration_only() {
    let with = run(EVEN, "predicate", "C", true);
    assert_eq!((with.verdict, with.confirmed), (Verdict::False, Some(true)), "{}", with.reason);
    let check = accelerated_check(&with);
    assert!(check.contains("loop at line 5 ×134217727"), "{check}");
    assert!(with.reason.contains("loop at line 5 ×134217727"), "{}", with.reason);
    let without = run(EVEN, "predicate", "C", false);
    assert_eq!(without.verdict, Verdict::Unknown, "{}", without.reason);
}

#[test]
fn two_phases_of_one_loop_are_two_jumps() {
    let with = run(PHASES, "predicate", "C", true);
    assert_eq!((with.verdict, with.confirmed), (Verdict::False, Some(true)), "{}", with.reason);
    let check = accelerated_check(&with);
    assert_eq!(check.matches("loop at line 7 ×").count(), 2, "{check}");
    let without = run(PHASES, "predicate", "C", false);
    assert_eq!(without.verdict, Verdict::Unknown, "{}", without.reason);
}

#[test]
fn an_error_only_over_one_integer_model_is_reported_only_there() {
    // Reachable over mathematical integers only: never FALSE under `c`.
    let c = run(WRAP, "predicate", "C", true);
    assert_ne!(c.verdict, Verdict::False, "{}", c.reason);
    let math = run(WRAP, "predicate", "MATH", true);
    assert_eq!((math.verdict, math.confirmed), (Verdict::False, Some(true)), "{}", math.reason);
    // Reachable through the wrap-around only: the jumps stop before it,
    // the replay goes over it edge by edge.
    let c = run(WRAP224, "predicate", "C", true);
    assert_eq!((c.verdict, c.confirmed), (Verdict::False, Some(true)), "{}", c.reason);
    assert!(accelerated_check(&c).matches("loop at line 7 ×").count() >= 2, "{}", c.reason);
    let math = run(WRAP224, "predicate", "MATH", true);
    assert_ne!(math.verdict, Verdict::False, "{}", math.reason);
}

#[test]
fn a_safe_program_keeps_its_verdict() {
    for preset in ["predicate", "symexec-predabs"] {
        let with = run(SAFE, preset, "C", true);
        let without = run(SAFE, preset, "C", false);
        assert_ne!(with.verdict, Verdict::False, "{preset}: {}", with.reason);
        assert_eq!(with.verdict, without.verdict, "{preset}: {} / {}", with.reason, without.reason);
    }
}

/// Safe: `j` follows `i`. The second error path unrolls the loop, so the
/// acceleration replays the program, jumps over the loop and returns.
const LOCKSTEP: &str = "extern void reach_error(void);\nint main(void) {\n  unsigned int i = 0;\n  unsigned int j = 0;\n  while (i < 100000) {\n    i++;\n    j++;\n  }\n  if (j != 100000) {\n    reach_error();\n  }\n  return 0;\n}\n";

/// A replay that does not reach the error is said in the refinement that
/// follows it, so a student sees that acceleration was tried and why it did
/// not end the run; once per run, and never when it is off.
#[test]
fn a_replay_that_misses_the_error_is_said_in_the_refinement() {
    let reasons = |r: &Run| -> Vec<String> {
        r.events
            .iter()
            .filter_map(|e| match e {
                Event::Refinement { reason, .. } => Some(reason.clone()),
                _ => None,
            })
            .collect()
    };
    for preset in ["predicate", "symexec-predabs"] {
        let with = run(LOCKSTEP, preset, "C", true);
        assert_ne!(with.verdict, Verdict::False, "{preset}: {}", with.reason);
        let with = reasons(&with);
        let tried: Vec<&String> = with.iter().filter(|r| r.contains("acceleration tried")).collect();
        assert_eq!(tried.len(), 1, "{preset}: {with:?}");
        assert!(
            tried[0]
                .contains("acceleration tried: the zero-input accelerated replay main returned 0 (jumped over loop at line 5"),
            "{preset}: {}",
            tried[0]
        );
        let without = reasons(&run(LOCKSTEP, preset, "C", false));
        assert!(!without.is_empty() && without.iter().all(|r| !r.contains("acceleration")), "{preset}: {without:?}");
    }
}
