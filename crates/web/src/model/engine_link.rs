//! The analysis engine in its own Web Worker, as plain Rust: the messages
//! between the page and the engine's worker, the worker's side
//! ([`EngineHost`]: it owns the runs' CPA algorithms and drives them in
//! slices) and the page's side ([`Mirror`]: a pane whose runs are computed
//! there and only folded here).
//!
//! The page starts a run with [`ToEngine::Start`] (the program text and the
//! chosen configuration). The worker parses it, builds the same
//! [`engine::cegar::Verifier`] as [`Run::start`] does and computes it with
//! the page's slice loop ([`crate::model::run_driver::slice`]); after each
//! slice it sends the new trace events ([`FromEngine::Events`]): they are
//! the diffs, the page's [`engine::view::Cursor`] folds them, so no snapshot
//! crosses the channel. A run parked on a solver query sends
//! [`FromEngine::Query`]; the page asks its Z3 (which keeps the solver log)
//! and answers with [`ToEngine::Answer`]. Several runs (the compare view's
//! panes) are computed in turn, and a parked run never holds up the
//! others. [`ToEngine::Cancel`] drops a run between slices.
//!
//! The browser glue is `crate::platform::engine_worker` (the page's side)
//! and `crate::platform::engine_scope` (the worker's side).

use serde::{Deserialize, Serialize};

use engine::trace::Event;

use crate::model::analysis::{AnalysisState, Run, RunSpec};
use crate::model::compare::CompareView;
use crate::model::run_driver::{slice, Query, SliceEnd};

/// The longest a slice of the engine's worker computes before it looks at
/// its messages again (Cancel, answers) and sends its events (milliseconds).
/// Longer than the page's [`crate::model::run_driver::SLICE_MS`] (the worker
/// has no rendering to leave room for), short enough that the page parses
/// one slice's events in a few milliseconds.
pub const WORKER_SLICE_MS: f64 = 20.0;

/// The longest the engine's worker computes before it posts what it has
/// to the page (milliseconds), within a slice: the page parses and folds
/// each message in one task, so small messages keep its tasks short (one
/// 20 ms slice of events took the page's main thread over 50 ms on a busy
/// machine).
pub const WORKER_POST_MS: f64 = 5.0;

/// A message from the page to the engine's worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ToEngine {
    /// Start computing a run of `spec` on `source` (a run with the same
    /// number is replaced).
    Start {
        /// The page's number for the run, repeated in every reply.
        run: u64,
        /// The program text.
        source: String,
        /// The configuration.
        spec: RunSpec,
        /// Who asks the run's solver queries in the solver log
        /// (`analysis`, `compare`).
        asker: String,
    },
    /// The solver's output for the query run `run` is parked on.
    Answer {
        /// The run.
        run: u64,
        /// Z3's output text (`sat`, `unsat`, `unknown`, …).
        text: String,
    },
    /// Stop computing run `run` and forget it.
    Cancel {
        /// The run.
        run: u64,
    },
    /// Z3's worker crashed: the queries asked of it directly get no
    /// answer (their runs resume with `unknown`, which every CPA treats
    /// soundly), and later queries go to the page until a new port comes.
    Z3Lost {
        /// Why, for the solver log.
        why: String,
    },
}

/// A message from the engine's worker to the page, as JSON text. Tagged
/// externally (`{"events": {…}}`): an internally tagged enum is read by
/// buffering the whole message first, and a batch of events was then
/// buffered twice (each trace event is itself tagged internally).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FromEngine {
    /// The worker is listening (sent once, when its WebAssembly is running).
    Ready,
    /// The trace events run `run` produced since its last `Events`.
    Events {
        /// The run.
        run: u64,
        /// The new events, in order.
        events: Vec<Event>,
        /// They are the last: the run is over (the worker forgot it).
        finished: bool,
    },
    /// Run `run` is parked on this solver query until [`ToEngine::Answer`].
    Query {
        /// The run.
        run: u64,
        /// The query, for Z3 and the solver log.
        query: Query,
    },
    /// Run `run` asked Z3's worker `query` directly (over the port the page
    /// handed both workers, [`DirectSolver`]); for the page's solver log.
    Asked {
        /// The run.
        run: u64,
        /// The query, as the solver log shows it.
        query: Query,
    },
    /// Z3's worker answered run `run`'s query asked directly (the run
    /// already resumed with it); for the page's solver log.
    Answered {
        /// The run.
        run: u64,
        /// Z3's output text, or why Z3 gave none (it could not load).
        outcome: Result<String, String>,
        /// How long Z3's answer took, as the engine's worker saw it (ms).
        ms: u64,
    },
    /// Run `run` was cancelled and forgotten (the reply to
    /// [`ToEngine::Cancel`]: the engine was not stuck).
    Cancelled {
        /// The run.
        run: u64,
    },
    /// Run `run` could not start (a broken program or configuration; the
    /// page refuses those itself first, so this is a safety net).
    Refused {
        /// The run.
        run: u64,
        /// Why.
        message: String,
    },
}

/// A run the worker computes.
struct Hosted {
    id: u64,
    run: Run,
    /// Events already sent to the page.
    sent: usize,
    /// Parked on a query the page was sent.
    asked: bool,
}

/// The engine's worker: the runs it computes, each a [`Run`] with its own
/// CPA algorithm, and what to tell the page. Plain Rust: the worker's
/// binary only feeds it messages and a clock.
#[derive(Default)]
pub struct EngineHost {
    runs: Vec<Hosted>,
}

impl EngineHost {
    /// Applies one message from the page; returns the replies to send.
    pub fn receive(&mut self, message: ToEngine) -> Vec<FromEngine> {
        match message {
            ToEngine::Start { run, source, spec, asker } => {
                self.runs.retain(|h| h.id != run);
                match Run::start(&source, spec) {
                    Ok(mut started) => {
                        started.asker = asker;
                        // Every query goes to the page's Z3 (natively a
                        // solver would be attached; in the browser there is none).
                        started.detach_solver();
                        self.runs.push(Hosted { id: run, run: started, sent: 0, asked: false });
                        Vec::new()
                    }
                    Err(message) => vec![FromEngine::Refused { run, message }],
                }
            }
            ToEngine::Answer { run, text } => {
                if let Some(h) = self.runs.iter_mut().find(|h| h.id == run && h.asked) {
                    h.run.answer_query(&text);
                    h.asked = false;
                }
                Vec::new()
            }
            ToEngine::Cancel { run } => {
                self.runs.retain(|h| h.id != run);
                vec![FromEngine::Cancelled { run }]
            }
            // The worker's binary fails its direct queries (DirectSolver::lose).
            ToEngine::Z3Lost { .. } => Vec::new(),
        }
    }

    /// Whether some run can compute now (not every run waits for an answer).
    pub fn has_work(&self) -> bool {
        self.runs.iter().any(|h| !h.asked)
    }

    /// The runs it holds (computing or parked).
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// Whether it holds no run.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// One slice of every run that can compute, in turn, until each is
    /// over, parks, or `over_budget` says stop (every run gets at least one
    /// chunk of work); returns what to tell the page. A finished run is
    /// forgotten.
    pub fn slice(&mut self, mut over_budget: impl FnMut() -> bool) -> Vec<FromEngine> {
        let mut out = Vec::new();
        for h in self.runs.iter_mut().filter(|h| !h.asked) {
            let end = slice(&mut h.run, &mut over_budget);
            let events = h.run.cursor.events()[h.sent..].to_vec();
            h.sent += events.len();
            let finished = end == SliceEnd::Done;
            if !events.is_empty() || finished {
                out.push(FromEngine::Events { run: h.id, events, finished });
            }
            if let SliceEnd::Parked(query) = end {
                h.asked = true;
                out.push(FromEngine::Query { run: h.id, query });
            }
        }
        self.runs.retain(|h| !h.run.finished());
        out
    }
}

/// Reads a message from the engine's worker (JSON text, as [`encode`] writes it).
pub fn decode(text: &str) -> Result<FromEngine, serde_json::Error> {
    serde_json::from_str(text)
}

/// Writes a message to the page as JSON text: a slice's events are many
/// nested values, and one string crosses to the page and is parsed there
/// far faster than a tree of JavaScript objects is built and read back
/// (and every 64-bit integer stays exact).
pub fn encode(message: &FromEngine) -> Result<String, serde_json::Error> {
    serde_json::to_string(message)
}

/// The program of [`sample_messages`]: a loop, a branch, an error call and
/// two nondeterministic inputs, so its runs' first events are of every kind
/// a start shows (pops, transfers, merges, stops, a target, a solver query
/// — over both inputs, which the engine does not decide itself).
const SAMPLE_PROGRAM: &str = "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int i = 0;
  while (i < 3) { i = i + 1; }
  if (x > y) { x = x - 1; } else { x = i; }
  if (x < y) { reach_error(); }
  return 0;
}
";

/// The messages the engine's worker sends for two short runs of a small
/// program (`octagon-join`, and `symbolic` until it parks on a solver
/// query) and a solver log entry's two messages. The worker reads them
/// back once when it starts ([`warm_decoding`]).
pub fn sample_messages() -> Vec<FromEngine> {
    let mut host = EngineHost::default();
    for (run, preset) in [(1, "octagon-join"), (2, "symbolic")] {
        let spec = RunSpec { preset: preset.to_string(), max_steps: 200, ..RunSpec::default() };
        host.receive(ToEngine::Start { run, source: SAMPLE_PROGRAM.to_string(), spec, asker: "sample".into() });
    }
    let mut out = Vec::new();
    while host.has_work() && out.len() < 64 {
        out.extend(host.slice(|| false));
    }
    let parked = out.iter().find_map(|m| match m {
        FromEngine::Query { run, query } => Some((*run, query.clone())),
        _ => None,
    });
    if let Some((run, query)) = parked {
        out.push(FromEngine::Asked { run, query });
        out.push(FromEngine::Answered { run, outcome: Ok("sat".into()), ms: 1 });
    }
    out
}

/// Encodes and decodes [`sample_messages`] once, and folds their events
/// into a trace cursor as the page does. The engine's worker calls it when
/// it starts, before it tells the page it is ready: V8 compiles each
/// function of the page's WebAssembly on its first call, on the calling
/// thread, and the page and its worker share one compiled module, so the
/// page's main thread then finds the code it runs for its first messages
/// already compiled (measured with `tests/bench/engine-messages.mjs`: the
/// first message took 23–35 ms of the main thread on a cold load without
/// this, nearly all of it compiling, and 0.5–9 ms with it).
pub fn warm_decoding() {
    let mut cursor = engine::view::Cursor::new(Vec::new());
    for message in sample_messages() {
        let Ok(text) = encode(&message) else { continue };
        if let Ok(FromEngine::Events { events, .. }) = decode(&text) {
            cursor.extend(events);
        }
    }
}

/// The engine worker's queries to Z3's worker, asked directly over a
/// `MessageChannel` port (the page hands one end to each worker), so a
/// query and its answer never cross the page's main thread. It numbers
/// the queries, remembers which run each belongs to, and keeps the ones
/// still unanswered so that they can be asked again of a new Z3 worker
/// (the page replaced a stuck or crashed one and handed a new port).
#[derive(Default)]
pub struct DirectSolver {
    next_id: u32,
    /// Unanswered queries: number, run, script, when asked (ms).
    open: Vec<(u32, u64, String, f64)>,
}

impl DirectSolver {
    /// Notes run `run`'s query `script`, asked at `now`; returns its number
    /// (for Z3's `check` message).
    pub fn ask(&mut self, run: u64, script: &str, now: f64) -> u32 {
        self.next_id += 1;
        self.open.push((self.next_id, run, script.to_string(), now));
        self.next_id
    }

    /// Z3 answered query `id` at `now`: its run and how long it took (ms),
    /// or `None` for an answer nobody waits for (the run was cancelled,
    /// or the query was asked again of a new worker under a new number).
    pub fn answered(&mut self, id: u32, now: f64) -> Option<(u64, u64)> {
        let k = self.open.iter().position(|q| q.0 == id)?;
        let (_, run, _, asked) = self.open.remove(k);
        Some((run, elapsed_ms(asked, now)))
    }

    /// Run `run` was cancelled: its query's late answer is dropped.
    pub fn forget(&mut self, run: u64) {
        self.open.retain(|q| q.1 != run);
    }

    /// A new Z3 worker: every unanswered query gets a new number, to be
    /// asked again (answers to the old numbers are dropped); returns
    /// `(number, script)` in the order they were first asked.
    pub fn renumber(&mut self) -> Vec<(u32, String)> {
        let mut out = Vec::new();
        for q in &mut self.open {
            self.next_id += 1;
            q.0 = self.next_id;
            out.push((q.0, q.2.clone()));
        }
        out
    }

    /// Z3's worker is gone without answering (crashed): every unanswered
    /// query is dropped; returns their runs and how long each waited (ms),
    /// in the order they were asked.
    pub fn lose(&mut self, now: f64) -> Vec<(u64, u64)> {
        self.open.drain(..).map(|(_, run, _, asked)| (run, elapsed_ms(asked, now))).collect()
    }

    /// Whether a query waits for Z3.
    pub fn is_waiting(&self) -> bool {
        !self.open.is_empty()
    }
}

/// Whole milliseconds from `asked` to `now` (never negative: the clock
/// may be coarse).
fn elapsed_ms(asked: f64, now: f64) -> u64 {
    (now - asked).max(0.0).round() as u64
}

/// One run the page asks the engine's worker for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handover {
    /// Which of the pane's runs (the compare view's pane; 0 otherwise).
    pub part: usize,
    /// The program text.
    pub source: String,
    /// The configuration.
    pub spec: RunSpec,
    /// Who asks its solver queries (`analysis`, `compare`).
    pub asker: String,
}

/// A pane whose runs are computed in the engine's worker: it hands its runs
/// over (they become mirrors, [`Run::hand_over`]) and folds the events that
/// come back.
pub trait Mirror {
    /// The runs to compute, handed over: each local run drops its CPA
    /// algorithm and waits for [`Mirror::fold`].
    fn hand_over(&mut self) -> Vec<Handover>;
    /// Run `part`'s next events (`finished`: the last ones).
    fn fold(&mut self, part: usize, events: Vec<Event>, finished: bool);
}

/// In the page the pane's run is computed in the engine's worker
/// ([`crate::model::engine_link`]); the pane folds its events and notes
/// the end as it does when computing the run itself.
impl Mirror for AnalysisState {
    fn hand_over(&mut self) -> Vec<Handover> {
        let Some(run) = self.run.as_mut() else { return Vec::new() };
        run.hand_over();
        vec![Handover { part: 0, source: self.run_source.clone(), spec: run.spec.clone(), asker: run.asker.clone() }]
    }

    fn fold(&mut self, _part: usize, events: Vec<Event>, finished: bool) {
        let Some(run) = self.run.as_mut() else { return };
        run.fold(events, finished);
        if finished {
            self.computed();
        }
    }
}

/// In the page the compared runs are computed in the engine's worker
/// ([`crate::model::engine_link`]), each on its own, so a run parked on a
/// solver query never pauses the others; the view folds their events and
/// is computed when the last run is over.
impl Mirror for CompareView {
    fn hand_over(&mut self) -> Vec<Handover> {
        let source = self.source().to_string();
        self.runs
            .iter_mut()
            .enumerate()
            .map(|(part, run)| {
                run.hand_over();
                Handover { part, source: source.clone(), spec: run.spec.clone(), asker: run.asker.clone() }
            })
            .collect()
    }

    fn fold(&mut self, part: usize, events: Vec<Event>, finished: bool) {
        let Some(run) = self.runs.get_mut(part) else { return };
        run.fold(events, finished);
        if finished && self.runs.iter().all(|r| r.finished()) {
            self.computed();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::solver::native_z3;

    /// Correlated branches: only a solver sees that the error is unreachable.
    const CORRELATED: &str = "extern int __VERIFIER_nondet_int(void);\n\
         int main() { int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int(); int i = 0; \
         while (i < 10) { i = i + 1; } if (x > y) { if (x < y) { ERROR: return 1; } } return 0; }";

    fn spec(preset: &str) -> RunSpec {
        RunSpec { preset: preset.into(), ..RunSpec::default() }
    }

    fn start(run: u64, preset: &str) -> ToEngine {
        ToEngine::Start { run, source: CORRELATED.into(), spec: spec(preset), asker: "analysis".into() }
    }

    /// Passes messages through serde as the channel does (JSON here).
    fn over_the_wire<T: Serialize + for<'de> Deserialize<'de>>(m: T) -> T {
        serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap()
    }

    /// Runs the host to the end with Debian's z3 answering, giving every
    /// batch of events to `fold` (run number, events, finished); `budget`
    /// ends slices. The origins of the queries asked, in order.
    fn pump_into(
        host: &mut EngineHost,
        mut budget: impl FnMut() -> bool,
        mut fold: impl FnMut(u64, Vec<Event>, bool),
    ) -> Vec<String> {
        let mut asked = Vec::new();
        let mut answers = Vec::new();
        while host.has_work() || !answers.is_empty() {
            for a in answers.drain(..) {
                assert!(host.receive(over_the_wire(a)).is_empty());
            }
            for m in host.slice(&mut budget) {
                match over_the_wire(m) {
                    FromEngine::Events { run, events, finished } => fold(run, events, finished),
                    FromEngine::Query { run, query } => {
                        asked.push(query.origin.clone());
                        answers.push(ToEngine::Answer { run, text: native_z3(&query.script) });
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
        asked
    }

    /// [`pump_into`] folding into the page's mirrors (by run number).
    fn pump(host: &mut EngineHost, mirrors: &mut [(u64, Run)], budget: impl FnMut() -> bool) -> Vec<String> {
        pump_into(host, budget, |run, events, finished| {
            mirrors.iter_mut().find(|(id, _)| *id == run).unwrap().1.fold(events, finished)
        })
    }

    fn mirror(preset: &str) -> Run {
        let mut run = Run::start(CORRELATED, spec(preset)).unwrap();
        run.hand_over();
        run
    }

    /// The run computed natively, sending every query to z3 as the page's
    /// parked runs do.
    fn native(preset: &str) -> Run {
        Run::start(CORRELATED, spec(preset)).unwrap().send_every_query().complete()
    }

    #[test]
    fn a_mirrored_run_gets_exactly_the_native_runs_trace_and_asks_every_query_in_order() {
        let mut host = EngineHost::default();
        assert!(host.receive(over_the_wire(start(7, "symbolic"))).is_empty());
        let mut mirrors = vec![(7, mirror("symbolic"))];
        assert!(!mirrors[0].1.finished());
        // One chunk per slice: many slices, each sending its events.
        let asked = pump(&mut host, &mut mirrors, || true);
        assert!(asked.len() >= 2, "{asked:?}");
        for (k, o) in asked.iter().enumerate() {
            assert_eq!(o, &format!("analysis (symbolic): query {k}"));
        }
        let run = &mirrors[0].1;
        assert!(run.finished());
        assert!(host.is_empty(), "a finished run is forgotten");
        assert_eq!(run.cursor.events(), native("symbolic").cursor.events());
        let verdict = run.cursor.events().iter().rev().find_map(|e| match e {
            Event::AnalysisFinished { verdict, .. } => Some(verdict.upper()),
            _ => None,
        });
        assert_eq!(verdict, Some("TRUE"));
    }

    #[test]
    fn a_parked_run_does_not_hold_up_another_and_both_end_as_natively() {
        let mut host = EngineHost::default();
        host.receive(start(1, "symbolic"));
        host.receive(ToEngine::Start {
            run: 2,
            // A longer loop: still computing when the symbolic run parks.
            source: CORRELATED.replace("i < 10", "i < 200"),
            spec: spec("value"),
            asker: "compare".into(),
        });
        // Slice until the symbolic run parks on its first query.
        while !host.slice(|| true).iter().any(|m| matches!(m, FromEngine::Query { run: 1, .. })) {}
        // Unanswered, it waits; the value run goes on meanwhile.
        let mut value_events = 0;
        while host.has_work() {
            for m in host.slice(|| true) {
                match m {
                    FromEngine::Events { run: 2, events, .. } => value_events += events.len(),
                    other => panic!("only the value run computes: {other:?}"),
                }
            }
        }
        assert!(value_events > 0);
        assert_eq!(host.len(), 1, "the value run is over, the symbolic one waits");
        // Start again from scratch for the whole comparison.
        let mut host = EngineHost::default();
        host.receive(start(1, "symbolic"));
        host.receive(ToEngine::Start { run: 2, source: CORRELATED.into(), spec: spec("value"), asker: "compare".into() });
        let mut mirrors = vec![(1, mirror("symbolic")), (2, mirror("value"))];
        pump(&mut host, &mut mirrors, || false);
        assert_eq!(mirrors[0].1.cursor.events(), native("symbolic").cursor.events());
        assert_eq!(mirrors[1].1.cursor.events(), native("value").cursor.events());
        assert!(mirrors.iter().all(|(_, r)| r.finished()));
    }

    #[test]
    fn cancel_forgets_a_run_and_a_late_answer_is_ignored() {
        let mut host = EngineHost::default();
        host.receive(start(3, "symbolic"));
        let out = host.slice(|| false);
        assert!(out.iter().any(|m| matches!(m, FromEngine::Query { run: 3, .. })));
        assert!(!host.has_work(), "parked");
        assert_eq!(host.receive(ToEngine::Cancel { run: 3 }), vec![FromEngine::Cancelled { run: 3 }]);
        assert!(host.is_empty());
        assert!(host.receive(ToEngine::Answer { run: 3, text: "unsat".into() }).is_empty());
        assert!(host.slice(|| false).is_empty());
    }

    #[test]
    fn a_broken_program_or_configuration_is_refused_with_the_pages_message() {
        let mut host = EngineHost::default();
        let broken = ToEngine::Start { run: 4, source: "int main( {".into(), spec: spec("value"), asker: "analysis".into() };
        let out = host.receive(broken);
        let expected = Run::start("int main( {", spec("value")).err().unwrap();
        assert_eq!(out, vec![FromEngine::Refused { run: 4, message: expected }]);
        let out = host.receive(ToEngine::Start {
            run: 5,
            source: CORRELATED.into(),
            spec: spec("no-such-preset"),
            asker: "analysis".into(),
        });
        assert!(matches!(&out[..], [FromEngine::Refused { run: 5, message }] if message.starts_with("configuration: ")));
        assert!(host.is_empty());
    }

    #[test]
    fn direct_queries_resume_their_own_runs_and_survive_a_new_z3_worker() {
        // Two runs parked on queries asked directly of Z3's worker.
        let mut host = EngineHost::default();
        let mut direct = DirectSolver::default();
        host.receive(start(1, "symbolic"));
        host.receive(ToEngine::Start { run: 2, source: CORRELATED.into(), spec: spec("symbolic"), asker: "compare".into() });
        let mut asked = Vec::new();
        while asked.len() < 2 {
            for m in host.slice(|| false) {
                if let FromEngine::Query { run, query } = m {
                    asked.push((direct.ask(run, &query.script, 10.0), run, query.script));
                }
            }
        }
        assert!(!host.has_work() && direct.is_waiting());
        // Z3's worker is replaced before answering: both are asked again
        // under new numbers, and a late answer to an old number is dropped.
        let again = direct.renumber();
        assert_eq!(again.iter().map(|(_, s)| s.clone()).collect::<Vec<_>>(), vec![asked[0].2.clone(), asked[1].2.clone()]);
        assert_eq!(direct.answered(asked[0].0, 20.0), None);
        // Run 2 is cancelled: its answer is dropped too.
        direct.forget(2);
        host.receive(ToEngine::Cancel { run: 2 });
        assert_eq!(direct.answered(again[1].0, 30.0), None);
        // Run 1's answer resumes run 1 only, and says how long Z3 took.
        assert_eq!(direct.answered(again[0].0, 35.5), Some((1, 26)));
        assert!(!direct.is_waiting());
        // A crashed Z3 worker: what still waits is dropped, run by run.
        let lost = direct.ask(1, "(check-sat)", 40.0);
        assert_eq!(direct.lose(45.0), vec![(1, 5)]);
        assert_eq!(direct.answered(lost, 50.0), None);
        host.receive(ToEngine::Answer { run: 1, text: native_z3(&again[0].1) });
        assert!(host.has_work());
        // The messages for the page's solver log cross as JSON as well.
        let query = Query { origin: "analysis (symbolic): query 0".into(), script: again[0].1.clone(), legend: Vec::new() };
        let asked = FromEngine::Asked { run: 1, query };
        assert_eq!(over_the_wire(asked.clone()), asked);
        let answered = FromEngine::Answered { run: 1, outcome: Err("no Z3".into()), ms: 26 };
        assert_eq!(over_the_wire(answered.clone()), answered);
    }

    #[test]
    fn the_analysis_pane_hands_its_run_over_and_is_computed_when_the_last_events_arrive() {
        let mut pane = AnalysisState::new(spec("symbolic"));
        pane.reduce(crate::model::analysis::PaneAction::Analyze(CORRELATED.into()));
        assert!(pane.computing);
        let handed = pane.hand_over();
        assert_eq!(handed.len(), 1);
        assert_eq!((handed[0].part, handed[0].source.as_str(), handed[0].asker.as_str()), (0, CORRELATED, "analysis"));
        let mut host = EngineHost::default();
        host.receive(ToEngine::Start {
            run: 9,
            source: handed[0].source.clone(),
            spec: handed[0].spec.clone(),
            asker: handed[0].asker.clone(),
        });
        pump_into(&mut host, || false, |_, events, finished| pane.fold(0, events, finished));
        assert!(!pane.computing, "the pane noted the end");
        assert_eq!(pane.run.as_ref().unwrap().cursor.events(), native("symbolic").cursor.events());
    }

    #[test]
    fn the_compare_view_hands_over_every_run_and_is_computed_when_the_last_one_ends() {
        use crate::model::compare::{CompareAction, CompareView};
        let mut view = CompareView::default();
        view.reduce(CompareAction::Choice(0, "value".into()));
        view.reduce(CompareAction::Choice(1, "symbolic".into()));
        view.reduce(CompareAction::Choice(2, String::new()));
        view.reduce(CompareAction::Restore {
            source: CORRELATED.into(),
            presets: vec!["value".into(), "symbolic".into()],
            step: Some(2),
            int_model: minic::IntModel::C,
        });
        assert!(view.computing);
        let handed = view.hand_over();
        assert_eq!(handed.iter().map(|h| (h.part, h.asker.as_str())).collect::<Vec<_>>(), [(0, "compare"), (1, "compare")]);
        let mut host = EngineHost::default();
        for (k, h) in handed.iter().enumerate() {
            host.receive(ToEngine::Start {
                run: 10 + k as u64,
                source: h.source.clone(),
                spec: h.spec.clone(),
                asker: h.asker.clone(),
            });
        }
        let origins = pump_into(&mut host, || true, |run, events, finished| view.fold((run - 10) as usize, events, finished));
        assert!(!origins.is_empty() && origins.iter().all(|o| o.starts_with("compare (symbolic): query ")), "{origins:?}");
        assert!(!view.computing && view.step == 2, "computed, and the link's step shown");
        for (run, preset) in view.runs.iter().zip(["value", "symbolic"]) {
            let spec = RunSpec { preset: preset.into(), max_steps: crate::model::compare::DEFAULT_LIMIT, ..RunSpec::default() };
            assert_eq!(run.cursor.events(), Run::start(CORRELATED, spec).unwrap().send_every_query().complete().cursor.events());
        }
    }

    /// The messages the worker decodes once when it starts are of every
    /// kind the page decodes on a start, each event kind of a run's first
    /// steps among them, and they read back as they were written.
    #[test]
    fn the_worker_s_sample_messages_cover_a_start_and_read_back_unchanged() {
        let sample = sample_messages();
        let kinds: std::collections::BTreeSet<&str> = sample
            .iter()
            .map(|m| match m {
                FromEngine::Events { .. } => "events",
                FromEngine::Query { .. } => "query",
                FromEngine::Asked { .. } => "asked",
                FromEngine::Answered { .. } => "answered",
                _ => "other",
            })
            .collect();
        assert_eq!(kinds.into_iter().collect::<Vec<_>>(), ["answered", "asked", "events", "query"]);
        let events: Vec<&Event> = sample
            .iter()
            .flat_map(|m| match m {
                FromEngine::Events { events, .. } => events.iter().collect(),
                _ => Vec::new(),
            })
            .collect();
        for (what, seen) in [
            ("a waitlist pop", events.iter().any(|e| matches!(e, Event::WaitlistPop { .. }))),
            ("a transfer", events.iter().any(|e| matches!(e, Event::Transfer { .. }))),
            ("a merge", events.iter().any(|e| matches!(e, Event::Merge { .. }))),
            ("a stop check", events.iter().any(|e| matches!(e, Event::Stop { .. }))),
            ("a finished run", sample.iter().any(|m| matches!(m, FromEngine::Events { finished: true, .. }))),
        ] {
            assert!(seen, "the sample has {what}");
        }
        for m in &sample {
            assert_eq!(&decode(&encode(m).unwrap()).unwrap(), m);
        }
    }
}
