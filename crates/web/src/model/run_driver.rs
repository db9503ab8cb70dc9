//! One driver for every computation the page runs in slices: an analysis
//! run (the CPA+ algorithm, or CEGAR around it), the compare view's runs
//! stepped together, and the exercise grader's runs and checks.
//!
//! Each of them is a [`Sliced`] computation: it does a small chunk of work
//! at a time (a few waitlist pops), and it may *park* on one SMT-LIB2 query
//! (a symbolic analysis' path condition, a CEGAR refinement, an exercise's
//! check) that the page's Z3 answers asynchronously. [`slice()`] is the pure
//! part of the loop: advance until the computation is done, parks, or the
//! budget of the slice says stop. The browser glue (a timer between slices,
//! the clock as the budget, the Z3 call, cancelling) is written once, in
//! `crate::ui::run`; [`drive_sync`] is the same loop with a solver that
//! answers at once (tests, and anything run natively).

/// The answer a parked computation gets when the solver gives none (Z3
/// failed to load): `unknown`, which the CPAs treat soundly (a path that
/// may be feasible is kept).
pub const NO_ANSWER: &str = "unknown";

/// The longest a slice may keep the browser busy (milliseconds); the page
/// yields between slices so it never freezes.
pub const SLICE_MS: f64 = 12.0;

/// The SMT-LIB2 query a computation is parked on, as the solver log
/// records it (and as the engine's worker sends it to the page,
/// [`crate::model::engine_link`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Query {
    /// Who asks, for the solver log (`analysis (symbolic): query 3`).
    pub origin: String,
    /// The self-contained SMT-LIB2 script.
    pub script: String,
    /// The program's names of the script's SSA symbols, for the solver
    /// log ([`crate::model::solver::symbol_legend`]; empty when the query
    /// is not about a program's variables).
    pub legend: Vec<(String, String)>,
}

/// What one chunk of work left a computation in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chunk {
    /// More work can be done at once.
    More,
    /// Nothing can go on until the solver answers [`Sliced::pending`].
    Blocked,
    /// Every event was produced (or the grade is known).
    Done,
}

/// A computation advanced in slices that may park on one solver query at a
/// time.
pub trait Sliced {
    /// Does one small, bounded chunk of work (a few waitlist pops).
    fn work(&mut self) -> Chunk;
    /// The query to answer now, if the computation waits for one (it may
    /// have one while other parts can still go on, as in the compare view).
    fn pending(&self) -> Option<Query>;
    /// Resumes with the solver's output for [`Sliced::pending`]'s query
    /// (`sat`, `unsat`, `unknown`; anything else counts as `unknown`).
    fn answer(&mut self, solver_output: &str);
}

/// How a slice ended: what the driver does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SliceEnd {
    /// The computation is over.
    Done,
    /// Ask the solver this query, answer it, and slice again.
    Parked(Query),
    /// The budget is spent: yield to the browser, then slice again.
    Yield,
}

/// One slice: chunks of work until the computation is done or blocked, or
/// until `over_budget` (asked after each chunk) says the slice is over. A
/// slice that ends on the budget while a query is pending parks on it.
pub fn slice<S: Sliced + ?Sized>(task: &mut S, mut over_budget: impl FnMut() -> bool) -> SliceEnd {
    loop {
        match task.work() {
            Chunk::Done => return SliceEnd::Done,
            Chunk::Blocked => {
                return match task.pending() {
                    Some(q) => SliceEnd::Parked(q),
                    // Blocked without a query would spin: let the browser run.
                    None => SliceEnd::Yield,
                };
            }
            Chunk::More if over_budget() => return task.pending().map_or(SliceEnd::Yield, SliceEnd::Parked),
            Chunk::More => {}
        }
    }
}

/// What the driver did, in order (what [`drive_sync`] reports; the page's
/// driver does the same with a timer and Z3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DriverEvent {
    /// A slice ended on its budget; the page yields to the browser here.
    Yielded,
    /// The solver was asked `query` and answered `answer` (the text the
    /// computation was resumed with).
    Asked {
        /// The query.
        query: Query,
        /// What the computation got ([`NO_ANSWER`] when the solver failed).
        answer: String,
    },
    /// The computation is over.
    Done,
}

/// Drives `task` to its end with `solver` answering each query at once
/// (`Err`: no answer, the computation gets [`NO_ANSWER`]); `over_budget`
/// ends slices as the page's clock does. Returns what happened, in order.
pub fn drive_sync<S: Sliced + ?Sized>(
    task: &mut S,
    mut solver: impl FnMut(&Query) -> Result<String, String>,
    mut over_budget: impl FnMut() -> bool,
) -> Vec<DriverEvent> {
    let mut log = Vec::new();
    loop {
        match slice(task, &mut over_budget) {
            SliceEnd::Done => {
                log.push(DriverEvent::Done);
                return log;
            }
            SliceEnd::Yield => log.push(DriverEvent::Yielded),
            SliceEnd::Parked(query) => {
                let answer = solver(&query).unwrap_or_else(|_| NO_ANSWER.to_string());
                task.answer(&answer);
                log.push(DriverEvent::Asked { query, answer });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scripted computation: `chunks` chunks of work, parking before the
    /// chunks listed in `parks` until answered; it records the answers.
    struct Scripted {
        done: usize,
        chunks: usize,
        parks: Vec<usize>,
        waiting: Option<usize>,
        answers: Vec<String>,
    }

    impl Scripted {
        fn new(chunks: usize, parks: &[usize]) -> Scripted {
            Scripted { done: 0, chunks, parks: parks.to_vec(), waiting: None, answers: Vec::new() }
        }
    }

    impl Sliced for Scripted {
        fn work(&mut self) -> Chunk {
            if self.waiting.is_some() {
                return Chunk::Blocked;
            }
            if self.parks.first() == Some(&self.done) {
                self.waiting = Some(self.parks.remove(0));
                return Chunk::Blocked;
            }
            self.done += 1;
            if self.done >= self.chunks {
                Chunk::Done
            } else {
                Chunk::More
            }
        }
        fn pending(&self) -> Option<Query> {
            self.waiting.map(|at| Query {
                origin: format!("scripted: query at {at}"),
                script: format!("(check-sat) ; {at}"),
                legend: Vec::new(),
            })
        }
        fn answer(&mut self, solver_output: &str) {
            self.answers.push(solver_output.to_string());
            self.waiting = None;
        }
    }

    #[test]
    fn a_computation_that_parks_several_times_gets_every_answer_in_order() {
        let mut task = Scripted::new(10, &[2, 5, 9]);
        let mut canned = vec![Ok("sat".to_string()), Ok("unsat".into()), Ok("unknown".into())].into_iter();
        let events = drive_sync(&mut task, |_| canned.next().unwrap(), || false);
        let asked: Vec<(String, String)> = events
            .iter()
            .filter_map(|e| match e {
                DriverEvent::Asked { query, answer } => Some((query.origin.clone(), answer.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            asked,
            vec![
                ("scripted: query at 2".to_string(), "sat".to_string()),
                ("scripted: query at 5".into(), "unsat".into()),
                ("scripted: query at 9".into(), "unknown".into())
            ]
        );
        assert_eq!(events.last(), Some(&DriverEvent::Done));
        assert_eq!(task.answers, vec!["sat", "unsat", "unknown"]);
        assert_eq!(task.done, 10);
    }

    #[test]
    fn a_failed_solver_answers_unknown_and_garbage_is_passed_on_as_it_came() {
        let mut task = Scripted::new(4, &[1, 3]);
        let mut canned = vec![Err("Z3 could not be loaded".to_string()), Ok("(error \"garbage\")".into())].into_iter();
        let events = drive_sync(&mut task, |_| canned.next().unwrap(), || false);
        assert_eq!(task.answers, vec![NO_ANSWER.to_string(), "(error \"garbage\")".into()]);
        assert_eq!(events.len(), 3);
    }

    #[test]
    fn the_budget_ends_slices_and_a_slice_ends_at_once_when_parked() {
        // Two chunks per slice.
        let mut task = Scripted::new(5, &[3]);
        let mut chunks = 0;
        let events = drive_sync(
            &mut task,
            |_| Ok("sat".into()),
            || {
                chunks += 1;
                chunks % 2 == 0
            },
        );
        let kinds: Vec<&str> = events
            .iter()
            .map(|e| match e {
                DriverEvent::Yielded => "yield",
                DriverEvent::Asked { .. } => "ask",
                DriverEvent::Done => "done",
            })
            .collect();
        // Chunks 1, 2 | chunk 3, parked at once | chunk 4 (the budget's 2nd) | chunk 5, done.
        assert_eq!(kinds, vec!["yield", "ask", "yield", "done"]);
    }

    #[test]
    fn a_slice_over_budget_with_a_pending_query_parks_on_it() {
        /// Two parts: part 0 parks at once, part 1 has work left.
        struct Pair {
            parked: bool,
            left: usize,
        }
        impl Sliced for Pair {
            fn work(&mut self) -> Chunk {
                if self.left == 0 && !self.parked {
                    return Chunk::Done;
                }
                self.left = self.left.saturating_sub(1);
                if self.left == 0 && self.parked {
                    Chunk::Blocked
                } else {
                    Chunk::More
                }
            }
            fn pending(&self) -> Option<Query> {
                self.parked.then(|| Query { origin: "part 0".into(), script: "(check-sat)".into(), legend: Vec::new() })
            }
            fn answer(&mut self, _: &str) {
                self.parked = false;
            }
        }
        let mut pair = Pair { parked: true, left: 100 };
        assert_eq!(
            slice(&mut pair, || true),
            SliceEnd::Parked(Query { origin: "part 0".into(), script: "(check-sat)".into(), legend: Vec::new() })
        );
        assert_eq!(pair.left, 99, "one chunk, then the budget said stop");
    }

    /// The page's computations through the driver, with a scripted solver.
    mod page {
        use super::super::*;
        use crate::model::analysis::{Run, RunSpec};
        use crate::model::compare::{CompareAction, CompareEffect, CompareView};
        use crate::model::solver::native_z3;

        /// Correlated branches: only a solver sees that the error is
        /// unreachable (`x > y && x < y`, two inputs: every query goes to the solver).
        const CORRELATED: &str = "extern int __VERIFIER_nondet_int(void);\n\
             int main() { int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int(); if (x > y) { if (x < y) { ERROR: return 1; } } return 0; }";

        fn symbolic_run() -> Run {
            let mut run = Run::start(CORRELATED, RunSpec { preset: "symbolic".into(), ..RunSpec::default() }).unwrap();
            run.detach_solver();
            run
        }

        fn verdict(run: &Run) -> Option<&'static str> {
            run.cursor.events().iter().rev().find_map(|e| match e {
                engine::trace::Event::AnalysisFinished { verdict, .. } => Some(verdict.upper()),
                _ => None,
            })
        }

        fn asked(events: &[DriverEvent]) -> Vec<String> {
            events
                .iter()
                .filter_map(|e| match e {
                    DriverEvent::Asked { query, .. } => Some(query.origin.clone()),
                    _ => None,
                })
                .collect()
        }

        #[test]
        fn a_parked_analysis_run_asks_its_queries_in_order_and_ends_as_natively() {
            let mut run = symbolic_run();
            let events = drive_sync(&mut run, |q| Ok(native_z3(&q.script)), || false);
            let origins = asked(&events);
            assert!(origins.len() >= 2, "{origins:?}");
            // Numbered (from 0) in the order asked.
            for (k, o) in origins.iter().enumerate() {
                assert!(o.starts_with("analysis (symbolic): query "), "{o}");
                assert_eq!(o.rsplit(' ').next().unwrap().parse::<usize>().unwrap(), k, "{origins:?}");
            }
            assert_eq!(events.last(), Some(&DriverEvent::Done));
            assert!(run.finished());
            assert_eq!(verdict(&run), Some("TRUE"));
            let native = Run::start(CORRELATED, RunSpec { preset: "symbolic".into(), ..RunSpec::default() })
                .unwrap()
                .send_every_query()
                .complete();
            assert_eq!(run.cursor.events(), native.cursor.events());
        }

        #[test]
        fn without_the_solvers_answers_the_run_never_says_true() {
            for canned in [Err("Z3 could not be loaded".to_string()), Ok("garbage".to_string()), Ok("unknown".to_string())] {
                let mut run = symbolic_run();
                let events = drive_sync(&mut run, |_| canned.clone(), || false);
                assert!(!asked(&events).is_empty());
                assert!(events.iter().all(|e| match e {
                    DriverEvent::Asked { answer, .. } => canned.as_ref().map_or(answer == NO_ANSWER, |c| answer == c),
                    _ => true,
                }));
                assert!(run.finished());
                assert_ne!(verdict(&run), Some("TRUE"), "{canned:?}: unknown answers are never a proof");
            }
        }

        #[test]
        fn slicing_does_not_change_the_trace() {
            // A loop before the correlated branches: more than one chunk.
            let src = CORRELATED.replace("if (x > y)", "int i = 0; while (i < 10) { i = i + 1; } if (x > y)");
            let run = || {
                let mut run = Run::start(&src, RunSpec { preset: "symbolic".into(), ..RunSpec::default() }).unwrap();
                run.detach_solver();
                run
            };
            let mut whole = run();
            drive_sync(&mut whole, |q| Ok(native_z3(&q.script)), || false);
            assert_eq!(verdict(&whole), Some("TRUE"));
            // A budget of one chunk per slice: many yields, the same events.
            let mut sliced = run();
            let events = drive_sync(&mut sliced, |q| Ok(native_z3(&q.script)), || true);
            assert!(events.iter().filter(|e| **e == DriverEvent::Yielded).count() > 1);
            assert_eq!(sliced.cursor.events(), whole.cursor.events());
        }

        #[test]
        fn the_compare_set_runs_in_step_and_asks_one_query_at_a_time() {
            let mut view = CompareView::default();
            view.reduce(CompareAction::Choice(0, "value".into()));
            view.reduce(CompareAction::Choice(1, "symbolic".into()));
            view.reduce(CompareAction::Choice(2, String::new()));
            let effect = view.reduce(CompareAction::Restore {
                source: CORRELATED.into(),
                presets: vec!["value".into(), "symbolic".into()],
                step: Some(2),
                int_model: minic::IntModel::C,
            });
            assert_eq!(effect, CompareEffect::Compute);
            assert!(view.open && view.computing);
            for run in &mut view.runs {
                run.detach_solver();
            }
            let events = drive_sync(&mut view, |q| Ok(native_z3(&q.script)), || false);
            let origins = asked(&events);
            assert!(!origins.is_empty());
            assert!(origins.iter().all(|o| o.starts_with("compare (symbolic): query ")), "{origins:?}");
            assert!(!view.computing, "done");
            assert_eq!(view.step, 2, "the link's step, once computed");
            assert_eq!(verdict(&view.runs[0]), Some("FALSE"), "value analysis cannot correlate the branches");
            assert_eq!(verdict(&view.runs[1]), Some("TRUE"));
            let spec =
                RunSpec { preset: "symbolic".into(), max_steps: crate::model::compare::DEFAULT_LIMIT, ..RunSpec::default() };
            let native = Run::start(CORRELATED, spec).unwrap().send_every_query().complete();
            assert_eq!(view.runs[1].cursor.events(), native.cursor.events());
        }

        #[test]
        fn two_parked_runs_are_answered_one_at_a_time_and_none_is_lost() {
            let mut view = CompareView::default();
            view.reduce(CompareAction::Choice(0, "symbolic".into()));
            view.reduce(CompareAction::Choice(1, "symbolic".into()));
            view.reduce(CompareAction::Choice(2, String::new()));
            view.reduce(CompareAction::Run { source: CORRELATED.into(), int_model: minic::IntModel::C });
            for run in &mut view.runs {
                run.detach_solver();
            }
            // Both runs park on their first query in the first chunk: the
            // slice parks on the first one's.
            assert_eq!(view.work(), Chunk::Blocked);
            assert!(view.runs.iter().all(|r| r.pending_query().is_some()));
            let first = view.pending().unwrap();
            assert_eq!(first.origin, "compare (symbolic): query 0");
            view.answer(&native_z3(&first.script));
            assert!(view.runs[0].pending_query().is_none(), "the first run was answered");
            assert!(view.runs[1].pending_query().is_some(), "the second still waits");
            let events = drive_sync(&mut view, |q| Ok(native_z3(&q.script)), || false);
            let single = {
                let mut run = symbolic_run();
                asked(&drive_sync(&mut run, |q| Ok(native_z3(&q.script)), || false)).len()
            };
            assert_eq!(asked(&events).len() + 1, 2 * single, "every query of both runs, once");
            assert_eq!(view.runs[0].cursor.events(), view.runs[1].cursor.events());
            assert!(view.runs.iter().all(|r| verdict(r) == Some("TRUE")));
        }
    }
}
