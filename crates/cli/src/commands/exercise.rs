//! `cpaplay exercise check DIR`: validates an exercise set for the
//! instructor — every file well-formed (located errors otherwise), every
//! reference answer of `solutions.toml` graded right and every listed wrong
//! answer graded wrong, each by running the real analysis. Exit status 0
//! when all of that holds, 1 otherwise (messages on stderr as
//! `FILE:LINE:COLUMN: error: …`).

use super::CliError;
use exercises::answers::parse_solutions;
use exercises::load::{load_set, DirFiles, SOLUTIONS};
use std::path::PathBuf;

/// Runs `cpaplay exercise …`.
pub fn run(args: &[String]) -> Result<(), CliError> {
    match args.split_first() {
        Some((sub, rest)) if sub == "check" => check(rest),
        Some((sub, _)) => Err(CliError::usage(format!("unknown `exercise` subcommand `{sub}` (known: check)"))),
        None => Err(CliError::usage("`exercise` needs a subcommand: `cpaplay exercise check DIR`")),
    }
}

fn check(args: &[String]) -> Result<(), CliError> {
    let [dir] = args else {
        return Err(CliError::usage("`exercise check` takes exactly one set directory"));
    };
    if let Some(opt) = args.iter().find(|a| a.starts_with("--")) {
        return Err(CliError::usage(format!("unknown option `{opt}` for `exercise check`")));
    }
    let path = PathBuf::from(dir);
    let shown = |f: &str| path.join(f).display().to_string();
    let mut problems: Vec<String> = Vec::new();
    let loaded = load_set(&DirFiles(path.clone()));
    for e in &loaded.errors {
        problems.push(format!("{}:{}:{}: error: {}", shown(&e.file), e.line, e.column, e.message));
    }
    let Some(set) = loaded.set else {
        return Err(CliError::input(problems.join("\n")));
    };
    let solutions = match std::fs::read_to_string(path.join(SOLUTIONS)) {
        Ok(text) => match parse_solutions(SOLUTIONS, &text) {
            Ok(s) => s,
            Err(e) => {
                problems.push(format!("{}:{}:{}: error: {}", shown(&e.file), e.line, e.column, e.message));
                Vec::new()
            }
        },
        Err(e) => {
            problems.push(format!("{}:1:1: error: cannot read the solutions file: {e}", shown(SOLUTIONS)));
            Vec::new()
        }
    };
    let sol_file = shown(SOLUTIONS);
    let mut checked = 0usize;
    let mut cache = exercises::run::RunCache::new();
    for s in &solutions {
        let id = &s.solution.exercise;
        let at = format!("{sol_file}:{}:1", s.line);
        let Some(ex) = set.exercise(id) else {
            if !loaded.errors.iter().any(|e| e.file.trim_end_matches(".toml").ends_with(id.as_str())) {
                problems.push(format!("{at}: error: no exercise `{id}` in the set"));
            }
            continue;
        };
        if s.solution.right.is_empty() {
            problems.push(format!("{at}: error: `{id}` has no reference answer"));
        }
        if s.solution.wrong.is_empty() {
            problems.push(format!("{at}: error: `{id}` lists no wrong answer (list at least one that must fail)"));
        }
        for (i, a) in s.solution.right.iter().enumerate() {
            let fb = exercises::check_cached(ex, a, &mut cache);
            if !fb.correct {
                // The instructor sees the full explanation, with what the analysis did.
                let why = fb.solution.as_deref().unwrap_or(&fb.explanation);
                problems.push(format!("{at}: error: reference answer {} of `{id}` is graded wrong: {why}", i + 1));
            }
        }
        for (i, a) in s.solution.wrong.iter().enumerate() {
            let fb = exercises::check_cached(ex, a, &mut cache);
            if fb.correct {
                problems.push(format!("{at}: error: wrong answer {} of `{id}` is graded right: {}", i + 1, fb.explanation));
            }
        }
        checked += 1;
        println!(
            "checked {id} ({}): {} reference, {} wrong answer(s)",
            ex.question.kind(),
            s.solution.right.len(),
            s.solution.wrong.len()
        );
    }
    for ex in &set.exercises {
        if !solutions.iter().any(|s| s.solution.exercise == ex.id) {
            problems.push(format!("{}:1:1: error: `{}` has no entry in {SOLUTIONS}", shown(&ex.file), ex.id));
        }
    }
    if problems.is_empty() {
        println!(
            "exercise set `{}`: {} exercises, {checked} checked, all reference answers pass and all wrong answers fail",
            set.id,
            set.exercises.len()
        );
        Ok(())
    } else {
        Err(CliError::input(problems.join("\n")))
    }
}
