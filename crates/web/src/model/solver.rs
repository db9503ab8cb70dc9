//! Z3 in the page: the browser back end of the solver interface.
//!
//! The engine hands out self-contained SMT-LIB2 scripts whose first output
//! line is `sat`, `unsat` or `unknown`; in the page they are answered by the
//! `z3-solver` package (Z3 compiled to WebAssembly, ~35 MB). Z3 is loaded
//! lazily: nothing of it is fetched before the first query, so the first
//! paint and every value/octagon analysis never wait for it.
//!
//! * UI-free (tested natively): [`Answer`] and [`parse_answer`] (Z3's output
//!   text → answer or [`SolverError`]), the [`SolverLog`] of every query with
//!   its answer and timing, [`LoadStatus`] (what the progress indicator
//!   shows, sent by Z3's worker), and [`ROUND_TRIP`], the sat and unsat
//!   queries of the round-trip button.
//! * In the browser only: `check(script)` (async; Z3 loads and solves in
//!   its own Web Worker, `www/js/z3-worker.mjs`, started on first need by
//!   `crate::platform::z3_worker`), `check_logged` (the same, recorded in the
//!   page-wide log; `check_logged_until` also stops waiting when a run is
//!   cancelled), and `subscribe`/`status` for the Solver log panel
//!   (`crate::ui::solver`).

use std::rc::Rc;

use serde::{Deserialize, Serialize};

/// Z3's verdict on a script's first `(check-sat)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// Z3 gave up (timeout, incomplete theory).
    Unknown,
    /// Not a satisfiability question: a quantifier elimination script
    /// (`(apply (then qe simplify))`, predicate refinement) answered with
    /// `(goals …)`, the formula without the quantified variables.
    Goals,
}

impl Answer {
    /// `sat`, `unsat` or `unknown`, as Z3 prints it.
    pub fn word(self) -> &'static str {
        match self {
            Answer::Sat => "sat",
            Answer::Unsat => "unsat",
            Answer::Unknown => "unknown",
            Answer::Goals => "goals",
        }
    }
}

/// Why a query has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverError {
    /// Z3 could not be loaded into the page (network, no cross-origin
    /// isolation, missing files).
    Load(String),
    /// Z3 rejected the script: its `(error "…")` message.
    Script(String),
    /// Z3 answered, but not with sat/unsat/unknown first.
    NoAnswer(String),
    /// Z3's worker stopped (crashed) before it answered; the next query
    /// starts a new one.
    Stopped(String),
    /// The run that asked was cancelled before Z3 answered; a late answer
    /// is ignored.
    Cancelled,
}

impl std::fmt::Display for SolverError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolverError::Load(m) => write!(f, "Z3 could not be loaded: {m}"),
            SolverError::Script(m) => write!(f, "Z3 rejected the query: {m}"),
            SolverError::NoAnswer(m) => write!(f, "Z3 gave no sat/unsat/unknown answer: {m}"),
            SolverError::Stopped(m) => write!(f, "Z3 stopped before it answered: {m}"),
            SolverError::Cancelled => write!(f, "cancelled before Z3 answered"),
        }
    }
}

/// Reads Z3's output for a script: the answer is the first `sat`, `unsat` or
/// `unknown` line, or a `(goals` line for a quantifier elimination script. An `(error "…")` line *before* it means the script was
/// wrong (Z3 keeps going after errors, so its answer is about a different
/// script); error lines after it come from later commands — typically
/// `(get-model)` after `unsat`, "model is not available" — and do not
/// change the answer.
pub fn parse_answer(output: &str) -> Result<Answer, SolverError> {
    for line in output.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match line {
            "sat" => return Ok(Answer::Sat),
            "unsat" => return Ok(Answer::Unsat),
            "unknown" => return Ok(Answer::Unknown),
            _ if line.starts_with("(goals") => return Ok(Answer::Goals),
            _ if line.starts_with("(error") => {
                let msg = line.trim_start_matches("(error").trim_end_matches(')').trim().trim_matches('"');
                return Err(SolverError::Script(msg.to_string()));
            }
            // `success` lines and the like before the answer.
            _ => {}
        }
    }
    let first = output.lines().map(str::trim).find(|l| !l.is_empty());
    Err(SolverError::NoAnswer(match first {
        Some(l) => l.chars().take(200).collect(),
        None => "empty output (no (check-sat) in the script?)".into(),
    }))
}

/// One query of the round-trip check: what it asks, the script, and the
/// answer a correct solver gives.
#[derive(Clone, Copy, Debug)]
pub struct RoundTripQuery {
    /// What the query asks, in words.
    pub label: &'static str,
    /// The SMT-LIB2 script.
    pub script: &'static str,
    /// The right answer.
    pub expected: Answer,
}

/// The round-trip button's two queries: the path conditions of two paths of
/// the built-in example (Listing 2.1). Leaving the loop with `flag <= 0`
/// and returning is feasible (sat); reaching `ERROR` needs `!(flag <= 0)`
/// and `!(flag > 0)` at once, which is infeasible (unsat).
pub const ROUND_TRIP: [RoundTripQuery; 2] = [
    RoundTripQuery {
        label: "path N5→N7 (flag <= 0, return 0): feasible?",
        script: "(set-logic QF_LIA)\n\
                 (declare-const flag Int)\n\
                 (declare-const ticks Int)\n\
                 (assert (>= ticks 0))\n\
                 (assert (<= flag 0))\n\
                 (check-sat)\n",
        expected: Answer::Sat,
    },
    RoundTripQuery {
        label: "error path N5→N8→N10→ERROR: feasible?",
        script: "(set-logic QF_LIA)\n\
                 (declare-const flag Int)\n\
                 (assert (not (<= flag 0)))\n\
                 (assert (not (> flag 0)))\n\
                 (check-sat)\n",
        expected: Answer::Unsat,
    },
];

/// One query in the log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    /// 1, 2, … in the order asked.
    pub id: usize,
    /// Who asked: `round trip`, `your query`, or the analysis step.
    pub origin: String,
    /// The SMT-LIB2 script sent.
    pub script: String,
    /// Z3's output text, once answered.
    pub output: Option<String>,
    /// The answer read from the output, or why there is none.
    pub result: Option<Result<Answer, SolverError>>,
    /// Milliseconds from asking to answer (includes loading Z3 for the first).
    pub elapsed_ms: Option<f64>,
    /// The answer a correct solver gives, when known (round trip).
    pub expected: Option<Answer>,
    /// The program's name of each SSA symbol the script uses (see
    /// [`symbol_legend`]); empty for queries not about a program.
    pub legend: Vec<(String, String)>,
}

impl LogEntry {
    /// The answer column: `sat`, `unsat`, `unknown`, `error: …`, or `…`
    /// while pending.
    /// A quantifier elimination answers with its goal's formula, shortened:
    /// `eliminated: (<= n x) …`.
    pub fn answer_text(&self) -> String {
        match &self.result {
            None => "…".into(),
            Some(Ok(Answer::Goals)) => {
                format!("eliminated: {}", readable(&goal_text(self.output.as_deref().unwrap_or("")), &self.legend))
            }
            Some(Ok(a)) => a.word().into(),
            Some(Err(e)) => format!("error: {e}"),
        }
    }

    /// What the query is for: the script's first line when it is an
    /// SMT-LIB2 comment (the engine names each query so: `; boolean
    /// abstraction at N3 over 2 predicates`), without the `;`.
    pub fn purpose(&self) -> Option<String> {
        let first = self.script.lines().next()?.trim();
        let text = first.strip_prefix(';')?.trim_start_matches(';').trim();
        (!text.is_empty()).then(|| text.to_string())
    }

    /// Whether the answer differs from the known right one.
    pub fn wrong(&self) -> bool {
        matches!((&self.result, self.expected), (Some(Ok(a)), Some(e)) if *a != e)
    }

    /// The entry as copyable text: the script, then the answer as an
    /// SMT-LIB2 comment.
    pub fn copy_text(&self) -> String {
        let mut s = self.script.clone();
        if !s.ends_with('\n') {
            s.push('\n');
        }
        match (&self.result, &self.output) {
            // The whole goal, one comment line per output line.
            (Some(Ok(Answer::Goals)), Some(out)) => {
                s += "; answer:\n";
                for l in out.lines() {
                    s += &format!(";   {l}\n");
                }
            }
            _ => s += &format!("; answer: {}\n", self.answer_text()),
        }
        s
    }
}

/// Longest goal text the log shows; the full output is in the copy text.
const GOAL_CHARS: usize = 160;

/// The formula of a `(goals (goal F₁ F₂ … :precision … :depth …))` answer,
/// its whitespace collapsed and shortened to [`GOAL_CHARS`]: the conjuncts
/// without the goal's keywords (`true` when the goal is empty).
fn goal_text(output: &str) -> String {
    let flat: String = output.split_whitespace().collect::<Vec<_>>().join(" ");
    let inner = flat.strip_prefix("(goals").unwrap_or(&flat).trim();
    let inner = inner.strip_suffix(')').unwrap_or(inner).trim();
    let inner = inner.strip_prefix("(goal").unwrap_or(inner).trim();
    let inner = inner.strip_suffix(')').unwrap_or(inner).trim();
    // The goal's keyword attributes come last.
    let formula = inner.find(" :precision").or_else(|| inner.find(":precision")).map_or(inner, |i| &inner[..i]).trim();
    let formula = if formula.is_empty() { "true" } else { formula };
    if formula.chars().count() > GOAL_CHARS {
        format!("{}…", formula.chars().take(GOAL_CHARS).collect::<String>())
    } else {
        formula.to_string()
    }
}

/// The program's name of each SSA symbol in `script`, in order of first
/// use: the engine's formulas name variable number `N` as `vN` and its
/// `k`-th SSA version as `vN@k`, so `v3@1` is listed as (`v3@1`, `i@1`).
/// A variable's short name is used when no other variable of the program
/// has it, else its qualified name (`main::i`). Symbols that are not
/// variables of `program` (memory cells, fresh constants) are left out.
pub fn symbol_legend(script: &str, program: &cfa::Program) -> Vec<(String, String)> {
    let mut legend: Vec<(String, String)> = Vec::new();
    for token in script.split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == '|') {
        let Some(rest) = token.strip_prefix('v') else { continue };
        let (number, version) = match rest.split_once('@') {
            Some((n, k)) => (n, Some(k)),
            None => (rest, None),
        };
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(number) || !version.is_none_or(digits) || legend.iter().any(|(sym, _)| sym == token) {
            continue;
        }
        let Some(var) = number.parse::<usize>().ok().and_then(|n| program.variables.get(n)) else { continue };
        let unique = program.variables.iter().filter(|v| v.name == var.name).count() == 1;
        let name = if unique { var.name.as_str() } else { var.qualified.as_str() };
        let readable = match version {
            Some(k) => format!("{name}@{k}"),
            None => name.to_string(),
        };
        legend.push((token.to_string(), readable));
    }
    legend
}

/// `text` with every symbol of `legend` replaced by its program name
/// (whole symbols only: `v1` does not touch `v12`).
pub fn readable(text: &str, legend: &[(String, String)]) -> String {
    if legend.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        match legend.iter().find(|(sym, _)| sym == token) {
            Some((_, name)) => out.push_str(name),
            None => out.push_str(token),
        }
        token.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() || c == '(' || c == ')' || c == '|' {
            flush(&mut token, &mut out);
            out.push(c);
        } else {
            token.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// Every query asked in this page, oldest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SolverLog {
    /// The entries, in order; shared, so a copy of the log (what the
    /// panels draw from) costs a pointer per entry, not its script. An
    /// entry that changes is copied first ([`Rc::make_mut`]), so a view
    /// holding the old one sees a different pointer.
    pub entries: Vec<Rc<LogEntry>>,
}

impl SolverLog {
    /// Records a new pending query; returns its id.
    pub fn ask(&mut self, origin: &str, script: &str, expected: Option<Answer>) -> usize {
        self.ask_with_legend(origin, script, expected, Vec::new())
    }

    /// Records a new pending query about a program, with the program's
    /// names of its SSA symbols ([`symbol_legend`]); returns its id.
    pub fn ask_with_legend(
        &mut self,
        origin: &str,
        script: &str,
        expected: Option<Answer>,
        legend: Vec<(String, String)>,
    ) -> usize {
        let id = self.entries.len() + 1;
        self.entries.push(Rc::new(LogEntry {
            id,
            origin: origin.into(),
            script: script.into(),
            output: None,
            result: None,
            elapsed_ms: None,
            expected,
            legend,
        }));
        id
    }

    /// Records the outcome of query `id` (Z3's output or a load error).
    pub fn answer(&mut self, id: usize, outcome: Result<String, SolverError>, elapsed_ms: f64) {
        let Some(e) = self.entries.iter_mut().find(|e| e.id == id) else { return };
        let e = Rc::make_mut(e);
        e.result = Some(match &outcome {
            Ok(out) => parse_answer(out),
            Err(err) => Err(err.clone()),
        });
        e.output = outcome.ok();
        e.elapsed_ms = Some(elapsed_ms);
    }

    /// Queries still waiting for Z3.
    pub fn pending(&self) -> usize {
        self.entries.iter().filter(|e| e.result.is_none()).count()
    }
}

/// How far loading Z3 has come, as Z3's worker reports it (its `status`
/// messages; also `cpaZ3.status()` in the page).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadStatus {
    /// `idle`, `script`, `download`, `compile`, `ready` or `failed`.
    pub phase: String,
    /// Bytes of `z3-built.wasm` received.
    #[serde(default)]
    pub loaded: u64,
    /// Its size, when the server says (0 otherwise).
    #[serde(default)]
    pub total: u64,
    /// Why loading failed.
    #[serde(default)]
    pub error: String,
}

impl LoadStatus {
    /// Parses the glue's JSON; anything unreadable is "not loaded".
    pub fn from_json(json: &str) -> LoadStatus {
        serde_json::from_str(json).unwrap_or_else(|_| LoadStatus { phase: "idle".into(), ..LoadStatus::default() })
    }

    /// Whether Z3 answers queries now.
    pub fn ready(&self) -> bool {
        self.phase == "ready"
    }

    /// Whether loading is under way.
    pub fn loading(&self) -> bool {
        matches!(self.phase.as_str(), "script" | "download" | "compile")
    }

    /// Download progress in [0, 1], when known.
    pub fn fraction(&self) -> Option<f64> {
        match self.phase.as_str() {
            "download" if self.total > 0 => Some((self.loaded as f64 / self.total as f64).min(1.0)),
            "compile" | "ready" => Some(1.0),
            _ => None,
        }
    }

    /// The status line of the Solver log panel.
    pub fn text(&self) -> String {
        let mb = |b: u64| b as f64 / 1_000_000.0;
        match self.phase.as_str() {
            "idle" | "" => "Z3 is not loaded yet: it loads (≈35 MB) the first time a query needs it.".into(),
            "script" => "Loading Z3: its JavaScript…".into(),
            "download" if self.total > 0 => {
                format!("Loading Z3: {:.1} of {:.1} MB of WebAssembly", mb(self.loaded), mb(self.total))
            }
            "download" => format!("Loading Z3: {:.1} MB of WebAssembly", mb(self.loaded)),
            "compile" => "Loading Z3: compiling and starting its threads…".into(),
            "ready" => "Z3 is ready.".into(),
            "failed" => format!("Z3 could not be loaded: {}", self.error),
            other => format!("Z3: {other}"),
        }
    }
}

/// Runs `script` through Debian's `z3` (as the page runs it through
/// z3-solver): the solver the model's native tests stand in for the page's.
#[cfg(test)]
pub(crate) fn native_z3(script: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new("z3")
        .args(["-in", "-smt2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("z3 is installed (scripts/setup.sh)");
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ssa_symbols_are_named_by_the_program() {
        let program = cfa::from_source(
            "int f(int i) { return i; }\nint main() { int n = __VERIFIER_nondet_int(); int i = 0; int x = 2 * i; return f(x + n); }",
        )
        .unwrap();
        let id = |q: &str| program.variables.iter().position(|v| v.qualified == q).unwrap();
        let (n, x, i) = (id("main::n"), id("main::x"), id("main::i"));
        let script = format!(
            "; WEAKEST interpolant\n(declare-fun v{n}@1 () Int)\n(declare-fun v{x}@2 () Int)\n(declare-fun v{i} () Int)\n(assert (< v{x}@2 v{n}@1 v{i} cell_3 v{n}@1))\n(apply qe)\n"
        );
        let legend = symbol_legend(&script, &program);
        // In order of first use, each once; `i` names two variables, so it is qualified.
        assert_eq!(
            legend,
            vec![
                (format!("v{n}@1"), "n@1".to_string()),
                (format!("v{x}@2"), "x@2".to_string()),
                (format!("v{i}"), "main::i".to_string()),
            ]
        );
        // Whole symbols only, so `v1` would not rewrite the start of `v12`.
        assert_eq!(readable(&format!("(<= v{x}@2 v{n}@1)"), &legend), "(<= x@2 n@1)");
        assert_eq!(readable(&format!("(<= v{x}@21 v{n}@1)"), &legend), format!("(<= v{x}@21 n@1)"));
        let mut log = SolverLog::default();
        let q = log.ask_with_legend("analysis", &script, None, legend);
        log.answer(q, Ok(format!("(goals\n(goal (<= v{x}@2 v{n}@1) :precision precise :depth 1)\n)\n")), 1.0);
        assert_eq!(log.entries[0].answer_text(), "eliminated: (<= x@2 n@1)");
        // The copy keeps Z3's own text, so it can be pasted back into Z3.
        assert!(log.entries[0].copy_text().contains(&format!("(<= v{x}@2 v{n}@1)")));
    }

    #[test]
    fn answers_are_read_from_the_first_line() {
        assert_eq!(parse_answer("sat\n"), Ok(Answer::Sat));
        assert_eq!(parse_answer("unsat\n(:reason-unknown \"\")\n"), Ok(Answer::Unsat));
        assert_eq!(parse_answer("\n  unknown\n"), Ok(Answer::Unknown));
        assert_eq!(parse_answer("sat\n(\n  (define-fun x () Int\n    0)\n)\n"), Ok(Answer::Sat));
        assert_eq!(
            parse_answer("(error \"line 1 column 156: invalid expression, unexpected input\")\n"),
            Err(SolverError::Script("line 1 column 156: invalid expression, unexpected input".into()))
        );
        assert!(matches!(parse_answer("(error \"unknown constant y\")\nsat\n"), Err(SolverError::Script(_))));
        assert!(matches!(parse_answer(""), Err(SolverError::NoAnswer(_))));
        assert!(matches!(parse_answer("success\n"), Err(SolverError::NoAnswer(_))));
        // (get-model) after unsat: Z3 complains after the answer; the answer stands.
        assert_eq!(parse_answer("unsat\n(error \"line 7 column 10: model is not available\")\n"), Ok(Answer::Unsat));
        assert_eq!(parse_answer("success\nsat\n"), Ok(Answer::Sat));
    }

    #[test]
    fn a_quantifier_elimination_answers_with_its_goal_and_names_its_purpose() {
        // The shape of the engine's refinement scripts: a comment naming the
        // query, then `(apply (then qe simplify))` — answered by Debian's z3
        // exactly as by the page's z3-solver, with `(goals …)`, no `sat`.
        let script = "; WEAKEST interpolant at N3 (cut 1 of 2 of the error path)\n(declare-const x Int)\n(declare-const y Int)\n\
                      (assert (exists ((z Int)) (and (= x (+ z 1)) (> z y))))\n(apply (then qe simplify))\n";
        let out = native_z3(script);
        assert_eq!(parse_answer(&out), Ok(Answer::Goals), "{out}");
        let mut log = SolverLog::default();
        let id = log.ask("analysis (predicate): query 0", script, None);
        log.answer(id, Ok(out), 3.0);
        let e = &log.entries[0];
        assert_eq!(e.purpose().as_deref(), Some("WEAKEST interpolant at N3 (cut 1 of 2 of the error path)"));
        assert_eq!(e.answer_text(), "eliminated: (<= (+ y (* (- 1) x)) (- 2))");
        assert!(e.copy_text().contains("; answer:\n;   (goals\n"), "{}", e.copy_text());
        // An empty goal is `true`; a script without a comment has no purpose.
        assert_eq!(goal_text("(goals\n(goal\n  :precision precise :depth 1)\n)\n"), "true");
        let plain = LogEntry { script: "(check-sat)\n".into(), ..(**e).clone() };
        assert_eq!(plain.purpose(), None);
    }

    #[test]
    fn the_log_records_queries_and_answers_in_order() {
        let mut log = SolverLog::default();
        let a = log.ask("round trip", ROUND_TRIP[0].script, Some(Answer::Sat));
        let b = log.ask("round trip", ROUND_TRIP[1].script, Some(Answer::Unsat));
        assert_eq!((a, b, log.pending()), (1, 2, 2));
        assert_eq!(log.entries[0].answer_text(), "…");
        log.answer(b, Ok("unsat\n".into()), 12.0);
        log.answer(a, Ok("unsat\n".into()), 500.0);
        assert_eq!(log.pending(), 0);
        assert!(log.entries[0].wrong(), "sat expected, unsat given");
        assert!(!log.entries[1].wrong());
        assert_eq!(log.entries[1].elapsed_ms, Some(12.0));
        assert!(log.entries[1].copy_text().ends_with("(check-sat)\n; answer: unsat\n"), "{}", log.entries[1].copy_text());
        let c = log.ask("your query", "(check-sat", None);
        log.answer(c, Err(SolverError::Load("cannot load z3-worker.js".into())), 1.0);
        assert_eq!(log.entries[2].answer_text(), "error: Z3 could not be loaded: cannot load z3-worker.js");
        assert!(!log.entries[2].wrong());
        // A cancelled run's query, and one whose worker crashed, say so (never "sat").
        let d = log.ask("analysis (symbolic): query 1", "(check-sat)", None);
        log.answer(d, Err(SolverError::Cancelled), 3.0);
        assert_eq!(log.entries[3].answer_text(), "error: cancelled before Z3 answered");
        let e = log.ask("analysis (symbolic): query 2", "(check-sat)", None);
        log.answer(e, Err(SolverError::Stopped("out of memory".into())), 3.0);
        assert_eq!(log.entries[4].answer_text(), "error: Z3 stopped before it answered: out of memory");
        log.answer(99, Ok("sat".into()), 0.0); // unknown ids are ignored
        assert_eq!(log.entries.len(), 5);
    }

    #[test]
    fn round_trip_queries_are_self_contained_and_end_in_check_sat() {
        for q in ROUND_TRIP {
            assert!(q.script.trim_end().ends_with("(check-sat)"), "{}", q.label);
            assert_eq!(q.script.matches('(').count(), q.script.matches(')').count(), "{}", q.label);
        }
        assert_eq!(ROUND_TRIP.map(|q| q.expected), [Answer::Sat, Answer::Unsat]);
    }

    #[test]
    fn a_symbolic_run_parks_on_each_query_and_resumes_with_the_answer_as_in_the_page() {
        use crate::model::analysis::{Run, RunSpec};
        let src = "extern int __VERIFIER_nondet_int(void);\n\
                   int main() { int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int(); if (x > y) { if (x < y) { ERROR: return 1; } } return 0; }";
        let spec = RunSpec { preset: "symbolic".into(), ..RunSpec::default() };
        // The page's way: no solver attached; every query parks the run.
        let mut page = Run::start(src, spec.clone()).unwrap();
        page.detach_solver();
        let mut log = SolverLog::default();
        let mut slices = 0;
        while !page.advance(8) {
            slices += 1;
            assert!(slices < 10_000, "the run makes progress");
            if let Some((qid, script)) = page.pending_query() {
                let id = log.ask(&format!("analysis query {qid}"), &script, None);
                let out = native_z3(&script);
                log.answer(id, Ok(out.clone()), 0.0);
                page.answer_query(&out);
                assert_eq!(page.pending_query(), None, "answered");
            }
        }
        assert!(!log.entries.is_empty(), "the symbolic analysis asked the solver");
        assert!(log.entries.iter().all(|e| matches!(e.result, Some(Ok(Answer::Sat | Answer::Unsat)))), "{log:?}");
        // The same trace as natively, where a z3 process is attached.
        let native = Run::start(src, spec).unwrap().send_every_query().complete();
        assert_eq!(page.cursor.events(), native.cursor.events());
        let verdict = page.cursor.events().iter().rev().find_map(|e| match e {
            engine::trace::Event::AnalysisFinished { verdict, .. } => Some(verdict.upper()),
            _ => None,
        });
        assert_eq!(verdict, Some("TRUE"));
    }

    #[test]
    fn load_status_lines() {
        assert_eq!(LoadStatus::from_json("not json").phase, "idle");
        let s = LoadStatus::from_json(r#"{"phase":"download","loaded":17469206,"total":34938413,"error":""}"#);
        assert!(s.loading() && !s.ready());
        assert_eq!(s.text(), "Loading Z3: 17.5 of 34.9 MB of WebAssembly");
        assert!((s.fraction().unwrap() - 0.5).abs() < 1e-6);
        let f = LoadStatus::from_json(r#"{"phase":"failed","error":"cannot load z3-built.js"}"#);
        assert_eq!(f.text(), "Z3 could not be loaded: cannot load z3-built.js");
        assert!(LoadStatus::from_json(r#"{"phase":"ready"}"#).ready());
    }

    #[test]
    fn an_answered_entry_is_a_new_pointer_while_a_copy_holds_the_old_one() {
        let mut log = SolverLog::default();
        let a = log.ask("round trip", "(check-sat)\n", None);
        let b = log.ask("round trip", "(assert false)\n(check-sat)\n", None);
        let shown = log.clone();
        log.answer(a, Ok("sat\n".into()), 3.0);
        // The view drawn from `shown` sees that `a` changed and `b` did not.
        assert!(!Rc::ptr_eq(&shown.entries[0], &log.entries[0]));
        assert!(Rc::ptr_eq(&shown.entries[1], &log.entries[1]));
        assert_eq!(shown.entries[0].answer_text(), "…");
        assert_eq!(log.entries[0].answer_text(), "sat");
        assert_eq!(log.entries[b - 1].id, b);
    }
}
