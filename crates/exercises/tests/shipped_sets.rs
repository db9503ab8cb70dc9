//! Every shipped exercise set (`static/exercises/*/`) loads without a
//! problem, and for every exercise its reference answers are graded right
//! and at least one listed wrong answer exists and is graded wrong — by
//! running the analyses, as the page and `cpaplay grade` do.
#![cfg(not(target_arch = "wasm32"))]

use exercises::answers::parse_solutions;
use exercises::load::{load_set, DirFiles, SOLUTIONS};
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
            for a in &s.solution.wrong {
                let fb = exercises::check_sync(ex, a);
                println!("{} ✗ {}", ex.id, fb.explanation);
                assert!(!fb.correct, "{}: wrong answer {a:?} graded right: {}", ex.id, fb.explanation);
                assert!(fb.points < ex.points as f64);
            }
        }
    }
    assert!(total >= 20, "at least 20 shipped exercises, found {total}");
    println!("kinds covered: {kinds:?}");
}
