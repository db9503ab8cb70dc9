//! Counterexample acceleration for CEGAR with predicates
//! (`cpa.predicate.refinement.acceleration`): when an infeasible error path
//! unrolls a loop, the error may need that loop to run thousands or
//! millions of times — lazy abstraction refutes one unrolling per
//! refinement and never gets there. Before refining, the program is
//! replayed concretely with zero inputs by the *accelerated* interpreter
//! ([`concrete::execute_accelerated`]), which jumps over the iterations of
//! each loop whose iteration is a translation (every variable changes by a
//! constant or keeps a reset value, affine guards, no input), after checking
//! exactly, without any wrap-around, the first and the last iteration it
//! jumps over. Two phases of one loop are two jumps at the same loop head;
//! a short inner loop runs edge by edge inside the accelerated iteration of
//! its outer loop.
//!
//! The replay is a real C execution (each jump is exact), so reaching the
//! error location *confirms* a FALSE — taken only when some loop was jumped
//! over (a short loop's error stays the refinement's to find); anything
//! else changes nothing and the refinement goes on. The replay does not depend on the path (zero inputs),
//! so it runs once per verifier.

use crate::counterexample::PathCheck;
use cfa::{EdgeId, Program};
use minic::IntModel;

/// How many edges the accelerated replay may execute one by one (the
/// iterations it jumps over do not count).
pub const REPLAY_STEPS: usize = 1_000_000;

/// The accelerated replay with zero inputs: a confirmed [`PathCheck`] with
/// the executed path (each jump's iterations left out) when it jumps over
/// some loop iterations and reaches the error location; otherwise what the
/// replay did instead, in words for the refinement that follows (e.g.
/// `the zero-input accelerated replay main returned 0 (jumped over loop at
/// line 4 ×99)`).
pub fn accelerated_replay(program: &Program, model: IntModel) -> Result<(PathCheck, Vec<EdgeId>), String> {
    let mut zeros = concrete::FnInputs(|_| 0);
    let options = concrete::Options { model, max_steps: REPLAY_STEPS, record_states: false };
    let run = concrete::execute_accelerated(program, &mut zeros, options);
    // Without a jump the replay is an ordinary one, and the refinement's
    // own unrolling finds such an error (as without acceleration).
    if !matches!(run.execution.outcome, concrete::Outcome::ReachedError { .. }) || run.jumps.is_empty() {
        let jumps = if run.jumps.is_empty() {
            "no loop jumped over".to_string()
        } else {
            format!("jumped over {}", run.jumps_in_words())
        };
        return Err(format!("the zero-input accelerated replay {} ({jumps})", run.execution.outcome));
    }
    let inputs: Vec<i128> = run.execution.inputs.iter().map(|i| i.value).collect();
    let jumped: u128 = run.jumps.iter().map(|j| j.iterations).sum();
    let check = PathCheck {
        feasible: Some(true),
        confirmed: true,
        check: format!("accelerated replay: {}", run.jumps_in_words()),
        description: format!(
            "the error path unrolls a loop; the accelerated concrete replay {} reaches the error location ({}) after {} edges run one by one and {jumped} loop iterations jumped over ({}; each jump checked exactly, without wrap-around, at its first and last iteration)",
            crate::counterexample::inputs_in_words(&inputs),
            run.execution.outcome,
            run.execution.path.len(),
            run.jumps_in_words(),
        ),
        inputs,
    };
    Ok((check, run.execution.path))
}

/// Whether the acceleration is on for a run under `config`.
pub fn enabled(config: &crate::config::Config) -> bool {
    config.get("cpa.predicate.refinement.acceleration") == "true"
}
