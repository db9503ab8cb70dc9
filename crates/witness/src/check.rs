//! Checking a witness against the program it is about, with the concrete
//! interpreter: the nondet values a violation witness prescribes (in
//! order), and a mini-C program that evaluates a loop invariant on given
//! variable values — `reach_error()` when the invariant is false. The
//! writer uses the latter to keep only invariants mini-C reads as C, and
//! the tests to check every invariant on concrete runs.

use crate::format::{Entry, WaypointKind};
use cfa::{Program, VarId};

/// The values a violation witness feeds the program, in execution order:
/// `\result == v` of each `function_return` waypoint and `x == v` of each
/// `assumption` waypoint. `Err` names a constraint that is not of that shape.
pub fn prescribed_inputs(entries: &[Entry]) -> Result<Vec<i128>, String> {
    let mut out = Vec::new();
    for entry in entries {
        let Entry::ViolationSequence { content, .. } = entry else { continue };
        for w in content.iter().flat_map(|s| &s.segment).map(|w| &w.waypoint) {
            if !matches!(w.kind, WaypointKind::FunctionReturn | WaypointKind::Assumption) {
                continue;
            }
            let text = w.constraint.as_ref().map(|c| c.value.as_str()).unwrap_or("");
            let value = text.rsplit("==").next().unwrap_or("").trim().trim_end_matches(['L', 'U']);
            out.push(
                value
                    .parse()
                    .map_err(|_| format!("waypoint at line {}: constraint `{text}` is not `… == value`", w.location.line))?,
            );
        }
    }
    Ok(out)
}

/// A mini-C program that reads `vars` (each from a nondet value, in this
/// order, as its own type) and calls `reach_error()` unless `invariant`
/// holds.
pub fn invariant_program(program: &Program, vars: &[(VarId, String)], invariant: &str) -> String {
    let mut text = String::from(
        "extern void reach_error(void);\nextern long long __VERIFIER_nondet_longlong(void);\nextern unsigned long long __VERIFIER_nondet_ulonglong(void);\nint main(void) {\n",
    );
    for (id, name) in vars {
        let ty = program.variable(*id).ty;
        let read = if ty.is_signed() { "__VERIFIER_nondet_longlong" } else { "__VERIFIER_nondet_ulonglong" };
        text.push_str(&format!("  {} {name} = {read}();\n", ty.c_name()));
    }
    text.push_str(&format!("  if (!({invariant})) reach_error();\n  return 0;\n}}\n"));
    text
}

/// The check program of `invariant` ([`invariant_program`]) as a CFA;
/// `Err` when mini-C does not read the invariant as an expression.
pub fn compile_invariant(program: &Program, vars: &[(VarId, String)], invariant: &str) -> Result<Program, String> {
    cfa::from_source(&invariant_program(program, vars, invariant))
        .map_err(|d| format!("`{invariant}` is not a mini-C expression: {:?}", d.first().map(|d| &d.message)))
}

/// Whether the invariant compiled into `check` holds for the variable
/// values `values` (in the order of its variables); `Err` when its
/// evaluation is undefined.
pub fn holds(check: &Program, values: &[i128]) -> Result<bool, String> {
    let exec = concrete::execute(check, &mut concrete::SliceInputs::new(values.to_vec()), concrete::Options::default());
    match exec.outcome {
        concrete::Outcome::ReachedError { .. } => Ok(false),
        concrete::Outcome::Returned { .. } => Ok(true),
        other => Err(format!("evaluating the invariant: {other}")),
    }
}

/// Whether `invariant` holds for the variable values `values` (in the order
/// of `vars`); `Err` when the check program does not compile or the
/// evaluation is undefined.
pub fn invariant_holds(program: &Program, vars: &[(VarId, String)], invariant: &str, values: &[i128]) -> Result<bool, String> {
    holds(&compile_invariant(program, vars, invariant)?, values)
}

/// What [`check_structure`] found in a witness file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Waypoints per type name, in file order.
    pub waypoints: Vec<String>,
    /// Invariants (their C expressions).
    pub invariants: Vec<String>,
}

/// Checks a witness file's structure against the format 2.0 (read as
/// plain YAML, independently of the serde types that wrote it): a list of
/// entries with `entry_type`, `metadata` (format version `2.0`, a UUID, an
/// ISO 8601 time, producer name and version, the task with the hash of
/// `source` under its file name, the specification, `ILP32`/`LP64`, `C`)
/// and `content`; waypoints of the four types with action `follow`,
/// locations inside `source`, a constraint where the type needs one, and
/// exactly one `target`, the last; invariants of type `loop_invariant` in
/// format `c_expression`.
pub fn check_structure(text: &str, source: &str) -> Result<Summary, String> {
    use serde_yaml::Value;
    let doc: Value = serde_yaml::from_str(text).map_err(|e| format!("not YAML: {e}"))?;
    let entries = doc.as_sequence().ok_or("the witness is not a list of entries")?;
    if entries.is_empty() {
        return Err("the witness has no entry".into());
    }
    let str_at = |v: &Value, path: &[&str]| -> Result<String, String> {
        let mut cur = v;
        for k in path {
            cur = cur.get(*k).ok_or_else(|| format!("missing key `{}`", path.join(".")))?;
        }
        cur.as_str().map(str::to_string).ok_or_else(|| format!("`{}` is not a string", path.join(".")))
    };
    let lines: Vec<&str> = source.lines().collect();
    let hash = crate::metadata::sha256_hex(source.as_bytes());
    let mut summary = Summary::default();
    for entry in entries {
        let kind = str_at(entry, &["entry_type"])?;
        if str_at(entry, &["metadata", "format_version"])? != "2.0" {
            return Err("format_version is not 2.0".into());
        }
        let uuid = str_at(entry, &["metadata", "uuid"])?;
        let groups: Vec<usize> = uuid.split('-').map(str::len).collect();
        if groups != [8, 4, 4, 4, 12] || !uuid.chars().all(|c| c == '-' || c.is_ascii_hexdigit()) {
            return Err(format!("uuid `{uuid}` is not in RFC 4122 form"));
        }
        let time = str_at(entry, &["metadata", "creation_time"])?;
        if time.len() != 20 || &time[4..5] != "-" || &time[10..11] != "T" || !time.ends_with('Z') {
            return Err(format!("creation_time `{time}` is not ISO 8601 UTC"));
        }
        str_at(entry, &["metadata", "producer", "name"])?;
        str_at(entry, &["metadata", "producer", "version"])?;
        let task = entry.get("metadata").and_then(|m| m.get("task")).ok_or("missing key `metadata.task`")?;
        let files = task.get("input_files").and_then(Value::as_sequence).ok_or("task.input_files is not a list")?;
        let file = files.first().and_then(Value::as_str).ok_or("task.input_files is empty")?.to_string();
        if str_at(task, &["input_file_hashes", &file])? != hash {
            return Err(format!("the hash of {file} is not the source's SHA-256"));
        }
        if str_at(task, &["specification"])? != crate::metadata::UNREACH_CALL {
            return Err("specification is not unreach-call".into());
        }
        if !matches!(str_at(task, &["data_model"])?.as_str(), "ILP32" | "LP64") || str_at(task, &["language"])? != "C" {
            return Err("data_model/language not ILP32|LP64 and C".into());
        }
        let content = entry.get("content").and_then(Value::as_sequence).ok_or("content is not a list")?;
        let check_location = |l: &Value| -> Result<(), String> {
            if str_at(l, &["file_name"])? != file {
                return Err("a location's file_name is not the input file".into());
            }
            str_at(l, &["function"])?;
            let line = l.get("line").and_then(Value::as_u64).ok_or("location.line is not a number")? as usize;
            let column = l.get("column").and_then(Value::as_u64).ok_or("location.column is not a number")? as usize;
            let text = lines.get(line.wrapping_sub(1)).ok_or_else(|| format!("line {line} is not in the file"))?;
            if column == 0 || column > text.chars().count() {
                return Err(format!("column {column} is not inside line {line}"));
            }
            Ok(())
        };
        match kind.as_str() {
            "violation_sequence" => {
                for seg in content {
                    let waypoints = seg.get("segment").and_then(Value::as_sequence).ok_or("a segment is not a list")?;
                    if waypoints.is_empty() {
                        return Err("an empty segment".into());
                    }
                    for w in waypoints {
                        let w = w.get("waypoint").ok_or("a segment item is not a waypoint")?;
                        let ty = str_at(w, &["type"])?;
                        if str_at(w, &["action"])? != "follow" {
                            return Err("an action other than follow".into());
                        }
                        check_location(w.get("location").ok_or("a waypoint without location")?)?;
                        let needs = match ty.as_str() {
                            "assumption" | "function_return" => true,
                            "branching" => {
                                let v = str_at(w, &["constraint", "value"])?;
                                if v != "true" && v != "false" {
                                    return Err(format!("branching constraint `{v}`"));
                                }
                                true
                            }
                            "target" => false,
                            other => return Err(format!("unknown waypoint type `{other}`")),
                        };
                        if needs {
                            str_at(w, &["constraint", "value"])?;
                        }
                        summary.waypoints.push(ty);
                    }
                }
                let targets = summary.waypoints.iter().filter(|t| *t == "target").count();
                if targets != 1 || summary.waypoints.last().map(String::as_str) != Some("target") {
                    return Err(format!("{targets} target waypoints; exactly one, at the end, expected"));
                }
            }
            "invariant_set" => {
                for item in content {
                    let inv = item.get("invariant").ok_or("an invariant_set item is not an invariant")?;
                    if str_at(inv, &["type"])? != "loop_invariant" || str_at(inv, &["format"])? != "c_expression" {
                        return Err("an invariant that is not a loop_invariant in c_expression format".into());
                    }
                    check_location(inv.get("location").ok_or("an invariant without location")?)?;
                    summary.invariants.push(str_at(inv, &["value"])?);
                }
            }
            other => return Err(format!("unknown entry_type `{other}`")),
        }
    }
    Ok(summary)
}
