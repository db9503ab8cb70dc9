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
//! Events: the inner runs' events pass through unchanged (the first
//! `AnalysisStarted` only; their `AnalysisFinished` is replaced by the
//! verifier's decision). Each check is an [`Event::Counterexample`] (after
//! an [`Event::SolverQuery`] when the solver was asked), each refinement an
//! [`Event::Refinement`], each new iteration or stage an
//! [`Event::Restart`] (or [`Event::ArgPruned`] from the pivot); exactly one [`Event::AnalysisFinished`] ends the
//! trace. A configuration without CEGAR, check or restart gives exactly the
//! events of its [`crate::Reachability`].
//!
//! Soundness: TRUE only ever comes from a reachability run that finished
//! with an empty waitlist (refinement only adds precision, so each CEGAR
//! iteration is itself a sound analysis); a FALSE of a CEGAR or
//! counterexample-check configuration is reported only when the concrete
//! interpreter reached the error location on the found inputs.

use crate::config::{build_analysis, build_analysis_refined, Analysis, Config, ConfigError};
use crate::cpa::ErasedPrecision;
use crate::cpas::composite::CompositePrecision;
use crate::cpas::octagon::OctagonPrecision;
use crate::cpas::value::ValuePrecision;
use crate::feasibility;
use crate::precision::VarPrecision;
use crate::refinement::{assumption_closure, interpolate, refine_with_interpolants, Interpolant};
use crate::solver::SolverQuery;
use crate::trace::{Event, InterpolantView, PrecisionEntry, StateId, Verdict};
use cfa::{EdgeId, Program};
use smt::{parse_response, SolverBackend, Status};
use std::collections::VecDeque;
use std::sync::Arc;

/// What the check of one error path found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathCheck {
    /// Feasible (`Some(true)`), infeasible, or undecided.
    pub feasible: Option<bool>,
    /// Whether the concrete interpreter reached the error location.
    pub confirmed: bool,
    /// Which check decided.
    pub check: String,
    /// What it found, in words.
    pub description: String,
    /// The replayed inputs (when some were found).
    pub inputs: Vec<i128>,
}

/// How much effort explicit-value interpolation may spend minimizing
/// (transfers) before it keeps the remaining strongest posts whole.
const INTERPOLATION_BUDGET: u64 = 400_000;

/// One configuration's run: the reachability algorithm, re-built with a
/// refined precision for each CEGAR iteration.
struct Stage {
    name: String,
    config: Config,
    analysis: Analysis,
    cegar: bool,
    check: bool,
    second: Option<String>,
    backup: bool,
    /// `cegar.restart = PIVOT`: restart from the pivot instead of the root.
    pivot: bool,
    max_refinements: u64,
    precision: Arc<VarPrecision>,
    refinements: u64,
    #[cfg(not(target_arch = "wasm32"))]
    started: std::time::Instant,
    time_limit_ms: u64,
}

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
    detached: bool,
    done: bool,
    started: bool,
    iteration: u32,
    /// Path-formula queries asked so far.
    queries: u32,
    outcome: Option<(Verdict, String)>,
    confirmed: Option<bool>,
    error_path: Option<Vec<EdgeId>>,
    /// The last stage's integer-model caveat (a TRUE under `math`).
    int_model_caveat: Option<crate::int_caveat::IntModelCaveat>,
    inputs: Vec<i128>,
}

/// The configuration of the restart stage `name` of the restart
/// configuration `parent`: the stage's own file, with the integer model and
/// the limits of the parent.
pub(crate) fn stage_config(name: &str, parent: &Config) -> Result<Config, ConfigError> {
    let mut c = Config::load(name)?;
    if c.get("analysis.restartAfterUnknown") == "true" {
        return Err(ConfigError { message: format!("restartAlgorithm.configFiles: `{name}` is itself a restart configuration") });
    }
    c.set("analysis.intModel", parent.get("analysis.intModel"))?;
    // Stage limits: restartAlgorithm.stageSteps, else a limit set on the
    // restart configuration itself (e.g. --max-steps), else the stage's own.
    let stage_steps = parent.get("restartAlgorithm.stageSteps");
    if stage_steps != "0" {
        c.set("limits.steps", stage_steps)?;
    } else if parent.origin("limits.steps").is_some() {
        c.set("limits.steps", parent.get("limits.steps"))?;
    }
    if parent.origin("limits.states").is_some() {
        c.set("limits.states", parent.get("limits.states"))?;
    }
    c.set("restartAlgorithm.stageTimeMs", parent.get("restartAlgorithm.stageTimeMs"))?;
    Ok(c)
}

impl Stage {
    fn new(program: &Arc<Program>, name: String, config: Config, record_views: bool) -> Result<Stage, ConfigError> {
        let cegar = config.get("analysis.algorithm.CEGAR") == "true";
        let precision = Arc::new(VarPrecision::empty());
        let analysis = if cegar {
            build_analysis_refined(program.clone(), &config, record_views, Some(&precision))?
        } else {
            build_analysis(program.clone(), &config, record_views)?
        };
        let second = Some(config.get("counterexample.checker.config").to_string()).filter(|s| !s.is_empty());
        if let Some(s) = &second {
            Config::load(s)?;
        }
        Ok(Stage {
            name,
            cegar,
            check: config.get("analysis.checkCounterexamples") == "true",
            second,
            backup: config.get("cegar.backupRefiner") != "NONE",
            pivot: config.get("cegar.restart") == "PIVOT",
            max_refinements: config.get("cegar.maxIterations").parse().unwrap_or(50),
            time_limit_ms: config.get("restartAlgorithm.stageTimeMs").parse().unwrap_or(0),
            config,
            analysis,
            precision,
            refinements: 0,
            #[cfg(not(target_arch = "wasm32"))]
            started: std::time::Instant::now(),
        })
    }

    fn over_time(&self) -> bool {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.time_limit_ms > 0 && self.started.elapsed().as_millis() as u64 > self.time_limit_ms
        }
        #[cfg(target_arch = "wasm32")]
        {
            false
        }
    }
}

impl Verifier {
    /// The verifier for `config` on `program` (no solver: error paths the
    /// cheap checks cannot decide stay unconfirmed; see [`Self::with_solver`]).
    /// A configuration [`crate::validate::validate_for`] rejects is an error.
    pub fn new(program: Arc<Program>, config: &Config, record_views: bool) -> Result<Verifier, ConfigError> {
        crate::validate::validate_for(config, &program)?;
        let stages: Vec<(String, Config)> = if config.get("analysis.restartAfterUnknown") == "true" {
            let names: Vec<String> = config
                .get("restartAlgorithm.configFiles")
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            if names.is_empty() {
                return Err(ConfigError {
                    message: "analysis.restartAfterUnknown = true needs restartAlgorithm.configFiles".into(),
                });
            }
            let mut out = Vec::new();
            for n in names {
                let c = stage_config(&n, config)?;
                out.push((n, c));
            }
            out
        } else {
            vec![(config.source.clone(), config.clone())]
        };
        let (name, first) = stages[0].clone();
        let stage = Stage::new(&program, name, first, record_views)?;
        Ok(Verifier {
            program,
            record_views,
            stages,
            stage_index: 0,
            stage,
            pending: VecDeque::new(),
            solver: None,
            parked: None,
            detached: false,
            done: false,
            started: false,
            iteration: 1,
            queries: 0,
            outcome: None,
            confirmed: None,
            int_model_caveat: None,
            error_path: None,
            inputs: Vec::new(),
        })
    }

    /// Uses `solver` for the precise check (SSA path formula).
    pub fn with_solver(mut self, solver: Box<dyn SolverBackend + Send>) -> Verifier {
        self.solver = Some(solver);
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

    /// The next event, or `None` after [`Event::AnalysisFinished`].
    pub fn next_event(&mut self) -> Option<Event> {
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

    /// The events of one waitlist pop (see [`crate::Reachability::step`]).
    pub fn step(&mut self) -> Vec<Event> {
        let mut out = Vec::new();
        let mut popped = false;
        while let Some(e) = self.peek() {
            if matches!(e, Event::WaitlistPop { .. }) {
                if popped {
                    return out;
                }
                popped = true;
            }
            out.extend(self.pending.pop_front());
        }
        out
    }

    fn peek(&mut self) -> Option<&Event> {
        if self.pending.is_empty() {
            let e = self.next_event()?;
            self.pending.push_front(e);
        }
        self.pending.front()
    }

    /// Runs to the end and returns all remaining events.
    pub fn run(&mut self) -> Vec<Event> {
        let mut out = Vec::new();
        while let Some(e) = self.next_event() {
            out.push(e);
        }
        out
    }

    /// Runs to the end, handing each event to `f`.
    pub fn run_with(&mut self, mut f: impl FnMut(&Event)) {
        while let Some(e) = self.next_event() {
            f(&e);
        }
    }

    /// Whether the run is over (all events handed out).
    pub fn is_finished(&self) -> bool {
        self.done && self.pending.is_empty()
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
                if self.detached {
                    s.analysis.set_solver(None);
                }
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
        if verdict != Verdict::False || !(stage.cegar || stage.check) {
            if verdict == Verdict::False {
                self.error_path = stage.analysis.error_path();
                self.confirmed = Some(false);
            }
            return self.stage_end(verdict, reason);
        }
        let path = stage.analysis.error_path().unwrap_or_default();
        let target = stage.analysis.target().unwrap_or(StateId(0));
        // The reachability run's reason says "unconfirmed"; this check decides.
        let reason = match reason.find("; the error path is unconfirmed") {
            Some(i) => reason[..i].to_string(),
            None => reason,
        };
        if let Some(check) = self.cheap_checks(&path) {
            return self.decide(target, path, reason, check);
        }
        let formula = crate::ssa::path_formula(&self.program, &path, self.stage.config.int_model());
        match self.solver.as_mut() {
            Some(solver) => {
                let output = solver.solve_text(&formula.smtlib);
                let check = self.answered(&path, &formula, &output);
                self.decide(target, path, reason, check);
            }
            None => {
                // Park until the driver answers (the page's z3-solver).
                let query = SolverQuery { id: self.queries, smtlib: formula.smtlib.clone() };
                self.parked = Some(ParkedCheck { query, path, target, reason, formula });
            }
        }
    }

    /// Acts on the check of the error path ending in `target`: FALSE when
    /// confirmed, refinement (CEGAR) or UNKNOWN otherwise.
    fn decide(&mut self, target: StateId, path: Vec<EdgeId>, reason: String, check: PathCheck) {
        self.emit(Event::Counterexample {
            target,
            feasible: check.feasible,
            description: check.description.clone(),
            path: path.clone(),
            check: check.check.clone(),
            inputs: check.inputs.iter().map(|v| v.to_string()).collect(),
            confirmed: check.confirmed,
        });
        if check.confirmed {
            self.error_path = Some(path);
            self.confirmed = Some(true);
            self.inputs = check.inputs.clone();
            let inputs = check.inputs.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
            let reason = format!(
                "{reason}; the error path is feasible and confirmed: the concrete interpreter reaches the error location with inputs [{inputs}] ({})",
                check.check
            );
            return self.stage_end(Verdict::False, reason);
        }
        match check.feasible {
            Some(false) if self.stage.cegar => self.refine(path, &check),
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

    /// CEGAR: refine the precision with the infeasible `path` and restart.
    fn refine(&mut self, path: Vec<EdgeId>, check: &PathCheck) {
        let model = self.stage.config.int_model();
        let old = (*self.stage.precision).clone();
        let mut new = old.clone();
        let mut interpolants: Vec<Interpolant> = Vec::new();
        let (refiner, grew) = match interpolate(&self.program, &path, model, INTERPOLATION_BUDGET) {
            Some(its) => {
                let grew = refine_with_interpolants(&mut new, &its);
                interpolants = its;
                ("interpolation", grew)
            }
            None if self.stage.backup => {
                let mut grew = false;
                for v in assumption_closure(&self.program, &path) {
                    grew |= new.add_global(v);
                }
                ("assumptions", grew)
            }
            None => {
                return self.stage_end(
                    Verdict::Unknown,
                    format!("the error path is infeasible ({}) but explicit-value interpolation cannot refute it (cegar.backupRefiner = NONE)", check.check),
                )
            }
        };
        if !grew {
            return self.stage_end(
                Verdict::Unknown,
                format!(
                    "CEGAR made no progress: the {refiner} refiner found nothing new to track for the infeasible error path ({}), so the same counterexample would be found again",
                    check.check
                ),
            );
        }
        if self.stage.refinements >= self.stage.max_refinements {
            return self.stage_end(
                Verdict::Unknown,
                format!("CEGAR gave up after cegar.maxIterations = {} refinements", self.stage.max_refinements),
            );
        }
        self.stage.refinements += 1;
        let name = |v: &cfa::VarId| self.program.variables.get(v.0 as usize).map(|x| x.qualified.clone()).unwrap_or_default();
        let entry = |l: Option<cfa::NodeId>, v: cfa::VarId| PrecisionEntry { location: l, var: v, name: name(&v) };
        let added: Vec<PrecisionEntry> = new.added_since(&old).into_iter().map(|(l, v)| entry(l, v)).collect();
        let mut tracked: Vec<PrecisionEntry> = new.global.iter().map(|v| entry(None, *v)).collect();
        for (l, s) in &new.local {
            tracked.extend(s.iter().map(|v| entry(Some(*l), *v)));
        }
        let views: Vec<InterpolantView> = interpolants
            .iter()
            .map(|it| InterpolantView {
                position: it.position,
                edge: it.edge,
                location: it.location,
                text: match &it.bindings {
                    None => "false".into(),
                    Some(b) => {
                        format!("{{{}}}", b.iter().map(|(v, x)| format!("{}={x}", name(v))).collect::<Vec<_>>().join(", "))
                    }
                },
            })
            .collect();
        let added_text = added
            .iter()
            .map(|e| match e.location {
                Some(l) => format!("{} at {l}", e.name),
                None => format!("{} everywhere", e.name),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let precision_text = new.describe(&self.program);
        let iteration = self.stage.refinements as u32;
        self.emit(Event::Refinement {
            precision: precision_text.clone(),
            reason: format!("the error path is infeasible ({}); the {refiner} refiner adds {added_text}", check.check),
            iteration,
            refiner: refiner.into(),
            path,
            interpolants: views,
            added,
            tracked,
        });
        let precision = Arc::new(new);
        if self.stage.pivot {
            if let Some(pivot) = self.pivot(&old, &precision) {
                let parent_precision = match self.stage.analysis.record(pivot).map(|r| r.origin.clone()) {
                    Some(crate::trace::Origin::Transfer { parent, .. }) => {
                        self.stage.analysis.record(parent).map(|r| (*r.precision).clone())
                    }
                    _ => None,
                };
                if let Some(p) = parent_precision {
                    let refined = with_refined_parts(&p, &precision);
                    if self.stage.analysis.prune_subtree(pivot, refined).is_ok() {
                        self.stage.precision = precision;
                        self.iteration += 1;
                        return;
                    }
                }
            }
        }
        match build_analysis_refined(self.program.clone(), &self.stage.config, self.record_views, Some(&precision)) {
            Ok(mut a) => {
                if self.detached {
                    a.set_solver(None);
                }
                self.stage.analysis = a;
                self.stage.precision = precision;
                self.iteration += 1;
                self.emit(Event::Restart {
                    configuration: format!(
                        "{}, CEGAR iteration {} from the initial state, precision {precision_text}",
                        self.stage.name,
                        iteration + 1
                    ),
                    iteration: self.iteration,
                });
            }
            Err(e) => self.finish(Verdict::Unknown, e.message),
        }
    }

    /// The pivot of the refinement `old` → `new` on the current error path:
    /// the ARG state (a transfer successor) at the first path position whose
    /// location's precision grew.
    fn pivot(&self, old: &VarPrecision, new: &VarPrecision) -> Option<StateId> {
        let a = &self.stage.analysis;
        // (transfer successor, location after the edge), from the target back.
        let mut along = Vec::new();
        let mut cur = a.target()?;
        loop {
            let r = a.record(cur)?;
            match &r.origin {
                crate::trace::Origin::Initial => break,
                crate::trace::Origin::Transfer { parent, .. } => {
                    along.push((cur, r.location));
                    cur = *parent;
                }
                crate::trace::Origin::Precision { of } => cur = *of,
                crate::trace::Origin::Merge { new, .. } => cur = *new,
            }
        }
        along.reverse();
        let grew = |l: Option<cfa::NodeId>| new.variables().iter().any(|v| new.tracks(l, *v) && !old.tracks(l, *v));
        along.into_iter().find(|(_, l)| grew(*l)).map(|(s, _)| s)
    }

    /// The cheap checks of an error path: refutation by explicit values, by
    /// the octagon (or the second configuration), confirmation by replaying
    /// all-zero inputs. `None`: the precise check must decide.
    fn cheap_checks(&mut self, path: &[EdgeId]) -> Option<PathCheck> {
        let model = self.stage.config.int_model();
        let program = self.program.clone();
        if let Some(i) = feasibility::value_infeasible_at(&program, path, model) {
            return Some(PathCheck {
                feasible: Some(false),
                confirmed: false,
                check: "explicit values".into(),
                description: format!(
                    "explicit values refute edge {} of {} ({})",
                    i + 1,
                    path.len(),
                    edge_text(&program, path, i)
                ),
                inputs: vec![],
            });
        }
        if let Some(second) = self.stage.second.clone() {
            if let Some(check) = self.second_configuration(&second, path) {
                return Some(check);
            }
        } else if let Some(i) = feasibility::octagon_infeasible_at(&program, path, model) {
            return Some(PathCheck {
                feasible: Some(false),
                confirmed: false,
                check: "octagon".into(),
                description: format!(
                    "the octagon along the path becomes ⊥ at edge {} of {} ({})",
                    i + 1,
                    path.len(),
                    edge_text(&program, path, i)
                ),
                inputs: vec![],
            });
        }
        // The simplest inputs first: no solver needed when they work.
        let count = crate::ssa::path_formula(&program, path, model).inputs.len();
        let zeros = vec![0; count];
        let run = feasibility::replay(&program, &zeros, model, replay_steps(path));
        if matches!(run.outcome, concrete::Outcome::ReachedError { .. }) {
            return Some(PathCheck {
                feasible: Some(true),
                confirmed: true,
                check: "replay with zero inputs".into(),
                description: format!("the concrete interpreter reaches the error location ({})", run.outcome),
                inputs: zeros,
            });
        }
        None
    }

    /// The second configuration on the CFA restricted to the path's edges:
    /// TRUE there proves the path infeasible.
    fn second_configuration(&mut self, name: &str, path: &[EdgeId]) -> Option<PathCheck> {
        let mut config = Config::load(name).ok()?;
        config.set("analysis.intModel", self.stage.config.get("analysis.intModel")).ok()?;
        config.set("limits.steps", "2000").ok()?;
        let restricted = Arc::new(feasibility::restrict_to_path(&self.program, path));
        let mut a = build_analysis(restricted, &config, false).ok()?;
        a.run_with(|_| {});
        match a.outcome() {
            Some((Verdict::True, _)) => Some(PathCheck {
                feasible: Some(false),
                confirmed: false,
                check: name.to_string(),
                description: format!(
                    "{name} on the CFA restricted to the path's {} edges proves the error location unreachable",
                    path.len()
                ),
                inputs: vec![],
            }),
            _ => None,
        }
    }

    /// The solver's `output` for the path formula of `path`: records the
    /// query, and on `sat` replays the model's inputs concretely.
    fn answered(&mut self, path: &[EdgeId], formula: &crate::ssa::PathFormula, output: &str) -> PathCheck {
        let model = self.stage.config.int_model();
        let response = parse_response(output);
        self.emit(Event::SolverQuery {
            id: self.queries,
            smtlib: formula.smtlib.clone(),
            answer: response.status().as_str().into(),
        });
        self.queries += 1;
        match response.status() {
            Status::Unsat => PathCheck {
                feasible: Some(false),
                confirmed: false,
                check: "SMT".into(),
                description: format!("the SSA path formula of the {} edges is unsatisfiable", path.len()),
                inputs: vec![],
            },
            Status::Sat => {
                let inputs: Vec<i128> =
                    formula.inputs.iter().map(|i| crate::ssa::input_value(i, &response.model).unwrap_or(0)).collect();
                let run = feasibility::replay(&self.program, &inputs, model, replay_steps(path));
                if matches!(run.outcome, concrete::Outcome::ReachedError { .. }) {
                    return PathCheck {
                        feasible: Some(true),
                        confirmed: true,
                        check: "SMT model + concrete replay".into(),
                        description: format!("the concrete interpreter reaches the error location ({})", run.outcome),
                        inputs,
                    };
                }
                PathCheck {
                    feasible: if formula.approximated { None } else { Some(true) },
                    confirmed: false,
                    check: "SMT".into(),
                    description: format!(
                        "the path formula is satisfiable but replaying the model's inputs does not reach the error location ({})",
                        run.outcome
                    ),
                    inputs,
                }
            }
            Status::Unknown => PathCheck {
                feasible: None,
                confirmed: false,
                check: "SMT".into(),
                description: format!(
                    "the solver could not decide the path formula ({})",
                    response.reason().unwrap_or_else(|| "no reason given".into())
                ),
                inputs: vec![],
            },
        }
    }

    /// The query the run is parked on — the path formula of an error path
    /// (when no solver is attached) or a query of the running analysis's
    /// CPAs — if any. Answer it with [`Self::answer_query`].
    pub fn pending_query(&self) -> Option<&SolverQuery> {
        match &self.parked {
            Some(p) => Some(&p.query),
            None => self.stage.analysis.pending_query(),
        }
    }

    /// Resumes a parked run with the solver's output text (`sat`, `unsat`
    /// or `unknown` first, then a model). Does nothing when not parked.
    pub fn answer_query(&mut self, solver_output: &str) {
        match self.parked.take() {
            Some(p) => {
                let check = self.answered(&p.path, &p.formula, solver_output);
                self.decide(p.target, p.path, p.reason, check);
            }
            None => self.stage.analysis.answer_query(solver_output),
        }
    }

    /// Attaches (or, with `None`, detaches) the solver that answers queries
    /// inside the run — the path formulas and the running analysis's. In
    /// the page none is attached: the run parks on each query.
    pub fn set_solver(&mut self, backend: Option<Box<dyn SolverBackend + Send>>) {
        self.detached = backend.is_none();
        if self.detached {
            self.stage.analysis.set_solver(None);
        }
        self.solver = backend;
    }
}

/// `p` with every refinable component precision (Value, Octagon) replaced
/// by the refined `precision`.
fn with_refined_parts(p: &CompositePrecision, precision: &Arc<VarPrecision>) -> CompositePrecision {
    let parts = p
        .parts
        .iter()
        .map(|part| {
            if let Some(ValuePrecision::Refined(_)) = part.as_any().downcast_ref::<ValuePrecision>() {
                Arc::new(ValuePrecision::Refined(precision.clone())) as ErasedPrecision
            } else if let Some(OctagonPrecision::Refined(_)) = part.as_any().downcast_ref::<OctagonPrecision>() {
                Arc::new(OctagonPrecision::Refined(precision.clone())) as ErasedPrecision
            } else {
                part.clone()
            }
        })
        .collect();
    CompositePrecision { parts }
}

/// How many edges a replay may take: the path's length and then some.
fn replay_steps(path: &[EdgeId]) -> usize {
    path.len().saturating_mul(4).saturating_add(100_000)
}

/// An error path waiting for the solver's answer to its path formula.
struct ParkedCheck {
    query: SolverQuery,
    path: Vec<EdgeId>,
    target: StateId,
    reason: String,
    formula: crate::ssa::PathFormula,
}

fn edge_text(program: &Program, path: &[EdgeId], i: usize) -> String {
    path.get(i).and_then(|e| program.edges.get(e.0 as usize)).map(|e| format!("line {}: {}", e.line, e.label)).unwrap_or_default()
}

/// Builds the [`Verifier`] a configuration describes, with the native Z3
/// when it is installed (not in the browser).
pub fn build_verifier(program: Arc<Program>, config: &Config, record_views: bool) -> Result<Verifier, ConfigError> {
    let v = Verifier::new(program, config, record_views)?;
    #[cfg(not(target_arch = "wasm32"))]
    let v = v.with_native_solver();
    Ok(v)
}
