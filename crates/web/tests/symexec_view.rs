//! Symbolic execution as the page shows it, on the paper's running example
//! (Fig. 1 of "Combining Symbolic Execution with Predicate Abstraction and
//! CEGAR": x and y grow alternately while n counts down, so x >= y at the
//! end), driven as the page drives it (parked on every query, answered by
//! Debian's z3 as the page's z3-solver answers): `symexec-predabs` proves it
//! with abstraction points, infeasible branches and a refinement that the
//! tree view, the inspector, the CEGAR tab's precision function table and
//! the statistics line show; plain `symexec` runs into its step limit. A
//! path that is not p-simple (the running example has none: its repeated
//! valuations show up as infeasible branches one step later) is shown on a
//! counting loop without CEGAR, whose second abstraction has simple = false.
//! Native only (it runs Debian's z3).
#![cfg(not(target_arch = "wasm32"))]

use engine::trace::{Event, PruneReason};
use minic::IntModel;
use web::model::analysis::{break_target, BreakTarget, Breakpoint, CegarView, Panels, Run, RunSpec};
use web::model::graphs::arg::{is_symbolic_execution, ArgGraph};
use web::model::graphs::frame::RunFrame;
use web::model::run_driver::drive_sync;
use web::model::selection::Highlight;
use web::model::state_view::{detail, Part, SymExecPart};

/// The running example (the engine's test program).
const RUNNING_EXAMPLE: &str = include_str!("../../../static/examples/symexec-running-example.c");

/// Debian's z3 as the page's solver: one incremental process per run, as
/// the CLI asks it (the driver loop is the page's).
fn z3() -> impl FnMut(&web::model::run_driver::Query) -> Result<String, String> {
    use smt::SolverBackend;
    let mut z3 = smt::Z3Process::system(std::time::Duration::from_secs(30));
    move |q| z3.solve(&q.script).map_err(|e| e.to_string())
}

/// A counting loop: without predicates (and without CEGAR to add some)
/// its second abstraction at the loop head repeats the first's (empty)
/// valuation, so that path is not p-simple.
const COUNTING_LOOP: &str = "int main() {\n  int i = 0;\n  while (i < 10) {\n    i = i + 1;\n  }\n  return 0;\n}\n";

/// The run on the running example, every query answered through the
/// page's driver loop.
fn run(preset: &str, max_steps: u64) -> Run {
    // Mathematical integers: under C the loop's predicates cannot bound x
    // against overflow and CEGAR gives up (UNKNOWN, the engine's test).
    let spec = RunSpec { preset: preset.into(), max_steps, int_model: IntModel::Math, ..RunSpec::default() };
    run_on(RUNNING_EXAMPLE, spec)
}

fn run_on(source: &str, spec: RunSpec) -> Run {
    let mut run = Run::start(source, spec).unwrap();
    run.detach_solver();
    drive_sync(&mut run, z3(), || false);
    assert!(run.finished());
    run
}

fn positions(run: &Run, what: impl Fn(&Event) -> bool) -> Vec<usize> {
    run.cursor.events().iter().enumerate().filter(|(_, e)| what(e)).map(|(i, _)| i + 1).collect()
}

fn at_end(run: &mut Run) -> Panels {
    let n = run.cursor.len();
    run.cursor.seek(n);
    Panels::of(&run.program, &run.cursor, &run.lines)
}

#[test]
fn symexec_predabs_proves_the_running_example_and_counts_what_it_did() {
    let mut run = run("symexec-predabs", 5000);
    let panels = at_end(&mut run);
    assert!(panels.verdict.as_deref().is_some_and(|v| v.starts_with("TRUE")), "{:?}", panels.verdict);
    let stats = panels.symexec.clone().expect("a SymExecCPA run has the statistics line");
    assert!(stats.abstraction);
    assert!(stats.paths > 0 && stats.abstraction_points > 0 && stats.solver_queries > 0, "{stats:?}");
    assert!(stats.infeasible > 0, "{stats:?}");
    assert!(stats.refinements >= 1, "{stats:?}");
    let labels: Vec<&str> = stats.entries().iter().map(|e| e.0).collect();
    assert_eq!(
        labels,
        [
            "paths explored",
            "abstraction points",
            "pruned (not p-simple)",
            "infeasible branches",
            "solver queries",
            "of them without the solver",
            "refinements"
        ]
    );
    // A branch's model answers its sibling, or a later branch, at least once.
    assert!(stats.without_solver > 0 && stats.without_solver < stats.solver_queries, "{stats:?}");
    assert!(panels.text().contains(&stats.text()), "{}", panels.text());
}

#[test]
fn plain_symbolic_execution_stops_at_its_limit_with_unknown() {
    let mut run = run("symexec", 300);
    let panels = at_end(&mut run);
    assert!(panels.verdict.as_deref().is_some_and(|v| v.starts_with("UNKNOWN")), "{:?}", panels.verdict);
    let stats = panels.symexec.clone().unwrap();
    assert!(!stats.abstraction && stats.abstraction_points == 0 && stats.pruned == 0, "{stats:?}");
    assert!(stats.paths > 0 && stats.solver_queries > 0, "{stats:?}");
    assert!(!stats.text().contains("abstraction"), "{}", stats.text());
    // No precision function, no abstraction breakpoint.
    assert!(CegarView::at(&run.program, &run.cursor).precision_function.is_empty());
    assert!(!Breakpoint::Abstraction.offered(&run));
}

#[test]
fn the_tree_view_marks_the_path_abstraction_points_and_infeasible_branches() {
    let mut run = run("symexec-predabs", 5000);
    let n = run.cursor.len();
    run.cursor.seek(n);
    let frame = RunFrame::new(1, &run, true, None);
    let snap = &frame.snapshot;
    assert!(is_symbolic_execution(snap));
    let graph = ArgGraph::build_with_stubs(&frame.arg_states, &frame.arg_stubs, snap.states.len());
    // The last iteration's infeasible branches are labelled stubs below
    // their states, apart from every state.
    let stubs: Vec<_> = graph.visible_stubs(snap).collect();
    assert!(stubs.len() >= 2 && stubs.iter().all(|s| s.stub.reason == PruneReason::Infeasible), "{stubs:?}");
    for s in &stubs {
        assert_eq!(s.stub.label(), "infeasible");
        assert!(s.center.y > graph.nodes[s.from].center.y);
        for n in &graph.nodes {
            let apart = (s.center.x - n.center.x).abs() >= (s.width + n.width) / 2.0
                || (s.center.y - n.center.y).abs() >= (s.height + n.height) / 2.0;
            assert!(apart, "{s:?} overlaps {n:?}");
        }
    }
    // Abstraction points are marked, and the current path runs from the
    // root to the state at the cursor through parent links only.
    let marks = graph.marks(snap, &Highlight::default());
    assert_eq!(marks.iter().filter(|m| m.abstraction_point).count(), snap.states.iter().filter(|s| s.abstraction_point).count());
    assert!(marks.iter().any(|m| m.abstraction_point));
    let current = snap.current_state.unwrap();
    assert!(marks[graph.node_index(current).unwrap()].on_path);
    assert!(marks[0].on_path, "the root is on every path");
    let on_path = graph.path_edges(&marks);
    assert_eq!(
        on_path.iter().filter(|b| **b).count() + 1,
        marks.iter().filter(|m| m.on_path).count(),
        "a path: n states, n-1 links"
    );
    // Nothing is covered: stop^never.
    assert!(snap.states.iter().all(|s| s.covered_by.is_empty()));
    // Depth-first search backtracks, and the step says so (the page adds
    // it for symbolic execution; other analyses' steps stay as they were).
    let pops = positions(&run, |e| matches!(e, Event::WaitlistPop { .. }));
    let backtracks = pops
        .into_iter()
        .filter(|&k| {
            run.cursor.seek(k);
            Panels::of(&run.program, &run.cursor, &run.lines).step_text.contains("backtrack to s")
        })
        .count();
    assert!(backtracks >= 1);
}

#[test]
fn a_path_that_is_not_p_simple_is_a_stub_of_its_own() {
    let properties = "#include symexec-predabs.properties\nanalysis.algorithm.CEGAR = false\n".to_string();
    let spec = RunSpec {
        preset: "symexec-predabs".into(),
        properties: Some(properties),
        int_model: IntModel::Math,
        ..RunSpec::default()
    };
    let mut run = run_on(COUNTING_LOOP, spec);
    let panels = at_end(&mut run);
    assert!(panels.verdict.as_deref().is_some_and(|v| v.starts_with("TRUE")), "{:?}", panels.verdict);
    let stats = panels.symexec.unwrap();
    assert_eq!((stats.pruned, stats.refinements), (1, 0), "{stats:?}");
    let k = positions(&run, |e| matches!(e, Event::BranchPruned { reason: PruneReason::NotSimple, .. }))[0];
    // Not drawn before its event, drawn from it on.
    run.cursor.seek(k - 1);
    let before = RunFrame::new(1, &run, true, None);
    let graph = ArgGraph::build_with_stubs(&before.arg_states, &before.arg_stubs, before.snapshot.states.len());
    assert!(graph.visible_stubs(&before.snapshot).all(|s| s.stub.reason != PruneReason::NotSimple));
    run.cursor.seek(k);
    let frame = RunFrame::new(1, &run, true, Some(&before));
    let snap = &frame.snapshot;
    let graph = ArgGraph::build_with_stubs(&frame.arg_states, &frame.arg_stubs, snap.states.len());
    let stub = graph.visible_stubs(snap).find(|s| s.stub.reason == PruneReason::NotSimple).expect("its stub is drawn");
    assert_eq!((stub.stub.label(), stub.stub.css_class()), ("not p-simple", "arg-stub not-simple"));
    assert!(stub.stub.detail.contains("simple = false"), "{}", stub.stub.detail);
    assert!(stub.center.y > graph.nodes[stub.from].center.y, "below the state it left");
    assert!(snap.step_text().contains("not p-simple"), "{}", snap.step_text());
}

#[test]
fn the_inspector_shows_memory_path_condition_history_and_eq_simple() {
    let mut run = run("symexec-predabs", 5000);
    // An abstraction point after the first refinement (predicates exist).
    let refined = positions(&run, |e| matches!(e, Event::Refinement { .. }))[0];
    let k = positions(&run, |e| matches!(e, Event::AbstractionPoint { point, .. } if !point.predicates.is_empty()))
        .into_iter()
        .find(|&k| k > refined)
        .expect("an abstraction point over predicates");
    let Event::AbstractionPoint { state, point } = run.cursor.events()[k - 1].clone() else { unreachable!() };
    run.cursor.seek(k);
    let d = detail(run.cursor.snapshot(), state).unwrap();
    let p: SymExecPart = d
        .parts
        .iter()
        .find_map(|p| match p {
            Part::SymExec(p) => Some(p.clone()),
            _ => None,
        })
        .expect("a symbolic-execution part");
    assert!(p.abstraction_point);
    assert_eq!(p.point.as_ref(), Some(&point));
    assert!(!point.eq.is_empty(), "eq over the predicates: {point:?}");
    let text = p.point_text().unwrap();
    assert!(text.starts_with(&format!("abstraction point at {}", point.location)), "{text}");
    assert!(text.contains(&point.predicates[0]), "{text}");
    assert!(!p.memory.is_empty(), "{p:?}");
    assert!(p.history_text().contains(&format!("{} visited", point.location)), "{}", p.history_text());
    // Fresh symbolic identifiers with subscripts (`n₁`) in memory or PC.
    let subscripted = |t: &str| t.chars().any(|c| ('₀'..='₉').contains(&c));
    assert!(p.memory.iter().any(|(_, v)| subscripted(v)) || p.path_condition.iter().any(|c| subscripted(c)), "{p:?}");
    // A state that is not an abstraction point has no eq/simple.
    let plain = run.cursor.snapshot().states.iter().find(|s| !s.abstraction_point).map(|s| s.id).unwrap();
    let Some(Part::SymExec(q)) = detail(run.cursor.snapshot(), plain).unwrap().parts.into_iter().next() else { panic!() };
    assert!(q.point.is_none() && q.point_text().is_none());
    // The "next abstraction" breakpoint stops at abstraction points.
    run.cursor.seek(0);
    assert!(Breakpoint::Abstraction.offered(&run));
    let BreakTarget::At(first) = break_target(&run, Breakpoint::Abstraction) else { panic!("an abstraction point") };
    assert!(matches!(run.cursor.events()[first - 1], Event::AbstractionPoint { .. }));
}

#[test]
fn the_precision_function_table_grows_with_each_refinement() {
    let mut run = run("symexec-predabs", 5000);
    // Before any refinement: every loop head with the configured threshold
    // and no predicates.
    run.cursor.seek(1);
    let initial = CegarView::at(&run.program, &run.cursor).precision_function;
    assert_eq!(initial.len(), run.program.nodes.iter().filter(|n| n.loop_head).count());
    assert!(initial.iter().all(|r| r.predicates.is_empty() && !r.changed && r.threshold == 0), "{initial:?}");
    let refinements = positions(&run, |e| matches!(e, Event::Refinement { .. }));
    assert!(!refinements.is_empty());
    let mut before = initial;
    for k in refinements {
        run.cursor.seek(k);
        let rows = CegarView::at(&run.program, &run.cursor).precision_function;
        assert!(!rows.is_empty(), "at {k}");
        assert!(rows.iter().any(|r| r.changed), "the refinement at {k} changed a row: {rows:?}");
        for r in rows.iter().filter(|r| r.changed) {
            let old = before.iter().find(|o| o.location == r.location);
            let grew = old.is_none_or(|o| r.threshold > o.threshold || r.predicates.len() > o.predicates.len());
            assert!(grew, "{r:?} after {old:?}");
        }
        before = rows;
    }
    assert!(before.iter().any(|r| !r.predicates.is_empty()), "the proof's predicates: {before:?}");
    assert!(before.iter().all(|r| r.line > 0));
}
