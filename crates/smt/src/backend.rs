//! Solver back ends: something that reads an SMT-LIB2 script and returns
//! what the solver printed.
//!
//! The interface is text in, text out ([`SolverBackend::solve`]), so the
//! same scripts go to a native `z3` process, to `z3-solver` in the browser
//! (which the page drives itself, asynchronously — see the engine's parked
//! queries), or to a table of recorded answers ([`RecordedBackend`]).
//!
//! Natively, [`Z3Process`] keeps one `z3 -in` process alive across queries
//! (each query starts with `(reset)`), with a per-query time limit; a
//! missing or dying `z3` is an [`SolverError`], never a panic or a hang.

use std::collections::BTreeMap;
use std::fmt;

/// Why a back end could not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverError {
    /// The reason in words (`z3 not found: …`, `timeout after 5000 ms`).
    pub reason: String,
}

impl SolverError {
    /// An error with this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        SolverError { reason: reason.into() }
    }

    /// The output text that stands for this error: `unknown` followed by an
    /// `(error "…")` line, which [`crate::parse_response`] reads back as an
    /// `unknown` answer with the reason.
    pub fn as_output(&self) -> String {
        format!("unknown\n(error \"{}\")\n", self.reason.replace('"', "'"))
    }
}

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for SolverError {}

/// A solver: runs one self-contained SMT-LIB2 script and returns its output.
pub trait SolverBackend {
    /// A short name for reports (`z3 4.8.12 (process)`).
    fn name(&self) -> String;
    /// The solver's output for `script` (first line `sat`/`unsat`/`unknown`).
    fn solve(&mut self, script: &str) -> Result<String, SolverError>;
    /// Like [`SolverBackend::solve`], but errors become `unknown` output
    /// text (see [`SolverError::as_output`]).
    fn solve_text(&mut self, script: &str) -> String {
        match self.solve(script) {
            Ok(s) => s,
            Err(e) => e.as_output(),
        }
    }
    /// Lets the next [`SolverBackend::solve`] take at most `limit` when that
    /// is less than the back end's own time limit — what is left of a run's
    /// time, so a query cannot outlast the run's limit. Once; back ends
    /// without a time limit ignore it.
    fn limit_next(&mut self, limit: std::time::Duration) {
        let _ = limit;
    }
}

/// A back end that answers from a table of recorded outputs (by script
/// text) — for replaying a trace or a corpus without a solver. Scripts not
/// in the table are answered `unknown`.
#[derive(Clone, Debug, Default)]
pub struct RecordedBackend {
    /// Script text → output text.
    pub answers: BTreeMap<String, String>,
}

impl SolverBackend for RecordedBackend {
    fn name(&self) -> String {
        "recorded answers".into()
    }
    fn solve(&mut self, script: &str) -> Result<String, SolverError> {
        self.answers.get(script).cloned().ok_or_else(|| SolverError::new("no recorded answer for this query"))
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub use native::{solver_totals, SolverTotals, Z3Process};

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::{SolverBackend, SolverError};
    use std::io::{BufRead, BufReader, Write};
    use std::path::PathBuf;
    use std::process::{Child, ChildStdin, Command, Stdio};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
    use std::time::{Duration, Instant};

    const DONE: &str = "@@cpaplay-done@@";

    static SCRIPTS: AtomicU64 = AtomicU64::new(0);
    static NANOS: AtomicU64 = AtomicU64::new(0);

    /// How many scripts every [`Z3Process`] of this process has run, and the
    /// wall-clock time spent waiting for their answers: what a benchmark
    /// (`cpaplay bench`) reports as the solver's share of an analysis,
    /// whichever part of the engine asked.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct SolverTotals {
        /// Scripts sent to a `z3` process (its answers, errors included).
        pub scripts: u64,
        /// Time from sending a script to reading its whole answer.
        pub time: Duration,
    }

    impl SolverTotals {
        /// The totals since `earlier` (a reading taken before).
        pub fn since(self, earlier: SolverTotals) -> SolverTotals {
            SolverTotals { scripts: self.scripts.saturating_sub(earlier.scripts), time: self.time.saturating_sub(earlier.time) }
        }
    }

    /// The process-wide [`SolverTotals`] so far (take two readings and
    /// [`SolverTotals::since`] to time one run).
    pub fn solver_totals() -> SolverTotals {
        SolverTotals { scripts: SCRIPTS.load(Ordering::Relaxed), time: Duration::from_nanos(NANOS.load(Ordering::Relaxed)) }
    }

    fn count_script(took: Duration) {
        SCRIPTS.fetch_add(1, Ordering::Relaxed);
        NANOS.fetch_add(took.as_nanos().min(u64::MAX as u128) as u64, Ordering::Relaxed);
    }

    struct Running {
        child: Child,
        stdin: ChildStdin,
        lines: Receiver<String>,
    }

    impl Drop for Running {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    /// A persistent `z3 -in` process answering scripts one after another.
    /// Started on the first query; restarted after it died or timed out.
    ///
    /// Incremental use: consecutive scripts of symbolic execution extend
    /// one path's constraints, so when a script has the shape
    /// [`crate::Query::to_smtlib`] prints (logic, declarations, asserts,
    /// `(check-sat)`) and the same logic as the previous one, the process
    /// keeps the asserts both share (each assert sits on its own
    /// `(push 1)` level), pops the rest and pushes only the new ones.
    /// Anything else runs after a `(reset)`.
    pub struct Z3Process {
        path: PathBuf,
        timeout: Duration,
        running: Option<Running>,
        version: Option<String>,
        incremental: Option<Incremental>,
        /// The next query's limit when less than `timeout`
        /// ([`SolverBackend::limit_next`]).
        next_limit: Option<Duration>,
        /// The `:timeout` (ms) the running process's incremental session
        /// has set.
        option_ms: Option<u128>,
    }

    /// What the running process holds in incremental mode.
    struct Incremental {
        logic: String,
        decls: std::collections::BTreeMap<String, String>,
        asserts: Vec<String>,
    }

    /// Whether the process holds so many more declarations than a query
    /// declares that it is cheaper to start afresh. Declarations are global
    /// (they outlive the `(pop)` of the asserts that used them), and
    /// `(get-model)` prints every declared constant: a long symbolic run
    /// that keeps declaring fresh inputs would make every answer, and so
    /// the whole run, grow quadratically. Resetting once the process holds
    /// twice the query's declarations (plus some slack) keeps each answer
    /// proportional to its query and the resets amortized.
    fn too_many_declarations(held: usize, wanted: usize) -> bool {
        held > 2 * wanted + 64
    }

    /// A script in the shape `Query::to_smtlib` prints.
    struct Parsed {
        logic: String,
        decls: Vec<(String, String)>,
        asserts: Vec<String>,
        tail: Vec<String>,
    }

    fn parse_script(script: &str) -> Option<Parsed> {
        let mut p = Parsed { logic: String::new(), decls: Vec::new(), asserts: Vec::new(), tail: Vec::new() };
        for line in script.lines() {
            let l = line.trim();
            if l.is_empty() || l.starts_with(';') || l == "(set-option :produce-models true)" {
                continue;
            }
            if let Some(rest) = l.strip_prefix("(set-logic ") {
                if !p.logic.is_empty() || !p.asserts.is_empty() {
                    return None;
                }
                p.logic = rest.trim_end_matches(')').to_string();
            } else if let Some(rest) = l.strip_prefix("(declare-fun ") {
                let name = rest.split_whitespace().next()?.to_string();
                p.decls.push((name, l.to_string()));
            } else if l.starts_with("(assert ") {
                if !p.tail.is_empty() {
                    return None;
                }
                p.asserts.push(l.to_string());
            } else if l == "(check-sat)" || l == "(get-model)" {
                p.tail.push(l.to_string());
            } else {
                return None;
            }
        }
        (!p.logic.is_empty() && p.tail.first().map(String::as_str) == Some("(check-sat)")).then_some(p)
    }

    impl Z3Process {
        /// A back end running the `z3` at `path` (Debian: `/usr/bin/z3`)
        /// with a time limit per query.
        pub fn new(path: impl Into<PathBuf>, timeout: Duration) -> Self {
            Z3Process {
                path: path.into(),
                timeout,
                running: None,
                version: None,
                incremental: None,
                next_limit: None,
                option_ms: None,
            }
        }

        /// `z3` from `$CPAPLAY_Z3`, else `/usr/bin/z3` if it exists, else `z3`
        /// on `PATH`.
        pub fn system(timeout: Duration) -> Self {
            let path = std::env::var_os("CPAPLAY_Z3").map(PathBuf::from).unwrap_or_else(|| {
                let deb = PathBuf::from("/usr/bin/z3");
                if deb.exists() {
                    deb
                } else {
                    PathBuf::from("z3")
                }
            });
            Z3Process::new(path, timeout)
        }

        /// The per-query time limit.
        pub fn timeout(&self) -> Duration {
            self.timeout
        }

        fn start(&mut self) -> Result<&mut Running, SolverError> {
            if self.running.is_none() {
                let mut child = Command::new(&self.path)
                    .arg("-in")
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::null())
                    .spawn()
                    .map_err(|e| SolverError::new(format!("cannot start z3 ({}): {e}", self.path.display())))?;
                let stdin = child.stdin.take().ok_or_else(|| SolverError::new("z3 has no stdin"))?;
                let stdout = child.stdout.take().ok_or_else(|| SolverError::new("z3 has no stdout"))?;
                let (tx, rx) = channel();
                std::thread::spawn(move || {
                    for line in BufReader::new(stdout).lines() {
                        match line {
                            Ok(l) => {
                                if tx.send(l).is_err() {
                                    break;
                                }
                            }
                            Err(_) => break,
                        }
                    }
                });
                self.running = Some(Running { child, stdin, lines: rx });
            }
            self.running.as_mut().ok_or_else(|| SolverError::new("z3 did not start"))
        }

        fn exchange(&mut self, input: &str, limit: Duration) -> Result<String, SolverError> {
            let deadline = Instant::now() + limit + Duration::from_millis(500);
            let r = self.start()?;
            r.stdin
                .write_all(input.as_bytes())
                .and_then(|_| r.stdin.flush())
                .map_err(|e| SolverError::new(format!("z3 stopped accepting input: {e}")))?;
            let mut out = String::new();
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                match r.lines.recv_timeout(left) {
                    Ok(line) if line.trim() == DONE => return Ok(out),
                    Ok(line) => {
                        out.push_str(&line);
                        out.push('\n');
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        return Err(SolverError::new(format!("z3 gave no answer within {} ms", limit.as_millis())))
                    }
                    Err(RecvTimeoutError::Disconnected) => return Err(SolverError::new("z3 exited while answering")),
                }
            }
        }

        /// The solver's version line (`Z3 version 4.8.12 - 64 bit`), asked once.
        pub fn version(&mut self) -> Result<String, SolverError> {
            if let Some(v) = &self.version {
                return Ok(v.clone());
            }
            let out = self.exchange(&format!("(get-info :version)\n(echo \"{DONE}\")\n"), self.timeout)?;
            let v = out.trim().to_string();
            self.version = Some(v.clone());
            Ok(v)
        }
    }

    impl SolverBackend for Z3Process {
        fn name(&self) -> String {
            format!("z3 process ({})", self.path.display())
        }

        fn limit_next(&mut self, limit: Duration) {
            self.next_limit = Some(limit);
        }

        fn solve(&mut self, script: &str) -> Result<String, SolverError> {
            let limit = self.next_limit.take().map_or(self.timeout, |l| l.min(self.timeout)).max(Duration::from_millis(1));
            let ms = limit.as_millis();
            let input = match (parse_script(script), self.running.is_some()) {
                (Some(p), running) => {
                    let compatible = running
                        && self.incremental.as_ref().is_some_and(|inc| {
                            inc.logic == p.logic
                                && p.decls.iter().all(|(n, l)| inc.decls.get(n).is_none_or(|m| m == l))
                                && !too_many_declarations(inc.decls.len(), p.decls.len())
                        });
                    let mut input = String::new();
                    if !compatible {
                        input.push_str(&format!(
                            "(reset)\n(set-option :global-declarations true)\n(set-option :produce-models true)\n(set-option :timeout {ms})\n(set-logic {})\n",
                            p.logic
                        ));
                        self.incremental =
                            Some(Incremental { logic: p.logic.clone(), decls: Default::default(), asserts: Vec::new() });
                        self.option_ms = Some(ms);
                    }
                    if self.option_ms != Some(ms) {
                        input.push_str(&format!("(set-option :timeout {ms})\n"));
                        self.option_ms = Some(ms);
                    }
                    let inc = self.incremental.as_mut().ok_or_else(|| SolverError::new("incremental state lost"))?;
                    let common = inc.asserts.iter().zip(&p.asserts).take_while(|(a, b)| a == b).count();
                    let pops = inc.asserts.len() - common;
                    if pops > 0 {
                        input.push_str(&format!("(pop {pops})\n"));
                    }
                    for (name, line) in &p.decls {
                        if !inc.decls.contains_key(name) {
                            input.push_str(line);
                            input.push('\n');
                            inc.decls.insert(name.clone(), line.clone());
                        }
                    }
                    for a in &p.asserts[common..] {
                        input.push_str("(push 1)\n");
                        input.push_str(a);
                        input.push('\n');
                    }
                    inc.asserts = p.asserts.clone();
                    for t in &p.tail {
                        input.push_str(t);
                        input.push('\n');
                    }
                    input
                }
                (None, _) => {
                    self.incremental = None;
                    self.option_ms = None;
                    format!("(reset)\n(set-option :timeout {ms})\n{script}\n")
                }
            };
            let started = Instant::now();
            let result = self.exchange(&format!("{input}(echo \"{DONE}\")\n"), limit);
            count_script(started.elapsed());
            match result {
                Ok(out) => Ok(out),
                Err(e) => {
                    // A process that timed out or died is not reused.
                    self.running = None;
                    self.incremental = None;
                    Err(e)
                }
            }
        }
    }
}
