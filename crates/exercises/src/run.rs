//! One analysis run an exercise check needs: what to run ([`RunRequest`]),
//! how to start it ([`RunRequest::start`], the page then steps it in
//! slices), and what came out ([`RunResult`], a summary of its events).
//!
//! Runs use the same builders as the playground (`engine::cegar::Verifier`
//! for configurations with CEGAR, counterexample checks or restarts), so an
//! exercise is graded by exactly the analysis the student can step through.

use engine::cegar::Verifier;
use engine::precision::VarPrecision;
use engine::trace::{Event, StateView, Verdict};
use engine::view::{Snapshot, Statistics};
use engine::Stepper;
use engine::{Analysis, Config};
use std::sync::Arc;

/// Every exercise run stops after at most this many steps (waitlist pops),
/// so a check always ends (an exercise may set a lower `limits.steps`).
pub const MAX_STEPS: u64 = 20_000;

/// At most this many events are kept from one run (a safety net; the step
/// limit ends runs long before).
pub const MAX_EVENTS: usize = 2_000_000;

/// One analysis a check needs.
#[derive(Clone, Debug)]
pub struct RunRequest {
    /// What the run is, for feedback (`octagon-join`, `a: octagon-join`).
    pub label: String,
    /// The mini-C program.
    pub source: String,
    /// The configuration (step limit already capped at [`MAX_STEPS`]).
    pub config: Config,
    /// Run the value analysis with exactly these variables tracked at every
    /// location (a static precision: no CEGAR) instead of the
    /// configuration's precision.
    pub static_precision: Option<Vec<String>>,
    /// Whether created states carry their views (needed for abstract-state
    /// questions).
    pub record_views: bool,
}

/// A started run: step it with [`Run::next_event`] until `None`.
pub enum Run {
    /// The configuration's algorithm (reachability, CEGAR, restarts).
    Verifier(Box<Verifier>),
    /// Reachability with a fixed precision (precision questions).
    Fixed(Box<Analysis>),
}

impl Run {
    /// The next event of the run, or `None` when it is over — or parked on
    /// a solver query ([`Run::pending_query`]) when no solver is attached
    /// (in the page).
    pub fn next_event(&mut self) -> Option<Event> {
        match self {
            Run::Verifier(v) => v.next_event(),
            Run::Fixed(a) => a.next_event(),
        }
    }

    /// The SMT-LIB2 script the run waits for, if it is parked on one.
    pub fn pending_query(&self) -> Option<String> {
        match self {
            Run::Verifier(v) => v.pending_query().map(|q| q.smtlib.clone()),
            Run::Fixed(a) => a.pending_query().map(|q| q.smtlib.clone()),
        }
    }

    /// Resumes a parked run with the solver's output for
    /// [`Run::pending_query`].
    pub fn answer_query(&mut self, solver_output: &str) {
        match self {
            Run::Verifier(v) => v.answer_query(solver_output),
            Run::Fixed(a) => a.answer_query(solver_output),
        }
    }
}

impl RunRequest {
    /// A request for `config` on `source`, with the step limit capped.
    pub fn new(label: impl Into<String>, source: &str, mut config: Config) -> RunRequest {
        let steps: u64 = config.get("limits.steps").parse().unwrap_or(0);
        if steps == 0 || steps > MAX_STEPS {
            // Setting a known option to a number cannot fail.
            let _ = config.set("limits.steps", &MAX_STEPS.to_string());
        }
        RunRequest { label: label.into(), source: source.to_string(), config, static_precision: None, record_views: false }
    }

    /// Parses the program and builds the run. Natively the run has the
    /// system z3 for the queries it asks; in the page the caller answers
    /// them. An error is a sentence (with `line:column` for the program).
    pub fn start(&self) -> Result<(Arc<cfa::Program>, Run), String> {
        let program = Arc::new(parse_program(&self.source)?);
        if let Some(vars) = &self.static_precision {
            let mut p = VarPrecision::empty();
            for v in vars {
                p.add_global(crate::state::resolve_var(&program, v)?);
            }
            let mut c = self.config.clone();
            c.set("cpa.value.precision", "EMPTY").map_err(|e| e.message)?;
            c.set("analysis.algorithm.CEGAR", "false").map_err(|e| e.message)?;
            let a = engine::build::build_analysis_refined(program.clone(), &c, self.record_views, Some(&Arc::new(p)))
                .map_err(|e| e.message)?;
            return Ok((program, Run::Fixed(Box::new(a))));
        }
        let v = engine::cegar::build_verifier(program.clone(), &self.config, self.record_views).map_err(|e| e.message)?;
        Ok((program, Run::Verifier(Box::new(v))))
    }
}

/// Parses a mini-C program into its CFAs; the first error as
/// `line L, column C: message`.
pub fn parse_program(source: &str) -> Result<cfa::Program, String> {
    cfa::from_source(source).map_err(|diags| match diags.first() {
        Some(d) => format!("line {}, column {}: {}", d.span.line, d.span.col, d.message),
        None => "the program does not parse".into(),
    })
}

/// What a run did, as far as checks need it.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// The program, when it parsed.
    pub program: Option<Arc<cfa::Program>>,
    /// The verdict (UNKNOWN when the run could not start or finish).
    pub verdict: Verdict,
    /// Its reason in words.
    pub reason: String,
    /// Counted from the events.
    pub stats: Statistics,
    /// Every event of the run.
    pub events: Vec<Event>,
    /// Why the run could not start (bad program or configuration).
    pub error: Option<String>,
}

impl RunResult {
    /// The summary of a finished run's events.
    pub fn from_events(program: Arc<cfa::Program>, events: Vec<Event>) -> RunResult {
        let stats = Statistics::of(&events);
        let (verdict, reason) = events
            .iter()
            .rev()
            .find_map(|e| match e {
                Event::AnalysisFinished { verdict, reason, .. } => Some((*verdict, reason.clone())),
                _ => None,
            })
            .unwrap_or((Verdict::Unknown, "the analysis did not finish".into()));
        RunResult { program: Some(program), verdict, reason, stats, events, error: None }
    }

    /// A run that could not start.
    pub fn failed(message: impl Into<String>) -> RunResult {
        let message = message.into();
        RunResult {
            program: None,
            verdict: Verdict::Unknown,
            reason: message.clone(),
            stats: Statistics::default(),
            events: Vec::new(),
            error: Some(message),
        }
    }

    /// The views of the states in the final reached set at `node` (empty
    /// when none is there or views were not recorded).
    pub fn reached_views_at(&self, node: cfa::NodeId) -> Vec<Arc<StateView>> {
        let snap = Snapshot::of(&self.events);
        let Some(ids) = snap.reached.get(&node) else { return Vec::new() };
        ids.iter().filter_map(|id| snap.state(*id)).filter_map(|s| s.view.clone()).collect()
    }
}

/// Results of runs already made, so batch grading runs each distinct
/// analysis once: every student's answer to a `verdict`, `count` or
/// `next-step` question needs the same run. Runs are deterministic (same
/// program, configuration and solver answers, same trace), so a cached
/// result is the result.
#[derive(Default)]
pub struct RunCache {
    runs: std::collections::HashMap<String, RunResult>,
    /// Solver outputs by SMT-LIB2 script.
    pub smt: std::collections::HashMap<String, String>,
}

impl RunCache {
    /// An empty cache.
    pub fn new() -> RunCache {
        RunCache::default()
    }

    /// The key of a request: everything that decides its trace.
    pub fn key(req: &RunRequest) -> String {
        format!("{}\u{0}{}\u{0}{:?}\u{0}{}", req.source, req.config.to_properties(), req.static_precision, req.record_views)
    }

    /// The result of `req` if it was run before.
    pub fn get(&self, req: &RunRequest) -> Option<RunResult> {
        self.runs.get(&Self::key(req)).cloned()
    }

    /// Keeps the result of `req`, run elsewhere (the page steps runs in
    /// slices and answers their queries with its own z3). At most `keep`
    /// results are kept: a run's events can be large.
    pub fn insert(&mut self, req: &RunRequest, result: RunResult, keep: usize) {
        if self.runs.len() >= keep {
            self.runs.clear();
        }
        self.runs.insert(Self::key(req), result);
    }

    /// The result of `req`, run with [`run_sync`] unless it was run before.
    pub fn run(&mut self, req: &RunRequest) -> RunResult {
        let key = Self::key(req);
        if let Some(r) = self.runs.get(&key) {
            return r.clone();
        }
        let r = run_sync(req);
        // Keep the cache from growing without bound in a long batch.
        if self.runs.len() > 512 {
            self.runs.clear();
        }
        self.runs.insert(key, r.clone());
        r
    }
}

/// Runs a request to the end in this thread (natively, or in the page for
/// analyses that ask no solver).
pub fn run_sync(req: &RunRequest) -> RunResult {
    let (program, mut run) = match req.start() {
        Ok(x) => x,
        Err(m) => return RunResult::failed(m),
    };
    let mut events = Vec::new();
    loop {
        match run.next_event() {
            Some(e) => {
                events.push(e);
                if events.len() >= MAX_EVENTS {
                    break;
                }
            }
            // Parked on a query no attached solver answered (in the page):
            // "unknown" is the sound answer.
            None => match run.pending_query() {
                Some(_) => run.answer_query("unknown"),
                None => break,
            },
        }
    }
    RunResult::from_events(program, events)
}
