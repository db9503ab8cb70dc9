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
//! * The SSA path formula ([`crate::ssa`]) answered by an SMT solver
//!   ([`PathSolver`]): `unsat` proves infeasibility; a model gives concrete
//!   nondet inputs.
//! * [`replay`] — the concrete interpreter runs the program on those
//!   inputs. Only when it reaches the error location is a FALSE verdict
//!   *confirmed*: the replay is the ground truth, whatever the solver said.
//!
//! [`restrict_to_path`] builds the program a second configuration checks a
//! counterexample on (the CFA with only the path's edges).

use crate::cpa::{Cpa, TransferRelation};
use crate::cpas::octagon::{OctagonCpa, OctagonDomain, OctagonOptions, OctagonPrecision};
use crate::cpas::value::{ValueCpa, ValueOptions, ValuePrecision, ValueState};
use crate::cpa::AbstractDomain;
use cfa::{EdgeId, Program};
use minic::IntModel;
use std::sync::Arc;

/// A solver's answer to a path formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverAnswer {
    /// Satisfiable, with the values of the requested constants (absent
    /// ones are unconstrained).
    Sat(Vec<(String, i128)>),
    /// Unsatisfiable: the path is infeasible.
    Unsat,
    /// The solver gave up (timeout, non-linear arithmetic) or failed; the
    /// text says why.
    Unknown(String),
}

impl SolverAnswer {
    /// `sat`, `unsat` or `unknown`, as SMT-LIB2 prints it.
    pub fn word(&self) -> &'static str {
        match self {
            SolverAnswer::Sat(_) => "sat",
            SolverAnswer::Unsat => "unsat",
            SolverAnswer::Unknown(_) => "unknown",
        }
    }
}

/// Something that answers SMT-LIB2 scripts ending in `(check-sat)` and an
/// optional `(get-value (…))`. Natively a Z3 process ([`Z3Process`]); in the
/// page, whatever the page provides. A solver must be deterministic for the
/// trace to be (same script, same answer).
pub trait PathSolver: Send {
    /// Answers `script`; `names` are the constants whose values to return
    /// on `sat`.
    fn solve(&mut self, script: &str, names: &[String]) -> SolverAnswer;
}

/// Parses a solver's output: the first line is `sat`/`unsat`/`unknown`,
/// followed (on `sat`) by the answer to `(get-value (…))`, e.g.
/// `((in_0 5) (in_1 (- 3)))`.
pub fn parse_solver_output(out: &str) -> SolverAnswer {
    let mut lines = out.lines().map(str::trim).filter(|l| !l.is_empty());
    match lines.next() {
        Some("unsat") => SolverAnswer::Unsat,
        Some("sat") => {
            let rest: String = lines.collect::<Vec<_>>().join(" ");
            SolverAnswer::Sat(parse_values(&rest))
        }
        Some(other) => SolverAnswer::Unknown(other.chars().take(200).collect()),
        None => SolverAnswer::Unknown("no answer".into()),
    }
}

/// `((a 5) (b (- 3)) (|x@1| 0))` → `[("a", 5), ("b", -3), ("x@1", 0)]`.
fn parse_values(text: &str) -> Vec<(String, i128)> {
    // Tokens: parentheses, and atoms.
    let mut tokens = Vec::new();
    let mut cur = String::new();
    for ch in text.chars() {
        match ch {
            '(' | ')' => {
                if !cur.is_empty() {
                    tokens.push(std::mem::take(&mut cur));
                }
                tokens.push(ch.to_string());
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    tokens.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        tokens.push(cur);
    }
    let mut out = Vec::new();
    let mut i = 0;
    // Each pair: ( name value ) with value = int | ( - int )
    while i < tokens.len() {
        if tokens[i] == "(" && i + 2 < tokens.len() && tokens[i + 1] != "(" {
            let name = tokens[i + 1].trim_matches('|').to_string();
            let (value, next) = if tokens[i + 2] == "(" && i + 5 < tokens.len() && tokens[i + 3] == "-" {
                (tokens[i + 4].parse::<i128>().ok().map(|v| -v), i + 6)
            } else {
                (tokens[i + 2].parse::<i128>().ok(), i + 3)
            };
            if let Some(v) = value {
                out.push((name, v));
                i = next;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Z3 as a native process (`z3 -in -smt2`, one process per query, with a
/// per-query timeout). Not available in the browser.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Debug)]
pub struct Z3Process {
    /// The executable (`z3`).
    pub program: String,
    /// Per-query timeout in milliseconds (Z3's `-t:`).
    pub timeout_ms: u64,
}

#[cfg(not(target_arch = "wasm32"))]
impl Z3Process {
    /// Z3 from `PATH`, if it runs (`z3 -version`).
    pub fn detect() -> Option<Z3Process> {
        let ok = std::process::Command::new("z3")
            .arg("-version")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Z3Process { program: "z3".into(), timeout_ms: 5000 })
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl PathSolver for Z3Process {
    fn solve(&mut self, script: &str, _names: &[String]) -> SolverAnswer {
        use std::io::Write;
        use std::process::{Command, Stdio};
        let child = Command::new(&self.program)
            .arg("-in")
            .arg("-smt2")
            .arg(format!("-t:{}", self.timeout_ms))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match child {
            Ok(c) => c,
            Err(e) => return SolverAnswer::Unknown(format!("cannot start {}: {e}", self.program)),
        };
        if let Some(mut stdin) = child.stdin.take() {
            if stdin.write_all(script.as_bytes()).is_err() {
                let _ = child.kill();
                return SolverAnswer::Unknown("cannot write to the solver".into());
            }
        }
        match child.wait_with_output() {
            Ok(out) => parse_solver_output(&String::from_utf8_lossy(&out.stdout)),
            Err(e) => SolverAnswer::Unknown(format!("solver failed: {e}")),
        }
    }
}

/// The first path position whose edge the explicit-value analysis (full
/// precision, starting from ⊤ at `main`'s entry) finds infeasible, or
/// `None` when it follows the whole path.
pub fn value_infeasible_at(program: &Arc<Program>, path: &[EdgeId], model: IntModel) -> Option<usize> {
    let cpa = full_value_cpa(program, model);
    value_run(&cpa, program, &ValueState::default(), path).err()
}

/// The Value CPA with full precision (for path checks and interpolation).
pub fn full_value_cpa(program: &Arc<Program>, model: IntModel) -> ValueCpa {
    ValueCpa::new(program.clone(), ValueOptions { merge_join: false, precision: ValuePrecision::Full, int_model: model })
}

/// Runs the value transfer along `path` from `start`: `Ok(final state)` or
/// `Err(i)` when edge `i` has no successor.
pub fn value_run(cpa: &ValueCpa, program: &Program, start: &ValueState, path: &[EdgeId]) -> Result<ValueState, usize> {
    let mut s = start.clone();
    for (i, e) in path.iter().enumerate() {
        let Some(edge) = program.edges.get(e.0 as usize) else { return Err(i) };
        match cpa.successors(&s, edge, &ValuePrecision::Full) {
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
        OctagonOptions { int_model: model, precision: OctagonPrecision::Full, ..OctagonOptions::default() },
    );
    let entry = program.functions.get(program.main.0 as usize).map(|f| f.entry)?;
    let mut states = vec![cpa.initial_state(entry)];
    for (i, e) in path.iter().enumerate() {
        let edge = program.edges.get(e.0 as usize)?;
        let mut next = Vec::new();
        for s in &states {
            match cpa.transfer_relation().successors(s, edge, &OctagonPrecision::Full) {
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
    let mut given = inputs.to_vec().into_iter();
    let mut source = concrete::FnInputs(move |_ty| given.next().unwrap_or(0));
    concrete::execute(program, &mut source, concrete::Options { model, max_steps, record_states: false })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_models_and_answers() {
        assert_eq!(parse_solver_output("unsat\n(error \"model is not available\")"), SolverAnswer::Unsat);
        assert_eq!(
            parse_solver_output("sat\n((in_0 5)\n (in_1 (- 3)))"),
            SolverAnswer::Sat(vec![("in_0".into(), 5), ("in_1".into(), -3)])
        );
        assert!(matches!(parse_solver_output("unknown"), SolverAnswer::Unknown(_)));
        assert!(matches!(parse_solver_output(""), SolverAnswer::Unknown(_)));
    }
}
