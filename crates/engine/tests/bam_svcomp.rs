//! The block-abstraction memoization presets on every task of the SV-COMP
//! folder (integer model `c`; a step limit, at most five refinements and
//! 5 s per run on the wall clock — a run that hits it is UNKNOWN, which
//! only changes the counts printed — so a debug build stays within
//! minutes): no wrong TRUE, every FALSE
//! confirmed (the verifier says so, and replaying its inputs with the
//! concrete interpreter here reaches the error location). Prints the table
//! and, for the recursive-simple tasks, the correct verdicts of each preset
//! next to `predicate`'s:
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
                let run = engine::feasibility::replay(&program, v.inputs(), minic::IntModel::C, 1_000_000);
                if !matches!(run.outcome, concrete::Outcome::ReachedError { .. }) {
                    problems.push(format!("{name}: FALSE on {path} but replaying {:?} gives {}", v.inputs(), run.outcome));
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
