//! Building an analysis from a configuration: [`build_analysis`] turns a
//! [`Config`] into a runnable [`Analysis`], the composite of the CPAs named
//! in `CompositeCPA.cpas` (each built by its entry in
//! [`component_constructor`], the registry from names such as
//! `cpa.octagon.OctagonCPA`) under the CPA+ reachability algorithm. A
//! composite the engine cannot run soundly is refused first
//! ([`crate::validate`]).

use crate::algorithm::Reachability;
use crate::config::{Config, ConfigError};
use crate::cpa::DynCpa;
use crate::cpas::callstack::CallstackCpa;
use crate::cpas::composite::{CompositeAnalysis, CompositeCpa};
use crate::cpas::location::LocationCpa;
use crate::cpas::octagon::{OctagonCpa, OctagonOptions};
use crate::cpas::value::{ValueCpa, ValueOptions};
use crate::precision::{TrackingPrecision, VarPrecision};
use crate::trace::RunInfo;
use cfa::Program;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Builds one component CPA from the configuration.
pub type CpaConstructor = fn(&Arc<Program>, &Config) -> Result<Box<dyn DynCpa>, ConfigError>;

fn make_location(p: &Arc<Program>, _c: &Config) -> Result<Box<dyn DynCpa>, ConfigError> {
    Ok(Box::new(LocationCpa::new(p.clone())))
}

fn make_callstack(_p: &Arc<Program>, c: &Config) -> Result<Box<dyn DynCpa>, ConfigError> {
    Ok(Box::new(CallstackCpa::new(c.get_u64("cpa.callstack.depth").max(1) as usize)))
}

fn make_value(p: &Arc<Program>, c: &Config) -> Result<Box<dyn DynCpa>, ConfigError> {
    make_value_refined(p, c, None)
}

/// The initial precision π₀ a variable-tracking CPA's option `key` asks
/// for: all variables, or (EMPTY) nothing — or, with `refined`, that CEGAR
/// precision.
fn initial_precision(c: &Config, key: &str, refined: Option<&Arc<VarPrecision>>) -> TrackingPrecision {
    match (c.get(key) == "EMPTY", refined) {
        (true, Some(r)) => TrackingPrecision::Refined(r.clone()),
        (true, None) => TrackingPrecision::Tracked(BTreeSet::new()),
        _ => TrackingPrecision::Full,
    }
}

/// The Value CPA; with `refined`, an EMPTY initial precision becomes that
/// CEGAR precision.
fn make_value_refined(p: &Arc<Program>, c: &Config, refined: Option<&Arc<VarPrecision>>) -> Result<Box<dyn DynCpa>, ConfigError> {
    let options = ValueOptions {
        merge_join: c.get("cpa.value.merge") == "JOIN",
        precision: initial_precision(c, "cpa.value.precision", refined),
        int_model: c.int_model(),
    };
    Ok(Box::new(ValueCpa::new(p.clone(), options)))
}

fn make_octagon(p: &Arc<Program>, c: &Config) -> Result<Box<dyn DynCpa>, ConfigError> {
    make_octagon_refined(p, c, None)
}

/// The Octagon CPA; with `refined`, an EMPTY initial precision becomes that
/// CEGAR precision.
fn make_octagon_refined(
    p: &Arc<Program>,
    c: &Config,
    refined: Option<&Arc<VarPrecision>>,
) -> Result<Box<dyn DynCpa>, ConfigError> {
    let options = OctagonOptions {
        merge: match c.get("cpa.octagon.mergeop.type") {
            "JOIN" => crate::trace::MergeKind::Join,
            "WIDENING" => crate::trace::MergeKind::Widening,
            _ => crate::trace::MergeKind::Sep,
        },
        only_merge_at_loop_heads: c.get_bool("cpa.octagon.mergeop.onlyMergeAtLoopHeads"),
        widening_thresholds: c.get_bool("cpa.octagon.wideningThresholds"),
        int_model: c.int_model(),
        precision: initial_precision(c, "cpa.octagon.precision", refined),
    };
    Ok(Box::new(OctagonCpa::new(p.clone(), options)))
}

/// The registry: the constructor for a CPA class name of
/// `CompositeCPA.cpas`. A new CPA registers here with one line (the Octagon
/// CPA replaces `octagon_unavailable` by its constructor).
pub fn component_constructor(class: &str) -> Option<CpaConstructor> {
    match class {
        "cpa.location.LocationCPA" => Some(make_location),
        "cpa.callstack.CallstackCPA" => Some(make_callstack),
        "cpa.value.ValueAnalysisCPA" => Some(make_value),
        "cpa.octagon.OctagonCPA" => Some(make_octagon),
        "cpa.value.symbolic.SymbolicValueCPA" => Some(make_symbolic_value),
        "cpa.constraints.ConstraintsCPA" => Some(make_constraints),
        "cpa.predicate.PredicateCPA" => Some(make_predicate),
        "cpa.symexec.SymExecCPA" => Some(make_symexec),
        _ => None,
    }
}

/// The encoding of symbolic values: `solver.theory` (AUTO: the theory that
/// is sound for `analysis.intModel`) and the integer model.
pub fn solver_encoding(c: &Config) -> smt::Encoding {
    let model = c.int_model();
    smt::Encoding::new(crate::cpas::symbolic::resolve_theory(c.get("solver.theory"), model), model)
}

fn make_symbolic_value(p: &Arc<Program>, c: &Config) -> Result<Box<dyn DynCpa>, ConfigError> {
    Ok(Box::new(crate::cpas::symbolic::SymbolicValueCpa::new(p.clone(), solver_encoding(c))))
}

fn make_constraints(p: &Arc<Program>, c: &Config) -> Result<Box<dyn DynCpa>, ConfigError> {
    let oracle = crate::solver::SolverOracle::new();
    let cpa = crate::cpas::constraints::ConstraintsCpa::new(p.clone(), solver_encoding(c), oracle);
    Ok(Box::new(cpa.deciding_one_input(c.get_bool("cpa.constraints.decideOneInput"))))
}

/// The options of the Predicate CPA (`cpa.predicate.*`).
pub fn predicate_options(c: &Config) -> crate::cpas::predicate::PredicateOptions {
    use crate::cpas::predicate::{abstraction::AbstractionKind, BlockOptions, PredicateOptions};
    PredicateOptions {
        blocks: BlockOptions {
            at_loops: c.get_bool("cpa.predicate.blk.alwaysAtLoops"),
            at_functions: c.get_bool("cpa.predicate.blk.alwaysAtFunctions"),
            at_function_heads: c.get_bool("cpa.predicate.blk.alwaysAtFunctionHeads"),
            threshold: c.get_u64("cpa.predicate.blk.threshold").min(u32::MAX as u64) as u32,
            at_recursion: c.get_bool("cpa.predicate.blk.alwaysAtRecursion"),
            memory_regions: Some(memory_regions(c)),
        },
        kind: if c.get_bool("cpa.predicate.abstraction.cartesian") {
            AbstractionKind::Cartesian
        } else {
            AbstractionKind::Boolean
        },
        merge_abe: c.get("cpa.predicate.merge") != "SEP",
        encoding: predicate_encoding(c.int_model()),
    }
}

/// `cpa.predicate.memoryRegions`: how predicate analysis splits memory.
pub fn memory_regions(c: &Config) -> cfa::RegionModel {
    cfa::RegionModel::parse(c.get("cpa.predicate.memoryRegions")).unwrap_or_default()
}

/// The encoding of predicate analysis: integers, with every C result
/// wrapped exactly under the `c` model (sound, and quantifier elimination
/// works on it, which it does not on bit-vectors).
pub fn predicate_encoding(model: minic::IntModel) -> smt::Encoding {
    smt::Encoding::wrapped(model)
}

fn make_predicate(p: &Arc<Program>, c: &Config) -> Result<Box<dyn DynCpa>, ConfigError> {
    make_predicate_refined(p, c, None)
}

/// The Predicate CPA with the CEGAR precision `refined` (none: no predicates).
fn make_predicate_refined(
    p: &Arc<Program>,
    c: &Config,
    refined: Option<&Arc<crate::cpas::predicate::precision::PredicatePrecision>>,
) -> Result<Box<dyn DynCpa>, ConfigError> {
    let precision = refined.cloned().unwrap_or_default();
    let oracle = crate::solver::SolverOracle::new();
    Ok(Box::new(crate::cpas::predicate::PredicateCpa::new(p.clone(), predicate_options(c), precision, oracle)))
}

fn make_symexec(p: &Arc<Program>, c: &Config) -> Result<Box<dyn DynCpa>, ConfigError> {
    make_symexec_refined(p, c, None)
}

/// The initial precision function of the SymExec CPA: every loop head
/// with `symexec.abstraction.threshold` and no predicates.
pub fn symexec_initial_precision(p: &Program, c: &Config) -> crate::cpas::symexec::precision::SymExecPrecision {
    let threshold = c.get_u64("symexec.abstraction.threshold").min(u32::MAX as u64) as u32;
    crate::cpas::symexec::precision::SymExecPrecision::initial(p, threshold)
}

/// The SymExec CPA with the CEGAR precision `refined` (none: the initial
/// precision function).
fn make_symexec_refined(
    p: &Arc<Program>,
    c: &Config,
    refined: Option<&Arc<crate::cpas::symexec::precision::SymExecPrecision>>,
) -> Result<Box<dyn DynCpa>, ConfigError> {
    use crate::cpas::symexec::{SymExecCpa, SymExecOptions};
    let precision = refined.map(|r| (**r).clone()).unwrap_or_else(|| symexec_initial_precision(p, c));
    let options = SymExecOptions { abstraction: c.get_bool("symexec.abstraction"), encoding: predicate_encoding(c.int_model()) };
    Ok(Box::new(SymExecCpa::new(p.clone(), options, precision, crate::solver::SolverOracle::new())))
}

/// [`build_analysis`] for one CEGAR iteration of symbolic execution with
/// predicate abstraction: the SymExec CPA starts from `precision`.
pub fn build_analysis_symexec(
    program: Arc<Program>,
    config: &Config,
    record_views: bool,
    precision: &Arc<crate::cpas::symexec::precision::SymExecPrecision>,
) -> Result<Analysis, ConfigError> {
    build_analysis_inner(program, config, record_views, None, None, Some(precision))
}

/// A runnable analysis: the reachability algorithm over the composite CPA.
pub type Analysis = Reachability<CompositeAnalysis>;

/// Builds the analysis a configuration describes for `program`.
/// `record_views`: whether created states carry their views in the trace.
pub fn build_analysis(program: Arc<Program>, config: &Config, record_views: bool) -> Result<Analysis, ConfigError> {
    build_analysis_refined(program, config, record_views, None)
}

/// [`build_analysis`] for one CEGAR iteration: the Value and Octagon CPAs
/// configured with an EMPTY precision start from `refined` instead (the
/// precision the refinements so far found necessary).
pub fn build_analysis_refined(
    program: Arc<Program>,
    config: &Config,
    record_views: bool,
    refined: Option<&Arc<VarPrecision>>,
) -> Result<Analysis, ConfigError> {
    build_analysis_with(program, config, record_views, refined, None)
}

/// [`build_analysis_refined`] with, for the Predicate CPA, the predicates
/// CEGAR found so far (`None`: none).
pub fn build_analysis_with(
    program: Arc<Program>,
    config: &Config,
    record_views: bool,
    refined: Option<&Arc<VarPrecision>>,
    predicates: Option<&Arc<crate::cpas::predicate::precision::PredicatePrecision>>,
) -> Result<Analysis, ConfigError> {
    build_analysis_inner(program, config, record_views, refined, predicates, None)
}

fn build_analysis_inner(
    program: Arc<Program>,
    config: &Config,
    record_views: bool,
    refined: Option<&Arc<VarPrecision>>,
    predicates: Option<&Arc<crate::cpas::predicate::precision::PredicatePrecision>>,
    symexec: Option<&Arc<crate::cpas::symexec::precision::SymExecPrecision>>,
) -> Result<Analysis, ConfigError> {
    let names = config.cpas();
    let where_ = config.origin("CompositeCPA.cpas").map(|o| format!("{o}: ")).unwrap_or_default();
    // A composite the engine cannot run soundly never starts (no location,
    // a CPA twice, constraints without symbolic values, calls without the
    // call stack): see crate::validate.
    if let Some(e) = crate::validate::composite_problems(config, Some(&program)).into_iter().next() {
        return Err(e);
    }
    let mut cpas = Vec::with_capacity(names.len());
    for n in &names {
        let ctor = component_constructor(n).ok_or_else(|| ConfigError::new(format!("{where_}unknown CPA `{n}`")))?;
        cpas.push(match (n.as_str(), refined) {
            ("cpa.value.ValueAnalysisCPA", Some(_)) => make_value_refined(&program, config, refined)?,
            ("cpa.octagon.OctagonCPA", Some(_)) => make_octagon_refined(&program, config, refined)?,
            ("cpa.predicate.PredicateCPA", _) => make_predicate_refined(&program, config, predicates)?,
            ("cpa.symexec.SymExecCPA", _) => make_symexec_refined(&program, config, symexec)?,
            _ => ctor(&program, config)?,
        });
    }
    let stop = if config.get("cpa.composite.stop") == "NEVER" { crate::cpa::StopKind::Never } else { crate::cpa::StopKind::Sep };
    let composite = CompositeCpa::with_stop(cpas, stop);
    let info = RunInfo {
        cpas: composite.component_names(),
        merge: None,
        order: String::new(),
        int_model: config.int_model(),
        properties: config.effective(),
    };
    let mut options = config.algorithm_options();
    options.record_views = record_views;
    #[allow(unused_mut)]
    let mut analysis = Reachability::new(CompositeAnalysis::from(composite), program, options, info);
    // Natively a persistent z3 process answers solver queries inside the
    // run; in the page the run parks and z3-solver answers (crate::solver).
    #[cfg(not(target_arch = "wasm32"))]
    if analysis.needs_solver() {
        let ms = config.get("solver.timeout").parse::<u64>().unwrap_or(10_000).max(1);
        analysis.set_solver(Some(Box::new(smt::Z3Process::system(std::time::Duration::from_millis(ms)))));
    }
    Ok(analysis)
}
