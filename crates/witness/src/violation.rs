//! Violation witnesses: the confirmed error path of a FALSE verdict as a
//! `violation_sequence`. The confirmed inputs are replayed by the concrete
//! interpreter, and the execution it takes becomes the waypoints, one
//! segment each, in execution order:
//!
//! * `function_return` at the closing parenthesis of each nondet call
//!   (`__VERIFIER_nondet_int()` or an undefined function), constraint
//!   `\result == v` — the values that steer the execution;
//! * `assumption` `x == v` before a statement that reads an uninitialized
//!   variable (the interpreter takes an input for it, too);
//! * `branching` at the keyword of each `if`/`while` whose whole condition
//!   the path decides (`true`/`false`);
//! * the final `target` at the violating call.

use crate::format::{Constraint, Entry, Location, SegmentItem, Waypoint, WaypointItem, WaypointKind};
use crate::metadata::RunInfo;
use crate::source_map::SourceMap;
use cfa::{Edge, EdgeKind, Program, Rhs};
use concrete::{Options, Outcome, SliceInputs};
use minic::IntModel;

/// How many edges the replay may take.
const REPLAY_STEPS: usize = 5_000_000;

/// The violation witness of the execution that `inputs` (the nondet
/// values, in the order the program reads them) drive to the error
/// location; `Err` when the concrete interpreter does not reach it.
pub fn violation_witness(program: &Program, source: &str, run: &RunInfo, inputs: &[i128]) -> Result<Vec<Entry>, String> {
    let options = Options { model: IntModel::C, max_steps: REPLAY_STEPS, record_states: false };
    let exec = concrete::execute(program, &mut SliceInputs::new(inputs.to_vec()), options);
    if !matches!(exec.outcome, Outcome::ReachedError { .. }) {
        return Err(format!("replaying the inputs does not reach the error location ({})", exec.outcome));
    }
    let map = SourceMap::new(source);
    let location = |edge: &Edge, offset: usize| {
        let p = map.position(offset);
        Location {
            file_name: run.file_name.clone(),
            line: p.line,
            column: p.column,
            function: program.function(program.node(edge.source).function).name.clone(),
        }
    };
    let mut waypoints = Vec::new();
    let mut next_input = 0;
    for (step, id) in exec.path.iter().enumerate() {
        let edge = program.edge(*id);
        // The inputs the interpreter took while at this edge's source.
        while let Some(used) = exec.inputs.get(next_input) {
            if program.edge(used.edge).source != edge.source {
                break;
            }
            next_input += 1;
            let at = program.edge(used.edge);
            let is_call = matches!(&at.kind,
                EdgeKind::Assign { var, rhs: Rhs::Nondet(_) } | EdgeKind::Declare { var, init: Some(Rhs::Nondet(_)) }
                    if Some(*var) == used.var);
            let waypoint = match (is_call, used.var) {
                (true, _) => map.call_close_paren(at.span.start, at.span.end).map(|close| Waypoint {
                    kind: WaypointKind::FunctionReturn,
                    action: "follow".into(),
                    location: location(at, close),
                    constraint: Some(Constraint {
                        value: format!("\\result == {}", crate::c_int(used.value)),
                        format: Some("acsl_expression".into()),
                    }),
                }),
                // A read of memory never written takes an input into a
                // temporary the source does not name: no waypoint for it.
                (false, Some(var)) if matches!(program.variable(var).scope, cfa::VarScope::Temp(_)) => None,
                (false, Some(var)) => Some(Waypoint {
                    kind: WaypointKind::Assumption,
                    action: "follow".into(),
                    location: location(at, at.span.start),
                    constraint: Some(Constraint {
                        value: format!("{} == {}", program.variable(var).name, crate::c_int(used.value)),
                        format: Some("c_expression".into()),
                    }),
                }),
                (false, None) => None,
            };
            waypoints.extend(waypoint);
        }
        let last = step + 1 == exec.path.len();
        if last {
            waypoints.push(Waypoint {
                kind: WaypointKind::Target,
                action: "follow".into(),
                location: location(edge, map.target(edge.span.start)),
                constraint: None,
            });
        } else if let EdgeKind::Assume { positive, .. } = edge.kind {
            let branches = program.node(edge.source).outgoing.len();
            if let (2, Some((at, _))) = (branches, map.branching_keyword(edge.span.start, edge.span.end)) {
                waypoints.push(Waypoint {
                    kind: WaypointKind::Branching,
                    action: "follow".into(),
                    location: location(edge, at),
                    constraint: Some(Constraint { value: positive.to_string(), format: None }),
                });
            }
        }
    }
    let content = waypoints.into_iter().map(|waypoint| SegmentItem { segment: vec![WaypointItem { waypoint }] }).collect();
    Ok(vec![Entry::ViolationSequence { metadata: run.metadata("violation_sequence"), content }])
}
