//! Every task of the SV-COMP folder under the `value` configuration and
//! the `c` integer model, with a step limit: no wrong TRUE (a task whose
//! expected verdict is `false` must never be called safe). Prints the
//! verdict table (`cargo test -p engine --test svcomp -- --nocapture`).

use engine::view::Statistics;
use engine::Stepper;
use engine::{build_analysis, Config, Verdict};
use std::sync::Arc;
use std::time::Instant;

#[test]
fn value_analysis_never_says_true_for_an_unsafe_task() {
    let mut config = Config::preset("value").unwrap();
    config.set("analysis.intModel", "C").unwrap();
    // Small enough for a debug build to run all tasks in well under a minute.
    config.set("limits.steps", "10000").unwrap();
    let started = Instant::now();
    let (mut tasks, mut wrong, mut correct, mut steps) = (0, Vec::new(), 0, 0u64);
    println!("{:<55} {:>8} {:>8} {:>8} {:>8} {:>8}", "task", "expected", "verdict", "reached", "created", "steps");
    for task in svcomp_tasks::tasks() {
        let (path, expected) = (task.path.as_str(), task.expected.lower());
        let src = task.source();
        let program = match cfa::from_source(&src) {
            Ok(p) => Arc::new(p),
            Err(d) => panic!("{path} does not parse: {d:?}"),
        };
        let mut a = build_analysis(program, &config, false).unwrap();
        let mut stats = Statistics::default();
        a.run_with(|e| stats.observe(e));
        let verdict = a.outcome().unwrap().0;
        tasks += 1;
        steps += stats.steps;
        if verdict == Verdict::True && expected == "false" {
            wrong.push(path.to_string());
        }
        if verdict.lower() == expected {
            correct += 1;
        }
        println!("{path:<55} {expected:>8} {:>8} {:>8} {:>8} {:>8}", verdict.lower(), stats.reached, stats.created, stats.steps);
    }
    let secs = started.elapsed().as_secs_f64();
    println!("{tasks} tasks, {correct} correct, {steps} steps in {secs:.1} s ({:.0} pops/s)", steps as f64 / secs);
    assert!(tasks >= 50, "only {tasks} tasks in MANIFEST.tsv");
    assert!(wrong.is_empty(), "wrong TRUE verdicts (unsound!): {wrong:?}");
}

#[test]
fn the_coverage_index_changes_nothing_but_speed() {
    for task in svcomp_tasks::tasks().iter().step_by(3) {
        let path = &task.path;
        let program = Arc::new(cfa::from_source(&task.source()).unwrap());
        for preset in ["value", "value-join"] {
            let mut config = Config::preset(preset).unwrap();
            config.set("analysis.intModel", "C").unwrap();
            config.set("limits.steps", "400").unwrap();
            let with = build_analysis(program.clone(), &config, true).unwrap().run();
            let mut a = build_analysis(program.clone(), &config, true).unwrap();
            a.set_coverage_index(false);
            let without = a.run();
            assert_eq!(with, without, "{path} ({preset})");
        }
    }
}
