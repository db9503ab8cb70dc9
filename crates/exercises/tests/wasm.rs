//! The exercise checks compiled to WebAssembly, as the page runs them
//! (`cargo test -p exercises --target wasm32-unknown-unknown`, in Node).
//! Natively this file is empty: the same checks run in the other tests.
#![cfg(target_arch = "wasm32")]

use exercises::load::load_set;
use exercises::{check_sync, plan, Answer};
use wasm_bindgen_test::*;

/// A few files of the shipped set, as the page would fetch them.
fn files(path: &str) -> Result<String, String> {
    Ok(match path {
        "set.toml" => include_str!("../../../static/exercises/cpa-basics/set.toml"),
        "04-false-alarm-join.toml" => include_str!("../../../static/exercises/cpa-basics/04-false-alarm-join.toml"),
        "../../examples/value-join-false-alarm.c" => include_str!("../../../static/examples/value-join-false-alarm.c"),
        "06-join-point-value.toml" => include_str!("../../../static/exercises/cpa-basics/06-join-point-value.toml"),
        "join-point.c" => include_str!("../../../static/exercises/cpa-basics/join-point.c"),
        "26-invariant-lockstep.toml" => include_str!("../../../static/exercises/cpa-basics/26-invariant-lockstep.toml"),
        "lockstep.c" => include_str!("../../../static/exercises/cpa-basics/lockstep.c"),
        _ => return Err("not fetched".into()),
    }
    .to_string())
}

#[wasm_bindgen_test]
fn the_page_checks_exercises_by_running_the_analysis() {
    let loaded = load_set(&files);
    let set = loaded.set.expect("the index loads");
    assert_eq!(set.exercises.len(), 3, "the files not fetched are errors, the rest loads");
    assert!(!loaded.errors.is_empty());

    let ex = set.exercise("false-alarm-join").unwrap();
    assert!(check_sync(ex, &Answer::Verdict { verdict: "false".into() }).correct);
    assert!(!check_sync(ex, &Answer::Verdict { verdict: "true".into() }).correct);

    let ex = set.exercise("join-point-value").unwrap();
    assert!(check_sync(ex, &Answer::AbstractState { state: "x = 1".into() }).correct);
    assert!(!check_sync(ex, &Answer::AbstractState { state: "x = 1, z = 2".into() }).correct);

    // Invariants: scripts out, the page's z3 answers in.
    let ex = set.exercise("invariant-lockstep").unwrap();
    let p = plan(ex, &Answer::Invariant { expression: "x == y".into() }).unwrap();
    assert!(!p.smt.is_empty());
    assert!(p.grade(&[], &vec!["unsat".to_string(); p.smt.len()]).correct);
    assert!(!p.grade(&[], &vec!["unknown".to_string(); p.smt.len()]).correct);
}
