//! CEGAR's refinement step: from an infeasible error path to a larger
//! precision `π' ⊋ π` (and the [`Event::Refinement`] that records it).
//!
//! * [`crate::interpolation`] — explicit-value interpolation, the main
//!   refiner: the interpolants' variables are tracked where they hold.
//! * [`assumption_closure`] — the octagon thesis's backup refiner, for
//!   paths explicit values cannot refute but a more precise check can: the
//!   variables of the path's assumptions and, transitively, those their
//!   values depend on along the path (tracked at every location).
//!
//! Refinement only ever adds to the precision, so every CEGAR iteration is
//! itself a sound analysis.

use crate::interpolation::{interpolate, refine_with_interpolants, Interpolant};
use crate::precision::VarPrecision;
use crate::trace::{Event, InterpolantView, PrecisionEntry};
use cfa::{EdgeId, EdgeKind, Program, Rhs, VarId};
use minic::IntModel;
use std::collections::BTreeSet;
use std::sync::Arc;

/// How much effort explicit-value interpolation may spend minimizing
/// (transfers) before it keeps the remaining strongest posts whole.
pub const INTERPOLATION_BUDGET: u64 = 400_000;

/// What one refinement found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refined {
    /// The refiner that refuted the path: `interpolation` or `assumptions`.
    pub refiner: &'static str,
    /// The refined precision π'.
    pub precision: VarPrecision,
    /// The interpolants along the path (interpolation only).
    pub interpolants: Vec<Interpolant>,
    /// Whether π' ⊋ π (else CEGAR makes no progress).
    pub grew: bool,
}

/// Refines `old` with the infeasible `path`: by explicit-value
/// interpolation, else (with `backup`, `cegar.backupRefiner`) by the
/// assumption closure tracked everywhere. `None` when neither applies.
pub fn refine(program: &Arc<Program>, path: &[EdgeId], model: IntModel, old: &VarPrecision, backup: bool) -> Option<Refined> {
    let mut precision = old.clone();
    if let Some(interpolants) = interpolate(program, path, model, INTERPOLATION_BUDGET) {
        let grew = refine_with_interpolants(&mut precision, &interpolants);
        return Some(Refined { refiner: "interpolation", precision, interpolants, grew });
    }
    if !backup {
        return None;
    }
    let mut grew = false;
    for v in assumption_closure(program, path) {
        grew |= precision.add_global(v);
    }
    Some(Refined { refiner: "assumptions", precision, interpolants: Vec::new(), grew })
}

/// The [`Event::Refinement`] of the CEGAR iteration `iteration`: the
/// refinement `old` → `r.precision` of the infeasible `path` (refuted by
/// the check named `check`), with the interpolants, the added entries and
/// the whole precision.
pub fn refinement_event(
    program: &Program,
    old: &VarPrecision,
    r: &Refined,
    path: Vec<EdgeId>,
    check: &str,
    iteration: u32,
) -> Event {
    let name = |v: &cfa::VarId| program.variables.get(v.0 as usize).map(|x| x.qualified.clone()).unwrap_or_default();
    let entry = |l: Option<cfa::NodeId>, v: cfa::VarId| PrecisionEntry { location: l, var: v, name: name(&v) };
    let added: Vec<PrecisionEntry> = r.precision.added_since(old).into_iter().map(|(l, v)| entry(l, v)).collect();
    let mut tracked: Vec<PrecisionEntry> = r.precision.global.iter().map(|v| entry(None, *v)).collect();
    for (l, s) in &r.precision.local {
        tracked.extend(s.iter().map(|v| entry(Some(*l), *v)));
    }
    let views: Vec<InterpolantView> = r
        .interpolants
        .iter()
        .map(|it| InterpolantView {
            position: it.position,
            edge: it.edge,
            location: it.location,
            text: match &it.bindings {
                None => "false".into(),
                Some(b) => {
                    format!("{{{}}}", b.iter().map(|(v, x)| format!("{}={x}", name(v))).collect::<Vec<_>>().join(", "))
                }
            },
        })
        .collect();
    let added_text = added
        .iter()
        .map(|e| match e.location {
            Some(l) => format!("{} at {l}", e.name),
            None => format!("{} everywhere", e.name),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let precision_text = r.precision.describe(program);
    Event::Refinement {
        precision: precision_text,
        reason: format!("the error path is infeasible ({check}); the {} refiner adds {added_text}", r.refiner),
        iteration,
        refiner: r.refiner.into(),
        path,
        interpolants: views,
        added,
        tracked,
        predicates_added: Vec::new(),
        predicates: Vec::new(),
        thresholds_raised: Vec::new(),
        precision_function: Vec::new(),
        from_path_invariants: Vec::new(),
    }
}

/// The backup refiner's variables: those of the path's assumptions and,
/// going backwards along the path, every variable their values flow from
/// (assignments, parameters from arguments, results from return slots).
pub fn assumption_closure(program: &Program, path: &[EdgeId]) -> BTreeSet<VarId> {
    let mut need: BTreeSet<VarId> = BTreeSet::new();
    for e in path.iter().rev() {
        let Some(edge) = program.edges.get(e.0 as usize) else { continue };
        match &edge.kind {
            EdgeKind::Assume { cond, .. } => need.extend(cond.variables()),
            EdgeKind::Declare { var, init: Some(Rhs::Expr(x)) } | EdgeKind::Assign { var, rhs: Rhs::Expr(x) }
                if need.contains(var) =>
            {
                need.extend(x.variables())
            }
            EdgeKind::Call { callee, args, .. } => {
                if let Some(f) = program.functions.get(callee.0 as usize) {
                    for (p, a) in f.params.iter().zip(args) {
                        if need.contains(p) {
                            need.extend(a.variables());
                        }
                    }
                }
            }
            EdgeKind::Return { callee, result: Some(r), .. } if need.contains(r) => {
                if let Some(slot) = program.functions.get(callee.0 as usize).and_then(|f| f.ret) {
                    need.insert(slot);
                }
            }
            EdgeKind::ReturnStatement { value: Some(x) } => {
                let slot = program.return_slot_at(edge.source);
                if slot.is_some_and(|s| need.contains(&s)) {
                    need.extend(x.variables());
                }
            }
            _ => {}
        }
    }
    need
}
