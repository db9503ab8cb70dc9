//! The files around grading: a student's answers file (exported by the
//! page, read by `cpaplay grade`) and the instructor's solutions file.
//!
//! **Answers file** (JSON, `format` = [`crate::FORMAT_VERSION`]):
//!
//! ```json
//! { "format": 1, "student": "alice", "set": "cpa-basics",
//!   "answers": { "verdict-false-alarm": { "kind": "verdict", "verdict": "false" } },
//!   "results": { "verdict-false-alarm": { "points": 1.0 } } }
//! ```
//!
//! `results` is what the page computed; graders ignore it and recompute.
//! `attempts` lists every answer checked per exercise, first to last (the
//! last is the one in `answers`); a file without it (written before
//! attempts were recorded) counts its `answers` as the only attempt.
//! `cpaplay grade --first-attempt` scores each exercise's first attempt
//! ([`AnswersFile::graded`]).
//!
//! **Solutions file** (`solutions.toml`, beside `set.toml`; the page never
//! loads it): per exercise, reference answers that must pass and known-wrong
//! answers that must fail.

use crate::load::{line_col, LoadError};
use crate::model::Answer;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A student's answers to one set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnswersFile {
    /// The format version.
    pub format: u32,
    /// Who answered (as the course knows them).
    pub student: String,
    /// The set's id.
    pub set: String,
    /// The answer per exercise id (the last one checked).
    #[serde(default)]
    pub answers: BTreeMap<String, Answer>,
    /// Every answer checked per exercise id, first to last.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attempts: BTreeMap<String, Vec<Answer>>,
    /// What the page computed (informational; graders recompute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub results: Option<serde_json::Value>,
}

impl AnswersFile {
    /// Reads an answers file; errors are located (`line:column`) in `file`.
    pub fn parse(file: &str, text: &str) -> Result<AnswersFile, LoadError> {
        let a: AnswersFile = serde_json::from_str(text).map_err(|e| LoadError {
            file: file.to_string(),
            line: e.line().max(1) as u32,
            column: e.column().max(1) as u32,
            message: e.to_string(),
        })?;
        if a.format != crate::FORMAT_VERSION {
            return Err(LoadError {
                file: file.into(),
                line: 1,
                column: 1,
                message: format!("answers format {} is not supported", a.format),
            });
        }
        Ok(a)
    }

    /// The answer to grade for exercise `id`: the last one, or with
    /// `first_attempt` the first one checked (the last one when the file
    /// records no attempts for it).
    pub fn graded(&self, id: &str, first_attempt: bool) -> Option<&Answer> {
        if first_attempt {
            if let Some(first) = self.attempts.get(id).and_then(|a| a.first()) {
                return Some(first);
            }
        }
        self.answers.get(id)
    }
}

/// The reference and known-wrong answers of one exercise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// The exercise's id.
    pub exercise: String,
    /// Answers that must be graded right.
    pub right: Vec<Answer>,
    /// Answers that must be graded wrong.
    #[serde(default)]
    pub wrong: Vec<Answer>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSolutions {
    format: u32,
    #[serde(default)]
    solution: Vec<toml::Spanned<Solution>>,
}

/// A solution with the line it starts on in the solutions file.
#[derive(Clone, Debug, PartialEq)]
pub struct LocatedSolution {
    /// The solution.
    pub solution: Solution,
    /// 1-based line of its `[[solution]]` entry.
    pub line: u32,
}

/// Reads a solutions file (named `file` in messages).
pub fn parse_solutions(file: &str, text: &str) -> Result<Vec<LocatedSolution>, LoadError> {
    let raw: RawSolutions = toml::from_str(text).map_err(|e| {
        let (line, column) = line_col(text, e.span().map(|s| s.start).unwrap_or(0));
        LoadError { file: file.into(), line, column, message: e.message().trim().to_string() }
    })?;
    if raw.format != crate::FORMAT_VERSION {
        return Err(LoadError {
            file: file.into(),
            line: 1,
            column: 1,
            message: format!("format {} is not supported", raw.format),
        });
    }
    Ok(raw
        .solution
        .into_iter()
        .map(|s| {
            let line = line_col(text, s.span().start).0;
            LocatedSolution { solution: s.into_inner(), line }
        })
        .collect())
}
