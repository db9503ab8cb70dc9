//! Student answers are untrusted: junk of every kind is graded wrong with a
//! sentence, never a panic; the two-phase API works without any solver
//! (the page's path); answers files round-trip.
#![cfg(not(target_arch = "wasm32"))]

use exercises::answers::AnswersFile;
use exercises::load::{load_set, DirFiles};
use exercises::{check_sync, plan, Answer, ExerciseSet};
use std::path::PathBuf;

fn shipped() -> ExerciseSet {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../static/exercises/cpa-basics");
    load_set(&DirFiles(dir)).set.expect("the shipped set loads")
}

fn junk(seed: &mut u64) -> String {
    let alphabet: Vec<char> = "xyzijn_ 0123456789-+*/<=>!&|(){};,.\"'\\é∞⊤true false".chars().collect();
    let mut s = String::new();
    for _ in 0..(*seed % 40) {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        s.push(alphabet[(*seed % alphabet.len() as u64) as usize]);
    }
    s
}

#[test]
fn junk_answers_never_panic() {
    let set = shipped();
    let mut seed = 0x2545f4914f6cdd1d_u64;
    for ex in &set.exercises {
        for _ in 0..40 {
            let text = junk(&mut seed);
            let answers = vec![
                Answer::Verdict { verdict: text.clone() },
                Answer::AbstractState { state: text.clone() },
                Answer::Precision { variables: vec![text.clone()] },
                Answer::Invariant { expression: text.clone() },
                Answer::NextStep { popped: Some(seed as u32), merge: Some(text.clone()), stop: Some(text.clone()) },
                Answer::ChooseConfiguration { preset: Some(text.clone()), set: [(text.clone(), text.clone())].into() },
                Answer::Separate { program: text.clone() },
            ];
            for a in answers {
                // Planning is cheap and must never panic; a plan that runs
                // something is only run for the cheap kinds.
                match plan(ex, &a) {
                    Err(fb) => {
                        assert!(!fb.correct, "{}: {a:?}", ex.id);
                        assert!(!fb.explanation.is_empty());
                    }
                    Ok(p) => {
                        if matches!(a, Answer::AbstractState { .. } | Answer::NextStep { .. }) && ex.id.starts_with("join-point")
                        {
                            // Junk is graded wrong, with a reason.
                            let fb = check_sync(ex, &a);
                            assert!(!fb.correct && fb.points == 0.0, "{}: {a:?} graded right", ex.id);
                            assert!(!fb.explanation.trim().is_empty(), "{}: {a:?}", ex.id);
                        }
                        assert!(p.runs.len() + p.smt.len() > 0 || matches!(a, Answer::Verdict { .. }));
                    }
                }
            }
        }
    }
}

#[test]
fn a_wrong_kind_is_feedback() {
    let set = shipped();
    let ex = set.exercise("table31-join").unwrap();
    let fb = check_sync(ex, &Answer::Verdict { verdict: "true".into() });
    assert!(!fb.correct);
    assert!(fb.explanation.contains("count question"), "{}", fb.explanation);
}

#[test]
fn invariants_are_graded_from_solver_outputs_the_caller_provides() {
    let set = shipped();
    let ex = set.exercise("invariant-lockstep").unwrap();
    let p = plan(ex, &Answer::Invariant { expression: "x == y".into() }).unwrap();
    assert!(p.runs.is_empty(), "no analysis run: only SMT scripts");
    assert!(!p.smt.is_empty());
    for s in &p.smt {
        assert!(s.contains("(check-sat)") && s.contains("(get-model)"), "{s}");
    }
    let unsat = vec!["unsat".to_string(); p.smt.len()];
    let fb = p.grade(&[], &unsat);
    assert!(fb.correct, "{}", fb.explanation);
    assert_eq!(fb.points, ex.points as f64);
    // `unknown` (as the page says before z3 arrived) never makes it right.
    let fb = p.grade(&[], &vec!["unknown".to_string(); p.smt.len()]);
    assert!(!fb.correct);
    assert!(fb.details.iter().any(|d| d.contains("unknown")), "{:?}", fb.details);
    // A satisfiable query without a model still fails, with its condition named.
    let fb = p.grade(&[], &vec!["sat".to_string(); p.smt.len()]);
    assert!(!fb.correct);
    assert!(fb.explanation.contains("initiation fails"), "{}", fb.explanation);
    // Missing answers count as unknown.
    assert!(!p.grade(&[], &[]).correct);
}

#[test]
fn feedback_serializes_and_answers_files_round_trip() {
    let set = shipped();
    let ex = set.exercise("join-point-value").unwrap();
    let fb = check_sync(ex, &Answer::AbstractState { state: "x = 1".into() });
    assert!(fb.correct);
    let json = serde_json::to_value(&fb).unwrap();
    assert_eq!(json["correct"], true);
    assert_eq!(json["exercise"], "join-point-value");

    let file = AnswersFile {
        format: 1,
        student: "alice".into(),
        set: set.id.clone(),
        answers: [("join-point-value".to_string(), Answer::AbstractState { state: "x = 1".into() })].into(),
        results: None,
    };
    let text = serde_json::to_string(&file).unwrap();
    assert_eq!(AnswersFile::parse("a.json", &text).unwrap(), file);
    let bad = AnswersFile::parse("a.json", "{\n  \"format\": 1,\n  \"student\": [] }").unwrap_err();
    assert_eq!((bad.file.as_str(), bad.line), ("a.json", 3));
    assert!(AnswersFile::parse("a.json", "{\"format\": 2, \"student\": \"a\", \"set\": \"s\"}").is_err());
    let unknown_kind =
        AnswersFile::parse("a.json", r#"{"format": 1, "student": "a", "set": "s", "answers": {"x": {"kind": "essay"}}}"#);
    assert!(unknown_kind.is_err());
}
