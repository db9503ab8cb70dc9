//! SV-COMP task-definition files (`TASK.yml`, format 1.0 or 2.0): the
//! program file, the properties with their expected verdicts, and the
//! options `language` and `data_model`. `cpaplay verify TASK.yml` checks
//! the `unreach-call` property of the task and compares the verdict with
//! the expected one; `cpaplay table DIR` reads a folder of task files when
//! it has no `MANIFEST.tsv`.
//!
//! Only unreach-call is supported (a task without it is refused, naming
//! its properties), and only the `ILP32` data model — the integer model of
//! the analyses (`docs/minic.md`); `LP64` is refused with its position.

use super::CliError;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The data model the analyses implement (int and long: 32 bits).
pub const DATA_MODEL: &str = "ILP32";

/// A task file, read and checked.
#[derive(Clone, Debug)]
pub struct TaskFile {
    /// The program file (resolved against the task file's folder).
    pub input_file: PathBuf,
    /// The unreach-call property's expected verdict, if the task states one.
    pub expected: Option<bool>,
    /// The data model (`ILP32`).
    pub data_model: String,
    /// The other properties of the task, which are not checked (file names).
    pub ignored_properties: Vec<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum InputFiles {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
struct PropertyDef {
    property_file: String,
    #[serde(default)]
    expected_verdict: Option<bool>,
}

#[derive(Deserialize, Default)]
struct OptionsDef {
    #[serde(default)]
    language: Option<String>,
    #[serde(default)]
    data_model: Option<String>,
}

#[derive(Deserialize)]
struct TaskDef {
    #[allow(dead_code)]
    format_version: serde_yaml::Value,
    input_files: InputFiles,
    properties: Vec<PropertyDef>,
    #[serde(default)]
    options: Option<OptionsDef>,
}

/// `FILE:LINE:COLUMN` of the first value of `key` in `text` (for messages
/// about a value serde read without its position).
fn key_position(file: &str, text: &str, key: &str, value: &str) -> String {
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start().trim_start_matches("- ");
        if trimmed.starts_with(&format!("{key}:")) && line.contains(value) {
            let col = line.find(value).unwrap_or(0) + 1;
            return format!("{file}:{}:{col}", i + 1);
        }
    }
    format!("{file}:1:1")
}

/// Whether `path` names a task-definition file.
pub fn is_task_file(path: &str) -> bool {
    path.ends_with(".yml") || path.ends_with(".yaml")
}

/// Reads and checks the task file at `path`.
pub fn read_task(path: &str) -> Result<TaskFile, CliError> {
    let text = super::read_source(path)?;
    let def: TaskDef = serde_yaml::from_str(&text).map_err(|e| {
        let (line, col) = e.location().map(|l| (l.line(), l.column())).unwrap_or((1, 1));
        CliError::input(format!("{path}:{line}:{col}: error: not a valid SV-COMP task definition: {e}"))
    })?;
    let files = match def.input_files {
        InputFiles::One(f) => vec![f],
        InputFiles::Many(f) => f,
    };
    let [file] = files.as_slice() else {
        return Err(CliError::input(format!(
            "{}: error: the task has {} input files; cpaplay verifies one file",
            key_position(path, &text, "input_files", ""),
            files.len()
        )));
    };
    let options = def.options.unwrap_or_default();
    if let Some(lang) = options.language.as_deref().filter(|l| *l != "C") {
        return Err(CliError::input(format!(
            "{}: error: language `{lang}` is not supported (mini-C only)",
            key_position(path, &text, "language", lang)
        )));
    }
    let data_model = options.data_model.unwrap_or_else(|| DATA_MODEL.to_string());
    if data_model != DATA_MODEL {
        return Err(CliError::input(format!(
            "{}: error: data model `{data_model}` is not supported: the analyses implement ILP32 only (int and long 32 bits, docs/minic.md)",
            key_position(path, &text, "data_model", &data_model)
        )));
    }
    let name = |p: &PropertyDef| p.property_file.rsplit('/').next().unwrap_or("").trim_end_matches(".prp").to_string();
    let unreach = def.properties.iter().find(|p| name(p) == "unreach-call");
    let ignored: Vec<String> = def.properties.iter().map(name).filter(|n| n != "unreach-call").collect();
    let Some(unreach) = unreach else {
        let first = ignored.first().cloned().unwrap_or_else(|| "(none)".into());
        return Err(CliError::input(format!(
            "{}: error: property {} not supported (cpaplay checks unreach-call only)",
            key_position(path, &text, "property_file", &first),
            ignored.join(", ")
        )));
    };
    let dir = Path::new(path).parent().unwrap_or(Path::new(""));
    Ok(TaskFile { input_file: dir.join(file), expected: unreach.expected_verdict, data_model, ignored_properties: ignored })
}

/// The tasks of `dir` for `cpaplay table`: from `MANIFEST.tsv` when there
/// is one, else from the task files (`*.yml`, recursively, in name order)
/// with an unreach-call property and an expected verdict; others are
/// reported on stderr and skipped.
pub fn folder_tasks(dir: &str) -> Result<Vec<svcomp_tasks::Task>, CliError> {
    let root = Path::new(dir);
    if root.join("MANIFEST.tsv").exists() {
        return svcomp_tasks::read_folder(root).map_err(CliError::input);
    }
    let mut files = Vec::new();
    collect_yml(root, &mut files);
    files.sort();
    if files.is_empty() {
        return Err(CliError::input(format!("{dir}: neither MANIFEST.tsv nor task files (*.yml) found")));
    }
    let mut tasks = Vec::new();
    for f in files {
        let shown = f.display().to_string();
        let task = match read_task(&shown) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("skipped: {}", e.message.lines().next().unwrap_or(""));
                continue;
            }
        };
        let Some(expected) = task.expected else {
            eprintln!("skipped: {shown}: the unreach-call property has no expected verdict");
            continue;
        };
        let path = task.input_file.strip_prefix(root).unwrap_or(&task.input_file).display().to_string();
        tasks.push(svcomp_tasks::Task {
            category: path.split('/').next().unwrap_or_default().to_string(),
            path,
            expected: if expected { svcomp_tasks::Expected::True } else { svcomp_tasks::Expected::False },
            features: vec![],
            file: task.input_file,
        });
    }
    Ok(tasks)
}

fn collect_yml(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_yml(&p, out);
        } else if p.to_str().is_some_and(is_task_file) {
            out.push(p);
        }
    }
}
