//! The CEGAR, counterexample-check and restart configurations on every task
//! of the SV-COMP folder (integer model `c`, a step limit so a debug build
//! stays within a couple of minutes): no wrong TRUE, and every FALSE is
//! confirmed — the verifier says so, and replaying its inputs with the
//! concrete interpreter here reaches the error location (the accelerated
//! interpreter when the plain one stops at its step limit: a FALSE of
//! counterexample acceleration runs a loop millions of times).
//! `cargo test -p engine --test cegar_svcomp -- --nocapture` prints the table.

use engine::cegar::build_verifier;
use engine::view::Statistics;
use engine::Stepper;
use engine::{Config, Verdict};
use std::sync::Arc;
use std::time::Instant;

/// Presets; `+pivot` sets `cegar.restart = PIVOT`.
const CONFIGS: &[&str] = &[
    "value-cegar",
    "value-cegar+pivot",
    "octagon-cegar",
    "octagon-join-cex",
    "octagon-widening-cex",
    "octagon-seq-widening-cegar",
];

#[test]
fn every_false_is_confirmed_by_replay_and_no_true_is_wrong() {
    let started = Instant::now();
    let mut problems = Vec::new();
    // correct, false alarms, wrong TRUE, unknown, refinements
    let mut totals = vec![(0, 0, 0, 0, 0u64); CONFIGS.len()];
    for task in svcomp_tasks::tasks() {
        let (path, expected) = (task.path.as_str(), task.expected.lower());
        let program = Arc::new(cfa::from_source(&task.source()).unwrap_or_else(|d| panic!("{path}: {d:?}")));
        let mut line = format!("{path:<50} {expected:>6}");
        for (i, name) in CONFIGS.iter().enumerate() {
            let mut config = Config::preset(name.trim_end_matches("+pivot")).unwrap();
            if name.ends_with("+pivot") {
                config.set("cegar.restart", "PIVOT").unwrap();
            }
            config.set("analysis.intModel", "C").unwrap();
            config.set("limits.steps", "1500").unwrap();
            if config.get("analysis.restartAfterUnknown") == "true" {
                config.set("restartAlgorithm.stageSteps", "1500").unwrap();
            }
            let mut v = build_verifier(program.clone(), &config, false).unwrap();
            let mut stats = Statistics::default();
            v.run_with(|e| stats.observe(e));
            let verdict = v.outcome().unwrap().0;
            totals[i].4 += stats.refinements;
            match (verdict, expected) {
                (Verdict::True, "false") => {
                    totals[i].2 += 1;
                    problems.push(format!("{name}: wrong TRUE on {path}"));
                }
                (Verdict::False, "true") => totals[i].1 += 1,
                (Verdict::Unknown, _) => totals[i].3 += 1,
                _ => totals[i].0 += 1,
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
            line.push_str(&format!(" {:>8}/{}", verdict.lower(), stats.refinements));
        }
        println!("{line}");
    }
    for (i, name) in CONFIGS.iter().enumerate() {
        let (ok, alarms, wrong, unknown, refinements) = totals[i];
        println!("{name:<28} correct {ok:>3}  false alarms {alarms:>2}  wrong TRUE {wrong}  unknown {unknown:>3}  refinements {refinements}");
    }
    println!("{:.1} s", started.elapsed().as_secs_f64());
    assert!(problems.is_empty(), "{problems:#?}");
}
