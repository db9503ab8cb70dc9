//! A table of malformed exercise files: each one gives one located error
//! (file, line, column, a message in words), nothing panics, and the valid
//! exercises of the same set still load.

use exercises::load::{load_set, LoadError};
use std::collections::BTreeMap;
use xorshift::XorShift;

const GOOD: &str = r#"format = 1
id = "good"
title = "A good one"
prompt = "What does the value analysis answer?"

[program]
source = "int main(void) { return 0; }"

[config]
preset = "value"

[question]
kind = "verdict"
"#;

const LOOP: &str = "extern void reach_error(void);\nint main(void) {\n  int i = 0;\n  while (i < 3) { i = i + 1; }\n  if (i != 3) { reach_error(); }\n  return 0;\n}\n";

/// (file name, text, expected line, expected column, expected message part).
fn table() -> Vec<(&'static str, String, u32, u32, &'static str)> {
    let good = |from: &str, to: &str| GOOD.replacen(from, to, 1);
    vec![
        // TOML syntax: an unterminated string.
        ("syntax.toml", good("title = \"A good one\"", "title = \"A good one"), 3, 20, "string"),
        // An unknown top-level key.
        ("unknown-key.toml", good("prompt =", "colour = \"red\"\nprompt ="), 4, 1, "unknown field `colour`"),
        // A missing required key.
        ("missing-prompt.toml", good("prompt = \"What does the value analysis answer?\"\n", ""), 1, 1, "missing field `prompt`"),
        // A wrong type.
        ("bad-points.toml", good("prompt =", "points = \"ten\"\nprompt ="), 4, 10, "invalid type"),
        // A format version from the future.
        ("future.toml", good("format = 1", "format = 2"), 1, 10, "format version 2"),
        // A bad id.
        ("bad-id.toml", good("id = \"good\"", "id = \"Not Good\""), 2, 6, "exercise id"),
        // An unknown question kind.
        ("bad-kind.toml", good("kind = \"verdict\"", "kind = \"essay\""), 13, 8, "unknown variant `essay`"),
        // An unknown preset.
        ("bad-preset.toml", good("preset = \"value\"", "preset = \"valu\""), 10, 1, "unknown configuration `valu`"),
        // An unknown option in the overrides.
        (
            "bad-option.toml",
            good("preset = \"value\"", "preset = \"value\"\nset = { \"cpa.value.mrge\" = \"JOIN\" }"),
            11,
            9,
            "unknown option `cpa.value.mrge`",
        ),
        // A bad option value.
        (
            "bad-value.toml",
            good("preset = \"value\"", "preset = \"value\"\nset = { \"cpa.value.merge\" = \"SOMETIMES\" }"),
            11,
            9,
            "expected one of SEP, JOIN",
        ),
        // A program with a syntax error (inline: located at its table).
        ("bad-program.toml", good("return 0; }", "return 0 }"), 6, 1, "line 1, column"),
        // Both program file and source.
        ("two-programs.toml", good("[program]\n", "[program]\nfile = \"loop.c\"\n"), 6, 1, "exactly one of `file` and `source`"),
        // A program file outside the set directory.
        (
            "escape.toml",
            good("source = \"int main(void) { return 0; }\"", "file = \"../secret.c\""),
            6,
            1,
            "relative path inside the set",
        ),
        // A gallery path that leaves the gallery.
        (
            "escape-gallery.toml",
            good("source = \"int main(void) { return 0; }\"", "file = \"../../examples/../secret.c\""),
            6,
            1,
            "or `../../examples/NAME.c` for a program of the examples gallery",
        ),
        // A program file that does not exist.
        ("no-file.toml", good("source = \"int main(void) { return 0; }\"", "file = \"nowhere.c\""), 6, 1, "nowhere.c"),
        // A location the program does not have.
        (
            "bad-location.toml",
            good("kind = \"verdict\"", "kind = \"abstract-state\"\ndomain = \"value\"\nlocation = { loop_head = 2 }").replacen(
                "source = \"int main(void) { return 0; }\"",
                "file = \"loop.c\"",
                1,
            ),
            15,
            1,
            "1 loop head(s)",
        ),
        // An octagon question on a value configuration.
        (
            "wrong-domain.toml",
            good("kind = \"verdict\"", "kind = \"abstract-state\"\ndomain = \"octagon\"\nlocation = { node = 1 }"),
            14,
            1,
            "does not run cpa.octagon.OctagonCPA",
        ),
        // A count of abstraction points on a configuration without SymExecCPA's abstraction.
        (
            "symexec-measure.toml",
            good("kind = \"verdict\"", "kind = \"count\"\nmeasure = \"pruned-not-simple\""),
            14,
            1,
            "counts symbolic execution with predicate abstraction",
        ),
        // A next-step question at step 0.
        ("step-zero.toml", good("kind = \"verdict\"", "kind = \"next-step\"\nstep = 0"), 14, 1, "numbered from 1"),
        // An open key that is not an option.
        (
            "bad-open.toml",
            good("kind = \"verdict\"", "kind = \"choose-configuration\"\nopen = { \"no.such.key\" = [] }"),
            14,
            10,
            "not a configuration option",
        ),
        // A file that is not UTF-8 never reaches the parser (see `files`).
        ("binary.toml", String::new(), 1, 1, "not UTF-8"),
        // Empty file.
        ("empty.toml", String::new(), 1, 1, "missing field"),
    ]
}

#[test]
fn malformed_files_give_located_errors_and_the_rest_still_loads() {
    let table = table();
    assert!(table.len() >= 10);
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    let mut index = String::from("format = 1\nid = \"broken\"\ntitle = \"Broken\"\nexercises = [\n  \"good.toml\",\n");
    for (name, text, ..) in &table {
        files.insert(name.to_string(), text.clone());
        index.push_str(&format!("  \"{name}\",\n"));
    }
    index.push_str("  \"also-good.toml\",\n  \"../outside.toml\",\n]\n");
    files.insert("set.toml".into(), index);
    files.insert("good.toml".into(), GOOD.into());
    files.insert("also-good.toml".into(), GOOD.replacen("id = \"good\"", "id = \"also-good\"", 1));
    files.insert("loop.c".into(), LOOP.into());
    let read = |p: &str| -> Result<String, String> {
        if p == "binary.toml" {
            return Err("the file is not UTF-8 text".into());
        }
        files.get(p).cloned().ok_or_else(|| "cannot read file: not found".to_string())
    };
    let loaded = load_set(&read);
    let set = loaded.set.expect("the index is fine");
    let ids: Vec<&str> = set.exercises.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["good", "also-good"], "the valid exercises still load");
    let by_file: BTreeMap<&str, &LoadError> = loaded.errors.iter().map(|e| (e.file.as_str(), e)).collect();
    for (name, _, line, column, part) in &table {
        let Some(e) = by_file.get(name) else { panic!("no error for {name}: {:?}", loaded.errors) };
        assert!(e.message.contains(part), "{name}: message {:?} lacks {part:?}", e.message);
        assert_eq!((e.line, e.column), (*line, *column), "{name}: {e}");
        assert!(e.to_string().starts_with(&format!("{name}:{line}:{column}: error: ")));
    }
    let outside = loaded.errors.iter().find(|e| e.message.contains("../outside.toml")).expect("index entry refused");
    assert_eq!((outside.file.as_str(), outside.line), ("set.toml", 6 + table.len() as u32 + 1));
    assert_eq!(loaded.errors.len(), table.len() + 1);
}

#[test]
fn a_broken_index_is_one_located_error() {
    for (text, line, part) in [
        ("format = 1\nid = \"x\"\ntitle = \"t\"\nexercises = [\"a.toml\"\n", 5, ""),
        ("format = 1\nid = \"X y\"\ntitle = \"t\"\nexercises = []\n", 2, "set id"),
        ("format = 7\nid = \"x\"\ntitle = \"t\"\nexercises = []\n", 1, "format version 7"),
        ("format = 1\nid = \"x\"\ntitle = \"t\"\nreveal_after = 0\nexercises = []\n", 4, "reveal_after"),
        ("format = 1\nid = \"x\"\ntitle = \"t\"\nreveal_after = \"two\"\nexercises = []\n", 4, ""),
    ] {
        let read = |p: &str| if p == "set.toml" { Ok(text.to_string()) } else { Err("missing".to_string()) };
        let loaded = load_set(&read);
        assert!(loaded.set.is_none());
        assert_eq!(loaded.errors.len(), 1);
        assert_eq!(loaded.errors[0].line, line, "{:?}", loaded.errors[0]);
        assert!(loaded.errors[0].message.contains(part));
    }
}

/// Checks that `e` is about `fuzz.toml` and points inside `text`: an
/// existing line, a column at most one past its end, a message in words.
fn assert_located(e: &LoadError, text: &str) {
    assert_eq!(e.file, "fuzz.toml", "{e}");
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(e.line >= 1 && e.line as usize <= lines.len(), "{e} in {} lines: {text:?}", lines.len());
    let len = lines[e.line as usize - 1].chars().count();
    assert!(e.column >= 1 && e.column as usize <= len + 1, "{e} on a line of {len} characters: {text:?}");
    assert!(e.message.split_whitespace().count() >= 2, "{e:?} for {text:?}");
}

#[test]
fn arbitrary_text_gives_located_errors() {
    let mut rng = XorShift::new(0x9e3779b97f4a7c15);
    // The latest number drawn decides the next text's length.
    let mut last = 0x9e3779b97f4a7c15;
    let alphabet: Vec<char> = "[]{}=\"'\n #,.abcdefkindformatquestionprogram0123456789-_\\".chars().collect();
    let (mut loaded, mut errors) = (0, 0);
    for _ in 0..2000 {
        let mut s = String::new();
        for _ in 0..(last % 200) {
            last = rng.next_u64();
            s.push(alphabet[(last % alphabet.len() as u64) as usize]);
        }
        let mut with_header = GOOD.to_string();
        with_header.push_str(&s);
        for text in [s.clone(), with_header] {
            let read = |_: &str| Ok(text.clone());
            match exercises::load::parse_exercise("fuzz.toml", &text, &read) {
                Ok(ex) => {
                    assert!(text.starts_with(GOOD), "{text:?} loaded");
                    assert_eq!(ex.id, "good");
                    loaded += 1;
                }
                Err(e) => {
                    assert_located(&e, &text);
                    errors += 1;
                }
            }
        }
    }
    assert!(loaded > 0 && errors > 2000, "{loaded} loaded, {errors} errors");
}

/// Found by fuzzing: for some syntax errors the TOML parser gives no
/// message at all; the error still says what is wrong.
#[test]
fn a_toml_error_without_words_still_says_what_is_wrong() {
    for text in ["1 =", "format = 1\nid ="] {
        let read = |_: &str| Ok(text.to_string());
        let e = exercises::load::parse_exercise("fuzz.toml", text, &read).unwrap_err();
        assert_located(&e, text);
        assert!(e.message.contains("invalid TOML"), "{e}");
    }
}

#[test]
fn reveal_after_is_read_from_the_index() {
    let text = "format = 1\nid = \"x\"\ntitle = \"t\"\nreveal_after = 3\nexercises = []\n";
    let read = |p: &str| if p == "set.toml" { Ok(text.to_string()) } else { Err("missing".to_string()) };
    assert_eq!(load_set(&read).set.expect("loads").reveal_after, Some(3));
    let without = "format = 1\nid = \"x\"\ntitle = \"t\"\nexercises = []\n";
    let read = |p: &str| if p == "set.toml" { Ok(without.to_string()) } else { Err("missing".to_string()) };
    assert_eq!(load_set(&read).set.expect("loads").reveal_after, None, "default: never");
}
