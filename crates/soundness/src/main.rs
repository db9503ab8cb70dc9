//! `soundness`: the differential soundness campaign.
//!
//! ```text
//! cargo run --release -p soundness --bin soundness -- --programs N --seed S \
//!     [--presets a,b] [--models c,math] [--jobs N] [--runs R] [--steps K] [--no-coverage]
//!     [--judge-by c|math] [--memory] [--set key=value]...
//! ```
//!
//! Generates N programs (seeds S, S+1, …), runs every chosen preset under
//! every chosen integer model on each, judges each result against the
//! concrete interpreter, prints progress, the verdict counts per preset,
//! the time, and every violation with its program, preset, model and
//! inputs. Exits with status 1 on any violation, 2 on a usage error.
//! `--judge-by MODEL` judges every analysis by the interpreter under MODEL
//! instead of its own (`--models math --judge-by c` must find violations:
//! a demonstration that the oracle can fail). `--memory` generates programs
//! with pointers, a struct, an array and a heap block (`progen::Options::memory`).
//! `--set key=value` (repeatable) is an override of every preset, as if
//! written `preset[key=value]` (`--set cpa.bam.blockHeuristic=LoopPartitioning`).

use minic::IntModel;
use soundness::{campaign, presets, OracleOptions};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: soundness --programs N --seed S [--presets a,b[key=value]] [--models c,math] [--jobs N] [--runs R] [--steps K] [--no-coverage] [--judge-by c|math] [--memory] [--set key=value]...";

fn parse_args() -> Result<(u64, u64, usize, OracleOptions), String> {
    let mut args = std::env::args().skip(1);
    let (mut programs, mut seed, mut jobs) = (100u64, 1u64, 1usize);
    let mut options = OracleOptions::default();
    let mut sets: Vec<String> = Vec::new();
    let number = |v: Option<String>, what: &str| -> Result<u64, String> {
        v.ok_or(format!("{what} needs a value"))?.parse::<u64>().map_err(|e| format!("{what}: {e}"))
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--programs" => programs = number(args.next(), "--programs")?,
            "--seed" => seed = number(args.next(), "--seed")?,
            "--jobs" => jobs = number(args.next(), "--jobs")?.max(1) as usize,
            "--runs" => options.runs = number(args.next(), "--runs")?,
            "--steps" => options.analysis_steps = number(args.next(), "--steps")?,
            "--no-coverage" => options.coverage = false,
            "--memory" => options.generator = progen::Options::memory(),
            "--judge-by" => {
                let m = args.next().ok_or("--judge-by needs a model")?;
                options.truth_model = Some(m.parse::<IntModel>()?);
            }
            "--presets" => {
                let list = args.next().ok_or("--presets needs a value")?;
                let known = presets();
                options.presets = list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
                // A preset may carry one override: `predicate[cpa.predicate.memoryRegions=TYPE]`.
                let base = |p: &str| p.split('[').next().unwrap_or(p).to_string();
                if let Some(bad) = options.presets.iter().find(|p| !known.contains(&base(p).as_str())) {
                    return Err(format!("unknown preset `{bad}` (known: {})", known.join(", ")));
                }
            }
            "--models" => {
                let list = args.next().ok_or("--models needs a value")?;
                options.models = list.split(',').map(|s| s.trim().parse::<IntModel>()).collect::<Result<_, _>>()?;
            }
            "--set" => {
                let pair = args.next().ok_or("--set needs key=value")?;
                if !pair.contains('=') || pair.contains(['[', ']', ',']) {
                    return Err(format!("--set `{pair}`: expected key=value"));
                }
                sets.push(pair.trim().to_string());
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    for preset in &mut options.presets {
        for pair in &sets {
            *preset = match preset.strip_suffix(']') {
                Some(open) => format!("{open},{pair}]"),
                None => format!("{preset}[{pair}]"),
            };
        }
    }
    Ok((programs, seed, jobs, options))
}

fn main() -> ExitCode {
    let (programs, seed, jobs, options) = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("soundness: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if options.presets.iter().any(|p| p == "symbolic" || p.contains("cegar") || p.contains("cex"))
        && !std::path::Path::new("/usr/bin/z3").exists()
        && std::env::var_os("CPAPLAY_Z3").is_none()
    {
        eprintln!("soundness: warning: no z3 found; solver queries answer unknown");
    }
    let models: Vec<&str> = options.models.iter().map(|m| m.name()).collect();
    println!(
        "soundness: {programs} programs from seed {seed}, presets {}, models {}, {jobs} job(s), {} concrete runs per program and model",
        options.presets.join(","),
        models.join(","),
        options.runs
    );
    let started = Instant::now();
    let (mut runs, mut violations) = (0u64, 0usize);
    let every = (programs / 50).max(1);
    let summary = campaign(seed, programs, jobs, &options, |done, report| {
        runs += report.runs.len() as u64;
        violations += report.violations.len();
        for v in &report.violations {
            eprintln!("\n{v}");
        }
        if done % every == 0 || done == programs {
            eprintln!(
                "[{:>7.1} s] {done}/{programs} programs, {runs} program-runs, {violations} violation(s)",
                started.elapsed().as_secs_f64()
            );
        }
    });
    let secs = started.elapsed().as_secs_f64();
    println!("\n{}", summary.table());
    println!(
        "{} programs × {} presets × {} models = {} program-runs checked in {secs:.1} s: {} violation(s)",
        summary.programs,
        options.presets.len(),
        options.models.len(),
        summary.program_runs(),
        summary.violations.len()
    );
    for v in &summary.violations {
        println!("\n{v}");
    }
    if summary.violations.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
