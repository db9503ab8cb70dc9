//! The trace, the fold and the cursor, tested with the mock CPA (every state
//! unique) and with the Value CPA.

use cfa::BinOp;
use engine::cpas::mock::MockCpa;
use engine::testkit::{bin, int, var, CfaBuilder};
use engine::trace::RunInfo;
use engine::view::{Cursor, Snapshot, Statistics};
use engine::Stepper;
use engine::{build_analysis, AlgorithmOptions, Config, Event, Reachability};
use std::sync::Arc;

/// Two diamonds in a loop: merges, coverage and a depth bound.
fn program(with_error: bool) -> Arc<cfa::Program> {
    let mut b = CfaBuilder::new();
    let x = b.variable("x");
    let (head, a, c, join, d, e, join2, err) =
        (b.node(), b.node(), b.node(), b.node(), b.node(), b.node(), b.node(), b.error_node());
    b.loop_head(head);
    b.blank(b.entry(), head);
    b.branch(head, bin(BinOp::Gt, var(x), int(0)), a, c);
    b.blank(a, join);
    b.blank(c, join);
    b.branch(join, bin(BinOp::Lt, var(x), int(5)), d, e);
    b.blank(d, join2);
    b.blank(e, join2);
    b.blank(join2, head);
    let exit = b.exit();
    b.blank(join2, exit);
    if with_error {
        b.assume(exit, err, bin(BinOp::Eq, var(x), int(99)), true);
    }
    b.build()
}

fn mock_trace(join: bool) -> Vec<Event> {
    let p = program(false);
    let mut alg = Reachability::new(MockCpa::new(p.clone(), 9, join), p, AlgorithmOptions::default(), RunInfo::default());
    alg.run()
}

#[test]
fn mock_trace_has_merges_coverage_and_unique_states() {
    let ev = mock_trace(true);
    let stats = Statistics::of(&ev);
    assert!(stats.merges_replaced > 0, "{stats:?}");
    assert!(stats.covered > 0, "{stats:?}");
    assert!(matches!(ev.last(), Some(Event::AnalysisFinished { verdict: engine::Verdict::True, .. })));
    let views: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::StateCreated { view, origin: engine::trace::Origin::Transfer { .. }, .. } => Some(view.clone().unwrap()),
            _ => None,
        })
        .collect();
    let mut dedup = views.clone();
    dedup.sort_by_key(|v| v.to_string());
    dedup.dedup();
    assert_eq!(dedup.len(), views.len(), "every mock transfer successor is unique (merge results may equal a later successor)");
}

#[test]
fn cursor_seeks_from_every_step_to_every_other() {
    for join in [false, true] {
        let ev = mock_trace(join);
        let n = ev.len();
        assert!(n > 50, "trace too short to be a good test: {n}");
        let fresh: Vec<Snapshot> = (0..=n).map(|k| Snapshot::of(&ev[..k])).collect();
        // Fresh folds differ from one step to the next (each event changes the picture).
        for k in 0..n {
            assert_ne!(fresh[k], fresh[k + 1], "event {k} changed nothing");
        }
        let mut cursor = Cursor::with_interval(ev.clone(), 7);
        for from in 0..=n {
            for to in (0..=n).step_by(if n > 150 { 3 } else { 1 }) {
                cursor.seek(from);
                assert_eq!(cursor.snapshot(), &fresh[from]);
                let s = cursor.seek(to);
                assert_eq!(s, &fresh[to], "seek {from} → {to}");
            }
        }
    }
}

/// A snapshot kept aside (as the page keeps one per shown frame) is a copy:
/// moving the cursor on changes none of its states, although the two share
/// every state no event changed in between (copy-on-write, so a clone and
/// a restored checkpoint cost pointers, not states).
#[test]
fn a_kept_snapshot_is_unchanged_by_later_seeks_and_shares_untouched_states() {
    let ev = mock_trace(true);
    let n = ev.len();
    let mut cursor = Cursor::with_interval(ev.clone(), 7);
    for k in [n / 3, n / 2, n - 1] {
        let kept = cursor.seek(k).clone();
        let later = cursor.seek(n).clone();
        assert_eq!(kept, Snapshot::of(&ev[..k]), "the kept snapshot at {k} changed when the cursor moved on");
        let shared = kept.states.iter().zip(&later.states).filter(|(a, b)| Arc::ptr_eq(a, b)).count();
        assert!(shared > 0, "at {k}: no state shared with the end");
        if k == n - 1 {
            // The last event (the verdict) changes no state: all are shared.
            assert!(matches!(ev[k], Event::AnalysisFinished { .. }));
            assert_eq!(shared, kept.states.len(), "a state the verdict did not change was copied");
        }
        cursor.seek(k / 2);
        assert_eq!(kept, Snapshot::of(&ev[..k]), "the kept snapshot at {k} changed when the cursor went back");
    }
}

#[test]
fn runs_are_deterministic_and_trace_json_round_trips() {
    let a = mock_trace(true);
    let b = mock_trace(true);
    assert_eq!(a, b);
    let json = serde_json::to_string(&a).unwrap();
    let back: Vec<Event> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, a);
    assert_eq!(serde_json::to_string(&back).unwrap(), json);

    let p = program(true);
    let c = Config::preset("value").unwrap();
    let t1 = build_analysis(p.clone(), &c, true).unwrap().run();
    let t2 = build_analysis(p, &c, true).unwrap().run();
    assert_eq!(t1, t2);
    let json = serde_json::to_string(&t1).unwrap();
    let back: Vec<Event> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, t1);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v[0]["event"], "analysis_started");
    assert_eq!(v.as_array().unwrap().last().unwrap()["event"], "analysis_finished");
}

#[test]
fn snapshot_spells_out_the_current_step() {
    let p = program(true);
    let c = Config::preset("value").unwrap();
    let ev = build_analysis(p, &c, true).unwrap().run();
    // After the second pop's events: pop, transfer, stop, add.
    let second_pop = ev.iter().enumerate().filter(|(_, e)| matches!(e, Event::WaitlistPop { .. })).nth(1).unwrap().0;
    let third_pop = ev.iter().enumerate().filter(|(_, e)| matches!(e, Event::WaitlistPop { .. })).nth(2).unwrap().0;
    let s = Snapshot::of(&ev[..third_pop]);
    let text = s.step_text();
    assert!(text.starts_with("step 2: pop s1 @N2"), "{text}");
    assert!(text.contains("transfer along N2→N3"), "{text}");
    assert!(text.contains("stop: s2 not covered; add s2"), "{text}");
    assert!(second_pop < third_pop);
    // The waitlist and reached set of the fold agree with the statistics.
    assert_eq!(s.reached_len() as u64, s.stats.reached);
    assert_eq!(s.waitlist.len() as u64, s.stats.waitlist);
}

#[test]
fn statistics_are_counted_from_events() {
    let ev = mock_trace(false);
    let s = Statistics::of(&ev);
    let pops = ev.iter().filter(|e| matches!(e, Event::WaitlistPop { .. })).count() as u64;
    let created = ev.iter().filter(|e| matches!(e, Event::StateCreated { .. })).count() as u64;
    assert_eq!(s.steps, pops);
    assert_eq!(s.created, created);
    assert_eq!(Snapshot::of(&ev).stats, s);
}

/// The step-by-step story of the symbolic-execution paper's Listing 1 under
/// the value analysis, as the trace command prints it (reviewed snapshot).
#[test]
fn listing_1_story_snapshot() {
    let src = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main() {\n  int a = __VERIFIER_nondet_int();\n  int b;\n  if (a >= 0) b = a; else b = a + 1;\n  if (b < a) reach_error();\n  return 0;\n}\n";
    let program = Arc::new(cfa::from_source(src).unwrap());
    let c = Config::preset("value").unwrap();
    let events = build_analysis(program, &c, true).unwrap().run();
    let mut snap = Snapshot::default();
    let mut story = Vec::new();
    for e in &events {
        if matches!(e, Event::WaitlistPop { .. }) && !snap.current_step.is_empty() {
            story.push(snap.step_text());
        }
        snap.apply(e);
    }
    story.push(snap.step_text());
    insta::assert_snapshot!(story.join("\n"));
}

/// At the merge event whose text says "sX replaces sY", the fold no longer
/// lists sY in the reached set (not one event later, at the
/// `ReachedRemove` that repeats the removal), and the reached count of the
/// statistics agrees with the reached set at every event.
#[test]
fn a_merge_replaces_the_reached_state_at_its_own_event() {
    // The mock's merges and octagon-join on a diamond in a loop, whose
    // reverse-postorder waitlist keeps the state at the join waiting until
    // the other branch is merged into it.
    let src = "extern int __VERIFIER_nondet_int(void);\nint main() {\n  int x = 0; int i = 0;\n  while (i < 3) {\n    if (__VERIFIER_nondet_int()) x = x + 1; else x = x + 2;\n    i = i + 1;\n  }\n  return x;\n}\n";
    let program = Arc::new(cfa::from_source(src).unwrap());
    let octagon = build_analysis(program, &Config::preset("octagon-join").unwrap(), true).unwrap().run();
    let waiting: usize = [mock_trace(true), octagon].iter().map(|ev| merges_replace_at_their_own_event(ev)).sum();
    assert!(waiting > 0, "some replaced state was still waiting");
}

/// Checks one trace; returns how many replaced states were still waiting.
fn merges_replace_at_their_own_event(ev: &[Event]) -> usize {
    let mut s = Snapshot::default();
    let mut replacing_merges = 0;
    let mut waiting_when_replaced = 0;
    for e in ev {
        if let Event::Merge { reached, replaced: true, .. } = e {
            waiting_when_replaced += usize::from(s.waitlist.contains(reached));
        }
        s.apply(e);
        assert_eq!(s.stats.reached as usize, s.reached_len(), "after event {}: {}", s.position, s.step_text());
        assert_eq!(s.stats.waitlist as usize, s.waitlist.len(), "after event {}: {}", s.position, s.step_text());
        if let Event::Merge { reached, result, replaced: true, .. } = e {
            assert!(!s.waitlist.contains(reached), "{reached} is still waiting at the merge that replaced it");
            replacing_merges += 1;
            assert!(s.step_text().ends_with(&format!("→ {result} replaces {reached}")), "{}", s.step_text());
            let st = s.state(*reached).unwrap();
            assert!(!st.in_reached && st.replaced_by == Some(*result), "{st:?}");
            assert!(!s.reached.values().flatten().any(|id| id == reached), "{reached} is still listed at the merge");
        }
    }
    assert!(replacing_merges > 0, "the trace has merges that replaced a state");
    assert_eq!(Snapshot::of(ev).stats, Statistics::of(ev));
    waiting_when_replaced
}
