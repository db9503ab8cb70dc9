//! CEGAR with explicit-value interpolation, the octagon backup refiner, the
//! counterexample check and the restart algorithm (issue #7): the octagon
//! thesis's Listing 2.1, its footnote case, and the fold across restarts.

use engine::cegar::{build_verifier, Verifier};
use engine::trace::Event;
use engine::view::{Cursor, Snapshot, Statistics};
use engine::{build_analysis, Config, Verdict};
use std::sync::Arc;

fn program(src: &str) -> Arc<cfa::Program> {
    Arc::new(cfa::from_source(src).expect("the test program parses"))
}

fn listing_2_1() -> Arc<cfa::Program> {
    program(include_str!("../../../static/examples/octagon-listing2-1.c"))
}

fn config(name: &str, steps: &str) -> Config {
    let mut c = Config::preset(name).unwrap();
    c.set("limits.steps", steps).unwrap();
    c
}

fn run(p: &Arc<cfa::Program>, c: &Config) -> (Verifier, Vec<Event>) {
    let mut v = build_verifier(p.clone(), c, true).unwrap();
    let events = v.run();
    (v, events)
}

fn var(p: &cfa::Program, name: &str) -> cfa::VarId {
    p.variables.iter().find(|v| v.name == name).unwrap().id
}

#[test]
fn value_does_not_terminate_on_listing_2_1() {
    let p = listing_2_1();
    let mut a = build_analysis(p, &config("value", "2000"), false).unwrap();
    a.run_with(|_| {});
    let (v, reason) = a.outcome().unwrap();
    assert_eq!(v, Verdict::Unknown);
    assert!(reason.contains("step limit"), "{reason}");
}

#[test]
fn value_cegar_on_listing_2_1_tracks_flag_and_never_the_loop_counter() {
    let p = listing_2_1();
    let (v, events) = run(&p, &config("value-cegar", "2000"));
    let (verdict, reason) = v.outcome().unwrap();
    println!("value-cegar: {verdict:?} {reason}");
    let ticks = var(&p, "ticks");
    let flag = var(&p, "flag");
    let tracked = v.precision().variables();
    assert!(!tracked.contains(&ticks), "the loop counter must never be tracked: {tracked:?}");
    assert!(tracked.contains(&flag), "the refinement tracks flag: {tracked:?}");
    assert!(!reason.contains("step limit"), "CEGAR terminates: {reason}");
    assert_ne!(verdict, Verdict::False, "the program is safe: {reason}");
    let stats = Statistics::of(&events);
    assert!(stats.refinements >= 1);
}

#[test]
fn octagon_cegar_proves_listing_2_1() {
    let p = listing_2_1();
    let (v, events) = run(&p, &config("octagon-cegar", "2000"));
    let (verdict, reason) = v.outcome().unwrap();
    assert_eq!(verdict, Verdict::True, "{reason}");
    let tracked = v.precision().variables();
    assert!(!tracked.contains(&var(&p, "ticks")), "{tracked:?}");
    assert!(tracked.contains(&var(&p, "flag")), "{tracked:?}");
    let stats = Statistics::of(&events);
    assert!(stats.refinements >= 1 && stats.restarts == stats.refinements, "{stats:?}");
}
