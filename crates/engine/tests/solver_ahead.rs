//! Queries asked ahead: a parked transfer notes the queries it asks after
//! the one it parked on (`Stepper::queries_ahead`), e.g. the other
//! predicates' checks of a Cartesian abstraction. A driver that has them
//! answered together with the pending one (`Stepper::prefetch_answer`)
//! parks far less often — in the page, one round trip to Z3's worker for
//! several queries — and the run's trace is exactly the trace of the run
//! that asks one query at a time.

#![cfg(not(target_arch = "wasm32"))]

use engine::cegar::build_verifier;
use engine::trace::Event;
use engine::{Config, Stepper};
use smt::SolverBackend;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A driven run: its events, how often it parked, and the answers it got.
struct Driven {
    events: Vec<Event>,
    parks: usize,
    answers: BTreeMap<String, String>,
}

/// Runs `preset` on `src` with no solver attached (as in the page), and
/// answers each pending query by `answer`. With `ahead`, the queries ahead
/// are answered too and handed over before the pending one.
fn drive(src: &str, preset: &str, ahead: bool, mut answer: impl FnMut(&str) -> String) -> Driven {
    let program = Arc::new(cfa::from_source(src).expect("the test program parses"));
    let mut config = Config::preset(preset).unwrap();
    config.set("analysis.intModel", "c").unwrap();
    config.set("cegar.maxIterations", "8").unwrap();
    config.set("limits.steps", "5000").unwrap();
    let mut v = build_verifier(program, &config, false).unwrap();
    v.send_every_query();
    v.set_solver(None);
    let mut events = Vec::new();
    let mut parks = 0;
    let mut answers = BTreeMap::new();
    loop {
        while let Some(e) = v.next_event() {
            events.push(e);
        }
        let Some(query) = v.pending_query() else { break };
        let script = query.smtlib.clone();
        parks += 1;
        assert!(parks < 20_000, "{preset}: the run does not end");
        if ahead {
            for a in v.queries_ahead() {
                let out = answer(&a);
                answers.insert(a.clone(), out.clone());
                v.prefetch_answer(&a, &out);
            }
        }
        let out = answer(&script);
        answers.insert(script, out.clone());
        v.answer_query(&out);
    }
    assert!(v.is_finished(), "{preset}: the run ended");
    Driven { events, parks, answers }
}

const PROGRAMS: [(&str, &str); 5] = [
    ("lockstep", include_str!("programs/predicate/lockstep.c")),
    ("diamonds", include_str!("programs/predicate/diamonds.c")),
    ("countdown_bug", include_str!("programs/predicate/countdown_bug.c")),
    ("twoloops", include_str!("programs/predicate/twoloops.c")),
    ("callsafe", include_str!("programs/predicate/callsafe.c")),
];

#[test]
fn answering_the_queries_ahead_parks_less_and_gives_the_same_trace() {
    for preset in ["predicate-cartesian", "predicate", "bam-predicate", "symexec-predabs", "symexec"] {
        let (mut parks_one_by_one, mut parks_ahead) = (0, 0);
        for (name, src) in PROGRAMS {
            // One query at a time, with z3 (recorded: each script's answer
            // is then the same in the second run, whatever the order).
            let mut z3 = smt::Z3Process::system(std::time::Duration::from_secs(10));
            let one_by_one = drive(src, preset, false, |s| z3.solve_text(s));
            // Ahead: a query the first run asked gets its answer; one it
            // never asked gets z3's (it must then stay unused).
            let recorded = one_by_one.answers.clone();
            let ahead = drive(src, preset, true, |s| recorded.get(s).cloned().unwrap_or_else(|| z3.solve_text(s)));
            assert!(
                ahead.events == one_by_one.events,
                "{preset} on {name}: the trace differs at event {:?}",
                ahead
                    .events
                    .iter()
                    .zip(&one_by_one.events)
                    .position(|(a, b)| a != b)
                    .unwrap_or(ahead.events.len().min(one_by_one.events.len()))
            );
            assert!(
                ahead.parks <= one_by_one.parks,
                "{preset} on {name}: {} parks ahead, {} one by one",
                ahead.parks,
                one_by_one.parks
            );
            parks_one_by_one += one_by_one.parks;
            parks_ahead += ahead.parks;
        }
        eprintln!("{preset}: {parks_one_by_one} parks one query at a time, {parks_ahead} with the queries ahead answered");
        // The Cartesian abstraction's predicates are checked one after the
        // other; the Boolean one's all-SAT queries each depend on the last.
        if preset == "predicate-cartesian" {
            assert!(
                parks_ahead * 10 < parks_one_by_one * 7,
                "{preset}: answering ahead parks less than 70 % as often ({parks_ahead} against {parks_one_by_one})"
            );
        }
    }
}
