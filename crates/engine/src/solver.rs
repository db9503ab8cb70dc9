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
//! Natively the redo is skipped where it can be: for each transfer the
//! algorithm lends its back end to the oracle ([`SolverOracle::lend_solver`],
//! at most [`LEND_BUDGET`]), which then answers a query when it is asked,
//! and the answers go into the trace after the transfer like the cache's
//! (see below). The page's runs park on every query the solver must
//! answer; there [`SolverOracle::ask_query`] keeps the scripts a transfer
//! asked across its redos, so they are not rendered again.
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
//! The canonical answers outlive one CEGAR iteration: when the verifier
//! starts the next iteration or stage with a new analysis, the new oracle
//! takes them over ([`SolverOracle::adopt_answers_of`]). A restart from
//! the initial state re-explores every block whose predicates the
//! refinement did not change, asking exactly what the iteration before
//! asked; those queries are answered from here, each still a
//! [`crate::trace::Event::SolverQuery`] led by [`CACHED_NOTE`].
//!
//! Queries asked with their terms ([`SolverOracle::ask_query`]) are also
//! answered from what earlier answers showed: `sat` when the latest values
//! of earlier models satisfy every assertion, `unsat` when the query
//! asserts everything an earlier `unsat` query asserted (its script led by
//! [`MODEL_NOTE`] or [`SUBSUMED_NOTE`] in the trace). What was learned is
//! carried across CEGAR iterations with the canonical answers.
//!
//! A CPA may also decide a query itself, exactly, before asking (the
//! Constraints CPA does for queries over one input, bit-vector or integer:
//! [`smt::univariate`]); it reports it with
//! [`SolverOracle::decided_without_solver`], and the query is in the trace
//! the same way, led by [`DECIDED_NOTE`].
//!
//! An `unknown` answer (timeout, missing solver, garbage output) is treated
//! by the CPAs as "maybe satisfiable" — sound, only less precise — and the
//! verdict's reason says how many queries ended that way and why.

use rustc_hash::{FxHashMap, FxHasher};
use smt::term::vars_of;
use smt::{canonical_script, CanonicalScript, Query, Response, SolverBackend, Status, Term, Value};
use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
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
    "; answered without the solver: constraints over one bit-vector or integer variable each (after cancelling common terms of equalities), decided exactly by interval arithmetic";

/// The first line of the script of a query answered `sat` by what earlier
/// answers showed (see [`SolverOracle::ask_query`]): the latest value each
/// of its symbols had in an earlier model satisfies every assertion, so
/// that assignment is its model.
pub const MODEL_NOTE: &str =
    "; answered without the solver: sat, values its symbols had in earlier models satisfy every assertion";

/// The first line of the script of a query answered `unsat` by what earlier
/// answers showed (see [`SolverOracle::ask_query`]): it asserts everything
/// an earlier query answered `unsat` asserted, so it is unsatisfiable too.
pub const SUBSUMED_NOTE: &str =
    "; answered without the solver: unsat, it asserts everything an earlier unsatisfiable query asserted";

/// Why a query of the trace (its `script`, see
/// [`crate::trace::Event::SolverQuery`]) needed no solver, in a few words,
/// from the note that leads it; `None` when a solver answered it.
pub fn answered_without_solver(script: &str) -> Option<&'static str> {
    [
        (CACHED_NOTE, "the same query as an earlier one up to renaming"),
        (DECIDED_NOTE, "decided exactly by interval arithmetic"),
        (MODEL_NOTE, "an earlier model satisfies it"),
        (SUBSUMED_NOTE, "it contains an earlier unsatisfiable query"),
    ]
    .into_iter()
    .find(|(note, _)| script.starts_with(note))
    .map(|(_, why)| why)
}

/// Records `response` to `script` in `g`: by text, by canonical form
/// (`sat`/`unsat` only; `canonical` is the script's when the caller has
/// computed it already), and counting `unknown`s.
fn record_in(g: &mut Inner, script: &str, response: Response, canonical: Option<CanonicalScript>) -> Arc<Response> {
    if response.status() == Status::Unknown {
        g.unknown += 1;
        let reason = response.reason().unwrap_or_else(|| "the solver answered unknown".into());
        g.unknown_reasons.insert(reason);
    }
    let r = Arc::new(response);
    if matches!(r.status(), Status::Sat | Status::Unsat) {
        if let Some(c) = canonical.or_else(|| canonical_script(script)) {
            g.canonical.entry(c.key).or_insert(CanonicalAnswer { response: r.clone(), names: c.names });
        }
    }
    g.answers.insert(script.to_string(), r.clone());
    r
}

/// Takes the answers given since the last take (script, status), for the
/// trace.
fn drain_cached(g: &mut Inner) -> Vec<(String, String)> {
    std::mem::take(&mut g.cached).into_iter().map(|(script, status, _)| (script, status)).collect()
}

/// The answer to `script` without parking: by its text, by its canonical
/// form, from what was learned (with `query`, its terms), or from a lent
/// back end; `None` when none of them has it. Answers other than by the
/// exact text are queued for the trace (`cached`).
fn answer_at_once(g: &mut Inner, script: &str, query: Option<&Query>) -> Option<Arc<Response>> {
    if let Some(r) = g.answers.get(script) {
        return Some(r.clone());
    }
    // Computed once here and handed to `record_in` below.
    let canonical = canonical_script(script);
    if let Some(c) = &canonical {
        if let Some(known) = g.canonical.get(&c.key) {
            let response = Arc::new(renamed(&known.response, &known.names, &c.names));
            let status = response.status().as_str().to_string();
            g.cached.push((format!("{CACHED_NOTE}\n{script}"), status, false));
            g.cache_hits += 1;
            return Some(response);
        }
    }
    if let Some((response, note)) = query.and_then(|q| g.learned.decide(q)) {
        // Recorded by its text: a redo of this transfer finds it there, so
        // it is in the trace once, like a lent back end's answer.
        let r = record_in(g, script, response, canonical);
        g.cached.push((format!("{note}\n{script}"), r.status().as_str().to_string(), true));
        return Some(r);
    }
    if !g.no_decisions {
        if let Some(output) = g.lent.as_mut().and_then(|l| l.answer(script)) {
            let r = record_in(g, script, smt::parse_response(&output), canonical);
            let status = r.status().as_str().to_string();
            g.cached.push((script.to_string(), status, true));
            return Some(r);
        }
    }
    None
}

/// An answer kept by canonical form: the response and the answered
/// script's own names of the canonical symbols.
#[derive(Debug)]
struct CanonicalAnswer {
    response: Arc<Response>,
    names: Vec<String>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Answers by the script's exact text.
    answers: FxHashMap<String, Arc<Response>>,
    /// `sat`/`unsat` answers by the script's canonical form.
    canonical: FxHashMap<String, CanonicalAnswer>,
    /// Answers given since the last transfer without parking, in the order
    /// asked: (script — with [`CACHED_NOTE`] or [`DECIDED_NOTE`] unless the
    /// lent back end solved it —, status, whether the lent back end solved
    /// it).
    cached: Vec<(String, String, bool)>,
    cache_hits: u64,
    /// CPAs decide no query themselves and no lent back end answers: every
    /// query parks for the run's solver
    /// ([`crate::cegar::Verifier::send_every_query`]). Off by default, in
    /// the page too.
    no_decisions: bool,
    pending: Option<String>,
    unknown: u32,
    unknown_reasons: BTreeSet<String>,
    notes: Vec<String>,
    asked: u64,
    /// The scripts of the queries asked since the last kept transfer, by
    /// the query's hash (see [`SolverOracle::ask_query`]).
    rendered: HashMap<u64, Vec<(Query, Arc<str>)>>,
    /// The run's back end, lent for one transfer ([`SolverOracle::lend_solver`]).
    lent: Option<Lent>,
    /// What the answers to [`SolverOracle::ask_query`] showed, to answer
    /// later queries without the solver.
    learned: Learned,
}

/// What earlier answers show about later queries (see
/// [`SolverOracle::ask_query`]): candidate models and unsatisfiable
/// assertion sets. Both only ever answer what the solver would: a model
/// that satisfies every assertion proves `sat`, and a superset of an
/// unsatisfiable set is unsatisfiable.
#[derive(Debug, Default)]
struct Learned {
    /// The latest value each symbol had in a `sat` answer's model.
    values: FxHashMap<Arc<str>, Value>,
    /// The latest [`RECENT_MODELS`] models themselves, newest last: the
    /// latest values alone are often the sibling's (a depth-first run asks
    /// both branches of a node one after the other, so the model of the
    /// query before both is the one that decides the second).
    recent: std::collections::VecDeque<Arc<FxHashMap<Arc<str>, Value>>>,
    /// The assertions of queries answered `unsat`, with each assertion's
    /// hash, newest last; at most [`MAX_UNSAT_SETS`].
    unsat: std::collections::VecDeque<(Vec<u64>, Vec<Term>)>,
    /// How many queries each of the two answered.
    model_hits: u64,
    subsumed_hits: u64,
}

/// How many recent models the oracle tries on a query besides the latest
/// values (see [`Learned`]).
const RECENT_MODELS: usize = 8;

/// How many unsatisfiable assertion sets the oracle keeps (the oldest go).
const MAX_UNSAT_SETS: usize = 256;

/// How many symbol values the candidate model keeps before it starts afresh.
const MAX_LEARNED_VALUES: usize = 100_000;

fn term_hash(t: &Term) -> u64 {
    let mut h = FxHasher::default();
    t.hash(&mut h);
    h.finish()
}

impl Learned {
    /// Learns from `query`'s answer `r`.
    fn learn(&mut self, query: &Query, r: &Response) {
        match r.status() {
            Status::Sat if !r.model.is_empty() => {
                if self.values.len() + r.model.len() > MAX_LEARNED_VALUES {
                    self.values.clear();
                }
                for (name, v) in &r.model {
                    self.values.insert(name.as_str().into(), *v);
                }
                let model: FxHashMap<Arc<str>, Value> = r.model.iter().map(|(n, v)| (n.as_str().into(), *v)).collect();
                if !self.recent.iter().any(|m| **m == model) {
                    if self.recent.len() >= RECENT_MODELS {
                        self.recent.pop_front();
                    }
                    self.recent.push_back(Arc::new(model));
                }
            }
            Status::Unsat => {
                let mut set: Vec<(u64, Term)> = query.assertions.iter().map(|t| (term_hash(t), t.clone())).collect();
                set.sort_by_key(|(h, _)| *h);
                set.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
                let (hashes, terms): (Vec<u64>, Vec<Term>) = set.into_iter().unzip();
                if self.unsat.iter().any(|(h, t)| *h == hashes && *t == terms) {
                    return;
                }
                if self.unsat.len() >= MAX_UNSAT_SETS {
                    self.unsat.pop_front();
                }
                self.unsat.push_back((hashes, terms));
            }
            _ => {}
        }
    }

    /// `query`'s answer when what was learned decides it: `unsat` when it
    /// asserts all of an unsatisfiable set (newest first), `sat` with a
    /// candidate model (the latest values, then the recent models, newest
    /// first) restricted to its symbols when that satisfies every
    /// assertion.
    fn decide(&mut self, query: &Query) -> Option<(Response, &'static str)> {
        if !self.unsat.is_empty() {
            let mut mine: Vec<(u64, &Term)> = query.assertions.iter().map(|t| (term_hash(t), t)).collect();
            mine.sort_by_key(|(h, _)| *h);
            let has = |h: u64, t: &Term| {
                let start = mine.partition_point(|(x, _)| *x < h);
                mine[start..].iter().take_while(|(x, _)| *x == h).any(|(_, m)| *m == t)
            };
            // Hashes first: comparing equal terms built apart walks both
            // trees, so it is done only for a set whose every hash is there.
            let has_hash = |h: u64| mine.binary_search_by_key(&h, |(x, _)| *x).is_ok();
            let subsumed = self.unsat.iter().rev().any(|(hashes, terms)| {
                hashes.len() <= mine.len()
                    && hashes.iter().all(|h| has_hash(*h))
                    && hashes.iter().zip(terms).all(|(h, t)| has(*h, t))
            });
            if subsumed {
                self.subsumed_hits += 1;
                return Some((Response { status: Some(Status::Unsat), ..Response::default() }, SUBSUMED_NOTE));
            }
        }
        if self.values.is_empty() || query.assertions.is_empty() {
            return None;
        }
        let symbols = vars_of(&query.assertions);
        // The model is built only once a candidate satisfies the query:
        // most candidates fail, and building each one first allocated a
        // name for every symbol.
        let satisfies = |value: &dyn Fn(&str) -> Option<Value>| -> Option<std::collections::BTreeMap<String, Value>> {
            if !symbols.iter().all(|(name, sort)| value(name).is_some_and(|v| v.sort() == *sort)) {
                return None;
            }
            if !query.assertions.iter().all(|a| a.eval(value) == Some(Value::Bool(true))) {
                return None;
            }
            symbols.keys().map(|name| value(name).map(|v| (name.to_string(), v))).collect()
        };
        let model = satisfies(&|n| self.values.get(n).copied())
            .or_else(|| self.recent.iter().rev().find_map(|m| satisfies(&|n| m.get(n).copied())))?;
        self.model_hits += 1;
        Some((Response { status: Some(Status::Sat), model, errors: Vec::new() }, MODEL_NOTE))
    }
}

/// How long a transfer may keep a lent back end answering at once
/// ([`SolverOracle::lend_solver`]) before its next query parks as usual:
/// the run's limits (`restartAlgorithm.stageTimeMs`, Cancel) are checked
/// between steps, and a Cartesian abstraction over a hundred predicates
/// can take seconds.
pub const LEND_BUDGET: std::time::Duration = std::time::Duration::from_millis(100);

/// A back end lent to the oracle for one transfer, and how much more it
/// may answer at once.
struct Lent {
    backend: Box<dyn SolverBackend + Send>,
    /// How many more queries it may answer.
    queries_left: u32,
    /// Until when it may answer ([`LEND_BUDGET`] after the lending).
    #[cfg(not(target_arch = "wasm32"))]
    until: std::time::Instant,
    /// How long each query it answered took.
    times: Vec<std::time::Duration>,
    /// When the run must stop: no query may outlast it
    /// ([`SolverOracle::limit_lent_until`]).
    #[cfg(not(target_arch = "wasm32"))]
    deadline: Option<std::time::Instant>,
}

/// What is left from `now` until `deadline` (at least 1 ms, so a query
/// past it still gets a well-formed limit and answers `unknown` at once).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn left_until(deadline: std::time::Instant, now: std::time::Instant) -> std::time::Duration {
    deadline.saturating_duration_since(now).max(std::time::Duration::from_millis(1))
}

impl Lent {
    /// The back end's output for `script`, when its budget still allows
    /// (the query then counts against it). Natively only: in the page
    /// nothing is lent.
    fn answer(&mut self, script: &str) -> Option<String> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let now = std::time::Instant::now();
            if self.queries_left == 0 || now >= self.until {
                return None;
            }
            self.queries_left -= 1;
            if let Some(deadline) = self.deadline {
                self.backend.limit_next(left_until(deadline, now));
            }
            let output = self.backend.solve_text(script);
            self.times.push(now.elapsed());
            Some(output)
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = script;
            None
        }
    }
}

impl std::fmt::Debug for Lent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lent({}, {} queries left)", self.backend.name(), self.queries_left)
    }
}

/// The most queries [`SolverOracle::ask_query`] remembers the scripts of
/// before it forgets them all (a transfer asks far fewer).
const MAX_RENDERED: usize = 4096;

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
        self.ask_with(script, None)
    }

    /// [`SolverOracle::ask`], and with `query` (the script's terms) also
    /// what earlier answers showed: see [`SolverOracle::ask_query`]. An
    /// answer to `query`, however found, is learned from — as the redo of a
    /// parked transfer will (it finds the answer by its text): what is
    /// learned must not depend on whether the transfer parks.
    fn ask_with(&self, script: &str, query: Option<&Query>) -> Ask {
        let mut g = self.lock();
        g.asked += 1;
        match answer_at_once(&mut g, script, query) {
            Some(r) => {
                if let Some(q) = query {
                    g.learned.learn(q, &r);
                }
                Ask::Answer(r)
            }
            None => {
                if g.pending.is_none() {
                    g.pending = Some(script.to_string());
                }
                Ask::Pending
            }
        }
    }

    /// Lends the run's back end to the oracle for one transfer: while it
    /// holds it (and CPAs may decide, see [`SolverOracle::set_may_decide`]),
    /// a query no cache answers is solved at once instead of becoming
    /// pending, so the transfer runs once instead of once per query (a
    /// parked transfer is redone from its start). Its queries are taken with
    /// [`SolverOracle::take_cached`] in the order they were asked, without
    /// a note. Natively only; the page parks on every query Z3 must answer.
    /// It answers for at most [`LEND_BUDGET`]; later queries of the
    /// transfer park (and the transfer is redone) as without it.
    /// `max_queries` caps how many it answers so (`u32::MAX`: only the
    /// time counts; a small cap makes a test park mid-transfer).
    pub fn lend_solver(&self, backend: Box<dyn SolverBackend + Send>, max_queries: u32) {
        self.lock().lent = Some(Lent {
            backend,
            queries_left: max_queries,
            #[cfg(not(target_arch = "wasm32"))]
            until: std::time::Instant::now() + LEND_BUDGET,
            times: Vec::new(),
            #[cfg(not(target_arch = "wasm32"))]
            deadline: None,
        });
    }

    /// Limits each query of the lent back end to what is left until
    /// `deadline` (the stage's time limit; see
    /// [`crate::Reachability::set_deadline`]). Native only.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn limit_lent_until(&self, deadline: Option<std::time::Instant>) {
        if let Some(lent) = self.lock().lent.as_mut() {
            lent.deadline = deadline;
        }
    }

    /// Takes back the lent back end ([`SolverOracle::lend_solver`]) and the
    /// time each query it answered took.
    pub fn reclaim_solver(&self) -> Option<(Box<dyn SolverBackend + Send>, Vec<std::time::Duration>)> {
        self.lock().lent.take().map(|l| (l.backend, l.times))
    }

    /// [`SolverOracle::ask`] for `query`'s script ([`Query::to_smtlib`]),
    /// answering also from what earlier answers to this method showed —
    /// reusing models and unsatisfiable cores across siblings:
    ///
    /// * **`sat` by an earlier model.** The latest value each symbol had in
    ///   a `sat` answer's model is a candidate assignment, and so is each of
    ///   the last few models; when one gives
    ///   every symbol of `query` a value of its sort and makes every
    ///   assertion true (evaluated with SMT-LIB semantics, [`Term::eval`]),
    ///   `query` is `sat` with that model. A branch's two successors, or
    ///   the predicates of one abstraction, often share their symbols with
    ///   the query before them, whose model already decides one of them.
    /// * **`unsat` by an earlier core.** A query that asserts every
    ///   assertion of a query answered `unsat` (the same terms) is `unsat`.
    ///
    /// Both are exact (the solver would say the same), so they change no
    /// verdict; such a query is in the trace with its script led by
    /// [`MODEL_NOTE`] or [`SUBSUMED_NOTE`]. Natively and in the page alike.
    ///
    /// The script is not rendered again when the same query was asked
    /// since the last kept transfer. A transfer that parks is redone from
    /// the start once its query is answered, asking again everything it
    /// asked before; a Cartesian abstraction over n predicates is redone up
    /// to 2n times, and rendering its scripts again each time (the block
    /// formula in every one) cost more than the solver. The remembered
    /// query must be equal to `query` term by term, not only by hash.
    pub fn ask_query(&self, query: &Query) -> Ask {
        if self.lock().lent.is_some() {
            // Nothing is redone while a back end is lent.
            return self.ask_with(&query.to_smtlib(), Some(query));
        }
        let script = self.script_of(query);
        self.ask_with(&script, Some(query))
    }

    fn script_of(&self, query: &Query) -> Arc<str> {
        let mut hasher = FxHasher::default();
        query.hash(&mut hasher);
        let hash = hasher.finish();
        if let Some(known) = self.lock().rendered.get(&hash).and_then(|l| l.iter().find(|(q, _)| q == query)) {
            return known.1.clone();
        }
        let script: Arc<str> = query.to_smtlib().into();
        let mut g = self.lock();
        if g.rendered.len() >= MAX_RENDERED {
            g.rendered.clear();
        }
        g.rendered.entry(hash).or_default().push((query.clone(), script.clone()));
        script
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
        record_in(&mut self.lock(), script, response, None)
    }

    /// Takes over the `sat`/`unsat` answers `earlier` (the oracle of the
    /// iteration or stage that just ended) keeps by canonical form, so the
    /// next iteration's identical queries need no solver (see the module
    /// docs), and what its answers showed (the candidate model and the
    /// unsatisfiable sets of [`SolverOracle::ask_query`]). `earlier` keeps
    /// nothing afterwards. Sound because a query's answer depends on its
    /// text only; `unknown` answers are never kept.
    pub fn adopt_answers_of(&self, earlier: &SolverOracle) {
        if std::ptr::eq(self, earlier) {
            return;
        }
        let (carried, learned) = {
            let mut e = earlier.lock();
            (std::mem::take(&mut e.canonical), std::mem::take(&mut e.learned))
        };
        let mut g = self.lock();
        for (key, answer) in carried {
            g.canonical.entry(key).or_insert(answer);
        }
        if g.learned.values.is_empty() && g.learned.unsat.is_empty() {
            g.learned = learned;
        }
    }

    /// How many answers the oracle keeps by canonical form.
    pub fn canonical_answers(&self) -> usize {
        self.lock().canonical.len()
    }

    /// Takes the answers given from the canonical cache since the last
    /// call (script led by [`CACHED_NOTE`], status), for the trace.
    /// The transfer is kept, so the scripts [`SolverOracle::ask_query`]
    /// remembered for its redos are forgotten.
    pub fn take_cached(&self) -> Vec<(String, String)> {
        let mut g = self.lock();
        g.rendered.clear();
        drain_cached(&mut g)
    }

    /// For a transfer that parks and will be redone: forgets the cached
    /// answers its redo asks again, and takes those the lent back end
    /// solved, for the trace (the redo finds them by their text, as a
    /// parked query's answer, so they are in the trace once); the scripts
    /// [`SolverOracle::ask_query`] remembered stay for the redo.
    pub fn take_solved_before_park(&self) -> Vec<(String, String)> {
        let mut g = self.lock();
        g.cached.retain(|(_, _, solved)| *solved);
        drain_cached(&mut g)
    }

    /// Records that a CPA answered `script` itself with `status` (`sat`
    /// with a model it checked, or `unsat` it proved — see
    /// [`smt::univariate`]): one [`crate::trace::Event::SolverQuery`] like
    /// the canonical cache's, its script led by [`DECIDED_NOTE`], taken with
    /// [`SolverOracle::take_cached`].
    pub fn decided_without_solver(&self, script: &str, status: Status) {
        let mut g = self.lock();
        g.asked += 1;
        g.cached.push((format!("{DECIDED_NOTE}\n{script}"), status.as_str().to_string(), false));
    }

    /// Lets CPAs decide queries themselves and a lent back end answer
    /// inside a transfer (`true`, the default, natively and in the page) or
    /// makes every query park for the run's solver (`false`).
    pub fn set_may_decide(&self, may: bool) {
        self.lock().no_decisions = !may;
    }

    /// Whether CPAs may decide queries themselves
    /// ([`SolverOracle::set_may_decide`]).
    pub fn may_decide(&self) -> bool {
        !self.lock().no_decisions
    }

    /// How many asks the canonical cache answered (each without a solver).
    pub fn cache_hits(&self) -> u64 {
        self.lock().cache_hits
    }

    /// How many queries an earlier model answered `sat` and how many an
    /// earlier unsatisfiable set answered `unsat` (see
    /// [`SolverOracle::ask_query`]), each without a solver.
    pub fn learned_hits(&self) -> (u64, u64) {
        let g = self.lock();
        (g.learned.model_hits, g.learned.subsumed_hits)
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

#[cfg(test)]
mod tests {
    use super::*;
    use smt::{Sort, Term};

    fn query() -> Query {
        let x = Term::var("x", Sort::Int);
        Query::new(vec![Term::lt(Term::int(0), x)])
    }

    /// A parked transfer's redo finds its scripts remembered; a kept
    /// transfer forgets them.
    #[test]
    fn scripts_are_remembered_across_a_redo_and_forgotten_after_a_kept_transfer() {
        let oracle = SolverOracle::new();
        let q = query();
        assert_eq!(oracle.ask_query(&q), Ask::Pending);
        let script = oracle.take_pending().expect("pending");
        assert!(oracle.take_solved_before_park().is_empty(), "nothing was solved by a lent back end");
        assert_eq!(oracle.lock().rendered.len(), 1, "kept for the redo");
        oracle.record(&script, smt::parse_response("sat\n"));
        assert_eq!(oracle.ask_query(&q).status(), Some(Status::Sat));
        assert!(oracle.take_cached().is_empty(), "an answer found by its text is not a cache hit");
        assert!(oracle.lock().rendered.is_empty(), "forgotten once the transfer is kept");
    }

    fn int(name: &str) -> Term {
        Term::var(name, Sort::Int)
    }

    /// Answers `script` as the solver would have, with `output`, through a
    /// parked ask and its redo.
    fn answered(oracle: &SolverOracle, q: &Query, output: &str) -> Arc<Response> {
        assert_eq!(oracle.ask_query(q), Ask::Pending);
        let script = oracle.take_pending().expect("pending");
        oracle.record(&script, smt::parse_response(output));
        match oracle.ask_query(q) {
            Ask::Answer(r) => r,
            Ask::Pending => panic!("answered, yet pending"),
        }
    }

    /// A sibling that the earlier model satisfies is `sat` without the
    /// solver, with that model restricted to its symbols; one it does not
    /// satisfy, or with a symbol the model lacks, is asked.
    #[test]
    fn an_earlier_model_answers_a_sibling_it_satisfies() {
        let oracle = SolverOracle::new();
        let (x, y) = (int("x"), int("y"));
        let mut parent = Query::new(vec![Term::lt(Term::int(0), x.clone()), Term::lt(x.clone(), Term::int(10))]);
        parent.want_model = true;
        answered(&oracle, &parent, "sat\n(model (define-fun x () Int 3) (define-fun z () Int 7))\n");
        oracle.take_cached();
        let mut then = parent.clone();
        then.assertions.push(Term::lt(x.clone(), Term::int(5)));
        match oracle.ask_query(&then) {
            Ask::Answer(r) => {
                assert_eq!(r.status(), Status::Sat);
                assert_eq!(r.model.keys().collect::<Vec<_>>(), ["x"], "restricted to the query's symbols");
            }
            Ask::Pending => panic!("x = 3 satisfies x < 5"),
        }
        let cached = oracle.take_cached();
        assert_eq!(cached.len(), 1);
        assert!(cached[0].0.starts_with(MODEL_NOTE) && cached[0].1 == "sat", "{cached:?}");
        let mut otherwise = parent.clone();
        otherwise.assertions.push(Term::not(Term::lt(x.clone(), Term::int(5))));
        assert_eq!(oracle.ask_query(&otherwise), Ask::Pending, "x = 3 falsifies x >= 5: asked");
        oracle.take_pending();
        let unseen = Query::new(vec![Term::lt(x, y)]);
        assert_eq!(oracle.ask_query(&unseen), Ask::Pending, "y has no value: asked");
        assert_eq!(oracle.learned_hits(), (1, 0));
    }

    /// A query asserting everything an `unsat` one asserted is `unsat`
    /// without the solver; one asserting only part of it is asked.
    #[test]
    fn an_unsatisfiable_set_answers_the_queries_that_contain_it() {
        let oracle = SolverOracle::new();
        let x = int("x");
        let a = Term::lt(Term::int(5), x.clone());
        let b = Term::lt(x.clone(), Term::int(2));
        answered(&oracle, &Query::new(vec![a.clone(), b.clone()]), "unsat\n");
        oracle.take_cached();
        let more = Query::new(vec![Term::lt(Term::int(0), int("w")), b.clone(), a.clone()]);
        assert_eq!(oracle.ask_query(&more).status(), Some(Status::Unsat));
        let cached = oracle.take_cached();
        assert!(cached.len() == 1 && cached[0].0.starts_with(SUBSUMED_NOTE), "{cached:?}");
        assert_eq!(oracle.ask_query(&Query::new(vec![a, Term::lt(Term::int(1), int("w"))])), Ask::Pending);
        assert_eq!(oracle.learned_hits(), (0, 1));
    }

    /// What was learned moves to the next CEGAR iteration's oracle.
    #[test]
    fn what_was_learned_is_carried_to_the_next_iteration() {
        let first = SolverOracle::new();
        let x = int("x");
        let mut q = Query::new(vec![Term::lt(Term::int(0), x.clone())]);
        q.want_model = true;
        answered(&first, &q, "sat\n(model (define-fun x () Int 1))\n");
        let next = SolverOracle::new();
        next.adopt_answers_of(&first);
        let sibling = Query::new(vec![Term::lt(x, Term::int(4))]);
        assert_eq!(next.ask_query(&sibling).status(), Some(Status::Sat));
    }
}
