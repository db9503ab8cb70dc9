//! Asking the solver natively without redoing transfers, and asking less:
//!
//! * a run whose back end is lent to the oracle for each transfer (the
//!   CLI's default: every query answered as it is asked) explores the same
//!   states, asks the same scripts and reaches the same verdict as the
//!   parked run the page makes (`send_every_query`: the transfer is redone
//!   after each answer);
//! * a CEGAR iteration gets the answers of the iterations before it: a
//!   query it repeats is answered without the solver (led by
//!   `CACHED_NOTE`) the first time it asks it;
//! * symbolic execution asks only the part of the path condition that is
//!   connected to the new constraint;
//! * a branch whose condition an earlier model already satisfies is
//!   answered from that model (led by `MODEL_NOTE`), in both modes.

#![cfg(not(target_arch = "wasm32"))]

use engine::cegar::build_verifier;
use engine::solver::{CACHED_NOTE, DECIDED_NOTE, MODEL_NOTE, SUBSUMED_NOTE};
use engine::trace::Event;
use engine::{Config, Stepper, Verdict};
use std::sync::Arc;

struct Run {
    verdict: Verdict,
    states: usize,
    /// Every query's script (without a cache or decision note) and answer.
    queries: Vec<(String, String)>,
    events: Vec<Event>,
}

/// How a run asks: lending its back end to each transfer, parking on
/// every query (the page's way), or lending for one query per transfer
/// (so a transfer parks after its first answer and is redone).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Lent,
    Parked,
    LentOnce,
}

fn run(src: &str, preset: &str, mode: Mode) -> Run {
    let p = Arc::new(cfa::from_source(src).expect("the test program parses"));
    let mut c = Config::preset(preset).unwrap();
    c.set("analysis.intModel", "c").unwrap();
    c.set("cegar.maxIterations", "8").unwrap();
    c.set("limits.steps", "5000").unwrap();
    let mut v = build_verifier(p, &c, false).unwrap();
    match mode {
        Mode::Lent => {}
        Mode::Parked => v.send_every_query(),
        Mode::LentOnce => v.set_lend_queries(1),
    }
    let events = v.run();
    let (verdict, _) = v.outcome().expect("the run finished");
    let states = events.iter().filter(|e| matches!(e, Event::StateCreated { .. })).count();
    let mut queries: Vec<(String, String)> = events
        .iter()
        .filter_map(|e| match e {
            Event::SolverQuery { smtlib, answer, .. } => Some((without_note(smtlib).to_string(), answer.clone())),
            _ => None,
        })
        .collect();
    queries.sort();
    Run { verdict, states, queries, events }
}

fn without_note(script: &str) -> &str {
    for note in [CACHED_NOTE, DECIDED_NOTE, MODEL_NOTE, SUBSUMED_NOTE] {
        if let Some(rest) = script.strip_prefix(note) {
            return rest.trim_start_matches('\n');
        }
    }
    script
}

const PROGRAMS: [(&str, &str); 6] = [
    ("lockstep", include_str!("programs/predicate/lockstep.c")),
    ("diamonds", include_str!("programs/predicate/diamonds.c")),
    ("countdown_bug", include_str!("programs/predicate/countdown_bug.c")),
    ("twoloops", include_str!("programs/predicate/twoloops.c")),
    ("callsafe", include_str!("programs/predicate/callsafe.c")),
    ("bam_loop_in_calls", include_str!("programs/bam/loop_in_calls.c")),
];

#[test]
fn a_lent_solver_explores_what_the_parked_run_explores() {
    for preset in ["predicate", "predicate-cartesian", "symexec-predabs", "bam-predicate", "symexec"] {
        let mut asked = 0;
        for (name, src) in PROGRAMS {
            let parked = run(src, preset, Mode::Parked);
            for mode in [Mode::Lent, Mode::LentOnce] {
                let lent = run(src, preset, mode);
                assert_eq!(lent.verdict, parked.verdict, "{preset} on {name} ({mode:?}): verdict");
                assert_eq!(lent.states, parked.states, "{preset} on {name} ({mode:?}): states created");
                let only = |a: &Run, b: &Run| -> Vec<(String, String)> {
                    let mut rest = b.queries.clone();
                    let mut out = Vec::new();
                    for q in &a.queries {
                        match rest.iter().position(|r| r == q) {
                            Some(i) => {
                                rest.remove(i);
                            }
                            None => out.push(q.clone()),
                        }
                    }
                    out
                };
                assert!(
                    lent.queries == parked.queries,
                    "{preset} on {name} ({mode:?}): the scripts asked differ; only lent: {:#?}\nonly parked: {:#?}",
                    only(&lent, &parked),
                    only(&parked, &lent)
                );
                asked += lent.queries.len();
            }
        }
        assert!(asked > 20, "{preset} asks the solver on these programs ({asked} queries)");
    }
}

#[test]
fn a_cegar_iteration_reuses_the_answers_of_the_ones_before() {
    let r = run(include_str!("programs/predicate/twoloops.c"), "predicate-cartesian", Mode::Lent);
    let mut iterations: Vec<Vec<&str>> = vec![Vec::new()];
    let mut reused_first_time = 0;
    for e in &r.events {
        match e {
            Event::Restart { .. } => iterations.push(Vec::new()),
            Event::SolverQuery { smtlib, .. } => {
                let script = without_note(smtlib);
                let (this, before) = iterations.split_last_mut().unwrap();
                let earlier = before.iter().any(|it| it.contains(&script));
                if smtlib.starts_with(CACHED_NOTE) && earlier && !this.contains(&script) {
                    reused_first_time += 1;
                }
                this.push(script);
            }
            _ => {}
        }
    }
    assert!(iterations.len() >= 3, "twoloops needs at least two refinements, got {} iterations", iterations.len());
    assert!(reused_first_time > 0, "no query of a later iteration was answered from an earlier one's answers");
}

#[test]
fn symbolic_execution_asks_only_the_connected_part_of_the_path() {
    let src = "int main() {
      int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int();
      int c = __VERIFIER_nondet_int(); int d = __VERIFIER_nondet_int();
      int x = __VERIFIER_nondet_int();
      if (a > 1) { if (b > 2) { if (c > 3) { if (d > 4) {
        if (x > 5) { if (x < 2) { reach_error(); } }
      } } } }
      return 0;
    }";
    let r = run(src, "symexec", Mode::Lent);
    assert_eq!(r.verdict, Verdict::True);
    let asked = r
        .queries
        .iter()
        .find(|(s, _)| s.starts_with("; assume [x < 2]"))
        .unwrap_or_else(|| panic!("no query for x < 2 in {:#?}", r.queries));
    assert_eq!(asked.1, "unsat");
    let asserts = asked.0.lines().filter(|l| l.starts_with("(assert")).count();
    // x's range, x > 5 and x < 2: not a, b, c, d or their ranges.
    assert_eq!(asserts, 3, "{}", asked.0);
}

#[test]
fn a_branch_an_earlier_model_satisfies_is_answered_without_the_solver() {
    let src = "int main() {
      int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int();
      if (a > b) { if (a > 10) { if (b < 3) { if (a + b > 100) { reach_error(); } } } }
      return 0;
    }";
    for mode in [Mode::Lent, Mode::Parked] {
        let r = run(src, "symexec", mode);
        assert_eq!(r.verdict, Verdict::False, "{mode:?}");
        let scripts: Vec<&str> = r
            .events
            .iter()
            .filter_map(|e| match e {
                Event::SolverQuery { smtlib, answer, .. } => Some((smtlib.as_str(), answer.as_str())),
                _ => None,
            })
            .filter(|(s, _)| s.starts_with(MODEL_NOTE))
            .map(|(s, answer)| {
                assert_eq!(answer, "sat", "a model only ever answers sat");
                s
            })
            .collect();
        // Six branch queries; the model of the query before a branch
        // satisfies one of its two sides at least three times.
        assert!(scripts.len() >= 3, "{mode:?}: {} answered from a model: {scripts:#?}", scripts.len());
        let stats = engine::view::Statistics::of(&r.events);
        assert!(stats.queries_without_solver >= scripts.len() as u64, "{mode:?}: {stats:?}");
        assert_eq!(
            engine::solver::answered_without_solver(scripts[0]),
            Some("an earlier model satisfies it"),
            "what the step's text says"
        );
    }
}
