//! Every task of the SV-COMP folder under symbolic execution (preset
//! `symbolic`, the `c` integer model, so bit-vectors) with a step limit:
//! no wrong TRUE. Also prints the solver's share of the time and the
//! median time per query (the native z3 process):
//! `cargo test --release -p engine --test svcomp_symbolic -- --nocapture`.
//! `SYMBOLIC_STEPS=10000` raises the step limit (default 300, so a debug
//! build stays within a few minutes).

use engine::view::Statistics;
use engine::Stepper;
use engine::{build_analysis, Config, Verdict};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[test]
fn symbolic_execution_never_says_true_for_an_unsafe_task() {
    let steps = std::env::var("SYMBOLIC_STEPS").unwrap_or_else(|_| "300".into());
    let mut config = Config::preset("symbolic").unwrap();
    config.set("analysis.intModel", "C").unwrap();
    config.set("limits.steps", &steps).unwrap();
    config.set("solver.timeout", "5000").unwrap();
    let (mut wrong, mut correct, mut alarms, mut unknown) = (Vec::new(), 0, 0, 0);
    let mut all_times: Vec<Duration> = Vec::new();
    let mut analysis_time = Duration::ZERO;
    println!(
        "{:<55} {:>8} {:>8} {:>7} {:>7} {:>9} {:>9}",
        "task", "expected", "verdict", "steps", "queries", "total ms", "solver ms"
    );
    for task in svcomp_tasks::tasks() {
        let (path, expected) = (task.path.as_str(), task.expected.lower());
        let program = Arc::new(cfa::from_source(&task.source()).unwrap_or_else(|d| panic!("{path}: {d:?}")));
        let mut a = build_analysis(program, &config, false).unwrap();
        let mut stats = Statistics::default();
        let t = Instant::now();
        a.run_with(|e| stats.observe(e));
        let total = t.elapsed();
        analysis_time += total;
        let solver: Duration = a.solver_times().iter().sum();
        all_times.extend_from_slice(a.solver_times());
        let verdict = a.outcome().expect("finished").0;
        match (verdict, expected) {
            (Verdict::True, "false") => wrong.push(path.to_string()),
            (Verdict::False, "true") => alarms += 1,
            (Verdict::Unknown, _) => unknown += 1,
            _ => correct += 1,
        }
        println!(
            "{path:<55} {expected:>8} {:>8} {:>7} {:>7} {:>9} {:>9}",
            verdict.lower(),
            stats.steps,
            stats.solver_queries,
            total.as_millis(),
            solver.as_millis()
        );
    }
    all_times.sort();
    let solver_total: Duration = all_times.iter().sum();
    let median = all_times.get(all_times.len() / 2).copied().unwrap_or_default();
    println!(
        "symbolic, c model, limits.steps = {steps}: {correct} correct, {alarms} false alarms, {unknown} unknown, {} wrong TRUE",
        wrong.len()
    );
    println!(
        "{} solver queries, median {:?} per query; solver {:.1} s of {:.1} s analysis ({:.0} %)",
        all_times.len(),
        median,
        solver_total.as_secs_f64(),
        analysis_time.as_secs_f64(),
        100.0 * solver_total.as_secs_f64() / analysis_time.as_secs_f64().max(1e-9)
    );
    assert!(wrong.is_empty(), "wrong TRUE verdicts (unsound!): {wrong:?}");
    assert!(!all_times.is_empty(), "symbolic execution asked no solver query on the whole folder");
}
