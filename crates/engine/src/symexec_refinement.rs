//! CEGAR's refinement for symbolic execution with implicit predicate
//! abstraction (Jonáš, Strejček, Griggio, Algorithm 3). An error path that
//! standard symbolic execution along it (the SSA path formula without
//! abstractions, [`crate::counterexample`]) finds infeasible is refined:
//!
//! 1. the path is cut at its abstraction points (the states whose
//!    transfer abstracted the memory, [`abstraction_cuts`]) and sequence
//!    interpolants are computed by quantifier elimination, one query per
//!    cut ([`crate::predicate_refinement::InterpolationJob::with_cuts`]);
//!    their atoms become predicates of the cuts' locations;
//! 2. the paper's back-up: when no predicate is new, the threshold of
//!    every abstraction location of the path is doubled (at least 1,
//!    [`SymExecPrecision::with_raised_thresholds`]), so the next iteration
//!    unrolls further before it abstracts;
//! 3. the search restarts from the root, or (`cegar.restart = PIVOT`)
//!    backtracks to the state of the path closest to the root whose
//!    location's precision grew ([`pivot`]).
//!
//! The driver is [`crate::cegar::Verifier`]; this module holds the pure
//! parts.

use crate::build::Analysis;
use crate::cpa::ErasedPrecision;
use crate::cpas::composite::CompositePrecision;
use crate::cpas::symexec::precision::{row, SymExecPrecision};
use crate::cpas::symexec::SymExecState;
use crate::trace::{PrecisionRow, PredicateEntry, StateId};
use cfa::{NodeId, Program};
use smt::Term;
use std::sync::Arc;

/// The positions (0-based edge indexes) of the error path after which the
/// ARG state is an abstraction point, with their locations.
pub fn abstraction_cuts(analysis: &Analysis) -> Vec<(usize, NodeId)> {
    let Some(path) = analysis.target_path() else { return Vec::new() };
    path.iter()
        .enumerate()
        .filter_map(|(i, (s, _))| {
            let rec = analysis.record(*s)?;
            let part = rec.state.parts.iter().find_map(|p| p.as_any().downcast_ref::<SymExecState>())?;
            let point = part.point.as_ref()?;
            Some((i, point.location))
        })
        .collect()
}

/// What one refinement changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymExecRefinement {
    /// The new precision function.
    pub precision: SymExecPrecision,
    /// The predicates added, for the trace.
    pub predicates_added: Vec<PredicateEntry>,
    /// The rows whose threshold was raised (with the new threshold).
    pub thresholds_raised: Vec<PrecisionRow>,
}

impl SymExecRefinement {
    /// Whether the precision grew.
    pub fn grew(&self) -> bool {
        !self.predicates_added.is_empty() || !self.thresholds_raised.is_empty()
    }

    /// The locations whose row changed.
    pub fn changed_locations(&self) -> Vec<NodeId> {
        let mut out: Vec<NodeId> = self.predicates_added.iter().filter_map(|p| p.location).collect();
        out.extend(self.thresholds_raised.iter().map(|r| r.location));
        out.sort();
        out.dedup();
        out
    }
}

/// Adds the interpolants' predicates `found` (per cut location) to `old`.
pub fn add_predicates(program: &Program, old: &SymExecPrecision, found: &[(NodeId, Vec<Term>)]) -> SymExecRefinement {
    let (precision, added) = old.with_predicates(found);
    let predicates_added = added
        .iter()
        .map(|(l, p)| PredicateEntry {
            location: Some(*l),
            scope: format!("at {l}"),
            predicate: crate::cpas::predicate::show_predicate(program, p),
        })
        .collect();
    SymExecRefinement { precision, predicates_added, thresholds_raised: Vec::new() }
}

/// The back-up: the thresholds of the path's abstraction locations `at`
/// doubled (at least 1).
pub fn raise_thresholds(program: &Program, old: &SymExecPrecision, at: &[NodeId]) -> SymExecRefinement {
    let (precision, raised) = old.with_raised_thresholds(at);
    let thresholds_raised = raised.iter().filter_map(|l| precision.at(*l).map(|p| row(program, *l, p))).collect();
    SymExecRefinement { precision, predicates_added: Vec::new(), thresholds_raised }
}

/// The whole precision as predicate entries (location, scope, predicate).
pub fn predicate_entries(program: &Program, p: &SymExecPrecision) -> Vec<PredicateEntry> {
    p.rows(program)
        .into_iter()
        .flat_map(|r| {
            r.predicates.into_iter().map(move |predicate| PredicateEntry {
                location: Some(r.location),
                scope: format!("at {}", r.location),
                predicate,
            })
        })
        .collect()
}

/// `cegar.restart = PIVOT`: the state of the error path closest to the
/// root whose location is in `changed`.
pub fn pivot(analysis: &Analysis, changed: &[NodeId]) -> Option<StateId> {
    analysis
        .target_path()?
        .into_iter()
        .map(|(s, _)| s)
        .find(|s| analysis.record(*s).and_then(|r| r.location).is_some_and(|l| changed.contains(&l)))
}

/// `p` with the SymExec part replaced by `precision`.
pub fn with_precision(p: &CompositePrecision, precision: &Arc<SymExecPrecision>) -> CompositePrecision {
    let parts = p
        .parts
        .iter()
        .map(|part| {
            if part.as_any().downcast_ref::<Arc<SymExecPrecision>>().is_some() {
                Arc::new(precision.clone()) as ErasedPrecision
            } else {
                part.clone()
            }
        })
        .collect();
    CompositePrecision { parts }
}
