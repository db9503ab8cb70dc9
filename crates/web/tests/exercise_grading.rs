//! The page's exercise grading (`web::model::exercise`) against the native one:
//! the shipped set loads from fetched files in three rounds exactly as from
//! disk, and the page's sliced [`Grader`] gives every reference and
//! known-wrong answer of `solutions.toml` the same feedback as
//! `exercises::check_sync` (which `cpaplay grade` runs). The page answers
//! solver scripts with its own Z3; here Debian's z3 stands in for it.
//! Native only (it reads the set from disk and runs z3).
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use exercises::answers::parse_solutions;
use exercises::load::{DirFiles, SetFiles};
use exercises::run::RunCache;
use smt::SolverBackend;
use web::model::exercise::{FetchedFiles, Grader, GraderStep, Progress};

fn set_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../static/exercises/cpa-basics")
}

#[test]
fn the_shipped_set_loads_from_fetched_files_in_three_rounds() {
    let disk = DirFiles(set_dir());
    let mut fetched = FetchedFiles::new();
    let mut rounds = 0;
    let load = loop {
        let (load, missing) = fetched.load();
        if missing.is_empty() {
            break load;
        }
        rounds += 1;
        assert!(rounds <= 3, "still missing after 3 rounds: {missing:?}");
        for path in missing {
            assert_ne!(path, "solutions.toml", "the page must never ask for the solutions");
            fetched.insert(&path, disk.read(&path));
        }
    };
    assert_eq!(rounds, 3, "set.toml, then the exercises, then their programs");
    assert!(load.errors.is_empty(), "{:?}", load.errors);
    let from_disk = exercises::load_set(&disk);
    assert_eq!(load.set, from_disk.set);
    assert!(load.set.unwrap().exercises.len() >= 20);
}

#[test]
fn a_file_that_cannot_be_fetched_is_a_located_error_and_the_rest_loads() {
    let disk = DirFiles(set_dir());
    let mut fetched = FetchedFiles::new();
    loop {
        let (_, missing) = fetched.load();
        if missing.is_empty() {
            break;
        }
        for path in missing {
            let text = if path == "10-table31-join.toml" { Err("HTTP 404".to_string()) } else { disk.read(&path) };
            fetched.insert(&path, text);
        }
    }
    let (load, _) = fetched.load();
    assert_eq!(load.errors.len(), 1, "{:?}", load.errors);
    assert_eq!(load.errors[0].file, "10-table31-join.toml");
    assert!(load.errors[0].message.contains("HTTP 404"), "{}", load.errors[0].message);
    let set = load.set.unwrap();
    assert_eq!(set.exercises.len(), exercises::load_set(&disk).set.unwrap().exercises.len() - 1);
}

/// Grades like the page: slices of 500 events, queries answered by z3.
fn grade_in_slices(
    ex: &exercises::Exercise,
    answer: &exercises::Answer,
    cache: &mut RunCache,
    z3: &mut smt::Z3Process,
) -> (exercises::Feedback, usize) {
    let mut g = match Grader::new(ex, answer) {
        Ok(g) => g,
        Err(f) => return (f, 0),
    };
    let mut slices = 0;
    loop {
        match g.advance(500, cache) {
            GraderStep::Working { events, .. } => {
                assert!(events > 0);
                slices += 1;
            }
            GraderStep::Solver { script, .. } => {
                let out = z3.solve(&script).unwrap_or_else(|e| e.as_output());
                g.answer(&out, cache);
            }
            GraderStep::Done(f) => return (f, slices),
        }
    }
}

#[test]
fn the_page_grades_every_solution_as_the_cli_does_and_the_export_regrades_the_same() {
    let dir = set_dir();
    let set = exercises::load_set(&DirFiles(dir.clone())).set.expect("the set loads");
    let text = std::fs::read_to_string(dir.join("solutions.toml")).unwrap();
    let solutions = parse_solutions("solutions.toml", &text).expect("solutions parse");
    let mut cache = RunCache::new();
    let mut z3 = smt::Z3Process::system(std::time::Duration::from_secs(10));
    let mut progress = Progress { student: "tester".into(), ..Progress::default() };
    let mut sliced = 0;
    let mut first_points = std::collections::BTreeMap::new();
    for s in &solutions {
        let ex = set.exercise(&s.solution.exercise).expect("solution of a known exercise");
        for (answer, right) in s.solution.right.iter().map(|a| (a, true)).chain(s.solution.wrong.iter().map(|a| (a, false))) {
            let (page, slices) = grade_in_slices(ex, answer, &mut cache, &mut z3);
            sliced += slices;
            let native = exercises::check_sync(ex, answer);
            assert_eq!(page, native, "{}: {answer:?}", ex.id);
            assert_eq!(page.correct, right, "{}: {answer:?}: {}", ex.id, page.explanation);
            first_points.entry(ex.id.clone()).or_insert(page.points);
            progress.record(answer.clone(), &page, set.reveal_after);
        }
    }
    assert!(sliced > 0, "some run took more than one slice");
    // The export of the last answers re-grades natively to the same points.
    let file =
        exercises::answers::AnswersFile::parse("answers.json", &progress.answers_file(&set)).expect("the export reads back");
    assert_eq!(file.student, "tester");
    assert_eq!(file.set, set.id);
    for (id, answer) in &file.answers {
        let ex = set.exercise(id).unwrap();
        let native = exercises::check_cached(ex, answer, &mut cache);
        assert_eq!(native.points, progress.results[id].points, "{id}");
        // Every attempt is in the file; the first re-grades to what the page gave it.
        assert_eq!(file.attempts[id].len(), progress.attempts[id].len(), "{id}");
        let first = exercises::check_cached(ex, file.graded(id, true).unwrap(), &mut cache);
        assert_eq!(first.points, first_points[id], "{id}: the first attempt");
    }
    assert_eq!(file.answers.len(), solutions.len());
}

/// The page's way: a [`Grading`] through the run driver (queries, if any,
/// answered by z3); a second check of the same exercise is graded from the
/// cache of runs at once, without a slice of work.
#[test]
fn the_run_driver_grades_a_symbolic_exercise_and_a_second_check_comes_from_the_cache() {
    use std::cell::RefCell;
    use std::rc::Rc;
    use web::model::exercise::Grading;
    use web::model::run_driver::{drive_sync, DriverEvent};

    let set = exercises::load_set(&DirFiles(set_dir())).set.expect("the set loads");
    let ex = set.exercise("symbolic-paths").expect("the exercise");
    let runs = Rc::new(RefCell::new(RunCache::new()));
    let mut z3 = smt::Z3Process::system(std::time::Duration::from_secs(10));
    for (value, right) in [(94, true), (16, false)] {
        let answer = exercises::Answer::Count { value };
        let mut grading = Grading::new(Grader::new(ex, &answer).expect("a count is planned"), runs.clone());
        // Every chunk (400 events) ends a slice.
        let events = drive_sync(&mut grading, |q| Ok(z3.solve(&q.script).unwrap_or_else(|e| e.as_output())), || true);
        let yields = events.iter().filter(|e| **e == DriverEvent::Yielded).count();
        if right {
            assert!(yields > 0, "the first check runs the analysis in slices: {events:?}");
            assert!(grading.status().is_some_and(|s| s.starts_with("Running ")), "{:?}", grading.status());
        } else {
            assert_eq!(yields, 0, "the run was cached by the first check: {events:?}");
        }
        assert_eq!(events.last(), Some(&DriverEvent::Done));
        let feedback = grading.feedback().expect("graded").clone();
        assert_eq!(feedback.correct, right, "{}", feedback.explanation);
        assert_eq!(feedback, exercises::check_sync(ex, &answer));
    }
}
