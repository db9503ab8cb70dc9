//! The reachability algorithm on hand-built CFAs (no parser needed).

use cfa::{BinOp, NodeId};
use engine::testkit::{bin, int, var, CfaBuilder};
use engine::view::{Snapshot, Statistics};
use engine::Stepper;
use engine::{build_analysis, Config, Event, Verdict};
use std::sync::Arc;

fn run(program: Arc<cfa::Program>, preset: &str, sets: &[&str]) -> (Vec<Event>, engine::Analysis) {
    let mut c = Config::preset(preset).unwrap();
    for s in sets {
        c.set_pair(s).unwrap();
    }
    let mut a = build_analysis(program, &c, true).unwrap();
    let events = a.run();
    (events, a)
}

/// `x = nondet; if (x > 0) y = 1; else y = 2; (exit)`
fn diamond() -> Arc<cfa::Program> {
    let mut b = CfaBuilder::new();
    let x = b.variable("x");
    let y = b.variable("y");
    let n2 = b.node();
    let (n3, n4, n5) = (b.node(), b.node(), b.node());
    b.nondet(b.entry(), n2, x);
    b.branch(n2, bin(BinOp::Gt, var(x), int(0)), n3, n4);
    b.assign(n3, n5, y, int(1));
    b.assign(n4, n5, y, int(2));
    let exit = b.exit();
    b.blank(n5, exit);
    b.build()
}

#[test]
fn merge_sep_keeps_both_branches_join_combines_them() {
    let (ev_sep, a_sep) = run(diamond(), "value", &[]);
    let (ev_join, a_join) = run(diamond(), "value", &["cpa.value.merge=JOIN"]);
    assert_eq!(a_sep.outcome().unwrap().0, Verdict::True);
    assert_eq!(a_join.outcome().unwrap().0, Verdict::True);
    // sep: N0, N2, N3, N4, N5 twice, N1 twice.
    assert_eq!(a_sep.reached_len(), 8);
    // join: one state per location.
    assert_eq!(a_join.reached_len(), 6);
    assert_eq!(Statistics::of(&ev_sep).reached, 8);
    assert_eq!(Statistics::of(&ev_join).reached, 6);
    assert!(ev_join.iter().any(|e| matches!(e, Event::Merge { replaced: true, .. })));
    assert!(!ev_sep.iter().any(|e| matches!(e, Event::Merge { .. })));
    let snap = Snapshot::of(&ev_join);
    assert_eq!(snap.reached.get(&NodeId(5)).map(Vec::len), Some(1));
}

#[test]
fn stop_covers_a_repeated_state() {
    // x = 0; while (1) { x = 0; }
    let mut b = CfaBuilder::new();
    let x = b.variable("x");
    let head = b.node();
    b.loop_head(head);
    b.assign(b.entry(), head, x, int(0));
    b.assign(head, head, x, int(0));
    let (events, a) = run(b.build(), "value", &[]);
    assert_eq!(a.outcome().unwrap().0, Verdict::True);
    let covered: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Stop { state, covered: true, covered_by, .. } => Some((*state, covered_by.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(covered.len(), 1);
    assert_eq!(covered[0].1, vec![engine::StateId(1)]);
    assert_eq!(a.reached_len(), 2);
}

fn tree() -> Arc<cfa::Program> {
    let mut b = CfaBuilder::new();
    let (n2, n3, n4, n5) = (b.node(), b.node(), b.node(), b.node());
    b.blank(b.entry(), n2);
    b.blank(b.entry(), n3);
    b.blank(n2, n4);
    b.blank(n3, n5);
    b.build()
}

fn pop_locations(events: &[Event]) -> Vec<u32> {
    let snap_states = Snapshot::of(events);
    events
        .iter()
        .filter_map(|e| match e {
            Event::WaitlistPop { state, .. } => snap_states.state(*state).and_then(|s| s.location).map(|l| l.0),
            _ => None,
        })
        .collect()
}

#[test]
fn dfs_and_bfs_pop_in_their_orders() {
    let (dfs, _) = run(tree(), "value", &["analysis.traversal.order=DFS"]);
    let (bfs, _) = run(tree(), "value", &["analysis.traversal.order=BFS"]);
    assert_eq!(pop_locations(&dfs), vec![0, 3, 5, 2, 4]);
    assert_eq!(pop_locations(&bfs), vec![0, 2, 3, 4, 5]);
}

#[test]
fn reverse_postorder_waits_for_both_branches_before_the_join_point() {
    let (ev, a) = run(diamond(), "value", &["cpa.value.merge=JOIN", "analysis.traversal.useReversePostorder=true"]);
    assert_eq!(a.outcome().unwrap().0, Verdict::True);
    // N5 is popped once: both branches were merged before it was processed.
    let pops = pop_locations(&ev);
    assert_eq!(pops.iter().filter(|l| **l == 5).count(), 1, "{pops:?}");
    assert_eq!(pops.iter().filter(|l| **l == 1).count(), 1, "{pops:?}");
}

#[test]
fn step_limit_gives_unknown_naming_the_limit() {
    // x = 0; while (1) x = x + 1;
    let mut b = CfaBuilder::new();
    let x = b.variable("x");
    let head = b.node();
    b.assign(b.entry(), head, x, int(0));
    b.assign(head, head, x, bin(BinOp::Add, var(x), int(1)));
    let (events, a) = run(b.build(), "value", &["limits.steps=50"]);
    let (v, reason) = a.outcome().unwrap();
    assert_eq!(v, Verdict::Unknown);
    assert!(reason.contains("limits.steps = 50"), "{reason}");
    assert_eq!(Statistics::of(&events).steps, 50);
}

#[test]
fn state_limit_gives_unknown_naming_the_limit() {
    let mut b = CfaBuilder::new();
    let x = b.variable("x");
    let head = b.node();
    b.assign(b.entry(), head, x, int(0));
    b.assign(head, head, x, bin(BinOp::Add, var(x), int(1)));
    let (_, a) = run(b.build(), "value", &["limits.states=10"]);
    let (v, reason) = a.outcome().unwrap();
    assert_eq!(v, Verdict::Unknown);
    assert!(reason.contains("limits.states = 10"), "{reason}");
}

#[test]
fn reaching_the_error_location_is_false_and_infeasible_error_is_true() {
    // x = 1; if (x == 1) ERROR;
    let mut b = CfaBuilder::new();
    let x = b.variable("x");
    let (n2, err) = (b.node(), b.error_node());
    b.assign(b.entry(), n2, x, int(1));
    let exit = b.exit();
    b.branch(n2, bin(BinOp::Eq, var(x), int(1)), err, exit);
    let p = b.build();
    let (events, a) = run(p.clone(), "value", &[]);
    let (v, reason) = a.outcome().unwrap();
    assert_eq!(v, Verdict::False);
    assert!(reason.contains("unconfirmed"), "{reason}");
    assert!(matches!(events.last(), Some(Event::AnalysisFinished { verdict: Verdict::False, .. })));
    assert_eq!(a.error_path().unwrap().len(), 2);

    // x = 1; if (x == 2) ERROR;
    let mut b = CfaBuilder::new();
    let x = b.variable("x");
    let (n2, err) = (b.node(), b.error_node());
    b.assign(b.entry(), n2, x, int(1));
    let exit = b.exit();
    b.branch(n2, bin(BinOp::Eq, var(x), int(2)), err, exit);
    let (_, a) = run(b.build(), "value", &[]);
    assert_eq!(a.outcome().unwrap().0, Verdict::True);
}

#[test]
fn nondet_equality_binds_the_variable() {
    // x = nondet; if (x == 5) { if (x != 5) ERROR; }
    let mut b = CfaBuilder::new();
    let x = b.variable("x");
    let (n2, n3, err) = (b.node(), b.node(), b.error_node());
    b.nondet(b.entry(), n2, x);
    let exit = b.exit();
    b.branch(n2, bin(BinOp::Eq, var(x), int(5)), n3, exit);
    b.branch(n3, bin(BinOp::Ne, var(x), int(5)), err, exit);
    let (_, a) = run(b.build(), "value", &[]);
    assert_eq!(a.outcome().unwrap().0, Verdict::True);
}

#[test]
fn step_returns_one_pop_at_a_time_and_concatenates_to_run() {
    let full = run(diamond(), "value", &[]).0;
    let c = Config::preset("value").unwrap();
    let mut a = build_analysis(diamond(), &c, true).unwrap();
    let mut stepped = Vec::new();
    loop {
        let chunk = a.step();
        if chunk.is_empty() {
            break;
        }
        let pops = chunk.iter().filter(|e| matches!(e, Event::WaitlistPop { .. })).count();
        assert!(pops <= 1);
        stepped.extend(chunk);
    }
    assert_eq!(stepped, full);
}
