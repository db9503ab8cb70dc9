//! Every task of the SV-COMP folder under the three transformation presets
//! (`transform-term`, `transform-parity`, `transform-sign`), C's integers,
//! a step limit: no wrong TRUE, and `transform-parity` proves
//! `loop-invariants/odd.c` (parity suffices: an odd counter plus 2 stays
//! odd, and `x % 2` of an odd value is never 0). `even.c` and `mod4.c` ask
//! whether `x % 2` (`x % 4`) *is zero*, which parity cannot say: their
//! FALSE is unconfirmed. Prints the table
//! (`cargo test -p engine --test svcomp_transform -- --nocapture`).

use engine::view::Statistics;
use engine::{Config, Stepper, Verdict};
use std::sync::Arc;

#[test]
fn no_transform_preset_says_true_for_an_unsafe_task() {
    let mut proved = Vec::new();
    for preset in ["transform-parity", "transform-sign", "transform-term"] {
        let mut config = Config::preset(preset).unwrap();
        config.set("analysis.intModel", "C").unwrap();
        // Small enough for a debug build: the term explorer asks the solver
        // about the whole path condition at every branch.
        let steps = if preset == "transform-term" { "300" } else { "500" };
        config.set("limits.steps", steps).unwrap();
        config.set("solver.timeout", "5000").unwrap();
        let (mut wrong, mut correct, mut stored, mut checks) = (Vec::new(), 0, 0, 0);
        for task in svcomp_tasks::tasks() {
            let program = Arc::new(cfa::from_source(&task.source()).unwrap());
            let mut v = engine::cegar::build_verifier(program, &config, false).unwrap();
            let mut stats = Statistics::default();
            v.run_with(|e| stats.observe(e));
            let verdict = v.outcome().unwrap().0;
            let expected = task.expected.lower();
            if verdict == Verdict::True && expected == "false" {
                wrong.push(task.path.clone());
            }
            if verdict.lower() == expected {
                correct += 1;
                if verdict == Verdict::True {
                    proved.push(format!("{preset} {}", task.path));
                }
            }
            if verdict == Verdict::False && expected == "false" && preset == "transform-term" {
                assert_eq!(v.confirmed(), Some(true), "{}: a term FALSE is confirmed", task.path);
            }
            stored += stats.reached;
            checks += stats.equivalence_checks;
            println!("{preset:<17} {:<50} {expected:>6} {:>8} {:>7}", task.path, verdict.lower(), stats.reached);
        }
        println!("{preset}: {correct} correct, {} wrong TRUE, {stored} states stored, {checks} equivalence checks", wrong.len());
        assert!(wrong.is_empty(), "{preset}: wrong TRUE on {wrong:?}");
    }
    assert!(proved.contains(&"transform-parity loop-invariants/odd.c".to_string()), "{proved:?}");
}
