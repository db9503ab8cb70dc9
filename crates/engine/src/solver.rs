//! The solver oracle: how CPAs ask an SMT solver without ever blocking.
//!
//! The engine never blocks on a solver: in the page, Z3 (`z3-solver`)
//! answers asynchronously, yet the engine code is the same natively and in
//! the page. The design:
//!
//! 1. A CPA that needs a satisfiability answer renders its question as one
//!    self-contained SMT-LIB2 script ([`smt::Query::to_smtlib`]) and asks
//!    the run's shared [`SolverOracle`] ([`SolverOracle::ask`]).
//! 2. If the oracle knows the answer (a cache keyed by the script text), the
//!    CPA uses it. If not, the oracle records the script as *pending* and
//!    answers [`Ask::Pending`]; the CPA finishes its transfer with any sound
//!    result (it will be thrown away).
//! 3. After every transfer the reachability algorithm asks the oracle for a
//!    pending script. If there is one, it discards the transfer's result
//!    (no events were emitted for it) and *parks* in
//!    [`crate::algorithm::Phase::AwaitSolver`], exposing the query through
//!    [`crate::Stepper::pending_query`].
//! 4. Whoever drives the run — the page with `z3-solver`, natively an
//!    attached [`smt::SolverBackend`] (a persistent `z3` process) —
//!    passes the solver's output text to
//!    [`crate::Stepper::answer_query`]. The answer goes into the cache,
//!    one [`crate::trace::Event::SolverQuery`] records script and answer,
//!    and the *same* transfer runs again; transfers are deterministic
//!    functions of their inputs and the cache, so this time the answer is
//!    known and the transfer gets one query further.
//!
//! Because queries are keyed by their text and every answered query is an
//! event, a run is a deterministic function of program, configuration and
//! solver answers: replaying the recorded answers replays the trace.
//!
//! Beyond the exact text, answers are also kept by the script's canonical
//! form ([`smt::canonical_script`]: its symbols renamed in order of first
//! use). A script that is new as text but the same query as an answered
//! one up to renaming — a loop unrolled symbolically asks the same
//! question about each iteration's fresh input — is answered from there,
//! without the solver: its status, and its model renamed to its own
//! symbols. Only `sat` and `unsat` answers are reused (a logically
//! identical query has the same answer; an `unknown` might not repeat).
//! Such an answer is still one [`crate::trace::Event::SolverQuery`] of the
//! trace, its script led by the comment [`CACHED_NOTE`]: the algorithm
//! takes them with [`SolverOracle::take_cached`] after each transfer it
//! keeps (and drops them with a transfer it redoes).
//!
//! A CPA may also decide a query itself, exactly, before asking (the
//! Constraints CPA does for queries over one bit-vector input:
//! [`smt::univariate`]); it reports it with
//! [`SolverOracle::decided_without_solver`], and the query is in the trace
//! the same way, led by [`DECIDED_NOTE`].
//!
//! An `unknown` answer (timeout, missing solver, garbage output) is treated
//! by the CPAs as "maybe satisfiable" — sound, only less precise — and the
//! verdict's reason says how many queries ended that way and why.

use smt::{canonical_script, Response, Status};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

/// A query the algorithm is parked on: the SMT-LIB2 script to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverQuery {
    /// The query number in this run (the `id` of its
    /// [`crate::trace::Event::SolverQuery`]), counted from 0.
    pub id: u32,
    /// The self-contained SMT-LIB2 script (ends with `(check-sat)`, and
    /// `(get-model)` when a model is wanted); a solver's first output line
    /// is `sat`, `unsat` or `unknown`.
    pub smtlib: String,
}

/// The oracle's reply to [`SolverOracle::ask`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// The answer is known.
    Answer(Arc<Response>),
    /// Not known yet: the query is now pending, the algorithm will park.
    Pending,
}

impl Ask {
    /// The status when known.
    pub fn status(&self) -> Option<Status> {
        match self {
            Ask::Answer(r) => Some(r.status()),
            Ask::Pending => None,
        }
    }
}

/// The first line of a cached answer's script in the trace: the query was
/// answered from an earlier one without asking the solver.
pub const CACHED_NOTE: &str =
    "; answered without the solver: the same query as an earlier one of this run, up to renaming its symbols";

/// The first line of the script of a query a CPA decided itself (see
/// [`SolverOracle::decided_without_solver`]): in the trace like a solver
/// query, but no solver ran.
pub const DECIDED_NOTE: &str =
    "; answered without the solver: constraints over one bit-vector variable, decided exactly by interval arithmetic";

/// An answer kept by canonical form: the response and the answered
/// script's own names of the canonical symbols.
#[derive(Debug)]
struct CanonicalAnswer {
    response: Arc<Response>,
    names: Vec<String>,
}

#[derive(Debug, Default)]
struct Inner {
    answers: BTreeMap<String, Arc<Response>>,
    canonical: HashMap<String, CanonicalAnswer>,
    /// Answers from `canonical` since the last transfer: (script with
    /// [`CACHED_NOTE`], status).
    cached: Vec<(String, String)>,
    cache_hits: u64,
    /// Whether CPAs may decide queries themselves: only while a solver
    /// back end answers inside the run (natively). A parked run (the page)
    /// sends every query to its solver and its Solver log.
    may_decide: bool,
    pending: Option<String>,
    unknown: u32,
    unknown_reasons: BTreeSet<String>,
    notes: Vec<String>,
    asked: u64,
}

/// The answers of one run's solver queries, shared by the CPAs that ask
/// and the algorithm that parks (see the module docs). Thread-safe, so
/// CPAs stay `Send + Sync`.
#[derive(Debug, Default)]
pub struct SolverOracle {
    inner: Mutex<Inner>,
}

impl SolverOracle {
    /// An oracle that knows no answers yet.
    pub fn new() -> Arc<SolverOracle> {
        Arc::new(SolverOracle::default())
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A poisoned lock only means another thread panicked while holding
        // it; the cache itself is still consistent.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Asks for the answer to `script`: known (cached) or pending. The first
    /// unknown script of a transfer becomes the pending query.
    pub fn ask(&self, script: &str) -> Ask {
        let mut g = self.lock();
        g.asked += 1;
        if let Some(r) = g.answers.get(script) {
            return Ask::Answer(r.clone());
        }
        if let Some(c) = canonical_script(script) {
            if let Some(known) = g.canonical.get(&c.key) {
                let response = Arc::new(renamed(&known.response, &known.names, &c.names));
                let status = response.status().as_str().to_string();
                g.cached.push((format!("{CACHED_NOTE}\n{script}"), status));
                g.cache_hits += 1;
                return Ask::Answer(response);
            }
        }
        if g.pending.is_none() {
            g.pending = Some(script.to_string());
        }
        Ask::Pending
    }

    /// Takes the pending script, if a CPA asked one that has no answer yet.
    pub fn take_pending(&self) -> Option<String> {
        self.lock().pending.take()
    }

    /// Whether a query is pending.
    pub fn has_pending(&self) -> bool {
        self.lock().pending.is_some()
    }

    /// Records the solver's answer to `script` (parsed), counting `unknown`s.
    pub fn record(&self, script: &str, response: Response) -> Arc<Response> {
        let mut g = self.lock();
        if response.status() == Status::Unknown {
            g.unknown += 1;
            let reason = response.reason().unwrap_or_else(|| "the solver answered unknown".into());
            g.unknown_reasons.insert(reason);
        }
        let r = Arc::new(response);
        if matches!(r.status(), Status::Sat | Status::Unsat) {
            if let Some(c) = canonical_script(script) {
                g.canonical.entry(c.key).or_insert(CanonicalAnswer { response: r.clone(), names: c.names });
            }
        }
        g.answers.insert(script.to_string(), r.clone());
        r
    }

    /// Takes the answers given from the canonical cache since the last
    /// call (script led by [`CACHED_NOTE`], status), for the trace.
    pub fn take_cached(&self) -> Vec<(String, String)> {
        std::mem::take(&mut self.lock().cached)
    }

    /// Records that a CPA answered `script` itself with `status` (`sat`
    /// with a model it checked, or `unsat` it proved — see
    /// [`smt::univariate`]): one [`crate::trace::Event::SolverQuery`] like
    /// the canonical cache's, its script led by [`DECIDED_NOTE`], taken with
    /// [`SolverOracle::take_cached`].
    pub fn decided_without_solver(&self, script: &str, status: Status) {
        let mut g = self.lock();
        g.asked += 1;
        g.cached.push((format!("{DECIDED_NOTE}\n{script}"), status.as_str().to_string()));
    }

    /// Lets CPAs decide queries themselves (`true` while a solver back end
    /// is attached to the run) or makes every query go to the solver
    /// (`false`: the run parks on each, as in the page).
    pub fn set_may_decide(&self, may: bool) {
        self.lock().may_decide = may;
    }

    /// Whether CPAs may decide queries themselves
    /// ([`SolverOracle::set_may_decide`]).
    pub fn may_decide(&self) -> bool {
        self.lock().may_decide
    }

    /// Forgets the cached answers of a transfer that will be redone (it
    /// asks them again).
    pub fn discard_cached(&self) {
        self.lock().cached.clear();
    }

    /// How many asks the canonical cache answered (each without a solver).
    pub fn cache_hits(&self) -> u64 {
        self.lock().cache_hits
    }

    /// The recorded answer to `script`, if any.
    pub fn answer(&self, script: &str) -> Option<Arc<Response>> {
        self.lock().answers.get(script).cloned()
    }

    /// How many distinct scripts have an answer.
    pub fn answered(&self) -> usize {
        self.lock().answers.len()
    }

    /// How many times CPAs asked (cache hits included).
    pub fn asked(&self) -> u64 {
        self.lock().asked
    }

    /// Adds a caveat the verdict's reason must mention (e.g. "INTEGER
    /// ignores overflow under the c model"); duplicates are dropped.
    pub fn add_note(&self, note: &str) {
        let mut g = self.lock();
        if !g.notes.iter().any(|n| n == note) {
            g.notes.push(note.to_string());
        }
    }

    /// What the verdict's reason should add: the notes, and how many
    /// queries were answered `unknown` and why. Empty when nothing.
    pub fn summary(&self) -> Vec<String> {
        let g = self.lock();
        let mut out = g.notes.clone();
        if g.unknown > 0 {
            let reasons: Vec<&str> = g.unknown_reasons.iter().map(String::as_str).take(3).collect();
            out.push(format!(
                "{} solver quer{} answered unknown ({}) and treated as satisfiable",
                g.unknown,
                if g.unknown == 1 { "y was" } else { "ies were" },
                reasons.join("; ")
            ));
        }
        out
    }
}

/// `response` with its model's symbols renamed from `from[i]` to `to[i]`
/// (the canonical symbol `@i` of two scripts with one canonical form).
fn renamed(response: &Response, from: &[String], to: &[String]) -> Response {
    let map: HashMap<&str, &str> = from.iter().map(String::as_str).zip(to.iter().map(String::as_str)).collect();
    Response {
        status: response.status,
        model: response.model.iter().filter_map(|(k, v)| map.get(k.as_str()).map(|n| (n.to_string(), *v))).collect(),
        errors: response.errors.clone(),
    }
}
