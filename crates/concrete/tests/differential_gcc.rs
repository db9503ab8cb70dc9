//! Differential test against a real C compiler: random mini-C programs
//! (casts, promotions, signed/unsigned mixes, short-circuit conditions with
//! side effects, `?:`, switch, loops, calls) are lowered to CFAs and run by
//! the concrete interpreter under the `c` integer model; the same programs
//! are compiled with `gcc -fwrapv` (two's-complement wrap-around, as our C
//! model) and their printed results must agree. The generator avoids
//! undefined behaviour the model does not share with gcc: divisors are
//! `(e & 7) + 1`, shift amounts `e & 7`, and side effects sit only where a
//! sequence point separates them (`&&`, `||`, statements).
//!
//! A second generator does the same for memory: arrays, a struct with an
//! array field, pointers into both, a pointer to the struct, and a `calloc`
//! block, with indexes masked into bounds; the values in memory are copied
//! into variables at the end and compared.
//!
//! Skipped (with a note) when `gcc` is not installed.

use concrete::{execute, Options, Outcome, SliceInputs};
use minic::IntModel;
use std::process::Command;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const VARS: [(&str, &str); 7] = [
    ("a", "int"),
    ("b", "unsigned int"),
    ("c", "char"),
    ("d", "unsigned short"),
    ("e", "signed char"),
    ("f", "long long"),
    ("u", "unsigned char"),
];

const LITERALS: [&str; 12] =
    ["0", "1", "7", "(-1)", "255", "65535", "2147483647", "4294967295u", "'a'", "100000", "(-128)", "3000000000LL"];

const HELPERS: &str = "\
int g(signed char p) { return p * 3 + 1; }
unsigned int h(unsigned short p, int q) { if (p > q) return p - q; return q + p; }
long long k(long long x) { if (x < 0) return -x; return x / 3; }
int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
";

fn var(r: &mut Rng) -> &'static str {
    VARS[r.below(VARS.len())].0
}

fn expr(r: &mut Rng, depth: u32) -> String {
    if depth == 0 || r.below(4) == 0 {
        return if r.below(3) == 0 { r.pick(&LITERALS).to_string() } else { var(r).to_string() };
    }
    let d = depth - 1;
    match r.below(12) {
        0 => format!("({}{})", r.pick(&["-", "~", "!"]), expr(r, d)),
        1..=4 => {
            let op = r.pick(&["+", "-", "*", "&", "|", "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"]);
            format!("({} {op} {})", expr(r, d), expr(r, d))
        }
        5 => format!("({} {} (({} & 7) + 1))", expr(r, d), r.pick(&["/", "%"]), expr(r, d)),
        6 => format!("({} {} ({} & 7))", expr(r, d), r.pick(&["<<", ">>"]), expr(r, d)),
        7 => format!("({} ? {} : {})", expr(r, d), expr(r, d), expr(r, d)),
        8 => {
            let ty = r.pick(&["unsigned char", "short", "unsigned int", "signed char", "int", "long long", "_Bool"]);
            format!("(({ty}){})", expr(r, d))
        }
        9 => format!("g({})", expr(r, d)),
        10 => format!("h({}, {})", expr(r, d), expr(r, d)),
        _ => {
            if r.below(2) == 0 {
                format!("k({})", expr(r, d))
            } else {
                format!("fact({} & 7)", expr(r, d))
            }
        }
    }
}

/// A condition whose side effects are separated by sequence points.
fn cond(r: &mut Rng, depth: u32) -> String {
    if depth == 0 || r.below(3) == 0 {
        return match r.below(4) {
            0 => format!("({} = {})", var(r), expr(r, 2)),
            1 => format!("({}++ > {})", var(r), r.pick(&LITERALS)),
            _ => expr(r, 2),
        };
    }
    match r.below(3) {
        0 => format!("!({})", cond(r, depth - 1)),
        1 => format!("({} && {})", cond(r, depth - 1), cond(r, depth - 1)),
        _ => format!("({} || {})", cond(r, depth - 1), cond(r, depth - 1)),
    }
}

fn stmts(r: &mut Rng, depth: u32, n: usize, out: &mut String, indent: usize) {
    for _ in 0..n {
        stmt(r, depth, out, indent);
    }
}

fn stmt(r: &mut Rng, depth: u32, out: &mut String, indent: usize) {
    let pad = " ".repeat(indent);
    let choice = if depth == 0 { r.below(6) } else { r.below(10) };
    match choice {
        0..=2 => out.push_str(&format!("{pad}{} = {};\n", var(r), expr(r, 3))),
        3 => {
            let op = r.pick(&["+=", "-=", "*=", "&=", "|=", "^="]);
            out.push_str(&format!("{pad}{} {op} {};\n", var(r), expr(r, 2)));
        }
        4 => out.push_str(&format!("{pad}{} /= (({} & 7) + 1);\n", var(r), expr(r, 2))),
        5 => {
            let v = var(r);
            let s = r.pick(&["{v}++;", "{v}--;", "++{v};", "--{v};"]).replace("{v}", v);
            out.push_str(&format!("{pad}{s}\n"));
        }
        6 | 7 => {
            out.push_str(&format!("{pad}if ({}) {{\n", cond(r, 2)));
            stmts(r, depth - 1, 2, out, indent + 2);
            out.push_str(&format!("{pad}}} else {{\n"));
            let n = 1 + r.below(2);
            stmts(r, depth - 1, n, out, indent + 2);
            out.push_str(&format!("{pad}}}\n"));
        }
        8 => {
            let bound = 1 + r.below(4);
            out.push_str(&format!("{pad}for (int i = 0; i < {bound}; i++) {{\n"));
            stmts(r, depth - 1, 2, out, indent + 2);
            out.push_str(&format!("{pad}}}\n"));
        }
        _ => {
            out.push_str(&format!("{pad}switch ({} & 3) {{\n", expr(r, 2)));
            out.push_str(&format!("{pad}  case 0: {} = {}; break;\n", var(r), expr(r, 2)));
            out.push_str(&format!("{pad}  case 1: {} = {};\n", var(r), expr(r, 2)));
            out.push_str(&format!("{pad}  case 2: {} += 1; break;\n", var(r)));
            out.push_str(&format!("{pad}  default: {} = {};\n", var(r), expr(r, 2)));
            out.push_str(&format!("{pad}}}\n"));
        }
    }
}

#[test]
fn random_programs_agree_with_gcc() {
    // Each program: the variables with literal initializers, then random statements.
    let gcc_ok = Command::new("gcc").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if !gcc_ok {
        eprintln!("note: gcc not found; differential test skipped");
        return;
    }
    let count = 150;
    let mut rng = Rng(0x00c0_ffee_d00d_f00d);
    let mut bodies = Vec::new();
    for _ in 0..count {
        // Initializers must not read variables declared later: use literals only.
        let mut s = String::new();
        for (name, ty) in VARS {
            s.push_str(&format!("  {ty} {name} = {};\n", rng.pick(&LITERALS)));
        }
        let n = 4 + rng.below(4);
        stmts(&mut rng, 2, n, &mut s, 2);
        bodies.push(s);
    }

    // gcc side: one file, one function per program.
    let dir = std::env::temp_dir().join(format!("cpaplay-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut c = String::from("#include <stdio.h>\n");
    c.push_str(HELPERS);
    let print: Vec<String> = VARS.iter().map(|(n, _)| format!("(long long){n}")).collect();
    for (k, b) in bodies.iter().enumerate() {
        c.push_str(&format!(
            "static void p{k}(void) {{\n{b}  printf(\"{k}{}\\n\", {});\n}}\n",
            " %lld".repeat(VARS.len()),
            print.join(", ")
        ));
    }
    c.push_str("int main(void) {\n");
    for k in 0..bodies.len() {
        c.push_str(&format!("  p{k}();\n"));
    }
    c.push_str("  return 0;\n}\n");
    let expected = gcc_outputs(&dir, "diff", &c);
    assert_eq!(expected.len(), bodies.len());

    // our side
    let mut mismatches = Vec::new();
    for (k, b) in bodies.iter().enumerate() {
        let src = format!("{HELPERS}int main() {{\n{b}  return 0;\n}}\n");
        let observed: Vec<String> = VARS.iter().map(|(n, _)| n.to_string()).collect();
        let got = match our_values(&src, &observed) {
            Ok(got) => got,
            Err(why) => {
                mismatches.push(format!("program {k}: {why}\n{src}"));
                continue;
            }
        };
        if got != expected[k] {
            mismatches.push(format!("program {k}: gcc says {:?}, we say {got:?}\n{src}", expected[k]));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        mismatches.is_empty(),
        "{} of {count} programs disagree:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(3)].join("\n")
    );
}

/// The memory program's declarations (the same text for gcc and for us).
const MEMORY_DECLS: &str = "\
struct S { int x; unsigned char c; long long w; int a[3]; };
int garr[4] = {3, -1};
";

/// An index expression masked into `0..=mask`.
fn index(r: &mut Rng, mask: u32) -> String {
    format!("({} & {mask})", mem_expr(r, 1))
}

/// An integer expression that reads variables and memory.
fn mem_expr(r: &mut Rng, depth: u32) -> String {
    if depth == 0 || r.below(3) == 0 {
        return match r.below(9) {
            0 => "a".into(),
            1 => "f".into(),
            2 => r.pick(&["0", "1", "7", "(-3)", "100", "65537"]).into(),
            3 => format!("arr[{}]", index(r, 7)),
            4 => "*p".into(),
            5 => r.pick(&["s.x", "s.c", "s.w", "ps->x", "ps->a[1]", "s.a[2]"]).into(),
            6 => "h[1]".into(),
            7 => "garr[3]".into(),
            _ => "(p - arr)".into(),
        };
    }
    let d = depth - 1;
    match r.below(4) {
        0 => format!("({} {} {})", mem_expr(r, d), r.pick(&["+", "-", "*", "^", "<", "=="]), mem_expr(r, d)),
        1 => format!("p[{}]", r.pick(&["0", "-1 + 1"])),
        2 => format!("h[{}]", index(r, 3)),
        _ => format!("(*(arr + {}))", index(r, 7)),
    }
}

fn mem_stmt(r: &mut Rng, out: &mut String) {
    let line = match r.below(12) {
        0 => format!("arr[{}] = {};", index(r, 7), mem_expr(r, 2)),
        1 => format!("*p = {};", mem_expr(r, 2)),
        2 => format!("p = &arr[{}];", index(r, 7)),
        3 => format!("p = arr + {};", index(r, 7)),
        4 => format!("s.{} = {};", r.pick(&["x", "c", "w"]), mem_expr(r, 2)),
        5 => format!("ps->a[{}] += {};", index(r, 1), mem_expr(r, 2)),
        6 => format!("h[{}] = {};", index(r, 3), mem_expr(r, 2)),
        7 => format!("a = {};", mem_expr(r, 2)),
        8 => format!("f = {};", mem_expr(r, 2)),
        9 => format!("if ({} < {}) {{ (*p)++; }} else {{ s.a[0]--; }}", mem_expr(r, 1), mem_expr(r, 1)),
        10 => format!("garr[{}] = {};", index(r, 3), mem_expr(r, 1)),
        _ => format!("for (int i = 0; i < 3; i++) {{ arr[i] = arr[i + 1] + {}; }}", mem_expr(r, 1)),
    };
    out.push_str("  ");
    out.push_str(&line);
    out.push('\n');
}

/// What each memory program ends with: its memory copied into variables.
const MEMORY_OBSERVED: [&str; 12] =
    ["arr[0]", "arr[3]", "arr[7]", "s.x", "s.c", "s.w", "s.a[0]", "s.a[1]", "h[0]", "h[3]", "garr[3]", "(p - arr)"];

#[test]
fn random_memory_programs_agree_with_gcc() {
    let gcc_ok = Command::new("gcc").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if !gcc_ok {
        eprintln!("note: gcc not found; differential test skipped");
        return;
    }
    let count = 80;
    let mut rng = Rng(0x005e_ed0f_3e30_0001);
    let mut bodies = Vec::new();
    for _ in 0..count {
        let mut s = String::from(
            "  int a = 2;\n  long long f = -5;\n  int arr[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n  struct S s = {10, 200, -7, {1, 2, 3}};\n  \
             struct S *ps = &s;\n  int *p = &arr[2];\n  int *h = (int *) calloc(4, sizeof(int));\n",
        );
        for _ in 0..4 + rng.below(6) {
            mem_stmt(&mut rng, &mut s);
        }
        for (k, o) in MEMORY_OBSERVED.iter().enumerate() {
            s.push_str(&format!("  long long o{k} = {o};\n"));
        }
        s.push_str("  free(h);\n");
        bodies.push(s);
    }
    let dir = std::env::temp_dir().join(format!("cpaplay-memdiff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut c = String::from("#include <stdio.h>\n#include <stdlib.h>\n");
    c.push_str(MEMORY_DECLS);
    let print: Vec<String> = (0..MEMORY_OBSERVED.len()).map(|k| format!("o{k}")).collect();
    for (k, b) in bodies.iter().enumerate() {
        c.push_str(&format!(
            "static void p{k}(void) {{\n{b}  printf(\"{k}{}\\n\", {});\n}}\n",
            " %lld".repeat(MEMORY_OBSERVED.len()),
            print.join(", ")
        ));
    }
    c.push_str("int main(void) {\n");
    for k in 0..bodies.len() {
        // Each program starts from the same global memory, as ours does.
        c.push_str(&format!("  garr[0] = 3; garr[1] = -1; garr[2] = 0; garr[3] = 0;\n  p{k}();\n"));
    }
    c.push_str("  return 0;\n}\n");
    let expected = gcc_outputs(&dir, "memdiff", &c);
    assert_eq!(expected.len(), bodies.len());

    let mut mismatches = Vec::new();
    for (k, b) in bodies.iter().enumerate() {
        let src = format!("{MEMORY_DECLS}int main() {{\n{b}  return 0;\n}}\n");
        let observed: Vec<String> = (0..MEMORY_OBSERVED.len()).map(|n| format!("o{n}")).collect();
        let got = match our_values(&src, &observed) {
            Ok(got) => got,
            Err(why) => {
                mismatches.push(format!("program {k}: {why}\n{src}"));
                continue;
            }
        };
        if got != expected[k] {
            mismatches.push(format!("program {k}: gcc says {:?}, we say {got:?}\n{src}", expected[k]));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        mismatches.is_empty(),
        "{} of {count} programs disagree:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(3)].join("\n")
    );
}

/// Compiles the C program `c` with gcc (`-O0 -fwrapv`) as `dir/STEM`, runs
/// it, and returns its output lines as numbers (each line's first word, the
/// program's number, left out).
fn gcc_outputs(dir: &std::path::Path, stem: &str, c: &str) -> Vec<Vec<i128>> {
    let cfile = dir.join(format!("{stem}.c"));
    let exe = dir.join(stem);
    std::fs::write(&cfile, c).unwrap();
    let out = Command::new("gcc").args(["-O0", "-fwrapv", "-w", "-o"]).arg(&exe).arg(&cfile).output().expect("gcc runs");
    assert!(out.status.success(), "gcc failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let run = Command::new(&exe).output().expect("compiled program runs");
    String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| l.split_whitespace().skip(1).map(|x| x.parse().unwrap()).collect())
        .collect()
}

/// Our side of one program: lowers `src`, runs it under C's integers, and
/// returns the final values of `main`'s variables named in `observed`; an
/// error says why there are none (it does not lower, or does not return 0).
fn our_values(src: &str, observed: &[String]) -> Result<Vec<i128>, String> {
    let p = cfa::from_source(src).map_err(|d| format!("does not lower: {d:?}"))?;
    let opts = Options { model: IntModel::C, max_steps: 1_000_000, record_states: false };
    let e = execute(&p, &mut SliceInputs::new(vec![]), opts);
    if e.outcome != (Outcome::Returned { value: Some(0) }) {
        return Err(e.outcome.to_string());
    }
    Ok(observed
        .iter()
        .map(|n| {
            let v = p.variables.iter().find(|v| v.qualified == format!("main::{n}")).unwrap();
            e.final_values[&v.id]
        })
        .collect())
}
