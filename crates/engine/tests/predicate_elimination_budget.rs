//! The time budget of each quantifier elimination in predicate refinement
//! (`cpa.predicate.refinement.eliminationTimeMs`): on an unsigned char sum
//! that wraps after two inputs the interpolants over mathematical integers
//! find nothing new at the first loop head (`sum <= -1` is no predicate of
//! an unsigned char), and the elimination over C's wrap-around does not
//! finish; with the budget it fails, the refinement goes on with the
//! STRONGEST interpolants, and the error path with two iterations is found
//! and confirmed by a concrete replay.

use engine::cegar::build_verifier;
use engine::trace::Event;
use engine::{Config, Stepper, Verdict};
use minic::IntModel;
use std::sync::Arc;

const UCHAR_SUM: &str = include_str!("programs/predicate/uchar_sum.c");

#[test]
fn a_wrapping_sum_is_false_after_an_elimination_runs_out_of_its_budget() {
    let p = Arc::new(cfa::from_source(UCHAR_SUM).expect("the test program parses"));
    let mut c = Config::preset("predicate").unwrap();
    c.set("analysis.intModel", "C").unwrap();
    c.set("limits.steps", "20000").unwrap();
    c.set("cegar.maxIterations", "10").unwrap();
    c.set("cpa.predicate.refinement.eliminationTimeMs", "1000").unwrap();
    let mut v = build_verifier(p.clone(), &c, false).unwrap();
    let events = v.run();
    let (verdict, reason) = v.outcome().expect("the run finished");
    assert_eq!(verdict, Verdict::False, "{reason}");
    assert_eq!(v.confirmed(), Some(true), "{reason}");
    let ex = engine::feasibility::replay(&p, v.inputs(), IntModel::C, 10_000);
    assert!(matches!(ex.outcome, concrete::Outcome::ReachedError { .. }));
    // The elimination over C integers ran out of its budget.
    let canceled = events.iter().any(|e| {
        matches!(e, Event::SolverQuery { smtlib, answer, .. }
            if smtlib.contains("(try-for ") && smtlib.contains("C integers") && answer.contains("canceled"))
    });
    assert!(canceled, "no elimination over C integers was canceled");
    // and the refinement went on in the other direction.
    assert!(events.iter().any(|e| matches!(e, Event::Refinement { refiner, .. } if refiner.contains("STRONGEST"))));
}
