//! The data of SV-COMP's YAML witness format 2.0, as serde types: a witness
//! file is a list of entries; a *violation witness* has one
//! `violation_sequence` entry (segments of waypoints ending in a `target`),
//! a *correctness witness* one `invariant_set` entry (loop invariants as C
//! expressions). Field names and spellings are the format's; the types
//! deserialize too, so tests read back what we wrote.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The format version every entry we write declares.
pub const FORMAT_VERSION: &str = "2.0";

/// One entry of a witness file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "entry_type", rename_all = "snake_case")]
pub enum Entry {
    /// A violation witness: executions that reach the error (the
    /// counterexample of a FALSE verdict).
    ViolationSequence {
        /// Provenance.
        metadata: Metadata,
        /// The segments, in execution order; the last ends in the target.
        content: Vec<SegmentItem>,
    },
    /// A correctness witness: invariants that hold at program locations in
    /// every execution (the proof of a TRUE verdict).
    InvariantSet {
        /// Provenance.
        metadata: Metadata,
        /// The invariants.
        content: Vec<InvariantItem>,
    },
}

/// Who wrote an entry, when, and for which verification task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    /// Always [`FORMAT_VERSION`].
    pub format_version: String,
    /// A unique identifier (RFC 4122 text form).
    pub uuid: String,
    /// ISO 8601 date and time of creation (UTC).
    pub creation_time: String,
    /// The tool.
    pub producer: Producer,
    /// The verification task.
    pub task: TaskInfo,
}

/// The verifier that produced the entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Producer {
    /// `cpaplay`.
    pub name: String,
    /// The crate version.
    pub version: String,
    /// The configuration (preset name or properties file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<String>,
}

/// The verification task an entry belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskInfo {
    /// The program file(s) as given to the verifier.
    pub input_files: Vec<String>,
    /// SHA-256 (lower-case hex) of each input file.
    pub input_file_hashes: BTreeMap<String, String>,
    /// The property: `G ! call(reach_error())` (unreach-call).
    pub specification: String,
    /// `ILP32` or `LP64`.
    pub data_model: String,
    /// `C`.
    pub language: String,
}

/// A list item of a violation sequence: `- segment: [...]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentItem {
    /// Waypoints: zero or more `avoid`, then exactly one `follow`.
    pub segment: Vec<WaypointItem>,
}

/// A list item of a segment: `- waypoint: {...}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaypointItem {
    /// The waypoint.
    pub waypoint: Waypoint,
}

/// A point an execution passes: where, what holds there, and whether the
/// execution must pass it (`follow`) or must not (`avoid`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waypoint {
    /// `assumption`, `branching`, `function_return` or `target`.
    #[serde(rename = "type")]
    pub kind: WaypointKind,
    /// `follow` (we write only these).
    pub action: String,
    /// Where in the source.
    pub location: Location,
    /// What holds there (absent for `target`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraint: Option<Constraint>,
}

/// The kinds of waypoints of format 2.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WaypointKind {
    /// A C expression holds before the statement at the location.
    Assumption,
    /// The branching statement (`if`, `while`, `for`) at the location takes
    /// the branch `true` or `false`.
    Branching,
    /// The call whose closing parenthesis is at the location returns a value
    /// satisfying an ACSL constraint on `\result`.
    FunctionReturn,
    /// The specification is violated here (the `reach_error()` call).
    Target,
}

/// A source position: file, 1-based line and column, enclosing function.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// One of the task's input files.
    pub file_name: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (characters).
    pub column: u32,
    /// The function the location belongs to.
    pub function: String,
}

/// A waypoint's constraint: a value in a format.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Constraint {
    /// The expression (`x == 5`, `\result == 5`, `true`).
    pub value: String,
    /// `c_expression` or `acsl_expression` (absent for `branching`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

/// A list item of an invariant set: `- invariant: {...}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvariantItem {
    /// The invariant.
    pub invariant: Invariant,
}

/// A C expression that holds every time execution reaches a location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invariant {
    /// `loop_invariant`: holds at the loop head, before each evaluation of
    /// the loop condition (the location is the loop's keyword).
    #[serde(rename = "type")]
    pub kind: String,
    /// The loop keyword's position.
    pub location: Location,
    /// The C expression.
    pub value: String,
    /// `c_expression`.
    pub format: String,
}

/// Writes entries as a YAML witness file.
pub fn to_yaml(entries: &[Entry]) -> String {
    serde_yaml::to_string(entries).expect("witness entries are plain data and always serialize")
}

/// Reads a witness file; the error names the line and column when YAML or
/// the format's structure is wrong.
pub fn from_yaml(text: &str) -> Result<Vec<Entry>, String> {
    serde_yaml::from_str(text).map_err(|e| match e.location() {
        Some(l) => format!("{}:{}: {e}", l.line(), l.column()),
        None => e.to_string(),
    })
}
