//! # soundness — the differential soundness oracle
//!
//! Soundness is the first rule of every analysis in CPA Playground: it must
//! never answer TRUE (the error location is unreachable) for a program on
//! which some execution reaches `reach_error()` under the chosen integer
//! model. This crate checks that rule on random programs from [`progen`]:
//!
//! 1. **Ground truth** ([`ground_truth`]): the concrete interpreter runs the
//!    program under the model on many inputs ([`progen::Inputs`]: boundary
//!    runs with 0, ±1, each type's min and max, then random mixes biased
//!    toward the program's constants).
//! 2. **Judgement** ([`judge`]) of each analysis result (every preset of
//!    [`presets`], the model set explicitly with `analysis.intModel`):
//!    * a TRUE verdict while some concrete run reached the error is a
//!      [`ViolationKind::WrongTrue`];
//!    * a FALSE verdict the analysis calls *confirmed* must come with inputs
//!      whose replay on the interpreter reaches the error, else
//!      [`ViolationKind::BadConfirmation`];
//!    * after a TRUE verdict, the reached set (a fixpoint) must cover every
//!      concrete state the runs visited: for explicit values, some reached
//!      state at the same location and call stack agrees with every value it
//!      knows; for octagons, some reached state at the location contains the
//!      concrete values; for predicate analysis, at a block end (where the
//!      states are abstraction states), some state's ψ holds for the values
//!      (states inside a block are not concretized) — else
//!      [`ViolationKind::NotCovered`].
//!
//! The binary `soundness` runs a campaign of this over many seeds.

#![warn(missing_docs)]

use cfa::{NodeId, Program};
use concrete::{execute, Execution, Options as RunOptions, Outcome};
use domains::Octagon;
use engine::block::BlockId;
use engine::cegar::build_verifier;
use engine::cpas::callstack::CallstackState;
use engine::cpas::octagon::OctagonState;
use engine::cpas::predicate::abstraction::Region;
use engine::cpas::predicate::pathformula::parse_var_name;
use engine::cpas::predicate::PredicateState;
use engine::cpas::value::ValueState;
use engine::Stepper;
use engine::{Config, Verdict};
use minic::IntModel;
use progen::{GenProgram, Inputs};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// Preset files that are only `#include`d by others, not presets to run.
pub const HELPER_PRESETS: &[&str] = &["octagon-base"];

/// Every runnable preset of `static/config/` (the engine's embedded list
/// without the include-only helpers), in the engine's order.
pub fn presets() -> Vec<&'static str> {
    engine::config::PRESETS.iter().map(|p| p.0).filter(|n| !HELPER_PRESETS.contains(n)).collect()
}

/// The stack of each campaign worker thread (see [`campaign`]).
const WORKER_STACK_BYTES: usize = 64 << 20;

/// How much the oracle checks per program.
#[derive(Clone, Debug)]
pub struct OracleOptions {
    /// The presets to judge.
    pub presets: Vec<String>,
    /// The integer models (each preset runs under each).
    pub models: Vec<IntModel>,
    /// Concrete runs per program and model (the first five are the
    /// boundary runs of [`progen::Inputs::for_run`]).
    pub runs: u64,
    /// Edges a concrete run may take.
    pub run_steps: usize,
    /// `limits.steps` of every analysis (and of every restart stage).
    pub analysis_steps: u64,
    /// `cegar.maxIterations` of the CEGAR presets.
    pub cegar_iterations: u64,
    /// `solver.timeout` in milliseconds.
    pub solver_timeout_ms: u64,
    /// `restartAlgorithm.stageTimeMs`: wall-clock limit of each analysis
    /// stage (ends it with UNKNOWN; 0: none).
    pub stage_time_ms: u64,
    /// Check that a TRUE verdict's reached set covers every concrete state.
    pub coverage: bool,
    /// What the generated programs contain.
    pub generator: progen::Options,
    /// Judge every analysis by the interpreter under this model instead of
    /// the analysis's own (only to show that the oracle fails: a `math`
    /// analysis judged by the `c` interpreter is unsound by design).
    pub truth_model: Option<IntModel>,
}

impl Default for OracleOptions {
    fn default() -> Self {
        OracleOptions {
            presets: presets().into_iter().map(String::from).collect(),
            models: vec![IntModel::C, IntModel::Math],
            runs: 24,
            run_steps: 10_000,
            analysis_steps: 2000,
            cegar_iterations: 12,
            solver_timeout_ms: 5000,
            stage_time_ms: 30_000,
            coverage: true,
            generator: progen::Options::full(),
            truth_model: None,
        }
    }
}

/// The concrete runs of one program under one model.
#[derive(Clone, Debug)]
pub struct GroundTruth {
    /// The model the interpreter used.
    pub model: IntModel,
    /// Every run (with its visited states when coverage is checked).
    pub runs: Vec<Execution>,
    /// Inputs that reach the error found by an analysis (a confirmed FALSE
    /// of some preset, replayed here) when no random run reached it, with
    /// the preset's name: more evidence against every TRUE.
    pub analysis_witness: Option<(String, Vec<i128>)>,
}

impl GroundTruth {
    /// The inputs of the first run that reached the error location, if any:
    /// a witness that the error is reachable (replay them with
    /// `cpaplay run FILE --inputs ... --int-model ...`).
    pub fn error_witness(&self) -> Option<Vec<i128>> {
        self.runs
            .iter()
            .find(|r| matches!(r.outcome, Outcome::ReachedError { .. }))
            .map(|r| r.inputs.iter().map(|i| i.value).collect())
            .or_else(|| self.analysis_witness.as_ref().map(|(_, i)| i.clone()))
    }

    /// Whether a random or boundary run (not an analysis) reached the error.
    pub fn runs_reach_error(&self) -> bool {
        self.runs.iter().any(|r| matches!(r.outcome, Outcome::ReachedError { .. }))
    }
}

/// Runs `program` (the CFA of `generated`) `options.runs` times under
/// `model` on [`progen::Inputs`].
pub fn ground_truth(program: &Program, generated: &GenProgram, model: IntModel, options: &OracleOptions) -> GroundTruth {
    let runs = (0..options.runs)
        .map(|run| {
            let mut inputs = Inputs::for_run(generated, run);
            let opts = RunOptions { model, max_steps: options.run_steps, record_states: options.coverage };
            execute(program, &mut inputs, opts)
        })
        .collect();
    GroundTruth { model, runs, analysis_witness: None }
}

/// What one analysis run answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisResult {
    /// TRUE, FALSE or UNKNOWN.
    pub verdict: Verdict,
    /// Whether a FALSE verdict is confirmed by concrete replay.
    pub confirmed: bool,
    /// The inputs of a confirmed FALSE verdict.
    pub inputs: Vec<i128>,
    /// The reason the analysis gave.
    pub reason: String,
}

/// A finished reached set reduced to what the coverage check compares:
/// the value or octagon part of each reached state, by location and call
/// stack (call sites, outermost first).
#[derive(Clone, Debug, Default)]
pub struct ReachedSet {
    /// The data states at each (location, call stack).
    pub states: BTreeMap<(NodeId, Vec<NodeId>), Vec<DataState>>,
    /// Block-abstraction memoization: each block analysis' reached set,
    /// with call stacks relative to the block (a concrete state inside a
    /// call of the block's function, or inside an activation that is in
    /// the block's loop, at any depth, is judged by them).
    pub blocks: Vec<(engine::block::Block, Partition)>,
    /// The function each call site calls (to find where a block starts in
    /// a concrete call stack).
    pub callees: BTreeMap<NodeId, cfa::FuncId>,
}

/// The data part of a reached state the oracle can concretize.
#[derive(Clone, Debug)]
pub enum DataState {
    /// Explicit values: absent variables are unconstrained.
    Values(BTreeMap<cfa::VarId, i128>),
    /// An octagon over the variables (dimension i = `VarId(i)`).
    Octagon(Octagon),
    /// Predicate analysis at a block end: the abstraction formula ψ, over
    /// unindexed program variables.
    Abstraction(Region),
    /// Predicate analysis inside a block (ψ ∧ φ over SSA versions): not
    /// concretized, so it covers every state at its location.
    Unchecked,
}

impl ReachedSet {
    /// Whether some reached state at the state's location and call stack
    /// covers the concrete state's values.
    /// Under BAM also some state of a block analysis of a function active
    /// in the call stack, or of a loop some activation is in, at the
    /// location and the rest of the call stack.
    pub fn covers(&self, state: &concrete::ConcreteState) -> bool {
        let covered_by = |data: &Vec<DataState>| {
            data.iter().any(|d| match d {
                DataState::Values(v) => v.iter().all(|(var, val)| state.values.get(var).is_none_or(|c| c == val)),
                DataState::Octagon(o) => octagon_contains(o, &state.values),
                DataState::Abstraction(r) => abstraction_contains(r, &state.values),
                DataState::Unchecked => true,
            })
        };
        let key = (state.node, state.call_stack.clone());
        if self.states.get(&key).is_some_and(covered_by) {
            return true;
        }
        let stack = &state.call_stack;
        let in_function_block = (0..stack.len()).any(|k| {
            let Some(callee) = self.callees.get(&stack[k]) else { return false };
            let key = (state.node, stack[k + 1..].to_vec());
            (self.blocks.iter()).any(|(b, states)| b.id == BlockId::Function(*callee) && states.get(&key).is_some_and(covered_by))
        });
        // Activation k is at its call site stack[k] (the innermost at the
        // state's node); a loop block it is in started with stack[k..] empty.
        let in_loop_block = || {
            (0..=stack.len()).any(|k| {
                let at = stack.get(k).copied().unwrap_or(state.node);
                let key = (state.node, stack[k..].to_vec());
                (self.blocks.iter()).any(|(b, states)| {
                    matches!(b.id, BlockId::Loop(_)) && b.body.contains(&at) && states.get(&key).is_some_and(covered_by)
                })
            })
        };
        in_function_block || in_loop_block()
    }
}

/// Whether the concrete values satisfy the abstraction formula ψ (each
/// predicate evaluated over the integers; a predicate over a variable
/// without a value cannot be judged and counts as satisfied).
pub fn abstraction_contains(r: &Region, values: &BTreeMap<cfa::VarId, i128>) -> bool {
    let value = |name: &str| parse_var_name(name).and_then(|v| values.get(&v)).map(|x| smt::Value::Int(*x));
    match r.to_term().eval(&value) {
        Some(smt::Value::Bool(b)) => b,
        _ => true,
    }
}

/// Whether the concrete values (variables without a value are free) lie in
/// the octagon: the point satisfies the constraints of the tightly closed
/// octagon projected onto the valued variables. Values beyond ±2^60 are not
/// constrained (the domain's bounds are 64-bit). A failed test is a sure
/// miss (the projection over-approximates); the test is exact as far as
/// the projection of the tightly closed form is (one closure per octagon
/// instead of one incremental closure per variable and state, which made
/// the coverage check the campaign's main cost).
pub fn octagon_contains(o: &Octagon, values: &BTreeMap<cfa::VarId, i128>) -> bool {
    let valued: Vec<(usize, i64)> = values
        .iter()
        .filter(|(v, val)| (v.0 as usize) < o.vars() && val.abs() < 1 << 60)
        .map(|(v, val)| (v.0 as usize, *val as i64))
        .collect();
    let keep: Vec<usize> = valued.iter().map(|(d, _)| *d).collect();
    let point: Vec<i64> = valued.iter().map(|(_, x)| *x).collect();
    o.closed().select(&keep).contains(&point)
}

/// The reached set of a finished analysis, if its states have a value,
/// octagon or predicate part (`None` for other data states, e.g. symbolic
/// execution).
pub fn reached_set(analysis: &engine::Analysis) -> Option<ReachedSet> {
    let mut out = ReachedSet { states: partition(analysis.reached())?, ..ReachedSet::default() };
    for (block, states) in analysis.block_reached() {
        out.blocks.push((block.clone(), partition(states.into_iter())?));
    }
    for e in &analysis.program().edges {
        if let cfa::EdgeKind::Call { callee, .. } = e.kind {
            out.callees.insert(e.source, callee);
        }
    }
    Some(out)
}

/// Reached states by (location, call stack), their data parts.
type Partition = BTreeMap<(NodeId, Vec<NodeId>), Vec<DataState>>;

fn partition<'a>(
    reached: impl Iterator<Item = (engine::trace::StateId, &'a engine::cpas::composite::CompositeState)>,
) -> Option<Partition> {
    let mut out = Partition::new();
    for (_, s) in reached {
        let loc = *s.parts.first()?.as_any().downcast_ref::<NodeId>()?;
        let stack: Vec<NodeId> =
            s.parts.get(1)?.as_any().downcast_ref::<CallstackState>()?.frames.iter().map(|f| f.call_site).collect();
        let data = s.parts.get(2)?.as_any();
        let data = if let Some(v) = data.downcast_ref::<ValueState>() {
            DataState::Values(v.values.clone())
        } else if let Some(o) = data.downcast_ref::<OctagonState>() {
            DataState::Octagon(o.octagon.closed().into_owned())
        } else if let Some(p) = data.downcast_ref::<PredicateState>() {
            if p.is_abstraction {
                DataState::Abstraction((*p.abstraction).clone())
            } else {
                DataState::Unchecked
            }
        } else {
            return None;
        };
        out.entry((loc, stack)).or_default().push(data);
    }
    Some(out)
}

/// The configuration the oracle runs `preset` (a preset name, or one with
/// overrides: `predicate[cpa.predicate.memoryRegions=TYPE]`) with under
/// `model`: the model set explicitly and the step, iteration and solver
/// limits of `options`.
pub fn configuration(preset: &str, model: IntModel, options: &OracleOptions) -> Result<Config, String> {
    // `predicate[cpa.predicate.memoryRegions=TYPE]`: a preset with overrides.
    let (name, overrides) = match preset.split_once('[') {
        Some((name, rest)) => {
            let inner = rest.strip_suffix(']').ok_or_else(|| format!("`{preset}`: the overrides are not closed by `]`"))?;
            (name, inner.split(',').map(str::trim).filter(|s| !s.is_empty()).collect::<Vec<_>>())
        }
        None => (preset, Vec::new()),
    };
    let mut c = Config::preset(name).map_err(|e| e.message)?;
    for pair in overrides {
        c.set_pair(pair).map_err(|e| e.message)?;
    }
    let steps = options.analysis_steps.to_string();
    let mut set = |k: &str, v: &str| c.set(k, v).map_err(|e| e.message);
    set("analysis.intModel", if model == IntModel::C { "C" } else { "MATH" })?;
    set("limits.steps", &steps)?;
    set("cegar.maxIterations", &options.cegar_iterations.to_string())?;
    set("solver.timeout", &options.solver_timeout_ms.to_string())?;
    set("restartAlgorithm.stageTimeMs", &options.stage_time_ms.to_string())?;
    if c.get("analysis.restartAfterUnknown") == "true" {
        c.set("restartAlgorithm.stageSteps", &steps).map_err(|e| e.message)?;
    }
    Ok(c)
}

/// Runs `preset` under `model` on `program` (through the same verifier as
/// `cpaplay verify`, with the native Z3); also returns the final reached
/// set after a TRUE verdict when it can be concretized.
pub fn analyze(
    program: &Arc<Program>,
    preset: &str,
    model: IntModel,
    options: &OracleOptions,
) -> Result<(AnalysisResult, Option<ReachedSet>), String> {
    let config = configuration(preset, model, options)?;
    let mut v = build_verifier(program.clone(), &config, false).map_err(|e| e.message)?;
    v.run_with(|_| {});
    let (verdict, reason) = v.outcome().map(|(v, r)| (v, r.to_string())).unwrap_or((Verdict::Unknown, "no verdict".into()));
    let confirmed = verdict == Verdict::False && v.confirmed() == Some(true);
    // The explorer of a transformed program keeps no CPA reached set: its
    // TRUE is judged by the concrete runs alone.
    let explorer = config.get("analysis.algorithm.transformExplorer") == "true";
    let reached = if verdict == Verdict::True && options.coverage && !explorer { reached_set(v.analysis()) } else { None };
    Ok((AnalysisResult { verdict, confirmed, inputs: v.inputs().to_vec(), reason }, reached))
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViolationKind {
    /// TRUE although a concrete run reached the error with these inputs.
    WrongTrue {
        /// The inputs of the run that reached the error.
        inputs: Vec<i128>,
        /// Where the inputs come from: `interpreter` (a random or boundary
        /// run) or the preset whose confirmed FALSE found them.
        source: String,
    },
    /// A confirmed FALSE whose inputs do not reach the error on replay.
    BadConfirmation {
        /// The analysis's inputs.
        inputs: Vec<i128>,
        /// How the replay ended instead.
        replay: String,
    },
    /// A concrete state no reached state covers, after a TRUE verdict.
    NotCovered {
        /// The state (location, call stack, values).
        state: String,
        /// The inputs of the run that visited it.
        inputs: Vec<i128>,
    },
    /// The analysis could not be built or run.
    Failed {
        /// The error message.
        message: String,
    },
}

/// One violation of soundness: the program, the analysis, and the evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The generator seed.
    pub seed: u64,
    /// The program text.
    pub program: String,
    /// The preset.
    pub preset: String,
    /// The integer model of the analysis.
    pub model: IntModel,
    /// The model of the interpreter that provided the evidence.
    pub truth_model: IntModel,
    /// What went wrong.
    pub kind: ViolationKind,
}

fn join(inputs: &[i128]) -> String {
    inputs.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(",")
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (m, t) = (self.model.name(), self.truth_model.name());
        match &self.kind {
            ViolationKind::WrongTrue { inputs, source } => writeln!(
                f,
                "WRONG TRUE: preset {} (model {m}) says TRUE, but the interpreter ({t}) reaches the error with --inputs {} (found by {source})",
                self.preset,
                join(inputs)
            )?,
            ViolationKind::BadConfirmation { inputs, replay } => writeln!(
                f,
                "BAD CONFIRMATION: preset {} (model {m}) confirms FALSE with --inputs {}, but the replay ({t}) {replay}",
                self.preset,
                join(inputs)
            )?,
            ViolationKind::NotCovered { state, inputs } => writeln!(
                f,
                "NOT COVERED: preset {} (model {m}) says TRUE, but no reached state covers {state} (run with --inputs {})",
                self.preset,
                join(inputs)
            )?,
            ViolationKind::Failed { message } => {
                writeln!(f, "FAILED: preset {} (model {m}) did not run: {message}", self.preset)?
            }
        }
        write!(f, "seed {} program:\n{}", self.seed, self.program)
    }
}

/// Judges one analysis result against the ground truth: the violations it
/// shows (none for a sound result).
pub fn judge(
    program: &Program,
    result: &AnalysisResult,
    reached: Option<&ReachedSet>,
    truth: &GroundTruth,
) -> Vec<ViolationKind> {
    let mut out = Vec::new();
    if result.verdict == Verdict::True {
        if let Some(inputs) = truth.error_witness() {
            let source = match (&truth.analysis_witness, truth.runs_reach_error()) {
                (Some((preset, _)), false) => format!("the confirmed FALSE of {preset}"),
                _ => "a random or boundary run".to_string(),
            };
            out.push(ViolationKind::WrongTrue { inputs, source });
        }
        if let Some(reached) = reached {
            let mut seen = std::collections::BTreeSet::new();
            'runs: for run in &truth.runs {
                for state in &run.states {
                    if !seen.insert((state.node, &state.call_stack, &state.values)) {
                        continue;
                    }
                    if !reached.covers(state) {
                        out.push(ViolationKind::NotCovered {
                            state: format!("{state:?}"),
                            inputs: run.inputs.iter().map(|i| i.value).collect(),
                        });
                        break 'runs;
                    }
                }
            }
        }
    }
    if result.verdict == Verdict::False && result.confirmed {
        let replay = replay(program, &result.inputs, truth.model);
        if !matches!(replay, Outcome::ReachedError { .. }) {
            out.push(ViolationKind::BadConfirmation { inputs: result.inputs.clone(), replay: replay.to_string() });
        }
    }
    out
}

/// How far the replay of a confirmed FALSE may run (steps of the
/// interpreter) before the accelerated interpreter takes over.
pub const REPLAY_STEPS: usize = 1_000_000;

/// Where `program` run on `inputs` (then zeros) under `model` ends: the
/// plain interpreter, then — when that stops at [`REPLAY_STEPS`] — the
/// accelerated one (exact jumps over translation loops), since a FALSE
/// confirmed by counterexample acceleration may need many millions of loop
/// iterations to reach the error ([`engine::feasibility::replay_outcome`]).
pub fn replay(program: &Program, inputs: &[i128], model: IntModel) -> Outcome {
    engine::feasibility::replay_outcome(program, inputs, model, REPLAY_STEPS)
}

/// One (preset, model) run of a program: its result.
#[derive(Clone, Debug)]
pub struct RunRecord {
    /// The preset.
    pub preset: String,
    /// The integer model.
    pub model: IntModel,
    /// The verdict (UNKNOWN when the analysis failed to run).
    pub verdict: Verdict,
    /// A confirmed FALSE.
    pub confirmed: bool,
    /// Whether the ground truth had a run reaching the error.
    pub error_reached: bool,
    /// Concrete states checked for coverage.
    pub states_checked: usize,
    /// Wall-clock time of the analysis in milliseconds.
    pub ms: u64,
}

/// Everything the oracle found on one program.
#[derive(Clone, Debug, Default)]
pub struct ProgramReport {
    /// One record per (preset, model).
    pub runs: Vec<RunRecord>,
    /// The violations (empty when every analysis was sound here).
    pub violations: Vec<Violation>,
}

/// Checks one generated program with every preset and model of `options`.
pub fn check_program(generated: &GenProgram, options: &OracleOptions) -> ProgramReport {
    let mut report = ProgramReport::default();
    let program = match cfa::from_source(&generated.text) {
        Ok(p) => Arc::new(p),
        Err(d) => {
            report.violations.push(Violation {
                seed: generated.seed,
                program: generated.text.clone(),
                preset: "(front end)".into(),
                model: IntModel::C,
                truth_model: IntModel::C,
                kind: ViolationKind::Failed { message: format!("the program does not compile: {d:?}") },
            });
            return report;
        }
    };
    for &model in &options.models {
        let truth_model = options.truth_model.unwrap_or(model);
        let mut truth = ground_truth(&program, generated, truth_model, options);
        let mut results = Vec::new();
        for preset in &options.presets {
            let started = std::time::Instant::now();
            let outcome = analyze(&program, preset, model, options);
            results.push((preset.clone(), outcome, started.elapsed().as_millis() as u64));
        }
        // A confirmed FALSE whose inputs really reach the error is evidence
        // against every TRUE of the other presets.
        if !truth.runs_reach_error() {
            truth.analysis_witness = results.iter().find_map(|(preset, outcome, _)| match outcome {
                Ok((r, _)) if r.confirmed => matches!(replay(&program, &r.inputs, model), Outcome::ReachedError { .. })
                    .then(|| (preset.clone(), r.inputs.clone())),
                _ => None,
            });
        }
        let error_reached = truth.error_witness().is_some();
        for (preset, outcome, ms) in results {
            let violation = |kind| Violation {
                seed: generated.seed,
                program: generated.text.clone(),
                preset: preset.clone(),
                model,
                truth_model,
                kind,
            };
            let mut record = RunRecord {
                preset: preset.clone(),
                model,
                verdict: Verdict::Unknown,
                confirmed: false,
                error_reached,
                states_checked: 0,
                ms,
            };
            match outcome {
                Ok((result, reached)) => {
                    if reached.is_some() {
                        record.states_checked = truth.runs.iter().map(|r| r.states.len()).sum();
                    }
                    for kind in judge(&program, &result, reached.as_ref(), &truth) {
                        report.violations.push(violation(kind));
                    }
                    record.verdict = result.verdict;
                    record.confirmed = result.confirmed;
                }
                Err(message) => report.violations.push(violation(ViolationKind::Failed { message })),
            }
            report.runs.push(record);
        }
    }
    report
}

/// Verdict counts of one (preset, model) over a campaign.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// TRUE verdicts.
    pub trues: u64,
    /// FALSE verdicts (confirmed or not).
    pub falses: u64,
    /// Confirmed FALSE verdicts.
    pub confirmed: u64,
    /// UNKNOWN verdicts.
    pub unknowns: u64,
    /// Programs whose concrete runs reached the error.
    pub error_reached: u64,
    /// Concrete states checked for coverage.
    pub states_checked: u64,
    /// Total analysis time in milliseconds.
    pub ms: u64,
    /// The slowest single analysis run in milliseconds.
    pub max_ms: u64,
}

/// The campaign's totals: per (preset, model) tallies and all violations.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Programs checked.
    pub programs: u64,
    /// Per (preset, model name).
    pub tallies: BTreeMap<(String, &'static str), Tally>,
    /// Every violation found.
    pub violations: Vec<Violation>,
}

impl Summary {
    /// Adds one program's report.
    pub fn add(&mut self, report: ProgramReport) {
        self.programs += 1;
        for r in report.runs {
            let t = self.tallies.entry((r.preset, r.model.name())).or_default();
            match r.verdict {
                Verdict::True => t.trues += 1,
                Verdict::False => t.falses += 1,
                Verdict::Unknown => t.unknowns += 1,
            }
            t.confirmed += r.confirmed as u64;
            t.error_reached += r.error_reached as u64;
            t.states_checked += r.states_checked as u64;
            t.ms += r.ms;
            t.max_ms = t.max_ms.max(r.ms);
        }
        self.violations.extend(report.violations);
    }

    /// Program-runs (programs × presets × models) checked.
    pub fn program_runs(&self) -> u64 {
        self.tallies.values().map(|t| t.trues + t.falses + t.unknowns).sum()
    }

    /// The table of verdict counts, one line per (preset, model).
    pub fn table(&self) -> String {
        let mut s = format!(
            "{:<28} {:>5} {:>7} {:>7} {:>9} {:>7} {:>10} {:>12} {:>9} {:>8}\n",
            "preset", "model", "TRUE", "FALSE", "confirmed", "UNKNOWN", "err-reach", "cov-states", "time-s", "max-ms"
        );
        for ((preset, model), t) in &self.tallies {
            s.push_str(&format!(
                "{preset:<28} {model:>5} {:>7} {:>7} {:>9} {:>7} {:>10} {:>12} {:>9.1} {:>8}\n",
                t.trues,
                t.falses,
                t.confirmed,
                t.unknowns,
                t.error_reached,
                t.states_checked,
                t.ms as f64 / 1000.0,
                t.max_ms
            ));
        }
        s
    }
}

/// Checks the programs of seeds `first..first + count` on `jobs` worker
/// threads; `progress` is called after each program (in completion order)
/// with the number done and its report.
pub fn campaign(
    first: u64,
    count: u64,
    jobs: usize,
    options: &OracleOptions,
    mut progress: impl FnMut(u64, &ProgramReport) + Send,
) -> Summary {
    let next = std::sync::atomic::AtomicU64::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(u64, ProgramReport)>();
    let mut reports: Vec<(u64, ProgramReport)> = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let tx = tx.clone();
            let next = &next;
            // The analyses recurse over formulas as deep as a program's
            // longest block; a debug build needs more than a thread's
            // default 2 MiB for the longer (memory) programs.
            let worker = std::thread::Builder::new().stack_size(WORKER_STACK_BYTES);
            let spawned = worker.spawn_scoped(scope, move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if i >= count {
                    break;
                }
                let generated = progen::generate(first + i, &options.generator);
                let report = check_program(&generated, options);
                if tx.send((i, report)).is_err() {
                    break;
                }
            });
            spawned.expect("a campaign worker thread starts");
        }
        drop(tx);
        let mut done = 0;
        for (i, report) in rx {
            done += 1;
            progress(done, &report);
            reports.push((i, report));
        }
    });
    reports.sort_by_key(|(i, _)| *i);
    let mut summary = Summary::default();
    for (_, r) in reports {
        summary.add(r);
    }
    summary
}
