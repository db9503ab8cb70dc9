//! Every shipped exercise set (`static/exercises/*/`) loads without a
//! problem, and for every exercise its reference answers are graded right
//! and at least one listed wrong answer exists and is graded wrong — by
//! running the analyses, as the page and `cpaplay grade` do.
#![cfg(not(target_arch = "wasm32"))]

use exercises::answers::parse_solutions;
use exercises::load::{load_set, DirFiles, SOLUTIONS};
use exercises::{Answer, Feedback};
use std::path::PathBuf;

fn sets() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../static/exercises");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("static/exercises exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("set.toml").is_file())
        .collect();
    out.sort();
    out
}

#[test]
fn the_sets_index_lists_exactly_the_set_directories() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../static/exercises");
    let listed = exercises::load::parse_index(&std::fs::read_to_string(root.join("index.toml")).unwrap()).unwrap();
    let dirs: Vec<String> = sets().iter().map(|p| p.file_name().unwrap().to_str().unwrap().to_string()).collect();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(sorted, dirs);
    for (i, name) in listed.iter().enumerate() {
        let set = load_set(&DirFiles(root.join(name))).set.unwrap();
        assert_eq!(&set.id, name, "set {i}: the directory is named after the set's id");
    }
    assert!(exercises::load::parse_index("format = 1\nsets = [\"../x\"]").is_err());
}

#[test]
fn every_reference_answer_passes_and_a_wrong_answer_fails() {
    let sets = sets();
    assert!(!sets.is_empty(), "at least one shipped set");
    let mut total = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for dir in sets {
        let loaded = load_set(&DirFiles(dir.clone()));
        assert!(loaded.errors.is_empty(), "{}: {:?}", dir.display(), loaded.errors);
        let set = loaded.set.expect("set loads");
        let text = std::fs::read_to_string(dir.join(SOLUTIONS)).expect("solutions.toml");
        let solutions = parse_solutions(SOLUTIONS, &text).expect("solutions parse");
        for ex in &set.exercises {
            total += 1;
            kinds.insert(ex.question.kind());
            let s = solutions
                .iter()
                .find(|s| s.solution.exercise == ex.id)
                .unwrap_or_else(|| panic!("{}: no solution for {}", dir.display(), ex.id));
            assert!(!s.solution.right.is_empty() && !s.solution.wrong.is_empty(), "{}: right and wrong answers", ex.id);
            for a in &s.solution.right {
                let fb = exercises::check_sync(ex, a);
                println!("{} ✓ {}", ex.id, fb.explanation);
                assert!(fb.correct, "{}: reference answer {a:?} graded wrong: {}", ex.id, fb.explanation);
                assert_eq!(fb.points, ex.points as f64);
            }
            let reference = &s.solution.right[0];
            let right_feedback = exercises::check_sync(ex, reference);
            for a in &s.solution.wrong {
                let fb = exercises::check_sync(ex, a);
                println!("{} ✗ {}", ex.id, fb.explanation);
                assert!(!fb.correct, "{}: wrong answer {a:?} graded right: {}", ex.id, fb.explanation);
                assert!(fb.points < ex.points as f64);
                assert_no_leak(ex, a, reference, &right_feedback, &fb);
            }
        }
    }
    assert!(total >= 20, "at least 20 shipped exercises, found {total}");
    println!("kinds covered: {kinds:?}");
}

/// The pieces of the reference answer a wrong answer's feedback must not
/// show (those the student did not say themselves).
fn leaks(ex: &exercises::Exercise, reference: &Answer, said: &Answer, right: &Feedback) -> Vec<String> {
    use exercises::predict::{MergeOutcome, StopOutcome};
    match (reference, said) {
        (Answer::Verdict { verdict }, _) => vec![verdict.to_uppercase(), "finished with".into()],
        (Answer::Count { value }, _) => {
            vec![format!(" {value} "), format!(" {value}."), format!(" {value};"), "finished with".into()]
        }
        (Answer::AbstractState { .. }, _) => {
            // The reference join as the right answer's explanation names it.
            let join = right.explanation.split("is `").nth(1).and_then(|r| r.split('`').next()).unwrap_or_default();
            assert!(!join.is_empty(), "the right feedback names the join: {}", right.explanation);
            vec![format!("`{join}`"), "whose join".into()]
        }
        (Answer::NextStep { popped, merge, stop }, Answer::NextStep { popped: p2, merge: m2, stop: s2 }) => {
            let mut out = vec!["the algorithm did".to_string()];
            if let (Some(r), true) = (popped, popped != p2) {
                out.push(format!("pop s{r}"));
            }
            if let (Some(r), true) = (merge.as_deref().and_then(MergeOutcome::from_key), merge != m2) {
                out.push(r.words().to_string());
            }
            if let (Some(r), true) = (stop.as_deref().and_then(StopOutcome::from_key), stop != s2) {
                out.push(r.words().to_string());
            }
            out
        }
        (Answer::Predicates { predicates }, Answer::Predicates { predicates: p2 }) => {
            // Every reference predicate the student left out, as written in
            // the solution and as the engine writes it (qualified names).
            let mut out: Vec<String> = predicates.iter().filter(|p| !p2.contains(p)).cloned().collect();
            if !p2.iter().any(|p| p.contains("::")) {
                out.push("main::".into());
            }
            out.push("You said".into());
            out
        }
        (Answer::Abstraction { choice }, _) => {
            let exercises::Question::Abstraction { choices, .. } = &ex.question else {
                panic!("{}: not an abstraction question", ex.id)
            };
            vec![format!("`{}`", choices[*choice as usize - 1]), "ψ' =".into()]
        }
        (Answer::TransformedLine { choice }, _) => {
            let exercises::Question::TransformedLine { choices, .. } = &ex.question else {
                panic!("{}: not a transformed-line question", ex.id)
            };
            vec![format!("`{}`", choices[*choice as usize - 1]), "transforms line".into()]
        }
        // The other kinds' feedback is about the student's own
        // configuration, program, precision or invariant: there is no one
        // reference answer to give away.
        _ => vec![],
    }
}

/// A wrong answer's explanation and details never contain the reference
/// answer; the solution (shown only when the set reveals it) does.
fn assert_no_leak(ex: &exercises::Exercise, said: &Answer, reference: &Answer, right: &Feedback, fb: &Feedback) {
    let text = format!("{} {} ", fb.explanation, fb.details.join(" "));
    for piece in leaks(ex, reference, said, right) {
        // A state the student wrote themselves may be quoted back.
        if let Answer::AbstractState { state } = said {
            if state.contains(piece.trim_matches('`')) {
                continue;
            }
        }
        assert!(!text.contains(&piece), "{}: the feedback of wrong answer {said:?} gives away `{piece}`: {text}", ex.id);
    }
    let graded = exercises::plan(ex, said).is_ok();
    if graded
        && matches!(
            said,
            Answer::Verdict { .. }
                | Answer::Count { .. }
                | Answer::AbstractState { .. }
                | Answer::Predicates { .. }
                | Answer::Abstraction { .. }
                | Answer::TransformedLine { .. }
        )
    {
        assert!(fb.solution.is_some(), "{}: a wrong {} answer keeps the solution to reveal later", ex.id, said.kind());
    }
}
