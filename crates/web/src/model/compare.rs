//! The compare view without any browser: two or three configurations run
//! on the same program and stepped in sync.
//!
//! * Steps are the algorithm's waitlist pops: the compare view's position
//!   is a step number `k`, and each pane shows its own trace just before its
//!   step `k + 1` begins ([`step_position`]); a run that ended earlier
//!   stays at its end.
//! * [`signatures`] reduce every step to what the configurations could do
//!   differently — the popped location, the transfers, the merges that
//!   changed a reached state, the stop decisions — so [`divergence`] finds
//!   the first step where their behaviour differs (for merge^sep, ^join and
//!   ^widening: the first merge that combined two states).
//! * [`series`] samples reached-set size and states created after every
//!   step (the plots); [`plot`] lays the series out as polylines in a
//!   fixed-size SVG coordinate box; [`SummaryRow`] is a row of the summary
//!   table (in the spirit of the octagon thesis's Table 3.1); [`heat`]
//!   gives per-location reached-state counts for the heat map.
//! * [`CompareView`] is the view's state (choices, runs, shared step); it
//!   changes only through [`CompareView::reduce`] with a [`CompareAction`],
//!   and its runs are computed together as one
//!   [`crate::model::run_driver::Sliced`] computation.
//!
//! Plain Rust, tested natively.

use std::collections::BTreeMap;

use engine::trace::{Event, StateId, Verdict};
use engine::view::{Cursor, Statistics};
use minic::IntModel;

use crate::model::analysis::Run;
use crate::model::run_driver::{Chunk, Query, Sliced};

/// The default compare set (the three merge operators on octagons).
pub const DEFAULT_SET: [&str; 3] = ["octagon-sep", "octagon-join", "octagon-widening"];

// A step is the engine's (`engine::view::steps`): the analysis pane and the
// `next-step` exercises count steps the same way.
pub use engine::view::steps::{step_of_position, step_position, step_starts};

/// What a step did, reduced to what can be compared across configurations
/// (state ids differ between runs; locations, decisions and counts do not).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StepSignature {
    /// The popped state's location.
    pub popped: Option<u32>,
    /// Each transfer: the edge's target and how many successors it had.
    pub transfers: Vec<(u32, usize)>,
    /// The locations where a merge replaced a reached state.
    pub merges_changed: Vec<u32>,
    /// Each stop check: whether it covered the state.
    pub stops: Vec<bool>,
    /// A target was reached in this step.
    pub target: bool,
}

/// One signature per step (index 0 is step 1).
pub fn signatures(events: &[Event]) -> Vec<StepSignature> {
    let mut out: Vec<StepSignature> = Vec::new();
    let mut location: BTreeMap<u64, u32> = BTreeMap::new();
    for e in events {
        match e {
            Event::StateCreated { state, location: Some(l), .. } => {
                location.insert(state.0 as u64, l.0);
            }
            Event::WaitlistPop { state, .. } => {
                out.push(StepSignature { popped: location.get(&(state.0 as u64)).copied(), ..StepSignature::default() })
            }
            Event::Transfer { target, successors, .. } => {
                if let Some(s) = out.last_mut() {
                    s.transfers.push((target.0, successors.len()));
                }
            }
            Event::Merge { reached, replaced: true, .. } => {
                if let Some(s) = out.last_mut() {
                    s.merges_changed.push(location.get(&(reached.0 as u64)).copied().unwrap_or(u32::MAX));
                }
            }
            Event::Stop { covered, .. } => {
                if let Some(s) = out.last_mut() {
                    s.stops.push(*covered);
                }
            }
            Event::TargetReached { .. } => {
                if let Some(s) = out.last_mut() {
                    s.target = true;
                }
            }
            _ => {}
        }
    }
    out
}

/// The first step where the configurations behave differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The step (1-based; the compare position that shows its outcome is
    /// this number).
    pub step: usize,
    /// For each run: whether its step differs from the first run's.
    pub differs: Vec<bool>,
}

/// Compares the runs' step signatures (each complete or not): the first
/// step at which not all runs did the same, among the steps every run has
/// computed (a run that has ended has no more steps: if another continues,
/// that is a divergence too). `None` when they agree everywhere known.
pub fn divergence(runs: &[&[StepSignature]], finished: &[bool]) -> Option<Divergence> {
    if runs.len() < 2 {
        return None;
    }
    let longest = runs.iter().map(|r| r.len()).max().unwrap_or(0);
    for i in 0..longest {
        let at: Vec<Option<&StepSignature>> = runs.iter().map(|r| r.get(i)).collect();
        // A run still computing has not reached step i yet: undecided.
        if at.iter().zip(finished).any(|(s, done)| s.is_none() && !done) {
            return None;
        }
        let first = at[0];
        if at.iter().any(|s| *s != first) {
            return Some(Divergence { step: i + 1, differs: at.iter().map(|s| *s != first).collect() });
        }
    }
    None
}

/// Reached-set size and states created after each step (index 0: before
/// the first pop, after the initial state was added).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Series {
    /// Reached-set size after step k.
    pub reached: Vec<u64>,
    /// States created up to step k.
    pub created: Vec<u64>,
}

/// Samples the statistics at every step boundary and at the end.
pub fn series(events: &[Event]) -> Series {
    let mut st = Statistics::default();
    let mut s = Series::default();
    let mut popped = false;
    for e in events {
        if matches!(e, Event::WaitlistPop { .. }) {
            s.reached.push(st.reached);
            s.created.push(st.created);
            popped = true;
        }
        st.observe(e);
    }
    if popped || !events.is_empty() {
        s.reached.push(st.reached);
        s.created.push(st.created);
    }
    s
}

/// One line of a plot, in the plot box's coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotLine {
    /// The configuration it belongs to (legend).
    pub label: String,
    /// `x,y x,y …` for an SVG polyline.
    pub points: String,
    /// Where the line ends (for its end label).
    pub end: (f64, f64),
    /// Its last value.
    pub last: u64,
}

/// A line's end label (`octagon-join 21`) placed in the plot box: beside
/// the line's end, moved up or down so that no two labels overlap.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotLabel {
    /// The text.
    pub text: String,
    /// Where the text is anchored (its baseline).
    pub at: (f64, f64),
    /// Anchored at its end (left of the line's end, in the right half of
    /// the plot) rather than at its start.
    pub anchor_end: bool,
}

/// The height a label takes (its font is 9.5 units in the plot box).
pub const LABEL_H: f64 = 11.0;

/// Baselines for labels that want to sit at `wanted` (in any order): each
/// as close to its wish as it can be while any two are at least `gap`
/// apart and all lie within `lo..=hi` (when they fit there at all).
pub fn spread(wanted: &[f64], gap: f64, lo: f64, hi: f64) -> Vec<f64> {
    let mut order: Vec<usize> = (0..wanted.len()).collect();
    order.sort_by(|&a, &b| wanted[a].total_cmp(&wanted[b]).then(a.cmp(&b)));
    let mut placed: Vec<f64> = order.iter().map(|&i| wanted[i].clamp(lo, hi)).collect();
    // Downward from the top, then upward from the bottom limit.
    for k in 1..placed.len() {
        placed[k] = placed[k].max(placed[k - 1] + gap);
    }
    if let Some(last) = placed.last_mut() {
        *last = last.min(hi.max(lo));
    }
    for k in (0..placed.len().saturating_sub(1)).rev() {
        placed[k] = placed[k].min(placed[k + 1] - gap);
    }
    let mut out = vec![0.0; wanted.len()];
    for (k, &i) in order.iter().enumerate() {
        out[i] = placed[k];
    }
    out
}

/// A plot of several series over the steps, in a `width`×`height` box with
/// `pad` pixels around for the axes.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    /// The lines, in the order given.
    pub lines: Vec<PlotLine>,
    /// Their end labels, in the same order, not overlapping.
    pub labels: Vec<PlotLabel>,
    /// The largest step shown (x axis end).
    pub x_max: usize,
    /// The largest value shown (y axis end), at least 1.
    pub y_max: u64,
    /// x positions of the given marker steps (divergence, cursor).
    pub markers: Vec<f64>,
}

/// The plot area's geometry: box size and padding.
pub const PLOT_W: f64 = 420.0;
/// Plot box height.
pub const PLOT_H: f64 = 160.0;
/// Left padding (the y axis labels).
pub const PLOT_PAD_L: f64 = 40.0;
/// Padding on the other sides.
pub const PLOT_PAD: f64 = 12.0;

/// Lays out `series` (label, value after each step) over a common x axis.
/// Long series are sampled down to at most `max_points` points each.
pub fn plot(series: &[(String, Vec<u64>)], markers: &[usize], max_points: usize) -> Plot {
    let x_max = series.iter().map(|(_, v)| v.len().saturating_sub(1)).max().unwrap_or(0).max(1);
    let y_max = series.iter().flat_map(|(_, v)| v.iter().copied()).max().unwrap_or(0).max(1);
    let (w, h) = (PLOT_W - PLOT_PAD_L - PLOT_PAD, PLOT_H - 2.0 * PLOT_PAD);
    let x = |k: usize| PLOT_PAD_L + w * k as f64 / x_max as f64;
    let y = |v: u64| PLOT_PAD + h - h * v as f64 / y_max as f64;
    let lines: Vec<PlotLine> = series
        .iter()
        .map(|(label, v)| {
            let n = v.len();
            let stride = n.div_ceil(max_points.max(2)).max(1);
            let mut pts: Vec<(f64, f64)> = (0..n).step_by(stride).map(|k| (x(k), y(v[k]))).collect();
            if n > 0 && (n - 1) % stride != 0 {
                pts.push((x(n - 1), y(v[n - 1])));
            }
            let points = pts.iter().map(|(a, b)| format!("{a:.1},{b:.1}")).collect::<Vec<_>>().join(" ");
            PlotLine {
                label: label.clone(),
                points,
                end: pts.last().copied().unwrap_or((x(0), y(0))),
                last: v.last().copied().unwrap_or(0),
            }
        })
        .collect();
    // Each label just above its line's end: left of it in the right half,
    // right of it otherwise; then spread so that none overlaps another.
    let wanted: Vec<f64> = lines.iter().map(|l| l.end.1 - 4.0).collect();
    let baselines = spread(&wanted, LABEL_H, PLOT_PAD + LABEL_H - 2.0, PLOT_H - PLOT_PAD - 2.0);
    let labels = lines
        .iter()
        .zip(baselines)
        .map(|(l, y)| {
            let anchor_end = l.end.0 > PLOT_PAD_L + w / 2.0;
            let x = if anchor_end { l.end.0 - 2.0 } else { l.end.0 + 4.0 };
            PlotLabel { text: format!("{} {}", l.label, l.last), at: (x, y), anchor_end }
        })
        .collect();
    Plot { lines, labels, x_max, y_max, markers: markers.iter().map(|&k| x(k.min(x_max))).collect() }
}

/// A row of the summary table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SummaryRow {
    /// The configuration.
    pub preset: String,
    /// Whether the run has ended (a verdict, possibly UNKNOWN).
    pub finished: bool,
    /// Whether the algorithm reached a fixpoint or a target by itself (not
    /// stopped by a limit: TRUE or FALSE).
    pub terminates: bool,
    /// `TRUE`, `FALSE`, `UNKNOWN`, or `…` while computing.
    pub verdict: String,
    /// Final (or current) reached-set size.
    pub reached: u64,
    /// States created.
    pub created: u64,
    /// Steps (waitlist pops).
    pub steps: u64,
    /// CEGAR refinements.
    pub refinements: u64,
    /// Solver queries asked (symbolic, predicate and CEGAR runs).
    pub solver_queries: u64,
    /// Of those, the ones answered without Z3 (decided by the engine, or
    /// from earlier answers: [`engine::solver::answered_without_solver`]).
    pub without_solver: u64,
    /// The explorer of a transformed program (term domain): how many of
    /// those queries were equivalence checks between a new and a stored
    /// state (0 for CPA runs).
    pub equivalence_checks: u64,
    /// Predicate analysis with memory: the retention disjuncts of those
    /// queries (what `cpa.predicate.memoryRegions` costs).
    pub retention_disjuncts: u64,
}

impl SummaryRow {
    /// The solver column's note on the queries Z3 did not answer:
    /// `· 3 without Z3`, empty without any.
    pub fn without_solver_note(&self) -> String {
        match self.without_solver {
            0 => String::new(),
            n => format!(" · {n} without Z3"),
        }
    }

    /// The solver column's note on memory: `· 3 retention disjuncts`, empty
    /// without any.
    pub fn retention_note(&self) -> String {
        match self.retention_disjuncts {
            0 => String::new(),
            1 => " · 1 retention disjunct".into(),
            n => format!(" · {n} retention disjuncts"),
        }
    }

    /// The row for one run's events so far.
    pub fn of(preset: &str, events: &[Event]) -> SummaryRow {
        let st = Statistics::of(events);
        let verdict = events.iter().rev().find_map(|e| match e {
            Event::AnalysisFinished { verdict, .. } => Some(*verdict),
            _ => None,
        });
        SummaryRow {
            preset: preset.to_string(),
            finished: verdict.is_some(),
            terminates: matches!(verdict, Some(Verdict::True | Verdict::False)),
            verdict: verdict.map_or("…".to_string(), |v| v.upper().to_string()),
            reached: st.reached,
            created: st.created,
            steps: st.steps,
            refinements: st.refinements,
            solver_queries: st.solver_queries,
            without_solver: st.queries_without_solver,
            equivalence_checks: st.equivalence_checks,
            retention_disjuncts: st.retention_disjuncts,
        }
    }
}

/// How long Z3 took for one compared run's queries in the page: the
/// entries of the solver log from the run's latest `query 0` on whose
/// origin names the run (`compare (symbolic[solver.theory=INTEGER]): …`).
/// The page's first query also waited for Z3 to load and is left out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueryTimes {
    /// Answered queries counted.
    pub answered: usize,
    /// Their total time in milliseconds.
    pub total_ms: f64,
}

/// The [`QueryTimes`] of the compared run labelled `preset` in `log`
/// (`None` before any of its queries was answered).
pub fn query_times(log: &crate::model::solver::SolverLog, preset: &str) -> Option<QueryTimes> {
    let prefix = format!("compare ({preset}): query ");
    let first = log.entries.iter().rposition(|e| e.origin == format!("{prefix}0"))?;
    let times: Vec<f64> =
        log.entries[first..].iter().filter(|e| e.id != 1 && e.origin.starts_with(&prefix)).filter_map(|e| e.elapsed_ms).collect();
    (!times.is_empty()).then(|| QueryTimes { answered: times.len(), total_ms: times.iter().sum() })
}

/// Reached-state counts per location at the cursor's position (node id
/// number → count), for the heat map.
pub fn heat(cursor: &Cursor) -> BTreeMap<u32, usize> {
    cursor.snapshot().reached.iter().filter(|(_, v)| !v.is_empty()).map(|(n, v)| (n.0, v.len())).collect()
}

/// A heat-map cell's shade in [0, 1]: `count / max` on a square-root scale
/// (so one state still shows against a hundred).
pub fn shade(count: usize, max: usize) -> f64 {
    if count == 0 || max == 0 {
        0.0
    } else {
        ((count as f64) / (max as f64)).sqrt().clamp(0.0, 1.0)
    }
}

/// The default step limit of compared runs (merge^sep may not terminate).
pub const DEFAULT_LIMIT: u64 = 3000;

/// The compare view's state: the configurations chosen, their runs and
/// the shared position (an algorithm step). It changes only through
/// [`CompareView::reduce`]; in the page its runs are computed in the
/// engine's worker ([`crate::model::engine_link::Mirror`]), natively
/// together through the run driver ([`crate::model::run_driver`]).
pub struct CompareView {
    /// The view is open (over the page).
    pub open: bool,
    /// Chosen configurations; an empty string leaves the third pane out.
    pub choice: [String; 3],
    /// The step limit of every compared run.
    pub max_steps: u64,
    /// The integer model of every compared run: the analysis pane's (or
    /// the opened link's) when the runs start.
    pub int_model: IntModel,
    /// The runs, one per chosen configuration.
    pub runs: Vec<Run>,
    /// Why the runs could not start.
    pub error: Option<String>,
    /// The runs are being computed.
    pub computing: bool,
    /// The shared position: an algorithm step number.
    pub step: usize,
    /// A share link's step, applied once the runs are computed.
    pub pending_step: Option<usize>,
    /// The state inspected in a pane: (pane, state), shown in that pane
    /// at the shared step.
    pub inspected: Option<(usize, StateId)>,
    /// The run whose solver query is asked (the first to park in this
    /// slice; the others wait or go on meanwhile).
    parked: Option<usize>,
    /// The program text the runs analyse (what the engine's worker is
    /// handed, `crate::model::engine_link::Mirror`).
    source: String,
}

impl Default for CompareView {
    fn default() -> Self {
        CompareView {
            open: false,
            choice: DEFAULT_SET.map(String::from),
            max_steps: DEFAULT_LIMIT,
            int_model: IntModel::C,
            runs: Vec::new(),
            error: None,
            computing: false,
            step: 0,
            pending_step: None,
            inspected: None,
            parked: None,
            source: String::new(),
        }
    }
}

/// A move of the compare view's shared position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepMove {
    /// To step 0 (◀◀).
    Start,
    /// One step back (◀ Step back).
    Back,
    /// One step forward (Step ▶).
    Forward,
    /// To the last step of the longest run (▶▶).
    End,
    /// The → key: one step forward.
    KeyForward,
    /// The ← key: one step back (from the last step at most).
    KeyBack,
    /// To step k (the slider, "Go to it" at the divergence).
    To(usize),
}

/// What the compare view is told: the user's input and its task's end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompareAction {
    /// The "Compare" button: open the view; the first time, run the chosen
    /// set on `source` with the analysis pane's integer model.
    Open {
        /// The editor's program.
        source: String,
        /// The analysis pane's integer model.
        int_model: IntModel,
    },
    /// Close the view (the runs are kept).
    Close,
    /// Configuration `i` is chosen (empty: none).
    Choice(usize, String),
    /// The step limit is set.
    Limit(u64),
    /// "Run on this program": run the chosen set on `source`.
    Run {
        /// The editor's program.
        source: String,
        /// The analysis pane's integer model.
        int_model: IntModel,
    },
    /// A share link's compare set: open the view and run it, then show
    /// `step`.
    Restore {
        /// The editor's program.
        source: String,
        /// The link's configurations.
        presets: Vec<String>,
        /// The link's step.
        step: Option<usize>,
        /// The link's integer model.
        int_model: IntModel,
    },
    /// Move the shared position.
    Move(StepMove),
    /// A state of pane `.0` was clicked: inspect it there (clicked again:
    /// stop inspecting it).
    Inspect(usize, StateId),
}

/// What the page does after a compare action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareEffect {
    /// Nothing.
    None,
    /// Stop computing the old runs (they were replaced).
    StopComputing,
    /// Stop computing the old runs and compute the new ones.
    Compute,
}

impl CompareView {
    /// The last step of the longest run.
    pub fn max_step(&self) -> usize {
        self.runs.iter().map(|r| r.steps() as usize).max().unwrap_or(0)
    }

    /// What a share link carries: the configurations shown and the shared
    /// step (nothing while the view is closed).
    pub fn shared(&self) -> (Vec<String>, Option<usize>) {
        let shown = if self.open { self.runs.iter().map(|r| r.spec.preset.clone()).collect() } else { Vec::new() };
        (shown, self.open.then_some(self.step))
    }

    /// Applies `action`; returns what the page must do besides rendering.
    pub fn reduce(&mut self, action: CompareAction) -> CompareEffect {
        match action {
            CompareAction::Open { source, int_model } => {
                self.open = true;
                if self.runs.is_empty() {
                    self.int_model = int_model;
                    return self.start(&source);
                }
                CompareEffect::None
            }
            CompareAction::Close => {
                self.open = false;
                CompareEffect::None
            }
            CompareAction::Choice(i, preset) => {
                if let Some(slot) = self.choice.get_mut(i) {
                    *slot = preset;
                }
                CompareEffect::None
            }
            CompareAction::Limit(n) => {
                self.max_steps = n.min(crate::model::share::MAX_STEP_LIMIT);
                CompareEffect::None
            }
            CompareAction::Run { source, int_model } => {
                self.int_model = int_model;
                self.start(&source)
            }
            CompareAction::Restore { source, presets, step, int_model } => {
                self.open = true;
                self.int_model = int_model;
                for (i, slot) in self.choice.iter_mut().enumerate() {
                    *slot = presets.get(i).cloned().unwrap_or_default();
                }
                self.pending_step = step;
                self.start(&source)
            }
            CompareAction::Move(m) => {
                let max = self.max_step();
                self.step = match m {
                    StepMove::Start => 0,
                    StepMove::Back => self.step.saturating_sub(1).min(max),
                    StepMove::Forward => (self.step + 1).min(max),
                    StepMove::End => max,
                    StepMove::KeyForward => (self.step + 1).min(max),
                    StepMove::KeyBack => self.step.min(max).saturating_sub(1),
                    StepMove::To(k) => k,
                };
                CompareEffect::None
            }
            CompareAction::Inspect(pane, state) => {
                let clicked = Some((pane, state)).filter(|&(p, _)| p < self.runs.len());
                self.inspected = if self.inspected == clicked { None } else { clicked };
                CompareEffect::None
            }
        }
    }

    /// Starts a run of every chosen configuration on `source` (none when
    /// one of them cannot start: its error is shown).
    fn start(&mut self, source: &str) -> CompareEffect {
        self.step = 0;
        self.runs.clear();
        self.inspected = None;
        self.error = None;
        self.parked = None;
        self.source = source.to_string();
        let presets: Vec<String> = self.choice.iter().filter(|p| !p.is_empty()).cloned().collect();
        for preset in presets {
            // A preset, or one with option overrides (`symbolic[solver.theory=INTEGER]`).
            match crate::model::config_choice::run_spec_of(&preset, self.int_model, self.max_steps)
                .and_then(|spec| Run::start(source, spec))
            {
                Ok(mut run) => {
                    run.asker = "compare".into();
                    self.runs.push(run)
                }
                Err(e) => {
                    self.error = Some(e);
                    self.runs.clear();
                    break;
                }
            }
        }
        self.computing = !self.runs.is_empty();
        if self.computing {
            CompareEffect::Compute
        } else {
            CompareEffect::StopComputing
        }
    }

    /// The program text the runs analyse.
    pub(crate) fn source(&self) -> &str {
        &self.source
    }

    /// The runs are computed: a share link's step is shown now.
    pub(crate) fn computed(&mut self) {
        self.computing = false;
        if let Some(k) = self.pending_step.take() {
            self.step = k;
        }
    }
}

/// The compared runs advance together, eight waitlist pops each per
/// chunk; a run parked on a solver query waits while the others go on,
/// and the slice parks when only parked runs are left (their queries are
/// asked one at a time, the first to park first).
impl Sliced for CompareView {
    fn work(&mut self) -> Chunk {
        let mut all_done = true;
        for (i, run) in self.runs.iter_mut().enumerate().filter(|(_, r)| !r.finished()) {
            if run.pending_query().is_none() {
                all_done &= run.advance(8);
            } else {
                all_done = false;
            }
            if self.parked.is_none() && run.pending_query().is_some() {
                self.parked = Some(i);
            }
        }
        if all_done {
            self.computed();
            return Chunk::Done;
        }
        let all_parked = self.runs.iter().all(|r| r.finished() || r.pending_query().is_some());
        if all_parked && self.parked.is_some() {
            Chunk::Blocked
        } else {
            Chunk::More
        }
    }

    fn pending(&self) -> Option<Query> {
        let run = self.runs.get(self.parked?)?;
        run.pending_query().map(|(qid, script)| Query {
            origin: format!("{} ({}): query {qid}", run.asker, run.spec.preset),
            legend: crate::model::solver::symbol_legend(&script, &run.program),
            script,
        })
    }

    fn answer(&mut self, solver_output: &str) {
        if let Some(run) = self.parked.take().and_then(|i| self.runs.get_mut(i)) {
            run.answer_query(solver_output);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::analysis::{Run, RunSpec};

    const BOUNDED: &str = include_str!("../../../../static/examples/octagon-listing2-1-bounded.c");

    fn runs() -> Vec<Run> {
        DEFAULT_SET
            .iter()
            .map(|p| {
                Run::start(BOUNDED, RunSpec { preset: p.to_string(), max_steps: 5000, ..RunSpec::default() }).unwrap().complete()
            })
            .collect()
    }

    #[test]
    fn listing_2_1_bounded_summary_matches_table_3_1_shape() {
        let runs = runs();
        let rows: Vec<SummaryRow> = runs.iter().map(|r| SummaryRow::of(&r.spec.preset, r.cursor.events())).collect();
        for r in &rows {
            assert!(r.finished && r.terminates, "{r:?}");
            assert_eq!(r.verdict, "TRUE", "{r:?}");
            assert_eq!(r.refinements, 0);
        }
        let (sep, join, widening) = (&rows[0], &rows[1], &rows[2]);
        // merge^join keeps one state per reachable location.
        let reachable = runs[1].cursor.snapshot_at_end_locations();
        assert_eq!(join.reached as usize, reachable, "{join:?}");
        assert!(sep.reached > join.reached, "sep keeps one state per value of ticks: {sep:?}");
        assert!(widening.created < join.created && widening.created < sep.created, "{rows:?}");
    }

    #[test]
    fn a_summary_row_sums_the_retention_disjuncts_its_queries_report() {
        let query = |n: u32| Event::SolverQuery {
            id: n,
            smtlib: format!("; Boolean abstraction at N9 over 0 predicates\n; retention disjuncts: {n}\n(check-sat)\n"),
            answer: "unsat".into(),
        };
        let row = SummaryRow::of("predicate[cpa.predicate.memoryRegions=TYPE]", &[query(1), query(2)]);
        assert_eq!(row.retention_disjuncts, 3);
        assert_eq!(row.retention_note(), " · 3 retention disjuncts");
        assert_eq!(SummaryRow::of("predicate", &[query(0)]).retention_note(), "");
    }

    #[test]
    fn a_summary_row_counts_the_queries_answered_without_z3() {
        let query = |n: u32, script: String| Event::SolverQuery { id: n, smtlib: script, answer: "unsat".into() };
        let decided = format!("{}\n(check-sat)\n", engine::solver::DECIDED_NOTE);
        let row = SummaryRow::of("symbolic", &[query(0, decided.clone()), query(1, "(check-sat)\n".into()), query(2, decided)]);
        assert_eq!((row.solver_queries, row.without_solver), (3, 2));
        assert_eq!(row.without_solver_note(), " · 2 without Z3");
        assert_eq!(SummaryRow::of("symbolic", &[query(0, "(check-sat)\n".into())]).without_solver_note(), "");
    }

    #[test]
    fn divergence_is_the_first_merge_that_joined() {
        let runs = runs();
        let sigs: Vec<Vec<StepSignature>> = runs.iter().map(|r| signatures(r.cursor.events())).collect();
        let d = divergence(&sigs.iter().map(|s| s.as_slice()).collect::<Vec<_>>(), &[true, true, true]).expect("they diverge");
        // The step of octagon-join's first merge that replaced a state.
        let join = runs[1].cursor.events();
        let first_join = join.iter().position(|e| matches!(e, Event::Merge { replaced: true, .. })).unwrap();
        let starts = step_starts(join);
        assert_eq!(d.step, step_of_position(&starts, first_join + 1), "{d:?}");
        assert!(d.differs[1] || d.differs[2], "{d:?}");
        // Before it, all three did the same steps.
        assert_eq!(sigs[0][..d.step - 1], sigs[1][..d.step - 1]);
        assert_eq!(sigs[0][..d.step - 1], sigs[2][..d.step - 1]);
        // Undecided while a run has not computed that far.
        let short: Vec<&[StepSignature]> = vec![&sigs[0][..2], &sigs[1][..2]];
        assert_eq!(divergence(&short, &[false, false]), None);
        assert_eq!(divergence(&short, &[true, false]), None);
        // The same configuration twice never diverges.
        assert_eq!(divergence(&[&sigs[1], &sigs[1]], &[true, true]), None);
    }

    #[test]
    fn query_times_count_the_latest_run_of_a_configuration_without_the_load() {
        use crate::model::solver::SolverLog;
        let mut log = SolverLog::default();
        let name = "symbolic[solver.theory=INTEGER]";
        for (origin, ms) in [
            (format!("compare ({name}): query 0"), 900.0), // id 1: waited for Z3 to load
            (format!("compare ({name}): query 1"), 3.0),
            ("compare (symbolic): query 0".to_string(), 50.0),
            (format!("compare ({name}): query 0"), 4.0), // a new run of the same set
            (format!("compare ({name}): query 1"), 6.0),
        ] {
            let id = log.ask(&origin, "(check-sat)", None);
            log.answer(id, Ok("sat".into()), ms);
        }
        assert_eq!(query_times(&log, name), Some(QueryTimes { answered: 2, total_ms: 10.0 }));
        assert_eq!(query_times(&log, "symbolic"), Some(QueryTimes { answered: 1, total_ms: 50.0 }));
        assert_eq!(query_times(&log, "predicate"), None);
    }

    #[test]
    fn steps_and_positions() {
        let runs = runs();
        let ev = runs[2].cursor.events();
        let starts = step_starts(ev);
        assert_eq!(starts.len() as u64, runs[2].steps());
        assert_eq!(step_position(&starts, ev.len(), 0), starts[0]);
        assert_eq!(step_position(&starts, ev.len(), starts.len()), ev.len());
        assert_eq!(step_position(&starts, ev.len(), 10_000), ev.len());
        assert_eq!(step_of_position(&starts, starts[3] + 1), 4);
        assert_eq!(step_of_position(&starts, 0), 0);
    }

    #[test]
    fn series_and_plot() {
        let runs = runs();
        let s = series(runs[0].cursor.events());
        assert_eq!(s.reached.len() as u64, runs[0].steps() + 1);
        assert_eq!(s.reached[0], 1, "the initial state before the first pop");
        let st = Statistics::of(runs[0].cursor.events());
        assert_eq!((*s.reached.last().unwrap(), *s.created.last().unwrap()), (st.reached, st.created));
        assert!(s.created.windows(2).all(|w| w[0] <= w[1]), "created never decreases");

        let lines: Vec<(String, Vec<u64>)> =
            runs.iter().map(|r| (r.spec.preset.clone(), series(r.cursor.events()).created)).collect();
        let p = plot(&lines, &[3], 200);
        assert_eq!(p.lines.len(), 3);
        assert_eq!(p.y_max, lines.iter().flat_map(|l| l.1.iter()).copied().max().unwrap());
        for l in &p.lines {
            let n = l.points.split(' ').count();
            assert!(n <= 202, "{n} points");
            for pt in l.points.split(' ') {
                let (x, y) = pt.split_once(',').unwrap();
                let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
                assert!((PLOT_PAD_L..=PLOT_W - PLOT_PAD + 0.01).contains(&x), "{x}");
                assert!((PLOT_PAD - 0.01..=PLOT_H - PLOT_PAD + 0.01).contains(&y), "{y}");
            }
        }
        assert_eq!(p.markers.len(), 1);
        // The end labels: one per line, in the plot box, none within a
        // label's height of another (they end close together here).
        assert_eq!(p.labels.len(), 3);
        for (i, a) in p.labels.iter().enumerate() {
            assert!((PLOT_PAD..=PLOT_H - PLOT_PAD).contains(&a.at.1), "{a:?}");
            for b in &p.labels[i + 1..] {
                assert!((a.at.1 - b.at.1).abs() >= LABEL_H - 1e-9, "{a:?} overlaps {b:?}");
            }
        }
        assert!(p.labels[0].text.starts_with("octagon-sep "), "{:?}", p.labels[0]);
        let empty = plot(&[], &[], 10);
        assert_eq!((empty.x_max, empty.y_max), (1, 1));
    }

    #[test]
    fn labels_spread_apart_within_their_limits() {
        // Far apart: where they want to be.
        assert_eq!(spread(&[20.0, 80.0], 11.0, 10.0, 150.0), [20.0, 80.0]);
        // Three at the same place: stacked downward, in the order given.
        assert_eq!(spread(&[40.0, 40.0, 40.0], 11.0, 10.0, 150.0), [40.0, 51.0, 62.0]);
        // At the bottom limit: stacked upward from it.
        assert_eq!(spread(&[149.0, 200.0, 148.0], 11.0, 10.0, 150.0), [139.0, 150.0, 128.0]);
        assert!(spread(&[], 11.0, 10.0, 150.0).is_empty());
    }

    #[test]
    fn heat_counts_and_shades() {
        let mut runs = runs();
        let n = runs[0].cursor.len();
        runs[0].cursor.seek(n);
        let h = heat(&runs[0].cursor);
        let max = *h.values().max().unwrap();
        assert!(max > 50, "sep keeps ~one state per value of ticks at the loop: {h:?}");
        assert_eq!(shade(max, max), 1.0);
        assert_eq!(shade(0, max), 0.0);
        assert!(shade(1, max) > 0.0 && shade(1, max) < 0.2);
    }

    /// The number of distinct locations of the reached set at the end.
    trait EndLocations {
        fn snapshot_at_end_locations(&self) -> usize;
    }
    impl EndLocations for Cursor {
        fn snapshot_at_end_locations(&self) -> usize {
            let mut c = Cursor::new(self.events().to_vec());
            c.seek(c.len());
            c.snapshot().reached.values().filter(|v| !v.is_empty()).count()
        }
    }

    /// The compare view's reducer.
    mod view {
        use super::*;
        use crate::model::run_driver::drive_sync;

        const LOOP: &str = "int main() { int i = 0; while (i < 10) { i = i + 1; } return 0; }";

        #[test]
        fn open_runs_the_chosen_set_once_and_the_keys_and_buttons_move_within_the_runs() {
            let mut view = CompareView::default();
            view.reduce(CompareAction::Choice(2, String::new()));
            assert_eq!(view.reduce(CompareAction::Limit(u64::MAX)), CompareEffect::None);
            assert_eq!(view.max_steps, crate::model::share::MAX_STEP_LIMIT);
            let open = CompareAction::Open { source: LOOP.into(), int_model: IntModel::Math };
            assert_eq!(view.reduce(open.clone()), CompareEffect::Compute);
            assert_eq!(view.runs.len(), 2);
            assert!(view.runs.iter().all(|r| r.spec.int_model == IntModel::Math));
            drive_sync(&mut view, |_| Err("no solver".into()), || false);
            assert!(!view.computing);
            // Opened again: the runs are kept.
            view.reduce(CompareAction::Close);
            assert_eq!(view.shared(), (Vec::new(), None));
            assert_eq!(view.reduce(open), CompareEffect::None);
            assert_eq!(view.shared().0, vec!["octagon-sep".to_string(), "octagon-join".into()]);
            let max = view.max_step();
            assert!(max > 2);
            view.reduce(CompareAction::Move(StepMove::Back));
            assert_eq!(view.step, 0);
            view.reduce(CompareAction::Move(StepMove::Forward));
            view.reduce(CompareAction::Move(StepMove::KeyForward));
            assert_eq!(view.step, 2);
            view.reduce(CompareAction::Move(StepMove::KeyBack));
            assert_eq!(view.step, 1);
            view.reduce(CompareAction::Move(StepMove::End));
            assert_eq!(view.step, max);
            view.reduce(CompareAction::Move(StepMove::Forward));
            assert_eq!(view.step, max);
            // The slider may ask for more; the keys come back from the end.
            view.reduce(CompareAction::Move(StepMove::To(max + 5)));
            assert_eq!(view.step, max + 5);
            view.reduce(CompareAction::Move(StepMove::KeyBack));
            assert_eq!(view.step, max - 1);
            view.reduce(CompareAction::Move(StepMove::Start));
            assert_eq!(view.shared().1, Some(0));
            // A state clicked in a pane is inspected there; clicked again, not.
            view.reduce(CompareAction::Inspect(1, StateId(2)));
            assert_eq!(view.inspected, Some((1, StateId(2))));
            view.reduce(CompareAction::Inspect(0, StateId(2)));
            assert_eq!(view.inspected, Some((0, StateId(2))), "another pane's state takes over");
            view.reduce(CompareAction::Inspect(0, StateId(2)));
            assert_eq!(view.inspected, None);
            view.reduce(CompareAction::Inspect(7, StateId(0)));
            assert_eq!(view.inspected, None, "no such pane");
            view.reduce(CompareAction::Inspect(0, StateId(1)));
            view.reduce(CompareAction::Run { source: LOOP.into(), int_model: IntModel::Math });
            assert_eq!(view.inspected, None, "new runs inspect nothing");
        }

        #[test]
        fn a_set_that_cannot_start_shows_why_and_stops_the_old_runs() {
            let mut view = CompareView::default();
            let effect = view.reduce(CompareAction::Run { source: "int main( {".into(), int_model: IntModel::C });
            assert_eq!(effect, CompareEffect::StopComputing);
            assert!(view.runs.is_empty() && !view.computing);
            assert!(view.error.is_some());
        }
    }
}
