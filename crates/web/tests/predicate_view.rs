//! Predicate analysis as the page shows it, folded from a `predicate` run
//! of the lockstep loop driven as the page drives it (parked on every
//! query, answered by Debian's z3 as the page's z3-solver answers): the
//! inspector's ψ/φ part, the abstraction states marked in the lists and the
//! ARG, the predicates beside the CFA nodes, the CEGAR tab's predicate
//! refinement, the "next abstraction" breakpoint and predict mode's
//! abstraction question. Native only (it runs Debian's z3).
#![cfg(not(target_arch = "wasm32"))]

use engine::trace::{Event, StateId};
use web::model::analysis::{break_target, is_abstraction_state, BreakTarget, Breakpoint, CegarView, Panels, Run, RunSpec};
use web::model::graphs::arg::{ArgGraph, ArgState};
use web::model::graphs::cfa::{predicate_caption, CfaGraph};
use web::model::graphs::frame::RunFrame;
use web::model::predict::{abstraction_question, PredictAction, PredictMode, StepOutcome};
use web::model::run_driver::drive_sync;
use web::model::selection::Highlight;
use web::model::state_view::{detail, Part};

/// `x` and `y` grow in lockstep: the error needs `x != y`, which predicate
/// analysis proves impossible after one refinement finds `x == y` at the
/// loop head.
const LOCKSTEP: &str = "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int x = 0, y = 0;
  int n = __VERIFIER_nondet_int();
  while (x < n) { x++; y++; }
  if (x != y) reach_error();
  return 0;
}
";

/// Debian's z3 as the page's solver: one incremental process per run, as
/// the CLI asks it (the driver loop is the page's).
fn z3() -> impl FnMut(&web::model::run_driver::Query) -> Result<String, String> {
    use smt::SolverBackend;
    let mut z3 = smt::Z3Process::system(std::time::Duration::from_secs(30));
    move |q| z3.solve(&q.script).map_err(|e| e.to_string())
}

/// The run, with every query answered through the page's driver loop.
fn run(preset: &str) -> Run {
    let mut run = Run::start(LOCKSTEP, RunSpec { preset: preset.into(), max_steps: 2000, ..RunSpec::default() }).unwrap();
    run.detach_solver();
    drive_sync(&mut run, z3(), || false);
    assert!(run.finished());
    run
}

fn position_of(run: &Run, what: impl Fn(&Event) -> bool) -> usize {
    run.cursor.events().iter().position(what).expect("the event is in the trace") + 1
}

#[test]
fn the_lockstep_loop_is_true_after_one_predicate_refinement() {
    let mut run = run("predicate");
    let n = run.cursor.len();
    run.cursor.seek(n);
    let panels = Panels::of(&run.program, &run.cursor, &run.lines);
    assert!(panels.verdict.as_deref().is_some_and(|v| v.starts_with("TRUE")), "{:?}", panels.verdict);
    let refinements = run.cursor.events().iter().filter(|e| matches!(e, Event::Refinement { .. })).count();
    assert_eq!(refinements, 1);
    // Refinement queries are quantifier eliminations: their answer text was
    // passed through, not taken for a failed check.
    let qe = run.cursor.events().iter().find_map(|e| match e {
        Event::SolverQuery { smtlib, answer, .. } if smtlib.contains("qe") => Some(answer.clone()),
        _ => None,
    });
    assert!(qe.as_deref().is_some_and(|a| a.starts_with("eliminated")), "{qe:?}");
}

#[test]
fn the_inspector_shows_psi_phi_and_how_an_abstraction_was_computed() {
    let mut run = run("predicate");
    // After the refinement: the abstraction at the loop head over x == y.
    let refined = position_of(&run, |e| matches!(e, Event::Refinement { .. }));
    let k = refined
        + run.cursor.events()[refined..].iter().position(|e| matches!(e, Event::Abstraction { .. })).expect("an abstraction")
        + 1;
    let Event::Abstraction { state, abstraction } = run.cursor.events()[k - 1].clone() else { unreachable!() };
    run.cursor.seek(k);
    let snap = run.cursor.snapshot();
    let d = detail(snap, state).unwrap();
    let Some(Part::Predicate(p)) = d.parts.first() else { panic!("{d:?}") };
    assert!(p.abstraction_state);
    assert!(p.path.is_empty(), "φ starts again from true at a block end: {:?}", p.path);
    assert_eq!(p.abstraction, abstraction.result);
    assert!(p.predicates.iter().any(|q| q.contains("x == ") && q.contains("y")), "{:?}", p.predicates);
    let computed = p.computed_text().unwrap();
    assert!(computed.starts_with("boolean abstraction at N"), "{computed}");
    assert!(computed.contains(&format!("{} solver quer", abstraction.queries)), "{computed}");
    // The state's parent inside the block has a path formula in SSA form
    // and is no abstraction state.
    let inner = snap
        .states
        .iter()
        .filter_map(|s| detail(snap, s.id))
        .find_map(|d| match d.parts.into_iter().next() {
            Some(Part::Predicate(p)) if !p.abstraction_state && !p.path.is_empty() => Some(p),
            _ => None,
        })
        .expect("a state inside a block");
    assert!(inner.block_length >= 1);
    assert!(inner.computed_text().is_none());
    assert!(inner.path.iter().any(|c| c.contains('₁') || c.contains('₂')), "SSA subscripts: {:?}", inner.path);
}

#[test]
fn abstraction_states_are_marked_in_lists_and_the_arg() {
    let mut run = run("predicate");
    let n = run.cursor.len();
    run.cursor.seek(n);
    let panels = Panels::of(&run.program, &run.cursor, &run.lines);
    let marked: Vec<&str> =
        panels.reached.iter().flat_map(|g| &g.states).filter(|s| s.abstraction).map(|s| &*s.location).collect();
    assert!(!marked.is_empty(), "the loop head's abstraction state is in the reached set");
    // Not every state: only block ends.
    assert!(panels.reached.iter().flat_map(|g| &g.states).any(|s| !s.abstraction));
    let snap = run.cursor.snapshot();
    let graph = ArgGraph::build(&ArgState::of_snapshot(snap), snap.states.len());
    let marks = graph.marks(snap, &Highlight::default());
    let abs: Vec<StateId> = graph.nodes.iter().zip(&marks).filter(|(_, m)| m.abstraction).map(|(node, _)| node.state).collect();
    assert!(!abs.is_empty());
    assert!(abs.iter().all(|&s| is_abstraction_state(snap, s)));
    let m = marks.iter().find(|m| m.abstraction).unwrap();
    assert!(m.classes().contains(&"abstraction") && m.words().contains("abstraction state"));
    // The value analysis has none.
    let mut value = Run::start(LOCKSTEP, RunSpec { preset: "value".into(), ..RunSpec::default() }).unwrap().complete();
    let n = value.cursor.len();
    value.cursor.seek(n);
    assert!(Panels::of(&value.program, &value.cursor, &value.lines)
        .reached
        .iter()
        .flat_map(|g| &g.states)
        .all(|s| !s.abstraction));
}

#[test]
fn the_arg_shows_the_shown_iterations_states_only() {
    // The refinement restarts from an empty ARG with ids from s0 again: the
    // picture holds one iteration's states, each id once.
    let mut run = run("predicate");
    let restart = position_of(&run, |e| matches!(e, Event::Restart { .. }));
    for k in [restart - 1, restart, run.cursor.len()] {
        run.cursor.seek(k);
        let frame = RunFrame::new(1, &run, true, None);
        let ids: Vec<u32> = frame.arg_states.iter().map(|s| s.id.0).collect();
        assert!(ids.iter().enumerate().all(|(i, id)| *id == i as u32), "ids s0, s1, … once each at {k}: {ids:?}");
        assert_eq!(frame.arg_from == 0, k < restart, "iteration 1 before the restart, 2 from it on (at {k})");
        let again = RunFrame::new(1, &run, true, Some(&frame));
        assert!(std::rc::Rc::ptr_eq(&again.arg_states, &frame.arg_states), "reused while the iteration stays");
    }
    run.cursor.seek(restart - 1);
    let first = RunFrame::new(1, &run, true, None);
    run.cursor.seek(restart + 1);
    let second = RunFrame::new(1, &run, true, Some(&first));
    assert!(!std::rc::Rc::ptr_eq(&first.arg_states, &second.arg_states), "a new iteration, new states");
}

#[test]
fn predicates_stand_beside_their_cfa_nodes_after_the_refinement() {
    let mut run = run("predicate");
    let graph = CfaGraph::build(&run.program, false);
    let refined = position_of(&run, |e| matches!(e, Event::Refinement { .. }));
    run.cursor.seek(refined - 1);
    assert!(graph.predicate_labels(&run.cursor.snapshot().predicates).is_empty(), "none before the refinement");
    run.cursor.seek(refined);
    let preds = run.cursor.snapshot().predicates.clone();
    assert!(!preds.is_empty() && preds.iter().all(|(_, new)| *new), "all new after the first refinement: {preds:?}");
    let labels = graph.predicate_labels(&preds);
    assert_eq!(labels.len(), 1, "one location (the loop head): {labels:?}");
    let l = &labels[0];
    assert!(l.new);
    assert_eq!(Some(l.node), preds[0].0.location);
    // The function's own variables unqualified beside the node, in full in the tooltip.
    assert!(l.text.contains("x == y"), "{}", l.text);
    assert!(l.full.contains("main::x == main::y") && l.full.contains("(new"), "{}", l.full);
    let n = &graph.nodes[l.graph_node];
    assert!(!l.overlaps(n.center.x - n.width / 2.0, n.center.y - n.height / 2.0, n.width, n.height));
    // Located predicates need no caption; function-wide ones do.
    assert!(predicate_caption(&preds).is_empty());
    let mut wide = preds[0].clone();
    wide.0.location = None;
    wide.0.scope = "in main".into();
    assert_eq!(predicate_caption(&[wide.clone()]), vec![(format!("{} (in main)", wide.0.predicate), true)]);
    assert!(graph.predicate_labels(&[wide]).is_empty());
    // The next iteration (after the restart) still shows them.
    let n = run.cursor.len();
    run.cursor.seek(n);
    assert_eq!(graph.predicate_labels(&run.cursor.snapshot().predicates).len(), 1);
}

#[test]
fn the_cegar_tab_shows_the_predicate_refinement() {
    let mut run = run("predicate");
    let refined = position_of(&run, |e| matches!(e, Event::Refinement { .. }));
    run.cursor.seek(refined - 1);
    assert!(CegarView::at(&run.program, &run.cursor).predicates.is_empty());
    run.cursor.seek(refined);
    let v = CegarView::at(&run.program, &run.cursor);
    assert!(!v.is_empty());
    assert!(v.refiner.starts_with("predicate interpolation"), "{}", v.refiner);
    assert!(!v.path.is_empty() && v.verdict.as_deref().is_some_and(|t| t.starts_with("infeasible")), "{v:?}");
    assert!(!v.interpolants.is_empty(), "one interpolant per cut");
    assert!(v.predicates.iter().any(|(at, p, new)| at.starts_with("at N") && p.contains("x == ") && *new), "{:?}", v.predicates);
}

#[test]
fn the_abstraction_breakpoint_stops_at_each_abstraction() {
    let mut run = run("predicate");
    run.cursor.seek(0);
    let BreakTarget::At(k) = break_target(&run, Breakpoint::Abstraction) else { panic!("an abstraction is in the run") };
    assert!(matches!(run.cursor.events()[k - 1], Event::Abstraction { .. }));
    // Its solver queries come before it, in the same step.
    let step_start = run.cursor.events()[..k].iter().rposition(|e| matches!(e, Event::WaitlistPop { .. })).unwrap();
    assert!(run.cursor.events()[step_start..k].iter().any(|e| matches!(e, Event::SolverQuery { .. })));
    let n = run.cursor.len();
    run.cursor.seek(n);
    assert_eq!(break_target(&run, Breakpoint::Abstraction), BreakTarget::NoneAfterHere);
    assert!(Breakpoint::ALL.contains(&Breakpoint::Abstraction));
    assert_eq!(Breakpoint::Abstraction.key(), "bp-abstraction");
    // Offered for predicate runs only.
    assert!(Breakpoint::Abstraction.offered(&run));
    let value = Run::start(LOCKSTEP, RunSpec { preset: "value".into(), ..RunSpec::default() }).unwrap().complete();
    assert!(!Breakpoint::Abstraction.offered(&value));
    assert!(Breakpoint::Refinement.offered(&value));
}

#[test]
fn predict_mode_asks_for_the_abstraction_and_grades_it() {
    let run = run("predicate");
    let events = run.cursor.events();
    let mut from = 0;
    let mut asked = 0;
    while let Some(step) = StepOutcome::next(events, from, true) {
        from = step.end;
        let Some(q) = abstraction_question(events, &step) else { continue };
        asked += 1;
        assert!(q.choices.contains(&q.actual), "{q:?}");
        assert!(q.choices.len() >= 2, "a real choice: {q:?}");
        let wrong = q.choices.iter().find(|c| **c != q.actual).unwrap().clone();
        let mode = PredictMode::default().reduce(PredictAction::Toggle);
        let right = mode
            .reduce(PredictAction::Abstraction(Some(q.actual.clone())))
            .reduce(PredictAction::Check(step.clone(), Some(q.clone())));
        let g = right.last.unwrap();
        assert_eq!(g.score(), (1, 1));
        assert_eq!(g.answers[0].question, "abstraction");
        let bad = mode.reduce(PredictAction::Abstraction(Some(wrong))).reduce(PredictAction::Check(step, Some(q)));
        assert_eq!(bad.last.unwrap().score(), (0, 1));
        assert_eq!(bad.abstraction, None, "the next step starts unanswered");
    }
    // The loop head's abstraction, before and after the refinement.
    assert!(asked >= 2, "{asked}");
}

#[test]
fn the_cartesian_preset_runs_in_the_page_too() {
    let mut run = run("predicate-cartesian");
    let n = run.cursor.len();
    run.cursor.seek(n);
    let panels = Panels::of(&run.program, &run.cursor, &run.lines);
    assert!(panels.verdict.as_deref().is_some_and(|v| v.starts_with("TRUE")), "{:?}", panels.verdict);
    let kinds: Vec<String> = run
        .cursor
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Abstraction { abstraction, .. } => Some(abstraction.kind.clone()),
            _ => None,
        })
        .collect();
    assert!(!kinds.is_empty() && kinds.iter().all(|k| k == "cartesian"), "{kinds:?}");
}
