//! Symbolic execution checks a target before it reports FALSE
//! (`cpa.constraints.checkTargets`): on a program of the shape of SV-COMP's
//! `loop-invgen/down.i` the per-step queries see only a window of the path
//! constraints and reach a target whose whole path is infeasible; the
//! precise check refutes it and the search goes on to TRUE. A really unsafe
//! variant stays FALSE, confirmed by replay. Natively z3 answers; the page's
//! way (parked queries answered from outside) gives the same trace.

use engine::cegar::build_verifier;
use engine::trace::Event;
use engine::view::{Cursor, Snapshot, Statistics};
use engine::Stepper;
use engine::{Config, Verdict};
use std::sync::Arc;

const DOWN: &str = include_str!("programs/down-shaped.c");
const DOWN_UNSAFE: &str = include_str!("programs/down-shaped-unsafe.c");

fn program(src: &str) -> Arc<cfa::Program> {
    Arc::new(cfa::from_source(src).expect("the test program parses"))
}

fn symbolic(sets: &[&str]) -> Config {
    let mut c = Config::preset("symbolic").unwrap();
    for s in sets {
        c.set_pair(s).unwrap();
    }
    c
}

fn z3_installed() -> bool {
    std::process::Command::new("z3").arg("-version").output().is_ok()
}

#[test]
fn without_the_check_the_window_gives_a_false_alarm() {
    if !z3_installed() {
        eprintln!("z3 not installed: skipped");
        return;
    }
    let mut v = build_verifier(program(DOWN), &symbolic(&["cpa.constraints.checkTargets=false"]), false).unwrap();
    v.run();
    let (verdict, reason) = v.outcome().unwrap();
    assert_eq!(verdict, Verdict::False, "the reproduction of the false alarm: {reason}");
    assert!(reason.contains("unconfirmed"), "{reason}");
    let len = v.error_path().unwrap().len();
    assert!(len > 40, "a long unrolled path: {len} edges");
}

#[test]
fn the_down_shaped_program_is_not_a_false_alarm() {
    if !z3_installed() {
        eprintln!("z3 not installed: skipped");
        return;
    }
    let mut v = build_verifier(program(DOWN), &symbolic(&[]), true).unwrap();
    let events = v.run();
    let (verdict, reason) = v.outcome().unwrap();
    assert_ne!(verdict, Verdict::False, "the program is safe: {reason}");
    assert_eq!(verdict, Verdict::True, "{reason}");
    let refuted: Vec<_> = events.iter().filter(|e| matches!(e, Event::TargetRefuted { .. })).collect();
    assert!(!refuted.is_empty(), "a target was reached and refuted");
    let stats = Statistics::of(&events);
    assert_eq!(stats.targets_refuted, refuted.len() as u64);
    assert_eq!(stats.targets, stats.targets_refuted, "every target was refuted");
    // Each refutation follows its check: an infeasible counterexample.
    for (i, e) in events.iter().enumerate() {
        if let Event::TargetRefuted { state, .. } = e {
            let Event::Counterexample { target, feasible, path, .. } = &events[i - 1] else {
                panic!("the check comes right before the refutation: {:?}", events[i - 1])
            };
            assert_eq!((target, feasible), (state, &Some(false)));
            assert!(!path.is_empty());
        }
    }
    // In the fold, the refuted target is out of the reached set and marked.
    let k = events.iter().position(|e| matches!(e, Event::TargetRefuted { .. })).unwrap() + 1;
    let snap = Snapshot::of(&events[..k]);
    let Event::TargetRefuted { state, .. } = &events[k - 1] else { unreachable!() };
    let info = snap.state(*state).unwrap();
    assert!(info.target && info.refuted && !info.in_reached && !info.in_waitlist, "{info:?}");
    assert!(!snap.waitlist.contains(state));
    assert!(snap.finished.is_none());
    // Stepping back and forth over the refutation gives the same snapshots.
    let mut cursor = Cursor::new(events.clone());
    assert_eq!(cursor.seek(k).clone(), snap);
    assert_eq!(cursor.seek(k - 1).clone(), Snapshot::of(&events[..k - 1]));
    assert_eq!(cursor.seek(events.len()).clone(), Snapshot::of(&events));
}

#[test]
fn the_unsafe_variant_stays_false_and_is_confirmed() {
    if !z3_installed() {
        eprintln!("z3 not installed: skipped");
        return;
    }
    let mut v = build_verifier(program(DOWN_UNSAFE), &symbolic(&[]), false).unwrap();
    let events = v.run();
    let (verdict, reason) = v.outcome().unwrap();
    assert_eq!(verdict, Verdict::False, "{reason}");
    assert_eq!(v.confirmed(), Some(true), "{reason}");
    let n = v.inputs()[0];
    assert!((3..=40).contains(&n), "the replayed n satisfies the assumption: {n}");
    assert!(reason.contains("confirmed"), "{reason}");
    assert!(events.iter().any(|e| matches!(e, Event::Counterexample { confirmed: true, .. })));
}

/// The page's way: no solver attached, every query the engine does not
/// decide (the CPAs' and the target checks') parks and is answered from
/// outside — the same trace.
#[test]
fn parked_queries_give_the_same_trace_as_the_attached_solver() {
    if !z3_installed() {
        eprintln!("z3 not installed: skipped");
        return;
    }
    let p = program(DOWN);
    let config = symbolic(&[]);
    let mut attached = build_verifier(p.clone(), &config, true).unwrap();
    // Both decide one-input queries in the engine; the rest go to z3.
    let expected = attached.run();
    let mut parked = build_verifier(p, &config, true).unwrap();
    parked.set_solver(None);
    // As attached: one z3 process for the CPAs' queries, another for the
    // verifier's checks (an incremental z3's models depend on what it was
    // asked before, and the constraints CPA reuses models).
    let mut z3_cpas = smt::Z3Process::system(std::time::Duration::from_secs(10));
    let mut z3_checks = smt::Z3Process::system(std::time::Duration::from_secs(10));
    let mut events = Vec::new();
    loop {
        while let Some(e) = parked.next_event() {
            events.push(e);
        }
        let Some(q) = parked.pending_query() else { break };
        let script = q.smtlib.clone();
        let z3 = if parked.pending_query_is_check() { &mut z3_checks } else { &mut z3_cpas };
        let out = smt::SolverBackend::solve_text(z3, &script);
        parked.answer_query(&out);
    }
    let first_difference = events.iter().zip(&expected).position(|(a, b)| a != b);
    if let Some(i) = first_difference {
        panic!("event {i} differs:\n parked:   {:?}\n attached: {:?}", events[i], expected[i]);
    }
    assert_eq!(events.len(), expected.len());
    assert_eq!(parked.outcome().map(|(v, _)| v), Some(Verdict::True));
}
