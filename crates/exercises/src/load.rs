//! The validating loader: exercise files and set indexes in, validated
//! [`Exercise`]s and located [`LoadError`]s out.
//!
//! Exercise files are untrusted text. Nothing here panics on any input:
//! a TOML syntax error, a missing or unknown key, a wrong type, an unknown
//! preset or option, a program that does not parse, a location the program
//! does not have — each becomes one `file:line:column: message` error, the
//! exercise is left out, and the rest of the set still loads.
//!
//! Files are read through [`SetFiles`], so the page can hand in files it
//! fetched and the command line files from disk.

use crate::model::{ConfigSpec, Exercise, ExerciseSet, Question, StateDomain};
use crate::FORMAT_VERSION;
use serde::Deserialize;
use std::fmt;
use toml::Spanned;

/// A problem with an exercise file, located in it (1-based line and column;
/// both 1 when the problem is about the whole file).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LoadError {
    /// The file, relative to the set directory (`03-join.toml`).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for LoadError {
    /// `file:line:column: error: message`, as compilers print.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: error: {}", self.file, self.line, self.column, self.message)
    }
}

impl LoadError {
    fn at(file: &str, text: &str, offset: usize, message: impl Into<String>) -> LoadError {
        let (line, column) = line_col(text, offset);
        LoadError { file: file.to_string(), line, column, message: message.into() }
    }
}

/// 1-based line and column (in characters) of byte `offset` in `text`
/// (clamped to the text; never panics).
pub fn line_col(text: &str, offset: usize) -> (u32, u32) {
    let mut offset = offset.min(text.len());
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) as u32 + 1;
    (line, col)
}

/// Where the loader reads a set's files from: paths are relative to the set
/// directory (`set.toml`, `03-join.toml`, `listing.c`).
pub trait SetFiles {
    /// The file's text, or why it cannot be read.
    fn read(&self, path: &str) -> Result<String, String>;
}

impl<F: Fn(&str) -> Result<String, String>> SetFiles for F {
    fn read(&self, path: &str) -> Result<String, String> {
        self(path)
    }
}

/// A set directory on disk (native only).
#[cfg(not(target_arch = "wasm32"))]
pub struct DirFiles(pub std::path::PathBuf);

#[cfg(not(target_arch = "wasm32"))]
impl SetFiles for DirFiles {
    fn read(&self, path: &str) -> Result<String, String> {
        let bytes = std::fs::read(self.0.join(path)).map_err(|e| format!("cannot read file: {e}"))?;
        String::from_utf8(bytes).map_err(|_| "the file is not UTF-8 text".to_string())
    }
}

/// The name of a set's index file.
pub const SET_INDEX: &str = "set.toml";
/// The name of a set's instructor file (never loaded by the page).
pub const SOLUTIONS: &str = "solutions.toml";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    format: Spanned<i64>,
    id: Spanned<String>,
    title: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    reveal_after: Option<Spanned<i64>>,
    exercises: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProgram {
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    source: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExercise {
    format: Spanned<i64>,
    id: Spanned<String>,
    title: Spanned<String>,
    prompt: Spanned<String>,
    #[serde(default = "one")]
    points: Spanned<u32>,
    program: Spanned<RawProgram>,
    config: Spanned<ConfigSpec>,
    question: Spanned<Question>,
    #[serde(default)]
    hints: Vec<String>,
}

fn one() -> Spanned<u32> {
    Spanned::new(0..0, 1)
}

/// The result of loading a set: the set (absent only when its index is
/// unusable) and every problem found, in file order.
#[derive(Clone, Debug, Default)]
pub struct SetLoad {
    /// The set with every exercise that loaded.
    pub set: Option<ExerciseSet>,
    /// The located problems (the exercises they concern are left out).
    pub errors: Vec<LoadError>,
}

fn toml_error(file: &str, text: &str, e: toml::de::Error) -> LoadError {
    let offset = e.span().map(|s| s.start).unwrap_or(0);
    let mut message = e.message().trim().to_string();
    // The TOML parser has no words for some syntax errors (`1 =`).
    if message.is_empty() {
        message = "invalid TOML here: expected a value, `key = value`, a `[table]` or a comment".into();
    }
    LoadError::at(file, text, offset, message)
}

fn check_version(file: &str, text: &str, v: &Spanned<i64>) -> Result<(), LoadError> {
    if *v.get_ref() != FORMAT_VERSION as i64 {
        return Err(LoadError::at(
            file,
            text,
            v.span().start,
            format!("format version {} is not supported (this playground reads format = {FORMAT_VERSION})", v.get_ref()),
        ));
    }
    Ok(())
}

/// An id as the format allows it (sets, exercises, set directories): 1 to
/// 64 of `a-z`, `0-9` and `-` — so an id is always a plain file name.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// A path inside the set directory: relative, no `..`, no backslash.
fn valid_relative_path(p: &str) -> bool {
    !p.is_empty()
        && !p.starts_with('/')
        && !p.contains('\\')
        && !p.contains(':')
        && p.split('/').all(|seg| !seg.is_empty() && seg != ".." && seg != ".")
}

/// How an exercise names a program of the examples gallery: the gallery
/// `static/examples/` seen from a set directory `static/exercises/<set>/`
/// (the page serves both folders side by side, so the same relative path
/// is the URL it fetches).
pub const EXAMPLES_DIR: &str = "../../examples/";

/// A program file an exercise may name: a path inside the set directory, or
/// [`EXAMPLES_DIR`] followed by a path inside the gallery. No other `..`.
pub fn valid_program_path(p: &str) -> bool {
    valid_relative_path(p.strip_prefix(EXAMPLES_DIR).unwrap_or(p))
}

/// The name of the file that lists the sets, in `static/exercises/`.
pub const SETS_INDEX: &str = "index.toml";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawIndex {
    format: Spanned<i64>,
    sets: Vec<Spanned<String>>,
}

/// Reads the list of sets ([`SETS_INDEX`]): the set directories the page
/// offers, in order (each a plain directory name).
pub fn parse_index(text: &str) -> Result<Vec<String>, LoadError> {
    let raw: RawIndex = toml::from_str(text).map_err(|e| toml_error(SETS_INDEX, text, e))?;
    check_version(SETS_INDEX, text, &raw.format)?;
    let mut out = Vec::new();
    for s in raw.sets {
        if !valid_id(s.get_ref()) {
            return Err(LoadError::at(SETS_INDEX, text, s.span().start, "a set directory name is 1 to 64 of a-z, 0-9 and -"));
        }
        out.push(s.into_inner());
    }
    Ok(out)
}

/// Loads a set: its index [`SET_INDEX`] and every exercise it lists.
pub fn load_set(files: &dyn SetFiles) -> SetLoad {
    let mut out = SetLoad::default();
    let text = match files.read(SET_INDEX) {
        Ok(t) => t,
        Err(e) => {
            out.errors.push(LoadError { file: SET_INDEX.into(), line: 1, column: 1, message: e });
            return out;
        }
    };
    let raw: RawSet = match toml::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            out.errors.push(toml_error(SET_INDEX, &text, e));
            return out;
        }
    };
    if let Err(e) = check_version(SET_INDEX, &text, &raw.format) {
        out.errors.push(e);
        return out;
    }
    if !valid_id(raw.id.get_ref()) {
        out.errors.push(LoadError::at(SET_INDEX, &text, raw.id.span().start, "a set id is 1 to 64 of a-z, 0-9 and -"));
        return out;
    }
    let reveal_after = match &raw.reveal_after {
        None => None,
        Some(n) if (1..=1000).contains(n.get_ref()) => Some(*n.get_ref() as u32),
        Some(n) => {
            out.errors.push(LoadError::at(
                SET_INDEX,
                &text,
                n.span().start,
                "reveal_after is the number of checked answers (1 to 1000) after which the answer is shown; leave it out to show it only after a right answer",
            ));
            return out;
        }
    };
    let mut set = ExerciseSet {
        id: raw.id.get_ref().clone(),
        title: raw.title,
        description: raw.description,
        exercises: Vec::new(),
        reveal_after,
    };
    for entry in &raw.exercises {
        let name = entry.get_ref();
        if !valid_relative_path(name) || !name.ends_with(".toml") || name == SET_INDEX || name == SOLUTIONS {
            out.errors.push(LoadError::at(
                SET_INDEX,
                &text,
                entry.span().start,
                format!("`{name}` is not an exercise file of this directory (a relative path ending in .toml)"),
            ));
            continue;
        }
        match load_exercise(files, name) {
            Ok(ex) => {
                if set.exercises.iter().any(|e| e.id == ex.id) {
                    out.errors.push(LoadError {
                        file: name.clone(),
                        line: 1,
                        column: 1,
                        message: format!("duplicate exercise id `{}`", ex.id),
                    });
                } else {
                    set.exercises.push(ex);
                }
            }
            Err(e) => out.errors.push(e),
        }
    }
    out.set = Some(set);
    out
}

/// Loads and validates one exercise file `name` of the set.
pub fn load_exercise(files: &dyn SetFiles, name: &str) -> Result<Exercise, LoadError> {
    let text = files.read(name).map_err(|m| LoadError { file: name.to_string(), line: 1, column: 1, message: m })?;
    parse_exercise(name, &text, files)
}

/// Parses and validates exercise text (named `name` in messages); a program
/// `file` is read through `files`.
pub fn parse_exercise(name: &str, text: &str, files: &dyn SetFiles) -> Result<Exercise, LoadError> {
    let raw: RawExercise = toml::from_str(text).map_err(|e| toml_error(name, text, e))?;
    let at = |offset: usize, m: String| LoadError::at(name, text, offset, m);
    check_version(name, text, &raw.format)?;
    if !valid_id(raw.id.get_ref()) {
        return Err(at(raw.id.span().start, "an exercise id is 1 to 64 of a-z, 0-9 and -".into()));
    }
    if raw.title.get_ref().trim().is_empty() {
        return Err(at(raw.title.span().start, "the title is empty".into()));
    }
    if raw.prompt.get_ref().trim().is_empty() {
        return Err(at(raw.prompt.span().start, "the prompt is empty".into()));
    }
    if *raw.points.get_ref() > 1000 {
        return Err(at(raw.points.span().start, "points must be between 0 and 1000".into()));
    }
    // The program: exactly one of `file` and `source`.
    let p_at = raw.program.span().start;
    let (program, program_file) = match (&raw.program.get_ref().file, &raw.program.get_ref().source) {
        (Some(f), None) => {
            if !valid_program_path(f) {
                return Err(at(
                    p_at,
                    format!(
                        "program file `{f}` must be a relative path inside the set directory, \
                         or `{EXAMPLES_DIR}NAME.c` for a program of the examples gallery"
                    ),
                ));
            }
            let src = files.read(f).map_err(|m| at(p_at, format!("program file `{f}`: {m}")))?;
            (src, Some(f.clone()))
        }
        (None, Some(s)) => (s.clone(), None),
        _ => return Err(at(p_at, "[program] needs exactly one of `file` and `source`".into())),
    };
    if program.len() > 200_000 {
        return Err(at(p_at, "the program is longer than 200000 bytes".into()));
    }
    let parsed = cfa::from_source(&program).map_err(|diags| {
        let d = diags.first();
        let (l, c, m) = d.map(|d| (d.span.line, d.span.col, d.message.clone())).unwrap_or((1, 1, "does not parse".into()));
        match &program_file {
            Some(f) => LoadError { file: f.clone(), line: l.max(1), column: c.max(1), message: m },
            None => {
                let (pl, _) = line_col(text, p_at);
                LoadError {
                    file: name.to_string(),
                    line: pl,
                    column: 1,
                    message: format!("the program's line {l}, column {c}: {m}"),
                }
            }
        }
    })?;
    // The configuration.
    let c_at = raw.config.span().start;
    let spec = raw.config.get_ref();
    let mut config = engine::Config::preset(&spec.preset)
        .map_err(|e| at(locate(text, c_at, "preset"), format!("[config] preset: {}", e.message)))?;
    for (k, v) in &spec.set {
        config.set(k, v).map_err(|e| at(locate(text, c_at, k), format!("[config] set: {}", strip_origin(&e.message))))?;
    }
    let q_at = raw.question.span().start;
    let question = raw.question.into_inner();
    validate_question(&question, &config, &parsed, spec)
        .map_err(|(needle, m)| at(locate(text, q_at, needle), format!("[question] ({}): {m}", question.kind())))?;
    Ok(Exercise {
        id: raw.id.into_inner(),
        title: raw.title.into_inner(),
        prompt: raw.prompt.into_inner(),
        points: raw.points.into_inner(),
        program,
        program_file,
        config: raw.config.into_inner(),
        question,
        hints: raw.hints,
        file: name.to_string(),
    })
}

/// The offset of the first `needle` at or after `from` (a key inside a
/// table), or `from` when it is not found.
fn locate(text: &str, from: usize, needle: &str) -> usize {
    if needle.is_empty() {
        return from;
    }
    let rest = text.get(from..).unwrap_or("");
    // A key at the start of a line, then a quoted key, then anywhere.
    rest.find(&format!("\n{needle}"))
        .map(|i| i + 1)
        .or_else(|| rest.find(&format!("\"{needle}\"")))
        .or_else(|| rest.find(needle))
        .map(|i| from + i)
        .unwrap_or(from)
}

/// A configuration message without the engine's `--set: ` origin (the
/// origin here is the exercise file).
fn strip_origin(m: &str) -> &str {
    m.strip_prefix("--set: ").unwrap_or(m)
}

fn has_cpa(config: &engine::Config, class: &str) -> bool {
    config.cpas().iter().any(|c| c == class)
}

/// Symbolic execution with implicit predicate abstraction (SymExecCPA with
/// `symexec.abstraction = true`), whose abstraction points and p-simple
/// pruning some questions count.
fn runs_symexec_abstraction(config: &engine::Config) -> bool {
    has_cpa(config, "cpa.symexec.SymExecCPA") && config.get_bool("symexec.abstraction")
}

/// A CEGAR loop whose refinements add predicates — predicate analysis or
/// symbolic execution with predicate abstraction — which a question about
/// refinement predicates needs.
fn need_predicate_cegar(config: &engine::Config) -> Result<(), (&'static str, String)> {
    let refines_predicates = has_cpa(config, "cpa.predicate.PredicateCPA") || runs_symexec_abstraction(config);
    if !refines_predicates || !config.get_bool("analysis.algorithm.CEGAR") {
        return Err((
            "",
            "a predicates question needs predicate analysis or symbolic execution with predicate abstraction, with CEGAR (the `predicate` or `symexec-predabs` presets)".into(),
        ));
    }
    Ok(())
}

/// Checks a question's parameters against the configuration and the
/// program; an error says which key (a text to locate) and what is wrong.
fn validate_question<'q>(
    q: &'q Question,
    config: &engine::Config,
    program: &cfa::Program,
    spec: &ConfigSpec,
) -> Result<(), (&'q str, String)> {
    match q {
        Question::Verdict => Ok(()),
        Question::Count { measure, .. } => {
            if measure.needs_symexec_abstraction() && !runs_symexec_abstraction(config) {
                return Err((
                    "measure",
                    format!(
                        "`{}` counts symbolic execution with predicate abstraction (cpa.symexec.SymExecCPA with symexec.abstraction = true, the `symexec-predabs` preset)",
                        measure.words()
                    ),
                ));
            }
            Ok(())
        }
        Question::ChooseConfiguration { presets, open, max_states: _ } => {
            for p in presets {
                engine::Config::preset(p).map_err(|e| (p.as_str(), e.message))?;
            }
            for (key, values) in open {
                let decl = engine::config::option(key)
                    .ok_or_else(|| (key.as_str(), format!("`{key}` is not a configuration option")))?;
                for v in values {
                    let mut c = engine::Config::defaults();
                    c.set(decl.key, v).map_err(|e| (key.as_str(), strip_origin(&e.message).to_string()))?;
                }
            }
            if open.is_empty() && presets.iter().all(|p| *p == spec.preset) {
                return Err(("", "nothing is open to the student: list `presets` or `open` keys".into()));
            }
            Ok(())
        }
        Question::Separate { a, b } => {
            a.to_config().map_err(|e| ("a]", format!("a: {}", strip_origin(&e.message))))?;
            b.to_config().map_err(|e| ("b]", format!("b: {}", strip_origin(&e.message))))?;
            Ok(())
        }
        Question::AbstractState { location, domain } => {
            location.resolve(program).map_err(|m| ("location", m))?;
            let need = match domain {
                StateDomain::Value => "cpa.value.ValueAnalysisCPA",
                StateDomain::Octagon | StateDomain::Interval => "cpa.octagon.OctagonCPA",
            };
            if !has_cpa(config, need) {
                return Err(("domain", format!("the configuration does not run {need}, whose states the question asks for")));
            }
            Ok(())
        }
        Question::Precision { .. } => {
            if !has_cpa(config, "cpa.value.ValueAnalysisCPA") {
                return Err(("", "a precision question needs the value analysis (cpa.value.ValueAnalysisCPA)".into()));
            }
            Ok(())
        }
        Question::NextStep { step, ask } => {
            if *step == 0 {
                return Err(("step", "steps are numbered from 1".into()));
            }
            if ask.is_empty() {
                return Err(("ask", "`ask` lists no question".into()));
            }
            Ok(())
        }
        Question::Invariant { location } => {
            let n = location.resolve(program).map_err(|m| ("location", m))?;
            if !program.nodes.iter().any(|x| x.id == n && x.loop_head) {
                return Err(("location", format!("N{} is not a loop head", n.0)));
            }
            if program.nodes.iter().filter(|x| x.loop_head).count() != 1 {
                return Err(("location", "invariant questions need a program with exactly one loop".into()));
            }
            if program.edges.iter().any(|e| matches!(e.kind, cfa::EdgeKind::Call { .. })) {
                return Err(("", "invariant questions need a program without calls of defined functions".into()));
            }
            if program.error_nodes().next().is_none() {
                return Err(("", "the program has no error location, so there is nothing the invariant must exclude".into()));
            }
            Ok(())
        }
        Question::Predicates { location, refinement } => {
            location.resolve(program).map_err(|m| ("location", m))?;
            if *refinement == 0 {
                return Err(("refinement", "refinements are numbered from 1".into()));
            }
            need_predicate_cegar(config)
        }
        Question::TransformedLine { line, choices } => {
            if !(2..=8).contains(&choices.len()) {
                return Err(("choices", "offer 2 to 8 transformed operations".into()));
            }
            if !program.edges.iter().any(|e| e.line == *line) {
                return Err(("line", format!("line {line} has no statement (no CFA edge comes from it)")));
            }
            if config.get("analysis.algorithm.transformExplorer") != "true" {
                return Err(("", "the configuration does not explore a transformed program (use a transform-… preset)".into()));
            }
            let right = crate::transformed::right_choices(program, config, *line, choices).map_err(|m| ("", m))?;
            if right.len() != 1 {
                return Err(("choices", format!("exactly one choice must be the transformed operation; {} are", right.len())));
            }
            Ok(())
        }
        Question::Abstraction { state, choices } => {
            if *state == 0 {
                return Err(("state", "abstraction states are numbered from 1 (`s1`)".into()));
            }
            if !(2..=8).contains(&choices.len()) {
                return Err(("choices", "offer 2 to 8 formulas".into()));
            }
            for (i, c) in choices.iter().enumerate() {
                crate::predicates::parse_formula(program, c).map_err(|m| ("choices", format!("choice {}: {m}", i + 1)))?;
            }
            if !has_cpa(config, "cpa.predicate.PredicateCPA") {
                return Err((
                    "",
                    "the configuration does not run cpa.predicate.PredicateCPA, whose abstractions the question asks for".into(),
                ));
            }
            Ok(())
        }
    }
}
