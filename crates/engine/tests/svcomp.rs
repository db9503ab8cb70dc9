//! Every task of the SV-COMP folder under the `value` configuration and
//! the `c` integer model, with a step limit: no wrong TRUE (a task whose
//! expected verdict is `false` must never be called safe). Prints the
//! verdict table (`cargo test -p engine --test svcomp -- --nocapture`).

use engine::view::Statistics;
use engine::{build_analysis, Config, Verdict};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

fn folder() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/benchmarks/sv-comp");
    assert!(dir.join("MANIFEST.tsv").exists(), "the SV-COMP folder is missing: {}", dir.display());
    dir
}

#[test]
fn value_analysis_never_says_true_for_an_unsafe_task() {
    let dir = folder();
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    let mut config = Config::preset("value").unwrap();
    config.set("analysis.intModel", "C").unwrap();
    // Small enough for a debug build to run all tasks in well under a minute.
    config.set("limits.steps", "10000").unwrap();
    let started = Instant::now();
    let (mut tasks, mut wrong, mut correct, mut steps) = (0, Vec::new(), 0, 0u64);
    println!("{:<55} {:>8} {:>8} {:>8} {:>8} {:>8}", "task", "expected", "verdict", "reached", "created", "steps");
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (path, expected) = (cols[0], cols[1]);
        let src = std::fs::read_to_string(dir.join(path)).unwrap();
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
        println!(
            "{path:<55} {expected:>8} {:>8} {:>8} {:>8} {:>8}",
            verdict.lower(),
            stats.reached,
            stats.created,
            stats.steps
        );
    }
    let secs = started.elapsed().as_secs_f64();
    println!("{tasks} tasks, {correct} correct, {steps} steps in {secs:.1} s ({:.0} pops/s)", steps as f64 / secs);
    assert!(tasks >= 50, "only {tasks} tasks in MANIFEST.tsv");
    assert!(wrong.is_empty(), "wrong TRUE verdicts (unsound!): {wrong:?}");
}

#[test]
fn the_coverage_index_changes_nothing_but_speed() {
    let dir = folder();
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    for line in manifest.lines().skip(1).step_by(3) {
        let path = line.split('\t').next().unwrap();
        let program = Arc::new(cfa::from_source(&std::fs::read_to_string(dir.join(path)).unwrap()).unwrap());
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
