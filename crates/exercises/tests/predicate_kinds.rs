//! The predicate-analysis question kinds on the shipped exercises: a right
//! answer in any spelling is right, a wrong one is told what is off —
//! which of its predicates the refinement does not add, how many it left
//! out, where to look for ψ' — without the run's predicates or formula.
#![cfg(not(target_arch = "wasm32"))]

use exercises::load::DirFiles;
use exercises::{check_sync, Answer, Exercise};

fn exercise(id: &str) -> Exercise {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../static/exercises/cpa-basics");
    let set = exercises::load_set(&DirFiles(dir)).set.expect("the set loads");
    set.exercise(id).unwrap_or_else(|| panic!("no exercise {id}")).clone()
}

fn predicates(ps: &[&str]) -> Answer {
    Answer::Predicates { predicates: ps.iter().map(|p| p.to_string()).collect() }
}

#[test]
fn predicates_are_graded_as_a_set_of_atoms_without_giving_the_missing_ones_away() {
    let ex = exercise("predicate-predicates");
    // Negations, other sides, qualified names and another order are the same predicates.
    let right = check_sync(&ex, &predicates(&["i < n", "main::x != 0; 0 == mode"]));
    assert!(right.correct, "{}", right.explanation);
    assert!(right.explanation.contains("main::n <= main::i"), "a right answer names the run's predicates: {}", right.explanation);

    let fb = check_sync(&ex, &predicates(&["mode == 0", "x == 1"]));
    assert!(!fb.correct);
    let text = format!("{} {}", fb.explanation, fb.details.join(" "));
    assert!(text.contains("`x == 1` (or its negation) is not one of the predicates"), "{text}");
    assert!(text.contains("2 predicate(s) it adds there are missing"), "{text}");
    for secret in ["x == 0", "n <= i", "main::"] {
        assert!(!text.contains(secret), "the feedback gives away `{secret}`: {text}");
    }
    assert!(fb.solution.as_deref().is_some_and(|s| s.contains("main::x == 0")), "the solution is kept to reveal later");

    // A syntax error is located feedback, not a grade.
    let bad = check_sync(&ex, &predicates(&["x === 0"]));
    assert!(!bad.correct && bad.explanation.starts_with("your predicates:"), "{}", bad.explanation);
    let unknown = check_sync(&ex, &predicates(&["z == 0"]));
    assert!(!unknown.correct && unknown.explanation.contains('z'), "{}", unknown.explanation);
}

#[test]
fn the_same_block_has_a_boolean_and_a_cartesian_abstraction() {
    let boolean = exercise("predicate-boolean");
    let cartesian = exercise("predicate-cartesian");
    let fb = check_sync(&boolean, &Answer::Abstraction { choice: 3 });
    assert!(fb.correct, "{}", fb.explanation);
    assert!(fb.explanation.contains("boolean abstraction of s22"), "{}", fb.explanation);
    let fb = check_sync(&cartesian, &Answer::Abstraction { choice: 4 });
    assert!(fb.correct, "{}", fb.explanation);
    assert!(fb.explanation.contains("cartesian abstraction of s22"), "{}", fb.explanation);

    // The Boolean answer is wrong for the Cartesian abstraction, and its
    // feedback names neither ψ' nor the right choice.
    let fb = check_sync(&cartesian, &Answer::Abstraction { choice: 3 });
    assert!(!fb.correct);
    let text = format!("{} {}", fb.explanation, fb.details.join(" "));
    assert!(text.contains("`mode == 0 && x == 0 || mode != 0 && x != 0` is not ψ' of s22"), "{text}");
    assert!(!text.contains("`true`") && !text.contains("ψ' ="), "{text}");
    assert!(!check_sync(&cartesian, &Answer::Abstraction { choice: 9 }).correct);
}
