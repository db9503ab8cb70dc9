//! The explorer of a transformed program: control-explicit, data-abstract
//! state-space exploration (abstraction as a program transformation,
//! `transform`), as a [`Stepper`] that emits the same events as the CPA
//! runs, so the CLI and the page step it the same way.
//!
//! ```text
//! program ─transform::transform─▶ transformed program (lift, a_op, freeze/thaw)
//!   explorer: DFS over states (location, call stack, concrete data, abstract values)
//!     pop ─▶ every outgoing edge: run the transformed edge (exec.rs)
//!        ├─ no successor: concrete assume false │ the domain rules the choice
//!        │   out (BranchPruned) │ undefined operation ends the path
//!        └─ successor ─▶ stored before? (same control and concrete data, and
//!             parity/sign: equal values │ term: the solver says its values
//!             are among the stored state's — an equivalence check, counted)
//!             ├─ yes: Stop (covered)
//!             └─ no: stored (ReachedAdd), pushed; error location ─▶ target
//!   target ─▶ term: a model of the path condition ─▶ concrete replay ─▶ FALSE
//!             (confirmed) │ parity/sign: replays of simple inputs ─▶ FALSE,
//!             confirmed only when one reaches the error
//!   waitlist empty ─▶ TRUE │ limits.steps / limits.states ─▶ UNKNOWN
//! ```
//!
//! Soundness: an abstract choice is explored whenever the domain allows it
//! (parity/sign: the value may be non-zero, or zero; terms: not `unsat`,
//! so `unknown` explores), a state is dropped only when an equal (or, for
//! terms, solver-proved including) state was stored, and TRUE only comes
//! from an empty waitlist.
//!
//! Every solver query goes through the run's [`SolverOracle`]: with a back
//! end attached (natively) it is answered at once, otherwise the run parks
//! ([`Stepper::pending_query`]) and the same edge runs again after
//! [`Stepper::answer_query`].

pub mod exec;
pub mod state;

use crate::solver::{Ask, SolverOracle, SolverQuery};
use crate::stepper::Stepper;
use crate::trace::{Event, Origin, PruneReason, RunInfo, StateId, StopKind, Verdict};
use cfa::{EdgeId, NodeId, Program};
use exec::{EdgeResult, Exec, NoSuccessor};
use smt::{SolverBackend, Status};
use state::{ControlKey, XState};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use transform::value::Ops;
use transform::{Domain, Transformed};

/// How an exploration runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerOptions {
    /// The transformation (domain, lifted values, integer model).
    pub transform: transform::Options,
    /// At most this many waitlist pops, then UNKNOWN.
    pub max_steps: Option<u64>,
    /// At most this many stored states, then UNKNOWN.
    pub max_states: Option<usize>,
    /// At most this many milliseconds of wall-clock time (0: no limit),
    /// then UNKNOWN (`restartAlgorithm.stageTimeMs`, which bounds a run's
    /// time in every algorithm; in the page it includes waiting for Z3).
    pub time_limit_ms: u64,
    /// Whether states carry their view in the trace.
    pub record_views: bool,
    /// The concrete-only configuration: concrete inputs in order (with
    /// `transform.lift = NONE`); `None`: inputs are lifted.
    pub inputs: Option<Vec<i128>>,
    /// The effective configuration, recorded in the trace.
    pub properties: BTreeMap<String, String>,
}

impl ExplorerOptions {
    /// The options a configuration describes (`transform.domain`,
    /// `transform.lift`, `analysis.intModel`, `limits.steps`,
    /// `limits.states`, `restartAlgorithm.stageTimeMs`); inputs are lifted.
    pub fn from_config(config: &crate::Config, record_views: bool) -> Result<ExplorerOptions, crate::ConfigError> {
        let bad = |e: String| crate::ConfigError { message: e };
        let domain = config.get("transform.domain").parse().map_err(bad)?;
        let lift = config.get("transform.lift").parse().map_err(bad)?;
        let limits = config.algorithm_options();
        Ok(ExplorerOptions {
            transform: transform::Options { domain, lift, variables: Vec::new(), model: config.int_model() },
            max_steps: limits.max_steps,
            max_states: limits.max_states,
            time_limit_ms: config.get("restartAlgorithm.stageTimeMs").parse().unwrap_or(0),
            record_views,
            inputs: None,
            properties: config.effective(),
        })
    }
}

/// How many edges a replay of an error path's inputs may take (at least
/// the path's own length).
pub const REPLAY_STEPS: usize = 20_000;

/// After this many inclusion checks at a location that did not cover
/// (satisfiable, or no answer in time), the location's new states are only
/// compared syntactically: the checks cost solver time and a location where
/// they keep failing is likely not to converge by them (only coverage, never
/// soundness, is lost).
pub const MAX_FAILED_CHECKS_PER_LOCATION: u32 = 16;

/// How many stored states with the same control a new term state is
/// compared with (the most recent first).
pub const MAX_EQUIVALENCE_CANDIDATES: usize = 4;

struct Record {
    state: XState,
    parent: Option<(StateId, EdgeId)>,
}

#[derive(Clone, Debug)]
enum Phase {
    Start,
    Pop,
    /// `done`: how many successors of edge `next` were already handled
    /// (an edge lowered to several values has several).
    Edges {
        popped: StateId,
        edges: Vec<EdgeId>,
        next: usize,
        done: usize,
    },
    Confirm {
        target: StateId,
    },
    Done,
}

/// The explorer (see the module docs).
pub struct Explorer {
    program: Arc<Program>,
    transformed: Transformed,
    ops: Ops,
    options: ExplorerOptions,
    oracle: Arc<SolverOracle>,
    solver: Option<Box<dyn SolverBackend + Send>>,
    states: Vec<Record>,
    stored: BTreeMap<ControlKey, Vec<StateId>>,
    stored_count: usize,
    /// Per location, the inclusion checks that did not cover.
    failed_checks: BTreeMap<NodeId, u32>,
    waitlist: Vec<StateId>,
    phase: Phase,
    parked: Option<SolverQuery>,
    pending: VecDeque<Event>,
    steps: u64,
    queries: u32,
    mid_step: bool,
    outcome: Option<(Verdict, String)>,
    confirmed: Option<bool>,
    error_path: Option<Vec<EdgeId>>,
    inputs: Vec<i128>,
    /// Why some behaviour was not explored (an abstract address the domain
    /// could not lower soundly): an empty waitlist then means UNKNOWN.
    incomplete: Option<String>,
    started: Option<crate::restart::WallClock>,
}

impl Explorer {
    /// An explorer of `program` transformed as `options` says; an error
    /// names a `--lift` variable the program does not have.
    pub fn new(program: Arc<Program>, options: ExplorerOptions) -> Result<Explorer, String> {
        let transformed = transform::transform(&program, &options.transform)?;
        let ops = Ops { domain: options.transform.domain, model: options.transform.model };
        Ok(Explorer {
            program,
            transformed,
            ops,
            options,
            oracle: SolverOracle::new(),
            solver: None,
            states: Vec::new(),
            stored: BTreeMap::new(),
            stored_count: 0,
            failed_checks: BTreeMap::new(),
            waitlist: Vec::new(),
            phase: Phase::Start,
            parked: None,
            pending: VecDeque::new(),
            steps: 0,
            queries: 0,
            mid_step: false,
            outcome: None,
            confirmed: None,
            error_path: None,
            inputs: Vec::new(),
            incomplete: None,
            started: None,
        })
    }

    /// Attaches (or detaches) the solver that answers queries at once.
    pub fn set_solver(&mut self, backend: Option<Box<dyn SolverBackend + Send>>) {
        self.solver = backend;
    }

    /// The transformed program the explorer runs.
    pub fn transformed(&self) -> &Transformed {
        &self.transformed
    }

    /// The verdict and its reason, once decided.
    pub fn outcome(&self) -> Option<(Verdict, &str)> {
        self.outcome.as_ref().map(|(v, r)| (*v, r.as_str()))
    }

    /// For FALSE: whether a concrete replay reached the error location.
    pub fn confirmed(&self) -> Option<bool> {
        self.confirmed
    }

    /// For FALSE: the error path (CFA edges from `main`'s entry).
    pub fn error_path(&self) -> Option<&[EdgeId]> {
        self.error_path.as_deref()
    }

    /// For a confirmed FALSE: the inputs that reach the error.
    pub fn inputs(&self) -> &[i128] {
        &self.inputs
    }

    fn emit(&mut self, e: Event) {
        self.pending.push_back(e);
    }

    fn finish(&mut self, verdict: Verdict, reason: String) {
        let mut reason = reason;
        for note in self.oracle.summary() {
            reason.push_str("; ");
            reason.push_str(&note);
        }
        self.outcome = Some((verdict, reason.clone()));
        self.emit(Event::AnalysisFinished { verdict, reason, int_model_caveat: None });
        self.phase = Phase::Done;
    }

    fn info(&self) -> RunInfo {
        RunInfo {
            cpas: vec![format!("TransformExplorer({})", self.ops.domain)],
            merge: None,
            order: "DFS".into(),
            int_model: self.ops.model,
            properties: self.options.properties.clone(),
        }
    }

    fn create(&mut self, state: XState, parent: Option<(StateId, EdgeId)>) -> StateId {
        let id = StateId(self.states.len() as u32);
        let origin = match parent {
            None => Origin::Initial,
            Some((p, e)) => Origin::Transfer { parent: p, edge: e },
        };
        let view = self.options.record_views.then(|| state.view(&self.program, self.ops.domain.name()));
        self.emit(Event::StateCreated { state: id, location: Some(state.node), callstack: state.call_stack(), origin, view });
        self.states.push(Record { state, parent });
        id
    }

    /// Stores `id` and puts it on the waitlist; true when it is a target
    /// or a limit ended the run.
    fn store(&mut self, id: StateId) -> bool {
        let state = &self.states[id.0 as usize].state;
        self.stored.entry(state.control_key()).or_default().push(id);
        self.stored_count += 1;
        self.emit(Event::ReachedAdd { state: id });
        let node = self.states[id.0 as usize].state.node;
        if self.program.node(node).error {
            self.emit(Event::TargetReached { state: id, location: node });
            self.phase = Phase::Confirm { target: id };
            return true;
        }
        self.waitlist.push(id);
        self.emit(Event::WaitlistPush { state: id, index: 0 });
        if let Some(max) = self.options.max_states {
            if self.stored_count > max {
                self.finish(Verdict::Unknown, format!("state limit reached: limits.states = {max} stored states"));
                return true;
            }
        }
        false
    }

    fn exec(&self) -> Exec<'_> {
        Exec {
            program: &self.program,
            transformed: &self.transformed,
            ops: self.ops,
            inputs: self.options.inputs.as_deref(),
            oracle: &self.oracle,
        }
    }

    /// Which stored state covers `s`, and how it was decided; `Err` when a
    /// solver query is pending.
    fn covered_by(&self, s: &XState) -> Result<Option<(StateId, String)>, ()> {
        let Some(candidates) = self.stored.get(&s.control_key()) else { return Ok(None) };
        let values = s.abstract_values();
        if self.ops.domain != Domain::Term {
            return Ok(candidates
                .iter()
                .find(|c| self.states[c.0 as usize].state.abstract_values() == values)
                .map(|c| (*c, "equal values".to_string())));
        }
        let terms = s.terms();
        let budget_left = self.failed_checks.get(&s.node).copied().unwrap_or(0) < MAX_FAILED_CHECKS_PER_LOCATION;
        for c in candidates.iter().rev().take(MAX_EQUIVALENCE_CANDIDATES) {
            let old = &self.states[c.0 as usize].state;
            let old_terms = old.terms();
            if old_terms == terms && old.path.condition == s.path.condition {
                return Ok(Some((*c, "syntactic equality of terms and path condition".into())));
            }
            if !budget_left {
                continue;
            }
            let pairs: Vec<_> = terms.iter().cloned().zip(old_terms).collect();
            let script = self.ops.term_encoding().inclusion_script(&s.path, &old.path, &pairs);
            match self.oracle.ask(&script) {
                Ask::Pending => return Err(()),
                Ask::Answer(r) if r.status() == Status::Unsat => {
                    return Ok(Some((*c, "solver equivalence check (its values are among the stored state's)".into())))
                }
                Ask::Answer(_) => {}
            }
        }
        Ok(None)
    }

    /// Parks on the oracle's pending query (answered at once when a solver
    /// is attached).
    fn park(&mut self) {
        let Some(script) = self.oracle.take_pending() else { return };
        let query = SolverQuery { id: self.queries, smtlib: script };
        self.queries += 1;
        // No query may outlast the run's time limit (see `time_left`).
        let left = self.time_left();
        match self.solver.as_mut() {
            Some(b) => {
                if let Some(left) = left {
                    b.limit_next(left);
                }
                let out = b.solve_text(&query.smtlib);
                self.record_answer(query, &out);
            }
            None => self.parked = Some(query),
        }
    }

    /// What is left of `restartAlgorithm.stageTimeMs` (at least 1 ms), once
    /// the run started; `None` without a limit. An attached back end's
    /// query gets no more than this ([`smt::SolverBackend::limit_next`]),
    /// so a hard query cannot keep the run past its limit.
    pub(crate) fn time_left(&self) -> Option<std::time::Duration> {
        self.started?.left_of(self.options.time_limit_ms)
    }

    fn record_answer(&mut self, query: SolverQuery, output: &str) {
        let response = smt::parse_response(output);
        let answer = response.status().as_str().to_string();
        self.oracle.record(&query.smtlib, response);
        self.emit(Event::SolverQuery { id: query.id, smtlib: query.smtlib, answer });
    }

    fn edge_step(&mut self, popped: StateId, edges: Vec<EdgeId>, next: usize, done: usize) {
        let Some(&edge) = edges.get(next) else {
            self.phase = Phase::Pop;
            return;
        };
        let e = self.program.edge(edge).clone();
        let result = self.exec().run(&self.states[popped.0 as usize].state, edge);
        // `pruned`: why the domain ruled the edge out, when it did.
        let (states, incomplete, pruned) = match result {
            EdgeResult::Pending => {
                self.phase = Phase::Edges { popped, edges, next, done };
                return self.park();
            }
            EdgeResult::None(NoSuccessor::Pruned(detail)) => (Vec::new(), None, Some(detail)),
            EdgeResult::None(_) => (Vec::new(), None, None),
            EdgeResult::Next { states, incomplete } => (states, incomplete, None),
        };
        if let Some(why) = incomplete {
            if self.incomplete.is_none() {
                let line = e.line;
                self.incomplete = Some(format!("at line {line} ({}): {why}", e.label));
            }
        }
        if states.is_empty() {
            self.emit(Event::Transfer {
                from: popped,
                edge,
                source: e.source,
                target: e.target,
                label: e.label,
                successors: vec![],
            });
            if let Some(detail) = pruned {
                self.emit(Event::BranchPruned {
                    from: popped,
                    edge,
                    location: e.target,
                    reason: PruneReason::Infeasible,
                    detail,
                });
            }
            self.phase = Phase::Edges { popped, edges, next: next + 1, done: 0 };
            return;
        }
        let count = states.len();
        for (i, succ) in states.into_iter().enumerate().skip(done) {
            let covered = match self.covered_by(&succ) {
                Err(()) => {
                    self.phase = Phase::Edges { popped, edges, next, done: i };
                    return self.park();
                }
                Ok(c) => c,
            };
            self.phase = if i + 1 < count {
                Phase::Edges { popped, edges: edges.clone(), next, done: i + 1 }
            } else {
                Phase::Edges { popped, edges: edges.clone(), next: next + 1, done: 0 }
            };
            let id = self.create(succ, Some((popped, edge)));
            self.emit(Event::Transfer {
                from: popped,
                edge,
                source: e.source,
                target: e.target,
                label: e.label.clone(),
                successors: vec![id],
            });
            if covered.is_none() && self.ops.domain == Domain::Term {
                // Every solver check made for this state failed (each candidate
                // with different terms or path condition was asked once).
                let s = &self.states[id.0 as usize].state;
                let asked = self.stored.get(&s.control_key()).map_or(0, |c| c.len().min(MAX_EQUIVALENCE_CANDIDATES)) as u32;
                *self.failed_checks.entry(s.node).or_default() += asked;
            }
            let (is_covered, covered_by, decided_by) = match covered {
                Some((c, how)) => (true, vec![c], Some(how)),
                None => (false, vec![], None),
            };
            self.emit(Event::Stop { state: id, operator: StopKind::Sep, covered: is_covered, covered_by, decided_by });
            if !is_covered && self.store(id) {
                // A target, or a limit ended the run.
                return;
            }
        }
    }

    fn path_to(&self, id: StateId) -> Vec<EdgeId> {
        let mut path = Vec::new();
        let mut cur = id;
        while let Some((p, e)) = self.states[cur.0 as usize].parent {
            path.push(e);
            cur = p;
        }
        path.reverse();
        path
    }

    fn confirm(&mut self, target: StateId) {
        let path = self.path_to(target);
        let node = self.states[target.0 as usize].state.node;
        let line = self.program.node(node).line;
        let model = self.ops.model;
        let (inputs, check) = if let Some(list) = &self.options.inputs {
            (vec![list.clone()], "replay")
        } else if self.ops.domain == Domain::Term {
            let st = &self.states[target.0 as usize].state;
            let q = self.ops.term_encoding().model_query(&st.path);
            let script = q.to_smtlib();
            match self.oracle.ask(&script) {
                Ask::Pending => return self.park(),
                Ask::Answer(r) => {
                    let values: Vec<i128> = st
                        .path
                        .inputs
                        .iter()
                        .map(|(name, ty)| match r.model.get(name.as_str()) {
                            Some(smt::Value::Int(v)) => *v,
                            Some(smt::Value::Bv { value, width }) if ty.is_signed() => smt::term::bv_signed(*value, *width),
                            Some(smt::Value::Bv { value, .. }) => *value as i128,
                            _ => 0,
                        })
                        .collect();
                    (vec![values], "smt+replay")
                }
            }
        } else {
            // Parity and sign keep no inputs: try zeros and a few small values.
            let n = self.program.edges.len().max(8);
            let mut tries = vec![vec![0; n]];
            for k in [1i128, -1, 2, 3] {
                tries.push(vec![k; n]);
            }
            (tries, "replay of simple inputs")
        };
        let mut confirmed = None;
        // The interpreter needs about the error path's length when it
        // follows the same path; a simple input vector gets a bounded try.
        let max_steps = (path.len() + 1).max(REPLAY_STEPS);
        for list in &inputs {
            let mut src = concrete::SliceInputs::new(list.clone());
            let run = concrete::execute(&self.program, &mut src, concrete::Options { model, max_steps, record_states: false });
            if matches!(run.outcome, concrete::Outcome::ReachedError { .. }) {
                confirmed = Some(run.inputs.iter().map(|u| u.value).collect::<Vec<_>>());
                break;
            }
        }
        let description = match &confirmed {
            Some(v) => format!(
                "the concrete interpreter reaches the error location with inputs [{}]",
                v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
            ),
            None => format!("no replay reached the error location ({check}); the error path may be spurious"),
        };
        self.emit(Event::Counterexample {
            target,
            feasible: confirmed.as_ref().map(|_| true),
            description,
            path: path.clone(),
            check: check.into(),
            inputs: confirmed.iter().flatten().map(|v| v.to_string()).collect(),
            confirmed: confirmed.is_some(),
        });
        self.error_path = Some(path);
        self.confirmed = Some(confirmed.is_some());
        let domain = self.ops.domain;
        let reason = match &confirmed {
            Some(_) => format!("error location {node} (line {line}) reached by {target}; confirmed by a concrete replay"),
            None => format!(
                "error location {node} (line {line}) reached by {target} in the {domain} domain; the error path is unconfirmed (it may be spurious)"
            ),
        };
        self.inputs = confirmed.unwrap_or_default();
        self.finish(Verdict::False, reason);
    }

    fn advance(&mut self) {
        match std::mem::replace(&mut self.phase, Phase::Done) {
            Phase::Start => {
                self.started = Some(crate::restart::WallClock::now());
                self.emit(Event::AnalysisStarted { info: self.info() });
                let s0 = XState::initial(&self.program);
                let id = self.create(s0, None);
                if !self.store(id) {
                    self.phase = Phase::Pop;
                }
            }
            Phase::Pop => {
                let Some(popped) = self.waitlist.pop() else {
                    let n = self.stored_count;
                    if let Some(why) = self.incomplete.clone() {
                        return self.finish(
                            Verdict::Unknown,
                            format!("every state of the transformed program was explored ({n} stored), but some behaviours were not: {why}"),
                        );
                    }
                    return self.finish(
                        Verdict::True,
                        format!(
                            "every state of the transformed program was explored ({n} stored) and none is at the error location"
                        ),
                    );
                };
                if let Some(max) = self.options.max_steps {
                    if self.steps >= max {
                        let left = self.waitlist.len() + 1;
                        return self.finish(
                            Verdict::Unknown,
                            format!("step limit reached: limits.steps = {max} waitlist pops ({left} states still waiting)"),
                        );
                    }
                }
                let ms = self.options.time_limit_ms;
                if ms > 0 && self.started.is_some_and(|t| t.elapsed_ms() > ms) {
                    let left = self.waitlist.len() + 1;
                    return self.finish(
                        Verdict::Unknown,
                        format!("time limit reached: restartAlgorithm.stageTimeMs = {ms} ({left} states still waiting)"),
                    );
                }
                self.steps += 1;
                self.emit(Event::WaitlistPop { state: popped, step: self.steps });
                let node = self.states[popped.0 as usize].state.node;
                let edges = self.program.node(node).outgoing.clone();
                self.phase = Phase::Edges { popped, edges, next: 0, done: 0 };
            }
            Phase::Edges { popped, edges, next, done } => self.edge_step(popped, edges, next, done),
            Phase::Confirm { target } => {
                self.phase = Phase::Confirm { target };
                self.confirm(target);
            }
            Phase::Done => {}
        }
    }
}

impl Stepper for Explorer {
    fn next_event(&mut self) -> Option<Event> {
        self.peek_event()?;
        self.pending.pop_front()
    }

    fn peek_event(&mut self) -> Option<&Event> {
        while self.pending.is_empty() {
            if self.parked.is_some() || matches!(self.phase, Phase::Done) {
                return None;
            }
            self.advance();
        }
        self.pending.front()
    }

    fn pending_query(&self) -> Option<&SolverQuery> {
        self.parked.as_ref()
    }

    fn answer_query(&mut self, solver_output: &str) {
        if let Some(q) = self.parked.take() {
            self.record_answer(q, solver_output);
        }
    }

    fn is_finished(&self) -> bool {
        matches!(self.phase, Phase::Done) && self.pending.is_empty()
    }

    fn parked_mid_step(&mut self) -> &mut bool {
        &mut self.mid_step
    }
}

/// The explorer's location of a state, for tests.
pub fn location_of(e: &Event) -> Option<NodeId> {
    match e {
        Event::StateCreated { location, .. } => *location,
        _ => None,
    }
}
