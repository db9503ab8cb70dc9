//! The checkers: one per question kind, each grading by running the real
//! analysis.
//!
//! Checking is split in two so the page never blocks and can answer SMT
//! queries with its asynchronous z3:
//!
//! 1. [`plan`]`(exercise, answer)` reads the answer (a syntax error is
//!    feedback right away, with its line/column) and says what must run:
//!    [`Plan::runs`] (analyses, see [`RunRequest::start`]) and
//!    [`Plan::smt`] (SMT-LIB2 scripts, for invariants);
//! 2. [`Plan::grade`]`(run results, solver outputs)` compares what the
//!    analysis did with the answer and returns a [`Feedback`] that says, in
//!    words, what the analysis actually did.
//!
//! [`check_sync`] does both at once ([`check_cached`] with a cache of runs
//! for batch grading) (natively with the system z3; in the
//! page for kinds that need no solver).

use crate::model::{Answer, ConfigSpec, Exercise, Question, StateDomain, StepQuestion};
use crate::predict::{self, MergeOutcome, Prediction, StepOutcome, StopOutcome};
use crate::run::{RunCache, RunRequest, RunResult};
use crate::state::{self, Relation, StateText};
use engine::trace::{Event, StateId, Verdict, ViewContent};
use serde::Serialize;

/// The result of checking one answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Feedback {
    /// The exercise's id.
    pub exercise: String,
    /// Whether the answer is right (all of it).
    pub correct: bool,
    /// Points earned (partial only for `next-step`, per question).
    pub points: f64,
    /// The exercise's points.
    pub max_points: u32,
    /// What the analysis did and how the answer compares, in words.
    pub explanation: String,
    /// More lines: per-question results, counterexamples.
    pub details: Vec<String>,
    /// For a wrong answer, the explanation with the reference answer in it
    /// (what the analysis answered, counted, reached, did); `explanation`
    /// and `details` never hold it. Shown only when the set reveals it
    /// ([`crate::wrong::reveals`]). `None` for a right answer (its
    /// explanation says everything) and for kinds whose feedback is about
    /// the student's own configuration, program or invariant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
}

impl Feedback {
    fn wrong(ex: &Exercise, explanation: impl Into<String>) -> Feedback {
        Feedback {
            exercise: ex.id.clone(),
            correct: false,
            points: 0.0,
            max_points: ex.points,
            explanation: explanation.into(),
            details: vec![],
            solution: None,
        }
    }
    fn verdict(ex: &Exercise, correct: bool, explanation: impl Into<String>) -> Feedback {
        Feedback {
            exercise: ex.id.clone(),
            correct,
            points: if correct { ex.points as f64 } else { 0.0 },
            max_points: ex.points,
            explanation: explanation.into(),
            details: vec![],
            solution: None,
        }
    }
    /// Right: the full explanation. Wrong: `hint` (what is off, without the
    /// answer), with the full explanation kept as the solution.
    fn guarded(ex: &Exercise, correct: bool, full: String, hint: String) -> Feedback {
        if correct {
            Feedback::verdict(ex, true, full)
        } else {
            Feedback { solution: Some(full), ..Feedback::verdict(ex, false, hint) }
        }
    }
}

/// What a check must run before it can grade.
#[derive(Clone, Debug)]
pub struct Plan {
    exercise: Exercise,
    answer: Answer,
    /// The analyses to run, in order; pass their results to [`Plan::grade`]
    /// in the same order.
    pub runs: Vec<RunRequest>,
    /// SMT-LIB2 scripts to answer (one solver output per script, in order).
    pub smt: Vec<String>,
    invariant: Option<crate::invariant::InvariantCheck>,
}

/// Grades a `transformed-line` answer against the transformed program
/// (`crate::transformed`): nothing runs.
fn grade_transformed_line(ex: &Exercise, line: u32, choices: &[String], choice: u32) -> Feedback {
    let program = match crate::run::parse_program(&ex.program) {
        Ok(p) => p,
        Err(m) => return Feedback::wrong(ex, m),
    };
    let config = match config_for(ex, &ex.config, "the exercise's configuration") {
        Ok(c) => c,
        Err(f) => return f,
    };
    let (ops, right) = match (
        crate::transformed::operations_at(&program, &config, line),
        crate::transformed::right_choices(&program, &config, line, choices),
    ) {
        (Ok(o), Ok(r)) => (o, r),
        (Err(m), _) | (_, Err(m)) => return Feedback::wrong(ex, format!("this exercise cannot be graded: {m}")),
    };
    let chosen = choices.get(choice.saturating_sub(1) as usize).cloned().unwrap_or_default();
    let ok = right.contains(&(choice as usize));
    let full = format!("{} transforms line {line} into `{}`; you chose `{chosen}`.", ex.config.describe(), ops.join("` and `"));
    Feedback::guarded(
        ex,
        ok,
        full,
        format!("`{chosen}` is not what the transformation makes of line {line}: open the Transformed tab (or `cpaplay transform`) and find the line."),
    )
}

fn config_for(ex: &Exercise, spec: &ConfigSpec, label: &str) -> Result<engine::Config, Feedback> {
    spec.to_config().map_err(|e| Feedback::wrong(ex, format!("{label}: {}", e.message)))
}

/// Reads the answer and says what must run to check it. `Err` is feedback
/// that needs no run (wrong kind, a syntax error in the answer, a key that
/// is not open, …).
pub fn plan(ex: &Exercise, answer: &Answer) -> Result<Plan, Feedback> {
    if answer.kind() != ex.question.kind() {
        return Err(Feedback::wrong(
            ex,
            format!("this is a {} question, but the answer is of kind {}", ex.question.kind(), answer.kind()),
        ));
    }
    let mut p = Plan { exercise: ex.clone(), answer: answer.clone(), runs: vec![], smt: vec![], invariant: None };
    let base = || -> Result<RunRequest, Feedback> {
        Ok(RunRequest::new(ex.config.describe(), &ex.program, config_for(ex, &ex.config, "the exercise's configuration")?))
    };
    match (&ex.question, answer) {
        (Question::Verdict, Answer::Verdict { verdict }) => {
            parse_verdict(verdict)
                .ok_or_else(|| Feedback::wrong(ex, format!("`{verdict}` is not a verdict: say true, false or unknown")))?;
            p.runs.push(base()?);
        }
        (Question::Count { .. }, Answer::Count { .. }) | (Question::NextStep { .. }, Answer::NextStep { .. }) => {
            if let Answer::NextStep { merge, stop, .. } = answer {
                next_step_prediction(None, merge, stop).map_err(|m| Feedback::wrong(ex, m))?;
            }
            p.runs.push(base()?);
        }
        (Question::ChooseConfiguration { presets, open, .. }, Answer::ChooseConfiguration { preset, set }) => {
            let chosen = preset.clone().unwrap_or_else(|| ex.config.preset.clone());
            if chosen != ex.config.preset && !presets.contains(&chosen) {
                return Err(Feedback::wrong(
                    ex,
                    format!("`{chosen}` is not one of the presets offered ({})", offered(&ex.config.preset, presets)),
                ));
            }
            let mut spec = ConfigSpec { preset: chosen, set: ex.config.set.clone(), locked: true };
            for (k, v) in set {
                let Some(allowed) = open.get(k) else {
                    return Err(Feedback::wrong(ex, format!("`{k}` is not open in this exercise")));
                };
                if !allowed.is_empty() && !allowed.iter().any(|a| a.eq_ignore_ascii_case(v.trim())) {
                    return Err(Feedback::wrong(
                        ex,
                        format!("`{k} = {v}` is not offered (choose one of {})", allowed.join(", ")),
                    ));
                }
                spec.set.insert(k.clone(), v.clone());
            }
            let config = config_for(ex, &spec, "your configuration")?;
            p.runs.push(RunRequest::new(spec.describe(), &ex.program, config));
        }
        (Question::Separate { a, b }, Answer::Separate { program }) => {
            if program.len() > 100_000 {
                return Err(Feedback::wrong(ex, "the program is longer than 100000 bytes"));
            }
            crate::run::parse_program(program).map_err(|m| Feedback::wrong(ex, format!("your program does not parse: {m}")))?;
            p.runs.push(RunRequest::new(format!("A ({})", a.describe()), program, config_for(ex, a, "configuration A")?));
            p.runs.push(RunRequest::new(format!("B ({})", b.describe()), program, config_for(ex, b, "configuration B")?));
        }
        (Question::AbstractState { domain, .. }, Answer::AbstractState { state: text }) => {
            let parsed = state::parse_state(text).map_err(|e| Feedback::wrong(ex, format!("your state, {e}")))?;
            let program = crate::run::parse_program(&ex.program).map_err(|m| Feedback::wrong(ex, m))?;
            student_state(&program, *domain, &parsed).map_err(|m| Feedback::wrong(ex, m))?;
            let mut r = base()?;
            r.record_views = true;
            p.runs.push(r);
        }
        (Question::Precision { minimal }, Answer::Precision { variables }) => {
            let program = crate::run::parse_program(&ex.program).map_err(|m| Feedback::wrong(ex, m))?;
            let mut vars: Vec<String> = Vec::new();
            for v in variables {
                let id = state::resolve_var(&program, v.trim()).map_err(|m| Feedback::wrong(ex, m))?;
                let q = program.variables.iter().find(|x| x.id == id).map(|x| x.qualified.clone()).unwrap_or_default();
                if !vars.contains(&q) {
                    vars.push(q);
                }
            }
            if vars.len() > 16 {
                return Err(Feedback::wrong(ex, "name at most 16 variables"));
            }
            let mut r = base()?;
            r.label = format!("value analysis tracking exactly {{{}}}", vars.join(", "));
            r.static_precision = Some(vars.clone());
            p.runs.push(r.clone());
            if *minimal {
                for i in 0..vars.len() {
                    let mut fewer = vars.clone();
                    let dropped = fewer.remove(i);
                    let mut q = r.clone();
                    q.label = format!("without `{dropped}`");
                    q.static_precision = Some(fewer);
                    p.runs.push(q);
                }
            }
        }
        (Question::Invariant { location }, Answer::Invariant { expression }) => {
            let program = crate::run::parse_program(&ex.program).map_err(|m| Feedback::wrong(ex, m))?;
            let node = location.resolve(&program).map_err(|m| Feedback::wrong(ex, m))?;
            let config = config_for(ex, &ex.config, "the exercise's configuration")?;
            let c = crate::invariant::InvariantCheck::new(&program, &ex.program, node, expression, config.int_model())
                .map_err(|m| Feedback::wrong(ex, format!("your invariant: {m}")))?;
            p.smt = c.scripts();
            p.invariant = Some(c);
        }
        (Question::Predicates { .. }, Answer::Predicates { predicates }) => {
            let program = crate::run::parse_program(&ex.program).map_err(|m| Feedback::wrong(ex, m))?;
            if predicates.iter().map(String::len).sum::<usize>() > 4000 {
                return Err(Feedback::wrong(ex, "the predicates are longer than 4000 characters"));
            }
            let parsed = crate::predicates::parse_predicates(&program, predicates)
                .map_err(|m| Feedback::wrong(ex, format!("your predicates: {m}")))?;
            if parsed.is_empty() {
                return Err(Feedback::wrong(ex, "write at least one predicate, e.g. `x == 0`"));
            }
            p.runs.push(base()?);
        }
        (Question::Abstraction { choices, .. }, Answer::Abstraction { choice }) => {
            if *choice == 0 || *choice as usize > choices.len() {
                return Err(Feedback::wrong(ex, format!("choose one of the {} formulas", choices.len())));
            }
            p.runs.push(base()?);
        }
        (Question::TransformedLine { choices, .. }, Answer::TransformedLine { choice }) => {
            // Graded against the transformed program alone: nothing runs.
            if *choice == 0 || *choice as usize > choices.len() {
                return Err(Feedback::wrong(ex, format!("choose one of the {} operations", choices.len())));
            }
        }
        _ => return Err(Feedback::wrong(ex, "the answer does not fit the question")),
    }
    Ok(p)
}

fn offered(own: &str, presets: &[String]) -> String {
    let mut all = vec![own.to_string()];
    all.extend(presets.iter().filter(|p| *p != own).cloned());
    all.join(", ")
}

/// Where to look when a prediction of one step's `question` was wrong.
fn step_hint(question: &str) -> &'static str {
    match question {
        "popped" => "the waitlist's order (its strategy) decides which state comes next",
        "merge" => "compare the new state with the reached states at its location under the merge operator",
        _ => "stop asks whether a reached state at the same location covers the new one",
    }
}

fn parse_verdict(s: &str) -> Option<Verdict> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" => Some(Verdict::True),
        "false" => Some(Verdict::False),
        "unknown" => Some(Verdict::Unknown),
        _ => None,
    }
}

fn next_step_prediction(popped: Option<u32>, merge: &Option<String>, stop: &Option<String>) -> Result<Prediction, String> {
    let merge = match merge {
        None => None,
        Some(m) => {
            Some(MergeOutcome::from_key(m.trim()).ok_or_else(|| format!("merge: `{m}` is not one of kept, joined, widened"))?)
        }
    };
    let stop = match stop {
        None => None,
        Some(s) => Some(
            StopOutcome::from_key(s.trim())
                .ok_or_else(|| format!("stop: `{s}` is not one of covered, not-covered, some, none"))?,
        ),
    };
    Ok(Prediction { popped: popped.map(StateId), merge, stop })
}

/// The student's state as an element of the question's domain.
enum Student {
    Values(Option<std::collections::BTreeMap<cfa::VarId, i128>>),
    Octagon(domains::Octagon),
}

fn student_state(program: &cfa::Program, domain: StateDomain, s: &StateText) -> Result<Student, String> {
    match domain {
        StateDomain::Value => state::values_of(program, s).map(Student::Values),
        StateDomain::Octagon => state::octagon_of(program, s, true, false).map(Student::Octagon),
        StateDomain::Interval => state::octagon_of(program, s, false, true).map(Student::Octagon),
    }
}

fn summary(r: &RunResult) -> String {
    format!(
        "finished with {} ({}) after {} steps, with {} states in the reached set and {} created",
        r.verdict.upper(),
        r.reason,
        r.stats.steps,
        r.stats.reached,
        r.stats.created
    )
}

impl Plan {
    /// The exercise this plan checks.
    pub fn exercise(&self) -> &Exercise {
        &self.exercise
    }

    /// Grades the answer from the results of [`Plan::runs`] and the solver
    /// outputs for [`Plan::smt`] (both in order). Missing results count as
    /// runs that did not finish.
    pub fn grade(&self, runs: &[RunResult], smt: &[String]) -> Feedback {
        let ex = &self.exercise;
        let missing = RunResult::failed("the analysis was not run");
        let run = |i: usize| runs.get(i).unwrap_or(&missing);
        let r0 = run(0);
        if let (false, Some(e)) = (self.runs.is_empty(), &r0.error) {
            return Feedback::wrong(ex, format!("the analysis could not run: {e}"));
        }
        let label = self.runs.first().map(|r| r.label.clone()).unwrap_or_default();
        match (&ex.question, &self.answer) {
            (Question::Verdict, Answer::Verdict { verdict }) => {
                let said = parse_verdict(verdict).unwrap_or(Verdict::Unknown);
                let ok = said == r0.verdict;
                Feedback::guarded(
                    ex,
                    ok,
                    format!("{label} {}; you said {}.", summary(r0), said.upper()),
                    format!("{} is not what {label} answers. {}", said.upper(), crate::wrong::VERDICT_HINT),
                )
            }
            (Question::Count { measure, tolerance }, Answer::Count { value }) => {
                let actual = measure.of(&r0.stats);
                let ok = actual.abs_diff(*value) <= *tolerance;
                let tol = if *tolerance > 0 { format!(" (±{tolerance} accepted)") } else { String::new() };
                Feedback::guarded(
                    ex,
                    ok,
                    format!("{label} had {actual} {}{tol}; you said {value}. The run {}.", measure.words(), summary(r0)),
                    format!("{value} is {} {}{tol}.", crate::wrong::direction(*value, actual), measure.words()),
                )
            }
            (Question::ChooseConfiguration { max_states, .. }, Answer::ChooseConfiguration { .. }) => {
                let proved = r0.verdict == Verdict::True;
                let small = max_states.is_none_or(|m| r0.stats.reached <= m);
                let limit = max_states.map(|m| format!(" (at most {m} states allowed)")).unwrap_or_default();
                let why = if !proved {
                    "it does not prove the program".to_string()
                } else if !small {
                    format!("it proves the program, but with more states than allowed{limit}")
                } else {
                    format!("it proves the program{limit}")
                };
                Feedback::verdict(ex, proved && small, format!("Your configuration {label} {}: {why}.", summary(r0)))
            }
            (Question::Separate { .. }, Answer::Separate { .. }) => {
                let r1 = run(1);
                let a_ok = r0.verdict == Verdict::True;
                let b_ok = r1.error.is_none() && r1.verdict != Verdict::True;
                let mut fb = Feedback::verdict(
                    ex,
                    a_ok && b_ok,
                    match (a_ok, b_ok) {
                        (true, true) => "A proves your program and B does not: they are separated.".to_string(),
                        (false, _) => "A must prove your program TRUE, but it does not.".to_string(),
                        (true, false) => "B must fail to prove your program, but it proves it too.".to_string(),
                    },
                );
                fb.details.push(format!("{label} {}", summary(r0)));
                let l1 = self.runs.get(1).map(|r| r.label.clone()).unwrap_or_default();
                fb.details.push(format!("{l1} {}", summary(r1)));
                fb
            }
            (Question::AbstractState { location, domain }, Answer::AbstractState { state: text }) => {
                self.grade_state(r0, location, *domain, text)
            }
            (Question::Precision { minimal }, Answer::Precision { .. }) => {
                let proved = r0.verdict == Verdict::True;
                let mut fb = Feedback::verdict(ex, proved, format!("The {label} {}.", summary(r0)));
                if proved && *minimal {
                    let needless: Vec<String> = (1..self.runs.len())
                        .filter(|&i| run(i).verdict == Verdict::True)
                        .filter_map(|i| self.runs.get(i).map(|r| r.label.clone()))
                        .collect();
                    if !needless.is_empty() {
                        // Which variable is needless would give the minimal set away.
                        fb = Feedback::guarded(
                            ex,
                            false,
                            format!(
                                "The {label} proves the program, but it is not minimal: it also proves it {}.",
                                needless.join(", ")
                            ),
                            format!(
                                "The {label} proves the program, but it is not minimal: leaving out one of these variables, the program is still proved."
                            ),
                        );
                    } else {
                        fb.details.push(
                            "Leaving out any one of these variables, the program is no longer proved: the precision is minimal."
                                .into(),
                        );
                    }
                }
                fb
            }
            (Question::NextStep { step, ask }, Answer::NextStep { popped, merge, stop }) => {
                let mut from = 0;
                let outcome = loop {
                    match StepOutcome::next(&r0.events, from, true) {
                        Some(s) if s.step == *step => break Some(s),
                        Some(s) if s.step < *step && s.end > from => from = s.end,
                        _ => break None,
                    }
                };
                let Some(outcome) = outcome else {
                    return Feedback::wrong(
                        ex,
                        format!("{label} has no step {step}: the exercise asks about a step the run never makes."),
                    );
                };
                let mut pred = next_step_prediction(*popped, merge, stop).unwrap_or_default();
                if !ask.contains(&StepQuestion::Popped) {
                    pred.popped = None;
                }
                if !ask.contains(&StepQuestion::Merge) {
                    pred.merge = None;
                }
                if !ask.contains(&StepQuestion::Stop) {
                    pred.stop = None;
                }
                let g = predict::grade(&pred, &outcome);
                let (right, _) = g.score();
                let asked = ask.len().max(1);
                let points = (ex.points as f64 * right as f64 / asked as f64 * 100.0).floor() / 100.0;
                let correct = right == asked;
                let mut fb = Feedback {
                    exercise: ex.id.clone(),
                    correct,
                    points,
                    max_points: ex.points,
                    explanation: format!("Step {step} of {label}: {right} of {asked} predictions right."),
                    details: vec![],
                    solution: None,
                };
                let mut full = Vec::new();
                for a in &g.answers {
                    full.push(format!(
                        "{}: you said {}; the algorithm did: {} — {}",
                        a.question,
                        a.predicted,
                        a.actual,
                        if a.right { "right" } else { "wrong" }
                    ));
                    fb.details.push(if a.right {
                        format!("{}: you said {} — right", a.question, a.predicted)
                    } else {
                        format!("{}: you said {} — wrong; {}", a.question, a.predicted, step_hint(a.question))
                    });
                }
                if !correct {
                    fb.solution = Some(format!("{} {}", fb.explanation, full.join("; ")));
                }
                for q in ask {
                    let key = match q {
                        StepQuestion::Popped => "popped",
                        StepQuestion::Merge => "merge",
                        StepQuestion::Stop => "stop",
                    };
                    if !g.answers.iter().any(|a| a.question == key) {
                        fb.details.push(format!("{key}: not answered"));
                    }
                }
                fb
            }
            (Question::Invariant { .. }, Answer::Invariant { .. }) => match &self.invariant {
                Some(c) => {
                    let (ok, explanation, details) = c.grade(smt);
                    let mut fb = Feedback::verdict(ex, ok, explanation);
                    fb.details = details;
                    fb
                }
                None => Feedback::wrong(ex, "the invariant was not planned"),
            },
            (Question::Predicates { location, refinement }, Answer::Predicates { predicates }) => {
                self.grade_predicates(r0, location, *refinement, predicates)
            }
            (Question::Abstraction { state, choices }, Answer::Abstraction { choice }) => {
                self.grade_abstraction(r0, *state, choices, *choice)
            }
            (Question::TransformedLine { line, choices }, Answer::TransformedLine { choice }) => {
                grade_transformed_line(ex, *line, choices, *choice)
            }
            _ => Feedback::wrong(ex, "the answer does not fit the question"),
        }
    }

    fn grade_state(&self, r: &RunResult, location: &crate::model::LocationSpec, domain: StateDomain, text: &str) -> Feedback {
        let ex = &self.exercise;
        let Some(program) = r.program.as_deref() else { return Feedback::wrong(ex, "the program did not parse") };
        let node = match location.resolve(program) {
            Ok(n) => n,
            Err(m) => return Feedback::wrong(ex, m),
        };
        let parsed = match state::parse_state(text) {
            Ok(p) => p,
            Err(e) => return Feedback::wrong(ex, format!("your state, {e}")),
        };
        let student = match student_state(program, domain, &parsed) {
            Ok(s) => s,
            Err(m) => return Feedback::wrong(ex, m),
        };
        let views = r.reached_views_at(node);
        let line = program.nodes.iter().find(|n| n.id == node).map(|n| n.line).unwrap_or(0);
        let label = self.runs.first().map(|r| r.label.clone()).unwrap_or_default();
        let head =
            format!("{label} {}; at N{} (line {line}) the final reached set holds {} state(s)", summary(r), node.0, views.len());
        match (domain, student) {
            (StateDomain::Value, Student::Values(s)) => {
                let mut reference: Option<std::collections::BTreeMap<cfa::VarId, i128>> = None;
                for v in &views {
                    for c in &v.components {
                        if let ViewContent::Values { values } = &c.content {
                            let m = Some(values.iter().map(|b| (b.var, b.value)).collect());
                            reference = state::value_join(&reference, &m);
                        }
                    }
                }
                let rel = Relation::of(state::value_leq(&s, &reference), state::value_leq(&reference, &s));
                let full = format!(
                    "{head}, whose join is `{}`; you said `{}`: {}.",
                    state::values_text(program, &reference),
                    state::values_text(program, &s),
                    rel.words()
                );
                let mut fb = Feedback::guarded(
                    ex,
                    rel == Relation::Equal,
                    full,
                    wrong_state_head(program, node, &state::values_text(program, &s), rel),
                );
                if !fb.correct {
                    fb.details = crate::wrong::value_state(program, &s, &reference);
                }
                fb
            }
            (_, Student::Octagon(s)) => {
                let n = program.variables.len();
                let mut reference = domains::Octagon::bottom(n);
                for v in &views {
                    for c in &v.components {
                        if let ViewContent::Octagon { octagon } = &c.content {
                            match state::octagon_of_view(program, octagon) {
                                Ok(o) => reference = reference.join(&o),
                                Err(m) => return Feedback::wrong(ex, format!("cannot read the analysis's state: {m}")),
                            }
                        }
                    }
                }
                let (rel, rtext, stext) = if domain == StateDomain::Interval {
                    (
                        Relation::of(state::intervals_leq(&s, &reference), state::intervals_leq(&reference, &s)),
                        state::intervals_text(program, &reference),
                        state::intervals_text(program, &s),
                    )
                } else {
                    (
                        Relation::of(s.leq(&reference), reference.leq(&s)),
                        state::octagon_text(program, &reference),
                        state::octagon_text(program, &s),
                    )
                };
                let which = if domain == StateDomain::Interval { "whose join, as intervals, is" } else { "whose join is" };
                let full = format!("{head}, {which} `{rtext}`; you said `{stext}`: {}.", rel.words());
                let mut fb = Feedback::guarded(ex, rel == Relation::Equal, full, wrong_state_head(program, node, &stext, rel));
                if !fb.correct {
                    fb.details = crate::wrong::octagon_state(program, &parsed, &s, &reference, domain == StateDomain::Interval);
                }
                fb
            }
            _ => Feedback::wrong(ex, "the answer does not fit the domain"),
        }
    }
}

impl Plan {
    fn grade_predicates(
        &self,
        r: &RunResult,
        location: &crate::model::LocationSpec,
        refinement: u32,
        said: &[String],
    ) -> Feedback {
        use crate::predicates::parse_predicates;
        let ex = &self.exercise;
        let label = self.runs.first().map(|r| r.label.clone()).unwrap_or_default();
        let Some(program) = r.program.as_deref() else { return Feedback::wrong(ex, "the program did not parse") };
        let node = match location.resolve(program) {
            Ok(n) => n,
            Err(m) => return Feedback::wrong(ex, m),
        };
        let line = program.nodes.iter().find(|n| n.id == node).map(|n| n.line).unwrap_or(0);
        let mut refinements = r.events.iter().filter_map(|e| match e {
            Event::Refinement { predicates_added, .. } => Some(predicates_added),
            _ => None,
        });
        let Some(added) = refinements.nth(refinement.saturating_sub(1) as usize) else {
            return Feedback::wrong(
                ex,
                format!("{label} makes fewer than {refinement} refinement(s): the exercise asks about one the run never makes."),
            );
        };
        let here: Vec<String> =
            added.iter().filter(|p| p.location.is_none_or(|l| l == node)).map(|p| p.predicate.clone()).collect();
        let reference = match parse_predicates(program, &here) {
            Ok(r) => r,
            Err(m) => {
                return Feedback::wrong(
                    ex,
                    format!("this exercise cannot be graded: a predicate of the run is not a linear comparison ({m})"),
                )
            }
        };
        let student = match parse_predicates(program, said) {
            Ok(s) => s,
            Err(m) => return Feedback::wrong(ex, format!("your predicates: {m}")),
        };
        let has = |set: &[(crate::predicates::Atom, String)], a: &crate::predicates::Atom| set.iter().any(|(b, _)| b == a);
        let extra: Vec<&String> = student.iter().filter(|(a, _)| !has(&reference, a)).map(|(_, t)| t).collect();
        let missing = reference.iter().filter(|(a, _)| !has(&student, a)).count();
        let ok = extra.is_empty() && missing == 0;
        let full = format!(
            "Refinement {refinement} of {label} adds {} predicate(s) at N{} (line {line}): {}. You said: {}.",
            here.len(),
            node.0,
            if here.is_empty() {
                "none".to_string()
            } else {
                here.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
            },
            said.iter().map(|p| format!("`{}`", p.trim())).collect::<Vec<_>>().join(", ")
        );
        let mut fb = Feedback::guarded(
            ex,
            ok,
            full,
            format!("These are not the predicates refinement {refinement} adds at N{} (line {line}).", node.0),
        );
        if !ok {
            fb.details = crate::wrong::predicates(&extra, missing);
        }
        fb
    }

    fn grade_abstraction(&self, r: &RunResult, state: u32, choices: &[String], choice: u32) -> Feedback {
        use crate::predicates::{equivalent, parse_formula};
        let ex = &self.exercise;
        let label = self.runs.first().map(|r| r.label.clone()).unwrap_or_default();
        let Some(program) = r.program.as_deref() else { return Feedback::wrong(ex, "the program did not parse") };
        let Some(view) = r.events.iter().find_map(|e| match e {
            Event::Abstraction { state: s, abstraction } if s.0 == state => Some(abstraction),
            _ => None,
        }) else {
            return Feedback::wrong(
                ex,
                format!("{label} computes no abstraction for s{state}: the exercise asks about a state the run never abstracts."),
            );
        };
        let result = match parse_formula(program, &view.result) {
            Ok(f) => f,
            Err(m) => {
                return Feedback::wrong(ex, format!("this exercise cannot be graded: ψ' of s{state} does not read back ({m})"))
            }
        };
        let matching: Vec<usize> = choices
            .iter()
            .enumerate()
            .filter(|(_, c)| parse_formula(program, c).ok().and_then(|f| equivalent(&f, &result)) == Some(true))
            .map(|(i, _)| i + 1)
            .collect();
        if matching.len() != 1 {
            return Feedback::wrong(
                ex,
                format!("this exercise cannot be graded: {} of its choices are ψ' of s{state}, not exactly one", matching.len()),
            );
        }
        let ok = matching[0] == choice as usize;
        let chosen = choices.get(choice.saturating_sub(1) as usize).map(|c| c.trim()).unwrap_or("");
        let line = program.nodes.iter().find(|n| n.id == cfa::NodeId(view.location.0)).map(|n| n.line).unwrap_or(0);
        Feedback::guarded(
            ex,
            ok,
            format!(
                "{label}: the {} abstraction of s{state} at N{} (line {line}) over the predicates {} is ψ' = `{}` ({} solver queries); you chose `{chosen}`.",
                view.kind,
                view.location.0,
                view.predicates.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", "),
                view.result,
                view.queries
            ),
            format!("`{chosen}` is not ψ' of s{state} under {label}. {}", crate::wrong::ABSTRACTION_HINT),
        )
    }
}

/// The first line of a wrong abstract state's feedback: where, what the
/// student said and how it relates to the analysis's state (below, above,
/// incomparable), without that state.
fn wrong_state_head(program: &cfa::Program, node: cfa::NodeId, said: &str, rel: Relation) -> String {
    let line = program.nodes.iter().find(|n| n.id == node).map(|n| n.line).unwrap_or(0);
    format!("At N{} (line {line}) you said `{said}`: {}.", node.0, rel.words())
}

/// Plans, runs and grades in this thread: analyses with [`crate::run::run_sync`],
/// SMT scripts with the system z3 natively (in the page every script is
/// answered `unknown`: use [`plan`] and the page's z3 there).
pub fn check_sync(ex: &Exercise, answer: &Answer) -> Feedback {
    check_cached(ex, answer, &mut RunCache::new())
}

/// [`check_sync`] with a cache of runs and solver answers shared across
/// answers (batch grading: each distinct analysis runs once).
pub fn check_cached(ex: &Exercise, answer: &Answer, cache: &mut RunCache) -> Feedback {
    let p = match plan(ex, answer) {
        Ok(p) => p,
        Err(f) => return f,
    };
    let runs: Vec<RunResult> = p.runs.iter().map(|r| cache.run(r)).collect();
    let smt: Vec<String> = p
        .smt
        .iter()
        .map(|s| {
            if let Some(a) = cache.smt.get(s) {
                return a.clone();
            }
            let a = solve_sync(s);
            if cache.smt.len() > 4096 {
                cache.smt.clear();
            }
            cache.smt.insert(s.clone(), a.clone());
            a
        })
        .collect();
    p.grade(&runs, &smt)
}

#[cfg(not(target_arch = "wasm32"))]
fn solve_sync(script: &str) -> String {
    use smt::SolverBackend;
    thread_local! {
        static Z3: std::cell::RefCell<smt::Z3Process> =
            std::cell::RefCell::new(smt::Z3Process::system(std::time::Duration::from_secs(10)));
    }
    Z3.with(|z| z.borrow_mut().solve(script).unwrap_or_else(|e| e.as_output()))
}

#[cfg(target_arch = "wasm32")]
fn solve_sync(_script: &str) -> String {
    "unknown".into()
}
