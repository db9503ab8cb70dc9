//! The block-abstraction memoization presets on every task of the SV-COMP
//! folder (integer model `c`; a step limit, at most five refinements and
//! 5 s per run on the wall clock — a run that hits it is UNKNOWN, which
//! only changes the counts printed — so a debug build stays within
//! minutes): no wrong TRUE, every FALSE
//! confirmed (the verifier says so, and replaying its inputs with the
//! concrete interpreter here reaches the error location — the accelerated
//! one when the plain one stops at its step limit). Prints the table
//! and, for the recursive-simple tasks, the correct verdicts of each preset
//! next to `predicate`'s, and a second test runs the smaller loop folders
//! with loop blocks (`LoopPartitioning`):
//! `cargo test -p engine --test bam_svcomp -- --nocapture`.

use engine::cegar::build_verifier;
use engine::view::Statistics;
use engine::Stepper;
use engine::{Config, Verdict};
use std::sync::Arc;

const CONFIGS: &[&str] = &["bam-value", "bam-predicate", "bam-value-predicate", "predicate"];

#[test]
fn bam_presets_never_say_true_wrongly_and_confirm_every_false() {
    let mut problems = Vec::new();
    // correct, false alarms, unknown, cache hits, correct on recursive-simple
    let mut totals = vec![(0, 0, 0, 0u64, 0); CONFIGS.len()];
    for task in svcomp_tasks::tasks() {
        let (path, expected) = (task.path.as_str(), task.expected.lower());
        let program = Arc::new(cfa::from_source(&task.source()).unwrap_or_else(|d| panic!("{path}: {d:?}")));
        let recursive = path.starts_with("recursive-simple/");
        let mut line = format!("{path:<50} {expected:>6}");
        for (i, name) in CONFIGS.iter().enumerate() {
            // `predicate` only as the comparison on the recursive tasks.
            if *name == "predicate" && !recursive {
                continue;
            }
            let mut config = Config::preset(name).unwrap();
            config.set("analysis.intModel", "C").unwrap();
            config.set("limits.steps", "1000").unwrap();
            config.set("cegar.maxIterations", "5").unwrap();
            config.set("restartAlgorithm.stageTimeMs", "5000").unwrap();
            let mut v = build_verifier(program.clone(), &config, false).unwrap();
            let mut stats = Statistics::default();
            v.run_with(|e| stats.observe(e));
            let verdict = v.outcome().unwrap().0;
            totals[i].3 += stats.cache_hits;
            match (verdict, expected) {
                (Verdict::True, "false") => problems.push(format!("{name}: wrong TRUE on {path}")),
                (Verdict::False, "true") => totals[i].1 += 1,
                (Verdict::Unknown, _) => totals[i].2 += 1,
                _ => {
                    totals[i].0 += 1;
                    if recursive {
                        totals[i].4 += 1;
                    }
                }
            }
            if verdict == Verdict::False {
                if v.confirmed() != Some(true) {
                    problems.push(format!("{name}: unconfirmed FALSE on {path}"));
                }
                let outcome = engine::feasibility::replay_outcome(&program, v.inputs(), minic::IntModel::C, 1_000_000);
                if !matches!(outcome, concrete::Outcome::ReachedError { .. }) {
                    problems.push(format!("{name}: FALSE on {path} but replaying {:?} gives {}", v.inputs(), outcome));
                }
            }
            line.push_str(&format!(" {:>8}/{}h", verdict.lower(), stats.cache_hits));
        }
        println!("{line}");
    }
    for (i, name) in CONFIGS.iter().enumerate() {
        let (ok, alarms, unknown, hits, rec) = totals[i];
        println!(
            "{name:<22} correct {ok:>3}  false alarms {alarms:>2}  unknown {unknown:>3}  cache hits {hits:>5}  correct on recursive-simple {rec}"
        );
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Loop blocks (`cpa.bam.blockHeuristic = LoopPartitioning`) on the tasks
/// of the smaller loop folders, every BAM preset, the same limits: no wrong
/// TRUE, every FALSE confirmed and replayed. Prints each task's verdicts
/// and cache hits, and the totals.
#[test]
fn loop_blocks_never_say_true_wrongly_and_confirm_every_false() {
    const FOLDERS: &[&str] = &["loop-simple/", "loop-lit/", "loop-invgen/", "loop-new/"];
    const PRESETS: &[&str] = &["bam-value", "bam-predicate", "bam-value-predicate"];
    let mut problems = Vec::new();
    let mut totals = vec![(0, 0u64); PRESETS.len()];
    let tasks: Vec<_> = svcomp_tasks::tasks().into_iter().filter(|t| FOLDERS.iter().any(|f| t.path.starts_with(f))).collect();
    assert!(tasks.len() >= 10, "the loop folders hold {} tasks", tasks.len());
    for task in tasks {
        let (path, expected) = (task.path.as_str(), task.expected.lower());
        let program = Arc::new(cfa::from_source(&task.source()).unwrap_or_else(|d| panic!("{path}: {d:?}")));
        let mut line = format!("{path:<50} {expected:>6}");
        for (i, name) in PRESETS.iter().enumerate() {
            let mut config = Config::preset(name).unwrap();
            for (k, v) in [
                ("analysis.intModel", "C"),
                ("limits.steps", "1000"),
                ("cegar.maxIterations", "5"),
                ("restartAlgorithm.stageTimeMs", "5000"),
                ("cpa.bam.blockHeuristic", "LoopPartitioning"),
            ] {
                config.set(k, v).unwrap();
            }
            let mut v = build_verifier(program.clone(), &config, false).unwrap();
            let mut stats = Statistics::default();
            v.run_with(|e| stats.observe(e));
            let verdict = v.outcome().unwrap().0;
            totals[i].1 += stats.cache_hits;
            match (verdict, expected) {
                (Verdict::True, "false") => problems.push(format!("{name}: wrong TRUE on {path}")),
                (Verdict::True, _) | (Verdict::False, "false") => totals[i].0 += 1,
                _ => {}
            }
            if verdict == Verdict::False {
                if v.confirmed() != Some(true) {
                    problems.push(format!("{name}: unconfirmed FALSE on {path}"));
                }
                let outcome = engine::feasibility::replay_outcome(&program, v.inputs(), minic::IntModel::C, 1_000_000);
                if !matches!(outcome, concrete::Outcome::ReachedError { .. }) {
                    problems.push(format!("{name}: FALSE on {path} but replaying {:?} gives {}", v.inputs(), outcome));
                }
            }
            line.push_str(&format!(" {:>8}/{}h", verdict.lower(), stats.cache_hits));
        }
        println!("{line}");
    }
    for (i, name) in PRESETS.iter().enumerate() {
        println!("{name:<22} LoopPartitioning: correct {:>3}  cache hits {:>5}", totals[i].0, totals[i].1);
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
