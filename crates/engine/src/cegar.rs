//! The algorithms around the reachability algorithm: CEGAR, the
//! counterexample check, and the restart algorithm (sequential combination)
//! — all in one steppable [`Verifier`] that produces one event trace.
//!
//! ```text
//! Verifier ── stage 1 … n (restart algorithm: restartAlgorithm.configFiles)
//!    └─ Stage ── Reachability (CPA+) with precision π
//!          │ target reached: error path from the ARG parent links
//!          ▼
//!       check the path:  explicit values ─▶ octagon (or the second
//!          configuration on the path's edges) ─▶ SSA path formula + SMT
//!          ─▶ concrete replay of the model's inputs
//!          │
//!          ├─ replay reaches the error ............... FALSE (confirmed)
//!          ├─ infeasible + CEGAR: interpolate ─▶ π' ⊋ π ─▶ Restart (new
//!          │     iteration from the initial state, empty reached set) or,
//!          │     with cegar.restart = PIVOT, ArgPruned (re-explore below
//!          │     the pivot only)
//!          ├─ infeasible, counterexample check ....... UNKNOWN (spurious)
//!          └─ undecided ............................. UNKNOWN
//!       stage ends UNKNOWN and another stage follows ─▶ Restart (next stage)
//! ```
//!
//! Predicate analysis with CEGAR treats a transfer that fails (the call
//! stack's recursion bound, `cpa.callstack.depth`) like a target: the ARG
//! path to it is checked, refined away when infeasible, and ends the stage
//! UNKNOWN otherwise (never FALSE: it does not reach the error location).
//!
//! Symbolic execution (`cpa.constraints.checkTargets`, a ConstraintsCPA in
//! the composite) checks each target before it is reported: zero inputs
//! replayed; else *all* of the target state's path constraints on the
//! solver (the per-step queries ask only a window of them) — `unsat` makes
//! the target an [`Event::TargetRefuted`]: it leaves the reached set and the
//! search goes on ([`crate::Reachability::refute_target`]); else the SSA
//! path formula and a concrete replay: FALSE confirmed, or UNKNOWN. The
//! refutation asks about the state, not its ARG path, because a state may
//! also stand for paths whose states it covered: an empty state is sound
//! to drop, an infeasible ARG path alone is not.
//!
//! Events: the inner runs' events pass through unchanged (the first
//! `AnalysisStarted` only; their `AnalysisFinished` is replaced by the
//! verifier's decision). Each check is an [`Event::Counterexample`] (after
//! an [`Event::SolverQuery`] when the solver was asked), each refinement an
//! [`Event::Refinement`], each new iteration or stage an
//! [`Event::Restart`] (or [`Event::ArgPruned`] from the pivot); exactly one [`Event::AnalysisFinished`] ends the
//! trace. A configuration without CEGAR, check or restart gives exactly the
//! events of its [`crate::Reachability`].
//!
//! # Where each part lives
//!
//! [`Verifier`] stays the one driver: it owns the event queue, the parked
//! solver query and the decisions between the parts, which read best in one
//! place (the CEGAR loop above). The parts themselves have their own
//! modules: the counterexample check in [`crate::counterexample`] (cheap
//! checks, the precise check's judgement of a solver answer), the
//! refinement step in [`crate::refinement`] (with
//! [`crate::interpolation`]), and the restarts — the restart algorithm's
//! stages and CEGAR's restart from the pivot — in [`crate::restart`].
//!
//! Soundness: TRUE only ever comes from a reachability run that finished
//! with an empty waitlist (refinement only adds precision, so each CEGAR
//! iteration is itself a sound analysis); a FALSE of a CEGAR or
//! counterexample-check configuration is reported only when the concrete
//! interpreter reached the error location on the found inputs.

use crate::build::{build_analysis_refined, Analysis};
use crate::config::{Config, ConfigError};
use crate::counterexample::{self, PathCheck};
use crate::precision::VarPrecision;
use crate::predicate_refinement;
use crate::refinement;
use crate::restart::{self, Stage};
use crate::solver::SolverQuery;
use crate::stepper::Stepper;
use crate::symexec_refinement;
use crate::trace::{Event, StateId, Verdict};
use cfa::{EdgeId, Program};
use smt::{parse_response, SolverBackend};
use std::collections::VecDeque;
use std::sync::Arc;

/// CEGAR, counterexample check and restart algorithm around the
/// reachability algorithm, steppable one event at a time like
/// [`crate::Reachability`] (see the module docs).
pub struct Verifier {
    program: Arc<Program>,
    record_views: bool,
    stages: Vec<(String, Config)>,
    stage_index: usize,
    stage: Stage,
    pending: VecDeque<Event>,
    solver: Option<Box<dyn SolverBackend + Send>>,
    parked: Option<ParkedCheck>,
    /// A check the attached solver answered while an earlier answer was
    /// being acted on: [`Verifier::ask`] resumes it from its loop instead of
    /// recursing (an interpolation along a long path asks thousands of
    /// queries, one after the other).
    answered_next: Option<(ParkedCheck, String)>,
    /// Whether [`Verifier::ask`]'s loop is running.
    resuming: bool,
    detached: bool,
    /// [`Verifier::send_every_query`]: CPAs decide no query themselves.
    every_query_to_solver: bool,
    /// [`Verifier::set_lend_queries`], when set.
    lend_queries: Option<u32>,
    done: bool,
    started: bool,
    /// See [`Stepper::parked_mid_step`].
    mid_step: bool,
    iteration: u32,
    /// Path-formula queries asked so far.
    queries: u32,
    outcome: Option<(Verdict, String)>,
    confirmed: Option<bool>,
    error_path: Option<Vec<EdgeId>>,
    /// The last stage's integer-model caveat (a TRUE under `math`).
    int_model_caveat: Option<crate::int_caveat::IntModelCaveat>,
    inputs: Vec<i128>,
    /// Predicate CEGAR checking the ARG path to a state whose transfer
    /// failed (the recursion bound) instead of an error path: the run's
    /// reason, for the UNKNOWN when the path cannot be refuted.
    failed_transfer: Option<String>,
    /// The explorer of the transformed program, when the configuration
    /// asks for it (`analysis.algorithm.transformExplorer`): it replaces
    /// the reachability run, and the verifier passes its events through.
    explorer: Option<Box<crate::explorer::Explorer>>,
    /// Predicate CEGAR: the error paths refined so far whose path program
    /// unrolls a loop (see [`crate::path_invariants`]); each refinement's
    /// path program is the union of them and its own path.
    refuted_loop_paths: Vec<Vec<EdgeId>>,
    /// Whether the accelerated replay ran (see [`crate::acceleration`]).
    accelerated: bool,
}

impl Verifier {
    /// The verifier for `config` on `program` (no solver: error paths the
    /// cheap checks cannot decide stay unconfirmed; see [`Self::with_solver`]).
    /// A configuration [`crate::validate::validate_for`] rejects is an error.
    pub fn new(program: Arc<Program>, config: &Config, record_views: bool) -> Result<Verifier, ConfigError> {
        crate::validate::validate_for(config, &program)?;
        let stages = restart::stages(config)?;
        let (name, first) = stages[0].clone();
        let stage = Stage::new(&program, name, first, record_views)?;
        let explorer = match config.get("analysis.algorithm.transformExplorer") == "true" {
            true => Some(Box::new(
                crate::explorer::Explorer::new(
                    program.clone(),
                    crate::explorer::ExplorerOptions::from_config(config, record_views)?,
                )
                .map_err(|message| ConfigError { message })?,
            )),
            false => None,
        };
        Ok(Verifier {
            program,
            record_views,
            stages,
            stage_index: 0,
            stage,
            pending: VecDeque::new(),
            solver: None,
            parked: None,
            answered_next: None,
            resuming: false,
            detached: false,
            every_query_to_solver: false,
            lend_queries: None,
            done: false,
            started: false,
            mid_step: false,
            iteration: 1,
            queries: 0,
            outcome: None,
            confirmed: None,
            int_model_caveat: None,
            error_path: None,
            inputs: Vec::new(),
            failed_transfer: None,
            refuted_loop_paths: Vec::new(),
            accelerated: false,
            explorer,
        })
    }

    /// Uses `solver` for the precise check (SSA path formula).
    pub fn with_solver(mut self, solver: Box<dyn SolverBackend + Send>) -> Verifier {
        match self.explorer.as_mut() {
            Some(x) => x.set_solver(Some(solver)),
            None => self.solver = Some(solver),
        }
        self
    }

    /// With the native Z3 ([`smt::Z3Process::system`], `solver.timeout` per
    /// query).
    /// A missing `z3` answers `unknown`: error paths the cheap checks cannot
    /// decide then stay unconfirmed.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn with_native_solver(self) -> Verifier {
        let ms = self.stage.config.get("solver.timeout").parse::<u64>().unwrap_or(10_000).max(1);
        self.with_solver(Box::new(smt::Z3Process::system(std::time::Duration::from_millis(ms))))
    }

    /// What is left of the running stage's `restartAlgorithm.stageTimeMs`
    /// (at least 1 ms; `None` without a limit): the most a solver query
    /// may take now. The page sends it to its Z3 with the query, as the
    /// native back end is given it ([`smt::SolverBackend::limit_next`]).
    pub fn time_left(&self) -> Option<std::time::Duration> {
        match &self.explorer {
            Some(x) => x.time_left(),
            None => self.stage.time_left(),
        }
    }

    /// The verdict and its reason, once decided.
    pub fn outcome(&self) -> Option<(Verdict, &str)> {
        self.outcome.as_ref().map(|(v, r)| (*v, r.as_str()))
    }

    /// For a FALSE verdict: whether concrete replay confirmed the error path.
    pub fn confirmed(&self) -> Option<bool> {
        self.confirmed
    }

    /// The error path of the FALSE verdict (CFA edges from `main`'s entry).
    pub fn error_path(&self) -> Option<&[EdgeId]> {
        self.error_path.as_deref()
    }

    /// The nondet inputs that replay the confirmed error path.
    pub fn inputs(&self) -> &[i128] {
        &self.inputs
    }

    /// For a TRUE under mathematical integers: the first reached operation
    /// whose C result could differ (see [`crate::int_caveat`]).
    pub fn int_model_caveat(&self) -> Option<&crate::int_caveat::IntModelCaveat> {
        self.int_model_caveat.as_ref()
    }

    /// The current precision of the running stage (what CEGAR tracks where).
    pub fn precision(&self) -> &VarPrecision {
        &self.stage.precision
    }

    /// The precision function p of the running stage, when it is symbolic
    /// execution with predicate abstraction (what CEGAR found so far).
    pub fn symexec_precision(&self) -> Option<&crate::cpas::symexec::precision::SymExecPrecision> {
        self.stage.symexec.then_some(&*self.stage.symexec_precision)
    }

    /// The predicates of the running stage, when it is a predicate
    /// analysis (what CEGAR found so far).
    pub fn predicates(&self) -> Option<&crate::cpas::predicate::precision::PredicatePrecision> {
        self.stage.predicate.then_some(&*self.stage.predicates)
    }

    /// The reachability run of the current iteration.
    pub fn analysis(&self) -> &Analysis {
        &self.stage.analysis
    }

    /// The program.
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    fn emit(&mut self, e: Event) {
        self.pending.push_back(e);
    }

    fn finish(&mut self, verdict: Verdict, reason: String) {
        self.outcome = Some((verdict, reason.clone()));
        if verdict != Verdict::True {
            self.int_model_caveat = None;
        }
        self.emit(Event::AnalysisFinished { verdict, reason, int_model_caveat: self.int_model_caveat.clone() });
        self.done = true;
    }

    /// A stage decided (or gave up): finish, or restart with the next stage.
    fn stage_end(&mut self, verdict: Verdict, reason: String) {
        self.failed_transfer = None;
        let conclusive = verdict == Verdict::True || (verdict == Verdict::False && self.confirmed != Some(false));
        if conclusive || self.stage_index + 1 >= self.stages.len() {
            let reason = if self.stages.len() > 1 {
                format!("{reason} [stage {} of {}: {}]", self.stage_index + 1, self.stages.len(), self.stage.name)
            } else {
                reason
            };
            return self.finish(verdict, reason);
        }
        self.stage_index += 1;
        let (name, config) = self.stages[self.stage_index].clone();
        match Stage::new(&self.program, name.clone(), config, self.record_views) {
            Ok(mut s) => {
                self.configure_solver(&mut s.analysis);
                self.carry_solver_answers(&s.analysis);
                self.stage = s;
                self.iteration += 1;
                self.confirmed = None;
                self.error_path = None;
                self.emit(Event::Restart {
                    configuration: format!(
                        "{name} (stage {}: the previous stage said {}: {reason})",
                        self.stage_index + 1,
                        verdict.upper()
                    ),
                    iteration: self.iteration,
                });
            }
            Err(e) => self.finish(Verdict::Unknown, format!("stage `{name}`: {}", e.message)),
        }
    }

    fn inner_finished(&mut self, verdict: Verdict, reason: String) {
        let stage = &self.stage;
        if let (Verdict::Unknown, true, Some((state, edge))) =
            (verdict, stage.predicate && stage.cegar, stage.analysis.failed_transfer())
        {
            return self.check_failed_transfer(state, edge, reason);
        }
        if verdict == Verdict::False && stage.check_targets && !stage.cegar {
            return self.check_target(reason);
        }
        if verdict != Verdict::False || !(stage.cegar || stage.check) {
            if verdict == Verdict::False {
                self.error_path = stage.analysis.error_path();
                self.confirmed = Some(false);
            }
            return self.stage_end(verdict, reason);
        }
        let path = if stage.predicate {
            let mut paths = stage.analysis.error_paths(MAX_ERROR_PATHS);
            let first = if paths.is_empty() { Vec::new() } else { paths.remove(0) };
            self.stage.other_paths = paths;
            first
        } else {
            stage.analysis.error_path().unwrap_or_default()
        };
        let reason = without_unconfirmed(reason);
        self.check_error_path(path, reason);
    }

    /// The counterexample check of `path` to the current target: the cheap
    /// checks, else the SSA path formula on the solver.
    fn check_error_path(&mut self, path: Vec<EdgeId>, reason: String) {
        let target = self.stage.analysis.target().unwrap_or(StateId(0));
        if self.value_parallel() && self.failed_transfer.is_none() {
            if self.value_check_first(target, &path) {
                return;
            }
            return self.ask_path_formula(target, path, reason);
        }
        let second = self.stage.second.clone();
        if let Some(check) = counterexample::cheap_checks(&self.program, &self.stage.config, second.as_deref(), &path) {
            return self.decide(target, path, reason, check);
        }
        self.ask_path_formula(target, path, reason);
    }

    /// Value ∥ predicate analysis (a Value CPA with an EMPTY precision next
    /// to the Predicate CPA, CEGAR on): each analysis checks the error path
    /// with its own means and refines its own precision.
    fn value_parallel(&self) -> bool {
        let config = &self.stage.config;
        self.stage.predicate
            && self.stage.cegar
            && config.cpas().iter().any(|c| c == "cpa.value.ValueAnalysisCPA")
            && config.get("cpa.value.precision") == "EMPTY"
    }

    /// The value analysis' counterexample check (explicit values along the
    /// path), one [`Event::Counterexample`]; when it refutes the path and
    /// explicit-value interpolation finds something new to track, the value
    /// precision is refined and the next iteration starts (true). Otherwise
    /// (false) the predicate analysis' check follows: the path formula.
    fn value_check_first(&mut self, target: StateId, path: &[EdgeId]) -> bool {
        let model = self.stage.config.int_model();
        let at = crate::feasibility::value_infeasible_at(&self.program, path, model);
        let description = match at {
            Some(i) => format!(
                "explicit values refute edge {} of {} ({}); value analysis refines",
                i + 1,
                path.len(),
                counterexample::edge_text(&self.program, path, i)
            ),
            None => "explicit values along the path do not refute it; the predicate analysis' path formula decides".into(),
        };
        self.emit(Event::Counterexample {
            target,
            feasible: at.map(|_| false),
            description,
            path: path.to_vec(),
            check: "explicit values (value analysis)".into(),
            inputs: vec![],
            confirmed: false,
        });
        if at.is_none() {
            return false;
        }
        let old = (*self.stage.precision).clone();
        let Some(refined) = refinement::refine(&self.program, path, model, &old, self.stage.backup) else { return false };
        if !refined.grew {
            return false;
        }
        let Some(iteration) = self.count_refinement() else { return true };
        let precision_text = refined.precision.describe(&self.program);
        self.emit(refinement::refinement_event(
            &self.program,
            &old,
            &refined,
            path.to_vec(),
            "explicit values (value analysis)",
            iteration,
        ));
        let precision = Arc::new(refined.precision);
        let built = crate::build::build_analysis_with(
            self.program.clone(),
            &self.stage.config,
            self.record_views,
            Some(&precision),
            Some(&self.stage.predicates),
        );
        self.stage.precision = precision;
        let configuration = format!(
            "{}, CEGAR iteration {} from the initial state, value precision {precision_text}",
            self.stage.name,
            iteration + 1
        );
        self.start_iteration(built, configuration);
        true
    }

    /// Predicate CEGAR on a transfer that failed (the call stack's
    /// recursion bound, `cpa.callstack.depth`): the ARG path to the state
    /// and the failing edge are checked like an error path; infeasible, it
    /// is refined away like a spurious counterexample (the state is
    /// unreachable, so not computing its successors is sound); otherwise
    /// the stage ends UNKNOWN with the run's reason. TRUE still needs an
    /// iteration that ends with an empty waitlist, so never while such a
    /// state remains.
    fn check_failed_transfer(&mut self, state: StateId, edge: EdgeId, reason: String) {
        let mut paths: Vec<Vec<EdgeId>> = self
            .stage
            .analysis
            .paths_to(state, MAX_ERROR_PATHS)
            .into_iter()
            .map(|p| p.into_iter().map(|(_, e)| e).chain(std::iter::once(edge)).collect())
            .collect();
        if paths.is_empty() {
            return self.stage_end(Verdict::Unknown, reason);
        }
        let first = paths.remove(0);
        self.stage.other_paths = paths;
        self.failed_transfer = Some(reason.clone());
        let second = self.stage.second.clone();
        if let Some(check) = counterexample::cheap_checks(&self.program, &self.stage.config, second.as_deref(), &first) {
            return self.decide(state, first, reason, check);
        }
        self.ask_path_formula(state, first, reason);
    }

    /// Symbolic execution's check of a target before it is reported
    /// (`cpa.constraints.checkTargets`): zero inputs replayed; else all of
    /// the target state's constraints on the solver — `unsat` refutes the
    /// target and the search goes on (sound: the state is empty, whatever
    /// paths coverage made it stand for); else the SSA path formula and a
    /// concrete replay decide between a confirmed FALSE and UNKNOWN.
    fn check_target(&mut self, reason: String) {
        let path = self.stage.analysis.error_path().unwrap_or_default();
        let target = self.stage.analysis.target().unwrap_or(StateId(0));
        let reason = without_unconfirmed(reason);
        if let Some(check) = counterexample::zero_replay(&self.program, &path, self.stage.config.int_model()) {
            return self.decide(target, path, reason, check);
        }
        match self.stage.analysis.record(target).and_then(|r| crate::cpas::constraints::full_query(&r.state)) {
            Some(query) => {
                let awaiting = Awaiting::TargetConstraints(query.assertions.len());
                self.ask(query.to_smtlib(), awaiting, target, path, reason);
            }
            None => self.ask_path_formula(target, path, reason),
        }
    }

    /// The precise check of `path`: its SSA path formula on the solver.
    fn ask_path_formula(&mut self, target: StateId, path: Vec<EdgeId>, reason: String) {
        let formula = crate::ssa::path_formula(&self.program, &path, self.stage.config.int_model());
        self.ask(formula.smtlib.clone(), Awaiting::PathFormula(formula), target, path, reason);
    }

    /// Asks the attached solver at once, or parks until the driver answers
    /// (the page's z3-solver).
    fn ask(&mut self, smtlib: String, awaiting: Awaiting, target: StateId, path: Vec<EdgeId>, reason: String) {
        let query = SolverQuery { id: self.queries, smtlib };
        let parked = ParkedCheck { query, path, target, reason, awaiting };
        let Some(solver) = self.solver.as_mut() else {
            self.parked = Some(parked);
            return;
        };
        // The check may not outlast the stage: past its time the answer is
        // `unknown` and the stage ends UNKNOWN as it would have.
        if let Some(left) = self.stage.time_left() {
            solver.limit_next(left);
        }
        let output = solver.solve_text(&parked.query.smtlib);
        if self.resuming {
            // Every ask is the last thing its caller does, so the loop below
            // can act on this answer once the current one returns: the same
            // order as calling it here, without a stack frame per query.
            self.answered_next = Some((parked, output));
            return;
        }
        self.resuming = true;
        let mut next = Some((parked, output));
        while let Some((check, output)) = next {
            self.resume_check(check, &output);
            next = self.answered_next.take();
        }
        self.resuming = false;
    }

    /// Goes on with a check once the solver's `output` is in.
    fn resume_check(&mut self, p: ParkedCheck, output: &str) {
        match p.awaiting {
            Awaiting::PathFormula(formula) => {
                let check = self.answered(&p.path, &formula, output);
                self.decide(p.target, p.path, p.reason, check);
            }
            Awaiting::Interpolation(mut job, check) => {
                let answer = job.answer(output);
                self.emit(Event::SolverQuery { id: self.queries, smtlib: p.query.smtlib.clone(), answer });
                self.queries += 1;
                self.continue_interpolation(job, p.path, check);
            }
            Awaiting::TargetConstraints(count) => {
                let response = parse_response(output);
                self.emit(Event::SolverQuery {
                    id: self.queries,
                    smtlib: p.query.smtlib.clone(),
                    answer: response.status().as_str().into(),
                });
                self.queries += 1;
                if response.status() != smt::Status::Unsat {
                    return self.ask_path_formula(p.target, p.path, p.reason);
                }
                let description = format!(
                    "the target state's {count} path constraints are unsatisfiable together (each step's query asked at most {} of them): no execution reaches {}",
                    crate::cpas::constraints::MAX_QUERY_CONSTRAINTS,
                    p.target
                );
                self.emit(Event::Counterexample {
                    target: p.target,
                    feasible: Some(false),
                    description: description.clone(),
                    path: p.path,
                    check: "SMT on the target's constraints".into(),
                    inputs: vec![],
                    confirmed: false,
                });
                if let Err(e) = self.stage.analysis.refute_target(description) {
                    self.stage_end(Verdict::Unknown, format!("a target was refuted but the search cannot go on: {e}"));
                }
            }
        }
    }

    /// Acts on the check of the error path ending in `target`: FALSE when
    /// confirmed, refinement (CEGAR) or UNKNOWN otherwise.
    fn decide(&mut self, target: StateId, path: Vec<EdgeId>, reason: String, check: PathCheck) {
        if let Some(failure) = self.failed_transfer.clone() {
            return self.decide_failed_transfer(target, path, failure, check);
        }
        self.emit_check(target, &path, &check);
        if check.confirmed {
            let found = format!(
                "{reason}; the error path is feasible and confirmed: the concrete interpreter reaches the error location"
            );
            return self.end_confirmed(path, &check, &found);
        }
        match check.feasible {
            Some(false) if self.stage.cegar => self.refine(target, path, &check),
            Some(false) if self.stage.check_targets => self.stage_end(
                Verdict::Unknown,
                format!(
                    "the error path is infeasible ({}: {}), but the target state's own constraints are satisfiable (the symbolic state over-approximates its path, or also stands for paths whose states it covered), so dropping it could hide a real error: the search cannot go on",
                    check.check, check.description
                ),
            ),
            Some(false) => self.stage_end(
                Verdict::Unknown,
                format!(
                    "the error path is infeasible ({}: {}): the counterexample is spurious, the analysis too coarse",
                    check.check, check.description
                ),
            ),
            _ => self.stage_end(
                Verdict::Unknown,
                format!("an error path was found but could not be confirmed: {}", check.description),
            ),
        }
    }

    /// [`Self::decide`] for the path to a failed transfer: refinement when
    /// infeasible, else UNKNOWN with the run's `failure` reason (never FALSE:
    /// the path does not end at the error location).
    fn decide_failed_transfer(&mut self, state: StateId, path: Vec<EdgeId>, failure: String, check: PathCheck) {
        let infeasible = check.feasible == Some(false);
        self.emit(Event::Counterexample {
            target: state,
            feasible: if infeasible { Some(false) } else { None },
            description: format!("the path to the transfer that failed ({failure}): {}", check.description),
            path: path.clone(),
            check: check.check.clone(),
            inputs: vec![],
            confirmed: false,
        });
        if infeasible {
            return self.refine(state, path, &check);
        }
        self.failed_transfer = None;
        self.stage_end(
            Verdict::Unknown,
            format!("{failure}; the path to it cannot be refuted ({}: {})", check.check, check.description),
        );
    }

    /// CEGAR: refine the precision with the infeasible `path` and restart
    /// (see [`crate::refinement`] and [`crate::restart`]).
    fn refine(&mut self, target: StateId, path: Vec<EdgeId>, check: &PathCheck) {
        let mut check_text = check.check.clone();
        if (self.stage.predicate || self.stage.symexec) && self.failed_transfer.is_none() {
            match self.accelerate(target, &path) {
                Acceleration::ConfirmedFalse => return,
                // Said in the refinement's check, so the student sees why it was not enough.
                Acceleration::Tried(why) => check_text = format!("{check_text}; acceleration tried: {why}"),
                Acceleration::NotTried => {}
            }
        }
        if self.stage.predicate {
            return self.refine_predicates(path, check_text);
        }
        if self.stage.symexec {
            return self.refine_symexec(path, check_text);
        }
        let model = self.stage.config.int_model();
        let old = (*self.stage.precision).clone();
        let Some(refined) = refinement::refine(&self.program, &path, model, &old, self.stage.backup) else {
            return self.stage_end(
                Verdict::Unknown,
                format!("the error path is infeasible ({}) but explicit-value interpolation cannot refute it (cegar.backupRefiner = NONE)", check.check),
            );
        };
        let refiner = refined.refiner;
        if !refined.grew {
            return self.stage_end(
                Verdict::Unknown,
                format!(
                    "CEGAR made no progress: the {refiner} refiner found nothing new to track for the infeasible error path ({}), so the same counterexample would be found again",
                    check.check
                ),
            );
        }
        let Some(iteration) = self.count_refinement() else { return };
        let precision_text = refined.precision.describe(&self.program);
        self.emit(refinement::refinement_event(&self.program, &old, &refined, path, &check.check, iteration));
        let precision = Arc::new(refined.precision);
        if self.stage.pivot && self.restart_from_pivot(&old, &precision) {
            return;
        }
        let built = build_analysis_refined(self.program.clone(), &self.stage.config, self.record_views, Some(&precision));
        self.stage.precision = precision;
        let configuration =
            format!("{}, CEGAR iteration {} from the initial state, precision {precision_text}", self.stage.name, iteration + 1);
        self.start_iteration(built, configuration);
    }

    /// Counterexample acceleration (see [`crate::acceleration`]): at the
    /// first infeasible error path that unrolls a loop, the accelerated
    /// replay; a confirmed FALSE ends the stage.
    fn accelerate(&mut self, target: StateId, path: &[EdgeId]) -> Acceleration {
        if self.accelerated
            || !crate::acceleration::enabled(&self.stage.config)
            || !crate::path_invariants::unrolls_a_loop(&self.program, path)
        {
            return Acceleration::NotTried;
        }
        self.accelerated = true;
        let (check, executed) = match crate::acceleration::accelerated_replay(&self.program, self.stage.config.int_model()) {
            Ok(confirmed) => confirmed,
            Err(why) => return Acceleration::Tried(why),
        };
        self.emit_check(target, &executed, &check);
        self.end_confirmed(
            executed,
            &check,
            "the error path is infeasible but unrolls a loop; the error location is reached by a confirmed execution",
        );
        Acceleration::ConfirmedFalse
    }

    /// The [`Event::Counterexample`] of `check` on `path` (to `target`).
    fn emit_check(&mut self, target: StateId, path: &[EdgeId], check: &PathCheck) {
        self.emit(Event::Counterexample {
            target,
            feasible: check.feasible,
            description: check.description.clone(),
            path: path.to_vec(),
            check: check.check.clone(),
            inputs: check.inputs.iter().map(|v| v.to_string()).collect(),
            confirmed: check.confirmed,
        });
    }

    /// Ends the stage FALSE with the confirmed error `path` and `check`'s
    /// inputs; the reason is `found` (how the error location is reached)
    /// followed by the inputs and the check.
    fn end_confirmed(&mut self, path: Vec<EdgeId>, check: &PathCheck, found: &str) {
        self.error_path = Some(path);
        self.confirmed = Some(true);
        self.inputs = check.inputs.clone();
        let reason = format!("{found} {} (check: {})", crate::counterexample::inputs_in_words(&check.inputs), check.check);
        self.stage_end(Verdict::False, reason);
    }

    /// CEGAR for predicate analysis: interpolants along the infeasible
    /// `path` by quantifier elimination (see [`crate::predicate_refinement`]),
    /// one solver query per cut.
    fn refine_predicates(&mut self, path: Vec<EdgeId>, check: String) {
        let config = &self.stage.config;
        let options = crate::build::predicate_options(config);
        let direction = predicate_refinement::Direction::parse(config.get("cpa.predicate.refinement.interpolation"));
        // First over mathematical integers (clean interpolants without the
        // wrap-around of C's arithmetic); when that finds no new predicate,
        // under `c` over the exact encoding (the path may be infeasible only
        // because of an overflow), then both in the other direction, see
        // `predicate_refinement::next_attempt`. Predicates are only a
        // heuristic: soundness comes from the abstraction, which is exact.
        let encoding = smt::Encoding::wrapped(minic::IntModel::Math);
        let job = predicate_refinement::InterpolationJob::new(self.program.clone(), &path, options.blocks, encoding, direction)
            .with_elimination_budget(self.elimination_budget());
        self.continue_interpolation(Box::new(job), path, check);
    }

    /// The time limit of each elimination of a predicate refinement
    /// (`cpa.predicate.refinement.eliminationTimeMs`; 0: none).
    fn elimination_budget(&self) -> u64 {
        self.stage.config.get("cpa.predicate.refinement.eliminationTimeMs").parse().unwrap_or(0)
    }

    /// Asks the next elimination of `job`, or finishes the refinement.
    fn continue_interpolation(&mut self, job: Box<predicate_refinement::InterpolationJob>, path: Vec<EdgeId>, check: String) {
        if self.stage.over_time() {
            let ms = self.stage.time_limit_ms;
            return self.stage_end(
                Verdict::Unknown,
                format!("time limit reached during a refinement: restartAlgorithm.stageTimeMs = {ms}"),
            );
        }
        match job.next_query() {
            Some(script) => {
                let target = self.stage.analysis.target().unwrap_or(StateId(0));
                self.ask(script, Awaiting::Interpolation(job, check), target, path, String::new());
            }
            None if self.stage.symexec => self.finish_symexec_refinement(&job, path, &check),
            None => self.finish_predicate_refinement(&job, path, &check),
        }
    }

    /// CEGAR for symbolic execution with predicate abstraction: sequence
    /// interpolants cut at the error path's abstraction points (see
    /// [`crate::symexec_refinement`]), first over mathematical integers,
    /// under `c` again over the exact encoding when that finds nothing new.
    fn refine_symexec(&mut self, path: Vec<EdgeId>, check: String) {
        let cuts: Vec<usize> = symexec_refinement::abstraction_cuts(&self.stage.analysis).into_iter().map(|(i, _)| i).collect();
        let direction = predicate_refinement::Direction::parse(self.stage.config.get("cpa.predicate.refinement.interpolation"));
        let encoding = smt::Encoding::wrapped(minic::IntModel::Math);
        let job = predicate_refinement::InterpolationJob::with_cuts(self.program.clone(), &path, &cuts, encoding, direction);
        self.continue_interpolation(Box::new(job), path, check);
    }

    /// New predicates at the cuts, or else raised thresholds at the
    /// path's abstraction locations; then a restart (root or pivot), or
    /// UNKNOWN when the precision did not grow.
    fn finish_symexec_refinement(&mut self, job: &predicate_refinement::InterpolationJob, path: Vec<EdgeId>, check: &str) {
        let cuts = job.block_path().cuts.clone();
        let found: Vec<(cfa::NodeId, Vec<smt::Term>)> = job.predicates().into_iter().map(|(c, ps)| (c.location, ps)).collect();
        let old = self.stage.symexec_precision.clone();
        let mut refined = symexec_refinement::add_predicates(&self.program, &old, &found);
        let exact = crate::build::predicate_encoding(self.stage.config.int_model());
        if !refined.grew() && job.encoding() != exact {
            let positions: Vec<usize> = cuts.iter().map(|c| c.position).collect();
            let retry = predicate_refinement::InterpolationJob::with_cuts(
                self.program.clone(),
                &path,
                &positions,
                exact,
                job.direction(),
            );
            return self.continue_interpolation(Box::new(retry), path, check.to_string());
        }
        let how = if refined.grew() {
            format!(
                "{} interpolants by quantifier elimination at the {} abstraction point{} of the path",
                job.direction().name(),
                cuts.len(),
                if cuts.len() == 1 { "" } else { "s" }
            )
        } else {
            let locations: Vec<cfa::NodeId> = cuts.iter().map(|c| c.location).collect();
            refined = symexec_refinement::raise_thresholds(&self.program, &old, &locations);
            "no new predicate, so the thresholds of the path's abstraction locations are doubled (at least 1)".to_string()
        };
        if !refined.grew() {
            return self.stage_end(
                Verdict::Unknown,
                format!(
                    "CEGAR made no progress: the infeasible error path ({check}) has no abstraction point to refine, so the same counterexample would be found again"
                ),
            );
        }
        let Some(iteration) = self.count_refinement() else { return };
        let precision_text = refined.precision.describe(&self.program);
        let added: Vec<String> = refined
            .predicates_added
            .iter()
            .map(|e| format!("{} {}", e.predicate, e.scope))
            .chain(refined.thresholds_raised.iter().map(|r| format!("threshold {} at {}", r.threshold, r.location)))
            .collect();
        self.emit(Event::Refinement {
            precision: precision_text.clone(),
            reason: format!("the error path is infeasible ({check}); {how}: {}", added.join(", ")),
            iteration,
            refiner: if refined.predicates_added.is_empty() {
                "symexec thresholds".into()
            } else {
                format!("symexec interpolation ({})", job.direction().name())
            },
            path,
            interpolants: job.views(),
            added: Vec::new(),
            tracked: Vec::new(),
            predicates_added: refined.predicates_added.clone(),
            predicates: symexec_refinement::predicate_entries(&self.program, &refined.precision),
            thresholds_raised: refined.thresholds_raised.clone(),
            precision_function: refined.precision.rows(&self.program),
            from_path_invariants: Vec::new(),
        });
        let changed = refined.changed_locations();
        let precision = Arc::new(refined.precision);
        if self.stage.pivot && self.restart_from_symexec_pivot(&changed, &precision) {
            return;
        }
        let built = crate::build::build_analysis_symexec(self.program.clone(), &self.stage.config, self.record_views, &precision);
        self.stage.symexec_precision = precision;
        let configuration =
            format!("{}, CEGAR iteration {} from the initial state, precision {precision_text}", self.stage.name, iteration + 1);
        self.start_iteration(built, configuration);
    }

    /// `cegar.restart = PIVOT` for symbolic execution: backtracks to the
    /// state of the error path closest to the root whose location's
    /// precision grew, and re-explores from its parent with the new
    /// precision function.
    fn restart_from_symexec_pivot(
        &mut self,
        changed: &[cfa::NodeId],
        precision: &Arc<crate::cpas::symexec::precision::SymExecPrecision>,
    ) -> bool {
        let analysis = &self.stage.analysis;
        let Some(pivot) = symexec_refinement::pivot(analysis, changed) else { return false };
        let parent_precision = match analysis.record(pivot).map(|r| r.origin.clone()) {
            Some(crate::trace::Origin::Transfer { parent, .. }) => analysis.record(parent).map(|r| (*r.precision).clone()),
            _ => None,
        };
        let Some(p) = parent_precision else { return false };
        if self.stage.analysis.prune_subtree(pivot, symexec_refinement::with_precision(&p, precision)).is_err() {
            return false;
        }
        self.stage.symexec_precision = precision.clone();
        self.iteration += 1;
        true
    }

    /// The predicates of a finished interpolation: a new precision and a
    /// restart, or UNKNOWN when nothing new was found.
    fn finish_predicate_refinement(&mut self, job: &predicate_refinement::InterpolationJob, path: Vec<EdgeId>, check: &str) {
        let scope = crate::cpas::predicate::precision::PredicateScope::parse(
            self.stage.config.get("cpa.predicate.refinement.sharePredicates"),
        );
        let found = job.predicates();
        let (precision, mut added) = predicate_refinement::refine_precision(&self.program, &self.stage.predicates, &found, scope);
        // Path invariants of the path program at the loop heads the path
        // unrolls, next to the interpolants (what both find counts as the
        // interpolants').
        let which =
            crate::path_invariants::PathInvariants::parse(self.stage.config.get("cpa.predicate.refinement.pathInvariants"));
        if which != crate::path_invariants::PathInvariants::None
            && crate::path_invariants::unrolls_a_loop(&self.program, &path)
            && !self.refuted_loop_paths.contains(&path)
        {
            self.refuted_loop_paths.push(path.clone());
        }
        let invariants: Vec<_> =
            crate::path_invariants::loop_head_invariants(&self.program, &self.refuted_loop_paths, which, job.encoding())
                .into_iter()
                .map(|i| (i.location, i.function, i.edge, i.predicates))
                .collect();
        let (precision, from_invariants) =
            predicate_refinement::refine_precision_at_loop_heads(&self.program, &precision, &invariants, scope);
        added.extend(from_invariants.iter().cloned());
        let exact = crate::build::predicate_encoding(self.stage.config.int_model());
        let configured = predicate_refinement::Direction::parse(self.stage.config.get("cpa.predicate.refinement.interpolation"));
        let next = predicate_refinement::next_attempt(configured, exact, (job.encoding(), job.direction()));
        if let (true, Some((encoding, direction))) = (added.is_empty(), next) {
            let retry = predicate_refinement::InterpolationJob::new(
                self.program.clone(),
                &path,
                crate::build::predicate_options(&self.stage.config).blocks,
                encoding,
                direction,
            )
            .with_elimination_budget(self.elimination_budget());
            return self.continue_interpolation(Box::new(retry), path, check.to_string());
        }
        let how = format!(
            "{} interpolants by quantifier elimination ({}) over {} block{} ({} cut{})",
            job.direction().name(),
            if job.encoding().model == minic::IntModel::C { "C integers" } else { "mathematical integers" },
            job.block_path().blocks.len(),
            if job.block_path().blocks.len() == 1 { "" } else { "s" },
            job.block_path().cuts.len(),
            if job.block_path().cuts.len() == 1 { "" } else { "s" },
        );
        let failures = if job.failures().is_empty() {
            String::new()
        } else {
            format!("; eliminations that failed: {}", job.failures().join("; "))
        };
        if added.is_empty() && !self.stage.other_paths.is_empty() {
            // The path went through one operand of a merge; the target's
            // state also stands for the paths through the other.
            let next = self.stage.other_paths.remove(0);
            return self.check_error_path(next, "a target state was reached".into());
        }
        self.failed_transfer = None;
        if added.is_empty() {
            return self.stage_end(
                Verdict::Unknown,
                format!(
                    "CEGAR made no progress: the {how} give no new predicate for the infeasible error path ({check}){failures}, so the same counterexample would be found again"
                ),
            );
        }
        let Some(iteration) = self.count_refinement() else { return };
        let precision_text = precision.describe(&self.program);
        let text = |entries: &[crate::trace::PredicateEntry]| {
            entries.iter().map(|e| format!("{} {}", e.predicate, e.scope)).collect::<Vec<_>>().join(", ")
        };
        let from_interpolants: Vec<_> = added.iter().filter(|e| !from_invariants.contains(e)).cloned().collect();
        let reason = match (from_interpolants.is_empty(), from_invariants.is_empty()) {
            (_, true) => format!("{how} add {}", text(&added)),
            (true, false) => format!(
                "{how} add nothing new; path invariants of the path program ({}) add {}",
                which.name(),
                text(&from_invariants)
            ),
            (false, false) => format!(
                "{how} add {}; path invariants of the path program ({}) add {}",
                text(&from_interpolants),
                which.name(),
                text(&from_invariants)
            ),
        };
        self.emit(Event::Refinement {
            precision: precision_text.clone(),
            reason: format!("the error path is infeasible ({check}); {reason}{failures}"),
            iteration,
            refiner: format!("predicate interpolation ({})", job.direction().name()),
            path,
            interpolants: job.views(),
            added: Vec::new(),
            tracked: Vec::new(),
            predicates_added: added,
            predicates: predicate_refinement::precision_entries(&self.program, &precision),
            thresholds_raised: Vec::new(),
            precision_function: Vec::new(),
            from_path_invariants: from_invariants,
        });
        let precision = Arc::new(precision);
        if self.stage.pivot && self.restart_from_predicate_pivot(&precision) {
            return;
        }
        // Value ∥ predicate: the value analysis keeps its own precision.
        let value = self.value_parallel().then(|| self.stage.precision.clone());
        let built = crate::build::build_analysis_with(
            self.program.clone(),
            &self.stage.config,
            self.record_views,
            value.as_ref(),
            Some(&precision),
        );
        self.stage.predicates = precision;
        let configuration =
            format!("{}, CEGAR iteration {} from the initial state, predicates {precision_text}", self.stage.name, iteration + 1);
        self.start_iteration(built, configuration);
    }

    /// Counts one more refinement and returns its CEGAR iteration (1-based),
    /// or ends the stage with UNKNOWN when `cegar.maxIterations` is used up.
    fn count_refinement(&mut self) -> Option<u32> {
        if self.stage.refinements >= self.stage.max_refinements {
            self.stage_end(
                Verdict::Unknown,
                format!("CEGAR gave up after cegar.maxIterations = {} refinements", self.stage.max_refinements),
            );
            return None;
        }
        self.stage.refinements += 1;
        Some(self.stage.refinements as u32)
    }

    /// A new CEGAR iteration from the initial state with the analysis
    /// `built` for the refined precision (a [`Event::Restart`] saying
    /// `configuration`), or UNKNOWN when it cannot be built.
    fn start_iteration(&mut self, built: Result<Analysis, ConfigError>, configuration: String) {
        match built {
            Ok(mut a) => {
                self.configure_solver(&mut a);
                #[cfg(not(target_arch = "wasm32"))]
                a.set_deadline(self.stage.deadline());
                self.carry_solver_answers(&a);
                self.carry_block_cache(&mut a);
                self.stage.analysis = a;
                self.iteration += 1;
                self.emit(Event::Restart { configuration, iteration: self.iteration });
            }
            Err(e) => self.finish(Verdict::Unknown, e.message),
        }
    }

    /// Hands the ending analysis's solver answers to `next`'s oracle
    /// ([`crate::solver::SolverOracle::adopt_answers_of`]): a restart asks
    /// again what the last iteration asked wherever the precision did not
    /// change, and those queries are answered without the solver.
    fn carry_solver_answers(&self, next: &Analysis) {
        if let (Some(earlier), Some(next)) = (self.stage.analysis.solver_oracle(), next.solver_oracle()) {
            next.adopt_answers_of(earlier);
        }
    }

    /// BAM: hands the finished block analyses of the ending iteration to
    /// `next` (the next iteration's run), which keeps exactly those whose
    /// block's reduced precision the refinement did not change; says which
    /// blocks lost their entries ([`Event::CacheInvalidated`]).
    fn carry_block_cache(&mut self, next: &mut Analysis) {
        let carry = self.stage.analysis.take_bam_carry();
        if carry.is_empty() {
            return;
        }
        let outcome = next.adopt_bam_carry(carry);
        self.emit(Event::CacheInvalidated {
            blocks: outcome.dropped_blocks,
            entries: outcome.dropped as u32,
            kept: outcome.kept as u32,
        });
    }

    /// `cegar.restart = PIVOT`: prunes the ARG below the pivot of the
    /// refinement `old` → `precision` and gives the pivot's parent the
    /// refined precision. False when there is no pivot to restart from (the
    /// caller then restarts from the initial state).
    fn restart_from_pivot(&mut self, old: &VarPrecision, precision: &Arc<VarPrecision>) -> bool {
        let Some(pivot) = restart::pivot(&self.stage.analysis, old, precision) else { return false };
        let parent_precision = match self.stage.analysis.record(pivot).map(|r| r.origin.clone()) {
            Some(crate::trace::Origin::Transfer { parent, .. }) => {
                self.stage.analysis.record(parent).map(|r| (*r.precision).clone())
            }
            _ => None,
        };
        let Some(p) = parent_precision else { return false };
        let refined = restart::with_refined_parts(&p, precision);
        if self.stage.analysis.prune_subtree(pivot, refined).is_err() {
            return false;
        }
        self.stage.precision = precision.clone();
        self.iteration += 1;
        true
    }

    /// `cegar.restart = PIVOT` for predicate analysis: prunes the ARG
    /// below the first state of the error path whose location gained
    /// predicates and re-explores from its parent with them (needs
    /// `cpa.predicate.merge = SEP`: merged states have several parents).
    fn restart_from_predicate_pivot(&mut self, precision: &Arc<crate::cpas::predicate::precision::PredicatePrecision>) -> bool {
        let analysis = &self.stage.analysis;
        let Some(pivot) = restart::predicate_pivot(analysis, &self.stage.predicates, precision, &self.program) else {
            return false;
        };
        let parent_precision = match analysis.record(pivot).map(|r| r.origin.clone()) {
            Some(crate::trace::Origin::Transfer { parent, .. }) => analysis.record(parent).map(|r| (*r.precision).clone()),
            _ => None,
        };
        let Some(p) = parent_precision else { return false };
        if self.stage.analysis.prune_subtree(pivot, restart::with_predicates(&p, precision)).is_err() {
            return false;
        }
        self.stage.predicates = precision.clone();
        self.iteration += 1;
        true
    }

    /// The solver's `output` for the path formula of `path`: records the
    /// query ([`Event::SolverQuery`]) and judges the path
    /// ([`counterexample::solver_check`]).
    fn answered(&mut self, path: &[EdgeId], formula: &crate::ssa::PathFormula, output: &str) -> PathCheck {
        let response = parse_response(output);
        self.emit(Event::SolverQuery {
            id: self.queries,
            smtlib: formula.smtlib.clone(),
            answer: response.status().as_str().into(),
        });
        self.queries += 1;
        counterexample::solver_check(&self.program, self.stage.config.int_model(), path, formula, &response)
    }

    /// Whether the query the run is parked on is the verifier's own (a
    /// counterexample or target check) rather than one of the running
    /// analysis's CPAs. Natively the two have their own solver processes;
    /// a driver that wants the same answers (models included) keeps them
    /// apart too.
    pub fn pending_query_is_check(&self) -> bool {
        self.parked.is_some()
    }

    /// Caps the queries the attached solver answers inside one transfer
    /// ([`crate::algorithm::Reachability::set_lend_queries`]), for this and
    /// every later iteration's analysis. For tests.
    pub fn set_lend_queries(&mut self, n: u32) {
        self.lend_queries = Some(n);
        self.stage.analysis.set_lend_queries(n);
    }

    /// Sends every solver query to the solver: no CPA decides one itself
    /// (as the Constraints CPA does with `smt::univariate`) and no lent
    /// back end answers inside a transfer, so the run parks on every query.
    /// For tests of the solver's own answers.
    pub fn send_every_query(&mut self) {
        self.every_query_to_solver = true;
        forbid_decisions(&self.stage.analysis);
    }

    /// Gives a new stage's or CEGAR iteration's analysis the run's solver
    /// settings: detached (the page: it parks on every query the solver
    /// must answer), and no CPA decisions after
    /// [`Verifier::send_every_query`].
    fn configure_solver(&self, analysis: &mut Analysis) {
        if self.detached {
            analysis.set_solver(None);
        }
        if let Some(n) = self.lend_queries {
            analysis.set_lend_queries(n);
        }
        if self.every_query_to_solver {
            forbid_decisions(analysis);
        }
    }

    /// Attaches (or, with `None`, detaches) the solver that answers queries
    /// inside the run — the path formulas and the running analysis's. In
    /// the page none is attached: the run parks on each query.
    pub fn set_solver(&mut self, backend: Option<Box<dyn SolverBackend + Send>>) {
        if let Some(x) = self.explorer.as_mut() {
            return x.set_solver(backend);
        }
        self.detached = backend.is_none();
        if self.detached {
            self.stage.analysis.set_solver(None);
        }
        self.solver = backend;
    }
}

impl Stepper for Verifier {
    /// The next event, or `None` after [`Event::AnalysisFinished`] (or
    /// while parked on a query, see [`Stepper::pending_query`]).
    fn next_event(&mut self) -> Option<Event> {
        if let Some(x) = self.explorer.as_mut() {
            if let Some(e) = self.pending.pop_front() {
                return Some(e);
            }
            let e = x.next_event();
            if let Some(Event::AnalysisFinished { verdict, reason, .. }) = &e {
                self.outcome = Some((*verdict, reason.clone()));
                self.confirmed = x.confirmed();
                self.error_path = x.error_path().map(<[EdgeId]>::to_vec);
                self.inputs = x.inputs().to_vec();
                self.done = true;
            }
            return e;
        }
        loop {
            if let Some(e) = self.pending.pop_front() {
                return Some(e);
            }
            if self.done || self.parked.is_some() {
                return None;
            }
            if self.stage.over_time() {
                let ms = self.stage.time_limit_ms;
                self.stage_end(Verdict::Unknown, format!("time limit reached: restartAlgorithm.stageTimeMs = {ms}"));
                continue;
            }
            match self.stage.analysis.next_event() {
                // Parked on a query of the analysis's CPAs.
                None if self.stage.analysis.pending_query().is_some() => return None,
                None => self.stage_end(Verdict::Unknown, "the analysis ended without a verdict".into()),
                Some(Event::AnalysisStarted { info }) => {
                    if !self.started {
                        self.started = true;
                        return Some(Event::AnalysisStarted { info });
                    }
                }
                Some(Event::AnalysisFinished { verdict, reason, int_model_caveat }) => {
                    self.int_model_caveat = int_model_caveat;
                    self.inner_finished(verdict, reason)
                }
                Some(e) => return Some(e),
            }
        }
    }

    fn peek_event(&mut self) -> Option<&Event> {
        if self.pending.is_empty() {
            let e = self.next_event()?;
            self.pending.push_front(e);
        }
        self.pending.front()
    }

    /// The query the run is parked on — the path formula of an error path
    /// (when no solver is attached) or a query of the running analysis's
    /// CPAs — if any. Answer it with [`Self::answer_query`].
    fn pending_query(&self) -> Option<&SolverQuery> {
        if let Some(x) = &self.explorer {
            return x.pending_query();
        }
        match &self.parked {
            Some(p) => Some(&p.query),
            None => self.stage.analysis.pending_query(),
        }
    }

    /// Resumes a parked run with the solver's output text (`sat`, `unsat`
    /// or `unknown` first, then a model). Does nothing when not parked.
    fn answer_query(&mut self, solver_output: &str) {
        if let Some(x) = self.explorer.as_mut() {
            return x.answer_query(solver_output);
        }
        match self.parked.take() {
            Some(p) => self.resume_check(p, solver_output),
            None => self.stage.analysis.answer_query(solver_output),
        }
    }

    /// Whether the run is over (all events handed out).
    fn is_finished(&self) -> bool {
        if let Some(x) = &self.explorer {
            return x.is_finished() && self.pending.is_empty();
        }
        self.done && self.pending.is_empty()
    }

    fn parked_mid_step(&mut self) -> &mut bool {
        &mut self.mid_step
    }
}

/// How many error paths through merges predicate analysis tries for one
/// target before it gives up on refining (see [`crate::Reachability::error_paths`]).
pub const MAX_ERROR_PATHS: usize = 16;

/// An error path check waiting for the solver's answer.
struct ParkedCheck {
    query: SolverQuery,
    path: Vec<EdgeId>,
    target: StateId,
    reason: String,
    awaiting: Awaiting,
}

/// What a parked check asked the solver.
enum Awaiting {
    /// The SSA path formula of the error path.
    PathFormula(crate::ssa::PathFormula),
    /// All of the target state's path constraints (how many).
    TargetConstraints(usize),
    /// One quantifier elimination of a predicate refinement (and the name
    /// of the check that refuted the path).
    Interpolation(Box<crate::predicate_refinement::InterpolationJob>, String),
}

/// The reachability run's reason without its "unconfirmed" note (the
/// check that follows decides).
fn without_unconfirmed(reason: String) -> String {
    match reason.find("; the error path is unconfirmed") {
        Some(i) => reason[..i].to_string(),
        None => reason,
    }
}

/// Builds the [`Verifier`] a configuration describes, with the native Z3
/// when it is installed (not in the browser).
pub fn build_verifier(program: Arc<Program>, config: &Config, record_views: bool) -> Result<Verifier, ConfigError> {
    let v = Verifier::new(program, config, record_views)?;
    #[cfg(not(target_arch = "wasm32"))]
    let v = v.with_native_solver();
    Ok(v)
}

/// Makes every query of `analysis` go to its solver: no CPA decides one
/// itself ([`crate::solver::SolverOracle::set_may_decide`]).
fn forbid_decisions(analysis: &Analysis) {
    if let Some(o) = analysis.solver_oracle() {
        o.set_may_decide(false);
    }
}

/// What counterexample acceleration did at an infeasible error path.
enum Acceleration {
    /// Not tried: off, already tried in this run, or the path unrolls no loop.
    NotTried,
    /// Tried; the replay did not confirm the error (what it did, in words).
    Tried(String),
    /// The replay reached the error: the stage ended FALSE.
    ConfirmedFalse,
}
