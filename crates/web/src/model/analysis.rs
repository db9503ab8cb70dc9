//! The analysis in the page, without any browser: choosing a configuration,
//! running the CPA+ reachability algorithm in slices of waitlist pops, and
//! what the analysis panels show at any position of the recorded event trace.
//!
//! * [`RunSpec`] is the configuration chooser's value (preset, integer
//!   model, step limit); [`RunSpec::config`] turns it into an
//!   [`engine::Config`] exactly as `cpaplay verify --config NAME
//!   --int-model M --max-steps N` does.
//! * [`Run`] owns the steppable [`engine::cegar::Verifier`] (plain
//!   reachability, or CEGAR / counterexample check / restart when the
//!   configuration asks for them) and a
//!   [`engine::view::Cursor`] over the events produced so far: the page calls
//!   [`Run::advance`] a few pops per tick (so it never freezes) and seeks the
//!   cursor to step forward and back (never re-running the analysis).
//! * [`Panels::of`] is what the page shows at the cursor's position: the
//!   current step in words, the waitlist, the reached set grouped by
//!   location, statistics, the verdict and what to highlight in the CFA
//!   listing and the editor.
//! * [`AnalysisState`] is the analysis pane's state (chooser, run, play,
//!   predict mode); it changes only through [`AnalysisState::reduce`] with a
//!   [`PaneAction`], and both a [`Run`] and the pane are computed in slices
//!   as [`crate::model::run_driver::Sliced`] computations.
//!
//! Nothing here depends on Yew or web-sys: it is tested natively.

use engine::Stepper;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::Arc;

use cfa::Program;
use engine::cegar::{build_verifier, Verifier};
use engine::trace::MergeKind;
use engine::trace::{Event, StateId, ViewContent};
use engine::view::steps::{next_step_boundary, previous_step_boundary, step_number_at, step_position, step_starts};
use engine::view::{describe_event, Cursor, Snapshot};
use engine::Config;
use minic::IntModel;

use crate::model::run_driver::{Chunk, Query, Sliced};

/// The presets the chooser offers, in the order shown, with a short
/// explanation of each (CPA, merge and stop operators).
pub const PRESETS: &[(&str, &str)] = &[
    ("value", "value analysis, merge^sep, stop^sep"),
    ("value-join", "value analysis, merge^join"),
    ("octagon-sep", "octagons, merge^sep (may not terminate)"),
    ("octagon-join", "octagons, merge^join"),
    ("octagon-widening", "octagons, widening at loop heads"),
    ("symbolic", "symbolic execution: symbolic values + path constraints, checked by Z3 (loads on first query)"),
    ("value-cegar", "value analysis with CEGAR: precision starts empty, refined by explicit-value interpolation"),
    ("octagon-cegar", "octagons with CEGAR: precision starts empty, octagon backup refiner"),
    ("octagon-join-cex", "octagons, merge^join, each error path rechecked (counterexample check)"),
    ("octagon-widening-cex", "octagons, widening, each error path rechecked (counterexample check)"),
    ("octagon-seq-widening-cegar", "restart algorithm: octagon widening with a check, then octagon CEGAR"),
    ("predicate", "predicate analysis with CEGAR: Boolean abstraction at loop heads, predicates from interpolants (Z3)"),
    ("predicate-cartesian", "predicate analysis with CEGAR: Cartesian abstraction at loop heads (Z3)"),
    ("bam-value", "block-abstraction memoization over value analysis with CEGAR: each call's summary cached and reused"),
    ("bam-predicate", "block-abstraction memoization over predicate analysis with CEGAR (Z3)"),
    (
        "bam-value-predicate",
        "block-abstraction memoization with value and predicate analysis in parallel, CEGAR (SV-COMP'17, seed 001; Z3)",
    ),
    ("symexec", "symbolic execution (SYMEX): stop^never, DFS — the ARG is the symbolic-execution tree (Z3)"),
    (
        "symexec-predabs",
        "symbolic execution with implicit predicate abstraction at loop heads and CEGAR (SYMEXPA; Z3); the paper's examples need math integers (under C, overflow defeats the loop's predicates)",
    ),
    ("transform-term", "abstraction as a program transformation, term domain: the transformed program run by an explicit-state explorer (Z3)"),
    ("transform-parity", "abstraction as a program transformation, parity domain (even/odd), every value lifted"),
    ("transform-sign", "abstraction as a program transformation, sign domain (−/0/+), every value lifted"),
];

/// The chooser's value: which analysis to run and how long at most.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunSpec {
    /// A preset name of [`PRESETS`].
    pub preset: String,
    /// The integer model (`analysis.intModel`).
    pub int_model: IntModel,
    /// The step limit (`limits.steps`, waitlist pops); 0 means none.
    pub max_steps: u64,
    /// Properties text written in the configuration panel
    /// (`crate::model::config_panel`), used instead of the preset (which it
    /// started from); the integer model and step limit still override it.
    pub properties: Option<String>,
}

impl Default for RunSpec {
    fn default() -> Self {
        RunSpec { preset: "octagon-widening".into(), int_model: IntModel::C, max_steps: 2000, properties: None }
    }
}

/// The CPAs whose runs ask an SMT solver (Z3 in the page): the
/// Constraints CPA's path conditions, predicate abstraction, symbolic
/// execution with predicate abstraction.
const SOLVER_CPAS: &[&str] = &["cpa.constraints.ConstraintsCPA", "cpa.predicate.PredicateCPA", "cpa.symexec.SymExecCPA"];

/// How a run's configuration error begins (`configuration: ...`), so the
/// pane can show it in the configuration panel too.
pub const CONFIG_ERROR_PREFIX: &str = "configuration: ";

/// Whether a [`Run::start`] error is about the configuration (and belongs in
/// the configuration panel as well as the run status).
pub fn is_config_error(message: &str) -> bool {
    message.starts_with(CONFIG_ERROR_PREFIX)
}

impl RunSpec {
    /// The configuration: the preset, then the integer model and step limit
    /// as overrides (the same keys the CLI's `--int-model`/`--max-steps` set).
    pub fn config(&self) -> Result<Config, String> {
        let mut config = match &self.properties {
            Some(text) => Config::parse(text, "panel.properties"),
            None => Config::preset(&self.preset),
        }
        .map_err(|e| e.message)?;
        config.set("analysis.intModel", if self.int_model == IntModel::C { "C" } else { "MATH" }).map_err(|e| e.message)?;
        config.set("limits.steps", &self.max_steps.to_string()).map_err(|e| e.message)?;
        Ok(config)
    }

    /// Whether a run of this configuration asks an SMT solver (Z3 in the
    /// page): symbolic execution, predicate analysis and the
    /// transformation's term domain do; an unreadable configuration does
    /// not (it never runs). The page starts loading Z3 early for these.
    pub fn uses_solver(&self) -> bool {
        let Ok(config) = self.config() else { return false };
        config.cpas().iter().any(|cpa| SOLVER_CPAS.contains(&cpa.as_str()))
            || (config.get_bool("analysis.algorithm.transformExplorer")
                && config.get("transform.domain").eq_ignore_ascii_case("TERM"))
    }

    /// One line naming the configuration, e.g. `octagon-widening, math, ≤ 2000 steps`.
    pub fn describe(&self) -> String {
        let limit = if self.max_steps == 0 { "no step limit".to_string() } else { format!("≤ {} steps", self.max_steps) };
        let name = if self.properties.is_some() { format!("custom (from {})", self.preset) } else { self.preset.clone() };
        format!("{name}, {}, {limit}", self.int_model.name())
    }
}

/// A run of the configured analysis on one program: the algorithm, paused
/// between waitlist pops, and the cursor over the events it produced.
pub struct Run {
    /// What was run.
    pub spec: RunSpec,
    /// The program's CFA.
    pub program: Arc<Program>,
    /// The events so far, seekable.
    pub cursor: Cursor,
    /// Who asks the run's solver queries, in the solver log
    /// (`analysis (symbolic): query 3`): `analysis` or `compare`.
    pub asker: String,
    /// The CPA algorithm, paused between waitlist pops; `None` for a page's
    /// mirror of a run computed in the engine's worker
    /// ([`Run::hand_over`]).
    analysis: Option<Verifier>,
    /// A mirrored run's engine said every event was produced.
    mirrored_done: bool,
    /// The run's `solver.timeout` ([`Run::pending_query`]).
    solver_timeout_ms: u64,
    /// Each state's line text, computed once ([`Panels::of`]).
    pub lines: StateLineTexts,
    /// Where each breakpoint's events are ([`break_target`]).
    breaks: BreakIndex,
}

/// `solver.timeout`'s declared default: the limit Z3's worker gives a
/// query whose script sets none (`www/js/z3-worker.mjs`).
fn default_solver_timeout_ms() -> u64 {
    engine::config::option("solver.timeout").and_then(|o| o.default.parse().ok()).unwrap_or(10_000)
}

impl Run {
    /// Parses `source`, builds the composite CPA of `spec` (recording state
    /// views) and returns a run that has not taken any step yet. A
    /// configuration error (also one that depends on the program) begins
    /// with [`CONFIG_ERROR_PREFIX`].
    pub fn start(source: &str, spec: RunSpec) -> Result<Run, String> {
        let program = Arc::new(cfa::from_source(source).map_err(|d| {
            format!(
                "the program has {} error(s); fix them to analyze it",
                d.iter().filter(|d| d.severity == minic::Severity::Error).count()
            )
        })?);
        let config = spec.config().map_err(|e| format!("{CONFIG_ERROR_PREFIX}{e}"))?;
        // Natively the verifier has Debian's z3 attached; in the page it parks
        // on each query and the page answers it with z3-solver. A
        // configuration the engine cannot run on this program (e.g. calls
        // without the Callstack CPA) is refused here.
        let analysis =
            build_verifier(program.clone(), &config, true).map_err(|e| format!("{CONFIG_ERROR_PREFIX}{}", e.message))?;
        let solver_timeout_ms = config.get("solver.timeout").parse::<u64>().unwrap_or_else(|_| default_solver_timeout_ms());
        Ok(Run {
            spec,
            program,
            cursor: Cursor::new(Vec::new()),
            asker: "analysis".into(),
            analysis: Some(analysis),
            mirrored_done: false,
            solver_timeout_ms,
            lines: StateLineTexts::default(),
            breaks: BreakIndex::default(),
        })
    }

    /// Computes up to `pops` more waitlist pops (algorithm steps) and appends
    /// their events to the cursor's trace. Returns whether the run is over
    /// (a mirrored run computes nothing here).
    pub fn advance(&mut self, pops: usize) -> bool {
        if let Some(analysis) = self.analysis.as_mut() {
            for _ in 0..pops {
                let events = analysis.step();
                if events.is_empty() {
                    break;
                }
                self.cursor.extend(events);
            }
        }
        self.finished()
    }

    /// The SMT-LIB2 query the run is parked on (symbolic analyses in the
    /// page, where no solver is attached): its number and script. The page
    /// sends it to Z3 and resumes with [`Run::answer_query`]. With a
    /// `solver.timeout` other than the default, or a stage time limit
    /// (`restartAlgorithm.stageTimeMs`) with less left than that, the
    /// script begins with `(set-option :timeout N)`, so Z3 in the page
    /// gives the query the limit the native `z3` would get (the engine's
    /// trace keeps the query's own text).
    pub fn pending_query(&self) -> Option<(u32, String)> {
        let analysis = self.analysis.as_ref()?;
        let q = analysis.pending_query()?;
        let timeout = self.solver_timeout_ms;
        let limit = match analysis.time_left() {
            Some(left) => Some(timeout.min(left.as_millis() as u64)),
            None => (timeout != default_solver_timeout_ms()).then_some(timeout),
        };
        let script = match limit {
            Some(ms) => format!("(set-option :timeout {ms})\n{}", q.smtlib),
            None => q.smtlib.clone(),
        };
        Some((q.id, script))
    }

    /// Resumes a parked run with the solver's output text (`sat`, `unsat`
    /// or `unknown` first; anything else counts as `unknown`, which the
    /// CPAs treat soundly).
    pub fn answer_query(&mut self, solver_output: &str) {
        if let Some(analysis) = self.analysis.as_mut() {
            analysis.answer_query(solver_output);
        }
    }

    /// Detaches the natively attached solver, so the run parks on every
    /// query as it does in the page (tests).
    pub fn detach_solver(&mut self) {
        if let Some(analysis) = self.analysis.as_mut() {
            analysis.set_solver(None);
        }
    }

    /// Makes this run a mirror of one computed elsewhere (the engine's
    /// worker): its CPA algorithm is dropped, and from now on its events
    /// only arrive through [`Run::fold`]. The run was started here all the
    /// same, so that a broken program or configuration is refused at once
    /// with the same message, and the page has the CFA to draw.
    pub fn hand_over(&mut self) {
        self.analysis = None;
    }

    /// Appends events computed elsewhere to the trace (`finished`: they
    /// were the last).
    pub fn fold(&mut self, events: Vec<Event>, finished: bool) {
        self.cursor.extend(events);
        self.mirrored_done |= finished;
    }

    /// Natively, sends every solver query to the attached z3 (no CPA
    /// decides one itself): for tests of z3's own answers.
    pub fn send_every_query(mut self) -> Run {
        if let Some(analysis) = self.analysis.as_mut() {
            analysis.send_every_query();
        }
        self
    }

    /// Whether every event was produced.
    pub fn finished(&self) -> bool {
        self.analysis.as_ref().map_or(self.mirrored_done, |a| a.is_finished())
    }

    /// Runs to the end (tests and small programs).
    pub fn complete(mut self) -> Run {
        while !self.advance(1000) {}
        self
    }

    /// The waitlist pops computed so far.
    pub fn steps(&self) -> u64 {
        self.cursor.events().iter().filter(|e| matches!(e, Event::WaitlistPop { .. })).count() as u64
    }
}

impl Sliced for Run {
    /// Eight waitlist pops (a CEGAR refinement or a solver query may stop
    /// it earlier).
    fn work(&mut self) -> Chunk {
        if self.advance(8) {
            Chunk::Done
        } else if self.pending_query().is_some() {
            Chunk::Blocked
        } else {
            Chunk::More
        }
    }

    fn pending(&self) -> Option<Query> {
        self.pending_query().map(|(qid, script)| Query {
            origin: format!("{} ({}): query {qid}", self.asker, self.spec.preset),
            legend: crate::model::solver::symbol_legend(&script, &self.program),
            script,
        })
    }

    fn answer(&mut self, solver_output: &str) {
        self.answer_query(solver_output);
    }
}

/// A stepping control of the analysis pane (buttons, keys, slider, the
/// step number box). A step is one iteration of the algorithm's main loop,
/// from a waitlist pop to the next ([`engine::view::steps`]); the compare
/// view and the `next-step` exercises count steps the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctl {
    /// One algorithm step forward (→): to the end of the step shown, just
    /// before the next pop.
    Step,
    /// One algorithm step back (←): to the end of the step before.
    Back,
    /// One event forward (Shift+→).
    EventStep,
    /// One event back (Shift+←).
    EventBack,
    /// To the last event computed.
    End,
    /// To event 0.
    Start,
    /// To an event position (the timeline slider, a CEGAR iteration).
    Seek(usize),
    /// To the end of algorithm step k (a typed step number; 0: before the
    /// first pop).
    GoToStep(usize),
    /// Forward to the next event a breakpoint stops at.
    Break(Breakpoint),
    /// Play or pause (space).
    TogglePlay,
    /// Predict mode shows the step it asked about (or goes to its start).
    Reveal(usize),
}

impl Ctl {
    /// The event position the control moves the cursor to from its current
    /// position (`None`: play, or a breakpoint with no target).
    pub fn target(self, cursor: &Cursor) -> Option<usize> {
        let (pos, len, events) = (cursor.position(), cursor.len(), cursor.events());
        match self {
            Ctl::Step => Some(next_step_boundary(events, pos)),
            Ctl::Back => Some(previous_step_boundary(events, pos)),
            Ctl::EventStep => Some((pos + 1).min(len)),
            Ctl::EventBack => Some(pos.saturating_sub(1)),
            Ctl::End => Some(len),
            Ctl::Start => Some(0),
            Ctl::Seek(k) | Ctl::Reveal(k) => Some(k.min(len)),
            Ctl::GoToStep(k) => Some(step_position(&step_starts(events), len, k)),
            Ctl::Break(bp) => next_break(cursor, bp),
            Ctl::TogglePlay => None,
        }
    }
}

/// The tabs of the analysis pane below the current step: each panel is
/// one click away, and the step toolbar and the verdict stay in view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tab {
    /// The state inspector (one abstract state made readable).
    State,
    /// The waitlist, the next state to be popped marked.
    Waitlist,
    /// The reached set grouped by location.
    #[default]
    Reached,
    /// Predict mode: guess what the next step does.
    Predict,
    /// CEGAR's counterexample, interpolants and precision.
    Cegar,
    /// Block-abstraction memoization: the call tree of blocks and the
    /// cache (`crate::model::blocks`).
    Blocks,
}

impl Tab {
    /// The tabs in the order shown (CEGAR only for runs that have it).
    pub const ALL: [Tab; 6] = [Tab::State, Tab::Waitlist, Tab::Reached, Tab::Predict, Tab::Cegar, Tab::Blocks];

    /// The tab's name (a test id and a CSS class).
    pub fn key(self) -> &'static str {
        match self {
            Tab::State => "state",
            Tab::Waitlist => "waitlist",
            Tab::Reached => "reached",
            Tab::Predict => "predict",
            Tab::Cegar => "cegar",
            Tab::Blocks => "blocks",
        }
    }
}

/// Why the shown run cannot be stepped now, if it cannot: the program no
/// longer lowers to a CFA, so the run is of an earlier version.
pub const PROGRAM_BROKEN: &str =
    "The program has errors now (see the CFA pane): this run is of an earlier version and cannot be stepped until they are fixed.";

/// The analysis pane's state: the chooser's configuration, the run shown
/// and whether it is being computed, played or predicted. It changes only
/// through [`AnalysisState::reduce`].
pub struct AnalysisState {
    /// The configuration chosen (what Analyze runs).
    pub spec: RunSpec,
    /// The run shown, if any.
    pub run: Option<Run>,
    /// The program text the run analyses (the listing is highlighted only
    /// while the editor still holds it).
    pub run_source: String,
    /// Changes with every Analyze, restored link and Cancel: the graph
    /// views build a new frame (and fit the ARG again) when it changes.
    pub run_id: u64,
    /// The run is being computed (slices of waitlist pops).
    pub computing: bool,
    /// The last run was cancelled before its end.
    pub cancelled: bool,
    /// Why the last Analyze made no run (a broken program, a configuration
    /// error).
    pub error: Option<String>,
    /// Play is on: the shown position moves one event per tick.
    pub playing: bool,
    /// Play speed (events per second).
    pub speed: u32,
    /// The event position a share link asked for, shown once computed.
    pub pending_seek: Option<usize>,
    /// Predict mode is on: the student must answer before the next step is
    /// shown, so only predict mode's own "show the step" moves forward.
    pub predicting: bool,
    /// The panel tab shown.
    pub tab: Tab,
    /// The solver log is open (closed by default; a solver breakpoint
    /// opens it).
    pub solver_open: bool,
    /// The keyboard shortcuts are shown.
    pub help_open: bool,
    /// What the last control could not do (a run-to button without a
    /// target), shown until the next control.
    pub notice: Option<String>,
    /// The editor's program lowers to a CFA; when it does not, the old run
    /// is greyed out and cannot be stepped ([`PROGRAM_BROKEN`]).
    pub program_ok: bool,
}

/// What the analysis pane is told: the user's input and its tasks'
/// progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PaneAction {
    /// A preset is chosen (it replaces what the configuration panel
    /// composed).
    Preset(String),
    /// The integer model is chosen.
    IntModel(IntModel),
    /// The step limit is set.
    StepLimit(u64),
    /// The configuration panel's text (None: the plain preset).
    Properties(Option<String>),
    /// The play speed is chosen (events per second).
    Speed(u32),
    /// Analyze the program `source` with the chosen configuration.
    Analyze(String),
    /// A share link's configuration, and its event position (then `source`
    /// is run and shown there once computed).
    Restore {
        /// The program in the editor.
        source: String,
        /// The link's configuration.
        spec: RunSpec,
        /// The link's event position, when it was made with a run shown.
        position: Option<usize>,
    },
    /// Stop computing; the trace so far stays steppable.
    Cancel,
    /// A stepping control.
    Control(Ctl),
    /// One tick of play.
    PlayTick,
    /// Predict mode is switched on or off.
    Predicting(bool),
    /// A panel tab is chosen.
    Tab(Tab),
    /// The solver log is opened or closed.
    SolverLog(bool),
    /// The keyboard shortcuts are shown or hidden.
    Help(bool),
    /// Whether the editor's program lowers to a CFA (told on every change).
    ProgramOk(bool),
}

/// What the page does after an action (the pure reducer cannot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaneEffect {
    /// Nothing.
    None,
    /// Keep the chosen configuration in local storage.
    SaveSpec,
    /// Stop the computing task, if any.
    StopComputing,
    /// Stop the computing task, if any, and compute the new run.
    Compute,
    /// Start playing (stopping an older play task).
    Play,
}

impl Default for AnalysisState {
    fn default() -> Self {
        AnalysisState::new(RunSpec::default())
    }
}

impl AnalysisState {
    /// A pane with configuration `spec` and no run yet.
    pub fn new(spec: RunSpec) -> AnalysisState {
        AnalysisState {
            spec,
            run: None,
            run_source: String::new(),
            run_id: 0,
            computing: false,
            cancelled: false,
            error: None,
            playing: false,
            speed: 10,
            pending_seek: None,
            predicting: false,
            tab: Tab::default(),
            solver_open: false,
            help_open: false,
            notice: None,
            program_ok: true,
        }
    }

    /// What a share link carries: the run shown (its configuration and
    /// event position), else the chooser's configuration.
    pub fn shared(&self) -> (RunSpec, Option<usize>) {
        self.run.as_ref().map_or((self.spec.clone(), None), |r| (r.spec.clone(), Some(r.cursor.position())))
    }

    /// Applies `action`; returns what the page must do besides rendering.
    pub fn reduce(&mut self, action: PaneAction) -> PaneEffect {
        match action {
            PaneAction::Preset(p) => {
                self.spec.preset = p;
                // A preset replaces what the configuration panel composed
                // (and with it a configuration error of the last Analyze).
                self.spec.properties = None;
                self.clear_config_error();
                PaneEffect::SaveSpec
            }
            PaneAction::IntModel(m) => {
                self.spec.int_model = m;
                PaneEffect::SaveSpec
            }
            PaneAction::StepLimit(n) => {
                self.spec.max_steps = n;
                PaneEffect::SaveSpec
            }
            PaneAction::Properties(text) => {
                // A configuration error of the last Analyze is about the old text.
                self.clear_config_error();
                self.spec.properties = text;
                PaneEffect::SaveSpec
            }
            PaneAction::Speed(s) => {
                self.speed = s;
                PaneEffect::None
            }
            PaneAction::Analyze(source) => self.analyze(source),
            PaneAction::Restore { source, spec, position } => {
                self.spec = spec.clone();
                match (position, Run::start(&source, spec)) {
                    (Some(k), Ok(run)) => {
                        self.run = Some(run);
                        self.run_source = source;
                        self.computing = true;
                        self.pending_seek = Some(k);
                        self.run_id += 1;
                        PaneEffect::Compute
                    }
                    _ => PaneEffect::None,
                }
            }
            PaneAction::Cancel => {
                self.run_id += 1;
                self.computing = false;
                self.cancelled = true;
                PaneEffect::StopComputing
            }
            PaneAction::Control(ctl) => self.control(ctl),
            PaneAction::PlayTick => {
                self.play_tick();
                PaneEffect::None
            }
            PaneAction::Predicting(on) => {
                self.predicting = on;
                if on {
                    self.playing = false;
                }
                PaneEffect::None
            }
            PaneAction::Tab(tab) => {
                self.tab = tab;
                PaneEffect::None
            }
            PaneAction::SolverLog(open) => {
                self.solver_open = open;
                PaneEffect::None
            }
            PaneAction::Help(open) => {
                self.help_open = open;
                PaneEffect::None
            }
            PaneAction::ProgramOk(ok) => {
                self.program_ok = ok;
                if !ok {
                    self.playing = false;
                }
                PaneEffect::None
            }
        }
    }

    fn clear_config_error(&mut self) {
        if self.error.as_deref().is_some_and(is_config_error) {
            self.error = None;
        }
    }

    fn analyze(&mut self, source: String) -> PaneEffect {
        self.run_id += 1;
        self.playing = false;
        self.cancelled = false;
        match Run::start(&source, self.spec.clone()) {
            Ok(run) => {
                self.run = Some(run);
                self.run_source = source;
                self.error = None;
                self.computing = true;
                PaneEffect::Compute
            }
            Err(e) => {
                self.run = None;
                self.error = Some(e);
                self.computing = false;
                PaneEffect::StopComputing
            }
        }
    }

    fn control(&mut self, ctl: Ctl) -> PaneEffect {
        if ctl != Ctl::TogglePlay {
            // Any manual move pauses.
            self.playing = false;
        }
        self.notice = None;
        let predicting = self.predicting;
        if !self.program_ok {
            // The run is of a program that is no longer in the editor.
            self.playing = false;
            return PaneEffect::None;
        }
        let Some(run) = self.run.as_mut() else { return PaneEffect::None };
        let pos = run.cursor.position();
        if ctl == Ctl::TogglePlay {
            if predicting {
                return PaneEffect::None;
            }
            self.playing = !self.playing;
            return if self.playing { PaneEffect::Play } else { PaneEffect::None };
        }
        let Some(to) = ctl.target(&run.cursor) else {
            if let Ctl::Break(bp) = ctl {
                self.notice = Some(format!("{}: {}", bp.label(), break_target(run, bp).note()));
            }
            return PaneEffect::None;
        };
        // In predict mode nothing but the prediction reveals what comes next.
        if predicting && to > pos && !matches!(ctl, Ctl::Reveal(_)) {
            return PaneEffect::None;
        }
        run.cursor.seek(to);
        if ctl == Ctl::Break(Breakpoint::SolverCall) {
            // The query stopped at is in the solver log.
            self.solver_open = true;
        }
        PaneEffect::None
    }

    /// One event forward while playing; at the end of a finished trace
    /// play stops (while computing it waits for more events).
    fn play_tick(&mut self) {
        if !self.playing || !self.program_ok {
            return;
        }
        let computing = self.computing;
        let Some(run) = self.run.as_mut() else { return };
        let pos = run.cursor.position();
        if pos < run.cursor.len() {
            run.cursor.seek(pos + 1);
        } else if !computing {
            self.playing = false;
        }
    }

    /// The run is computed: a share link's event position is shown now.
    pub(crate) fn computed(&mut self) {
        self.computing = false;
        if let Some(k) = self.pending_seek.take() {
            if let Some(run) = self.run.as_mut() {
                run.cursor.seek(k.min(run.cursor.len()));
            }
        }
    }
}

/// The pane computes its run through the page's one run driver
/// ([`crate::model::run_driver`]); when the run is over, the pane notes it.
impl Sliced for AnalysisState {
    fn work(&mut self) -> Chunk {
        let Some(run) = self.run.as_mut() else { return Chunk::Done };
        let chunk = run.work();
        if chunk == Chunk::Done {
            self.computed();
        }
        chunk
    }

    fn pending(&self) -> Option<Query> {
        self.run.as_ref().and_then(|r| r.pending())
    }

    fn answer(&mut self, solver_output: &str) {
        if let Some(run) = self.run.as_mut() {
            run.answer(solver_output);
        }
    }
}

/// What CEGAR has done up to the shown position (CEGAR, counterexample
/// checks and restarts): the iterations as segments of the timeline, the
/// latest counterexample and its verdict, the interpolants along the
/// refuted path, and the precision per location with what the latest
/// refinement added marked. Empty for plain reachability runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CegarView {
    /// The iteration shown (1-based; 0 before the run starts).
    pub iteration: u32,
    /// Where each iteration begins (event positions): the timeline's segments.
    pub segments: Vec<usize>,
    /// The latest counterexample: one line per path edge (`N3→N4 [x > 5] (line 16)`).
    pub path: Vec<String>,
    /// Its verdict in words (`infeasible (octagon check)`, `feasible (smt+replay),
    /// confirmed: the program reaches the error with the nondet input 42`).
    pub verdict: Option<String>,
    /// The interpolants of the latest refinement: `after N4 (line 16): {x=6}`.
    pub interpolants: Vec<String>,
    /// The precision: (location or `everywhere`, variable, added by the latest refinement).
    pub precision: Vec<(String, String, bool)>,
    /// The CFA edges of the counterexample path, as graph keys (`E7`), to
    /// paint on the CFA.
    pub path_edges: Vec<String>,
    /// The refiner of the latest refinement (`interpolation`, `predicate
    /// interpolation (WEAKEST)`, …; empty before one).
    pub refiner: String,
    /// Predicate analysis: the predicate precision after the latest
    /// refinement — (where: `at N4`, `in main`, `everywhere`; the predicate
    /// in mini-C; added by the latest refinement).
    pub predicates: Vec<(String, String, bool)>,
    /// Symbolic execution with implicit predicate abstraction: the
    /// precision function p, one row per abstraction location (before the
    /// first refinement: every loop head with the configured threshold and
    /// no predicates).
    pub precision_function: Vec<PrecisionFunctionRow>,
}

/// One row of the precision function p : L ⇀ ℕ₀ × 𝒫(formulas) of symbolic
/// execution with implicit predicate abstraction, as the CEGAR tab's table
/// shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrecisionFunctionRow {
    /// The abstraction location (`N4`).
    pub location: String,
    /// Its source line (0 when unknown).
    pub line: u32,
    /// The threshold c.
    pub threshold: u32,
    /// The predicates P(l), in mini-C.
    pub predicates: Vec<String>,
    /// Changed by the latest refinement (a raised threshold or new
    /// predicates).
    pub changed: bool,
}

impl PrecisionFunctionRow {
    /// The initial precision function of a run with implicit predicate
    /// abstraction (`symexec.abstraction = true`): every loop head with
    /// the configured threshold and no predicates. Empty for other runs.
    pub fn initial(program: &Program, info: &engine::trace::RunInfo) -> Vec<PrecisionFunctionRow> {
        if info.properties.get("symexec.abstraction").map(String::as_str) != Some("true") {
            return Vec::new();
        }
        let threshold = info.properties.get("symexec.abstraction.threshold").and_then(|t| t.parse().ok()).unwrap_or(0);
        program
            .nodes
            .iter()
            .filter(|n| n.loop_head)
            .map(|n| PrecisionFunctionRow {
                location: n.id.to_string(),
                line: n.line,
                threshold,
                predicates: Vec::new(),
                changed: false,
            })
            .collect()
    }
}

impl CegarView {
    /// The CEGAR view of a fold.
    pub fn of(program: &Program, snap: &Snapshot) -> CegarView {
        let edge_line = |e: cfa::EdgeId| {
            let edge = program.edge(e);
            format!("{}→{} {} (line {})", edge.source, edge.target, edge.label, edge.line)
        };
        let (path, verdict, path_ids) = match &snap.counterexample {
            Some(c) => {
                let verdict = match c.feasible {
                    Some(false) => format!("infeasible ({}): a spurious counterexample", c.check),
                    Some(true) if c.confirmed => {
                        let inputs = engine::counterexample::inputs_in_words(&c.inputs);
                        format!("feasible ({}), confirmed: the program reaches the error {inputs}", c.check)
                    }
                    Some(true) => format!("feasible ({}), not confirmed by replay", c.check),
                    None => format!("undecided ({})", c.check),
                };
                (c.path.iter().map(|e| edge_line(*e)).collect(), Some(verdict), c.path.clone())
            }
            None => (Vec::new(), None, snap.refuted_path.clone()),
        };
        let interpolants = snap
            .interpolants
            .iter()
            .map(|i| format!("after {} (line {}): {}", i.location, program.edge(i.edge).line, i.text))
            .collect();
        let predicates = snap.predicates.iter().map(|(e, new)| (e.scope.clone(), e.predicate.clone(), *new)).collect();
        let precision = snap
            .precision
            .iter()
            .map(|t| {
                let at = t.entry.location.map(|n| n.to_string()).unwrap_or_else(|| "everywhere".into());
                (at, t.entry.name.clone(), t.new)
            })
            .collect();
        CegarView {
            iteration: snap.iteration,
            segments: snap.iteration_starts.clone(),
            path,
            verdict,
            interpolants,
            precision,
            path_edges: path_ids.iter().map(|e| format!("E{}", e.0)).collect(),
            refiner: String::new(),
            predicates,
            precision_function: snap
                .precision_function
                .iter()
                .map(|(row, changed)| PrecisionFunctionRow {
                    location: row.location.to_string(),
                    line: program.node(row.location).line,
                    threshold: row.threshold,
                    predicates: row.predicates.clone(),
                    changed: *changed,
                })
                .collect(),
        }
    }

    /// The CEGAR view at the cursor's position, with the latest
    /// refinement's refiner named (the fold keeps its results, the trace
    /// its name).
    pub fn at(program: &Program, cursor: &Cursor) -> CegarView {
        let snap = cursor.snapshot();
        let refiner = cursor.events()[..snap.position.min(cursor.len())].iter().rev().find_map(|e| match e {
            Event::Refinement { refiner, .. } => Some(refiner.clone()),
            _ => None,
        });
        let mut view = CegarView { refiner: refiner.unwrap_or_default(), ..CegarView::of(program, snap) };
        if view.precision_function.is_empty() {
            if let Some(Event::AnalysisStarted { info }) = cursor.events().first() {
                view.precision_function = PrecisionFunctionRow::initial(program, info);
            }
        }
        view
    }

    /// Whether there is anything to show (a CEGAR, check or restart run).
    pub fn is_empty(&self) -> bool {
        self.segments.len() <= 1
            && self.verdict.is_none()
            && self.precision.is_empty()
            && self.interpolants.is_empty()
            && self.predicates.is_empty()
            && self.precision_function.is_empty()
    }

    /// CSS that paints the counterexample path on the CFA graph (its edges
    /// carry `data-edge="E7"`; the keys are numbers, nothing from the program).
    pub fn path_css(&self) -> String {
        self.path_edges
            .iter()
            .map(|e| format!("g.cfa-edge[data-edge=\"{e}\"] path.line {{ stroke: var(--error); stroke-width: 3px; }}\n"))
            .collect()
    }
}

/// The event breakpoints: "run to the next …".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breakpoint {
    /// A merge whose result replaced a reached state.
    MergeChanged,
    /// A stop check that found the new state covered.
    Covered,
    /// A target (error location) state was reached.
    Target,
    /// The next waitlist pop (the next algorithm step).
    Pop,
    /// A merge^widening that replaced a reached state.
    Widening,
    /// A query to the SMT solver.
    SolverCall,
    /// A CEGAR refinement (new precision).
    Refinement,
    /// Predicate analysis computed the abstraction of a block end, or
    /// symbolic execution abstracted the memory (an abstraction point).
    Abstraction,
    /// Block-abstraction memoization: a call whose block summary was found
    /// in the cache (reused, the block not analysed again).
    CacheHit,
    /// Block-abstraction memoization: any block event — a cache miss, a
    /// block entered or exited, a summary expanded into the caller, a
    /// cache hit, the cache emptied after a refinement.
    BlockEvent,
}

impl Breakpoint {
    /// Whether `e` is where this breakpoint stops.
    pub fn matches(self, e: &Event) -> bool {
        match self {
            Breakpoint::MergeChanged => matches!(e, Event::Merge { replaced: true, .. }),
            Breakpoint::Covered => matches!(e, Event::Stop { covered: true, .. }),
            Breakpoint::Target => matches!(e, Event::TargetReached { .. }),
            Breakpoint::Pop => matches!(e, Event::WaitlistPop { .. }),
            Breakpoint::Widening => {
                matches!(e, Event::Merge { operator: MergeKind::Widening, replaced: true, .. })
            }
            Breakpoint::SolverCall => matches!(e, Event::SolverQuery { .. }),
            Breakpoint::Refinement => matches!(e, Event::Refinement { .. }),
            Breakpoint::Abstraction => matches!(e, Event::Abstraction { .. } | Event::AbstractionPoint { .. }),
            Breakpoint::CacheHit => matches!(e, Event::CacheHit { .. }),
            Breakpoint::BlockEvent => matches!(
                e,
                Event::CacheMiss { .. }
                    | Event::BlockEntered { .. }
                    | Event::BlockExited { .. }
                    | Event::CacheHit { .. }
                    | Event::BlockExpanded { .. }
                    | Event::CacheInvalidated { .. }
                    | Event::CacheRestored { .. }
            ),
        }
    }

    /// The button's label.
    pub fn label(self) -> &'static str {
        match self {
            Breakpoint::MergeChanged => "next merge that changed a state",
            Breakpoint::Covered => "next covering stop",
            Breakpoint::Target => "next target",
            Breakpoint::Pop => "next pop",
            Breakpoint::Widening => "next widening",
            Breakpoint::SolverCall => "next solver call",
            Breakpoint::Refinement => "next refinement",
            Breakpoint::Abstraction => "next abstraction",
            Breakpoint::CacheHit => "next cache hit",
            Breakpoint::BlockEvent => "next block event (miss, entry, exit, expand, hit, invalidation, kept entry re-created)",
        }
    }
}

/// The position of the next event matching `bp` after the cursor's position
/// (the position just after that event), if the trace so far has one.
pub fn next_break(cursor: &Cursor, bp: Breakpoint) -> Option<usize> {
    cursor.find_next(|e| bp.matches(e))
}

impl Breakpoint {
    /// Every breakpoint, in the order of the "Run to the …" buttons.
    pub const ALL: [Breakpoint; 10] = [
        Breakpoint::MergeChanged,
        Breakpoint::Covered,
        Breakpoint::Target,
        Breakpoint::Pop,
        Breakpoint::Widening,
        Breakpoint::SolverCall,
        Breakpoint::Refinement,
        Breakpoint::Abstraction,
        Breakpoint::CacheHit,
        Breakpoint::BlockEvent,
    ];

    /// The button's short label (after "Run to the next").
    pub fn short(self) -> &'static str {
        match self {
            Breakpoint::MergeChanged => "merge that changed a state",
            Breakpoint::Covered => "covering stop",
            Breakpoint::Target => "target",
            Breakpoint::Pop => "pop",
            Breakpoint::Widening => "widening",
            Breakpoint::SolverCall => "solver call",
            Breakpoint::Refinement => "refinement",
            Breakpoint::Abstraction => "abstraction",
            Breakpoint::CacheHit => "cache hit",
            Breakpoint::BlockEvent => "block event",
        }
    }

    /// The button's test id (`bp-merge`, …).
    pub fn key(self) -> &'static str {
        match self {
            Breakpoint::MergeChanged => "bp-merge",
            Breakpoint::Covered => "bp-covered",
            Breakpoint::Target => "bp-target",
            Breakpoint::Pop => "bp-pop",
            Breakpoint::Widening => "bp-widening",
            Breakpoint::SolverCall => "bp-solver",
            Breakpoint::Refinement => "bp-refinement",
            Breakpoint::Abstraction => "bp-abstraction",
            Breakpoint::CacheHit => "bp-cache-hit",
            Breakpoint::BlockEvent => "bp-block",
        }
    }
}

impl Breakpoint {
    /// Whether the pane offers this breakpoint for `run`: "next
    /// abstraction" only when the run has a predicate CPA or symbolic
    /// execution with implicit predicate abstraction (elsewhere it would
    /// only ever say "none in this run"); the block breakpoints only for
    /// runs with block-abstraction memoization.
    pub fn offered(self, run: &Run) -> bool {
        if matches!(self, Breakpoint::CacheHit | Breakpoint::BlockEvent) {
            return matches!(run.cursor.events().first(), Some(Event::AnalysisStarted { info })
                if info.properties.get("cpa.bam.enabled").is_some_and(|v| v == "true"));
        }
        self != Breakpoint::Abstraction
            || run.cursor.events().first().is_some_and(|e| {
                matches!(e, Event::AnalysisStarted { info } if info.cpas.iter().any(|c| c.contains("Predicate"))
                    || info.properties.get("symexec.abstraction").is_some_and(|v| v == "true"))
            })
    }
}

/// Where a "Run to the next …" button goes from the shown position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakTarget {
    /// To this event position.
    At(usize),
    /// The run (still computing) has no such event yet.
    NotYet,
    /// The run has such events, but none after the shown position.
    NoneAfterHere,
    /// The whole run has no such event (e.g. no refinement without CEGAR).
    NoneInRun,
}

impl BreakTarget {
    /// Why the button does not move, in words (empty when it does).
    pub fn note(self) -> &'static str {
        match self {
            BreakTarget::At(_) => "",
            BreakTarget::NotYet => "none in the events computed so far",
            BreakTarget::NoneAfterHere => "none after this point",
            BreakTarget::NoneInRun => "none in this run",
        }
    }
}

/// Where breakpoint `bp` goes in `run` from the shown position. The "Run to
/// the next …" buttons ask it for every breakpoint at every step, so it
/// looks the answer up ([`BreakIndex`]) instead of scanning the trace.
pub fn break_target(run: &Run, bp: Breakpoint) -> BreakTarget {
    match run.breaks.next_after(run.cursor.events(), bp, run.cursor.position()) {
        Some(k) => BreakTarget::At(k),
        None if !run.finished() => BreakTarget::NotYet,
        None if run.breaks.next_after(run.cursor.events(), bp, 0).is_some() => BreakTarget::NoneAfterHere,
        None => BreakTarget::NoneInRun,
    }
}

/// The positions of the events each breakpoint stops at, in one run's
/// trace, brought up to date with the events that arrived since the last
/// question: which events match a breakpoint never changes, and the trace
/// only grows.
#[derive(Debug, Default)]
pub struct BreakIndex(RefCell<BreakPositions>);

/// [`BreakIndex`]'s content: how many events were looked at, and per
/// breakpoint (in [`Breakpoint::ALL`]'s order) the indices of its events.
#[derive(Debug, Default)]
struct BreakPositions {
    scanned: usize,
    matches: [Vec<usize>; Breakpoint::ALL.len()],
}

impl BreakIndex {
    /// [`next_break`] from `position`: the position just after the first
    /// event at or after `position` that `bp` stops at.
    fn next_after(&self, events: &[Event], bp: Breakpoint, position: usize) -> Option<usize> {
        let mut index = self.0.borrow_mut();
        if index.scanned > events.len() {
            *index = BreakPositions::default();
        }
        for (i, e) in events.iter().enumerate().skip(index.scanned) {
            for (b, at) in Breakpoint::ALL.iter().zip(index.matches.iter_mut()) {
                if b.matches(e) {
                    at.push(i);
                }
            }
        }
        index.scanned = events.len();
        let at = &index.matches[Breakpoint::ALL.iter().position(|&b| b == bp)?];
        at.get(at.partition_point(|&i| i < position)).map(|&i| i + 1)
    }
}

/// One abstract state as a line of a panel. Its texts are shared
/// ([`StateLineTexts`]): a step rebuilds the lines of every waitlist and
/// reached state, and must not format them again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateLine {
    /// `s12`.
    pub id: Rc<str>,
    /// `N5`, or empty when unknown.
    pub location: Rc<str>,
    /// The state's content: `x=1, y=2` (values) or `x - y <= 0 ∧ …`
    /// (octagon constraints); `⊤` when nothing is known.
    pub text: Rc<str>,
    /// The state popped in the current step.
    pub current: bool,
    /// A target state.
    pub target: bool,
    /// Named by the last event shown (the transfer's successors, the
    /// merge's operands and result, the stop's state and its coverers).
    pub involved: bool,
    /// The waitlist entry the algorithm pops next.
    pub next: bool,
    /// A predicate-analysis abstraction state (a block end, where ψ was
    /// computed and φ starts again from `true`).
    pub abstraction: bool,
}

/// The states the event `e` is about.
pub fn involved_states(e: &Event) -> Vec<StateId> {
    match e {
        Event::StateCreated { state, .. }
        | Event::WaitlistPush { state, .. }
        | Event::WaitlistPop { state, .. }
        | Event::WaitlistRemove { state }
        | Event::ReachedAdd { state }
        | Event::TargetReached { state, .. }
        | Event::Abstraction { state, .. }
        | Event::AbstractionPoint { state, .. } => vec![*state],
        Event::ReachedRemove { state, replaced_by } => vec![*state, *replaced_by],
        Event::Transfer { successors, .. } => successors.clone(),
        Event::PrecisionAdjusted { state, result, .. } => vec![*state, *result],
        Event::Merge { new, reached, result, .. } => vec![*new, *reached, *result],
        Event::Stop { state, covered_by, .. } => std::iter::once(*state).chain(covered_by.iter().copied()).collect(),
        _ => vec![],
    }
}

/// The reached states at one location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocationGroup {
    /// `N5`.
    pub node: String,
    /// Its reached states, oldest first.
    pub states: Vec<StateLine>,
}

/// Everything the analysis panels show at one position of the trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Panels {
    /// Events applied (the timeline's position).
    pub position: usize,
    /// Events recorded so far.
    pub total: usize,
    /// Where the shown position is, in steps and events:
    /// `step 1 · event 6 / 176`; with CEGAR or restarts
    /// `iteration 3, step 39 (54 in all) · event 300 / 512`.
    pub position_text: String,
    /// The algorithm step shown (waitlist pops applied, over all
    /// iterations): the number the step box takes.
    pub step: u64,
    /// The last event shown in words (every kind of event).
    pub event_text: String,
    /// The current step in words ([`Snapshot::step_text`]).
    pub step_text: String,
    /// The waitlist in pop order; [`StateLine::next`] marks the state
    /// popped next.
    pub waitlist: Vec<StateLine>,
    /// The reached set grouped by location, in node order.
    pub reached: Vec<LocationGroup>,
    /// `reached 12 · created 30 · steps 9`.
    pub stats: String,
    /// `TRUE — …` once the trace's end is shown.
    pub verdict: Option<String>,
    /// For a TRUE under mathematical integers: what could differ in C
    /// (shown under the verdict, not repeated in it).
    pub int_model_caveat: Option<String>,
    /// The source line of the edge being processed. (What the CFA listing
    /// marks is [`ListingMarks`], computed by the listing from the frame.)
    pub current_line: Option<u32>,
    /// Symbolic execution (a SymExecCPA run): its statistics box.
    pub symexec: Option<SymExecStats>,
}

/// What the CFA listing marks at the shown position: each location's
/// reached-state count (a badge), the location of the state being
/// processed, and the edge being processed (its source node and its index
/// among that node's leaving edges, which is its row in the listing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListingMarks {
    /// How many reached states each node holds (nodes holding none are left out).
    pub counts: BTreeMap<String, usize>,
    /// The location of the state being processed.
    pub current_node: Option<String>,
    /// The edge being processed: source node and index among its leaving edges.
    pub current_edge: Option<(String, usize)>,
}

/// What [`ListingMarks`] say about one node of the listing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeMarks {
    /// Its reached-state count, when it holds any.
    pub count: Option<usize>,
    /// The state being processed is here.
    pub current: bool,
    /// The edge being processed leaves here: its index among the node's edges.
    pub current_edge: Option<usize>,
}

impl ListingMarks {
    /// The marks of the fold `s` of a run of `program`.
    pub fn of(program: &Program, s: &Snapshot) -> ListingMarks {
        let counts =
            s.reached.iter().filter(|(_, ids)| !ids.is_empty()).map(|(node, ids)| (node.to_string(), ids.len())).collect();
        let current_node = s.current_state.and_then(|id| s.state(id)).and_then(|i| i.location).map(|l| l.to_string());
        let current_edge = s.current_edge.map(|eid| {
            let e = program.edge(eid);
            let index = program.successors(e.source).position(|x| x.id == eid).unwrap_or(0);
            (e.source.to_string(), index)
        });
        ListingMarks { counts, current_node, current_edge }
    }

    /// The marks of node `id` (`N5`).
    pub fn node(&self, id: &str) -> NodeMarks {
        NodeMarks {
            count: self.counts.get(id).copied(),
            current: self.current_node.as_deref() == Some(id),
            current_edge: self.current_edge.as_ref().filter(|(n, _)| n == id).map(|(_, i)| *i),
        }
    }
}

/// What symbolic execution has done so far, from the engine's
/// [`engine::view::Statistics`] (over all CEGAR iterations).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymExecStats {
    /// Paths explored: leaves of the symbolic-execution tree (a branch
    /// without a successor or a path that ended).
    pub paths: u64,
    /// Abstraction points (implicit predicate abstraction).
    pub abstraction_points: u64,
    /// Paths pruned as not p-simple.
    pub pruned: u64,
    /// Branches whose path condition became unsatisfiable.
    pub infeasible: u64,
    /// Queries to the SMT solver.
    pub solver_queries: u64,
    /// Of those, the ones answered without it (an equal earlier query, an
    /// earlier model or unsatisfiable query).
    pub without_solver: u64,
    /// CEGAR refinements.
    pub refinements: u64,
    /// Whether the run abstracts at all (`symexec.abstraction`): the box
    /// shows abstraction points, pruned paths and refinements only then.
    pub abstraction: bool,
}

impl SymExecStats {
    /// The statistics of a fold, for a run described by `info`; `None`
    /// when the run has no SymExecCPA.
    pub fn of(info: &engine::trace::RunInfo, stats: &engine::view::Statistics) -> Option<SymExecStats> {
        if !info.cpas.iter().any(|c| c.contains("SymExec")) {
            return None;
        }
        Some(SymExecStats {
            paths: stats.paths_explored,
            abstraction_points: stats.abstraction_points,
            pruned: stats.pruned_not_simple,
            infeasible: stats.infeasible_branches,
            solver_queries: stats.solver_queries,
            without_solver: stats.queries_without_solver,
            refinements: stats.refinements,
            abstraction: info.properties.get("symexec.abstraction").is_some_and(|v| v == "true"),
        })
    }

    /// The box's entries: (label, value, test id).
    pub fn entries(&self) -> Vec<(&'static str, u64, &'static str)> {
        let mut out = vec![("paths explored", self.paths, "symexec-paths")];
        if self.abstraction {
            out.push(("abstraction points", self.abstraction_points, "symexec-abstraction-points"));
            out.push(("pruned (not p-simple)", self.pruned, "symexec-pruned"));
        }
        out.push(("infeasible branches", self.infeasible, "symexec-infeasible"));
        out.push(("solver queries", self.solver_queries, "symexec-queries"));
        out.push(("of them without the solver", self.without_solver, "symexec-queries-without-solver"));
        if self.abstraction {
            out.push(("refinements", self.refinements, "symexec-refinements"));
        }
        out
    }

    /// In one line: `paths explored 12 · abstraction points 3 · …`.
    pub fn text(&self) -> String {
        self.entries().iter().map(|(label, n, _)| format!("{label} {n}")).collect::<Vec<_>>().join(" · ")
    }
}

/// Where `s` is in its trace, in steps and events (see
/// [`Panels::position_text`]).
fn position_text(s: &Snapshot, events: &[Event]) -> String {
    let all = s.stats.steps;
    let event = format!("event {} / {}", s.position, events.len());
    if s.iteration_starts.len() <= 1 {
        return format!("step {all} · {event}");
    }
    // CEGAR and restarts number each iteration's steps from 1.
    let start = s.iteration_starts.last().copied().unwrap_or(0).min(s.position);
    let here = step_number_at(&events[start..], s.position - start).unwrap_or(0);
    format!("iteration {}, step {here} ({all} in all) · {event}", s.iteration)
}

/// The current step in words; for symbolic execution (a depth-first
/// search over the tree) with the backtrack that began it, right after the
/// pop: `step 10: pop s6 @N6; backtrack to s5: s6 is not a child of s9; …`.
fn step_text(s: &Snapshot, events: &[Event]) -> String {
    let symexec =
        matches!(events.first(), Some(Event::AnalysisStarted { info }) if info.cpas.iter().any(|c| c.contains("SymExec")));
    let mut lines = s.current_step.clone();
    if let (true, Some(b), false) = (symexec, s.backtrack, lines.is_empty()) {
        let at = b.parent.map(|p| format!(" to {p}")).unwrap_or_default();
        lines.insert(1, format!("backtrack{at}: {} is not a child of {}", b.to, b.from));
    }
    lines.join("; ")
}

/// A state's content without its location and call stack parts.
pub fn state_text(snapshot: &Snapshot, id: StateId) -> String {
    let Some(view) = snapshot.state(id).and_then(|s| s.view.as_deref()) else { return "?".into() };
    let mut parts = Vec::new();
    for c in &view.components {
        match &c.content {
            ViewContent::Location { .. } | ViewContent::Callstack { .. } => {}
            ViewContent::Values { values } => {
                parts.extend(values.iter().map(|b| format!("{}={}", b.name, b.value)));
            }
            ViewContent::Octagon { octagon } if octagon.bottom => parts.push("⊥".into()),
            ViewContent::Octagon { octagon } => parts.extend(octagon.constraints.iter().cloned()),
            ViewContent::Constraints { constraints } => parts.extend(constraints.iter().cloned()),
            ViewContent::SymbolicValues { values } => parts.extend(values.iter().map(|b| format!("{}={}", b.name, b.value))),
            ViewContent::Predicate { .. } | ViewContent::SymbolicExecution { .. } => parts.push(c.content.to_string()),
            ViewContent::Text { text } => parts.push(text.clone()),
        }
    }
    if parts.is_empty() {
        "⊤".into()
    } else {
        parts.join(", ")
    }
}

/// Whether `id` is a predicate-analysis abstraction state (its predicate
/// component says so) or an abstraction point of symbolic execution with
/// implicit predicate abstraction; false for every other analysis.
pub fn is_abstraction_state(snapshot: &Snapshot, id: StateId) -> bool {
    let Some(info) = snapshot.state(id) else { return false };
    if info.abstraction_point {
        return true;
    }
    info.view.as_deref().is_some_and(view_marks_abstraction)
}

/// Whether a state's view says it is an abstraction state (predicate
/// analysis) or an abstraction point (symbolic execution).
fn view_marks_abstraction(view: &engine::trace::StateView) -> bool {
    view.components.iter().any(|c| {
        matches!(
            c.content,
            ViewContent::Predicate { abstraction_state: true, .. }
                | ViewContent::SymbolicExecution { abstraction_point: true, .. }
        )
    })
}

/// What a state's line shows that never changes once the state exists:
/// its id, location and content, and whether its view marks it an
/// abstraction state.
#[derive(Clone, Debug)]
struct LineTexts {
    id: Rc<str>,
    location: Rc<str>,
    text: Rc<str>,
    abstraction: bool,
}

/// The texts of every state's line in one run, each computed the first
/// time a panel shows the state: a step's panels list every reached state
/// (thousands in a long run), and formatting their contents again at every
/// step made a step's cost grow with the reached set. A state is known by
/// the iteration it belongs to (state ids start again at `s0` in each CEGAR
/// iteration or restart) and its id; its view is fixed when it is created.
#[derive(Debug, Default)]
pub struct StateLineTexts(RefCell<HashMap<(usize, StateId), LineTexts>>);

impl StateLineTexts {
    /// The texts of `id`'s line in `snapshot`.
    fn of(&self, snapshot: &Snapshot, id: StateId) -> LineTexts {
        let iteration = snapshot.iteration_starts.last().copied().unwrap_or(0);
        self.0
            .borrow_mut()
            .entry((iteration, id))
            .or_insert_with(|| {
                let info = snapshot.state(id);
                LineTexts {
                    id: id.to_string().into(),
                    location: info.and_then(|s| s.location).map(|l| l.to_string()).unwrap_or_default().into(),
                    text: state_text(snapshot, id).into(),
                    abstraction: info.and_then(|s| s.view.as_deref()).is_some_and(view_marks_abstraction),
                }
            })
            .clone()
    }
}

fn state_line(snapshot: &Snapshot, texts: &StateLineTexts, id: StateId, involved: &[StateId]) -> StateLine {
    let info = snapshot.state(id);
    let texts = texts.of(snapshot, id);
    StateLine {
        id: texts.id,
        location: texts.location,
        text: texts.text,
        current: snapshot.current_state == Some(id),
        target: info.is_some_and(|s| s.target),
        involved: involved.contains(&id),
        next: false,
        // An abstraction point is marked by a later event, not by the view.
        abstraction: texts.abstraction || info.is_some_and(|s| s.abstraction_point),
    }
}

impl Panels {
    /// The panels at the cursor's current position (the verdict appears once
    /// the cursor is past the run's `AnalysisFinished` event); `texts` is
    /// the run's ([`Run::lines`]), shared by every position shown.
    pub fn of(program: &Program, cursor: &Cursor, texts: &StateLineTexts) -> Panels {
        let s = cursor.snapshot();
        let involved = s.position.checked_sub(1).and_then(|i| cursor.events().get(i)).map(involved_states).unwrap_or_default();
        let reached: Vec<LocationGroup> = s
            .reached
            .iter()
            .filter(|(_, ids)| !ids.is_empty())
            .map(|(node, ids)| LocationGroup {
                node: node.to_string(),
                states: ids.iter().map(|&id| state_line(s, texts, id, &involved)).collect(),
            })
            .collect();
        let current_line = s.current_edge.map(|eid| program.edge(eid).line).filter(|&l| l > 0).or_else(|| {
            let node = s.current_state.and_then(|id| s.state(id)).and_then(|i| i.location)?;
            Some(program.node(node).line).filter(|&l| l > 0)
        });
        let st = &s.stats;
        let events = cursor.events();
        // The state popped next: the trace's next pop when it is recorded,
        // else the head of the waitlist (its pop order).
        let next_pop = events[s.position..]
            .iter()
            .find_map(|e| match e {
                Event::WaitlistPop { state, .. } => Some(*state),
                _ => None,
            })
            .filter(|id| s.waitlist.contains(id))
            .or_else(|| s.waitlist.first().copied());
        let waitlist = s
            .waitlist
            .iter()
            .map(|&id| StateLine { next: Some(id) == next_pop, ..state_line(s, texts, id, &involved) })
            .collect();
        Panels {
            position: s.position,
            total: cursor.len(),
            position_text: position_text(s, events),
            step: st.steps,
            event_text: s.position.checked_sub(1).and_then(|i| events.get(i)).map(describe_event).unwrap_or_default(),
            step_text: step_text(s, events),
            waitlist,
            reached,
            stats: format!("reached {} · created {} · steps {}", st.reached, st.created, st.steps),
            verdict: s.finished.as_ref().map(|(v, reason)| {
                let suffix = s.int_model_caveat.as_ref().map(|c| format!("; {}", c.message()));
                let reason = suffix.as_deref().and_then(|x| reason.strip_suffix(x)).unwrap_or(reason);
                format!("{} — {reason}", v.upper())
            }),
            int_model_caveat: s.int_model_caveat.as_ref().map(|c| c.message()),
            current_line,
            symexec: match events.first() {
                Some(Event::AnalysisStarted { info }) => SymExecStats::of(info, st),
                _ => None,
            },
        }
    }

    /// The panels as plain text (what the native tests compare).
    pub fn text(&self) -> String {
        let mut out = format!("event {}/{}\nstep: {}\nwaitlist:", self.position, self.total, self.step_text);
        for w in &self.waitlist {
            out += &format!(" {}@{}", w.id, w.location);
        }
        out += "\nreached:\n";
        for g in &self.reached {
            out += &format!("  {}:\n", g.node);
            for st in &g.states {
                out += &format!("    {} {}\n", st.id, st.text);
            }
        }
        out += &self.stats;
        out.push('\n');
        if let Some(x) = &self.symexec {
            out += &format!("{}\n", x.text());
        }
        if let Some(v) = &self.verdict {
            out += &format!("verdict: {v}\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::page::EXAMPLE_PROGRAM;

    /// Listing 2.1 over mathematical integers, as the octagon thesis runs it.
    fn listing_run(preset: &str) -> Run {
        let spec = RunSpec { preset: preset.into(), int_model: IntModel::Math, ..RunSpec::default() };
        Run::start(EXAMPLE_PROGRAM, spec).unwrap().complete()
    }

    /// The CEGAR footnote example under octagon-cegar, run to the end
    /// (a spurious path, a refinement, then TRUE).
    fn footnote_octagon_cegar() -> Run {
        let src = include_str!("../../../../static/examples/cegar-footnote.c");
        Run::start(src, RunSpec { preset: "octagon-cegar".into(), max_steps: 5000, ..RunSpec::default() }).unwrap().complete()
    }

    fn panels_at(run: &mut Run, k: usize) -> Panels {
        run.cursor.seek(k);
        Panels::of(&run.program, &run.cursor, &run.lines)
    }

    /// The breakpoint index answers as a scan of the trace does, at every
    /// position, also while the trace grows (a run still computing).
    #[test]
    fn the_break_index_answers_as_a_scan() {
        let run = footnote_octagon_cegar();
        let events = run.cursor.events();
        let scan = |upto: usize, bp: Breakpoint, from: usize| {
            events[from.min(upto)..upto].iter().position(|e| bp.matches(e)).map(|i| from.min(upto) + i + 1)
        };
        let growing = BreakIndex::default();
        let mut found = 0;
        for upto in (0..=events.len()).step_by(5).chain([events.len()]) {
            for from in (0..=upto).step_by(11).chain([upto]) {
                for bp in Breakpoint::ALL {
                    let answer = growing.next_after(&events[..upto], bp, from);
                    assert_eq!(answer, scan(upto, bp, from), "{bp:?} from {from} in the first {upto} events");
                    found += usize::from(answer.is_some());
                }
            }
        }
        assert!(found > 100, "the run has events for the breakpoints: {found}");
    }

    /// The run's shared line texts never show a state's line from another
    /// position wrongly: across a CEGAR refinement (ids start again at s0)
    /// and back, every position's panels equal those built from scratch.
    #[test]
    fn shared_line_texts_equal_fresh_ones_across_iterations() {
        let mut run = footnote_octagon_cegar();
        let n = run.cursor.len();
        run.cursor.seek(n);
        assert!(run.cursor.snapshot().iteration >= 2, "the example refines once");
        let positions: Vec<usize> = (0..=n).step_by(3).chain((0..=n).rev().step_by(7)).collect();
        for k in positions {
            let shared = panels_at(&mut run, k);
            let fresh = Panels::of(&run.program, &run.cursor, &StateLineTexts::default());
            assert_eq!(shared, fresh, "position {k}");
        }
    }

    /// The script the page sends to Z3 for a run's first query, with
    /// `extra` properties added to `symbolic`.
    fn first_query_script(extra: &str) -> (String, String) {
        // Every query to Z3: the engine would decide this program's one-input queries.
        let properties = format!("#include symbolic.properties\ncpa.constraints.decideOneInput = false\n{extra}");
        let spec = RunSpec { preset: "symbolic".into(), properties: Some(properties), ..RunSpec::default() };
        let mut run = Run::start(EXAMPLE_PROGRAM, spec).unwrap();
        run.detach_solver();
        while run.pending_query().is_none() {
            assert!(!run.advance(1), "the run asks a query before it ends");
        }
        let (_, script) = run.pending_query().unwrap();
        let engine = run.analysis.as_ref().unwrap().pending_query().unwrap().smtlib.clone();
        (script, engine)
    }

    #[test]
    fn a_solver_timeout_the_student_set_and_the_stage_limit_go_with_the_query_to_z3_in_the_page() {
        let (script, engine) = first_query_script("solver.timeout = 1500\n");
        assert_eq!(script, format!("(set-option :timeout 1500)\n{engine}"));
        assert!(!engine.contains(":timeout"), "the engine's own query text (its cache key and trace) is unchanged");
        // The default is the worker's own limit: the script is the engine's.
        let (script, engine) = first_query_script("");
        assert_eq!(script, engine);
        let (script, engine) = first_query_script("solver.timeout = 10000\n");
        assert_eq!(script, engine);
        // A stage time limit caps it at what is left of the stage.
        let (script, engine) = first_query_script("restartAlgorithm.stageTimeMs = 3000\n");
        let limit: u64 = script
            .strip_prefix("(set-option :timeout ")
            .and_then(|rest| rest.split_once(')'))
            .and_then(|(ms, _)| ms.parse().ok())
            .unwrap_or_else(|| panic!("a limit leads the script: {script}"));
        assert!((1..=3000).contains(&limit), "{limit}");
        assert!(script.ends_with(&engine));
        let (script, _) = first_query_script("restartAlgorithm.stageTimeMs = 60000\nsolver.timeout = 2000\n");
        assert!(script.starts_with("(set-option :timeout 2000)\n"), "the smaller of the two: {script}");
    }

    #[test]
    fn listing_2_1_under_octagon_widening_at_a_few_events() {
        let mut run = listing_run("octagon-widening");
        assert_eq!(run.cursor.len(), 176);
        assert_eq!(run.steps(), 24);

        let p = panels_at(&mut run, 0);
        assert_eq!(p.text(), "event 0/176\nstep: \nwaitlist:\nreached:\nreached 0 · created 0 · steps 0\n");

        let p = panels_at(&mut run, 20);
        assert_eq!(
            p.text(),
            "event 20/176\n\
             step: step 3: pop s2 @N2; transfer along N2→N3 `while` → s3; stop: s3 not covered\n\
             waitlist:\n\
             reached:\n  N0:\n    s0 ⊤\n  N1:\n    s1 ticks == 0\n  N2:\n    s2 ticks == 0\n\
             reached 3 · created 4 · steps 3\n"
        );
        assert_eq!(p.current_line, Some(10), "the while loop's line");
        let marks = ListingMarks::of(&run.program, run.cursor.snapshot());
        assert_eq!(marks.current_node.as_deref(), Some("N2"));
        assert_eq!(marks.current_edge, Some(("N2".to_string(), 0)));
        assert_eq!(marks.node("N2"), NodeMarks { count: Some(1), current: true, current_edge: Some(0) });
        assert_eq!(marks.node("N1"), NodeMarks { count: Some(1), current: false, current_edge: None });
        assert_eq!(marks.node("N3"), NodeMarks::default(), "no state at N3 yet");

        // Seeking back is the same view as going forward to that position.
        let p15 = panels_at(&mut run, 15);
        assert_eq!(
            p15.step_text,
            "step 2: pop s1 @N1; transfer along N1→N2 `int flag = __VERIFIER_nondet_int();` → s2; stop: s2 not covered; add s2"
        );
        assert_eq!(p15.stats, "reached 3 · created 3 · steps 2");
        let mut fresh = listing_run("octagon-widening");
        assert_eq!(panels_at(&mut fresh, 15), p15);

        let end = panels_at(&mut run, 176);
        assert_eq!(
            end.verdict.as_deref(),
            Some("TRUE — the waitlist is empty: the reached set is a fixpoint without any target state")
        );
        assert_eq!(end.stats, "reached 21 · created 34 · steps 24");
        let n4: Vec<&str> = end.reached.iter().find(|g| g.node == "N4").unwrap().states.iter().map(|s| &*s.text).collect();
        assert_eq!(
            n4,
            [
                "ticks == 0, __tmp0 == 0",
                "0 <= ticks <= 1, __tmp0 == 0",
                "0 <= ticks <= 2, __tmp0 == 0",
                "ticks >= 0, __tmp0 == 0"
            ]
        );
        assert_eq!(ListingMarks::of(&run.program, run.cursor.snapshot()).counts.get("N4"), Some(&4));
        assert_eq!(
            end.reached.iter().find(|g| g.node == "N3").unwrap().states[0].text.as_ref(),
            "ticks >= 0",
            "widening at the loop head"
        );
    }

    #[test]
    fn breakpoints_find_the_next_widening_merge_and_covering_stop() {
        let mut run = listing_run("octagon-widening");
        run.cursor.seek(0);
        let m = next_break(&run.cursor, Breakpoint::MergeChanged).expect("widening replaces a state at the loop head");
        run.cursor.seek(m);
        let p = Panels::of(&run.program, &run.cursor, &run.lines);
        assert!(p.step_text.contains("merge") && p.step_text.contains(" replaces s"), "{}", p.step_text);
        // The text says the result replaces s3: the reached set no longer
        // lists s3 (the result enters it at the `ReachedAdd` that follows).
        assert!(p.step_text.ends_with(" replaces s3"), "{}", p.step_text);
        let listed: Vec<&str> = p.reached.iter().flat_map(|g| &g.states).map(|s| &*s.id).collect();
        assert!(!listed.contains(&"s3"), "{listed:?}");
        let c = next_break(&run.cursor, Breakpoint::Covered).expect("a covering stop");
        assert!(c > m);
        run.cursor.seek(c);
        assert!(Panels::of(&run.program, &run.cursor, &run.lines).step_text.contains("covered by"));
        assert_eq!(next_break(&run.cursor, Breakpoint::Target), None, "Listing 2.1 is safe");
    }

    #[test]
    fn widening_breakpoint_skips_non_widening_merges() {
        let mut run = listing_run("octagon-widening");
        run.cursor.seek(0);
        let w = next_break(&run.cursor, Breakpoint::Widening).expect("a widening at the loop head");
        assert!(matches!(run.cursor.events()[w - 1], Event::Merge { operator: MergeKind::Widening, replaced: true, .. }));
        assert_eq!(next_break(&run.cursor, Breakpoint::Refinement), None, "no CEGAR in this preset");
        let mut join = listing_run("octagon-join");
        join.cursor.seek(0);
        assert_eq!(next_break(&join.cursor, Breakpoint::Widening), None, "merge^join never widens");
    }

    #[test]
    fn cegar_presets_run_cegar_in_the_page() {
        let mut run = footnote_octagon_cegar();
        run.cursor.seek(0);
        let r = next_break(&run.cursor, Breakpoint::Refinement).expect("octagon-cegar refines the spurious path");
        assert!(r > 0);
        let n = run.cursor.len();
        let p = panels_at(&mut run, n);
        assert!(p.verdict.as_deref().unwrap().starts_with("TRUE"), "{:?}", p.verdict);
        assert!(PRESETS.iter().any(|(name, _)| *name == "octagon-seq-widening-cegar"));
    }

    #[test]
    fn the_cegar_view_shows_iterations_the_counterexample_and_the_precision() {
        let mut run = footnote_octagon_cegar();
        run.cursor.seek(0);
        assert!(CegarView::of(&run.program, run.cursor.snapshot()).is_empty(), "nothing before the run");
        let n = run.cursor.len();
        run.cursor.seek(n);
        let v = CegarView::of(&run.program, run.cursor.snapshot());
        assert!(v.segments.len() >= 2, "a refinement starts a second iteration: {v:?}");
        assert_eq!(v.iteration as usize, v.segments.len());
        assert!(v.verdict.as_deref().unwrap().starts_with("infeasible"), "{v:?}");
        assert!(v.path.iter().any(|l| l.contains("[x > 5]")) && v.path.iter().any(|l| l.contains("[x < 3]")), "{:?}", v.path);
        assert!(v.precision.iter().any(|(_, var, _)| var.ends_with('x')), "x is tracked: {:?}", v.precision);
        assert!(!v.precision.iter().any(|(_, var, _)| var.ends_with("::n")), "the loop counter never is: {:?}", v.precision);
        assert_eq!(v.path_edges.len(), v.path.len());
        assert!(v.path_css().contains("g.cfa-edge[data-edge=\"E"));
        // A plain run has no CEGAR view.
        let mut plain = listing_run("octagon-widening");
        let n = plain.cursor.len();
        plain.cursor.seek(n);
        assert!(CegarView::of(&plain.program, plain.cursor.snapshot()).is_empty());
    }

    #[test]
    fn value_analysis_shows_explicit_values() {
        let src = "int main() { int x = 1; int y = x + 2; if (y != 3) { ERROR: return 1; } return 0; }";
        let mut run = Run::start(src, RunSpec { preset: "value".into(), ..RunSpec::default() }).unwrap().complete();
        let n = run.cursor.len();
        let p = panels_at(&mut run, n);
        assert!(p.verdict.as_deref().unwrap().starts_with("TRUE"), "{:?}", p.verdict);
        assert!(p.reached.iter().flat_map(|g| &g.states).any(|s| &*s.text == "main::x=1, main::y=3"), "{}", p.text());
    }

    #[test]
    fn step_limit_ends_unknown_and_names_the_limit() {
        let spec = RunSpec { preset: "octagon-sep".into(), max_steps: 300, ..RunSpec::default() };
        assert_eq!(spec.describe(), "octagon-sep, c, ≤ 300 steps");
        let mut run = Run::start(EXAMPLE_PROGRAM, spec).unwrap();
        // In slices, as the page computes it.
        let mut slices = 0;
        while !run.advance(25) {
            slices += 1;
        }
        assert!(slices >= 11, "{slices} slices");
        assert_eq!(run.steps(), 300);
        let n = run.cursor.len();
        let p = panels_at(&mut run, n);
        let v = p.verdict.unwrap();
        assert!(v.starts_with("UNKNOWN — step limit reached: limits.steps = 300"), "{v}");
    }

    #[test]
    fn configuration_is_the_clis() {
        let spec = RunSpec { preset: "value-join".into(), int_model: IntModel::C, max_steps: 0, properties: None };
        let c = spec.config().unwrap();
        assert_eq!(c.int_model(), IntModel::C);
        assert_eq!(c.algorithm_options().max_steps, None);
        assert_eq!(c.get("cpa.value.merge"), "JOIN");
        assert!(Run::start("int main() { return 0 }", RunSpec::default()).is_err());
        for (name, _) in PRESETS {
            assert!(RunSpec { preset: name.to_string(), ..RunSpec::default() }.config().is_ok(), "{name}");
        }
    }

    /// The analysis pane's reducer, as the page drives it.
    mod pane {
        use super::*;
        use crate::model::run_driver::{drive_sync, DriverEvent};

        fn analyzed(spec: RunSpec) -> AnalysisState {
            let mut pane = AnalysisState::new(spec);
            assert_eq!(pane.reduce(PaneAction::Analyze(EXAMPLE_PROGRAM.into())), PaneEffect::Compute);
            pane
        }

        #[test]
        fn analyze_starts_a_run_that_the_driver_computes_and_cancel_keeps_the_trace() {
            let mut pane = analyzed(RunSpec { int_model: IntModel::Math, ..RunSpec::default() });
            assert!(pane.computing && pane.run.is_some() && pane.error.is_none());
            assert_eq!(pane.run_source, EXAMPLE_PROGRAM);
            let id = pane.run_id;
            // Two chunks a slice: the driver yields, then computes to the end.
            let mut chunks = 0;
            let events = drive_sync(
                &mut pane,
                |_| Err("no solver".into()),
                || {
                    chunks += 1;
                    chunks % 2 == 0
                },
            );
            assert_eq!(events.first(), Some(&DriverEvent::Yielded));
            assert_eq!(events.last(), Some(&DriverEvent::Done));
            assert!(!pane.computing && pane.run.as_ref().unwrap().finished());
            assert_eq!(pane.run_id, id, "the same run");
            // Cancelled after one chunk: the trace so far stays steppable.
            let mut cancelled = analyzed(RunSpec { int_model: IntModel::Math, ..RunSpec::default() });
            assert_eq!(cancelled.work(), Chunk::More);
            assert_eq!(cancelled.reduce(PaneAction::Cancel), PaneEffect::StopComputing);
            assert!(!cancelled.computing && cancelled.cancelled);
            assert_eq!(cancelled.run.as_ref().unwrap().steps(), 8);
            assert!(!cancelled.run.as_ref().unwrap().finished());
        }

        #[test]
        fn a_broken_program_or_configuration_is_an_error_and_a_preset_clears_a_configuration_error() {
            let mut pane = AnalysisState::default();
            assert_eq!(pane.reduce(PaneAction::Analyze("int main( {".into())), PaneEffect::StopComputing);
            assert!(pane.run.is_none() && !pane.computing);
            assert!(pane.error.as_deref().is_some_and(|e| e.contains("error(s)")));
            assert_eq!(pane.reduce(PaneAction::Properties(Some("cpa = nonsense".into()))), PaneEffect::SaveSpec);
            pane.reduce(PaneAction::Analyze(EXAMPLE_PROGRAM.into()));
            assert!(pane.error.as_deref().is_some_and(is_config_error), "{:?}", pane.error);
            assert_eq!(pane.reduce(PaneAction::Preset("value".into())), PaneEffect::SaveSpec);
            assert_eq!(pane.spec.properties, None);
            assert_eq!(pane.error, None);
        }

        #[test]
        fn stepping_seeks_the_cursor_and_predict_mode_blocks_moving_forward() {
            let mut pane = analyzed(RunSpec { int_model: IntModel::Math, ..RunSpec::default() });
            drive_sync(&mut pane, |_| Err("no solver".into()), || false);
            let len = pane.run.as_ref().unwrap().cursor.len();
            let pos = |p: &AnalysisState| p.run.as_ref().unwrap().cursor.position();
            pane.reduce(PaneAction::Control(Ctl::EventStep));
            pane.reduce(PaneAction::Control(Ctl::EventStep));
            assert_eq!(pos(&pane), 2);
            pane.reduce(PaneAction::Control(Ctl::EventBack));
            assert_eq!(pos(&pane), 1);
            pane.reduce(PaneAction::Control(Ctl::End));
            assert_eq!(pos(&pane), len);
            pane.reduce(PaneAction::Control(Ctl::Start));
            pane.reduce(PaneAction::Control(Ctl::Break(Breakpoint::Widening)));
            let at = pos(&pane);
            assert!(at > 0 && at < len && Breakpoint::Widening.matches(&pane.run.as_ref().unwrap().cursor.events()[at - 1]));
            // Predict mode: forward is refused, back and reveal work.
            pane.reduce(PaneAction::Predicting(true));
            pane.reduce(PaneAction::Control(Ctl::Step));
            pane.reduce(PaneAction::Control(Ctl::EventStep));
            pane.reduce(PaneAction::Control(Ctl::GoToStep(20)));
            pane.reduce(PaneAction::Control(Ctl::Seek(at + 5)));
            assert_eq!(pane.reduce(PaneAction::Control(Ctl::TogglePlay)), PaneEffect::None);
            assert_eq!(pos(&pane), at);
            assert!(!pane.playing);
            pane.reduce(PaneAction::Control(Ctl::Reveal(at + 1)));
            assert_eq!(pos(&pane), at + 1);
            pane.reduce(PaneAction::Control(Ctl::Seek(0)));
            assert_eq!(pos(&pane), 0);
        }

        #[test]
        fn play_moves_one_event_per_tick_and_stops_at_the_end_of_a_finished_run() {
            let mut pane = analyzed(RunSpec { int_model: IntModel::Math, ..RunSpec::default() });
            drive_sync(&mut pane, |_| Err("no solver".into()), || false);
            let len = pane.run.as_ref().unwrap().cursor.len();
            assert_eq!(pane.reduce(PaneAction::Control(Ctl::TogglePlay)), PaneEffect::Play);
            pane.reduce(PaneAction::PlayTick);
            assert_eq!(pane.run.as_ref().unwrap().cursor.position(), 1);
            // A manual move pauses.
            pane.reduce(PaneAction::Control(Ctl::Back));
            assert!(!pane.playing);
            pane.reduce(PaneAction::PlayTick);
            assert_eq!(pane.run.as_ref().unwrap().cursor.position(), 0);
            pane.reduce(PaneAction::Control(Ctl::Seek(len - 1)));
            pane.reduce(PaneAction::Control(Ctl::TogglePlay));
            pane.reduce(PaneAction::PlayTick);
            assert!(pane.playing);
            pane.reduce(PaneAction::PlayTick);
            assert!(!pane.playing, "the end of a finished run stops play");
            assert_eq!(pane.run.as_ref().unwrap().cursor.position(), len);
        }

        #[test]
        fn a_share_link_restores_the_configuration_and_its_position_once_computed() {
            let spec = RunSpec { preset: "value".into(), int_model: IntModel::Math, max_steps: 500, properties: None };
            let mut chooser_only = AnalysisState::default();
            let restore = |position| PaneAction::Restore { source: EXAMPLE_PROGRAM.into(), spec: spec.clone(), position };
            assert_eq!(chooser_only.reduce(restore(None)), PaneEffect::None);
            assert_eq!(chooser_only.spec, spec);
            assert!(chooser_only.run.is_none());
            let mut pane = AnalysisState::default();
            assert_eq!(pane.reduce(restore(Some(7))), PaneEffect::Compute);
            assert_eq!(pane.shared(), (spec.clone(), Some(0)));
            drive_sync(&mut pane, |_| Err("no solver".into()), || false);
            assert_eq!(pane.shared(), (spec, Some(7)));
            assert_eq!(pane.pending_seek, None);
        }

        fn listing_pane() -> AnalysisState {
            let mut pane = analyzed(RunSpec { int_model: IntModel::Math, ..RunSpec::default() });
            drive_sync(&mut pane, |_| Err("no solver".into()), || false);
            pane
        }

        fn shown(pane: &AnalysisState) -> Panels {
            let run = pane.run.as_ref().unwrap();
            Panels::of(&run.program, &run.cursor, &run.lines)
        }

        #[test]
        fn step_moves_one_algorithm_step_from_pop_to_pop_and_event_one_event() {
            let mut pane = listing_pane();
            let events = pane.run.as_ref().unwrap().cursor.events().to_vec();
            let starts = step_starts(&events);
            assert_eq!((events.len(), starts.len()), (176, 24));
            let ctl = |pane: &mut AnalysisState, c: Ctl| {
                pane.reduce(PaneAction::Control(c));
                shown(pane)
            };
            // Step 0: the start and the initial state, before the first pop.
            let p = ctl(&mut pane, Ctl::Step);
            assert_eq!(p.position, starts[0]);
            assert_eq!(p.position_text, format!("step 0 · event {} / 176", starts[0]));
            // Step 1 whole: from its pop to just before the next pop.
            let p = ctl(&mut pane, Ctl::Step);
            assert_eq!(p.position, starts[1]);
            assert!(p.step_text.starts_with("step 1: pop s0 @N0; transfer"), "{}", p.step_text);
            assert_eq!(p.position_text, format!("step 1 · event {} / 176", starts[1]));
            let p = ctl(&mut pane, Ctl::Step);
            assert!(p.step_text.starts_with("step 2: pop s1"), "{}", p.step_text);
            // One event: into step 3, which the position then names.
            let p = ctl(&mut pane, Ctl::EventStep);
            assert_eq!(p.position, starts[2] + 1);
            assert_eq!(p.position_text, format!("step 3 · event {} / 176", starts[2] + 1));
            assert!(p.event_text.starts_with("step 3 begins: s2 is popped"), "{}", p.event_text);
            // Back from inside a step: to the end of the step before.
            let p = ctl(&mut pane, Ctl::Back);
            assert_eq!(p.position, starts[2]);
            let p = ctl(&mut pane, Ctl::Back);
            assert_eq!(p.position, starts[1]);
            // A typed step number shows that step whole; too large is the end.
            let p = ctl(&mut pane, Ctl::GoToStep(5));
            assert_eq!((p.position, p.step), (starts[5], 5));
            assert!(p.step_text.starts_with("step 5: "), "{}", p.step_text);
            assert_eq!(ctl(&mut pane, Ctl::GoToStep(999)).position, 176);
            // At the ends nothing moves further.
            assert_eq!(ctl(&mut pane, Ctl::Step).position, 176);
            assert_eq!(ctl(&mut pane, Ctl::EventStep).position, 176);
            ctl(&mut pane, Ctl::Start);
            assert_eq!(ctl(&mut pane, Ctl::Back).position, 0);
            assert_eq!(ctl(&mut pane, Ctl::EventBack).position, 0);
        }

        #[test]
        fn step_numbers_are_the_ones_next_step_exercises_use() {
            // "At step k of the run" (exercises::predict): the step's events
            // are exactly what Step ▶ shows from the end of step k - 1.
            let mut pane = listing_pane();
            for k in [1u64, 5, 12, 24] {
                pane.reduce(PaneAction::Control(Ctl::GoToStep(k as usize - 1)));
                let from = shown(&pane).position;
                let events = pane.run.as_ref().unwrap().cursor.events().to_vec();
                let outcome = exercises::predict::StepOutcome::next(&events, from, true).unwrap();
                assert_eq!((outcome.step, outcome.start), (k, from));
                pane.reduce(PaneAction::Control(Ctl::Step));
                let p = shown(&pane);
                assert_eq!((p.position, p.step), (outcome.end, k));
            }
        }

        #[test]
        fn every_event_is_described_so_every_event_click_changes_what_is_shown() {
            let mut pane = listing_pane();
            let mut last = shown(&pane);
            for k in 1..=176 {
                pane.reduce(PaneAction::Control(Ctl::EventStep));
                let p = shown(&pane);
                assert_eq!(p.position, k);
                assert!(!p.event_text.is_empty(), "event {k}");
                assert!(p.event_text != last.event_text || p.position_text != last.position_text);
                let e = &pane.run.as_ref().unwrap().cursor.events()[k - 1];
                if matches!(e, Event::StateCreated { .. }) {
                    assert!(p.event_text.contains(" created"), "{}", p.event_text);
                }
                last = p;
            }
        }

        #[test]
        fn the_waitlist_marks_the_state_popped_next() {
            let mut pane = listing_pane();
            let events = pane.run.as_ref().unwrap().cursor.events().to_vec();
            let mut marked = 0;
            for k in 0..events.len() {
                pane.reduce(PaneAction::Control(Ctl::Seek(k)));
                let p = shown(&pane);
                let next: Vec<&StateLine> = p.waitlist.iter().filter(|s| s.next).collect();
                assert_eq!(next.len(), usize::from(!p.waitlist.is_empty()), "one mark at event {k}");
                let popped = events[k..].iter().find_map(|e| match e {
                    Event::WaitlistPop { state, .. } => Some(state.to_string()),
                    _ => None,
                });
                if let (Some(n), Some(popped)) = (next.first(), popped) {
                    if p.waitlist.iter().any(|s| *s.id == *popped) {
                        assert_eq!(*n.id, *popped, "event {k}");
                        assert_eq!(*p.waitlist[0].id, *popped, "the waitlist is in pop order (event {k})");
                        marked += 1;
                    }
                }
            }
            assert!(marked > 30, "{marked}");
        }

        #[test]
        fn a_run_to_button_without_a_target_says_so_and_does_not_move() {
            let mut pane = listing_pane();
            pane.reduce(PaneAction::Control(Ctl::Seek(20)));
            let run = pane.run.as_ref().unwrap();
            assert_eq!(break_target(run, Breakpoint::Refinement), BreakTarget::NoneInRun);
            assert_eq!(break_target(run, Breakpoint::SolverCall), BreakTarget::NoneInRun);
            assert!(matches!(break_target(run, Breakpoint::Widening), BreakTarget::At(k) if k > 20));
            pane.reduce(PaneAction::Control(Ctl::Break(Breakpoint::Refinement)));
            assert_eq!(pane.run.as_ref().unwrap().cursor.position(), 20, "no jump to the end");
            assert_eq!(pane.notice.as_deref(), Some("next refinement: none in this run"));
            assert!(!pane.solver_open);
            pane.reduce(PaneAction::Control(Ctl::End));
            assert_eq!(pane.notice, None);
            let run = pane.run.as_ref().unwrap();
            assert_eq!(break_target(run, Breakpoint::Widening), BreakTarget::NoneAfterHere);
        }

        #[test]
        fn a_broken_program_freezes_the_old_run() {
            let mut pane = listing_pane();
            pane.reduce(PaneAction::Control(Ctl::Seek(10)));
            pane.reduce(PaneAction::ProgramOk(false));
            for c in [Ctl::Step, Ctl::Back, Ctl::EventStep, Ctl::End, Ctl::GoToStep(3), Ctl::TogglePlay] {
                pane.reduce(PaneAction::Control(c));
            }
            assert_eq!(pane.run.as_ref().unwrap().cursor.position(), 10);
            assert!(!pane.playing);
            pane.reduce(PaneAction::ProgramOk(true));
            pane.reduce(PaneAction::Control(Ctl::EventStep));
            assert_eq!(pane.run.as_ref().unwrap().cursor.position(), 11);
        }

        #[test]
        fn cegar_positions_name_the_iteration_and_all_steps() {
            let run = footnote_octagon_cegar();
            let mut pane = AnalysisState { run: Some(run), ..AnalysisState::default() };
            pane.reduce(PaneAction::Control(Ctl::End));
            let p = shown(&pane);
            let all = pane.run.as_ref().unwrap().steps();
            let snap = pane.run.as_ref().unwrap().cursor.snapshot();
            assert!(snap.iteration >= 2);
            let prefix = format!("iteration {}, step ", snap.iteration);
            assert!(p.position_text.starts_with(&prefix), "{}", p.position_text);
            assert!(p.position_text.contains(&format!(" ({all} in all) · event ")), "{}", p.position_text);
            let here: u64 = p.position_text[prefix.len()..].split(' ').next().unwrap().parse().unwrap();
            assert!(here < all, "the iteration's own step numbers restart: {}", p.position_text);
        }

        #[test]
        fn a_solver_breakpoint_opens_the_solver_log() {
            let src = "int main() { int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int(); if (x > y) { if (x < y) { ERROR: return 1; } } return 0; }";
            let mut pane = AnalysisState::new(RunSpec { preset: "symbolic".into(), ..RunSpec::default() });
            pane.reduce(PaneAction::Analyze(src.into()));
            drive_sync(&mut pane, |_| Ok("unsat".into()), || false);
            pane.reduce(PaneAction::Control(Ctl::Start));
            assert!(!pane.solver_open, "closed by default");
            pane.reduce(PaneAction::Control(Ctl::Break(Breakpoint::SolverCall)));
            assert!(pane.run.as_ref().unwrap().cursor.position() > 0);
            assert!(pane.solver_open);
            pane.reduce(PaneAction::SolverLog(false));
            assert!(!pane.solver_open);
        }
    }
}
