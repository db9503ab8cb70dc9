//! Exercises in the page, as plain Rust (the Yew view is `crate::ui::exercise`):
//! which set and exercise the address names ([`Route`]), the set's files
//! fetched in rounds ([`FetchedFiles`]), the student's draft answer per
//! question kind ([`Draft`]), grading by running the real analysis in
//! slices ([`Grader`], driven as a [`Grading`] by the page's run driver),
//! and the progress kept in local storage and exported as an answers file
//! ([`Progress`]); the exercise view's state is [`SetState`], changed only
//! through [`SetState::reduce`].
//!
//! Grading is `exercises::plan` → the runs and SMT scripts it needs →
//! `Plan::grade`, the same code `cpaplay grade` runs natively; the page only
//! steps the runs between frames and answers their solver queries with its
//! own Z3 ([`GraderStep::Solver`]).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::Arc;

use engine::trace::Event;
use exercises::answers::AnswersFile;
use exercises::check::Plan;
use exercises::load::{SetFiles, SetLoad};
use exercises::model::{ConfigSpec, Question, StepQuestion};
use exercises::run::{Run, RunCache, RunResult, MAX_EVENTS};
use exercises::{Answer, Exercise, ExerciseSet, Feedback};
use minic::IntModel;
use serde::{Deserialize, Serialize};

use crate::model::analysis::RunSpec;
use crate::model::run_driver::{Chunk, Query, Sliced};

/// Where the page finds the exercise sets (relative to the page, so only
/// same-origin files are ever read).
pub const EXERCISES_DIR: &str = "exercises";

/// What the address's fragment asks for: the list of sets, or a set with
/// one of its exercises shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `#exercises`: the sets of `exercises/index.toml`.
    Sets,
    /// `#exercise-draft`: the exercise file an instructor made or loaded in
    /// this browser ([`draft_session`]), tried as a student would.
    Draft,
    /// `#exercise=SET` (its first exercise) or `#exercise=SET/ID`.
    Set {
        /// The set's id (its directory under [`EXERCISES_DIR`]).
        set: String,
        /// The exercise's id; `None`: the set's first.
        exercise: Option<String>,
    },
}

/// An id as the exercise format allows it (the loader's own rule): anything
/// else in a link is refused, so a link can only name files of this site's
/// exercise directory.
pub use exercises::load::valid_id;

/// Whether the playground below `ex` runs only the exercise's configuration
/// (chooser and configuration panel read-only). A `choose-configuration`
/// exercise is always open: the student's choice is the answer.
pub fn locks_playground(ex: &Exercise) -> bool {
    ex.config.locked && !matches!(ex.question, Question::ChooseConfiguration { .. })
}

impl Route {
    /// The route of a location hash (`#exercise=cpa-basics/table31-join`),
    /// or `None` when the hash is not about exercises or names an invalid id.
    pub fn parse(hash: &str) -> Option<Route> {
        let h = hash.strip_prefix('#').unwrap_or(hash);
        if h == "exercises" {
            return Some(Route::Sets);
        }
        if h == "exercise-draft" {
            return Some(Route::Draft);
        }
        let rest = h.strip_prefix("exercise=")?;
        let (set, exercise) = match rest.split_once('/') {
            Some((s, e)) => (s, Some(e)),
            None => (rest, None),
        };
        if !valid_id(set) || exercise.is_some_and(|e| !valid_id(e)) {
            return None;
        }
        Some(Route::Set { set: set.to_string(), exercise: exercise.map(str::to_string) })
    }

    /// The hash that opens this route (with `#`).
    pub fn fragment(&self) -> String {
        match self {
            Route::Sets => "#exercises".into(),
            Route::Draft => "#exercise-draft".into(),
            Route::Set { set, exercise: None } => format!("#exercise={set}"),
            Route::Set { set, exercise: Some(e) } => format!("#exercise={set}/{e}"),
        }
    }

    /// Whether a hash looks like an exercise link (valid or not), so the
    /// page can say why a bad one does not open instead of ignoring it.
    pub fn is_exercise_hash(hash: &str) -> bool {
        let h = hash.strip_prefix('#').unwrap_or(hash);
        h == "exercises" || h == "exercise-draft" || h.starts_with("exercise=")
    }
}

/// The URL of a set's file, relative to the page.
pub fn file_url(set: &str, path: &str) -> String {
    format!("{EXERCISES_DIR}/{set}/{path}")
}

/// A set's files fetched so far. The loader (`exercises::load_set`) reads
/// from here; every file it asked for that is not here yet is noted, and
/// the page fetches those and loads again — `set.toml`, then the exercise
/// files, then the programs they name: three rounds for a whole set.
#[derive(Default)]
pub struct FetchedFiles {
    files: BTreeMap<String, Result<String, String>>,
    missing: RefCell<BTreeSet<String>>,
}

impl SetFiles for FetchedFiles {
    fn read(&self, path: &str) -> Result<String, String> {
        match self.files.get(path) {
            Some(r) => r.clone(),
            None => {
                self.missing.borrow_mut().insert(path.to_string());
                Err("not fetched yet".into())
            }
        }
    }
}

impl FetchedFiles {
    /// No files yet.
    pub fn new() -> FetchedFiles {
        FetchedFiles::default()
    }

    /// Records a fetched file (or why it could not be fetched).
    pub fn insert(&mut self, path: &str, text: Result<String, String>) {
        self.files.insert(path.to_string(), text);
    }

    /// Loads the set from the files so far: the load, and the files still
    /// to fetch (empty: the load is final).
    pub fn load(&self) -> (SetLoad, Vec<String>) {
        self.missing.borrow_mut().clear();
        let load = exercises::load_set(self);
        let missing = self.missing.borrow().iter().cloned().collect();
        (load, missing)
    }
}

/// The playground's configuration for an exercise: its preset, with its
/// overrides as properties text (shown in the configuration panel), the
/// integer model and step limit taken from the overrides when they set
/// them (else the preset's model and the checks' limit of
/// `exercises::run::MAX_STEPS`).
pub fn run_spec(config: &ConfigSpec) -> RunSpec {
    let c = config.to_config().ok();
    let int_model = c.as_ref().map_or(IntModel::C, |c| c.int_model());
    let steps = c.as_ref().and_then(|c| c.get("limits.steps").parse::<u64>().ok()).unwrap_or(0);
    let max_steps = if steps == 0 || steps > exercises::run::MAX_STEPS { exercises::run::MAX_STEPS } else { steps };
    let overrides: Vec<(&String, &String)> =
        config.set.iter().filter(|(k, _)| k.as_str() != "analysis.intModel" && k.as_str() != "limits.steps").collect();
    let properties = (!overrides.is_empty()).then(|| {
        overrides.iter().fold(crate::model::config_panel::preset_text(&config.preset), |text, (k, v)| {
            crate::model::config_panel::set(&text, k, v)
        })
    });
    RunSpec { preset: config.preset.clone(), int_model, max_steps, properties }
}

/// The configuration the playground shows as an exercise would name it
/// (for "make an exercise from what I see"): the preset, plus every key
/// the configuration panel changed, plus the integer model and step limit.
pub fn config_spec(spec: &RunSpec) -> ConfigSpec {
    let mut set = BTreeMap::new();
    if let (Some(text), Ok(base)) = (&spec.properties, engine::config::Config::preset(&spec.preset)) {
        if let Ok(custom) = engine::config::Config::parse(text, "panel.properties") {
            let base = base.effective();
            for (k, v) in custom.effective() {
                if base.get(&k) != Some(&v) {
                    set.insert(k, v);
                }
            }
        }
    }
    // C is every preset's model; only mathematical integers are named.
    if spec.int_model == IntModel::Math {
        set.insert("analysis.intModel".into(), "MATH".into());
    }
    if spec.max_steps != 0 && spec.max_steps != exercises::run::MAX_STEPS {
        set.insert("limits.steps".into(), spec.max_steps.to_string());
    }
    ConfigSpec { preset: spec.preset.clone(), set, locked: true }
}

/// The student's answer as typed into the widgets, before it is read as an
/// [`Answer`]: one text per field of every kind (only the question's
/// kind's fields are shown and read).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Draft {
    /// `true`, `false` or `unknown` (empty: not chosen).
    pub verdict: String,
    /// A count.
    pub value: String,
    /// The chosen preset (choose-configuration).
    pub preset: String,
    /// Values of the open keys (choose-configuration).
    pub set: BTreeMap<String, String>,
    /// A program (separate).
    pub program: String,
    /// An abstract state (abstract-state).
    pub state: String,
    /// Variable names separated by commas or spaces (precision).
    pub variables: String,
    /// The popped state's number, `7` or `s7` (next-step).
    pub popped: String,
    /// `kept`, `joined` or `widened` (next-step; empty: not chosen).
    pub merge: String,
    /// `covered`, `not-covered`, `some` or `none` (next-step).
    pub stop: String,
    /// A boolean mini-C expression (invariant).
    pub expression: String,
    /// Predicates, one per line or separated by commas (predicates).
    pub predicates: String,
    /// The chosen formula's number, `1`… (abstraction; empty: none yet).
    pub choice: String,
}

impl Draft {
    /// The widgets' starting values for `ex`: the previous answer if there
    /// is one, else the exercise's program (separate) and configuration
    /// (choose-configuration).
    pub fn new(ex: &Exercise, previous: Option<&Answer>) -> Draft {
        let mut d = Draft { program: ex.program.clone(), preset: ex.config.preset.clone(), ..Draft::default() };
        if let Question::ChooseConfiguration { open, .. } = &ex.question {
            for (k, allowed) in open {
                let v = ex.config.set.get(k).cloned().or_else(|| allowed.first().cloned()).unwrap_or_default();
                d.set.insert(k.clone(), v);
            }
        }
        match previous {
            Some(Answer::Verdict { verdict }) => d.verdict = verdict.to_lowercase(),
            Some(Answer::Count { value }) => d.value = value.to_string(),
            Some(Answer::ChooseConfiguration { preset, set }) => {
                if let Some(p) = preset {
                    d.preset = p.clone();
                }
                d.set.extend(set.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            Some(Answer::Separate { program }) => d.program = program.clone(),
            Some(Answer::AbstractState { state }) => d.state = state.clone(),
            Some(Answer::Precision { variables }) => d.variables = variables.join(", "),
            Some(Answer::NextStep { popped, merge, stop }) => {
                d.popped = popped.map(|p| p.to_string()).unwrap_or_default();
                d.merge = merge.clone().unwrap_or_default();
                d.stop = stop.clone().unwrap_or_default();
            }
            Some(Answer::Invariant { expression }) => d.expression = expression.clone(),
            Some(Answer::Predicates { predicates }) => d.predicates = predicates.join("\n"),
            Some(Answer::Abstraction { choice }) | Some(Answer::TransformedLine { choice }) => d.choice = choice.to_string(),
            None => {}
        }
        d
    }

    /// The answer to `question`, or what is missing or malformed in words.
    pub fn answer(&self, question: &Question) -> Result<Answer, String> {
        match question {
            Question::Verdict => match self.verdict.as_str() {
                v @ ("true" | "false" | "unknown") => Ok(Answer::Verdict { verdict: v.to_string() }),
                _ => Err("Choose TRUE, FALSE or UNKNOWN.".into()),
            },
            Question::Count { .. } => match self.value.trim().parse::<u64>() {
                Ok(value) => Ok(Answer::Count { value }),
                Err(_) => Err("Enter a whole number (0 or more).".into()),
            },
            Question::ChooseConfiguration { open, .. } => {
                let set = self
                    .set
                    .iter()
                    .filter(|(k, v)| open.contains_key(*k) && !v.trim().is_empty())
                    .map(|(k, v)| (k.clone(), v.trim().to_string()))
                    .collect();
                Ok(Answer::ChooseConfiguration { preset: Some(self.preset.clone()).filter(|p| !p.is_empty()), set })
            }
            Question::Separate { .. } => {
                if self.program.trim().is_empty() {
                    Err("Write a program.".into())
                } else {
                    Ok(Answer::Separate { program: self.program.clone() })
                }
            }
            Question::AbstractState { .. } => {
                if self.state.trim().is_empty() {
                    Err("Enter the state (`true` for ⊤, `false` for ⊥).".into())
                } else {
                    Ok(Answer::AbstractState { state: self.state.trim().to_string() })
                }
            }
            Question::Precision { .. } => Ok(Answer::Precision {
                variables: self
                    .variables
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|v| !v.is_empty())
                    .map(str::to_string)
                    .collect(),
            }),
            Question::NextStep { ask, .. } => {
                let popped = if ask.contains(&StepQuestion::Popped) {
                    let t = self.popped.trim();
                    let n = t.strip_prefix('s').unwrap_or(t);
                    Some(n.parse::<u32>().map_err(|_| "Enter the popped state's number (s7 or 7).".to_string())?)
                } else {
                    None
                };
                // A chosen option of an asked question (none when not asked).
                let chosen = |q: StepQuestion, value: &str, missing: &str| -> Result<Option<String>, String> {
                    match (ask.contains(&q), value.is_empty()) {
                        (false, _) => Ok(None),
                        (true, true) => Err(missing.to_string()),
                        (true, false) => Ok(Some(value.to_string())),
                    }
                };
                let merge = chosen(StepQuestion::Merge, &self.merge, "Choose what merge does.")?;
                let stop = chosen(StepQuestion::Stop, &self.stop, "Choose what stop does.")?;
                Ok(Answer::NextStep { popped, merge, stop })
            }
            Question::Invariant { .. } => {
                if self.expression.trim().is_empty() {
                    Err("Write the invariant as a mini-C condition, e.g. `x <= n`.".into())
                } else {
                    Ok(Answer::Invariant { expression: self.expression.trim().to_string() })
                }
            }
            Question::Predicates { .. } => {
                let predicates: Vec<String> = self
                    .predicates
                    .split([',', ';', '\n'])
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .map(str::to_string)
                    .collect();
                if predicates.is_empty() {
                    Err("Write the predicates, e.g. `x == 0, n <= i`.".into())
                } else {
                    Ok(Answer::Predicates { predicates })
                }
            }
            Question::Abstraction { .. } => match self.choice.parse::<u32>() {
                Ok(choice) => Ok(Answer::Abstraction { choice }),
                Err(_) => Err("Choose one of the formulas.".into()),
            },
            Question::TransformedLine { .. } => match self.choice.parse::<u32>() {
                Ok(choice) => Ok(Answer::TransformedLine { choice }),
                Err(_) => Err("Choose one of the transformed operations.".into()),
            },
        }
    }
}

/// What grading needs next from the page.
#[derive(Clone, Debug, PartialEq)]
pub enum GraderStep {
    /// Still running an analysis: which, and how many of its events so far.
    Working {
        /// The run's label (`octagon-join`, `a: value-join`).
        label: String,
        /// Events computed so far.
        events: usize,
    },
    /// Waiting for the solver: send `script` to Z3 and call
    /// [`Grader::answer`] with its output.
    Solver {
        /// For the solver log: who asks.
        origin: String,
        /// The SMT-LIB2 script.
        script: String,
    },
    /// Graded.
    Done(Feedback),
}

struct Running {
    index: usize,
    program: Arc<cfa::Program>,
    run: Run,
    events: Vec<Event>,
}

/// One answer being graded: the plan's runs stepped a slice at a time (the
/// page stays responsive; a run parked on a solver query waits for the
/// page's Z3), then the plan's SMT scripts, then `Plan::grade`. Runs made
/// before (same program and configuration) come from the cache.
pub struct Grader {
    plan: Plan,
    runs: Vec<RunResult>,
    running: Option<Running>,
    smt: Vec<String>,
}

/// How many finished runs the page keeps for re-checks (a wrong answer
/// corrected is graded at once).
pub const CACHED_RUNS: usize = 16;

impl Grader {
    /// Plans the check of `answer`; an answer the plan already rejects
    /// (wrong kind, bad program, unknown preset) is feedback at once.
    pub fn new(ex: &Exercise, answer: &Answer) -> Result<Grader, Feedback> {
        let plan = exercises::plan(ex, answer)?;
        Ok(Grader { plan, runs: Vec::new(), running: None, smt: Vec::new() })
    }

    /// Works for at most `budget` events of the current run, then says
    /// what is needed next.
    pub fn advance(&mut self, budget: usize, cache: &mut RunCache) -> GraderStep {
        let mut spent = 0;
        loop {
            if self.runs.len() < self.plan.runs.len() {
                let index = self.runs.len();
                let req = &self.plan.runs[index];
                if self.running.is_none() {
                    if let Some(r) = cache.get(req) {
                        self.runs.push(r);
                        continue;
                    }
                    match req.start() {
                        Ok((program, run)) => self.running = Some(Running { index, program, run, events: Vec::new() }),
                        Err(m) => {
                            self.runs.push(RunResult::failed(m));
                            continue;
                        }
                    }
                }
                let running = self.running.as_mut().expect("started above");
                loop {
                    if spent >= budget {
                        return GraderStep::Working { label: req.label.clone(), events: running.events.len() };
                    }
                    match running.run.next_event() {
                        Some(e) => {
                            running.events.push(e);
                            spent += 1;
                            if running.events.len() >= MAX_EVENTS {
                                break;
                            }
                        }
                        None => match running.run.pending_query() {
                            Some(script) => {
                                return GraderStep::Solver { origin: format!("exercise check ({}): query", req.label), script };
                            }
                            None => break,
                        },
                    }
                }
                let done = self.running.take().expect("running");
                debug_assert_eq!(done.index, index);
                let result = RunResult::from_events(done.program, done.events);
                cache.insert(req, result.clone(), CACHED_RUNS);
                self.runs.push(result);
            } else if self.smt.len() < self.plan.smt.len() {
                let script = &self.plan.smt[self.smt.len()];
                if let Some(out) = cache.smt.get(script) {
                    self.smt.push(out.clone());
                    continue;
                }
                return GraderStep::Solver {
                    origin: format!("exercise check: {} of {}", self.smt.len() + 1, self.plan.smt.len()),
                    script: script.clone(),
                };
            } else {
                return GraderStep::Done(self.plan.grade(&self.runs, &self.smt));
            }
        }
    }

    /// The solver's output for the script of the last [`GraderStep::Solver`]
    /// (`unknown` when the solver could not answer: a run treats it
    /// soundly, a check counts it as not proven).
    pub fn answer(&mut self, output: &str, cache: &mut RunCache) {
        if let Some(running) = self.running.as_mut() {
            running.run.answer_query(output);
        } else if let Some(script) = self.plan.smt.get(self.smt.len()) {
            cache.smt.insert(script.clone(), output.to_string());
            self.smt.push(output.to_string());
        }
    }
}

/// An answer being graded in the page: the [`Grader`] with the runs made
/// by earlier checks (a corrected answer is graded at once), driven by the
/// page's run driver ([`crate::model::run_driver`]). It says what it is
/// doing ([`Grading::status`]) and, once done, the feedback.
pub struct Grading {
    grader: Grader,
    /// The pane's cache of runs and solver answers, lent for the check
    /// (a cache, never shown: shared with the pane, not rendered).
    cache: Rc<RefCell<RunCache>>,
    /// The run in progress and its events so far.
    working: Option<(String, usize)>,
    /// The query the grader waits for.
    query: Option<Query>,
    /// The feedback, once graded.
    feedback: Option<Feedback>,
}

impl Grading {
    /// Grades with `grader`, using and filling `cache`.
    pub fn new(grader: Grader, cache: Rc<RefCell<RunCache>>) -> Grading {
        Grading { grader, cache, working: None, query: None, feedback: None }
    }

    /// What the check is doing, for the status line
    /// (`Running octagon-join: 120 events so far…`).
    pub fn status(&self) -> Option<String> {
        self.working.as_ref().map(|(label, events)| format!("Running {label}: {events} events so far…"))
    }

    /// The feedback, once the grading is done.
    pub fn feedback(&self) -> Option<&Feedback> {
        self.feedback.as_ref()
    }
}

/// A chunk of grading is at most 400 events of the current run.
impl Sliced for Grading {
    fn work(&mut self) -> Chunk {
        if self.feedback.is_some() {
            return Chunk::Done;
        }
        match self.grader.advance(400, &mut self.cache.borrow_mut()) {
            GraderStep::Working { label, events } => {
                self.working = Some((label, events));
                Chunk::More
            }
            GraderStep::Solver { origin, script } => {
                self.query = Some(Query { origin, script, legend: Vec::new() });
                Chunk::Blocked
            }
            GraderStep::Done(f) => {
                self.feedback = Some(f);
                Chunk::Done
            }
        }
    }

    fn pending(&self) -> Option<Query> {
        self.query.clone()
    }

    fn answer(&mut self, solver_output: &str) {
        self.query = None;
        self.grader.answer(solver_output, &mut self.cache.borrow_mut());
    }
}

/// The exercise view's state: the set and the exercise shown, the
/// student's progress in the set, the answer widgets' draft, and what the
/// view shows around them. It changes only through [`SetState::reduce`]; the
/// page keeps the progress in local storage whenever it changed.
#[derive(Clone, Debug, PartialEq)]
pub struct SetState {
    /// The set opened.
    pub set: Rc<ExerciseSet>,
    /// The index of the exercise shown.
    pub current: usize,
    /// The student's progress in the set (local storage).
    pub progress: Progress,
    /// What the answer widgets hold.
    pub draft: Draft,
    /// How many hints are shown.
    pub hints: usize,
    /// What a check or an import in progress is doing (Check and Import
    /// are disabled meanwhile).
    pub status: Option<String>,
    /// Why the draft is not an answer yet.
    pub message: Option<String>,
    /// What the last import of an answers file did (`true`) or why it was
    /// refused (`false`).
    pub import_note: Option<(bool, String)>,
    /// The exercise is hidden (only the set's head shows).
    pub collapsed: bool,
}

/// What an import of an answers file did, for its note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportReport {
    /// Answers re-checked.
    pub total: usize,
    /// The file's student.
    pub student: String,
    /// The file's name.
    pub file: String,
    /// Exercise ids of the file that the set does not have.
    pub skipped: Vec<String>,
}

/// What the exercise view is told: the student's input and the checks'
/// progress.
#[derive(Clone, Debug, PartialEq)]
pub enum SetAction {
    /// The student's name is typed.
    Student(String),
    /// The answer widgets changed.
    Edit(Draft),
    /// Show one more hint.
    Hint,
    /// Hide or show the exercise.
    ToggleCollapsed,
    /// Check was pressed but the draft is not an answer: why.
    Refused(String),
    /// Check was pressed with an answer: the last refusal goes.
    Answered,
    /// What the check or import in progress is doing now.
    Status(String),
    /// A checked answer and its feedback (the check is over).
    Recorded {
        /// The answer checked.
        answer: Answer,
        /// Its feedback.
        feedback: Feedback,
    },
    /// An import of an answers file takes the file's student name.
    ImportStudent(String),
    /// An imported answer of exercise `exercise` was re-checked.
    ImportRecorded {
        /// The exercise's id.
        exercise: String,
        /// The imported answer.
        answer: Answer,
        /// The file's attempts at the exercise, first to last (empty for a
        /// file without them: the answer is the only one).
        attempts: Vec<Answer>,
        /// Its feedback here.
        feedback: Feedback,
    },
    /// The import is over (or was refused: why).
    ImportDone(Result<ImportReport, String>),
}

impl SetState {
    /// The view of exercise `current` of `set` with the stored `progress`;
    /// the widgets hold its draft (kept in the progress at once).
    pub fn new(set: Rc<ExerciseSet>, current: usize, progress: Progress) -> SetState {
        let mut view = SetState {
            set,
            current,
            progress,
            draft: Draft::default(),
            hints: 0,
            status: None,
            message: None,
            import_note: None,
            collapsed: false,
        };
        view.set_draft(view.progress.draft(view.exercise()));
        view
    }

    /// The exercise shown.
    pub fn exercise(&self) -> &Exercise {
        &self.set.exercises[self.current]
    }

    /// The view after `action`.
    pub fn reduce(&self, action: SetAction) -> SetState {
        let mut next = self.clone();
        match action {
            SetAction::Student(name) => next.progress.student = name.trim().to_string(),
            SetAction::Edit(d) => next.set_draft(d),
            SetAction::Hint => next.hints = (next.hints + 1).min(self.exercise().hints.len()),
            SetAction::ToggleCollapsed => next.collapsed = !next.collapsed,
            SetAction::Refused(m) => next.message = Some(m),
            SetAction::Answered => next.message = None,
            SetAction::Status(s) => next.status = Some(s),
            SetAction::Recorded { answer, feedback } => {
                next.progress.record(answer, &feedback, self.set.reveal_after);
                next.status = None;
            }
            SetAction::ImportStudent(name) => next.progress.student = name,
            SetAction::ImportRecorded { exercise, answer, attempts, feedback } => {
                // The file's earlier attempts come before the re-checked last one.
                let earlier = attempts.len().saturating_sub(1);
                next.progress.attempts.insert(exercise.clone(), attempts.into_iter().take(earlier).collect());
                next.progress.record(answer, &feedback, self.set.reveal_after);
                next.progress.drafts.remove(&exercise);
            }
            SetAction::ImportDone(result) => {
                next.import_note = Some(match result {
                    Ok(r) => {
                        let skipped = if r.skipped.is_empty() {
                            String::new()
                        } else {
                            format!(" Skipped (not in this set): {}.", r.skipped.join(", "))
                        };
                        let summary = next.progress.summary(&next.set);
                        (
                            true,
                            format!(
                                "Imported and re-checked {} answer(s) of “{}” from {}: {summary}.{skipped}",
                                r.total, r.student, r.file
                            ),
                        )
                    }
                    Err(e) => (false, e),
                });
                // The shown exercise's widgets show its imported answer.
                let d = next.progress.draft(next.exercise());
                next.set_draft(d);
                next.status = None;
            }
        }
        next
    }

    /// The widgets hold `d`, and the progress keeps it as the exercise's
    /// draft (moving to another exercise reloads the page; half-written
    /// answers survive that).
    fn set_draft(&mut self, d: Draft) {
        let id = self.exercise().id.clone();
        if self.progress.drafts.get(&id) != Some(&d) {
            self.progress.drafts.insert(id, d.clone());
        }
        self.draft = d;
    }
}

/// The result of an answer as the page keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Whether the answer was right.
    pub correct: bool,
    /// Points earned.
    pub points: f64,
    /// The exercise's points.
    pub max_points: u32,
    /// What the analysis did, compared with the answer.
    pub explanation: String,
    /// More lines (per question, counterexamples).
    #[serde(default)]
    pub details: Vec<String>,
    /// The explanation with the reference answer, kept only once the set
    /// reveals it for a wrong answer (after `reveal_after` checked answers);
    /// `None` otherwise, so the page never holds an answer it may not show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
}

impl From<&Feedback> for Outcome {
    /// The feedback as kept, without its solution.
    fn from(f: &Feedback) -> Outcome {
        Outcome {
            correct: f.correct,
            points: f.points,
            max_points: f.max_points,
            explanation: f.explanation.clone(),
            details: f.details.clone(),
            solution: None,
        }
    }
}

/// Where an exercise stands for the student.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Not checked yet.
    Unanswered,
    /// The last checked answer was right.
    Right,
    /// The last checked answer earned some points but not all (next-step).
    Partial,
    /// The last checked answer was wrong.
    Wrong,
}

impl Status {
    /// The CSS class of the exercise's link.
    pub fn class(self) -> &'static str {
        match self {
            Status::Unanswered => "unanswered",
            Status::Right => "right",
            Status::Partial => "partial",
            Status::Wrong => "wrong",
        }
    }
}

/// A student's progress in one set, kept in local storage: the last
/// checked answer per exercise and its result. Exported as an answers file
/// that `cpaplay grade` re-grades to the same points.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// The student's name (the answers file's `student`).
    #[serde(default)]
    pub student: String,
    /// The last checked answer per exercise id.
    #[serde(default)]
    pub answers: BTreeMap<String, Answer>,
    /// Every checked answer per exercise id, first to last (exported as
    /// the answers file's `attempts`, for `cpaplay grade --first-attempt`).
    #[serde(default)]
    pub attempts: BTreeMap<String, Vec<Answer>>,
    /// Its result per exercise id.
    #[serde(default)]
    pub results: BTreeMap<String, Outcome>,
    /// What the widgets held when the student left an exercise (moving to
    /// another exercise reloads the page), checked or not. Not exported.
    #[serde(default)]
    pub drafts: BTreeMap<String, Draft>,
}

/// The local-storage key of a set's progress.
pub fn storage_key(set: &str) -> String {
    format!("cpa-playground.exercises.{set}")
}

/// `1st`, `2nd`, `3rd`, `11th`, `22nd` (next-step questions name the pop).
pub fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Points as a short number: `1`, `0.67`.
pub fn points_text(p: f64) -> String {
    // A sum of no points is -0.0 in Rust; adding 0.0 makes it 0.
    let s = format!("{:.2}", p + 0.0);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl Progress {
    /// Reads stored progress; anything unreadable is a fresh start.
    pub fn from_json(text: &str) -> Progress {
        serde_json::from_str(text).unwrap_or_default()
    }

    /// The text to store.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Records a checked answer and its feedback as one more attempt; the
    /// feedback's solution is kept when the set reveals it now (a right
    /// answer before, or `reveal_after` attempts).
    pub fn record(&mut self, answer: Answer, feedback: &Feedback, reveal_after: Option<u32>) {
        let id = feedback.exercise.clone();
        let tries = self.attempts.entry(id.clone()).or_default();
        tries.push(answer.clone());
        let right_before = self.results.get(&id).is_some_and(|o| o.correct);
        let reveal = exercises::wrong::reveals(feedback.correct, right_before, tries.len(), reveal_after);
        self.answers.insert(id.clone(), answer);
        let mut outcome = Outcome::from(feedback);
        if reveal {
            outcome.solution = feedback.solution.clone();
        }
        self.results.insert(id, outcome);
    }

    /// How many answers to exercise `id` were checked.
    pub fn tries(&self, id: &str) -> usize {
        self.attempts.get(id).map_or(0, Vec::len)
    }

    /// The widgets' values for `ex`: the draft left there, else the last
    /// checked answer, else the exercise's defaults.
    pub fn draft(&self, ex: &Exercise) -> Draft {
        self.drafts.get(&ex.id).cloned().unwrap_or_else(|| Draft::new(ex, self.answers.get(&ex.id)))
    }

    /// Where exercise `id` stands.
    pub fn status(&self, id: &str) -> Status {
        match self.results.get(id) {
            None => Status::Unanswered,
            Some(o) if o.correct => Status::Right,
            Some(o) if o.points > 0.0 => Status::Partial,
            Some(_) => Status::Wrong,
        }
    }

    /// `3 of 29 points · 5 of 29 answered` for the exercises of `set`.
    pub fn summary(&self, set: &ExerciseSet) -> String {
        let points: f64 = set.exercises.iter().filter_map(|e| self.results.get(&e.id)).map(|o| o.points).sum();
        let answered = set.exercises.iter().filter(|e| self.results.contains_key(&e.id)).count();
        format!("{} of {} points · {answered} of {} answered", points_text(points), set.max_points(), set.exercises.len())
    }

    /// The answers file (JSON) of this progress for `set`: every checked
    /// answer of an exercise still in the set, with the page's results.
    pub fn answers_file(&self, set: &ExerciseSet) -> String {
        let ids: BTreeSet<&str> = set.exercises.iter().map(|e| e.id.as_str()).collect();
        let answers: BTreeMap<String, Answer> =
            self.answers.iter().filter(|(id, _)| ids.contains(id.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect();
        let results: serde_json::Map<String, serde_json::Value> = self
            .results
            .iter()
            .filter(|(id, _)| answers.contains_key(*id))
            .map(|(id, o)| (id.clone(), serde_json::json!({ "points": o.points, "correct": o.correct })))
            .collect();
        let attempts: BTreeMap<String, Vec<Answer>> =
            self.attempts.iter().filter(|(id, _)| answers.contains_key(*id)).map(|(k, v)| (k.clone(), v.clone())).collect();
        let file = AnswersFile {
            format: exercises::FORMAT_VERSION,
            student: self.student.clone(),
            set: set.id.clone(),
            answers,
            attempts,
            results: Some(serde_json::Value::Object(results)),
        };
        serde_json::to_string_pretty(&file).unwrap_or_default()
    }

    /// The download name of the answers file: `answers-alice-cpa-basics.json`.
    pub fn export_name(&self, set: &str) -> String {
        let student: String =
            self.student.trim().chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
        let student = if student.is_empty() { "student".to_string() } else { student };
        format!("answers-{student}-{set}.json")
    }
}

/// The question kinds "make an exercise from what I see" offers, with what
/// each asks, given what the playground shows.
pub const SKELETON_KINDS: &[(&str, &str)] = &[
    ("verdict", "the verdict of this configuration"),
    ("count", "the final reached-set size"),
    ("next-step", "what the next step of the shown run does"),
    ("abstract-state", "the state at the selected location (or the first loop head)"),
    ("invariant", "a loop invariant at the first loop head"),
    ("precision", "the variables value-analysis CEGAR must track"),
    ("predicates", "the predicates the first refinement adds at the selected location (or the first loop head)"),
    ("choose-configuration", "a configuration that proves the program"),
];

/// The question of kind `kind` for "make an exercise from what I see":
/// `next_step` is the step after the shown one, `node` the selected CFA
/// node (else the first loop head is asked about).
pub fn skeleton_question(kind: &str, preset: &str, next_step: u64, node: Option<u32>) -> Question {
    use exercises::model::{LocationSpec, Measure, StateDomain};
    let location = match node {
        Some(n) => LocationSpec { node: Some(n), loop_head: None, line: None },
        None => LocationSpec { node: None, loop_head: Some(1), line: None },
    };
    match kind {
        "count" => Question::Count { measure: Measure::Reached, tolerance: 0 },
        "next-step" => Question::NextStep {
            step: next_step.max(1),
            ask: vec![StepQuestion::Popped, StepQuestion::Merge, StepQuestion::Stop],
        },
        "abstract-state" => Question::AbstractState {
            location,
            domain: if preset.starts_with("octagon") { StateDomain::Octagon } else { StateDomain::Value },
        },
        "invariant" => Question::Invariant { location: LocationSpec { node: None, loop_head: Some(1), line: None } },
        "precision" => Question::Precision { minimal: false },
        "predicates" => Question::Predicates { location, refinement: 1 },
        "choose-configuration" => Question::ChooseConfiguration {
            presets: crate::model::analysis::PRESETS.iter().map(|(p, _)| p.to_string()).collect(),
            open: BTreeMap::new(),
            max_states: None,
        },
        _ => Question::Verdict,
    }
}

/// Whether a made exercise file loads as it is (the dialog shows the
/// located error otherwise: e.g. a precision question needs the value
/// analysis).
pub fn check_skeleton(text: &str) -> Result<Exercise, String> {
    let no_files = |_: &str| -> Result<String, String> {
        Err("an exercise opened in the page has its program inline: `[program] source = '''…'''`".into())
    };
    exercises::load::parse_exercise("exercise.toml", text, &no_files).map_err(|e| e.to_string())
}

/// The id of the one-exercise set a draft exercise opens as (its progress
/// is kept apart from every real set's).
pub const DRAFT_SET: &str = "exercise-draft";

/// The paragraph of a prompt the exercise bar shows: its last one (prompts
/// set the scene first and ask last), or the whole prompt when it has one
/// paragraph; a code block at the end is skipped for the text before it.
pub fn question_paragraph(prompt: &str) -> &str {
    let paragraphs: Vec<&str> = prompt.split("\n\n").map(str::trim).filter(|p| !p.is_empty() && !p.starts_with("```")).collect();
    paragraphs.last().copied().unwrap_or(prompt.trim())
}

/// The local-storage key of the exercise draft being tried.
pub const DRAFT_KEY: &str = "cpa-playground.exercise-draft";

/// The session `#exercise-draft` opens: the exercise file an instructor
/// made or loaded in this browser (`text`), as a set of one exercise, so
/// it can be tried exactly as a student would see it.
pub fn draft_session(text: Option<&str>) -> Session {
    let Some(text) = text else {
        return Session::Failed(
            "There is no exercise draft in this browser: use Make exercise (Try it, or Load exercise file…) first.".into(),
        );
    };
    match check_skeleton(text) {
        Ok(ex) => Session::Set {
            set: Rc::new(ExerciseSet {
                id: DRAFT_SET.into(),
                title: format!("Trying “{}” as a student", ex.title),
                description: String::new(),
                exercises: vec![ex],
                reveal_after: None,
            }),
            current: 0,
            problems: vec![],
        },
        Err(e) => Session::Failed(format!("The exercise draft does not load: {e}")),
    }
}

/// What an exercise link opened.
#[derive(Clone, Debug, PartialEq)]
pub enum Session {
    /// `#exercises`: the sets offered, as (id, title), or why they cannot
    /// be listed.
    Sets(Result<Vec<(String, String)>, String>),
    /// A set with one exercise shown; `problems` are the set's files that
    /// did not load (located), shown above it.
    Set {
        /// The set.
        set: Rc<ExerciseSet>,
        /// The index of the exercise shown.
        current: usize,
        /// What did not load, `file:line:column: message`.
        problems: Vec<String>,
    },
    /// The link cannot be opened, and why.
    Failed(String),
}

impl Session {
    /// Whether this is an instructor's draft being tried ([`draft_session`]).
    pub fn is_draft(&self) -> bool {
        matches!(self, Session::Set { set, .. } if set.id == DRAFT_SET)
    }

    /// The exercise shown, when a set is open.
    pub fn exercise(&self) -> Option<&Exercise> {
        match self {
            Session::Set { set, current, .. } => set.exercises.get(*current),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_round_trip_and_refuse_paths() {
        for h in ["#exercises", "#exercise=cpa-basics", "#exercise=cpa-basics/table31-join"] {
            assert_eq!(Route::parse(h).unwrap().fragment(), h);
        }
        assert_eq!(Route::parse("#exercise=a/b"), Some(Route::Set { set: "a".into(), exercise: Some("b".into()) }));
        for bad in [
            "#exercise=../x",
            "#exercise=a/../../b",
            "#exercise=",
            "#exercise=A",
            "#exercise=a/b/c",
            "#exercise=https:x",
            "#share=1.x",
            "",
        ] {
            assert_eq!(Route::parse(bad), None, "{bad}");
        }
        assert!(Route::is_exercise_hash("#exercise=../x"));
        assert!(!Route::is_exercise_hash("#share=1.abc"));
    }

    #[test]
    fn drafts_read_as_answers_or_say_what_is_missing() {
        let d = Draft { value: " 12 ".into(), ..Draft::default() };
        assert_eq!(
            d.answer(&Question::Count { measure: exercises::model::Measure::Reached, tolerance: 0 }),
            Ok(Answer::Count { value: 12 })
        );
        let d = Draft { value: "-1".into(), ..Draft::default() };
        assert!(d.answer(&Question::Count { measure: exercises::model::Measure::Reached, tolerance: 0 }).is_err());
        assert!(Draft::default().answer(&Question::Verdict).is_err());
        let d = Draft { variables: "flag, n  i".into(), ..Draft::default() };
        assert_eq!(
            d.answer(&Question::Precision { minimal: false }),
            Ok(Answer::Precision { variables: vec!["flag".into(), "n".into(), "i".into()] })
        );
        let q = Question::NextStep { step: 3, ask: vec![StepQuestion::Popped, StepQuestion::Stop] };
        let d = Draft { popped: "s7".into(), stop: "covered".into(), merge: "joined".into(), ..Draft::default() };
        assert_eq!(d.answer(&q), Ok(Answer::NextStep { popped: Some(7), merge: None, stop: Some("covered".into()) }));
        let d = Draft { popped: "x".into(), stop: "covered".into(), ..Draft::default() };
        assert!(d.answer(&q).is_err());
        let q = Question::Predicates {
            location: exercises::model::LocationSpec { loop_head: Some(1), ..Default::default() },
            refinement: 1,
        };
        let d = Draft { predicates: "x == 0, n <= i\n\n mode != 0 ".into(), ..Draft::default() };
        assert_eq!(
            d.answer(&q),
            Ok(Answer::Predicates { predicates: vec!["x == 0".into(), "n <= i".into(), "mode != 0".into()] })
        );
        assert!(Draft { predicates: " , ".into(), ..Draft::default() }.answer(&q).is_err());
        let q = Question::Abstraction { state: 63, choices: vec!["true".into(), "x == 0".into()] };
        assert_eq!(Draft { choice: "2".into(), ..Draft::default() }.answer(&q), Ok(Answer::Abstraction { choice: 2 }));
        let q = Question::TransformedLine {
            line: 9,
            choices: vec!["int b = a * 2;".into(), "abstract b = a_mul(a, lift(2));".into()],
        };
        assert_eq!(Draft { choice: "2".into(), ..Draft::default() }.answer(&q), Ok(Answer::TransformedLine { choice: 2 }));
        assert!(Draft::default().answer(&q).is_err(), "nothing chosen yet");
        assert!(Draft::default().answer(&q).is_err());
    }

    #[test]
    fn a_locked_configuration_locks_the_playground_except_when_choosing_it() {
        let read = |_: &str| -> Result<String, String> { Err("no files".into()) };
        let make = |locked: bool, question: &Question| {
            let config = ConfigSpec { preset: "value".into(), set: BTreeMap::new(), locked };
            let text = exercises::skeleton::exercise_toml("e", "E", "int main(void) { return 0; }", &config, question);
            exercises::load::parse_exercise("e.toml", &text, &read).unwrap()
        };
        let choose =
            Question::ChooseConfiguration { presets: vec!["value-join".into()], open: BTreeMap::new(), max_states: None };
        assert!(locks_playground(&make(true, &Question::Verdict)));
        assert!(!locks_playground(&make(false, &Question::Verdict)));
        assert!(!locks_playground(&make(true, &choose)));
    }

    #[test]
    fn ordinals_read_as_english() {
        let got: Vec<String> = [1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101, 111, 112].into_iter().map(ordinal).collect();
        assert_eq!(
            got,
            ["1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th"]
        );
    }

    #[test]
    fn points_are_short() {
        assert_eq!(points_text(1.0), "1");
        assert_eq!(points_text(2.0 / 3.0), "0.67");
        assert_eq!(points_text(0.0), "0");
        assert_eq!(points_text(std::iter::empty::<f64>().sum()), "0");
        assert_eq!(points_text(10.5), "10.5");
    }

    fn outcome_feedback(correct: bool) -> Feedback {
        Feedback {
            exercise: "e".into(),
            correct,
            points: if correct { 2.0 } else { 0.0 },
            max_points: 2,
            explanation: "what is off".into(),
            details: vec![],
            solution: (!correct).then(|| "the analysis answered FALSE".into()),
        }
    }

    #[test]
    fn every_attempt_is_kept_and_the_answer_shows_only_after_reveal_after_tries() {
        let mut p = Progress::default();
        let tries = [Answer::Count { value: 1 }, Answer::Count { value: 2 }, Answer::Count { value: 3 }];
        p.record(tries[0].clone(), &outcome_feedback(false), Some(2));
        assert_eq!(p.results["e"].solution, None, "one wrong try of two: not yet");
        p.record(tries[1].clone(), &outcome_feedback(false), Some(2));
        assert_eq!(p.results["e"].solution.as_deref(), Some("the analysis answered FALSE"), "after 2 tries");
        p.record(tries[2].clone(), &outcome_feedback(true), Some(2));
        assert_eq!(p.attempts["e"], tries.to_vec());
        assert_eq!(p.tries("e"), 3);
        assert_eq!(p.answers["e"], tries[2]);
        // The exported file has every attempt; graders read the first or the last.
        let set =
            ExerciseSet { id: "s".into(), title: "S".into(), description: String::new(), exercises: vec![], reveal_after: None };
        let mut with_e = set.clone();
        let read = |_: &str| -> Result<String, String> { Err("no files".into()) };
        let config = ConfigSpec { preset: "value".into(), ..ConfigSpec::default() };
        let text = exercises::skeleton::exercise_toml("e", "E", "int main(void) { return 0; }", &config, &Question::Verdict);
        with_e.exercises.push(exercises::load::parse_exercise("e.toml", &text, &read).unwrap());
        let file = AnswersFile::parse("a.json", &p.answers_file(&with_e)).unwrap();
        assert_eq!(file.attempts["e"], tries.to_vec());
        assert_eq!(file.graded("e", true), Some(&tries[0]));
        assert_eq!(file.graded("e", false), Some(&tries[2]));
        assert!(AnswersFile::parse("a.json", &p.answers_file(&set)).unwrap().attempts.is_empty(), "only the set's exercises");
        // Never revealed without reveal_after, however many tries.
        let mut q = Progress::default();
        for _ in 0..5 {
            q.record(Answer::Count { value: 1 }, &outcome_feedback(false), None);
        }
        assert_eq!(q.results["e"].solution, None);
    }

    #[test]
    fn a_draft_opens_as_a_set_of_one_or_says_why_not() {
        assert_eq!(Route::parse("#exercise-draft"), Some(Route::Draft));
        assert_eq!(Route::Draft.fragment(), "#exercise-draft");
        let config = ConfigSpec { preset: "value".into(), ..ConfigSpec::default() };
        let text = exercises::skeleton::exercise_file(
            "tried",
            "Tried",
            "How many?",
            3,
            "int main(void) { return 0; }",
            &config,
            &Question::Verdict,
        );
        let s = draft_session(Some(&text));
        assert!(s.is_draft());
        let ex = s.exercise().expect("one exercise");
        assert_eq!((ex.id.as_str(), ex.prompt.as_str(), ex.points), ("tried", "How many?", 3));
        assert!(matches!(draft_session(None), Session::Failed(_)));
        match draft_session(Some("format = 1\nid = \"x\"")) {
            Session::Failed(m) => assert!(m.contains("exercise.toml:"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_bar_shows_the_prompts_question() {
        assert_eq!(question_paragraph("Context.\n\n**How many?**\n"), "**How many?**");
        assert_eq!(question_paragraph("One line only"), "One line only");
        assert_eq!(question_paragraph("Ask this.\n\n```c\nint x;\n```\n"), "Ask this.");
        assert_eq!(question_paragraph(""), "");
    }

    #[test]
    fn export_names_are_file_names() {
        let p = Progress { student: " Ana María/../x ".into(), ..Progress::default() };
        assert_eq!(p.export_name("cpa-basics"), "answers-Ana-María----x-cpa-basics.json");
        assert_eq!(Progress::default().export_name("s"), "answers-student-s.json");
    }

    #[test]
    fn stored_progress_that_is_unreadable_is_a_fresh_start() {
        assert_eq!(Progress::from_json("{not json"), Progress::default());
        let mut p = Progress { student: "bo".into(), ..Progress::default() };
        let f = Feedback {
            exercise: "e".into(),
            correct: false,
            points: 0.5,
            max_points: 1,
            explanation: "x".into(),
            details: vec![],
            solution: Some("the run had 4".into()),
        };
        p.record(Answer::Count { value: 3 }, &f, None);
        assert_eq!(p.results["e"].solution, None, "a wrong answer's solution is not kept when the set never reveals it");
        p.drafts.insert("e".into(), Draft { value: "4".into(), ..Draft::default() });
        assert_eq!(Progress::from_json(&p.to_json()), p);
        assert_eq!(p.status("e"), Status::Partial);
        assert_eq!(p.status("f"), Status::Unanswered);
    }

    #[test]
    fn every_offered_skeleton_loads_as_an_exercise_of_its_kind() {
        let program = crate::model::page::EXAMPLE_PROGRAM;
        for preset in ["value", "octagon-join"] {
            let spec = RunSpec { preset: preset.into(), int_model: IntModel::C, max_steps: 500, properties: None };
            for (kind, _) in SKELETON_KINDS {
                let q = skeleton_question(kind, &spec.preset, 7, Some(2));
                assert_eq!(q.kind(), *kind);
                let text = exercises::skeleton::exercise_toml("made-here", "Made here", program, &config_spec(&spec), &q);
                match check_skeleton(&text) {
                    Ok(ex) => {
                        assert_eq!(ex.question, q);
                        assert_eq!(run_spec(&ex.config), spec, "the exercise runs what the playground showed");
                    }
                    // The dialog shows why and offers no download.
                    Err(e) => assert!(
                        (*kind == "precision" && preset != "value" && e.contains("value analysis"))
                            || (*kind == "predicates" && e.contains("predicate analysis")),
                        "{preset} {kind}: {e}\n{text}"
                    ),
                }
            }
        }
    }

    #[test]
    fn run_spec_and_config_spec_agree() {
        let mut set = BTreeMap::new();
        // The non-default model (C is the default) round-trips.
        set.insert("analysis.intModel".to_string(), "MATH".to_string());
        set.insert("cpa.octagon.mergeop.onlyMergeAtLoopHeads".to_string(), "true".to_string());
        let c = ConfigSpec { preset: "octagon-join".into(), set, locked: true };
        let spec = run_spec(&c);
        assert_eq!(spec.int_model, IntModel::Math);
        assert_eq!(spec.max_steps, exercises::run::MAX_STEPS);
        assert!(spec.properties.as_deref().unwrap().contains("onlyMergeAtLoopHeads"));
        assert_eq!(config_spec(&spec), c);
        // The playground runs exactly what the check runs.
        let mut from_check = c.to_config().unwrap();
        from_check.set("limits.steps", &exercises::run::MAX_STEPS.to_string()).unwrap();
        assert_eq!(spec.config().unwrap().effective(), from_check.effective());
        let plain = ConfigSpec { preset: "value".into(), set: BTreeMap::new(), locked: false };
        assert_eq!(run_spec(&plain).properties, None);
        assert_eq!(config_spec(&run_spec(&plain)).set, BTreeMap::new());
    }

    /// The exercise view's reducer, on the shipped set (read from disk:
    /// native only).
    #[cfg(not(target_arch = "wasm32"))]
    mod set_view {
        use super::*;

        fn shipped_set() -> Rc<ExerciseSet> {
            let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../static/exercises/cpa-basics");
            Rc::new(exercises::load_set(&exercises::load::DirFiles(dir)).set.expect("the set loads"))
        }

        fn verdict_exercise(set: &ExerciseSet) -> usize {
            set.exercises.iter().position(|e| e.question == Question::Verdict && !e.hints.is_empty()).expect("a verdict exercise")
        }

        fn feedback(ex: &Exercise, answer: &Answer) -> Feedback {
            exercises::check_sync(ex, answer)
        }

        #[test]
        fn the_draft_is_kept_in_the_progress_and_hints_stop_at_the_last() {
            let set = shipped_set();
            let i = verdict_exercise(&set);
            let view = SetState::new(set.clone(), i, Progress::default());
            let id = set.exercises[i].id.clone();
            assert_eq!(view.progress.drafts.get(&id), Some(&view.draft), "kept at once");
            let d = Draft { verdict: "true".into(), ..view.draft.clone() };
            let view = view.reduce(SetAction::Edit(d.clone()));
            assert_eq!(view.draft, d);
            assert_eq!(view.progress.drafts[&id], d);
            let mut v = view.clone();
            for _ in 0..set.exercises[i].hints.len() + 2 {
                v = v.reduce(SetAction::Hint);
            }
            assert_eq!(v.hints, set.exercises[i].hints.len());
            let v = v.reduce(SetAction::ToggleCollapsed).reduce(SetAction::Student("  Ada  ".into()));
            assert!(v.collapsed);
            assert_eq!(v.progress.student, "Ada");
            // The reducer is pure: the old state is unchanged.
            assert_eq!(view.hints, 0);
        }

        #[test]
        fn a_check_shows_its_status_then_records_the_feedback() {
            let set = shipped_set();
            let i = verdict_exercise(&set);
            let ex = set.exercises[i].clone();
            let view = SetState::new(set, i, Progress::default()).reduce(SetAction::Refused("Choose a verdict.".into()));
            assert_eq!(view.message.as_deref(), Some("Choose a verdict."));
            let view = view.reduce(SetAction::Answered).reduce(SetAction::Status("Checking…".into()));
            assert_eq!(view.message, None);
            assert_eq!(view.status.as_deref(), Some("Checking…"));
            let answer = Answer::Verdict { verdict: "unknown".into() };
            let f = feedback(&ex, &answer);
            let view = view.reduce(SetAction::Recorded { answer: answer.clone(), feedback: f.clone() });
            assert_eq!(view.status, None);
            assert_eq!(view.progress.answers[&ex.id], answer);
            assert_eq!(view.progress.results[&ex.id], Outcome::from(&f));
        }

        #[test]
        fn an_import_replaces_answers_drops_their_drafts_and_notes_what_it_did() {
            let set = shipped_set();
            let i = verdict_exercise(&set);
            let ex = set.exercises[i].clone();
            let view = SetState::new(set.clone(), i, Progress::default())
                .reduce(SetAction::Edit(Draft { verdict: "false".into(), ..Draft::default() }));
            let answer = Answer::Verdict { verdict: "true".into() };
            let f = feedback(&ex, &answer);
            let view = view
                .reduce(SetAction::ImportStudent("Bob".into()))
                .reduce(SetAction::Status(format!("Re-checking 1 of 1: {}…", ex.title)))
                .reduce(SetAction::ImportRecorded {
                    exercise: ex.id.clone(),
                    answer: answer.clone(),
                    attempts: vec![Answer::Verdict { verdict: "unknown".into() }, answer.clone()],
                    feedback: f,
                })
                .reduce(SetAction::ImportDone(Ok(ImportReport {
                    total: 1,
                    student: "Bob".into(),
                    file: "answers-bob.json".into(),
                    skipped: vec!["gone".into()],
                })));
            assert_eq!(view.progress.student, "Bob");
            assert_eq!(
                view.progress.attempts[&ex.id],
                vec![Answer::Verdict { verdict: "unknown".into() }, answer.clone()],
                "the file's attempts, the re-checked answer last"
            );
            assert_eq!(view.status, None);
            let (ok, note) = view.import_note.clone().unwrap();
            assert!(ok);
            assert_eq!(
                note,
                format!(
                    "Imported and re-checked 1 answer(s) of “Bob” from answers-bob.json: {}. Skipped (not in this set): gone.",
                    view.progress.summary(&set)
                )
            );
            // The widgets show the imported answer, not the old draft.
            assert_eq!(view.draft, Draft::new(&ex, Some(&answer)));
            let refused = view.reduce(SetAction::ImportDone(Err("Import cancelled.".into())));
            assert_eq!(refused.import_note, Some((false, "Import cancelled.".to_string())));
        }
    }
}
