//! `cpaplay grade DIR ANSWERS.json…`: batch grading. Loads the exercise
//! set in DIR, then for every student's answers file (the JSON the page
//! exports; see `docs/exercises.md`) re-checks every answer natively by
//! running the analyses, and prints a CSV `student,exercise,points` (one
//! row per student and exercise of the set; an exercise left unanswered
//! scores 0). The points the page computed are ignored. With
//! `--first-attempt`, each exercise's first checked answer is graded
//! instead of its last (the file's `attempts`; a file without them counts
//! the last answer as the only attempt).

use super::CliError;
use exercises::answers::AnswersFile;
use exercises::load::{load_set, DirFiles};
use std::path::PathBuf;

/// A CSV field, quoted when it needs to be.
fn csv(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Points without a trailing `.0` for whole numbers.
fn points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{}", p as i64)
    } else {
        format!("{p:.2}")
    }
}

/// Runs `cpaplay grade`.
pub fn run(args: &[String]) -> Result<(), CliError> {
    let first_attempt = args.iter().any(|a| a == "--first-attempt");
    let args: Vec<String> = args.iter().filter(|a| *a != "--first-attempt").cloned().collect();
    if let Some(opt) = args.iter().find(|a| a.starts_with("--")) {
        return Err(CliError::usage(format!("unknown option `{opt}` for `grade` (it has --first-attempt)")));
    }
    let Some((dir, files)) = args.split_first() else {
        return Err(CliError::usage("`grade` needs a set directory and answers files: `cpaplay grade DIR ANSWERS.json...`"));
    };
    if files.is_empty() {
        return Err(CliError::usage("`grade` needs at least one answers file"));
    }
    let path = PathBuf::from(dir);
    let loaded = load_set(&DirFiles(path.clone()));
    let located = |file: &str, l: u32, c: u32, m: &str| format!("{}:{l}:{c}: error: {m}", path.join(file).display());
    if !loaded.errors.is_empty() || loaded.set.is_none() {
        let msgs: Vec<String> = loaded.errors.iter().map(|e| located(&e.file, e.line, e.column, &e.message)).collect();
        return Err(CliError::input(format!(
            "{}\nthe set does not load cleanly; fix it first (cpaplay exercise check {dir})",
            msgs.join("\n")
        )));
    }
    let set = loaded.set.expect("checked above");
    let mut sheets = Vec::new();
    for f in files {
        let text = super::read_source(f)?;
        let a = AnswersFile::parse(f, &text).map_err(|e| CliError::input(e.to_string()))?;
        if a.set != set.id {
            return Err(CliError::input(format!("{f}:1:1: error: answers for set `{}`, but {dir} is set `{}`", a.set, set.id)));
        }
        if let Some(unknown) = a.answers.keys().find(|k| set.exercise(k).is_none()) {
            eprintln!("{f}: warning: no exercise `{unknown}` in set `{}` (ignored)", set.id);
        }
        sheets.push(a);
    }
    // Each distinct analysis runs once for the whole class (runs are
    // deterministic): most answers need the exercise's own run.
    let mut cache = exercises::run::RunCache::new();
    println!("student,exercise,points");
    for a in &sheets {
        for ex in &set.exercises {
            let p = match a.graded(&ex.id, first_attempt) {
                Some(answer) => exercises::check_cached(ex, answer, &mut cache).points,
                None => 0.0,
            };
            println!("{},{},{}", csv(&a.student), csv(&ex.id), points(p));
        }
    }
    Ok(())
}
