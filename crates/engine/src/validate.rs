//! Configuration validation: which configurations the engine can run
//! soundly, decided *before* a run starts.
//!
//! Parsing ([`Config::parse`], [`Config::set`]) already rejects unknown
//! keys, values of the wrong kind and numbers out of an option's range,
//! naming the file and line. What parsing cannot see is how options fit
//! together; that is checked here, in two layers:
//!
//! * [`validate`] / [`problems`]: the configuration alone — the composite
//!   (`CompositeCPA.cpas` needs `cpa.location.LocationCPA`, lists no CPA
//!   twice, `cpa.constraints.ConstraintsCPA` needs
//!   `cpa.value.symbolic.SymbolicValueCPA`); CEGAR needs a refinable
//!   precision (`cpa.value.precision = EMPTY` with the Value CPA or
//!   `cpa.octagon.precision = EMPTY` with the Octagon CPA); options of CEGAR,
//!   the second configuration of the counterexample check (one plain
//!   analysis) and every restart stage (each must load and be valid
//!   itself).
//! * [`validate_for`] / [`problems_for`]: the same plus what depends on the
//!   program — a program that calls a function it defines needs
//!   `cpa.callstack.CallstackCPA` (without it a return edge may lead back to
//!   any call site of the callee and restore another activation's
//!   variables: the analysis is then neither sound nor well-defined).
//!
//! Options that are set but have no effect (a CEGAR option without CEGAR,
//! an analysis option on a restart configuration, whose stages run their
//! own files) are [`warnings`], not errors: one `--set` may serve several
//! configurations.
//!
//! Every message names the option and where it was set (`file:line`,
//! `--set`, or `default`) and says what to change, in words a student can
//! act on. [`crate::cegar::Verifier::new`] runs [`validate_for`], and
//! [`crate::build::build_analysis`] the composite part of it, so a run
//! never starts from a configuration rejected here.

use crate::config::{option, Config, ConfigError};
use cfa::{EdgeKind, Program};

const LOCATION: &str = "cpa.location.LocationCPA";
const CALLSTACK: &str = "cpa.callstack.CallstackCPA";
const VALUE: &str = "cpa.value.ValueAnalysisCPA";
const OCTAGON: &str = "cpa.octagon.OctagonCPA";
const SYMBOLIC: &str = "cpa.value.symbolic.SymbolicValueCPA";
const CONSTRAINTS: &str = "cpa.constraints.ConstraintsCPA";
const PREDICATE: &str = "cpa.predicate.PredicateCPA";
const SYMEXEC: &str = "cpa.symexec.SymExecCPA";

/// Options only CEGAR reads.
const CEGAR_OPTIONS: &[&str] = &["cegar.maxIterations", "cegar.restart", "cegar.backupRefiner"];

/// Options only the restart algorithm reads (on the restart configuration).
const RESTART_OPTIONS: &[&str] = &["restartAlgorithm.configFiles", "restartAlgorithm.stageSteps"];

/// Options of a restart configuration that its stages do not inherit: each
/// stage runs its own configuration file.
const NOT_INHERITED_BY_STAGES: &[&str] = &[
    "CompositeCPA.cpas",
    "analysis.traversal.order",
    "analysis.traversal.useReversePostorder",
    "cpa.value.merge",
    "cpa.value.precision",
    "cpa.octagon.precision",
    "cpa.callstack.depth",
    "cpa.octagon.mergeop.type",
    "cpa.octagon.mergeop.onlyMergeAtLoopHeads",
    "cpa.octagon.wideningThresholds",
    "analysis.algorithm.CEGAR",
    "cegar.maxIterations",
    "cegar.restart",
    "cegar.backupRefiner",
    "analysis.checkCounterexamples",
    "counterexample.checker.config",
    "cpa.constraints.checkTargets",
    "cpa.constraints.decideOneInput",
    "solver.theory",
    "solver.timeout",
    "cpa.predicate.blk.alwaysAtLoops",
    "cpa.predicate.blk.alwaysAtFunctions",
    "cpa.predicate.blk.alwaysAtFunctionHeads",
    "cpa.predicate.blk.threshold",
    "cpa.predicate.blk.alwaysAtRecursion",
    "cpa.predicate.abstraction.cartesian",
    "cpa.predicate.memoryRegions",
    "cpa.predicate.merge",
    "cpa.predicate.refinement.interpolation",
    "cpa.predicate.refinement.pathInvariants",
    "cpa.predicate.refinement.acceleration",
    "cpa.predicate.refinement.eliminationTimeMs",
    "cpa.predicate.refinement.sharePredicates",
];

/// How deep stage and checker configurations may nest before validation
/// stops following them (the engine itself rejects nested restarts).
const MAX_NESTING: usize = 4;

/// `key` as located in messages: `file:line: key`, `--set: key`, or
/// `key (default)` when the configuration does not set it.
fn at(config: &Config, key: &str) -> String {
    match config.origin(key) {
        Some(o) => format!("{o}: {key}"),
        None => format!("{key} (default)"),
    }
}

/// Whether `key` was set explicitly to something other than its default.
fn set_off_default(config: &Config, key: &str) -> bool {
    config.origin(key).is_some() && option(key).is_some_and(|o| config.get(key) != o.default)
}

/// Every problem of `config` on its own (see the module docs); empty when
/// the engine can run it.
pub fn problems(config: &Config) -> Vec<ConfigError> {
    let mut out = Vec::new();
    check_config(config, &mut out, 0, None);
    out
}

/// Every problem of `config` for running on `program`: [`problems`] plus
/// the program-dependent checks (calls need the Callstack CPA).
pub fn problems_for(config: &Config, program: &Program) -> Vec<ConfigError> {
    let mut out = Vec::new();
    check_config(config, &mut out, 0, Some(program));
    out
}

/// The first problem of `config` on its own, if any.
pub fn validate(config: &Config) -> Result<(), ConfigError> {
    first(problems(config))
}

/// The first problem of `config` for running on `program`, if any.
pub fn validate_for(config: &Config, program: &Program) -> Result<(), ConfigError> {
    first(problems_for(config, program))
}

fn first(problems: Vec<ConfigError>) -> Result<(), ConfigError> {
    match problems.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The checks of the composite CPA alone, optionally for `program`: what
/// [`crate::build::build_analysis`] needs to assemble a composite the
/// engine can run soundly.
pub fn composite_problems(config: &Config, program: Option<&Program>) -> Vec<ConfigError> {
    let mut out = Vec::new();
    let cpas = config.cpas();
    let has = |n: &str| cpas.iter().any(|c| c == n);
    let key = at(config, "CompositeCPA.cpas");
    if !has(LOCATION) {
        out.push(ConfigError { message: format!("{key} must include {LOCATION} (the reached set is partitioned by location)") });
    }
    for (i, c) in cpas.iter().enumerate() {
        if cpas[..i].contains(c) {
            out.push(ConfigError { message: format!("{key} lists {c} twice; list each CPA once") });
        }
    }
    if has(CONSTRAINTS) && !has(SYMBOLIC) {
        out.push(ConfigError {
            message: format!(
                "{key}: {CONSTRAINTS} needs {SYMBOLIC} (the path constraints are over the symbolic values; add it to the list)"
            ),
        });
    }
    if has(CONSTRAINTS) && has(PREDICATE) {
        out.push(ConfigError {
            message: format!(
                "{key}: {CONSTRAINTS} and {PREDICATE} both ask the solver, and one run parks on one component's queries only; use one of them"
            ),
        });
    }
    if has(SYMEXEC) {
        for other in [SYMBOLIC, CONSTRAINTS, PREDICATE] {
            if has(other) {
                out.push(ConfigError {
                    message: format!(
                        "{key}: {SYMEXEC} keeps its own symbolic memory and path condition and asks the solver itself; it cannot run together with {other} (use one of them)"
                    ),
                });
            }
        }
        if config.get("cpa.composite.stop") != "NEVER" {
            out.push(ConfigError {
                message: format!(
                    "{} = {}: {SYMEXEC} needs cpa.composite.stop = NEVER (coverage of states with path histories is not defined by symbolic execution; each path is explored on its own)",
                    at(config, "cpa.composite.stop"),
                    config.get("cpa.composite.stop")
                ),
            });
        }
    }
    out.extend(bam_problems(config, &has));
    if let Some(p) = program {
        if !has(CALLSTACK) {
            if let Some(calls) = calls_in(p) {
                out.push(ConfigError {
                    message: format!(
                        "{key}: this program calls functions ({calls}), so CompositeCPA.cpas needs {CALLSTACK} (without it a return may lead back to the wrong call site)"
                    ),
                });
            }
        }
    }
    out
}

/// The calls of `program` to functions it defines, as `line 3: f; line 5: g`
/// (the first call of each callee, at most three), or `None` without calls.
pub fn calls_in(program: &Program) -> Option<String> {
    let mut seen: Vec<(u32, String)> = Vec::new();
    let mut calls: Vec<(u32, cfa::FuncId)> = program
        .edges
        .iter()
        .filter_map(|e| match &e.kind {
            EdgeKind::Call { callee, .. } => Some((e.line, *callee)),
            _ => None,
        })
        .collect();
    calls.sort();
    for (line, callee) in calls {
        let name = program.functions.get(callee.0 as usize).map(|f| f.name.clone()).unwrap_or_else(|| "?".into());
        if !seen.iter().any(|(_, n)| *n == name) {
            seen.push((line, name));
        }
    }
    if seen.is_empty() {
        return None;
    }
    let more = seen.len() > 3;
    let mut text = seen.iter().take(3).map(|(l, n)| format!("line {l}: {n}")).collect::<Vec<_>>().join("; ");
    if more {
        text.push_str("; …");
    }
    Some(text)
}

fn check_config(config: &Config, out: &mut Vec<ConfigError>, depth: usize, program: Option<&Program>) {
    let restart = config.get("analysis.restartAfterUnknown") == "true";
    let cegar = config.get("analysis.algorithm.CEGAR") == "true";
    let check = config.get("analysis.checkCounterexamples") == "true";
    if restart {
        if config.get("analysis.algorithm.transformExplorer") == "true" {
            out.push(ConfigError {
                message: format!(
                    "{} = true cannot be a restart configuration; use it as one stage of restartAlgorithm.configFiles instead",
                    at(config, "analysis.algorithm.transformExplorer")
                ),
            });
            return;
        }
        check_restart(config, out, depth, program);
        return;
    }
    if config.get("analysis.algorithm.transformExplorer") == "true" {
        for k in ["analysis.algorithm.CEGAR", "analysis.checkCounterexamples"] {
            if config.get(k) == "true" {
                out.push(ConfigError {
                    message: format!(
                        "{} = true cannot be combined with {} = true: the explorer of the transformed program runs instead of the CPA algorithm (a term FALSE is confirmed by its own replay)",
                        at(config, k),
                        at(config, "analysis.algorithm.transformExplorer")
                    ),
                });
            }
        }
        // The explorer replaces the CPA algorithm, but the verifier still
        // assembles the composite (its stage), so it must be one that builds.
        out.extend(composite_problems(config, program));
        return;
    }
    out.extend(composite_problems(config, program));
    let cpas = config.cpas();
    let has = |n: &str| cpas.iter().any(|c| c == n);
    if cegar {
        let value = has(VALUE) && config.get("cpa.value.precision") == "EMPTY";
        let octagon = has(OCTAGON) && config.get("cpa.octagon.precision") == "EMPTY";
        let symexec = has(SYMEXEC) && config.get("symexec.abstraction") == "true";
        if has(SYMEXEC) && !symexec {
            out.push(ConfigError {
                message: format!(
                    "{} = true with {SYMEXEC} needs symexec.abstraction = true (standard symbolic execution has no precision to refine)",
                    at(config, "analysis.algorithm.CEGAR")
                ),
            });
        } else if !value && !octagon && !has(PREDICATE) && !symexec {
            let hint = if has(VALUE) {
                "set cpa.value.precision = EMPTY".to_string()
            } else if has(OCTAGON) {
                "set cpa.octagon.precision = EMPTY".to_string()
            } else {
                format!(
                    "add {VALUE} with cpa.value.precision = EMPTY, {OCTAGON} with cpa.octagon.precision = EMPTY, {PREDICATE}, or {SYMEXEC} with symexec.abstraction = true"
                )
            };
            out.push(ConfigError {
                message: format!(
                    "{} = true needs a precision CEGAR can refine: {hint} (a full precision already tracks everything, so no refinement could help)",
                    at(config, "analysis.algorithm.CEGAR")
                ),
            });
        }
    }
    let second = config.get("counterexample.checker.config");
    if !second.is_empty() {
        if check || cegar {
            check_second(config, second, out, depth, program);
        } else if let Err(e) = Config::load(second) {
            // Unused (a warning), but the verifier still loads it.
            out.push(ConfigError { message: format!("{}: {}", at(config, "counterexample.checker.config"), e.message) });
        }
    }
}

/// The second configuration of the counterexample check: one name, which
/// loads and is a plain analysis (no CEGAR, check or restart of its own).
fn check_second(config: &Config, second: &str, out: &mut Vec<ConfigError>, depth: usize, program: Option<&Program>) {
    let key = at(config, "counterexample.checker.config");
    if second.contains(',') {
        out.push(ConfigError { message: format!("{key} names one configuration, found `{second}`") });
        return;
    }
    let c = match Config::load(second) {
        Ok(c) => c,
        Err(e) => {
            out.push(ConfigError { message: format!("{key} = {second}: {}", e.message) });
            return;
        }
    };
    for k in ["analysis.restartAfterUnknown", "analysis.algorithm.CEGAR", "analysis.checkCounterexamples"] {
        if c.get(k) == "true" {
            out.push(ConfigError {
                message: format!("{key} = {second}: the checker runs a plain analysis on the error path, but `{second}` sets {k} = true; name a configuration without it (e.g. octagon-sep)"),
            });
            return;
        }
    }
    if depth < MAX_NESTING {
        let mut inner = Vec::new();
        check_config(&c, &mut inner, depth + 1, program);
        out.extend(inner.into_iter().map(|e| ConfigError { message: format!("{key} = {second}: {}", e.message) }));
    }
}

/// A restart configuration: its stages load, are not restart configurations
/// themselves and are valid.
fn check_restart(config: &Config, out: &mut Vec<ConfigError>, depth: usize, program: Option<&Program>) {
    let key = at(config, "restartAlgorithm.configFiles");
    let names: Vec<&str> =
        config.get("restartAlgorithm.configFiles").split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    if names.is_empty() {
        out.push(ConfigError {
            message: format!(
                "{key} is empty, but analysis.restartAfterUnknown = true needs at least one stage (e.g. octagon-widening-cex, octagon-cegar)"
            ),
        });
        return;
    }
    for name in names {
        match crate::config::stage_config(name, config) {
            Err(e) => out.push(ConfigError { message: format!("{key}: stage `{name}`: {}", e.message) }),
            Ok(stage) if depth < MAX_NESTING => {
                let mut inner = Vec::new();
                check_config(&stage, &mut inner, depth + 1, program);
                out.extend(inner.into_iter().map(|e| ConfigError { message: format!("{key}: stage `{name}`: {}", e.message) }));
            }
            Ok(_) => {}
        }
    }
}

/// Options of `config` that are set (to something other than their
/// default) but have no effect: options of CEGAR, of the counterexample
/// check or of the restart algorithm while that algorithm is off, and on a
/// restart configuration the analysis options its stages never read. Not
/// errors — one `--set` may be applied to several configurations (as
/// `cpaplay table` does) — but worth a warning, in the same located form
/// as the errors.
pub fn warnings(config: &Config) -> Vec<String> {
    let mut out = Vec::new();
    let on = |k: &str| config.get(k) == "true";
    let unused = |key: &str, why: &str| format!("{} = {} has no effect: {why}", at(config, key), config.get(key));
    if on("analysis.restartAfterUnknown") {
        for k in NOT_INHERITED_BY_STAGES {
            if set_off_default(config, k) {
                out.push(unused(k, "on a restart configuration each stage of restartAlgorithm.configFiles runs its own configuration; set it there"));
            }
        }
        return out;
    }
    if !on("analysis.algorithm.CEGAR") {
        for k in CEGAR_OPTIONS {
            if set_off_default(config, k) {
                out.push(unused(k, "it is a CEGAR option and analysis.algorithm.CEGAR is false"));
            }
        }
        if !on("analysis.checkCounterexamples") && set_off_default(config, "counterexample.checker.config") {
            out.push(unused(
                "counterexample.checker.config",
                "it checks counterexamples, and analysis.checkCounterexamples and analysis.algorithm.CEGAR are false",
            ));
        }
    }
    for k in RESTART_OPTIONS {
        if set_off_default(config, k) {
            out.push(unused(k, "it is a restart-algorithm option and analysis.restartAfterUnknown is false"));
        }
    }
    out
}

/// Block-abstraction memoization (`cpa.bam.enabled`): a call stack to tell a block's own exit from an inner activation's, no
/// restart from the pivot (a pruned subtree may hold cached block states)
/// and no symbolic execution (its states keep whole path histories, which
/// reduce cannot cut at a call).
fn bam_problems(config: &Config, has: &dyn Fn(&str) -> bool) -> Vec<ConfigError> {
    let mut out = Vec::new();
    if !config.get_bool("cpa.bam.enabled") {
        return out;
    }
    let bam = at(config, "cpa.bam.enabled");
    if !has(CALLSTACK) {
        out.push(ConfigError {
            message: format!("{bam} = true needs {CALLSTACK} in CompositeCPA.cpas (a block's exit states are those with the block's own call stack)"),
        });
    }
    if config.get("cegar.restart") == "PIVOT" {
        out.push(ConfigError {
            message: format!(
                "{bam} = true cannot restart CEGAR from the pivot ({} = PIVOT): pruning would cut through cached blocks; use cegar.restart = ROOT",
                at(config, "cegar.restart")
            ),
        });
    }
    if has(SYMEXEC) || has(CONSTRAINTS) {
        out.push(ConfigError {
            message: format!("{bam} = true does not work with symbolic execution (its states keep the whole path, which a block cannot reduce)"),
        });
    }
    out
}
