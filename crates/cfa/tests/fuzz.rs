//! Fuzzing the lowering with proptest: every program that parses lowers
//! without panic, and the lowered CFA keeps the contract of
//! `contract/mod.rs` (ids and adjacency consistent, error and terminal
//! nodes without successors, no dead ends, typed expressions, calls and
//! returns that match, reverse postorder from each entry). The listing, DOT
//! and JSON exports work on it, and lowering is deterministic. A program
//! that does not lower gives located errors instead.
//!
//! Inputs: programs from a generator of mini-C (nested statements of every
//! kind, shadowing, calls and recursion, `goto`, `switch`, side effects in
//! conditions, casts, extreme constants), and the SV-COMP tasks and
//! examples with whole lines deleted, duplicated, swapped or moved.
//!
//! `PROPTEST_CASES` sets the number of cases (default: seconds in a debug
//! build), `PROPTEST_RNG_SEED` the seed:
//! `PROPTEST_CASES=200000 cargo test --release -p cfa --test fuzz`.

mod contract;

use contract::{check_program, sources};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use std::sync::OnceLock;

/// `default_cases` unless `PROPTEST_CASES` says otherwise; a fixed seed
/// unless `PROPTEST_RNG_SEED` gives one; no regression files.
fn fuzz_config(default_cases: u32) -> Config {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    Config {
        cases: env("PROPTEST_CASES").map_or(default_cases, |c| c as u32),
        rng_seed: RngSeed::Fixed(env("PROPTEST_RNG_SEED").unwrap_or(0x0063_6661)),
        failure_persistence: None,
        ..Config::default()
    }
}

/// A program generator driven by a list of random numbers (proptest
/// shrinks the list): each choice takes the next number.
struct Gen {
    choices: Vec<u32>,
    next: usize,
    out: String,
    /// Loop/switch nesting: `break` and `continue` only where allowed.
    loops: usize,
    switches: usize,
    /// Labels `goto` may jump to; each is placed once in the function.
    labels: usize,
    /// Variables in scope (name), innermost last.
    vars: Vec<String>,
    /// Where the innermost scope's variables start in `vars`.
    scope_start: usize,
    fresh: usize,
}

const CONSTANTS: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "7",
    "100",
    "2147483647",
    "(-2147483647 - 1)",
    "4294967295u",
    "0x7f",
    "255",
    "65535",
    "'a'",
    "9223372036854775807L",
];
const BINOPS: &[&str] = &["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"];
const TYPES: &[&str] =
    &["int", "unsigned int", "char", "unsigned char", "short", "unsigned short", "long", "unsigned long", "_Bool", "long long"];
const NONDETS: &[&str] =
    &["__VERIFIER_nondet_int()", "__VERIFIER_nondet_uint()", "__VERIFIER_nondet_char()", "__VERIFIER_nondet_bool()"];

impl Gen {
    fn pick(&mut self, n: usize) -> usize {
        let c = if self.choices.is_empty() { 0 } else { self.choices[self.next % self.choices.len()] };
        self.next += 1;
        c as usize % n.max(1)
    }

    /// Whether there is randomness left (the program ends when it runs out).
    fn more(&self) -> bool {
        self.next < self.choices.len()
    }

    fn var(&mut self) -> String {
        let i = self.pick(self.vars.len());
        self.vars[i].clone()
    }

    fn expr(&mut self, depth: usize) -> String {
        if depth == 0 {
            return match self.pick(3) {
                0 => CONSTANTS[self.pick(CONSTANTS.len())].to_string(),
                _ => self.var(),
            };
        }
        match self.pick(11) {
            0 | 1 => {
                let op = BINOPS[self.pick(BINOPS.len())];
                format!("({} {op} {})", self.expr(depth - 1), self.expr(depth - 1))
            }
            2 => format!("{}({})", ["-", "!", "~", "+"][self.pick(4)], self.expr(depth - 1)),
            3 => format!("({} ? {} : {})", self.expr(depth - 1), self.expr(depth - 1), self.expr(depth - 1)),
            4 => format!("(({}) {})", TYPES[self.pick(TYPES.len())], self.expr(depth - 1)),
            5 => format!("f({}, {})", self.expr(depth - 1), self.expr(depth - 1)),
            6 => NONDETS[self.pick(NONDETS.len())].to_string(),
            7 => {
                let v = self.var();
                match self.pick(3) {
                    0 => format!("{v}++"),
                    1 => format!("--{v}"),
                    _ => format!("({v} = {})", self.expr(depth - 1)),
                }
            }
            8 => format!("g({})", self.expr(depth - 1)),
            _ => self.expr(0),
        }
    }

    fn line(&mut self, indent: usize, text: &str) {
        self.out.push_str(&"  ".repeat(indent));
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn block(&mut self, indent: usize, depth: usize) {
        let scope = self.vars.len();
        let outer = std::mem::replace(&mut self.scope_start, scope);
        let n = 1 + self.pick(4);
        for _ in 0..n {
            if !self.more() {
                break;
            }
            self.stmt(indent, depth);
        }
        self.vars.truncate(scope);
        self.scope_start = outer;
    }

    fn stmt(&mut self, ind: usize, depth: usize) {
        let kind = if depth == 0 { self.pick(6) } else { self.pick(17) };
        match kind {
            0 => {
                let v = self.var();
                let e = self.expr(2);
                self.line(ind, &format!("{v} = {e};"));
            }
            1 => {
                let v = self.var();
                let op = ["+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="][self.pick(10)];
                let e = self.expr(1);
                self.line(ind, &format!("{v} {op} {e};"));
            }
            2 => {
                // A declaration, possibly shadowing an outer variable.
                let outer: Vec<String> = self.vars[..self.scope_start]
                    .iter()
                    .filter(|v| !self.vars[self.scope_start..].contains(v))
                    .cloned()
                    .collect();
                let name = if self.pick(3) == 0 && !outer.is_empty() {
                    outer[self.pick(outer.len())].clone()
                } else {
                    self.fresh += 1;
                    format!("v{}", self.fresh)
                };
                let ty = TYPES[self.pick(TYPES.len())];
                let init = if self.pick(4) == 0 { String::new() } else { format!(" = {}", self.expr(2)) };
                self.line(ind, &format!("{ty} {name}{init};"));
                self.vars.push(name);
            }
            3 => {
                let e = self.expr(2);
                self.line(ind, &format!("if ({e}) reach_error();"));
            }
            4 => {
                let e = self.expr(2);
                self.line(ind, &format!("__VERIFIER_assert({e});"));
            }
            5 => {
                if self.loops > 0 {
                    let s = ["break;", "continue;"][self.pick(2)];
                    let e = self.expr(1);
                    self.line(ind, &format!("if ({e}) {s}"));
                } else if self.labels > 0 {
                    let l = self.pick(self.labels);
                    self.line(ind, &format!("goto L{l};"));
                } else {
                    let e = self.expr(1);
                    self.line(ind, &format!("{e};"));
                }
            }
            6 | 7 => {
                let e = self.expr(2);
                self.line(ind, &format!("if ({e}) {{"));
                self.block(ind + 1, depth - 1);
                if self.pick(2) == 0 {
                    self.line(ind, "} else {");
                    self.block(ind + 1, depth - 1);
                }
                self.line(ind, "}");
            }
            8 => {
                let e = self.expr(2);
                self.line(ind, &format!("while ({e}) {{"));
                self.loops += 1;
                self.block(ind + 1, depth - 1);
                self.loops -= 1;
                self.line(ind, "}");
            }
            9 => {
                self.line(ind, "do {");
                self.loops += 1;
                self.block(ind + 1, depth - 1);
                self.loops -= 1;
                let e = self.expr(2);
                self.line(ind, &format!("}} while ({e});"));
            }
            10 => {
                self.fresh += 1;
                let i = format!("i{}", self.fresh);
                let bound = self.expr(1);
                self.line(ind, &format!("for (int {i} = 0; {i} < {bound}; {i}++) {{"));
                self.vars.push(i);
                self.loops += 1;
                self.block(ind + 1, depth - 1);
                self.loops -= 1;
                self.vars.pop();
                self.line(ind, "}");
            }
            11 => {
                let e = self.expr(1);
                self.line(ind, &format!("switch ({e}) {{"));
                self.switches += 1;
                let cases = 1 + self.pick(3);
                for k in 0..cases {
                    let label = k * 3 + self.pick(3);
                    self.line(ind + 1, &format!("case {label}: {{"));
                    self.block(ind + 2, depth - 1);
                    if self.pick(3) > 0 {
                        self.line(ind + 2, "break;");
                    }
                    self.line(ind + 1, "}");
                }
                if self.pick(2) == 0 {
                    self.line(ind + 1, "default: {");
                    self.block(ind + 2, depth - 1);
                    self.line(ind + 1, "}");
                }
                self.switches -= 1;
                self.line(ind, "}");
            }
            12 => {
                self.line(ind, "{");
                self.block(ind + 1, depth - 1);
                self.line(ind, "}");
            }
            13 => {
                let e = self.expr(2);
                self.line(ind, &format!("return {e};"));
            }
            14 => {
                let e = self.expr(2);
                self.line(ind, &format!("__VERIFIER_assume({e});"));
            }
            15 => {
                if self.switches > 0 || self.loops > 0 {
                    self.line(ind, "break;");
                } else {
                    self.line(ind, ";");
                }
            }
            _ => {
                let e = self.expr(3);
                let v = self.var();
                self.line(ind, &format!("{v} = g({e}) + f({v}, 1);"));
            }
        }
    }

    /// The function `name` with parameters `params` and `labels` labels,
    /// each placed once between its statements.
    fn function(&mut self, head: &str, params: &[&str], labels: usize) {
        self.vars = ["x", "y"].iter().chain(params).map(|s| s.to_string()).collect();
        // The parameters are in the body's scope.
        self.scope_start = 2;
        self.labels = labels;
        self.out.push_str(head);
        self.out.push_str(" {\n");
        let n = 2 + self.pick(6);
        let mut placed = 0;
        for k in 0..n {
            if placed < labels && (self.pick(2) == 0 || k + labels - placed >= n) {
                self.line(0, &format!("L{placed}: ;"));
                placed += 1;
            }
            self.stmt(1, 3);
        }
        for l in placed..labels {
            self.line(0, &format!("L{l}: ;"));
        }
        self.line(1, "return 0;");
        self.out.push_str("}\n");
    }
}

/// A mini-C program built from `choices`: two helpers (`f` may recurse,
/// `g` calls `f`) and `main`, over globals `x` and `y`.
fn program(choices: Vec<u32>) -> String {
    let mut g = Gen {
        choices,
        next: 0,
        out: String::new(),
        loops: 0,
        switches: 0,
        labels: 0,
        vars: Vec::new(),
        scope_start: 0,
        fresh: 0,
    };
    g.out.push_str("extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n");
    g.out.push_str("int x = 1;\nunsigned y;\nint f(int a, int b);\n");
    let labels = g.pick(3);
    g.function("int g(unsigned char c)", &["c"], 0);
    g.function("int f(int a, int b)", &["a", "b"], labels);
    let labels = g.pick(3);
    g.function("int main(void)", &[], labels);
    g.out
}

/// Checks that a source either lowers to a CFA keeping the contract, or is
/// rejected with located errors.
fn check(src: &str) -> Result<bool, TestCaseError> {
    match cfa::from_source(src) {
        Ok(p) => {
            let bad = check_program("fuzz", &p);
            prop_assert!(bad.is_empty(), "{}\n--- program:\n{}", bad.join("\n"), src);
            prop_assert!(!p.to_listing().is_empty() && p.to_dot().starts_with("digraph"));
            let json = p.to_json();
            prop_assert!(json.is_object());
            let again = cfa::from_source(src).expect("lowered once");
            prop_assert_eq!(&again.to_json(), &json, "lowering is deterministic");
            Ok(true)
        }
        Err(diags) => {
            prop_assert!(diags.iter().any(|d| d.is_error()), "{:?}", diags);
            for d in &diags {
                prop_assert!(d.span.line >= 1 && d.span.col >= 1 && d.span.start <= src.len(), "{:?}", d);
                prop_assert!((d.span.line as usize) <= src.split('\n').count(), "{:?}", d);
                prop_assert!(!d.message.trim().is_empty());
            }
            Ok(false)
        }
    }
}

fn seeds() -> &'static Vec<String> {
    static SEEDS: OnceLock<Vec<String>> = OnceLock::new();
    SEEDS.get_or_init(|| sources().into_iter().map(|(_, s)| s).collect())
}

/// A seed with lines deleted (0), duplicated (1), swapped (2) or moved (3).
fn line_mutant(seed: usize, edits: &[(u8, usize, usize)]) -> String {
    let src = &seeds()[seed % seeds().len()];
    let mut lines: Vec<&str> = src.split_inclusive('\n').collect();
    for &(op, a, b) in edits {
        let n = lines.len();
        if n == 0 {
            break;
        }
        let (a, b) = (a % n, b % n);
        match op % 4 {
            0 => {
                lines.remove(a);
            }
            1 => lines.insert(a, lines[a]),
            2 => lines.swap(a, b),
            _ => {
                let l = lines.remove(a);
                lines.insert(b.min(n - 1), l);
            }
        }
    }
    lines.concat()
}

proptest! {
    #![proptest_config(fuzz_config(300))]

    #[test]
    fn generated_programs_lower_to_valid_cfas(choices in prop::collection::vec(any::<u32>(), 1..300)) {
        check(&program(choices))?;
    }

    #[test]
    fn programs_with_lines_deleted_duplicated_swapped(
        seed in any::<usize>(),
        edits in prop::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 1..5),
    ) {
        check(&line_mutant(seed, &edits))?;
    }
}

/// The generator is worth fuzzing with: almost all its programs pass the
/// front end (so the lowering, not the parser, is what they exercise), and
/// they use every kind of edge.
#[test]
fn the_generator_makes_programs_that_lower() {
    let mut rng = xorshift::XorShift::new(42);
    let (mut lowered, mut kinds) = (0, std::collections::BTreeSet::new());
    let mut failures = Vec::new();
    for _ in 0..200 {
        let len = 20 + rng.below(300) as usize;
        let src = program((0..len).map(|_| rng.next_u64() as u32).collect());
        match cfa::from_source(&src) {
            Ok(p) => {
                lowered += 1;
                assert!(check_program("generated", &p).is_empty());
                kinds.extend(p.edges.iter().map(|e| cfa::edge_kind_name(&e.kind)));
            }
            Err(d) => failures.push(format!("{}\n{src}", d[0])),
        }
    }
    assert!(lowered >= 190, "{lowered} of 200 lowered; first failure: {}", failures.first().map_or("", |s| s));
    assert!(kinds.len() >= 7, "{kinds:?}");
}

#[test]
fn line_mutants_edit_lines() {
    assert_eq!(line_mutant(0, &[]), seeds()[0]);
    let lines = seeds()[0].split_inclusive('\n').count();
    assert_eq!(line_mutant(0, &[(0, 0, 0)]).split_inclusive('\n').count(), lines - 1);
    assert_eq!(line_mutant(0, &[(1, 3, 0)]).split_inclusive('\n').count(), lines + 1);
}

/// Found by `generated_programs_lower_to_valid_cfas`: an assumption that is
/// false from some point on (`__VERIFIER_assume(c && 0)`, or `(0)` after a
/// statement) lost its only edge, leaving a node without successors — the
/// interpreter called that "stuck" instead of a failed assumption. The
/// infeasible edge is kept.
#[test]
fn a_false_assumption_keeps_its_edge_and_leaves_no_dead_end() {
    for src in [
        "int main(void) { int c = 1; __VERIFIER_assume(c && 0); return 0; }",
        "int main(void) { unsigned char c = 1; __VERIFIER_assume(c++ && +(0)); return 0; }",
        "int main(void) { int x = 1; __VERIFIER_assume(0); return x; }",
        "int main(void) { int x = 1; __VERIFIER_assume(!(x || 1)); return x; }",
    ] {
        let p = cfa::from_source(src).unwrap();
        assert_eq!(check_program(src, &p), Vec::<String>::new());
        let blocked =
            p.edges.iter().filter(|e| matches!(&e.kind, cfa::EdgeKind::Assume { cond, .. } if cond.variables().is_empty()));
        assert_eq!(blocked.count(), 1, "{src}\n{}", p.to_listing());
    }
    // Elsewhere a constant condition still gets only its feasible edge.
    let p = cfa::from_source("int main(void) { int x = 1; if (0) x = 2; while (1) { x++; } }").unwrap();
    assert!(p.edges.iter().all(|e| !e.label.contains("[0]") && !e.label.contains("[!(1)]")), "{}", p.to_listing());
}
