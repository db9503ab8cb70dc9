//! Feasibility checks of error paths: is there a concrete execution that
//! follows the path an analysis found to a target state?
//!
//! Four checks, from cheap to precise, each sound in its own direction:
//!
//! * [`value_infeasible_at`] — the explicit-value analysis with full
//!   precision along the path: when it decides an assumption false, no
//!   execution follows the path (the Value CPA is sound). It is the check
//!   explicit-value interpolation is built on.
//! * [`octagon_infeasible`] — the Octagon CPA with full precision along the
//!   path (every variable related, intervals on nondet values): ⊥ proves the
//!   path infeasible. It refutes paths explicit values cannot (the octagon
//!   thesis's footnote: `x > 5` and `x < 3` on a nondet `x`).
//! * The SSA path formula ([`crate::ssa`]) answered by an SMT solver (an
//!   [`smt::SolverBackend`]; natively a Z3 process): `unsat` proves
//!   infeasibility; a model gives concrete nondet inputs.
//! * [`replay`] — the concrete interpreter runs the program on those
//!   inputs. Only when it reaches the error location is a FALSE verdict
//!   *confirmed*: the replay is the ground truth, whatever the solver said.
//!
//! [`restrict_to_path`] builds the program a second configuration checks a
//! counterexample on (the CFA with only the path's edges).

use crate::cpa::AbstractDomain;
use crate::cpa::{Cpa, TransferRelation};
use crate::cpas::octagon::{OctagonCpa, OctagonDomain, OctagonOptions};
use crate::cpas::value::{ValueCpa, ValueOptions, ValueState};
use crate::precision::TrackingPrecision;
use cfa::{EdgeId, Program};
use minic::IntModel;
use std::sync::Arc;

/// The first path position whose edge the explicit-value analysis (full
/// precision, starting from ⊤ at `main`'s entry) finds infeasible, or
/// `None` when it follows the whole path.
pub fn value_infeasible_at(program: &Arc<Program>, path: &[EdgeId], model: IntModel) -> Option<usize> {
    let cpa = full_value_cpa(program, model);
    value_run(&cpa, program, &ValueState::default(), path).err()
}

/// The Value CPA with full precision (for path checks and interpolation).
pub fn full_value_cpa(program: &Arc<Program>, model: IntModel) -> ValueCpa {
    ValueCpa::new(program.clone(), ValueOptions { merge_join: false, precision: TrackingPrecision::Full, int_model: model })
}

/// Runs the value transfer along `path` from `start`: `Ok(final state)` or
/// `Err(i)` when edge `i` has no successor.
pub fn value_run(cpa: &ValueCpa, program: &Program, start: &ValueState, path: &[EdgeId]) -> Result<ValueState, usize> {
    let mut s = start.clone();
    for (i, e) in path.iter().enumerate() {
        let Some(edge) = program.edges.get(e.0 as usize) else { return Err(i) };
        match cpa.successors(&s, edge, &TrackingPrecision::Full) {
            Ok(mut succ) if !succ.is_empty() => s = succ.swap_remove(0),
            Ok(_) => return Err(i),
            // A transfer error (not possible for values today): not refuted.
            Err(_) => return Ok(s),
        }
    }
    Ok(s)
}

/// The first path position where the octagon analysis (full precision,
/// merge^sep, every split kept up to a bound and joined beyond it) reaches
/// ⊥, or `None` when the path survives.
pub fn octagon_infeasible_at(program: &Arc<Program>, path: &[EdgeId], model: IntModel) -> Option<usize> {
    let cpa = OctagonCpa::new(
        program.clone(),
        OctagonOptions { int_model: model, precision: TrackingPrecision::Full, ..OctagonOptions::default() },
    );
    let entry = program.functions.get(program.main.0 as usize).map(|f| f.entry)?;
    let mut states = vec![cpa.initial_state(entry)];
    for (i, e) in path.iter().enumerate() {
        let edge = program.edges.get(e.0 as usize)?;
        let mut next = Vec::new();
        for s in &states {
            match cpa.transfer_relation().successors(s, edge, &TrackingPrecision::Full) {
                Ok(succ) => next.extend(succ),
                Err(_) => return None,
            }
        }
        if next.is_empty() {
            return Some(i);
        }
        if next.len() > 16 {
            // Keep the check cheap: the hull over-approximates (still sound).
            let joined = next.iter().skip(1).fold(next[0].clone(), |a, b| OctagonDomain.join(&a, b));
            next = vec![joined];
        }
        states = next;
    }
    None
}

/// Whether the octagon analysis along the path refutes it.
pub fn octagon_infeasible(program: &Arc<Program>, path: &[EdgeId], model: IntModel) -> bool {
    octagon_infeasible_at(program, path, model).is_some()
}

/// Runs the program concretely on `inputs` (then zeros, should it need
/// more). The execution's outcome says whether the error location was
/// reached: the ground truth that confirms a counterexample.
pub fn replay(program: &Program, inputs: &[i128], model: IntModel, max_steps: usize) -> concrete::Execution {
    let mut given = inputs.iter().copied();
    let mut source = concrete::FnInputs(move |_ty| given.next().unwrap_or(0));
    concrete::execute(program, &mut source, concrete::Options { model, max_steps, record_states: false })
}

/// The outcome of [`replay`], or — when that stops at its step limit — of
/// the accelerated replay on the same inputs
/// ([`concrete::execute_accelerated`], exact jumps over translation loops):
/// how a test judges a FALSE confirmed by counterexample acceleration
/// ([`crate::acceleration`]), whose execution may be millions of loop
/// iterations long.
pub fn replay_outcome(program: &Program, inputs: &[i128], model: IntModel, max_steps: usize) -> concrete::Outcome {
    let run = replay(program, inputs, model, max_steps);
    if !matches!(run.outcome, concrete::Outcome::StepLimit { .. }) {
        return run.outcome;
    }
    let mut given = inputs.iter().copied();
    let mut source = concrete::FnInputs(move |_ty| given.next().unwrap_or(0));
    concrete::execute_accelerated(program, &mut source, concrete::Options { model, max_steps, record_states: false })
        .execution
        .outcome
}

/// The program restricted to the edges of `path`: every node keeps only
/// the outgoing (and incoming) edges the path takes. Its executions include
/// the path's, so a TRUE verdict of any sound analysis on it proves the
/// path infeasible.
pub fn restrict_to_path(program: &Program, path: &[EdgeId]) -> Program {
    let on: std::collections::BTreeSet<EdgeId> = path.iter().copied().collect();
    let mut p = program.clone();
    for n in &mut p.nodes {
        n.outgoing.retain(|e| on.contains(e));
        n.incoming.retain(|e| on.contains(e));
    }
    p
}
