//! Memory in mini-C, through the whole front end (`cfa::from_source`):
//! the constructs that are accepted, and those refused with a located
//! message naming the construct (table-driven, like the front end's
//! `bad_inputs`); and the interpreter's located stops on invalid accesses.

use concrete::{execute, MemoryError, Options, Outcome, SliceInputs};
use minic::IntModel;

/// Programs that must lower, each with what the interpreter must end with.
const ACCEPTED: &[(&str, &str, Option<i128>)] = &[
    ("pointer_to_local", "int main() { int x = 1; int *p = &x; *p = 5; return x; }", Some(5)),
    ("pointer_to_pointer", "int main() { int x = 1; int *p = &x; int **q = &p; **q = 7; return x; }", Some(7)),
    ("array_and_decay", "int s(int *a, int n) { return a[0] + a[n - 1]; }\nint main() { int a[3] = {4, 5, 6}; return s(a, 3); }", Some(10)),
    ("array_parameter", "int s(int a[3]) { return a[2]; }\nint main() { int a[3] = {4, 5, 6}; return s(a); }", Some(6)),
    ("two_dimensional", "int main() { int m[2][3]; m[1][2] = 9; return m[1][2]; }", Some(9)),
    (
        "struct_fields",
        "struct p { int x; char c; long long w; };\nint main() { struct p v = {1, 2, 3}; v.w = v.x + v.c; return v.w; }",
        Some(3),
    ),
    (
        "typedef_struct_and_arrow",
        "typedef struct n { int d; struct n *next; } node;\nint main() { node a; node b; a.next = &b; b.d = 4; return a.next->d; }",
        Some(4),
    ),
    (
        "heap_list",
        "struct n { int d; struct n *next; };\nint main() {\n  struct n *h = 0;\n  for (int i = 0; i < 3; i++) {\n    struct n *c = (struct n *) malloc(sizeof(struct n));\n    c->d = i; c->next = h; h = c;\n  }\n  int s = 0;\n  while (h) { s += h->d; struct n *t = h->next; free(h); h = t; }\n  return s;\n}",
        Some(3),
    ),
    ("calloc_zeroes", "int main() { int *a = calloc(4, sizeof(int)); return a[3]; }", Some(0)),
    ("globals_zeroed", "int g[5];\nint *q = &g[2];\nint main() { *q = 3; return g[2] + g[4]; }", Some(3)),
    ("pointer_arithmetic_and_compare", "int main() { int a[4]; int *p = a + 3; int *q = &a[1]; return (p - q) + (q < p) + (p != 0); }", Some(4)),
    ("null_and_void_pointer", "int main() { void *v = malloc(4); int *p = (int *) v; *p = 2; p = 0; return p == 0; }", Some(1)),
    ("sizeof_types_and_objects", "struct s { char c; int i; };\nint main() { int a[6]; return sizeof(struct s) + sizeof a + sizeof(int *); }", Some(8 + 24 + 4)),
    ("address_taken_parameter", "void inc(int *p) { (*p)++; }\nint f(int x) { inc(&x); return x; }\nint main() { return f(4); }", Some(5)),
    ("increments_in_memory", "int main() { int a[2] = {1, 1}; int *p = a; p++; (*p)++; a[0] += 3; return a[0] * 10 + a[1]; }", Some(42)),
    ("free_null", "int main() { free(0); return 1; }", Some(1)),
];

/// Programs the front end or the lowering refuses: line, column, message.
const REFUSED: &[(&str, &str, (u32, u32, &str))] = &[
    ("deref_of_int", "int main() {\n  int x = 0;\n  return *x;\n}", (3, 10, "`*` needs a pointer, but `x` is an integer")),
    (
        "index_of_int",
        "int main() {\n  int x = 0;\n  return x[1];\n}",
        (3, 10, "`x` is not an array or pointer, so it cannot be indexed"),
    ),
    (
        "arrow_on_int",
        "int main() {\n  int p = 0;\n  return p->x;\n}",
        (3, 10, "`->` needs a pointer to a struct, but `p` is not a pointer"),
    ),
    (
        "unknown_field",
        "struct s { int a; };\nint main() {\n  struct s v;\n  return v.b;\n}",
        (4, 12, "`struct s` has no field `b`"),
    ),
    (
        "unrelated_pointer_cast",
        "int main() {\n  int x = 0;\n  char *c = (char *) &x;\n  return 0;\n}",
        (3, 13, "the cast from `int *` to `char *` is not part of mini-C (casts between unrelated pointer types)"),
    ),
    (
        "unrelated_pointer_assignment",
        "int main() {\n  int x = 0;\n  long *l = &x;\n  return 0;\n}",
        (3, 13, "a `int *` cannot be used as a `long *`: conversions between unrelated pointer types are not part of mini-C"),
    ),
    (
        "void_pointer_arithmetic",
        "int main() {\n  void *v = malloc(8);\n  v = v + 1;\n  return 0;\n}",
        (3, 7, "arithmetic on `void *` is not part of mini-C: the size of `void` is not known"),
    ),
    (
        "integer_to_pointer",
        "int main() {\n  int *p = 42;\n  return 0;\n}",
        (2, 12, "an integer cannot be converted to the pointer type `int *` (only the constant 0, the null pointer)"),
    ),
    (
        "pointer_to_integer",
        "int main() {\n  int x;\n  int y = &x;\n  return 0;\n}",
        (3, 11, "a pointer (`int *`) cannot be converted to the integer type `int` in mini-C"),
    ),
    (
        "whole_struct_assignment",
        "struct s { int a; };\nint main() {\n  struct s u;\n  struct s v;\n  u = v;\n  return 0;\n}",
        (5, 7, "a whole struct (`v`) cannot be used as a value in mini-C: use its fields"),
    ),
    (
        "multiplying_a_pointer",
        "int main() {\n  int a[2];\n  return a * 2;\n}",
        (3, 10, "`*` does not apply to pointers (only `+`, `-` and comparisons do)"),
    ),
    ("union", "union u { int a; };\nint main() {\n  return 0;\n}", (1, 1, "unions are not part of mini-C")),
    ("function_pointer", "int (*fp)(int);\nint main() {\n  return 0;\n}", (1, 5, "function pointers are not part of mini-C")),
    (
        "too_many_initializers",
        "int main() {\n  int a[2] = {1, 2, 3};\n  return 0;\n}",
        (2, 14, "too many initializers for `a` (3 for 2 elements)"),
    ),
    (
        "returning_a_struct",
        "struct s { int a; };\nstruct s f() { struct s v; return v; }\nint main() {\n  return 0;\n}",
        (2, 10, "a function cannot return a `struct s` in mini-C: return a pointer to it"),
    ),
];

fn options() -> Options {
    Options { model: IntModel::C, max_steps: 100_000, record_states: false }
}

#[test]
fn memory_constructs_are_accepted_and_run_as_c() {
    for (name, src, want) in ACCEPTED {
        let p = match cfa::from_source(src) {
            Ok(p) => p,
            Err(d) => panic!("{name} does not lower: {d:?}"),
        };
        let e = execute(&p, &mut SliceInputs::new(vec![]), options());
        assert_eq!(e.outcome, Outcome::Returned { value: *want }, "{name}");
    }
}

#[test]
fn memory_constructs_outside_mini_c_are_refused_with_located_messages() {
    let mut mismatches = Vec::new();
    for (name, src, (line, col, msg)) in REFUSED {
        let got: Vec<(u32, u32, String)> = match cfa::from_source(src) {
            Ok(_) => vec![],
            Err(ds) => ds.iter().filter(|d| d.is_error()).map(|d| (d.span.line, d.span.col, d.message.clone())).collect(),
        };
        if got.first() != Some(&(*line, *col, msg.to_string())) {
            mismatches.push(format!("{name}: want {:?}\n  got {got:?}", (line, col, msg)));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// The interpreter stops at the edge of an invalid access, with what went wrong.
#[test]
fn invalid_accesses_stop_the_run_at_their_edge() {
    let cases: &[(&str, &str, u32, MemoryError)] = &[
        ("null", "int main() {\n  int *p = 0;\n  return *p;\n}", 3, MemoryError::NullPointer),
        (
            "out_of_bounds",
            "int main() {\n  int a[2];\n  a[2] = 1;\n  return 0;\n}",
            3,
            MemoryError::OutOfBounds { offset: 8, bytes: 4, size: 8 },
        ),
        (
            "use_after_free",
            "int main() {\n  int *p = malloc(4);\n  free(p);\n  *p = 1;\n  return 0;\n}",
            4,
            MemoryError::UseAfterFree,
        ),
        (
            "double_free",
            "int main() {\n  int *p = malloc(4);\n  free(p);\n  free(p);\n  return 0;\n}",
            4,
            MemoryError::DoubleFree,
        ),
        ("free_of_a_local", "int main() {\n  int a[2];\n  free(a);\n  return 0;\n}", 3, MemoryError::InvalidFree),
    ];
    for (name, src, line, want) in cases {
        let p = cfa::from_source(src).unwrap_or_else(|d| panic!("{name}: {d:?}"));
        let e = execute(&p, &mut SliceInputs::new(vec![0; 4]), options());
        let Outcome::MemoryError { edge, error } = e.outcome else { panic!("{name}: {}", e.outcome) };
        assert_eq!(error, *want, "{name}");
        assert_eq!(p.edge(edge).line, *line, "{name}: stops at the access");
        assert!(!e.outcome.to_string().is_empty());
    }
}

/// A read of memory never written is an input (as an uninitialized local is).
#[test]
fn uninitialized_heap_cells_are_inputs() {
    let p = cfa::from_source("int main() {\n  int *p = malloc(8);\n  int x = p[1];\n  return x + p[1];\n}").unwrap();
    let e = execute(&p, &mut SliceInputs::new(vec![21]), options());
    assert_eq!(e.outcome, Outcome::Returned { value: Some(42) });
    assert_eq!(e.inputs.len(), 1, "the second read sees the value the first one took");
}
