//! Preprocessor lines: conditional compilation and object-like macros give
//! the program C would compile, diagnostics stay located in the source as
//! written, and everything unsupported that could change the program is an
//! error with line, column and words a student understands.

use proptest::prelude::*;

/// The AST of `src` with every span removed, so two programs can be compared
/// by meaning (a macro use and its expansion have different spans).
fn shape(src: &str) -> String {
    let out = minic::parse(src);
    let errors: Vec<String> = out.errors().map(|d| d.to_string()).collect();
    let unit = out.unit.unwrap_or_else(|| panic!("no AST for:\n{src}\nerrors: {errors:?}"));
    let mut s = format!("{unit:?}");
    while let Some(a) = s.find("Span {") {
        let b = a + s[a..].find('}').expect("a span ends");
        s.replace_range(a..=b, "_");
    }
    s
}

/// (name, program with preprocessor lines, the same program as C sees it).
const SAME_AS: &[(&str, &str, &str)] = &[
    (
        "the defect: a disabled return no longer hides the error",
        "void reach_error();\nint main() {\n#ifdef NEVER\n  return 0;\n#endif\n  reach_error();\n  return 1;\n}\n",
        "void reach_error();\nint main() {\n  reach_error();\n  return 1;\n}\n",
    ),
    (
        "if 0 else",
        "int main() {\n#if 0\n  return 1;\n#else\n  return 2;\n#endif\n}\n",
        "int main() {\n  return 2;\n}\n",
    ),
    (
        "defined and a macro value",
        "#define A\n#define B 3\nint main() {\n#if defined(A) && B > 2\n  return 1;\n#endif\n  return 0;\n}\n",
        "int main() {\n  return 1;\n  return 0;\n}\n",
    ),
    (
        "defined without parentheses, undefined names are 0",
        "#define B 2\nint main() {\n#if defined B && !defined C && C == 0 && B > 2\n  return 1;\n#endif\n  return 0;\n}\n",
        "int main() {\n  return 0;\n}\n",
    ),
    (
        "elif chain takes the first true branch only",
        "#define V 2\nint main() {\n#if V == 1\n  return 1;\n#elif V == 2\n  return 2;\n#elif V >= 2\n  return 3;\n#else\n  return 4;\n#endif\n}\n",
        "int main() {\n  return 2;\n}\n",
    ),
    (
        "nested groups inside a disabled group stay disabled",
        "int main() {\n#if 0\n#if 1\n  return 1;\n#else\n  return 2;\n#endif\n#elif 1\n#ifndef X\n  return 3;\n#endif\n#endif\n  return 4;\n}\n",
        "int main() {\n  return 3;\n  return 4;\n}\n",
    ),
    (
        "undef",
        "#define DEBUG 1\n#undef DEBUG\nint main() {\n#ifdef DEBUG\n  return 1;\n#endif\n#if DEBUG\n  return 2;\n#endif\n  return 0;\n}\n",
        "int main() {\n  return 0;\n}\n",
    ),
    (
        "a constant macro as loop bound",
        "#define N 10\nint main() {\n  int i, s = 0;\n  for (i = 0; i < N; i++) s += N;\n  return s;\n}\n",
        "int main() {\n  int i, s = 0;\n  for (i = 0; i < 10; i++) s += 10;\n  return s;\n}\n",
    ),
    (
        "a macro name inside a longer name is not substituted",
        "#define N 5\nint main() {\n  int NUM = N, N_2 = 1, xN = 2;\n  return NUM + N_2 + xN + N;\n}\n",
        "int main() {\n  int NUM = 5, N_2 = 1, xN = 2;\n  return NUM + N_2 + xN + 5;\n}\n",
    ),
    (
        "not in character literals, strings or comments",
        "#define N 5\nvoid __assert_fail(const char *a, const char *f, unsigned l, const char *fn);\nint main() {\n  int c = 'N'; // N\n  /* N */\n  if (c == N) __assert_fail(\"N\", \"N.c\", N, \"N\");\n  return c;\n}\n",
        "void __assert_fail(const char *a, const char *f, unsigned l, const char *fn);\nint main() {\n  int c = 'N';\n  if (c == 5) __assert_fail(\"N\", \"N.c\", 5, \"N\");\n  return c;\n}\n",
    ),
    (
        "macros in macros are expanded when used, after undef and redefinition",
        "#define M (N + 1)\n#define N 1\nint a = M;\n#undef N\n#define N 5\nint b = M;\nint main() { return a + b; }\n",
        "int a = (1 + 1);\nint b = (5 + 1);\nint main() { return a + b; }\n",
    ),
    (
        "tokens stay apart: x-N with N = -1 is x - -1",
        "#define N -1\nint main() {\n  int x = 3;\n  return x-N;\n}\n",
        "int main() {\n  int x = 3;\n  return x - -1;\n}\n",
    ),
    (
        "a self-referencing macro is expanded once",
        "int y = 1;\n#define y (y + 1)\nint main() {\n  return y;\n}\n",
        "int y = 1;\nint main() {\n  return (y + 1);\n}\n",
    ),
    (
        "a macro standing for a type",
        "#define T unsigned int\nT f(T a) { return a; }\nint main() { return f(1); }\n",
        "unsigned int f(unsigned int a) { return a; }\nint main() { return f(1); }\n",
    ),
    (
        "__LINE__, continued directives and comments in directives",
        "#define LONG 1 + \\\n  2 /* two */ // end\nint main() {\n  return __LINE__ + LONG;\n}\n",
        "int main() {\n  return 4 + 1 + 2;\n}\n",
    ),
    (
        "header macros the program defines or undefines itself are known",
        "#include <limits.h>\n#include <stdlib.h>\n#define INT_MAX 2147483647\n#undef NULL\nint main() {\n#if INT_MAX > 32767 && !defined(NULL)\n  return 1;\n#endif\n  return 0;\n}\n",
        "int main() {\n  return 1;\n  return 0;\n}\n",
    ),
    (
        "names of a header not included count as 0",
        "#include <stdio.h>\nint main() {\n#if INT_MAX\n  return 1;\n#endif\n  return 0;\n}\n",
        "int main() {\n  return 0;\n}\n",
    ),
    (
        "standard headers, line markers, null directives and pragmas are accepted",
        "#include <assert.h>\n#include \"stdlib.h\"\n# 1 \"x.c\"\n#line 7\n#\n#pragma once\nint main() { return 0; }\n",
        "int main() { return 0; }\n",
    ),
    (
        "a directive-looking line inside a comment is not a directive",
        "int main() {\n/*\n#if 0\n*/\n  return 1;\n}\n",
        "int main() {\n  return 1;\n}\n",
    ),
    (
        "#if arithmetic: C's operators, precedence, suffixes and unsigned compare",
        "int main() {\n#if (1 + 2 * 3 == 7) && (-1 < 0) && !(-1 < 0u) && (0x10 >> 2 == 4) && (7 % 4 == 3) \\\n  && (1 ? 2 : 0) == 2 && (~0 == -1) && (5 / 2 == 2) && (1 << 3 | 1) == 9 && 'a' == 97 \\\n  && (10UL ^ 3) == 9 && (0 || 2) == 1 && (1LL - 2 < 0) && 018 == 018\n  return 1;\n#endif\n  return 0;\n}\n",
        "",
    ),
];

#[test]
fn preprocessed_programs_mean_what_c_compiles() {
    let mut mismatches = Vec::new();
    for (name, src, plain) in SAME_AS {
        if plain.is_empty() {
            continue;
        }
        if shape(src) != shape(plain) {
            mismatches.push(*name);
        }
    }
    assert!(mismatches.is_empty(), "different ASTs: {mismatches:?}");
}

#[test]
fn if_arithmetic_follows_c() {
    // The arithmetic case is checked with its expected result written out.
    let (_, src, _) = SAME_AS.last().expect("cases");
    let out = minic::parse(src);
    let errors: Vec<String> = out.errors().map(|d| d.to_string()).collect();
    assert_eq!(errors, vec!["line 4, column 59: invalid digit `8` in the octal number `018`"]);
    let fixed = src.replace("018 == 018", "017 == 15");
    assert_eq!(shape(&fixed), shape("int main() {\n  return 1;\n  return 0;\n}\n"));
}

/// An expected error: line, column, message.
type Located = (u32, u32, &'static str);

/// (name, source, every error).
const BAD: &[(&str, &str, &[Located])] = &[
    ("unterminated if", "#if 1\nint main() { return 0; }\n", &[(1, 1, "`#if` at line 1 has no matching `#endif`")]),
    (
        "unterminated nested ifdef",
        "#ifdef A\n#ifndef B\n#endif\nint main() { return 0; }\n",
        &[(1, 1, "`#ifdef` at line 1 has no matching `#endif`")],
    ),
    ("endif without if", "int main() { return 0; }\n  #endif\n", &[(2, 3, "`#endif` without an `#if` before it")]),
    ("else without if", "#else\nint main() { return 0; }\n", &[(1, 1, "`#else` without an `#if` before it")]),
    ("elif without if", "# elif 1\nint main() { return 0; }\n", &[(1, 1, "`#elif` without an `#if` before it")]),
    (
        "elif after else",
        "#if 0\n#else\n#elif 1\n#endif\nint main() { return 0; }\n",
        &[(3, 1, "`#elif` after the `#else` of line 2: the `#else` must come last")],
    ),
    (
        "two elses",
        "#if 0\n#else\n#else\n#endif\nint main() { return 0; }\n",
        &[(3, 1, "a second `#else` for the same `#if` (the first is at line 2)")],
    ),
    ("if without condition", "#if\n#endif\nint main() { return 0; }\n", &[(1, 1, "`#if` needs a condition")]),
    (
        "malformed: operator at the end",
        "#if 1 +\n#endif\nint main() { return 0; }\n",
        &[(1, 8, "expected a value in the `#if` condition, found the end of the line")],
    ),
    (
        "malformed: two values",
        "#if 1 2\n#endif\nint main() { return 0; }\n",
        &[(1, 7, "expected an operator or the end of the line in the `#if` condition, found `2`")],
    ),
    (
        "malformed: assignment",
        "#if A = 1\n#endif\nint main() { return 0; }\n",
        &[(1, 7, "expected an operator or the end of the line in the `#if` condition, found `=` (`=` assigns; compare with `==`)")],
    ),
    (
        "malformed: unclosed parenthesis",
        "#if (1 || 0\n#endif\nint main() { return 0; }\n",
        &[(1, 12, "expected `)` in the `#if` condition, found the end of the line")],
    ),
    (
        "malformed: missing colon",
        "#if 1 ? 2 3\n#endif\nint main() { return 0; }\n",
        &[(1, 11, "expected `:` of the `?` in the `#if` condition, found `3`")],
    ),
    (
        "malformed: a string",
        "#if \"yes\"\n#endif\nint main() { return 0; }\n",
        &[(1, 5, "expected a value in the `#if` condition, found `\"yes\"`")],
    ),
    (
        "malformed: floating point",
        "#if 1.5 > 1\n#endif\nint main() { return 0; }\n",
        &[(1, 5, "floating-point numbers are not allowed in the `#if` condition")],
    ),
    (
        "malformed elif",
        "#if 0\n#elif )\n#endif\nint main() { return 0; }\n",
        &[(2, 7, "expected a value in the `#elif` condition, found `)`")],
    ),
    (
        "malformed: defined without a name",
        "#if defined(1)\n#endif\nint main() { return 0; }\n",
        &[(1, 5, "`defined` needs a macro name: write `defined(NAME)`")],
    ),
    (
        "defined from a macro",
        "#define D defined(X)\n#if D\n#endif\nint main() { return 0; }\n",
        &[(2, 5, "`defined` produced by a macro expansion is not supported; write `defined` in the `#if` itself")],
    ),
    (
        "division by zero",
        "#define Z 0\n#if 1 / Z\n#endif\nint main() { return 0; }\n",
        &[(2, 7, "division by zero in the `#if` condition")],
    ),
    (
        "remainder by zero in elif",
        "#if 0\n#elif 4 % (2 - 2)\n#endif\nint main() { return 0; }\n",
        &[(2, 9, "remainder (`%`) by zero in the `#elif` condition")],
    ),
    ("ifdef without a name", "#ifdef\n#endif\nint main() { return 0; }\n", &[(1, 1, "`#ifdef` needs a macro name")]),
    ("ifndef of a number", "#ifndef 3\n#endif\nint main() { return 0; }\n", &[(1, 9, "`#ifndef` needs a macro name")]),
    ("define without a name", "#define\nint main() { return 0; }\n", &[(1, 1, "`#define` needs a macro name")]),
    ("define defined", "#define defined 1\nint main() { return 0; }\n", &[(1, 9, "`defined` cannot be a macro name")]),
    (
        "function-like macro",
        "#define MAX(a, b) ((a) > (b) ? (a) : (b))\nint main() { return MAX(1, 2); }\n",
        &[(1, 9, "function-like macros (`MAX(...)`) are not supported; preprocess the file first (gcc -E)")],
    ),
    (
        "token pasting",
        "#define AB a ## b\nint main() { return 0; }\n",
        &[(1, 14, "`##` (token pasting) is not supported in macros; preprocess the file first (gcc -E)")],
    ),
    (
        "stringizing",
        "#define S # x\nint main() { return 0; }\n",
        &[(1, 11, "`#` (stringizing) is not supported in macros; preprocess the file first (gcc -E)")],
    ),
    (
        "include of a user file",
        "#include \"util.h\"\nint main() { return 0; }\n",
        &[(1, 10, "`#include` of `util.h` is not supported: mini-C reads one file (only the C standard headers may be included); paste what you need from it or preprocess the file first (gcc -E)")],
    ),
    (
        "computed include",
        "#define H <stdio.h>\n#include H\nint main() { return 0; }\n",
        &[(2, 10, "`#include` needs a file name in `<...>` or `\"...\"`")],
    ),
    (
        "a header macro in a condition",
        "#include <limits.h>\n#if INT_MAX > 32767\n#endif\nint main() { return 0; }\n",
        &[(2, 5, "`INT_MAX` comes from `<limits.h>`, which mini-C does not read; write its value (or `#define` it) instead")],
    ),
    (
        "a header macro tested with ifdef",
        "#include <stdio.h>\n#ifndef EOF\n#endif\nint main() { return 0; }\n",
        &[(2, 9, "`EOF` comes from `<stdio.h>`, which mini-C does not read; write its value (or `#define` it) instead")],
    ),
    (
        "a header macro tested with defined",
        "#include <stdbool.h>\n#if 1 && defined(true)\n#endif\nint main() { return 0; }\n",
        &[(2, 18, "`true` comes from `<stdbool.h>`, which mini-C does not read; write its value (or `#define` it) instead")],
    ),
    (
        "NDEBUG before assert.h",
        "#define NDEBUG\n#include <assert.h>\nint main() { assert(0); return 0; }\n",
        &[(2, 10, "`NDEBUG` is defined, so in C this `<assert.h>` turns `assert` off; mini-C's `assert` always checks: remove `NDEBUG` or the asserts")],
    ),
    (
        "an unterminated comment in a directive",
        "int main() { return 0; }\n#define X 1 /* no end\nint f() { return 1; }\n",
        &[(2, 13, "unterminated comment: `/*` has no matching `*/`")],
    ),
    (
        "an unterminated comment in a disabled group",
        "#if 0\n  /* no end\n#endif\nint main() { return 0; }\n",
        &[(2, 3, "unterminated comment: `/*` has no matching `*/`")],
    ),
    ("error directive", "#ifndef N\n#error define N first\n#endif\nint main() { return 0; }\n", &[(2, 1, "`#error`: define N first")]),
    ("unknown directive", "#includ <stdio.h>\nint main() { return 0; }\n", &[(1, 1, "unknown preprocessor directive `#includ`")]),
    ("include_next", "#include_next <stdio.h>\nint main() { return 0; }\n", &[(1, 1, "`#include_next` is not supported; preprocess the file first (gcc -E)")]),
    (
        "several errors, in order",
        "#endif\n#if 1 +\n#endif\n#define F(x) x\n#if 0\n",
        &[
            (1, 1, "`#endif` without an `#if` before it"),
            (2, 8, "expected a value in the `#if` condition, found the end of the line"),
            (4, 9, "function-like macros (`F(...)`) are not supported; preprocess the file first (gcc -E)"),
            (5, 1, "`#if` at line 5 has no matching `#endif`"),
        ],
    ),
    (
        "an expansion that grows without end",
        "#define A0 x\n#define A1 A0 A0\n#define A2 A1 A1\n#define A3 A2 A2\n#define A4 A3 A3\n#define A5 A4 A4\n\
         #define A6 A5 A5\n#define A7 A6 A6\n#define A8 A7 A7\n#define A9 A8 A8\n#define B0 A9 A9\n#define B1 B0 B0\n\
         #define B2 B1 B1\n#define B3 B2 B2\n#define B4 B3 B3\n#define B5 B4 B4\n#define B6 B5 B5\n#define B7 B6 B6\n\
         #define B8 B7 B7\n#define B9 B8 B8\n#define C0 B9 B9\n#define C1 C0 C0\n#define C2 C1 C1\nint main() {\n  return C2;\n}\n",
        &[(25, 10, "macro expansions make the program larger than 4 MB")],
    ),
    // Errors after preprocessing are located in the source as written,
    // also on lines where an expansion changed the length.
    (
        "an error after a long expansion keeps its column",
        "#define LIMIT 1000000\nint main() {\n  int i = LIMIT + LIMIT + y;\n  return i;\n}\n",
        &[(3, 27, "undeclared variable `y`")],
    ),
    (
        "an error after a short expansion keeps its column",
        "#define A_LONG_NAME 1\nint main() {\n  int i = A_LONG_NAME + A_LONG_NAME + y;\n  return i;\n}\n",
        &[(3, 39, "undeclared variable `y`")],
    ),
    (
        "a syntax error inside an expansion points at the macro",
        "#define CLOSE )\nint main() {\n  int x = 1 CLOSE;\n  return x;\n}\n",
        &[(3, 13, "found `)`, but the `{` opened at line 2, column 12 must be closed first with `}`")],
    ),
    (
        "a syntax error after an expansion on the same line",
        "#define N 100000\nint main() {\n  int x = N + N;;\n  return x +;\n}\n",
        &[(4, 13, "expected an expression, found `;`")],
    ),
    (
        "a disabled group is not checked, the enabled one is",
        "int main() {\n#if 0\n  this is not C at all '\n#else\n  return z;\n#endif\n}\n",
        &[(5, 10, "undeclared variable `z`")],
    ),
];

#[test]
fn every_bad_preprocessor_line_gives_exactly_the_expected_errors() {
    let mut mismatches = Vec::new();
    for (name, src, want) in BAD {
        let out = minic::parse(src);
        assert!(out.unit.is_none(), "{name}: an input with errors must not give an AST");
        let got: Vec<(u32, u32, String)> = out.errors().map(|d| (d.span.line, d.span.col, d.message.clone())).collect();
        let want: Vec<(u32, u32, String)> = want.iter().map(|(l, c, m)| (*l, *c, m.to_string())).collect();
        if got != want {
            mismatches.push(format!("{name}:\n  want {want:?}\n  got  {got:?}"));
        }
        for d in &out.diagnostics {
            // Line and column agree with the span's offset in the source.
            assert!(d.span.start <= d.span.end && d.span.end <= src.len(), "{name}: {d:?}");
            assert_eq!(minic::span::line_col(src, d.span.start), (d.span.line, d.span.col), "{name}: {d:?}");
        }
    }
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}

#[test]
fn at_most_ten_preprocessor_errors_are_reported() {
    let out = minic::parse(&"#endif\n".repeat(100));
    assert_eq!(out.errors().count(), 10);
}

#[test]
fn warnings_only_for_lines_that_cannot_change_the_program() {
    let src = "#pragma once\n#define N 1\n#define N 2\n#if 1\n#else junk\n#endif N\n#ifdef N extra\n#endif\n#warning look\nint main() { return N; }\n";
    let out = minic::parse(src);
    assert!(out.unit.is_some());
    let got: Vec<String> = out.diagnostics.iter().map(|d| minic::render_diagnostic("w.c", d)).collect();
    assert_eq!(
        got,
        vec![
            "w.c:1:1: warning: the directive `#pragma once` is ignored (it cannot change the program)",
            "w.c:3:9: warning: `N` is redefined (it was defined differently at line 2); the new definition counts from here on",
            "w.c:5:7: warning: the text after `#else` is ignored (write it as a comment)",
            "w.c:6:8: warning: the text after `#endif` is ignored (write it as a comment)",
            "w.c:7:10: warning: the text after the macro name in `#ifdef` is ignored",
            "w.c:9:1: warning: `#warning`: look",
        ]
    );
    // An identical redefinition is harmless (C allows it) and `N` is 2 now.
    let out = minic::parse("#define N 2\n#define N 2\nint main() { return N; }\n");
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
}

#[test]
fn spans_of_the_ast_point_into_the_source_as_written() {
    use minic::ast::{ExprKind, Item, StmtKind};
    let src = "#define LIMIT 1000\nint main() {\n  int n = 0;\n  while (n < LIMIT) n = n + 1;\n  return n;\n}\n";
    let unit = minic::parse(src).unit.expect("parses");
    let Item::Function(main) = &unit.items[0] else { panic!("main first") };
    let StmtKind::While { cond, body } = &main.body.stmts[1].kind else { panic!("a while loop") };
    assert_eq!(&src[cond.span.start..cond.span.end], "n < LIMIT");
    let ExprKind::Binary { rhs, .. } = &cond.kind else { panic!("a comparison") };
    assert_eq!(rhs.kind, ExprKind::IntLit { value: 1000, ty: minic::IntType::Int });
    assert_eq!(&src[rhs.span.start..rhs.span.end], "LIMIT");
    assert_eq!((rhs.span.line, rhs.span.col), (4, 14));
    // After the expansion, offsets are those of the source again.
    assert_eq!(&src[body.span.start..body.span.end], "n = n + 1;");
    assert_eq!((body.span.line, body.span.col), (4, 21));
}

#[test]
fn the_preprocessed_text_keeps_lines_and_blanks_what_is_disabled() {
    let src = "#define N 7\nint a = N;\n#if 0\nint b;\n#endif\nint c = 'N';\n";
    let pp = minic::preprocess::preprocess(src);
    assert!(pp.diagnostics.is_empty());
    assert!(!pp.same_offsets());
    let lines: Vec<&str> = pp.text.split('\n').map(str::trim_end).collect();
    assert_eq!(lines, vec!["", "int a =  7 ;", "", "", "", "int c = 'N';", ""]);
    // Without macros the text has the offsets of the source.
    let pp = minic::preprocess::preprocess("#if 1\nint a;\n#endif\n");
    assert!(pp.same_offsets());
    assert_eq!(pp.text, "     \nint a;\n      \n");
}

#[test]
fn svcomp_tasks_are_unchanged_by_the_preprocessor() {
    for task in svcomp_tasks::tasks() {
        let src = task.source();
        let pp = minic::preprocess::preprocess(&src);
        assert!(pp.diagnostics.is_empty(), "{}: {:?}", task.path, pp.diagnostics);
        assert_eq!(pp.text, src, "{}: the preprocessor changed the text", task.path);
    }
}

// ───────────── random nesting against a reference evaluator ─────────────

/// A condition of the generated programs.
#[derive(Clone, Debug)]
enum Cond {
    Lit(i64),
    Defined(usize),
    Name(usize),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Gt(Box<Cond>, Box<Cond>),
    Eq(Box<Cond>, Box<Cond>),
}

/// One line or group of a generated program.
#[derive(Clone, Debug)]
enum Part {
    /// A program line (numbered when rendered).
    Line,
    Define(usize, i64),
    Undef(usize),
    /// `#if c0` ... `#elif c1` ... `#else` ... `#endif`.
    If(Vec<(Cond, Vec<Part>)>, Option<Vec<Part>>),
}

const NAMES: [&str; 3] = ["A", "B", "C"];

fn render_cond(c: &Cond) -> String {
    match c {
        Cond::Lit(v) => v.to_string(),
        Cond::Defined(n) => format!("defined({})", NAMES[*n]),
        Cond::Name(n) => NAMES[*n].to_string(),
        Cond::Not(a) => format!("!({})", render_cond(a)),
        Cond::And(a, b) => format!("({}) && ({})", render_cond(a), render_cond(b)),
        Cond::Or(a, b) => format!("({}) || ({})", render_cond(a), render_cond(b)),
        Cond::Gt(a, b) => format!("({}) > ({})", render_cond(a), render_cond(b)),
        Cond::Eq(a, b) => format!("({}) == ({})", render_cond(a), render_cond(b)),
    }
}

/// Renders parts as lines; program lines are `int vK;` with K its line.
fn render(parts: &[Part], out: &mut Vec<String>) {
    for p in parts {
        match p {
            Part::Line => {
                let k = out.len() + 1;
                out.push(format!("int v{k};"));
            }
            Part::Define(n, v) => out.push(format!("#define {} {v}", NAMES[*n])),
            Part::Undef(n) => out.push(format!("#undef {}", NAMES[*n])),
            Part::If(branches, els) => {
                for (i, (c, body)) in branches.iter().enumerate() {
                    let d = if i == 0 { "if" } else { "elif" };
                    out.push(format!("#{d} {}", render_cond(c)));
                    render(body, out);
                }
                if let Some(body) = els {
                    out.push("#else".to_string());
                    render(body, out);
                }
                out.push("#endif".to_string());
            }
        }
    }
}

/// The reference: C's meaning written as directly as possible.
fn eval(c: &Cond, env: &[Option<i64>; 3]) -> i64 {
    match c {
        Cond::Lit(v) => *v,
        Cond::Defined(n) => env[*n].is_some() as i64,
        Cond::Name(n) => env[*n].unwrap_or(0),
        Cond::Not(a) => (eval(a, env) == 0) as i64,
        Cond::And(a, b) => (eval(a, env) != 0 && eval(b, env) != 0) as i64,
        Cond::Or(a, b) => (eval(a, env) != 0 || eval(b, env) != 0) as i64,
        Cond::Gt(a, b) => (eval(a, env) > eval(b, env)) as i64,
        Cond::Eq(a, b) => (eval(a, env) == eval(b, env)) as i64,
    }
}

/// Walks the parts like the rendering does, collecting enabled program lines.
fn reference(parts: &[Part], enabled: bool, env: &mut [Option<i64>; 3], line: &mut usize, out: &mut Vec<usize>) {
    for p in parts {
        *line += 1;
        match p {
            Part::Line => {
                if enabled {
                    out.push(*line);
                }
            }
            Part::Define(n, v) => {
                if enabled {
                    env[*n] = Some(*v);
                }
            }
            Part::Undef(n) => {
                if enabled {
                    env[*n] = None;
                }
            }
            Part::If(branches, els) => {
                // `*line` is the `#if` line now.
                let mut taken = false;
                for (i, (c, body)) in branches.iter().enumerate() {
                    if i > 0 {
                        *line += 1; // `#elif`
                    }
                    let on = enabled && !taken && eval(c, env) != 0;
                    taken |= on;
                    reference(body, on, env, line, out);
                }
                if let Some(body) = els {
                    *line += 1; // `#else`
                    reference(body, enabled && !taken, env, line, out);
                }
                *line += 1; // `#endif`
            }
        }
    }
}

fn cond_strategy() -> impl Strategy<Value = Cond> {
    let leaf =
        prop_oneof![(-2i64..4).prop_map(Cond::Lit), (0usize..3).prop_map(Cond::Defined), (0usize..3).prop_map(Cond::Name),];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| Cond::Not(Box::new(a))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Cond::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Cond::Or(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Cond::Gt(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Cond::Eq(Box::new(a), Box::new(b))),
        ]
    })
}

fn parts_strategy() -> impl Strategy<Value = Vec<Part>> {
    let leaf = prop_oneof![
        3 => Just(Part::Line),
        1 => (0usize..3, -1i64..4).prop_map(|(n, v)| Part::Define(n, v)),
        1 => (0usize..3).prop_map(Part::Undef),
    ];
    let part = leaf.prop_recursive(4, 40, 4, |inner| {
        let body = prop::collection::vec(inner, 0..4);
        (prop::collection::vec((cond_strategy(), body.clone()), 1..4), prop::option::of(body))
            .prop_map(|(branches, els)| Part::If(branches, els))
    });
    prop::collection::vec(part, 0..6)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn enabled_lines_match_a_reference_evaluator(parts in parts_strategy()) {
        let mut lines = Vec::new();
        render(&parts, &mut lines);
        let src = lines.join("\n") + "\n";
        let mut want = Vec::new();
        let mut line = 0;
        reference(&parts, true, &mut [None, None, None], &mut line, &mut want);
        prop_assert_eq!(line, lines.len(), "the reference counts every line");
        let pp = minic::preprocess::preprocess(&src);
        // Redefinitions give warnings, nothing gives an error.
        prop_assert!(!pp.has_errors(), "{:?}\n{}", pp.diagnostics, src);
        prop_assert!(pp.same_offsets(), "only defines of small numbers, used in conditions only");
        let got: Vec<usize> = pp
            .text
            .split('\n')
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, _)| i + 1)
            .collect();
        prop_assert_eq!(got, want, "{}", src);
    }
}

/// Fragments that make directives, macros, comments and literals collide.
const FRAGMENTS: &[&str] = &[
    "#",
    "# ",
    "if",
    "ifdef",
    "ifndef",
    "elif",
    "else",
    "endif",
    "define",
    "undef",
    "include",
    "line",
    "pragma",
    "error",
    " ",
    "\n",
    "\\\n",
    "\r\n",
    "N",
    "M",
    "defined",
    "(",
    ")",
    "1",
    "0x1F",
    "2u",
    "/",
    "%",
    "+",
    "-",
    "*",
    "?",
    ":",
    "&&",
    "||",
    "!",
    "<<",
    "==",
    "'a'",
    "'",
    "\"",
    "\"s\"",
    "/*",
    "*/",
    "//",
    "<stdio.h>",
    "\"u.h\"",
    "é",
    "int main() { return N; }",
    ";",
    "##",
    "__LINE__",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn any_mix_of_fragments_gives_located_diagnostics_and_the_same_lines(
        picks in prop::collection::vec(0..FRAGMENTS.len(), 0..60)
    ) {
        let src: String = picks.iter().map(|&k| FRAGMENTS[k]).collect();
        let pp = minic::preprocess::preprocess(&src);
        prop_assert_eq!(pp.text.matches('\n').count(), src.matches('\n').count());
        let out = minic::parse(&src);
        prop_assert_eq!(out.unit.is_some(), !out.diagnostics.iter().any(|d| d.is_error()));
        for d in pp.diagnostics.iter().chain(&out.diagnostics) {
            prop_assert!(d.span.start <= d.span.end && d.span.end <= src.len(), "{:?}", d);
            prop_assert!(src.is_char_boundary(d.span.start) && src.is_char_boundary(d.span.end), "{:?}", d);
            prop_assert_eq!(minic::span::line_col(&src, d.span.start), (d.span.line, d.span.col));
        }
    }
}
