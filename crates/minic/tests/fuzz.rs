//! Fuzzing the front end with proptest (cargo-fuzz needs a nightly
//! toolchain; these run on stable, offline, in `cargo test`).
//!
//! Inputs: arbitrary bytes (lossy UTF-8 and raw ASCII with control
//! characters), arbitrary text, token soup of mini-C's real tokens, and
//! near-valid programs — the SV-COMP tasks and `static/examples/*.c` with
//! bytes, lines or tokens deleted, duplicated, swapped or inserted.
//!
//! Properties of every parse ([`check`]): no panic; a unit exactly when
//! there is no error; every diagnostic's line and column lie inside the
//! input and match its byte offset; every message is non-empty and names no
//! grammar rule (the rename table of `errors.rs` covers them all).
//!
//! `PROPTEST_CASES` sets the number of cases of each target (default: a
//! few hundred, seconds in a debug build); `PROPTEST_RNG_SEED` replaces the
//! fixed seed, e.g. for a long run:
//! `PROPTEST_CASES=200000 cargo test --release -p minic --test fuzz`.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use std::sync::OnceLock;

/// The configuration of a target: `default_cases` unless `PROPTEST_CASES`
/// says otherwise, a fixed seed unless `PROPTEST_RNG_SEED` gives one (CI
/// stays reproducible), no regression files (found crashes become named
/// tests instead).
fn fuzz_config(default_cases: u32) -> Config {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    Config {
        cases: env("PROPTEST_CASES").map_or(default_cases, |c| c as u32),
        rng_seed: RngSeed::Fixed(env("PROPTEST_RNG_SEED").unwrap_or(0x006d_696e_6963)),
        failure_persistence: None,
        ..Config::default()
    }
}

/// The SV-COMP files and the example programs, as seeds for mutation.
fn seeds() -> &'static Vec<String> {
    static SEEDS: OnceLock<Vec<String>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut out: Vec<String> = svcomp_tasks::tasks().iter().map(|t| t.source()).collect();
        let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../static/examples");
        let mut files: Vec<_> = std::fs::read_dir(examples)
            .expect("static/examples")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        files.sort();
        out.extend(files.iter().map(|p| std::fs::read_to_string(p).expect("example")));
        assert!(out.len() > 60, "{} seeds", out.len());
        out
    })
}

/// The grammar's rule names (read from `grammar.pest`) that cannot be an
/// English word of a message: the ones with `_`, and the short ones.
fn rule_names() -> &'static Vec<String> {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let grammar = include_str!("../src/grammar.pest");
        let english: &[&str] = &[
            "file",
            "item",
            "block",
            "statement",
            "declaration",
            "keyword",
            "cast",
            "comma",
            "noise",
            "storage",
            "attribute",
            "extension",
            "qualifier",
            "initializer",
            "declarator",
            "exponent",
            "conditional",
            "not",
            "plus",
            "add",
            "sub",
            "assign",
            "primary",
            "operand",
            "param",
            "params",
        ];
        let mut names: Vec<String> = grammar
            .lines()
            .filter_map(|l| {
                let (name, rest) = l.split_once('=')?;
                let name = name.trim();
                let is_rule = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                (is_rule && rest.trim_start().starts_with(['{', '_', '@', '$', '!'])).then(|| name.to_string())
            })
            .filter(|n| !english.contains(&n.as_str()))
            .collect();
        names.extend(["EOI".to_string(), "Rule".to_string()]);
        assert!(names.len() > 100, "{} rule names read from the grammar", names.len());
        names
    })
}

/// A message without the parts in backticks, which quote the input (a
/// variable may well be called `expr`).
fn unquoted(message: &str) -> String {
    message.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

const TOKENS: &[&str] = &[
    "int",
    "unsigned",
    "char",
    "long",
    "short",
    "_Bool",
    "void",
    "signed",
    "const",
    "static",
    "extern",
    "typedef",
    "if",
    "else",
    "while",
    "do",
    "for",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "return",
    "goto",
    "sizeof",
    "__extension__",
    "__attribute__",
    "struct",
    "float",
    "asm",
    "x",
    "y",
    "main",
    "f",
    "L",
    "__VERIFIER_nondet_int",
    "reach_error",
    "__assert_fail",
    "__PRETTY_FUNCTION__",
    "0",
    "1",
    "0x1fU",
    "017",
    "1.5",
    "'a'",
    "'\\n'",
    "\"s\"",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    ":",
    "?",
    "=",
    "==",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "&&",
    "|",
    "||",
    "^",
    "~",
    "!",
    "<",
    "<=",
    "<<",
    ">",
    ">>=",
    "++",
    "--",
    "->",
    ".",
    "#define X",
    "\n#define N 100000\n",
    "\n#if N > 2\n",
    "\n#ifdef X\n",
    "\n#else\n",
    "\n#endif\n",
    "N",
    "\n",
    " ",
    "/*",
    "*/",
    "//",
    "'",
    "\"",
];

/// Checks the invariants of one parse.
fn check(src: &str) -> Result<(), TestCaseError> {
    let out = minic::parse(src);
    let has_error = out.diagnostics.iter().any(|d| d.is_error());
    prop_assert_eq!(out.unit.is_some(), !has_error);
    for d in &out.diagnostics {
        prop_assert!(d.span.line >= 1 && d.span.col >= 1, "{:?}", d);
        prop_assert!(d.span.start <= d.span.end && d.span.end <= src.len().max(d.span.start), "{:?}", d);
        prop_assert!(d.span.start <= src.len(), "{:?}", d);
        let (line, col) = minic::span::line_col(src, d.span.start);
        prop_assert_eq!((d.span.line, d.span.col), (line, col), "{:?}", d);
        // Inside the input: an existing line, at most one past its end.
        let lines: Vec<&str> = src.split('\n').collect();
        prop_assert!((d.span.line as usize) <= lines.len(), "{:?} in {} lines", d, lines.len());
        let text = lines[d.span.line as usize - 1];
        prop_assert!(d.span.col as usize <= text.chars().count() + 1, "{:?} on a line of {} characters", d, text.chars().count());
        prop_assert!(!d.message.trim().is_empty(), "{:?}", d);
        let words = unquoted(&d.message);
        for w in words.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            prop_assert!(!rule_names().iter().any(|r| r == w), "grammar rule `{}` named in {:?}", w, d.message);
        }
    }
    Ok(())
}

#[derive(Debug, Clone)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, token: usize },
    Swap { a: usize, b: usize, len: usize },
    Duplicate { at: usize, len: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..12).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(at, token)| Mutation::Insert { at, token }),
        (any::<usize>(), any::<usize>(), 1usize..8).prop_map(|(a, b, len)| Mutation::Swap { a, b, len }),
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
    ]
}

fn apply(src: &str, muts: &[Mutation]) -> String {
    let mut b = src.as_bytes().to_vec();
    for m in muts {
        let n = b.len().max(1);
        match *m {
            Mutation::Delete { at, len } => {
                let at = at % n;
                let end = (at + len).min(b.len());
                b.drain(at.min(b.len())..end);
            }
            Mutation::Insert { at, token } => {
                let at = at % (b.len() + 1);
                let t = format!(" {} ", TOKENS[token]);
                b.splice(at..at, t.bytes());
            }
            Mutation::Swap { a, b: c, len } => {
                if b.len() > 2 * len {
                    let (x, y) = (a % (b.len() - len), c % (b.len() - len));
                    for k in 0..len {
                        b.swap(x + k, y + k);
                    }
                }
            }
            Mutation::Duplicate { at, len } => {
                let at = at % n;
                let end = (at + len).min(b.len());
                let piece: Vec<u8> = b.get(at..end).unwrap_or(&[]).to_vec();
                b.splice(at.min(b.len())..at.min(b.len()), piece);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// The pieces of a program as the tokenizer of a text editor sees them:
/// runs of name characters, runs of blanks, and single other characters.
fn tokens(src: &str) -> Vec<String> {
    minic::testkit::runs(src, |c| c.is_alphanumeric() || c == '_', |c| c == ' ' || c == '\t')
}

/// One edit of a sequence (of lines or of tokens); indices are taken
/// modulo the length.
#[derive(Debug, Clone)]
enum Edit {
    Delete(usize),
    Duplicate(usize),
    Swap(usize, usize),
    /// Moves an element elsewhere.
    Move(usize, usize),
    /// Puts one of [`TOKENS`] before the element.
    Insert(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Move(a, b)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(a, t)| Edit::Insert(a, t)),
    ]
}

fn apply_edits(mut parts: Vec<String>, edits: &[Edit], insert_sep: &str) -> Vec<String> {
    for e in edits {
        let n = parts.len();
        if n == 0 {
            break;
        }
        match *e {
            Edit::Delete(a) => {
                parts.remove(a % n);
            }
            Edit::Duplicate(a) => {
                let p = parts[a % n].clone();
                parts.insert(a % n, p);
            }
            Edit::Swap(a, b) => parts.swap(a % n, b % n),
            Edit::Move(a, b) => {
                let p = parts.remove(a % n);
                parts.insert(b % n, p);
            }
            Edit::Insert(a, t) => parts.insert(a % n, format!("{}{insert_sep}", TOKENS[t])),
        }
    }
    parts
}

/// A seed with whole lines deleted, duplicated, swapped, moved or inserted.
fn line_mutant(seed: usize, edits: &[Edit]) -> String {
    let src = &seeds()[seed % seeds().len()];
    let lines: Vec<String> = src.split_inclusive('\n').map(str::to_string).collect();
    apply_edits(lines, edits, "\n").concat()
}

/// A seed with tokens deleted, duplicated, swapped, moved or inserted.
fn token_mutant(seed: usize, edits: &[Edit]) -> String {
    let src = &seeds()[seed % seeds().len()];
    apply_edits(tokens(src), edits, " ").concat()
}

proptest! {
    #![proptest_config(fuzz_config(500))]

    #[test]
    fn mutated_svcomp_files(seed in any::<usize>(), muts in prop::collection::vec(mutation(), 1..6)) {
        let seeds = seeds();
        let src = apply(&seeds[seed % seeds.len()], &muts);
        check(&src)?;
    }

    #[test]
    fn lines_deleted_duplicated_swapped(seed in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        check(&line_mutant(seed, &edits))?;
    }

    #[test]
    fn tokens_deleted_duplicated_swapped(seed in any::<usize>(), edits in prop::collection::vec(edit(), 1..8)) {
        check(&token_mutant(seed, &edits))?;
    }
}

proptest! {
    #![proptest_config(fuzz_config(2000))]

    #[test]
    fn random_token_soup(tokens in prop::collection::vec(0..TOKENS.len(), 0..80)) {
        let src: String = tokens.iter().map(|&t| TOKENS[t]).collect::<Vec<_>>().join(" ");
        check(&src)?;
    }

    /// Token soup inside a function body, where statements are expected.
    #[test]
    fn token_soup_in_main(tokens in prop::collection::vec(0..TOKENS.len(), 0..60)) {
        let body: String = tokens.iter().map(|&t| TOKENS[t]).collect::<Vec<_>>().join(" ");
        check(&format!("int main(void) {{\n  {body}\n  return 0;\n}}\n"))?;
    }

    #[test]
    fn random_text(src in "[\\PC\\t\\n\\x01\\x7f]{0,200}") {
        check(&src)?;
    }

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    /// Raw ASCII bytes, NUL and other control characters included, taken
    /// as they are (no replacement characters).
    #[test]
    fn raw_ascii_bytes(bytes in prop::collection::vec(0u8..0x80, 0..200)) {
        check(&String::from_utf8(bytes).expect("ASCII"))?;
    }
}

#[test]
fn the_tokenizer_of_the_mutations_keeps_the_text() {
    for src in seeds() {
        assert_eq!(&tokens(src).concat(), src);
    }
    assert_eq!(tokens("int x1 = 0x1f;"), ["int", " ", "x1", " ", "=", " ", "0x1f", ";"]);
    assert_eq!(line_mutant(0, &[]), seeds()[0]);
    // Deleting the first line of a file removes exactly that line.
    let first = seeds()[0].split_inclusive('\n').next().unwrap().len();
    assert_eq!(line_mutant(0, &[Edit::Delete(0)]), seeds()[0][first..]);
}

#[test]
fn a_message_naming_a_rule_is_caught() {
    assert!(rule_names().iter().any(|r| r == "decl_semi"));
    assert!(rule_names().iter().any(|r| r == "expr"));
    assert!(!rule_names().iter().any(|r| r == "declaration"), "an English word");
    assert_eq!(unquoted("expected `expr` after expr_nc"), "expected   after expr_nc");
}
