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
        attempts: [(
            "join-point-value".to_string(),
            vec![Answer::AbstractState { state: "x = 2".into() }, Answer::AbstractState { state: "x = 1".into() }],
        )]
        .into(),
        results: None,
    };
    let text = serde_json::to_string(&file).unwrap();
    assert_eq!(AnswersFile::parse("a.json", &text).unwrap(), file);
    assert_eq!(file.graded("join-point-value", true), Some(&Answer::AbstractState { state: "x = 2".into() }));
    assert_eq!(file.graded("join-point-value", false), Some(&Answer::AbstractState { state: "x = 1".into() }));
    // An old file without attempts still reads, and its answer is the first attempt.
    let old = AnswersFile::parse(
        "old.json",
        r#"{"format": 1, "student": "a", "set": "s", "answers": {"e": {"kind": "count", "value": 3}}}"#,
    )
    .unwrap();
    assert!(old.attempts.is_empty());
    assert_eq!(old.graded("e", true), Some(&Answer::Count { value: 3 }));
    assert_eq!(old.graded("missing", true), None);
    let bad = AnswersFile::parse("a.json", "{\n  \"format\": 1,\n  \"student\": [] }").unwrap_err();
    assert_eq!((bad.file.as_str(), bad.line), ("a.json", 3));
    assert!(AnswersFile::parse("a.json", "{\"format\": 2, \"student\": \"a\", \"set\": \"s\"}").is_err());
    let unknown_kind =
        AnswersFile::parse("a.json", r#"{"format": 1, "student": "a", "set": "s", "answers": {"x": {"kind": "essay"}}}"#);
    assert!(unknown_kind.is_err());
}

#[test]
fn a_wrong_state_is_told_what_is_off_without_the_join() {
    let set = shipped();
    let ex = set.exercise("join-point-value").unwrap();
    let fb = check_sync(ex, &Answer::AbstractState { state: "x = 1, z = 1".into() });
    assert!(!fb.correct);
    let claimed = fb.details.iter().find(|d| d.contains("`z = 1`")).unwrap_or_else(|| panic!("{:?}", fb.details));
    assert!(claimed.contains("your state claims"), "{claimed}");
    assert!(!fb.explanation.contains("whose join"), "{}", fb.explanation);
    assert!(fb.solution.as_deref().is_some_and(|s| s.contains("whose join is `x = 1`")), "{:?}", fb.solution);
    // Too little: the variable the analysis knows is named, not its value.
    let fb = check_sync(ex, &Answer::AbstractState { state: "true".into() });
    assert_eq!(fb.details, vec!["the analysis knows the value of `x` here; your state leaves it out".to_string()]);

    let ex = set.exercise("loop-head-octagon").unwrap();
    let fb = check_sync(ex, &Answer::AbstractState { state: "ticks >= 0".into() });
    assert!(!fb.correct);
    assert!(fb.details.iter().any(|d| d.starts_with("the analysis knows more about `ticks`")), "{:?}", fb.details);
    let fb = check_sync(ex, &Answer::AbstractState { state: "0 <= ticks <= 99".into() });
    let claimed = fb.details.iter().find(|d| d.contains("ticks <= 99`")).unwrap_or_else(|| panic!("{:?}", fb.details));
    assert!(claimed.contains("not every state the analysis reached here satisfies it"), "{claimed}");
    let fb = check_sync(ex, &Answer::AbstractState { state: "ticks <= -5".into() });
    assert!(fb.details.iter().any(|d| d.contains("which no state the analysis reached here satisfies")), "{:?}", fb.details);
}

#[test]
fn reveals_after_a_right_answer_or_reveal_after_tries() {
    use exercises::wrong::reveals;
    assert!(reveals(true, false, 1, None));
    assert!(reveals(false, true, 3, None), "right before");
    assert!(!reveals(false, false, 99, None), "default: never after wrong answers");
    assert!(!reveals(false, false, 2, Some(3)));
    assert!(reveals(false, false, 3, Some(3)));
}
