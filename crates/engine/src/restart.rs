//! Restarts: the restart algorithm (sequential combination of
//! configurations, `restartAlgorithm.configFiles`: each stage runs until
//! it decides, and an UNKNOWN starts the next), and CEGAR's two ways to start
//! a new iteration with a refined precision — from the initial state (a new
//! run) or from the pivot ([`pivot`]: only the ARG subtree below the first
//! state whose precision grew is re-explored,
//! [`crate::Reachability::prune_subtree`]). The [`crate::cegar::Verifier`]
//! decides when to restart and records each as an
//! [`crate::trace::Event::Restart`] or [`crate::trace::Event::ArgPruned`].

use crate::build::{build_analysis, build_analysis_refined, Analysis};
use crate::config::{stage_config, Config, ConfigError};
use crate::cpa::ErasedPrecision;
use crate::cpas::composite::CompositePrecision;
use crate::cpas::predicate::precision::PredicatePrecision;
use crate::precision::{TrackingPrecision, VarPrecision};
use crate::trace::StateId;
use cfa::Program;
use std::sync::Arc;

/// One configuration's run: the reachability algorithm, re-built with a
/// refined precision for each CEGAR iteration.
pub(crate) struct Stage {
    /// The configuration's name (file or preset).
    pub(crate) name: String,
    /// The stage's configuration.
    pub(crate) config: Config,
    /// The reachability run of the current CEGAR iteration.
    pub(crate) analysis: Analysis,
    /// `analysis.algorithm.CEGAR`.
    pub(crate) cegar: bool,
    /// `analysis.checkCounterexamples`.
    pub(crate) check: bool,
    /// `counterexample.checker.config`: the second configuration, if any.
    pub(crate) second: Option<String>,
    /// `cpa.constraints.checkTargets` with a ConstraintsCPA in the
    /// composite: a target is checked precisely before it ends the run.
    pub(crate) check_targets: bool,
    /// `cegar.backupRefiner` is not NONE.
    pub(crate) backup: bool,
    /// `cegar.restart = PIVOT`: restart from the pivot instead of the root.
    pub(crate) pivot: bool,
    /// `cegar.maxIterations`.
    pub(crate) max_refinements: u64,
    /// The current CEGAR precision π.
    pub(crate) precision: Arc<VarPrecision>,
    /// Whether the composite has a Predicate CPA (CEGAR refines predicates).
    pub(crate) predicate: bool,
    /// The predicates CEGAR found so far (predicate analysis).
    pub(crate) predicates: Arc<crate::cpas::predicate::precision::PredicatePrecision>,
    /// Whether the composite has a SymExec CPA with abstraction (CEGAR
    /// refines its precision function).
    pub(crate) symexec: bool,
    /// Symbolic execution with predicate abstraction: the precision
    /// function p CEGAR found so far.
    pub(crate) symexec_precision: Arc<crate::cpas::symexec::precision::SymExecPrecision>,
    /// Predicate analysis: the other error paths to the current target
    /// (through the other operands of merges), tried in turn when a
    /// refinement of one finds no new predicate.
    pub(crate) other_paths: Vec<Vec<cfa::EdgeId>>,
    /// Refinements so far.
    pub(crate) refinements: u64,
    /// When the stage started, on the wall clock.
    started: WallClock,
    /// `restartAlgorithm.stageTimeMs` (0: no limit).
    pub(crate) time_limit_ms: u64,
}

impl Stage {
    /// The first run of the stage `name` with `config` (for CEGAR with
    /// the empty precision π₀).
    pub(crate) fn new(program: &Arc<Program>, name: String, config: Config, record_views: bool) -> Result<Stage, ConfigError> {
        let cegar = config.get("analysis.algorithm.CEGAR") == "true";
        let precision = Arc::new(VarPrecision::empty());
        let analysis = if cegar {
            build_analysis_refined(program.clone(), &config, record_views, Some(&precision))?
        } else {
            build_analysis(program.clone(), &config, record_views)?
        };
        let second = Some(config.get("counterexample.checker.config").to_string()).filter(|s| !s.is_empty());
        if let Some(s) = &second {
            Config::load(s)?;
        }
        let predicate = config.cpas().iter().any(|c| c == "cpa.predicate.PredicateCPA");
        let symexec = config.cpas().iter().any(|c| c == "cpa.symexec.SymExecCPA") && config.get("symexec.abstraction") == "true";
        let symexec_precision = Arc::new(crate::build::symexec_initial_precision(program, &config));
        #[allow(unused_mut)]
        let mut stage = Stage {
            other_paths: Vec::new(),
            predicate,
            symexec,
            symexec_precision,
            name,
            cegar,
            check: config.get("analysis.checkCounterexamples") == "true",
            check_targets: config.get("cpa.constraints.checkTargets") == "true"
                && config.get("CompositeCPA.cpas").contains("cpa.constraints.ConstraintsCPA"),
            second,
            backup: config.get("cegar.backupRefiner") != "NONE",
            pivot: config.get("cegar.restart") == "PIVOT",
            max_refinements: config.get("cegar.maxIterations").parse().unwrap_or(50),
            time_limit_ms: config.get("restartAlgorithm.stageTimeMs").parse().unwrap_or(0),
            config,
            analysis,
            precision,
            predicates: Arc::default(),
            refinements: 0,
            started: WallClock::now(),
        };
        #[cfg(not(target_arch = "wasm32"))]
        stage.analysis.set_deadline(stage.deadline());
        Ok(stage)
    }

    /// Whether the stage ran past `restartAlgorithm.stageTimeMs`.
    /// Natively and in the page alike (there the time includes waiting for
    /// the page's Z3, which is what a student waits for too).
    pub(crate) fn over_time(&self) -> bool {
        self.time_limit_ms > 0 && self.started.elapsed_ms() > self.time_limit_ms
    }

    /// When the stage must end: its start plus
    /// `restartAlgorithm.stageTimeMs`; `None` without a limit. Handed to
    /// each of its analyses ([`crate::Reachability::set_deadline`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn deadline(&self) -> Option<std::time::Instant> {
        (self.time_limit_ms > 0).then(|| self.started.at + std::time::Duration::from_millis(self.time_limit_ms))
    }

    /// What is left of `restartAlgorithm.stageTimeMs` (at least 1 ms);
    /// `None` without a limit. A solver query gets no more than this
    /// ([`smt::SolverBackend::limit_next`]).
    pub(crate) fn time_left(&self) -> Option<std::time::Duration> {
        self.started.left_of(self.time_limit_ms)
    }
}

/// A point in wall-clock time: `std::time::Instant` natively, the
/// browser's `Date.now()` in the page (where `Instant` is unavailable).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WallClock {
    #[cfg(not(target_arch = "wasm32"))]
    at: std::time::Instant,
    #[cfg(target_arch = "wasm32")]
    at_ms: f64,
}

impl WallClock {
    pub(crate) fn now() -> WallClock {
        #[cfg(not(target_arch = "wasm32"))]
        {
            WallClock { at: std::time::Instant::now() }
        }
        #[cfg(target_arch = "wasm32")]
        {
            WallClock { at_ms: js_sys::Date::now() }
        }
    }

    /// Milliseconds since [`WallClock::now`] made it.
    pub(crate) fn elapsed_ms(&self) -> u64 {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.at.elapsed().as_millis() as u64
        }
        #[cfg(target_arch = "wasm32")]
        {
            (js_sys::Date::now() - self.at_ms).max(0.0) as u64
        }
    }

    /// What is left of a limit of `limit_ms` counted from this point (at
    /// least 1 ms); `None` when `limit_ms` is 0 (no limit).
    pub(crate) fn left_of(&self, limit_ms: u64) -> Option<std::time::Duration> {
        (limit_ms > 0).then(|| std::time::Duration::from_millis(limit_ms.saturating_sub(self.elapsed_ms()).max(1)))
    }
}

/// The stages of the restart algorithm a configuration describes: each
/// file of `restartAlgorithm.configFiles` (see [`stage_config`]) when
/// `analysis.restartAfterUnknown = true`, else the configuration alone.
pub fn stages(config: &Config) -> Result<Vec<(String, Config)>, ConfigError> {
    if config.get("analysis.restartAfterUnknown") == "true" {
        let names: Vec<String> = config
            .get("restartAlgorithm.configFiles")
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        if names.is_empty() {
            return Err(ConfigError { message: "analysis.restartAfterUnknown = true needs restartAlgorithm.configFiles".into() });
        }
        let mut out = Vec::new();
        for n in names {
            let c = stage_config(&n, config)?;
            out.push((n, c));
        }
        Ok(out)
    } else {
        Ok(vec![(config.source.clone(), config.clone())])
    }
}

/// CEGAR's restart from the pivot: the pivot of the refinement `old` →
/// `new` on the error path of the run `a`:
/// the ARG state (a transfer successor) at the first path position whose
/// location's precision grew.
pub fn pivot(a: &Analysis, old: &VarPrecision, new: &VarPrecision) -> Option<StateId> {
    let grew = |l: Option<cfa::NodeId>| new.variables().iter().any(|v| new.tracks(l, *v) && !old.tracks(l, *v));
    a.target_path()?.into_iter().map(|(s, _)| s).find(|s| a.record(*s).is_some_and(|r| grew(r.location)))
}

/// `p` with every refinable component precision (Value, Octagon) replaced
/// by the refined `precision`.
pub(crate) fn with_refined_parts(p: &CompositePrecision, precision: &Arc<VarPrecision>) -> CompositePrecision {
    let parts = p
        .parts
        .iter()
        .map(|part| {
            if let Some(TrackingPrecision::Refined(_)) = part.as_any().downcast_ref::<TrackingPrecision>() {
                Arc::new(TrackingPrecision::Refined(precision.clone())) as ErasedPrecision
            } else {
                part.clone()
            }
        })
        .collect();
    CompositePrecision { parts }
}

/// The pivot of a predicate refinement `old` → `new`: the first state on
/// the error path at a location whose predicates grew (lazy abstraction
/// re-explores from there).
pub fn predicate_pivot(a: &Analysis, old: &PredicatePrecision, new: &PredicatePrecision, program: &Program) -> Option<StateId> {
    let grew = |l: Option<cfa::NodeId>| {
        let Some(l) = l else { return false };
        let f = program.nodes.get(l.0 as usize).map(|n| n.function).unwrap_or(cfa::FuncId(0));
        new.at(l, f) != old.at(l, f)
    };
    a.target_path()?.into_iter().map(|(s, _)| s).find(|s| a.record(*s).is_some_and(|r| grew(r.location)))
}

/// `p` with every predicate-analysis part replaced by `predicates`.
pub(crate) fn with_predicates(p: &CompositePrecision, predicates: &Arc<PredicatePrecision>) -> CompositePrecision {
    let parts = p
        .parts
        .iter()
        .map(|part| {
            if part.as_any().downcast_ref::<Arc<PredicatePrecision>>().is_some() {
                Arc::new(predicates.clone()) as ErasedPrecision
            } else {
                part.clone()
            }
        })
        .collect();
    CompositePrecision { parts }
}
