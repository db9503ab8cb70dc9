//! Fuzzing the exercise loader with proptest. Exercise files and set
//! indexes are untrusted text: whatever they hold, loading never panics,
//! and every problem is one error located in the file it is about (a line
//! that exists, a column inside it or just past its end, a message in words,
//! printed `file:line:column: error: message`).
//!
//! Inputs: the shipped set `static/exercises/cpa-basics` (its instructor
//! file `solutions.toml` is kept aside: the loader never reads it) with an
//! exercise file, the index or a program file mutated — lines and tokens
//! deleted, duplicated, swapped or inserted from TOML's and the format's own
//! vocabulary, bytes flipped — and token soup.
//!
//! `PROPTEST_CASES` sets the number of cases (default: seconds in a debug
//! build), `PROPTEST_RNG_SEED` the seed:
//! `PROPTEST_CASES=200000 cargo test --release -p exercises --test fuzz`.
#![cfg(not(target_arch = "wasm32"))]

use exercises::load::{load_set, parse_exercise, LoadError, SetFiles, EXAMPLES_DIR, SET_INDEX, SOLUTIONS};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// `default_cases` unless `PROPTEST_CASES` says otherwise; a fixed seed
/// unless `PROPTEST_RNG_SEED` gives one; no regression files.
fn fuzz_config(default_cases: u32) -> Config {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    Config {
        cases: env("PROPTEST_CASES").map_or(default_cases, |c| c as u32),
        rng_seed: RngSeed::Fixed(env("PROPTEST_RNG_SEED").unwrap_or(0x6578_6572)),
        failure_persistence: None,
        ..Config::default()
    }
}

/// The shipped set's files by name, without `solutions.toml`, and the
/// gallery programs its exercises name (`../../examples/NAME.c`).
fn shipped() -> &'static BTreeMap<String, String> {
    static FILES: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../static/exercises/cpa-basics");
        let mut files = BTreeMap::new();
        for e in std::fs::read_dir(&dir).expect("the shipped set").flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name != SOLUTIONS {
                files.insert(name, std::fs::read_to_string(e.path()).expect("text"));
            }
        }
        let examples: Vec<String> = files
            .values()
            .flat_map(|text| text.lines())
            .filter_map(|line| line.strip_prefix("file = \"")?.strip_suffix('"'))
            .filter(|f| f.starts_with(EXAMPLES_DIR))
            .map(str::to_string)
            .collect();
        assert!(!examples.is_empty(), "the shipped set names gallery programs");
        for f in examples {
            let text = std::fs::read_to_string(dir.join(&f)).expect("a gallery program");
            files.insert(f, text);
        }
        assert!(files.len() > 30, "{} files", files.len());
        files
    })
}

/// The exercise files of the shipped set (not the index).
fn exercise_names() -> &'static Vec<String> {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| shipped().keys().filter(|n| n.ends_with(".toml") && *n != SET_INDEX).cloned().collect())
}

/// A set directory in memory; `solutions.toml` is not in it.
struct Files(BTreeMap<String, String>);

impl SetFiles for Files {
    fn read(&self, path: &str) -> Result<String, String> {
        self.0.get(path).cloned().ok_or_else(|| format!("cannot read file: {path} not found"))
    }
}

/// TOML's and the format's vocabulary, for insertions and token soup.
const TOKENS: &[&str] = &[
    "=",
    "[",
    "]",
    "[[",
    "]]",
    "{",
    "}",
    ",",
    ".",
    "\"",
    "'",
    "\"\"\"",
    "'''",
    "#",
    "\n",
    " ",
    "\\",
    "\\u",
    "1",
    "0",
    "-1",
    "1e999",
    "99999999999999999999",
    "true",
    "inf",
    "nan",
    "1979-05-27",
    "format",
    "id",
    "title",
    "prompt",
    "points",
    "hints",
    "program",
    "file",
    "source",
    "config",
    "preset",
    "set",
    "question",
    "kind",
    "verdict",
    "count",
    "abstract-state",
    "next-step",
    "precision",
    "invariant",
    "choose-configuration",
    "separate",
    "location",
    "node",
    "loop_head",
    "line",
    "domain",
    "value",
    "octagon",
    "interval",
    "step",
    "ask",
    "measure",
    "tolerance",
    "presets",
    "open",
    "max_states",
    "a",
    "b",
    "[program]",
    "[config]",
    "[question]",
    "[question.open]",
    "\"value-join\"",
    "\"octagon-widening\"",
    "\"cpa.value.merge\"",
    "\"../x.c\"",
    "\"/etc/passwd\"",
    "\"counter.c\"",
    "\"int main() {\"",
];

/// One edit of a sequence (lines or tokens); indices modulo its length.
#[derive(Debug, Clone)]
enum Edit {
    Delete(usize),
    Duplicate(usize),
    Swap(usize, usize),
    Insert(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(a, t)| Edit::Insert(a, t)),
    ]
}

fn apply(mut parts: Vec<String>, edits: &[Edit]) -> String {
    for e in edits {
        let n = parts.len();
        if n == 0 {
            parts.push(String::new());
            continue;
        }
        match *e {
            Edit::Delete(a) => {
                parts.remove(a % n);
            }
            Edit::Duplicate(a) => parts.insert(a % n, parts[a % n].clone()),
            Edit::Swap(a, b) => parts.swap(a % n, b % n),
            Edit::Insert(a, t) => parts.insert(a % n, TOKENS[t].to_string()),
        }
    }
    parts.concat()
}

/// Runs of letters, digits, `_` and `-`, runs of blanks, and single other
/// characters.
fn tokens(text: &str) -> Vec<String> {
    minic::testkit::runs(text, |c| c.is_alphanumeric() || c == '_' || c == '-', |c| c == ' ')
}

/// How a file is damaged: its lines edited, its tokens edited, or bytes
/// flipped (the result read as lossy UTF-8).
#[derive(Debug, Clone)]
enum Damage {
    Lines(Vec<Edit>),
    Tokens(Vec<Edit>),
    Bytes(Vec<(usize, u8)>),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        prop::collection::vec(edit(), 1..5).prop_map(Damage::Lines),
        prop::collection::vec(edit(), 1..6).prop_map(Damage::Tokens),
        prop::collection::vec((any::<usize>(), 1u8..=255), 1..4).prop_map(Damage::Bytes),
    ]
}

fn damaged(text: &str, d: &Damage) -> String {
    match d {
        Damage::Lines(e) => apply(text.split_inclusive('\n').map(str::to_string).collect(), e),
        Damage::Tokens(e) => apply(tokens(text), e),
        Damage::Bytes(flips) => {
            let mut b = text.as_bytes().to_vec();
            for &(at, x) in flips {
                if !b.is_empty() {
                    let n = b.len();
                    b[at % n] ^= x;
                }
            }
            String::from_utf8_lossy(&b).into_owned()
        }
    }
}

/// Checks that `e` is located in the file it names, as the set holds it.
fn located(e: &LoadError, files: &BTreeMap<String, String>) -> Result<(), TestCaseError> {
    let text = files.get(&e.file);
    if text.is_none() {
        // A file the index lists but the set lacks (the name may be
        // spelled with escapes there): its read error, at its start.
        prop_assert!(e.file.ends_with(".toml"), "{}: a file nobody asked for", e);
        prop_assert!(e.message.starts_with("cannot read file") && (e.line, e.column) == (1, 1), "{}", e);
        return Ok(());
    }
    let lines: Vec<&str> = text.map_or("", |t| t.as_str()).split('\n').collect();
    prop_assert!(e.line >= 1 && e.line as usize <= lines.len(), "{e}: line out of the file's {} lines", lines.len());
    let len = lines[e.line as usize - 1].chars().count();
    prop_assert!(e.column >= 1 && e.column as usize <= len + 1, "{e}: column out of a line of {len} characters");
    prop_assert!(!e.message.trim().is_empty(), "{e:?}");
    let shown = format!("{}:{}:{}: error: {}", e.file, e.line, e.column, e.message);
    prop_assert_eq!(e.to_string(), shown);
    Ok(())
}

/// Loads exercise `name` of `files`: a valid exercise named after its file,
/// the same on a second load, or one located error.
fn check_exercise(name: &str, files: &BTreeMap<String, String>) -> Result<(), TestCaseError> {
    let set = Files(files.clone());
    match parse_exercise(name, &files[name], &set) {
        Ok(ex) => {
            prop_assert_eq!(&ex.file, name);
            prop_assert!(exercises::load::valid_id(&ex.id), "{}", ex.id);
            prop_assert_eq!(parse_exercise(name, &files[name], &set).ok(), Some(ex));
        }
        Err(e) => located(&e, files)?,
    }
    Ok(())
}

/// Loads the whole set: every error located; an exercise is loaded for an
/// index entry unless that entry has an error; ids are unique.
fn check_set(files: &BTreeMap<String, String>) -> Result<(), TestCaseError> {
    let loaded = load_set(&Files(files.clone()));
    for e in &loaded.errors {
        located(e, files)?;
    }
    match &loaded.set {
        None => prop_assert_eq!(loaded.errors.len(), 1, "{:?}", loaded.errors),
        Some(set) => {
            let mut ids: Vec<&str> = set.exercises.iter().map(|e| e.id.as_str()).collect();
            ids.sort();
            let n = ids.len();
            ids.dedup();
            prop_assert_eq!(ids.len(), n, "duplicate ids");
            for ex in &set.exercises {
                prop_assert!(files.contains_key(&ex.file), "{} loaded from nowhere", ex.file);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(fuzz_config(150))]

    #[test]
    fn damaged_exercise_files_load_or_give_located_errors(which in any::<usize>(), d in damage()) {
        let names = exercise_names();
        let name = &names[which % names.len()];
        let mut files = shipped().clone();
        let text = damaged(&files[name], &d);
        files.insert(name.clone(), text);
        check_exercise(name, &files)?;
    }

    #[test]
    fn damaged_program_files_give_errors_located_in_them(which in any::<usize>(), d in damage()) {
        let programs: Vec<&String> = shipped().keys().filter(|n| n.ends_with(".c")).collect();
        let program = programs[which % programs.len()].clone();
        let mut files = shipped().clone();
        let text = damaged(&files[&program], &d);
        files.insert(program.clone(), text);
        for name in exercise_names().iter().filter(|n| files[*n].contains(&format!("file = \"{program}\""))) {
            check_exercise(name, &files)?;
        }
    }
}

proptest! {
    #![proptest_config(fuzz_config(60))]

    #[test]
    fn damaged_indexes_load_what_they_list(d in damage()) {
        let mut files = shipped().clone();
        let text = damaged(&files[SET_INDEX], &d);
        files.insert(SET_INDEX.to_string(), text);
        check_set(&files)?;
    }
}

proptest! {
    #![proptest_config(fuzz_config(1000))]

    #[test]
    fn toml_token_soup_gives_located_errors(soup in prop::collection::vec(0..TOKENS.len(), 0..60), header in any::<bool>()) {
        let mut text: String = soup.iter().map(|&t| TOKENS[t]).collect::<Vec<_>>().join(if header { "" } else { " " });
        if header {
            text = format!("format = 1\nid = \"x\"\ntitle = \"t\"\nprompt = \"p\"\n{text}");
        }
        let mut files = shipped().clone();
        files.insert("soup.toml".into(), text);
        check_exercise("soup.toml", &files)?;
    }

    #[test]
    fn arbitrary_text_gives_located_errors(text in "\\PC{0,300}") {
        let mut files = shipped().clone();
        files.insert("junk.toml".into(), text);
        check_exercise("junk.toml", &files)?;
    }
}

#[test]
fn the_shipped_set_loads_whole_without_its_solutions() {
    let loaded = load_set(&Files(shipped().clone()));
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    assert_eq!(loaded.set.unwrap().exercises.len(), exercise_names().len());
    let text = &shipped()["04-false-alarm-join.toml"];
    assert_eq!(tokens(text).concat(), *text);
    assert_eq!(damaged(text, &Damage::Lines(vec![])), *text);
}

/// The predicates and formulas a student types for the predicate-analysis
/// kinds: any text reads or is a message, and a formula always equals itself.
mod predicate_answers {
    use super::*;
    use exercises::predicates::{equivalent, parse_formula, parse_predicates};

    const PIECES: &[&str] = &[
        "x", "y", "main::x", "n", "0", "2", "*", "+", "-", "==", "!=", "<=", "<", ">", ">=", "!", "(", ")", "&&", "||", ",",
        "true", "false", " ",
    ];

    fn program() -> &'static cfa::Program {
        static P: OnceLock<cfa::Program> = OnceLock::new();
        P.get_or_init(|| cfa::from_source("int main(void) { int x = 0; int y = 0; int n = 0; return 0; }").unwrap())
    }

    proptest! {
        #![proptest_config(fuzz_config(2000))]

        #[test]
        fn typed_predicates_and_formulas_never_panic(soup in prop::collection::vec(0..PIECES.len(), 0..40), text in "\\PC{0,80}") {
            let typed: String = soup.iter().map(|&i| PIECES[i]).collect::<Vec<_>>().join(" ");
            for t in [typed.as_str(), text.as_str()] {
                let _ = parse_predicates(program(), &[t.to_string()]);
                if let Ok(f) = parse_formula(program(), t) {
                    prop_assert_ne!(equivalent(&f, &f), Some(false));
                }
            }
        }
    }
}
