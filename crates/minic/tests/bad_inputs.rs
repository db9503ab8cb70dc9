//! Bad inputs and the exact diagnostics they produce: line, column and the
//! words a student reads. Each case lists ALL errors of its input, in order.
//! Warnings are checked separately at the end.

struct Case {
    name: &'static str,
    src: &'static str,
    /// (line, column, message) of every error, in source order.
    errors: &'static [(u32, u32, &'static str)],
}

const CASES: &[Case] = &[
    Case { name: "empty", src: "", errors: &[(1, 1, "the file is empty: a mini-C program needs at least a `main` function")] },
    Case {
        name: "whitespace_only",
        src: "  \n\t\n   ",
        errors: &[(1, 1, "the file is empty: a mini-C program needs at least a `main` function")],
    },
    Case { name: "nul_byte", src: "int x;\nint\x00main", errors: &[(2, 4, "the file contains binary data (NUL byte)")] },
    Case {
        name: "control_garbage",
        src: "\x01\x02\x7fint main() {}",
        errors: &[(1, 1, "expected a declaration or a function, found the control character U+0001")],
    },
    Case { name: "truncated_after_brace", src: "int main() {", errors: &[(1, 13, "unclosed `{` opened at line 1")] },
    Case {
        name: "truncated_in_initializer",
        src: "int main() {\n  int x = ",
        errors: &[(2, 11, "unclosed `{` opened at line 1")],
    },
    Case { name: "truncated_in_params", src: "int main(", errors: &[(1, 10, "unclosed `(` opened at line 1")] },
    Case {
        name: "missing_semicolon_after_declaration",
        src: "int main() {\n  int x = 1\n  return x;\n}\n",
        errors: &[(2, 12, "expected `;` after the declaration, found `return` on line 3")],
    },
    Case {
        name: "missing_semicolon_after_expression",
        src: "int main() {\n  int x;\n  x = 1\n}\n",
        errors: &[(3, 8, "expected `;` after the expression, found `}` on line 4")],
    },
    Case {
        name: "misspelled_while",
        src: "int main() {\n  int x = 0;\n  whlie (x < 3) {\n    x++;\n  }\n}\n",
        errors: &[(3, 17, "expected `;` after the expression, found `{` (is `whlie` a misspelled `while`?)")],
    },
    Case { name: "extra_closing_brace", src: "int main() {\n  return 0;\n}\n}\n", errors: &[(4, 1, "`}` has no matching `{`")] },
    Case {
        name: "missing_paren_after_condition",
        src: "int main() {\n  int x = 0;\n  if (x {\n  }\n}\n",
        errors: &[(3, 9, "expected `)` after the condition, found `{`")],
    },
    Case {
        name: "missing_expression",
        src: "int main() {\n  int x;\n  x = ;\n}\n",
        errors: &[(3, 7, "expected an expression, found `;`")],
    },
    Case {
        name: "missing_argument",
        src: "int f(int a, int b) { return a; }\nint main() {\n  return f(1, );\n}\n",
        errors: &[(3, 15, "expected an expression, found `)`")],
    },
    Case {
        name: "variable_length_array",
        src: "int main() {\n  int n = 3;\n  int a[n];\n  return 0;\n}\n",
        errors: &[(3, 8, "an array size must be a constant (variable-length arrays are not part of mini-C)")],
    },
    Case {
        name: "array_without_size",
        src: "int a[];\nint main() { return 0; }\n",
        errors: &[(1, 6, "an array needs a size here: write `[N]` with a constant N")],
    },
    Case {
        name: "negative_array_size",
        src: "int a[-1];\nint main() { return 0; }\n",
        errors: &[(1, 6, "an array size must be a positive constant below 2^31")],
    },
    Case {
        name: "struct_parameter_by_value",
        src: "struct point { int x; int y; };\nint f(struct point p) { return 0; }\nint main() { return 0; }\n",
        errors: &[(2, 7, "a struct cannot be passed by value in mini-C: pass a pointer to it")],
    },
    Case {
        name: "undefined_struct_variable",
        src: "int main() {\n  struct s v;\n  return 0;\n}\n",
        errors: &[(2, 12, "the variable `v` has type `struct s`, whose size is not known (is the struct defined?)")],
    },
    Case {
        name: "struct_defined_twice",
        src: "struct s { int a; };\nstruct s { int b; };\nint main() { return 0; }\n",
        errors: &[(2, 8, "`struct s` is defined twice")],
    },
    Case {
        name: "field_declared_twice",
        src: "struct s { int a; int a; };\nint main() { return 0; }\n",
        errors: &[(1, 23, "the field `a` is declared twice")],
    },
    Case {
        name: "function_in_struct",
        src: "struct s { int f(int); };\nint main() { return 0; }\n",
        errors: &[(1, 16, "a struct cannot contain a function (function pointers are not part of mini-C)")],
    },
    Case {
        name: "union_declaration",
        src: "int main() {\n  union u v;\n}\n",
        errors: &[(2, 3, "unions are not part of mini-C")],
    },
    Case {
        name: "enum_declaration",
        src: "enum color { RED, GREEN };\nint main() { return 0; }\n",
        errors: &[(1, 1, "enums are not part of mini-C")],
    },
    Case {
        name: "float_variable",
        src: "int main() {\n  float f;\n}\n",
        errors: &[(2, 3, "floating-point numbers are not part of mini-C")],
    },
    Case {
        name: "double_literal",
        src: "int main() {\n  int x = 1.5;\n}\n",
        errors: &[(2, 11, "floating-point numbers are not part of mini-C")],
    },
    Case {
        name: "string_outside_assert",
        src: "int main() {\n  int x = \"hello\";\n}\n",
        errors: &[(
            2,
            11,
            "strings are not part of mini-C (they may only be passed to `__assert_fail`, `__assert_perror_fail` and `__assert`)",
        )],
    },
    Case {
        name: "address_of_a_function",
        src: "int main() {\n  int y = &main;\n}\n",
        errors: &[(2, 11, "function pointers are not part of mini-C")],
    },
    Case {
        name: "union_in_a_cast",
        src: "int main() {\n  int x = 0;\n  x = (union u *) 0;\n}\n",
        errors: &[(3, 8, "unions are not part of mini-C")],
    },
    Case {
        name: "function_pointer",
        src: "int (*fp)(int);\nint main() { return 0; }\n",
        errors: &[(1, 5, "function pointers are not part of mini-C")],
    },
    Case {
        name: "inline_asm",
        src: "int main() {\n  asm(\"nop\");\n}\n",
        errors: &[(2, 3, "inline assembly is not part of mini-C")],
    },
    Case {
        name: "realloc",
        src: "int main() {\n  int *p = 0;\n  p = realloc(p, 4);\n}\n",
        errors: &[(3, 7, "`realloc` is not part of mini-C (use `malloc`, copy, and `free`)")],
    },
    Case {
        name: "pthread_type",
        src: "pthread_t t;\nint main() { return 0; }\n",
        errors: &[(1, 1, "threads are not part of mini-C")],
    },
    Case {
        name: "pthread_call",
        src: "int main() {\n  pthread_create(0, 0, 0, 0);\n}\n",
        errors: &[(2, 3, "threads are not part of mini-C")],
    },
    Case {
        name: "undeclared_variable",
        src: "int main() {\n  int x = 1;\n  return x + y;\n}\n",
        errors: &[(3, 14, "undeclared variable `y`")],
    },
    Case {
        name: "assignment_to_undeclared",
        src: "int main() {\n  z = 3;\n}\n",
        errors: &[(2, 3, "assignment to the undeclared variable `z`")],
    },
    Case {
        name: "undeclared_function",
        src: "int main() {\n  return g(1);\n}\n",
        errors: &[(2, 10, "call of the undeclared function `g`")],
    },
    Case {
        name: "wrong_arity",
        src: "int f(int a, int b) { return a + b; }\nint main() {\n  return f(1);\n}\n",
        errors: &[(3, 10, "`f` expects 2 arguments, but 1 was given")],
    },
    Case {
        name: "wrong_arity_builtin",
        src: "int main() {\n  __VERIFIER_assume(1, 2);\n}\n",
        errors: &[(2, 3, "`__VERIFIER_assume` expects 1 argument, but 2 were given")],
    },
    Case {
        name: "break_outside_loop",
        src: "int main() {\n  break;\n}\n",
        errors: &[(2, 3, "`break` outside of a loop or `switch`")],
    },
    Case {
        name: "continue_in_switch_only",
        src: "int main() {\n  int x = 0;\n  switch (x) { case 0: continue; }\n}\n",
        errors: &[(3, 24, "`continue` outside of a loop")],
    },
    Case {
        name: "case_outside_switch",
        src: "int main() {\n  case 1: ;\n}\n",
        errors: &[(2, 3, "`case` outside of a `switch`")],
    },
    Case {
        name: "default_outside_switch",
        src: "int main() {\n  default: ;\n}\n",
        errors: &[(2, 3, "`default` outside of a `switch`")],
    },
    Case {
        name: "duplicate_label",
        src: "int main() {\n  L: ;\n  L: ;\n}\n",
        errors: &[(3, 3, "the label `L` is defined twice (first at line 2)")],
    },
    Case {
        name: "goto_undefined_label",
        src: "int main() {\n  goto done;\n}\n",
        errors: &[(2, 8, "`goto` to the undefined label `done`")],
    },
    Case {
        name: "non_constant_case",
        src: "int main() {\n  int x = 0;\n  int y = 1;\n  switch (x) { case y: break; }\n}\n",
        errors: &[(4, 21, "the value of a `case` must be a constant")],
    },
    Case {
        name: "duplicate_case",
        src: "int main() {\n  int x = 0;\n  switch (x) { case 1: break; case 2-1: break; }\n}\n",
        errors: &[(3, 36, "duplicate `case 1` (first at line 3)")],
    },
    Case {
        name: "void_result_used",
        src: "void f() { }\nint main() {\n  int x = f();\n}\n",
        errors: &[(3, 11, "`f` returns `void`, so its result cannot be used")],
    },
    Case { name: "no_main", src: "int f() { return 0; }\n", errors: &[(1, 1, "the program has no `main` function")] },
    Case {
        name: "redeclaration",
        src: "int main() {\n  int x = 0;\n  int x = 1;\n}\n",
        errors: &[(3, 7, "`x` is already declared in this scope (at line 2)")],
    },
    Case {
        name: "duplicate_function",
        src: "int f() { return 0; }\nint f() { return 1; }\nint main() { return 0; }\n",
        errors: &[(2, 5, "the function `f` is defined twice (first definition at line 1)")],
    },
    Case {
        name: "return_value_from_void",
        src: "void f() {\n  return 1;\n}\nint main() { return 0; }\n",
        errors: &[(2, 10, "the function `f` returns `void`, so `return` cannot have a value")],
    },
    Case {
        name: "global_non_constant_init",
        src: "int a = 1;\nint b = a;\nint main() { return 0; }\n",
        errors: &[(2, 9, "the initial value of the global variable `b` must be a constant")],
    },
    Case {
        name: "unterminated_comment",
        src: "int main() {\n  /* no end\n}\n",
        errors: &[(2, 3, "unterminated comment: `/*` has no matching `*/`")],
    },
    Case {
        name: "unterminated_string",
        src: "int main() {\n  __assert_fail(\"oops, 0, 0, 0);\n}\n",
        errors: &[(2, 17, "unterminated string literal: `\"` has no closing `\"`")],
    },
    Case {
        name: "bad_octal",
        src: "int main() {\n  return 09;\n}\n",
        errors: &[(2, 10, "invalid digit `9` in the octal number `09`")],
    },
    Case {
        name: "literal_too_large",
        src: "int main() {\n  return 99999999999999999999;\n}\n",
        errors: &[(2, 10, "the number `99999999999999999999` is too large (mini-C integers have at most 64 bits)")],
    },
    Case {
        name: "multi_char_literal",
        src: "int main() {\n  return 'ab';\n}\n",
        errors: &[(2, 10, "the character literal 'ab' has more than one character")],
    },
    Case {
        name: "sizeof_array_type",
        src: "int main() {\n  return sizeof(int[3]);\n}\n",
        errors: &[(2, 20, "a cast or `sizeof` to an array type is not part of mini-C")],
    },
    Case {
        name: "sizeof_undefined_struct",
        src: "int main() {\n  return sizeof(struct s);\n}\n",
        errors: &[(2, 10, "`sizeof` of `struct s`, whose size is not known (is the struct defined?)")],
    },
    Case {
        name: "nondet_float",
        src: "int main() {\n  int x = __VERIFIER_nondet_float();\n}\n",
        errors: &[(2, 11, "`__VERIFIER_nondet_float` is not part of mini-C (only nondet functions of integer types are)")],
    },
    Case {
        name: "variadic",
        src: "int printf(int, ...);\nint main() { return 0; }\n",
        errors: &[(1, 17, "variadic functions (`...`) are not part of mini-C")],
    },
    Case { name: "unknown_type", src: "int main() {\n  size_t n = 0;\n}\n", errors: &[(2, 3, "unknown type name `size_t`")] },
    Case {
        name: "invalid_type",
        src: "long long long x;\nint main() { return 0; }\n",
        errors: &[(1, 1, "`long long long` is not a valid type")],
    },
    Case {
        name: "void_variable",
        src: "void v;\nint main() { return 0; }\n",
        errors: &[(1, 6, "the variable `v` cannot have type `void`")],
    },
    Case {
        name: "mismatched_bracket",
        src: "int main() {\n  int x = (1];\n}\n",
        errors: &[(2, 13, "found `]`, but the `(` opened at line 2, column 11 must be closed first with `)`")],
    },
    Case {
        name: "string_to_user_function",
        src: "int f(int a) { return a; }\nint main() {\n  return f(\"s\");\n}\n",
        errors: &[(
            3,
            12,
            "strings are not part of mini-C (they may only be passed to `__assert_fail`, `__assert_perror_fail` and `__assert`)",
        )],
    },
    Case {
        name: "call_of_variable",
        src: "int main() {\n  int x = 0;\n  return x(1);\n}\n",
        errors: &[(3, 10, "`x` is a variable, not a function")],
    },
    Case {
        name: "missing_type",
        src: "int main() {\n  static x = 1;\n}\n",
        errors: &[(2, 3, "missing type: write `int` (mini-C has no implicit `int`)")],
    },
    Case {
        name: "multi_error",
        src: "int main() {\n  int x = 1\n}\nint f() {\n  return (;\n}\nint g() {\n  whlie (1) {}\n}\n",
        errors: &[
            (2, 12, "expected `;` after the declaration, found `}` on line 3"),
            (5, 11, "expected an expression, found `;`"),
            (8, 13, "expected `;` after the expression, found `{` (is `whlie` a misspelled `while`?)"),
        ],
    },
    Case { name: "else_without_if", src: "int main() {\n  else {}\n}\n", errors: &[(2, 3, "`else` without an `if` before it")] },
    Case {
        name: "function_without_result_type",
        src: "main() {\n}\n",
        errors: &[(1, 1, "the function `main` needs a result type: write `int main(...)` (mini-C has no implicit `int`)")],
    },
    Case {
        name: "missing_colon_after_case",
        src: "int main() {\n  int x;\n  switch (x) { case 1 x = 2; }\n}\n",
        errors: &[(3, 23, "expected `:` after the `case` value, found `x`")],
    },
    Case {
        name: "increment_of_an_expression",
        src: "int main() {\n  int x;\n  (x + 1)++;\n  --(x + 1);\n}\n",
        errors: &[
            (3, 10, "`++` needs a variable or another lvalue (`*p`, `a[i]`, `s.f`)"),
            (4, 3, "`--` needs a variable or another lvalue (`*p`, `a[i]`, `s.f`)"),
        ],
    },
    Case {
        name: "missing_semicolon_after_do_while",
        src: "int main() {\n  int x;\n  do { } while (x)\n}\n",
        errors: &[(3, 19, "expected `;` at the end of the statement, found `}` on line 4")],
    },
    Case {
        name: "misspelled_return",
        src: "int main() {\n  retrun 0;\n}\n",
        errors: &[(2, 10, "expected `;` after the expression, found `0` (is `retrun` a misspelled `return`?)")],
    },
    Case {
        name: "comma_instead_of_semicolon_in_for",
        src: "int main() {\n  int i;\n  for (i = 0; i < 3, i++) {}\n}\n",
        errors: &[(3, 25, "expected `;` in the `for` header, found `)`")],
    },
    Case {
        name: "name_starting_with_digit",
        src: "int main() {\n  int 3x = 1;\n}\n",
        errors: &[(2, 7, "expected `;` after the declaration or a name to declare, found `3x`")],
    },
    Case {
        name: "condition_without_parentheses",
        src: "int main() {\n  int x;\n  if x > 3 {}\n}\n",
        errors: &[(3, 6, "expected `(` before the condition, found `x`")],
    },
    Case {
        name: "declaration_missing_semicolon_at_end_of_file",
        src: "int main() {\n  return 0;\n}\nint x = 1\n",
        errors: &[(4, 10, "expected `;` after the declaration, found the end of the file")],
    },
    Case {
        name: "unknown_escape",
        src: "int main() {\n  return '\\q';\n}\n",
        errors: &[(2, 10, "unknown escape sequence `\\q`")],
    },
    Case {
        name: "unclosed_parenthesis_in_expression",
        src: "int main() {\n  int x = (1 + 2;\n}\n",
        errors: &[(2, 17, "expected `)` to close the `(` at line 2, column 11, found `;`")],
    },
    Case {
        name: "unknown_parameter_type",
        src: "int f(size_t n) { return 0; }\nint main() { return 0; }\n",
        errors: &[(1, 7, "unknown type name `size_t`")],
    },
    Case {
        name: "function_pointer_parameter",
        src: "int f(int (*g)(int)) { return 0; }\nint main() { return 0; }\n",
        errors: &[(1, 11, "function pointers are not part of mini-C")],
    },
    Case {
        name: "assignment_to_an_expression",
        src: "int main() {\n  int a;\n  a++ = 1;\n}\n",
        errors: &[(3, 7, "the left side of `=` must be a variable or another lvalue (`*p`, `a[i]`, `s.f`)")],
    },
];

#[test]
fn every_bad_input_gives_exactly_the_expected_errors() {
    assert!(CASES.len() >= 35);
    let mut mismatches = Vec::new();
    for case in CASES {
        let out = minic::parse(case.src);
        assert!(out.unit.is_none(), "{}: an input with errors must not give an AST", case.name);
        let got: Vec<(u32, u32, String)> = out.errors().map(|d| (d.span.line, d.span.col, d.message.clone())).collect();
        let want: Vec<(u32, u32, String)> = case.errors.iter().map(|(l, c, m)| (*l, *c, m.to_string())).collect();
        if got != want {
            mismatches.push(format!("{}:\n  want {want:?}\n  got  {got:?}", case.name));
        }
        for d in &out.diagnostics {
            assert!(d.span.line >= 1 && d.span.col >= 1 && d.span.start <= case.src.len(), "{}: {d:?}", case.name);
            for rule_word in ["Rule", "expr_", "_stmt", "decl_", "EOI", "SOI", "positives", "ident"] {
                assert!(!d.message.contains(rule_word), "{}: a grammar rule name in {:?}", case.name, d.message);
            }
        }
    }
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}

#[test]
fn display_and_cli_rendering_of_a_diagnostic() {
    let out = minic::parse("int main() {\n  int x = 0;\n  union u v;\n}\n");
    let d = out.errors().next().expect("an error");
    assert_eq!(d.to_string(), "line 3, column 3: unions are not part of mini-C");
    assert_eq!(minic::render_diagnostic("prog.c", d), "prog.c:3:3: error: unions are not part of mini-C");
}

#[test]
fn warnings_do_not_stop_the_parse() {
    let out = minic::parse("#define N 10\n#include <assert.h>\n# 1 \"x.c\"\n#line 7\n#pragma weak f\nint main() { return N; }\n");
    assert!(out.unit.is_some());
    let rendered: Vec<String> = out.diagnostics.iter().map(|d| minic::render_diagnostic("w.c", d)).collect();
    assert_eq!(rendered, vec!["w.c:5:1: warning: the directive `#pragma weak f` is ignored (it cannot change the program)"]);
    let out = minic::parse("int f() {\n  return;\n}\nint main() { return f(); }\n");
    assert!(out.unit.is_some());
    assert_eq!(
        out.diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
        vec!["line 2, column 3: warning: `return` without a value in the function `f`, which returns `int`"]
    );
}

#[test]
fn syntax_errors_in_several_items_are_all_reported() {
    // Parsing resumes at the next top-level item after each syntax error.
    let src = "int a = ;\nint b = 1\nint main() { return 0; }\nint c = );\n";
    let got: Vec<String> = minic::parse(src).diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        got,
        vec![
            "line 1, column 9: expected an expression, found `;`",
            "line 2, column 10: expected `;` after the declaration, found `int` on line 3",
            "line 4, column 9: `)` has no matching `(`",
        ]
    );
}

#[test]
fn errors_in_several_statements_of_one_function_are_all_reported() {
    // Parsing resumes after each broken statement; `if (x {` is repaired so
    // that its block and `else` still parse (no follow-on errors).
    let src = "int main() {\n  int x = 1\n  int y = 2;\n  if (x {\n    y = 3\n  } else {\n    y = 4;\n  }\n\
               whlie (x < 3) {\n    x++;\n  }\n  for (x = 0; x < 3, x++) { y--; }\n  return (y;\n}\n\
               int f() { return 1 }\n";
    let got: Vec<String> = minic::parse(src).diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        got,
        vec![
            "line 2, column 12: expected `;` after the declaration, found `int` on line 3",
            "line 4, column 9: expected `)` after the condition, found `{`",
            "line 5, column 10: expected `;` after the expression, found `}` on line 6",
            "line 9, column 15: expected `;` after the expression, found `{` (is `whlie` a misspelled `while`?)",
            "line 12, column 25: expected `;` in the `for` header, found `)`",
            "line 13, column 12: expected `)` to close the `(` at line 13, column 10, found `;`",
            "line 15, column 20: expected `;` at the end of the statement, found `}`",
        ]
    );
}

#[test]
fn at_most_ten_syntax_errors_are_reported() {
    let src = format!("int main() {{\n{}}}\n", "  x = ;\n".repeat(50));
    let out = minic::parse(&src);
    assert_eq!(out.diagnostics.len(), minic::MAX_SYNTAX_ERRORS);
    let lines: Vec<u32> = out.diagnostics.iter().map(|d| d.span.line).collect();
    assert_eq!(lines, (2..12).collect::<Vec<u32>>());
    assert!(out.diagnostics.iter().all(|d| d.message == "expected an expression, found `;`"));
}

fn first_error_of(src: &str) -> (u32, u32, String) {
    let out = minic::parse(src);
    let d = out.errors().next().unwrap_or_else(|| panic!("expected an error, got {:?}", out.diagnostics));
    (d.span.line, d.span.col, d.message.clone())
}

#[test]
fn ten_thousand_parentheses_are_refused_before_pest_runs() {
    let src = format!("int main() {{ return {}1{}; }}", "(".repeat(10_000), ")".repeat(10_000));
    // `{` is level 1, so the 200th `(` (column 21 + 199) is level 201.
    assert_eq!(first_error_of(&src), (1, 220, "nesting deeper than 200 levels is not supported".to_string()));
}

#[test]
fn a_megabyte_of_valid_code_parses() {
    let mut src = String::from("int g;\n");
    let mut i = 0;
    while src.len() < 1_000_000 {
        src.push_str(&format!(
            "int f{i}(int a, unsigned b) {{\n  int x = a * 3 + (int) b;\n  if (x > 10) {{ x = x - 1; }} else {{ x++; }}\n  while (x > 0) x--;\n  return x + g;\n}}\n"
        ));
        i += 1;
    }
    src.push_str("int main() { return f0(1, 2u); }\n");
    // Its speed is measured by `cargo bench -p cfa --bench frontend`, not here.
    let out = minic::parse(&src);
    assert!(out.diagnostics.is_empty(), "{:?}", &out.diagnostics[..out.diagnostics.len().min(3)]);
    assert_eq!(out.unit.expect("parses").items.len(), i + 2);
}
