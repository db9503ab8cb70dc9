//! Path invariants for predicate refinement
//! (`cpa.predicate.refinement.pathInvariants`): a loop whose invariant
//! `a + b == 3*i` interpolants do not find (they enumerate the iterations)
//! is proved with the affine generator on the path program, and the
//! refinement event says which predicates came from it.

use engine::cegar::build_verifier;
use engine::trace::Event;
use engine::view::{describe_event, Statistics};
use engine::{Config, Stepper, Verdict};
use std::sync::Arc;

const LOCKSTEP3: &str = include_str!("programs/predicate/lockstep3.c");

fn run(src: &str, path_invariants: &str) -> (Verdict, String, Vec<Event>) {
    let p = Arc::new(cfa::from_source(src).expect("the test program parses"));
    let mut c = Config::preset("predicate").unwrap();
    c.set("analysis.intModel", "MATH").unwrap();
    c.set("limits.steps", "20000").unwrap();
    c.set("cegar.maxIterations", "3").unwrap();
    c.set("cpa.predicate.refinement.pathInvariants", path_invariants).unwrap();
    let mut v = build_verifier(p, &c, false).unwrap();
    let events = v.run();
    let (verdict, reason) = v.outcome().expect("the run finished");
    (verdict, reason.to_string(), events)
}

#[test]
fn affine_path_invariants_prove_the_lockstep_loop() {
    let (verdict, reason, events) = run(LOCKSTEP3, "AFFINE");
    assert_eq!(verdict, Verdict::True, "{reason}");
    assert!(Statistics::of(&events).refinements <= 2);
    let from: Vec<String> = events
        .iter()
        .flat_map(|e| match e {
            Event::Refinement { from_path_invariants, .. } => from_path_invariants.iter().map(|p| p.predicate.clone()).collect(),
            _ => Vec::new(),
        })
        .collect();
    assert!(from.iter().any(|p| p == "main::a == main::i"), "{from:?}");
    assert!(from.iter().any(|p| p == "main::b == 2 * main::i"), "{from:?}");
    let refinement = events
        .iter()
        .find(|e| matches!(e, Event::Refinement { from_path_invariants, .. } if !from_path_invariants.is_empty()))
        .unwrap();
    let text = describe_event(refinement);
    assert!(text.contains("from path invariants of the path program"), "{text}");
    let json = serde_json::to_string(refinement).unwrap();
    assert!(json.contains("from_path_invariants"));
    assert_eq!(&serde_json::from_str::<Event>(&json).unwrap(), refinement);
    let Event::Refinement { reason, .. } = refinement else { unreachable!() };
    assert!(reason.contains("path invariants of the path program (AFFINE) add"), "{reason}");
}

#[test]
fn without_path_invariants_the_interpolants_enumerate_iterations() {
    let (verdict, reason, events) = run(LOCKSTEP3, "NONE");
    assert_eq!(verdict, Verdict::Unknown, "{reason}");
    assert!(reason.contains("cegar.maxIterations"), "{reason}");
    assert!(events
        .iter()
        .all(|e| !matches!(e, Event::Refinement { from_path_invariants, .. } if !from_path_invariants.is_empty())));
}

#[test]
fn a_refinement_event_without_the_new_field_still_reads() {
    // The first refinement's path enters the loop head once: no path
    // program with a loop, no path invariant.
    let (_, _, events) = run(LOCKSTEP3, "AFFINE");
    let refinement = events.iter().find(|e| matches!(e, Event::Refinement { .. })).unwrap();
    assert!(matches!(refinement, Event::Refinement { from_path_invariants, .. } if from_path_invariants.is_empty()));
    let json = serde_json::to_string(refinement).unwrap();
    assert!(!json.contains("from_path_invariants"), "an empty field is not written");
    let back: Event = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, refinement);
}
