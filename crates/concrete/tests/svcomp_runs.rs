//! Random concrete runs of every SV-COMP task under the C model: the CFAs
//! are never malformed for the interpreter (exactly one enabled edge), TRUE
//! tasks never reach their error, and recorded states follow the path.

use concrete::{execute, Options, Outcome, RandomInputs};
use minic::IntModel;

#[test]
fn random_runs_of_every_task() {
    let mut bad = Vec::new();
    let mut false_found = 0;
    let mut false_total = 0;
    for task in svcomp_tasks::tasks() {
        let (path, verdict) = (task.path.as_str(), task.expected.lower());
        let src = task.source();
        let p = cfa::from_source(&src).unwrap_or_else(|d| panic!("{path}: {d:?}"));
        let mut reached = false;
        for seed in 0..8u64 {
            let mut input = RandomInputs::new(seed * 7919 + path.len() as u64);
            let opts = Options { model: IntModel::C, max_steps: 20_000, record_states: seed == 0 };
            let e = execute(&p, &mut input, opts);
            match &e.outcome {
                Outcome::Stuck { node, reason } => bad.push(format!("{path}: stuck at {node}: {reason}")),
                Outcome::ReachedError { .. } => {
                    reached = true;
                    if verdict == "true" {
                        bad.push(format!("{path}: TRUE task reached its error with seed {seed}"));
                    }
                }
                _ => {}
            }
            if opts.record_states {
                if e.states.len() != e.path.len() + 1 {
                    bad.push(format!("{path}: {} states for {} steps", e.states.len(), e.path.len()));
                }
                for (k, edge) in e.path.iter().enumerate() {
                    if e.states[k + 1].node != p.edge(*edge).target {
                        bad.push(format!("{path}: state {} is not at the target of edge {}", k + 1, edge.0));
                        break;
                    }
                }
            }
        }
        if verdict == "false" {
            false_total += 1;
            false_found += reached as usize;
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // Random testing finds some of the bugs (not all: some need long runs or
    // specific values); this guards against an interpreter that never does.
    assert!(false_found >= 5, "random runs reached the error in only {false_found} of {false_total} FALSE tasks");
    eprintln!("random runs reached the error in {false_found} of {false_total} FALSE tasks");
}
