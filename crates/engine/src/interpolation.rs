//! Refinement by interpolation: explicit-value path interpolation (Beyer &
//! Löwe, FASE 2013), CEGAR's main refiner.
//!
//! For an error path `e₁ … eₙ` that the explicit-value analysis refutes,
//! [`interpolate`] computes for each position `i` an *interpolant* `Iᵢ`: a
//! partial assignment (some variables with their values) such that
//! `I₀ = ⊤`, the value post of `Iᵢ₋₁` along `eᵢ` implies `Iᵢ`, and the rest
//! of the path `eᵢ₊₁ … eₙ` is infeasible from `Iᵢ`. It starts from the
//! strongest post `ψ` of `Iᵢ₋₁` and drops every variable whose value the
//! suffix does not need to stay infeasible. Tracking `dom(Iᵢ)` at the
//! location after `eᵢ` ([`refine_with_interpolants`]) makes the refined
//! analysis refute the same path, because its states on the path are at
//! least as precise as the interpolants; variables the refutation does not
//! need (loop counters) are never tracked.

use crate::cpa::TransferRelation;
use crate::cpas::value::ValueState;
use crate::feasibility::{full_value_cpa, value_run};
use crate::precision::{TrackingPrecision, VarPrecision};
use cfa::{EdgeId, NodeId, Program, VarId};
use minic::IntModel;
use std::collections::BTreeSet;
use std::sync::Arc;

/// One interpolant of an error path: what must be tracked after edge
/// `position` (at `location`) for the path to stay refuted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interpolant {
    /// The path position (0-based edge index).
    pub position: usize,
    /// The edge.
    pub edge: EdgeId,
    /// The location after the edge (where the variables are tracked).
    pub location: NodeId,
    /// The variables of the interpolant with their values, sorted;
    /// `None` for `false` (the path is already refuted here).
    pub bindings: Option<Vec<(VarId, i128)>>,
}

/// The interpolants of a path the explicit-value analysis refutes
/// (positions up to and including the refuting edge), or `None` when the
/// value analysis does not refute it. `budget` bounds the number of
/// transfers spent on minimizing; past it, interpolants are the full
/// strongest posts (still correct, less minimal).
pub fn interpolate(program: &Arc<Program>, path: &[EdgeId], model: IntModel, budget: u64) -> Option<Vec<Interpolant>> {
    let cpa = full_value_cpa(program, model);
    let k = value_run(&cpa, program, &ValueState::default(), path).err()?;
    let path = &path[..=k];
    let mut spent: u64 = 0;
    let mut out = Vec::with_capacity(path.len());
    let mut prev = ValueState::default();
    let mut refuted = false;
    for (i, e) in path.iter().enumerate() {
        let edge = program.edges.get(e.0 as usize)?;
        if refuted {
            out.push(Interpolant { position: i, edge: *e, location: edge.target, bindings: None });
            continue;
        }
        let succ = cpa.successors(&prev, edge, &TrackingPrecision::Full).ok().unwrap_or_default();
        let Some(mut psi) = succ.into_iter().next() else {
            refuted = true;
            out.push(Interpolant { position: i, edge: *e, location: edge.target, bindings: None });
            continue;
        };
        let suffix = &path[i + 1..];
        // Drop every variable the suffix does not need to stay infeasible.
        let candidates: BTreeSet<VarId> =
            psi.values.keys().copied().chain(psi.frames.iter().flat_map(|f| f.keys().copied())).collect();
        for x in candidates {
            if spent > budget {
                break;
            }
            let mut weaker = psi.clone();
            weaker.values.remove(&x);
            for f in &mut weaker.frames {
                f.remove(&x);
            }
            spent += suffix.len() as u64 + 1;
            if value_run(&cpa, program, &weaker, suffix).is_err() {
                psi = weaker;
            }
        }
        let mut vars: BTreeSet<VarId> = psi.values.keys().copied().collect();
        for f in &psi.frames {
            vars.extend(f.keys().copied());
        }
        let bindings = vars.iter().map(|v| (*v, psi.values.get(v).copied().unwrap_or(0))).collect();
        out.push(Interpolant { position: i, edge: *e, location: edge.target, bindings: Some(bindings) });
        prev = psi;
    }
    Some(out)
}

/// Adds the interpolants' variables to `precision` at their locations.
/// Returns whether it grew.
pub fn refine_with_interpolants(precision: &mut VarPrecision, interpolants: &[Interpolant]) -> bool {
    let mut grew = false;
    for it in interpolants {
        if let Some(b) = &it.bindings {
            for (v, _) in b {
                grew |= precision.add_local(it.location, *v);
            }
        }
    }
    grew
}
