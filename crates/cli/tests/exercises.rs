//! `cpaplay exercise check` and `cpaplay grade` end to end (the real
//! binary) on the shipped set and on small sets written here.

use std::path::{Path, PathBuf};
use std::process::Command;

fn cpaplay(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cpaplay")).args(args).output().expect("run cpaplay")
}

fn shipped() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../static/exercises/cpa-basics").to_str().unwrap().to_string()
}

/// A fresh directory for one test.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cpaplay-exercises-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const SET: &str = "format = 1\nid = \"mini\"\ntitle = \"Mini\"\nexercises = [\"a.toml\", \"b.toml\"]\n";

/// An exercise file of the small set on the `value` preset: its header,
/// its program inline (lines ending in `\n`) and its `[question]` lines.
fn exercise(id: &str, title: &str, points: u32, prompt: &str, program: &str, question: &str) -> String {
    format!(
        "format = 1\nid = \"{id}\"\ntitle = \"{title}\"\npoints = {points}\nprompt = \"{prompt}\"\n\n\
         [program]\nsource = \"\"\"\n{program}\"\"\"\n\n[config]\npreset = \"value\"\n\n[question]\n{question}"
    )
}

/// `a.toml`: a verdict question on a safe program.
fn a() -> String {
    let program = "extern void reach_error(void);\nint main(void) { int x = 1; if (x == 2) { reach_error(); } return 0; }\n";
    exercise("a", "Verdict", 2, "What does `value` answer?", program, "kind = \"verdict\"\n")
}

/// `b.toml`: a count question (`[question]` on line 15).
fn b() -> String {
    let program = "int main(void) { int x = 1; return x; }\n";
    exercise("b", "Count", 3, "How many states are reached?", program, "kind = \"count\"\nmeasure = \"reached\"\n")
}

fn mini(name: &str, solutions: &str) -> PathBuf {
    let d = dir(name);
    std::fs::write(d.join("set.toml"), SET).unwrap();
    std::fs::write(d.join("a.toml"), a()).unwrap();
    std::fs::write(d.join("b.toml"), b()).unwrap();
    std::fs::write(d.join("solutions.toml"), solutions).unwrap();
    d
}

const GOOD_SOLUTIONS: &str = r#"format = 1
[[solution]]
exercise = "a"
right = [{ kind = "verdict", verdict = "true" }]
wrong = [{ kind = "verdict", verdict = "false" }]

[[solution]]
exercise = "b"
right = [{ kind = "count", value = 3 }]
wrong = [{ kind = "count", value = 2 }]
"#;

#[test]
fn the_shipped_set_checks() {
    let out = cpaplay(&["exercise", "check", &shipped()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("all reference answers pass and all wrong answers fail"), "{text}");
}

#[test]
fn a_failing_reference_answer_is_a_located_error() {
    let d = mini("ok", GOOD_SOLUTIONS);
    let out = cpaplay(&["exercise", "check", d.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    // The reference count is off by one, and a "wrong" verdict is right.
    let bad = GOOD_SOLUTIONS.replace("value = 3", "value = 4").replace("verdict = \"false\"", "verdict = \"TRUE\"");
    let d = mini("bad", &bad);
    let out = cpaplay(&["exercise", "check", d.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let sol = d.join("solutions.toml").display().to_string();
    assert!(err.contains(&format!("{sol}:2:1: error: wrong answer 1 of `a` is graded right")), "{err}");
    assert!(err.contains(&format!("{sol}:7:1: error: reference answer 1 of `b` is graded wrong")), "{err}");
    assert!(err.contains("had 3 states in the final reached set; you said 4"), "{err}");
}

#[test]
fn malformed_files_and_missing_solutions_are_reported() {
    let d = mini("malformed", "format = 1\n[[solution]]\nexercise = \"a\"\nright = [{ kind = \"verdict\", verdict = \"true\" }]\nwrong = [{ kind = \"verdict\", verdict = \"false\" }]\n");
    std::fs::write(d.join("b.toml"), b().replace("measure = \"reached\"", "measure = \"everything\"")).unwrap();
    let out = cpaplay(&["exercise", "check", d.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let b = d.join("b.toml").display().to_string();
    assert!(err.contains(&format!("{b}:15:1: error: unknown variant `everything`")), "{err}");
    // `a` still loaded and was checked.
    assert!(String::from_utf8_lossy(&out.stdout).contains("checked a (verdict)"));

    let d = mini("no-wrong", &GOOD_SOLUTIONS.replace("wrong = [{ kind = \"count\", value = 2 }]\n", ""));
    let out = cpaplay(&["exercise", "check", d.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`b` lists no wrong answer"));

    let out = cpaplay(&["exercise", "check", "/nonexistent/set"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("set.toml:1:1: error: cannot read file"));
    assert_eq!(cpaplay(&["exercise"]).status.code(), Some(2));
    assert_eq!(cpaplay(&["exercise", "grade"]).status.code(), Some(2));
}

#[test]
fn grade_recomputes_every_answer_and_prints_csv() {
    let d = mini("grade", GOOD_SOLUTIONS);
    let alice = d.join("alice.json");
    std::fs::write(
        &alice,
        r#"{ "format": 1, "student": "alice", "set": "mini",
             "answers": { "a": { "kind": "verdict", "verdict": "true" }, "b": { "kind": "count", "value": 3 } },
             "results": { "a": { "points": 0 } } }"#,
    )
    .unwrap();
    let bob = d.join("bob.json");
    std::fs::write(
        &bob,
        r#"{ "format": 1, "student": "Bob, Jr.", "set": "mini",
             "answers": { "a": { "kind": "verdict", "verdict": "false" } } }"#,
    )
    .unwrap();
    let out = cpaplay(&["grade", d.to_str().unwrap(), alice.to_str().unwrap(), bob.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "student,exercise,points\nalice,a,2\nalice,b,3\n\"Bob, Jr.\",a,0\n\"Bob, Jr.\",b,0\n",
        "the page's own `results` are ignored; unanswered is 0"
    );

    // A broken answers file is a located error; a file for another set is refused.
    let broken = d.join("broken.json");
    std::fs::write(&broken, "{ \"format\": 1,\n  \"student\": 3 }").unwrap();
    let out = cpaplay(&["grade", d.to_str().unwrap(), broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("{}:2:", broken.display())));
    let other = d.join("other.json");
    std::fs::write(&other, r#"{ "format": 1, "student": "c", "set": "cpa-basics", "answers": {} }"#).unwrap();
    let out = cpaplay(&["grade", d.to_str().unwrap(), other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("answers for set `cpa-basics`"));
    assert_eq!(cpaplay(&["grade", d.to_str().unwrap()]).status.code(), Some(2));
}

#[test]
fn grade_first_attempt_scores_the_first_checked_answer() {
    let d = mini("grade-first", GOOD_SOLUTIONS);
    // Carol was wrong on `a` first, then right; `b` was right at once; an
    // old file (no attempts) counts its answer as the only attempt.
    let carol = d.join("carol.json");
    std::fs::write(
        &carol,
        r#"{ "format": 1, "student": "carol", "set": "mini",
             "answers": { "a": { "kind": "verdict", "verdict": "true" }, "b": { "kind": "count", "value": 3 } },
             "attempts": { "a": [ { "kind": "verdict", "verdict": "false" }, { "kind": "verdict", "verdict": "true" } ] } }"#,
    )
    .unwrap();
    let (path, c) = (d.to_str().unwrap(), carol.to_str().unwrap());
    let last = cpaplay(&["grade", path, c]);
    assert!(last.status.success(), "{}", String::from_utf8_lossy(&last.stderr));
    assert_eq!(String::from_utf8_lossy(&last.stdout), "student,exercise,points\ncarol,a,2\ncarol,b,3\n");
    let first = cpaplay(&["grade", "--first-attempt", path, c]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert_eq!(
        String::from_utf8_lossy(&first.stdout),
        "student,exercise,points\ncarol,a,0\ncarol,b,3\n",
        "the wrong first try of `a` scores 0; `b` without attempts is its answer"
    );
    let unknown = cpaplay(&["grade", "--first", path, c]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("--first-attempt"));
}

#[test]
fn grade_on_the_shipped_set_gives_full_points_for_the_reference_answers() {
    // One answers file made of the first reference answer of every exercise.
    let sol = std::fs::read_to_string(Path::new(&shipped()).join("solutions.toml")).unwrap();
    let parsed = exercises::answers::parse_solutions("solutions.toml", &sol).unwrap();
    let answers: serde_json::Map<String, serde_json::Value> =
        parsed.iter().map(|s| (s.solution.exercise.clone(), serde_json::to_value(&s.solution.right[0]).unwrap())).collect();
    let file = serde_json::json!({ "format": 1, "student": "ref", "set": "cpa-basics", "answers": answers });
    let d = dir("shipped-grade");
    let f = d.join("ref.json");
    std::fs::write(&f, serde_json::to_string_pretty(&file).unwrap()).unwrap();
    let out = cpaplay(&["grade", &shipped(), f.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = String::from_utf8_lossy(&out.stdout);
    let set = exercises::load::load_set(&exercises::load::DirFiles(PathBuf::from(shipped()))).set.unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), set.exercises.len());
    for (row, ex) in rows.iter().zip(&set.exercises) {
        assert_eq!(*row, format!("ref,{},{}", ex.id, ex.points), "{csv}");
    }
}
