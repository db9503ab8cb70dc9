//! The error path of a FALSE verdict, as the page shows it: the target
//! state's ARG ancestry from the initial state (its CFA edges as `line:
//! code` rows), labelled with what is known of it — *unconfirmed* (nothing
//! checked it), *confirmed* with the inputs a concrete replay reached the
//! error with, *infeasible*, or *undecided* — and the "Check this path"
//! computation ([`PathCheckTask`]): the engine's feasibility checks and
//! concrete replay on demand, a [`Sliced`] task that parks on its one SMT
//! query like every other solver-backed computation of the page.
//!
//! A target the analysis itself refuted (symbolic execution's check before
//! a FALSE, [`engine::Event::TargetRefuted`]) is shown the same way, as an
//! infeasible path. Rendered by `crate::ui::error_path`.

use std::sync::Arc;

use cfa::{EdgeId, Program};
use engine::counterexample::{self, PathCheck};
use engine::ssa::PathFormula;
use engine::trace::{Origin, StateId, Verdict};
use engine::view::Snapshot;
use minic::IntModel;

use crate::model::run_driver::{Chunk, Query, Sliced};

/// One edge of the error path: where it is in the source and what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// The CFA edge.
    pub edge: EdgeId,
    /// Its source line (1-based; 0 for edges without one).
    pub line: u32,
    /// The edge's operation as C-like text (`x = x + 1`, `[i < n]`).
    pub code: String,
}

/// What is known of an error path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathStatus {
    /// No feasibility check ran: the path may be spurious.
    Unconfirmed,
    /// The concrete interpreter reached the error location with `inputs`.
    Confirmed {
        /// The nondet inputs, in the order the program asks for them.
        inputs: Vec<String>,
        /// Which check found them.
        check: String,
    },
    /// No execution follows the path (the analysis was too coarse).
    Infeasible {
        /// Which check refuted it.
        check: String,
        /// What it found, in words.
        description: String,
    },
    /// A check ran but decided nothing (solver `unknown`, a replay that
    /// missed the error location).
    Undecided {
        /// What it found, in words.
        description: String,
    },
}

impl PathStatus {
    /// The status a counterexample check gives.
    pub fn of_check(feasible: Option<bool>, confirmed: bool, inputs: Vec<String>, check: &str, description: &str) -> PathStatus {
        match (feasible, confirmed) {
            (_, true) => PathStatus::Confirmed { inputs, check: check.into() },
            (Some(false), _) => PathStatus::Infeasible { check: check.into(), description: description.into() },
            _ => PathStatus::Undecided { description: description.into() },
        }
    }

    /// The status an on-demand [`PathCheck`] gives.
    pub fn of_path_check(c: &PathCheck) -> PathStatus {
        let inputs = c.inputs.iter().map(|v| v.to_string()).collect();
        PathStatus::of_check(c.feasible, c.confirmed, inputs, &c.check, &c.description)
    }

    /// The label the panel shows (`unconfirmed`, `confirmed (inputs 4, 0)`, …).
    pub fn label(&self) -> String {
        match self {
            PathStatus::Unconfirmed => "unconfirmed (no feasibility check was run)".into(),
            PathStatus::Confirmed { inputs, check } if inputs.is_empty() => format!("confirmed (no inputs needed; {check})"),
            PathStatus::Confirmed { inputs, check } => format!("confirmed (inputs {}; {check})", inputs.join(", ")),
            PathStatus::Infeasible { check, description } => format!("infeasible ({check}: {description})"),
            PathStatus::Undecided { description } => format!("undecided ({description})"),
        }
    }

    /// The CSS class suffix of the label.
    pub fn kind(&self) -> &'static str {
        match self {
            PathStatus::Unconfirmed => "unconfirmed",
            PathStatus::Confirmed { .. } => "confirmed",
            PathStatus::Infeasible { .. } => "infeasible",
            PathStatus::Undecided { .. } => "undecided",
        }
    }
}

/// The error path the page shows at one position of a run.
#[derive(Clone, Debug)]
pub struct ErrorPathView {
    /// The program the edges belong to (for the on-demand check).
    pub program: Arc<Program>,
    /// The integer model of the run.
    pub int_model: IntModel,
    /// The target state the path ends in.
    pub target: StateId,
    /// Whether the analysis refuted this target and searched on (it is
    /// not the verdict's path).
    pub refuted: bool,
    /// The path's edges from `main`'s entry to the error location.
    pub steps: Vec<PathStep>,
    /// What the run knows of it.
    pub status: PathStatus,
}

impl PartialEq for ErrorPathView {
    /// Same program object, same path and knowledge (the program is
    /// compared by identity: one run, one program).
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.program, &other.program)
            && self.int_model == other.int_model
            && self.target == other.target
            && self.refuted == other.refuted
            && self.steps == other.steps
            && self.status == other.status
    }
}

impl ErrorPathView {
    /// The error path at the fold `snap`: the FALSE verdict's target, or
    /// else the target the analysis refuted latest; `None` when there is
    /// neither.
    pub fn of(program: &Arc<Program>, snap: &Snapshot) -> Option<ErrorPathView> {
        let int_model = snap.info.as_ref().map(|i| i.int_model).unwrap_or_default();
        let latest = snap.counterexample.as_ref();
        let (target, refuted) = match &snap.finished {
            Some((Verdict::False, _)) => (final_target(snap)?, false),
            _ => {
                let t = latest?.target?;
                (t, snap.state(t)?.refuted)
            }
        };
        if !refuted && !matches!(snap.finished, Some((Verdict::False, _))) {
            return None;
        }
        let path = through_blocks(snap, target, arg_path(snap, target));
        let status = match latest {
            Some(c) if c.target == Some(target) && c.path == path => {
                PathStatus::of_check(c.feasible, c.confirmed, c.inputs.clone(), &c.check, &c.description)
            }
            _ => PathStatus::Unconfirmed,
        };
        let steps = path
            .iter()
            .map(|e| {
                let edge = program.edge(*e);
                PathStep { edge: *e, line: edge.line, code: edge.label.clone() }
            })
            .collect();
        Some(ErrorPathView { program: program.clone(), int_model, target, refuted, steps, status })
    }

    /// The path's CFA edges.
    pub fn edges(&self) -> Vec<EdgeId> {
        self.steps.iter().map(|s| s.edge).collect()
    }

    /// The source lines the path goes through, ascending, each once (for
    /// the editor's marks).
    pub fn lines(&self) -> Vec<u32> {
        let mut lines: Vec<u32> = self.steps.iter().map(|s| s.line).filter(|l| *l > 0).collect();
        lines.sort_unstable();
        lines.dedup();
        lines
    }

    /// CSS that paints the path on the CFA graph (its edges carry
    /// `data-edge="E7"`; the keys are numbers, nothing from the program) —
    /// the mechanism of the CEGAR view's path, dashed while unconfirmed.
    pub fn path_css(&self) -> String {
        let dash = match self.status {
            PathStatus::Confirmed { .. } => "",
            _ => " stroke-dasharray: 6 3;",
        };
        let mut edges = self.edges();
        edges.sort_unstable();
        edges.dedup();
        edges
            .iter()
            .map(|e| {
                format!("g.cfa-edge[data-edge=\"E{}\"] path.line {{ stroke: var(--error); stroke-width: 3px;{dash} }}\n", e.0)
            })
            .collect()
    }

    /// Whether "Check this path" has anything to add: nothing checked the
    /// path yet, or the check decided nothing.
    pub fn checkable(&self) -> bool {
        matches!(self.status, PathStatus::Unconfirmed | PathStatus::Undecided { .. })
    }
}

/// Under block-abstraction memoization the ARG link of an expanded state
/// goes from the call straight to the function's exit, so `arg` skips a
/// reused block's body; the engine's error path of the same target (the
/// one its counterexample checks ran on, in the latest `counterexample`
/// event) goes through the block: that one is shown when it is of this
/// target and ends as `arg` does. Without BAM `arg` is kept.
fn through_blocks(snap: &Snapshot, target: StateId, arg: Vec<EdgeId>) -> Vec<EdgeId> {
    let bam = snap.info.as_ref().is_some_and(|i| i.properties.get("cpa.bam.enabled").is_some_and(|v| v == "true"));
    match snap.counterexample.as_ref() {
        Some(c) if bam && c.target == Some(target) && c.path.len() > arg.len() && c.path.last() == arg.last() => c.path.clone(),
        _ => arg,
    }
}

/// The target state that ended the run: the latest target not refuted.
fn final_target(snap: &Snapshot) -> Option<StateId> {
    snap.states.iter().rev().find(|s| s.target && !s.refuted).map(|s| s.id)
}

/// The CFA edges from the initial state to `target` along the ARG
/// (transfers; through the state a precision adjustment or merge came
/// from), as the engine's `Reachability::error_path` follows them.
pub fn arg_path(snap: &Snapshot, target: StateId) -> Vec<EdgeId> {
    let mut edges = Vec::new();
    let mut cur = target;
    // Ids only decrease along ARG links, so this ends; the bound guards a
    // malformed trace.
    for _ in 0..=snap.states.len() {
        let Some(s) = snap.state(cur) else { break };
        let next = match &s.origin {
            Origin::Initial => break,
            Origin::Transfer { parent, edge } => {
                edges.push(*edge);
                *parent
            }
            Origin::Precision { of } => *of,
            Origin::Merge { new, .. } => *new,
        };
        if next >= cur {
            break;
        }
        cur = next;
    }
    edges.reverse();
    edges
}

/// "Check this path": the engine's checks of one error path on demand —
/// explicit values, the octagon and zero inputs at once, else the SSA path
/// formula on the solver (the one query it may park on) and a concrete
/// replay of the model's inputs.
pub struct PathCheckTask {
    program: Arc<Program>,
    int_model: IntModel,
    path: Vec<EdgeId>,
    formula: Option<PathFormula>,
    result: Option<PathCheck>,
}

impl PathCheckTask {
    /// The check of `view`'s path.
    pub fn new(view: &ErrorPathView) -> PathCheckTask {
        PathCheckTask {
            program: view.program.clone(),
            int_model: view.int_model,
            path: view.edges(),
            formula: None,
            result: None,
        }
    }

    /// The check's result, once done.
    pub fn result(&self) -> Option<&PathCheck> {
        self.result.as_ref()
    }
}

impl Sliced for PathCheckTask {
    fn work(&mut self) -> Chunk {
        if self.result.is_some() {
            return Chunk::Done;
        }
        if self.formula.is_some() {
            return Chunk::Blocked;
        }
        match counterexample::check_path_start(&self.program, self.int_model, &self.path) {
            Ok(check) => {
                self.result = Some(check);
                Chunk::Done
            }
            Err(formula) => {
                self.formula = Some(formula);
                Chunk::Blocked
            }
        }
    }

    fn pending(&self) -> Option<Query> {
        let f = self.formula.as_ref().filter(|_| self.result.is_none())?;
        let legend = crate::model::solver::symbol_legend(&f.smtlib, &self.program);
        Some(Query { origin: "check this path: SSA path formula".into(), script: f.smtlib.clone(), legend })
    }

    fn answer(&mut self, solver_output: &str) {
        if let Some(f) = &self.formula {
            self.result = Some(counterexample::solver_check_text(&self.program, self.int_model, &self.path, f, solver_output));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::run_driver::drive_sync;
    use engine::{Config, Stepper};

    /// An off-by-one: the loop's bound `<=` lets `i` reach the buffer's
    /// size 8 when `count` is 8 (zero inputs do not reach the error).
    const OFF_BY_ONE: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) {\n  int count = __VERIFIER_nondet_int();\n  if (count > 8) return 0;\n  int i = 0;\n  while (i <= count) {\n    if (i == 8) reach_error();\n    i++;\n  }\n  return 0;\n}\n";

    fn run(src: &str, preset: &str) -> (Arc<Program>, Vec<engine::Event>) {
        let program = Arc::new(cfa::from_source(src).unwrap());
        let config = Config::preset(preset).unwrap();
        let mut v = engine::cegar::Verifier::new(program.clone(), &config, true).unwrap();
        let events = v.run();
        (program, events)
    }

    #[test]
    fn a_bam_error_path_goes_through_the_reused_block() {
        let src = "extern void reach_error(void);\nint next(int x) {\n  int y = x + 1;\n  return y;\n}\nint main(void) {\n  int a = next(0);\n  int b = next(0);\n  if (a + b == 2) {\n    reach_error();\n  }\n  return 0;\n}\n";
        let (program, events) = run(src, "bam-value");
        let snap = Snapshot::of(&events);
        assert!(matches!(snap.finished, Some((Verdict::False, _))), "{:?}", snap.finished);
        assert!(events.iter().any(|e| matches!(e, engine::Event::CacheHit { .. })), "the second call reuses the summary");
        let view = ErrorPathView::of(&program, &snap).expect("a FALSE has an error path");
        // Both calls' bodies are on the path: line 3 (`y = x + 1`) twice.
        let body = view.steps.iter().filter(|s| s.line == 3).count();
        assert_eq!(body, 2, "{:?}", view.steps);
        assert!(matches!(view.status, PathStatus::Confirmed { .. }), "{:?}", view.status);
    }

    #[test]
    fn a_false_without_a_check_shows_its_path_unconfirmed() {
        let (program, events) = run(OFF_BY_ONE, "value");
        let snap = Snapshot::of(&events);
        assert!(matches!(snap.finished, Some((Verdict::False, _))));
        let view = ErrorPathView::of(&program, &snap).expect("a FALSE has an error path");
        assert_eq!(view.status, PathStatus::Unconfirmed);
        assert!(view.checkable());
        assert_eq!(view.steps.last().map(|s| s.line), Some(8), "the path ends at reach_error's line");
        assert!(view.lines().contains(&4) && view.lines().contains(&7), "{:?}", view.lines());
        assert!(view.path_css().contains("g.cfa-edge[data-edge=\"E"));
        assert!(view.path_css().contains("dasharray"), "dashed while unconfirmed");
        // Before the end of the run there is no FALSE: nothing to show.
        assert!(ErrorPathView::of(&program, &Snapshot::of(&events[..events.len() - 1])).is_none());
    }

    #[test]
    fn check_this_path_confirms_it_with_inputs_after_one_query() {
        if !z3_available() {
            eprintln!("z3 not installed: skipped");
            return;
        }
        let (program, events) = run(OFF_BY_ONE, "value");
        let view = ErrorPathView::of(&program, &Snapshot::of(&events)).unwrap();
        let mut task = PathCheckTask::new(&view);
        // Zero inputs do not reach the error, so the solver is asked once.
        let log = drive_sync(&mut task, |q| Ok(z3(q)), || false);
        let asked = log.iter().filter(|e| matches!(e, crate::model::run_driver::DriverEvent::Asked { .. })).count();
        assert_eq!(asked, 1, "{log:?}");
        let status = PathStatus::of_path_check(task.result().unwrap());
        assert_eq!(status, PathStatus::Confirmed { inputs: vec!["8".into()], check: "SMT model + concrete replay".into() });
        assert!(status.label().starts_with("confirmed (inputs 8"), "{}", status.label());
    }

    #[test]
    fn an_infeasible_path_is_refuted_without_the_solver() {
        // `x` is 1, so `x == 2` is infeasible: explicit values refute it.
        let src =
            "extern void reach_error(void);\nint main(void) {\n  int x = 1;\n  if (x == 2) reach_error();\n  return 0;\n}\n";
        let program = Arc::new(cfa::from_source(src).unwrap());
        let path: Vec<EdgeId> = program.edges.iter().filter(|e| e.line <= 4).map(|e| e.id).collect();
        let view = ErrorPathView {
            program: program.clone(),
            int_model: IntModel::C,
            target: StateId(3),
            refuted: false,
            steps: path.iter().map(|e| PathStep { edge: *e, line: 0, code: String::new() }).collect(),
            status: PathStatus::Unconfirmed,
        };
        let mut task = PathCheckTask::new(&view);
        let log = drive_sync(&mut task, |_| Err("no solver".into()), || false);
        assert_eq!(log, vec![crate::model::run_driver::DriverEvent::Done]);
        assert_eq!(PathStatus::of_path_check(task.result().unwrap()).kind(), "infeasible");
    }

    /// Symbolic execution refutes a target and searches on: at the
    /// refutation the panel shows that target's path as infeasible.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn a_target_symbolic_execution_refuted_shows_as_infeasible() {
        if !z3_available() {
            eprintln!("z3 not installed: skipped");
            return;
        }
        let program = Arc::new(cfa::from_source(include_str!("../../../engine/tests/programs/down-shaped.c")).unwrap());
        let config = Config::preset("symbolic").unwrap();
        let mut v = engine::cegar::build_verifier(program.clone(), &config, false).unwrap();
        let events = v.run();
        let k = events.iter().position(|e| matches!(e, engine::Event::TargetRefuted { .. })).expect("a refuted target") + 1;
        let view = ErrorPathView::of(&program, &Snapshot::of(&events[..k])).expect("the refuted path is shown");
        assert!(view.refuted);
        assert_eq!(view.status.kind(), "infeasible", "{:?}", view.status);
        assert!(!view.checkable());
        assert!(view.steps.len() > 40, "the unrolled loops: {} edges", view.steps.len());
        // The run ends TRUE: no error path at the end.
        let end = Snapshot::of(&events);
        assert!(matches!(end.finished, Some((Verdict::True, _))));
        let last = ErrorPathView::of(&program, &end);
        assert!(last.as_ref().is_none_or(|v| v.refuted), "only the latest refuted path, if any: {last:?}");
    }

    #[test]
    fn arg_path_follows_transfers_back_to_the_initial_state() {
        let (program, events) = run(OFF_BY_ONE, "value");
        let snap = Snapshot::of(&events);
        let target = final_target(&snap).unwrap();
        let path = arg_path(&snap, target);
        let entry = program.functions[program.main.0 as usize].entry;
        assert_eq!(program.edge(path[0]).source, entry);
        for w in path.windows(2) {
            assert_eq!(program.edge(w[0]).target, program.edge(w[1]).source, "a connected path");
        }
    }

    fn z3_available() -> bool {
        cfg!(not(target_arch = "wasm32")) && std::process::Command::new("z3").arg("-version").output().is_ok()
    }

    /// The native z3's answer (the wasm test build has none).
    fn z3(q: &Query) -> String {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let mut z3 = smt::Z3Process::system(std::time::Duration::from_secs(10));
            smt::SolverBackend::solve_text(&mut z3, &q.script)
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = q;
            "unknown".into()
        }
    }
}
