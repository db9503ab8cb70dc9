//! The counterexample check: is an error path the reachability algorithm
//! found real? Cheap checks first — refutation by explicit values along the
//! path, by the octagon (or by a second configuration on the CFA restricted
//! to the path's edges), confirmation by replaying all-zero inputs — then
//! the precise check: the SSA path formula ([`crate::ssa`]) on a solver and
//! a concrete replay of the model's inputs ([`solver_check`]).
//!
//! Only a concrete replay that reaches the error location confirms a path
//! (a confirmed FALSE); an infeasible path feeds CEGAR's refinement or ends
//! the run UNKNOWN (spurious). The [`crate::cegar::Verifier`] drives the
//! checks and records each as an [`crate::trace::Event::Counterexample`].

use crate::build::build_analysis;
use crate::config::Config;
use crate::feasibility;
use crate::ssa::PathFormula;
use crate::stepper::Stepper;
use crate::trace::Verdict;
use cfa::{EdgeId, Program};
use minic::IntModel;
use smt::{Response, Status};
use std::sync::Arc;

/// What the check of one error path found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathCheck {
    /// Feasible (`Some(true)`), infeasible, or undecided.
    pub feasible: Option<bool>,
    /// Whether the concrete interpreter reached the error location.
    pub confirmed: bool,
    /// Which check decided.
    pub check: String,
    /// What it found, in words.
    pub description: String,
    /// The replayed inputs (when some were found).
    pub inputs: Vec<i128>,
}

/// The nondet inputs of a replay in words, in the order the program reads
/// them: `without reading any nondet input`, `with the nondet input 5`,
/// `with the nondet inputs 5, 0 and -1`.
pub fn inputs_in_words<T: std::fmt::Display>(inputs: &[T]) -> String {
    let words: Vec<String> = inputs.iter().map(|v| v.to_string()).collect();
    match words.as_slice() {
        [] => "without reading any nondet input".to_string(),
        [one] => format!("with the nondet input {one}"),
        [init @ .., last] => format!("with the nondet inputs {} and {last}", init.join(", ")),
    }
}

/// The cheap checks of the error path `path` of a run under `config`: refutation by explicit values, by
/// the octagon (or the `second` configuration), confirmation by replaying
/// all-zero inputs. `None`: the precise check must decide.
pub fn cheap_checks(program: &Arc<Program>, config: &Config, second: Option<&str>, path: &[EdgeId]) -> Option<PathCheck> {
    let model = config.int_model();
    if let Some(i) = feasibility::value_infeasible_at(program, path, model) {
        return Some(PathCheck {
            feasible: Some(false),
            confirmed: false,
            check: "explicit values".into(),
            description: format!("explicit values refute edge {} of {} ({})", i + 1, path.len(), edge_text(program, path, i)),
            inputs: vec![],
        });
    }
    if let Some(second) = second {
        if let Some(check) = second_configuration(program, config, second, path) {
            return Some(check);
        }
    } else if let Some(i) = feasibility::octagon_infeasible_at(program, path, model) {
        return Some(PathCheck {
            feasible: Some(false),
            confirmed: false,
            check: "octagon".into(),
            description: format!(
                "the octagon along the path becomes ⊥ at edge {} of {} ({})",
                i + 1,
                path.len(),
                edge_text(program, path, i)
            ),
            inputs: vec![],
        });
    }
    zero_replay(program, path, model)
}

/// Confirmation by the simplest inputs: replaying all-zero nondet values
/// reaches the error location (no solver needed). `None` when it does not.
pub fn zero_replay(program: &Program, path: &[EdgeId], model: IntModel) -> Option<PathCheck> {
    let count = crate::ssa::path_formula(program, path, model).inputs.len();
    let zeros = vec![0; count];
    let run = feasibility::replay(program, &zeros, model, replay_steps(path));
    if matches!(run.outcome, concrete::Outcome::ReachedError { .. }) {
        return Some(PathCheck {
            feasible: Some(true),
            confirmed: true,
            check: "replay with zero inputs".into(),
            description: format!("the concrete interpreter reaches the error location ({})", run.outcome),
            inputs: zeros,
        });
    }
    None
}

/// The on-demand check of an error path a run did not check (a FALSE
/// without CEGAR or counterexample check): explicit values and the octagon
/// along the path, a replay of zero inputs — or, when none of them decides,
/// `Err` with the SSA path formula for a solver, whose answer
/// [`solver_check`] judges. Checks the path only; the run's verdict stays.
pub fn check_path_start(program: &Arc<Program>, model: IntModel, path: &[EdgeId]) -> Result<PathCheck, PathFormula> {
    let mut config = Config::defaults();
    let _ = config.set("analysis.intModel", if model == IntModel::Math { "MATH" } else { "C" });
    match cheap_checks(program, &config, None, path) {
        Some(check) => Ok(check),
        None => Err(crate::ssa::path_formula(program, path, model)),
    }
}

/// [`solver_check`] on the solver's output text (as the page's Z3 gives it).
pub fn solver_check_text(program: &Program, model: IntModel, path: &[EdgeId], formula: &PathFormula, output: &str) -> PathCheck {
    solver_check(program, model, path, formula, &smt::parse_response(output))
}

/// [`check_path_start`] finished by `solver` (natively: z3).
pub fn check_path(program: &Arc<Program>, model: IntModel, path: &[EdgeId], solver: &mut dyn smt::SolverBackend) -> PathCheck {
    match check_path_start(program, model, path) {
        Ok(check) => check,
        Err(formula) => {
            let output = solver.solve_text(&formula.smtlib);
            solver_check_text(program, model, path, &formula, &output)
        }
    }
}

/// The second configuration on the CFA restricted to the path's edges:
/// TRUE there proves the path infeasible.
fn second_configuration(program: &Program, run_config: &Config, name: &str, path: &[EdgeId]) -> Option<PathCheck> {
    let mut config = Config::load(name).ok()?;
    config.set("analysis.intModel", run_config.get("analysis.intModel")).ok()?;
    config.set("limits.steps", "2000").ok()?;
    let restricted = Arc::new(feasibility::restrict_to_path(program, path));
    let mut a = build_analysis(restricted, &config, false).ok()?;
    a.run_with(|_| {});
    match a.outcome() {
        Some((Verdict::True, _)) => Some(PathCheck {
            feasible: Some(false),
            confirmed: false,
            check: name.to_string(),
            description: format!(
                "{name} on the CFA restricted to the path's {} edges proves the error location unreachable",
                path.len()
            ),
            inputs: vec![],
        }),
        _ => None,
    }
}

/// The precise check's verdict on `path` from the solver's `response` to
/// its SSA path `formula`: on `sat` the model's inputs are replayed
/// concretely (only a replay that reaches the error confirms).
pub fn solver_check(
    program: &Program,
    model: IntModel,
    path: &[EdgeId],
    formula: &PathFormula,
    response: &Response,
) -> PathCheck {
    match response.status() {
        Status::Unsat => PathCheck {
            feasible: Some(false),
            confirmed: false,
            check: "SMT".into(),
            description: format!("the SSA path formula of the {} edges is unsatisfiable", path.len()),
            inputs: vec![],
        },
        Status::Sat => {
            let inputs: Vec<i128> =
                formula.inputs.iter().map(|i| crate::ssa::input_value(i, &response.model).unwrap_or(0)).collect();
            let run = feasibility::replay(program, &inputs, model, replay_steps(path));
            if matches!(run.outcome, concrete::Outcome::ReachedError { .. }) {
                return PathCheck {
                    feasible: Some(true),
                    confirmed: true,
                    check: "SMT model + concrete replay".into(),
                    description: format!("the concrete interpreter reaches the error location ({})", run.outcome),
                    inputs,
                };
            }
            PathCheck {
                feasible: if formula.approximated { None } else { Some(true) },
                confirmed: false,
                check: "SMT".into(),
                description: format!(
                    "the path formula is satisfiable but replaying the model's inputs does not reach the error location ({})",
                    run.outcome
                ),
                inputs,
            }
        }
        Status::Unknown => PathCheck {
            feasible: None,
            confirmed: false,
            check: "SMT".into(),
            description: format!(
                "the solver could not decide the path formula ({})",
                response.reason().unwrap_or_else(|| "no reason given".into())
            ),
            inputs: vec![],
        },
    }
}

/// [`check_path`] with the native z3 (`timeout` per query); without
/// z3 the solver's part is undecided.
#[cfg(not(target_arch = "wasm32"))]
pub fn check_path_native(program: &Arc<Program>, model: IntModel, path: &[EdgeId], timeout: std::time::Duration) -> PathCheck {
    check_path(program, model, path, &mut smt::Z3Process::system(timeout))
}

/// How many edges a replay may take: the path's length and then some.
pub(crate) fn replay_steps(path: &[EdgeId]) -> usize {
    path.len().saturating_mul(4).saturating_add(100_000)
}

/// The text of the `i`-th edge of `path`: `line N: label`.
pub(crate) fn edge_text(program: &Program, path: &[EdgeId], i: usize) -> String {
    path.get(i).and_then(|e| program.edges.get(e.0 as usize)).map(|e| format!("line {}: {}", e.line, e.label)).unwrap_or_default()
}

#[cfg(test)]
mod words_tests {
    #[test]
    fn inputs_read_as_plain_words() {
        assert_eq!(super::inputs_in_words::<i128>(&[]), "without reading any nondet input");
        assert_eq!(super::inputs_in_words(&[5]), "with the nondet input 5");
        assert_eq!(super::inputs_in_words(&[5, 0, -1]), "with the nondet inputs 5, 0 and -1");
    }
}
