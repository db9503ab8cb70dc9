//! `cpaplay bench DIR --config NAME[,NAME...] [--int-model math|c]
//! [--max-steps N] [--set key=value]... [--only TEXT] [--json]`: runs every
//! task of an SV-COMP folder (as `table` does) under each configuration
//! and reports how fast, not only what: per task and per configuration the
//! wall-clock time, the waitlist pops (steps) and pops per second, the
//! solver queries of the trace, the scripts the native `z3` ran and the
//! time spent waiting for them, and queries per second. The verdicts are
//! counted as in `table` (correct, wrong TRUE, unknown, false alarms), so
//! a speed-up can be checked not to cost a verdict. `--only TEXT` keeps
//! the tasks whose path contains `TEXT`. Figures depend on the machine
//! and its load: compare runs made one after the other on one machine
//! (`docs/performance.md`).

use super::cfa::load_program;
use super::verify::{make_config, parse_args, verify};
use super::CliError;
use engine::Verdict;
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One task under one configuration.
struct TaskRun {
    task: String,
    expected: String,
    verdict: String,
    /// `correct`, `wrong TRUE`, `false alarm`, `unknown`.
    judgement: &'static str,
    steps: u64,
    queries: u64,
    solver_scripts: u64,
    wall: Duration,
    solver: Duration,
}

/// Events per second, 0 when no time passed.
fn rate(count: u64, time: Duration) -> f64 {
    if time.is_zero() {
        0.0
    } else {
        count as f64 / time.as_secs_f64()
    }
}

fn judge(verdict: Verdict, expected: &str) -> &'static str {
    match (verdict, expected) {
        (Verdict::True, "false") => "wrong TRUE",
        (Verdict::False, "true") => "false alarm",
        (Verdict::Unknown, _) => "unknown",
        _ => "correct",
    }
}

impl TaskRun {
    fn json(&self) -> serde_json::Value {
        json!({
            "task": self.task,
            "expected": self.expected,
            "verdict": self.verdict,
            "judgement": self.judgement,
            "steps": self.steps,
            "solver_queries": self.queries,
            "solver_scripts": self.solver_scripts,
            "wall_ms": self.wall.as_secs_f64() * 1e3,
            "solver_ms": self.solver.as_secs_f64() * 1e3,
            "queries_per_s": rate(self.queries, self.wall),
            "pops_per_s": rate(self.steps, self.wall),
        })
    }

    fn line(&self) -> String {
        format!(
            "{:<48} {:>7} {:>8} {:>7} {:>7} {:>7} {:>9.0} {:>9.0} {:>8.0} {:>9.0}",
            self.task,
            self.expected,
            self.verdict,
            self.steps,
            self.queries,
            self.solver_scripts,
            self.wall.as_secs_f64() * 1e3,
            self.solver.as_secs_f64() * 1e3,
            rate(self.queries, self.wall),
            rate(self.steps, self.wall),
        )
    }
}

/// The totals of one configuration.
fn totals_json(name: &str, runs: &[TaskRun]) -> serde_json::Value {
    let wall: Duration = runs.iter().map(|r| r.wall).sum();
    let solver: Duration = runs.iter().map(|r| r.solver).sum();
    let steps: u64 = runs.iter().map(|r| r.steps).sum();
    let queries: u64 = runs.iter().map(|r| r.queries).sum();
    let scripts: u64 = runs.iter().map(|r| r.solver_scripts).sum();
    let count = |j: &str| runs.iter().filter(|r| r.judgement == j).count();
    json!({
        "configuration": name,
        "tasks": runs.len(),
        "correct": count("correct"),
        "wrong_true": count("wrong TRUE"),
        "false_alarms": count("false alarm"),
        "unknown": count("unknown"),
        "steps": steps,
        "solver_queries": queries,
        "solver_scripts": scripts,
        "wall_ms": wall.as_secs_f64() * 1e3,
        "solver_ms": solver.as_secs_f64() * 1e3,
        "solver_share": if wall.is_zero() { 0.0 } else { solver.as_secs_f64() / wall.as_secs_f64() },
        "queries_per_s": rate(queries, wall),
        "pops_per_s": rate(steps, wall),
    })
}

/// Splits `--only TEXT` off the arguments (the rest are `table`'s).
fn take_only(args: &[String]) -> Result<(Option<String>, Vec<String>), CliError> {
    let mut only = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--only" {
            only = Some(it.next().cloned().ok_or_else(|| CliError::usage("`--only` needs a value"))?);
        } else if let Some(v) = a.strip_prefix("--only=") {
            only = Some(v.to_string());
        } else {
            rest.push(a.clone());
        }
    }
    Ok((only, rest))
}

/// Runs `cpaplay bench`.
pub fn run(args: &[String]) -> Result<(), CliError> {
    let (only, args) = take_only(args)?;
    let a = parse_args("bench", &args)?;
    let [dir] = a.files.as_slice() else {
        return Err(CliError::usage("`bench` takes exactly one directory (holding MANIFEST.tsv)"));
    };
    let Some(config_list) = a.config.clone() else {
        return Err(CliError::usage("`bench` needs --config NAME[,NAME...]"));
    };
    let names: Vec<String> = config_list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    let configs = names.iter().map(|n| make_config(Some(n), &a)).collect::<Result<Vec<_>, _>>()?;
    let mut tasks = super::task::folder_tasks(dir)?;
    if let Some(o) = &only {
        tasks.retain(|t| t.path.contains(o.as_str()));
    }
    let mut programs = Vec::new();
    for task in &tasks {
        match load_program(&task.file.display().to_string()) {
            Ok(p) => programs.push((task, Arc::new(p))),
            Err(e) => eprintln!("{}: skipped: {}", task.path, e.message.lines().next().unwrap_or("")),
        }
    }
    let mut report = Vec::new();
    for (name, config) in names.iter().zip(&configs) {
        if !a.json {
            println!("## {name}\n");
            println!(
                "{:<48} {:>7} {:>8} {:>7} {:>7} {:>7} {:>9} {:>9} {:>8} {:>9}",
                "task", "expect", "verdict", "steps", "queries", "z3", "wall ms", "z3 ms", "query/s", "pops/s"
            );
        }
        let mut runs = Vec::new();
        for (task, program) in &programs {
            let before = smt::solver_totals();
            let started = Instant::now();
            let out = verify(program.clone(), config)?;
            let wall = started.elapsed();
            let solver = smt::solver_totals().since(before);
            let expected = task.expected.lower().to_string();
            let run = TaskRun {
                task: task.path.clone(),
                judgement: judge(out.verdict, &expected),
                expected,
                verdict: out.verdict.lower().to_string(),
                steps: out.stats.steps,
                queries: out.stats.solver_queries,
                solver_scripts: solver.scripts,
                wall,
                solver: solver.time,
            };
            if !a.json {
                println!("{}", run.line());
            }
            runs.push(run);
        }
        let totals = totals_json(name, &runs);
        if !a.json {
            print_totals(&totals, &runs);
        }
        report.push(
            json!({ "configuration": name, "totals": totals, "tasks": runs.iter().map(TaskRun::json).collect::<Vec<_>>() }),
        );
    }
    if a.json {
        let doc = json!({ "folder": dir, "configurations": report });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    }
    Ok(())
}

fn print_totals(t: &serde_json::Value, runs: &[TaskRun]) {
    let f = |k: &str| t[k].as_f64().unwrap_or(0.0);
    let u = |k: &str| t[k].as_u64().unwrap_or(0);
    println!(
        "\ntotal: {} tasks, {} correct, {} wrong TRUE, {} false alarms, {} unknown",
        u("tasks"),
        u("correct"),
        u("wrong_true"),
        u("false_alarms"),
        u("unknown")
    );
    println!(
        "       wall {:.1} s, z3 {:.1} s ({:.0} %), {} steps ({:.0} pops/s), {} queries ({:.0} queries/s), {} z3 scripts",
        f("wall_ms") / 1e3,
        f("solver_ms") / 1e3,
        100.0 * f("solver_share"),
        u("steps"),
        f("pops_per_s"),
        u("solver_queries"),
        f("queries_per_s"),
        u("solver_scripts")
    );
    let mut heavy: Vec<&TaskRun> = runs.iter().collect();
    heavy.sort_by_key(|r| std::cmp::Reverse(r.wall));
    let total = f("wall_ms").max(1e-9);
    let top: Vec<String> =
        heavy.iter().take(5).map(|r| format!("{} {:.0} %", r.task, 100.0 * r.wall.as_secs_f64() * 1e3 / total)).collect();
    println!("       heaviest: {}\n", top.join(", "));
}
