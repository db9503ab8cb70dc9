//! # progen — random mini-C programs for differential soundness testing
//!
//! [`generate`] turns a seed into a small mini-C program (deterministically:
//! the same seed and [`Options`] give the same text on every machine), and
//! [`Inputs`] produces nondeterministic inputs for running it on the
//! concrete interpreter. Together they are the test-case side of the
//! soundness oracle: an analysis that answers TRUE (the error location is
//! unreachable) for a program on which some concrete run reaches
//! `reach_error()` is unsound.
//!
//! The programs use every scalar type of mini-C, casts between them, the
//! arithmetic, bitwise, shift, comparison and logical operators, `?:`,
//! compound assignments and `++`/`--`, `for`/`while`/`do`-`while` loops
//! (constant- and nondet-bounded, with `break` and `continue`), helper
//! functions with parameters and results, a recursive function bounded by a
//! parameter, globals, every `__VERIFIER_nondet_*` function,
//! `__VERIFIER_assume`, and `reach_error()` under conditions. With
//! [`Options::memory`], `main` also has memory: an `int` array with an
//! initializer list, a struct with two fields, a pointer into the array, a
//! pointer to one of its `int` locals (which then lives in memory), and a
//! `malloc` block of two `int`s, or of 2 to 4 chosen at run time — read and
//! written with valid accesses only
//! (indexes masked into bounds, every cell written before it is read).
//!
//! Every operation stays inside what `cfa::Expr::eval` defines or is
//! undefined for the interpreter and the analyses alike: divisions are
//! mostly by non-zero constants or by `(e | 1)`; a few divide by a variable
//! or shift by a risky amount, where the interpreter stops the run
//! (`UndefinedOperation`) and the analyses take an arbitrary value — so the
//! concrete runs stay an under-approximation of what the analyses must
//! cover. Every loop has a constant bound, so a concrete run ends.

#![warn(missing_docs)]

use concrete::InputSource;
use minic::types::IntType;
use xorshift::XorShift;

/// What a generated program may contain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Variables of every scalar type of mini-C (`false`: `int` variables
    /// only; expressions still cast and compare through other types).
    pub all_types: bool,
    /// Helper functions with parameters and return values, and calls to them.
    pub calls: bool,
    /// A recursive function whose depth is bounded by a parameter.
    pub recursion: bool,
    /// Global variables (read and written by `main` and the helpers).
    pub globals: bool,
    /// At most this many statements in `main` (the whole program stays
    /// within about 40 lines).
    pub max_statements: usize,
    /// Largest expression nesting depth.
    pub expr_depth: u32,
    /// Memory in `main`: an array, a struct, pointers and a heap block (see
    /// the crate documentation).
    pub memory: bool,
}

impl Options {
    /// Everything on: the campaign's programs.
    pub fn full() -> Options {
        Options { all_types: true, calls: true, recursion: true, globals: true, max_statements: 14, expr_depth: 3, memory: false }
    }

    /// [`Options::full`] with memory: the campaign's programs with pointers,
    /// a struct, an array and a heap block.
    pub fn memory() -> Options {
        Options { memory: true, ..Options::full() }
    }

    /// Small `int` programs without recursion or globals: analyses finish
    /// and prove many of them safe, which the coverage tests need (a
    /// coverage check only runs on a TRUE verdict).
    pub fn simple() -> Options {
        Options {
            all_types: false,
            calls: true,
            recursion: false,
            globals: false,
            max_statements: 8,
            expr_depth: 2,
            memory: false,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options::full()
    }
}

/// A generated program: its source text and the integer constants it
/// mentions (inputs near them make conditions true more often).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenProgram {
    /// The seed it was generated from.
    pub seed: u64,
    /// The mini-C source text.
    pub text: String,
    /// Integer constants the program compares and computes with.
    pub constants: Vec<i128>,
}

/// Every scalar type of mini-C.
pub const ALL_TYPES: [IntType; 12] = [
    IntType::Bool,
    IntType::Char,
    IntType::SChar,
    IntType::UChar,
    IntType::Short,
    IntType::UShort,
    IntType::Int,
    IntType::UInt,
    IntType::Long,
    IntType::ULong,
    IntType::LongLong,
    IntType::ULongLong,
];

/// The names of every `__VERIFIER_nondet_*` function mini-C knows, with
/// the type of its result.
pub const NONDET_FUNCTIONS: [(&str, IntType); 12] = [
    ("__VERIFIER_nondet_int", IntType::Int),
    ("__VERIFIER_nondet_uint", IntType::UInt),
    ("__VERIFIER_nondet_unsigned", IntType::UInt),
    ("__VERIFIER_nondet_bool", IntType::Bool),
    ("__VERIFIER_nondet_char", IntType::Char),
    ("__VERIFIER_nondet_uchar", IntType::UChar),
    ("__VERIFIER_nondet_short", IntType::Short),
    ("__VERIFIER_nondet_ushort", IntType::UShort),
    ("__VERIFIER_nondet_long", IntType::Long),
    ("__VERIFIER_nondet_ulong", IntType::ULong),
    ("__VERIFIER_nondet_longlong", IntType::LongLong),
    ("__VERIFIER_nondet_ulonglong", IntType::ULongLong),
];

/// A C literal for `v` whose value is `v` (suffixed when `v` does not fit
/// `int`; the most negative values written as a difference).
pub fn literal(v: i128) -> String {
    let int = i32::MIN as i128..=i32::MAX as i128;
    if int.contains(&v) {
        if v == i32::MIN as i128 {
            "(-2147483647 - 1)".into()
        } else if v < 0 {
            format!("({v})")
        } else {
            v.to_string()
        }
    } else if (0..=u32::MAX as i128).contains(&v) {
        format!("{v}u")
    } else if v == i64::MIN as i128 {
        "(-9223372036854775807ll - 1)".into()
    } else if (i64::MIN as i128..=i64::MAX as i128).contains(&v) {
        if v < 0 {
            format!("({v}ll)")
        } else {
            format!("{v}ll")
        }
    } else {
        format!("{}ull", v.rem_euclid(1 << 64))
    }
}

#[derive(Clone)]
struct Var {
    name: String,
    ty: IntType,
}

struct Func {
    name: String,
    params: Vec<IntType>,
}

struct Gen<'o> {
    rng: XorShift,
    opts: &'o Options,
    out: String,
    constants: Vec<i128>,
    /// Variables that may be assigned (locals, parameters, globals).
    vars: Vec<Var>,
    /// Loop counters: readable, never assigned in the body.
    counters: Vec<String>,
    /// Fresh-name counter.
    fresh: usize,
    funcs: Vec<Func>,
    rec: Option<String>,
    budget: usize,
    loop_depth: usize,
    /// The indentation of the statement being generated.
    indent: usize,
    /// Memory reads and writes may be generated (inside `main`, after the
    /// memory was declared); the local `*q` points to, if any.
    memory: Option<Option<String>>,
}

impl Gen<'_> {
    fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize].clone()
    }

    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    fn var_type(&mut self) -> IntType {
        if self.opts.all_types {
            // `int` stays the most common type.
            if self.chance(30) {
                IntType::Int
            } else {
                self.pick(&ALL_TYPES)
            }
        } else {
            IntType::Int
        }
    }

    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn constant(&mut self) -> String {
        let ty = self.pick(&ALL_TYPES);
        let v = match self.below(14) {
            0 => 0,
            1 => 1,
            2 => 2,
            3 => 3,
            4 => 7,
            5 => -1,
            6 => -5,
            7 => 100,
            8 => 255,
            9 => ty.min_value(),
            10 => ty.max_value(),
            11 => ty.max_value() - 1,
            12 => 65536,
            _ => self.below(41) as i128 - 20,
        };
        self.constants.push(v);
        literal(v)
    }

    fn small_constant(&mut self) -> i128 {
        let v = self.below(9) as i128 - 3;
        self.constants.push(v);
        v
    }

    fn nonzero_constant(&mut self) -> String {
        let v = self.pick(&[1i128, 2, 3, 4, 7, -1, -2, -3, 16, 1000]);
        literal(v)
    }

    /// Any readable variable (assignable ones and loop counters).
    fn read_var(&mut self) -> String {
        let n = self.vars.len() + self.counters.len();
        let i = self.below(n as u64) as usize;
        if i < self.vars.len() {
            self.vars[i].name.clone()
        } else {
            self.counters[i - self.vars.len()].clone()
        }
    }

    fn assignable(&mut self) -> Var {
        let i = self.below(self.vars.len() as u64) as usize;
        self.vars[i].clone()
    }

    /// A valid read of memory (only while [`Gen::memory`] is set).
    fn memory_read(&mut self) -> String {
        let q = self.memory.clone().flatten();
        match self.below(6) {
            0 => format!("m_arr[({}) & 3]", self.read_var()),
            1 => "(*m_p)".into(),
            2 => self.pick(&["m_s.f", "m_s.g", "m_ps->g"]).into(),
            3 => format!("m_h[({}) & 1]", self.read_var()),
            4 if q.is_some() => "(*m_q)".into(),
            _ => "(m_p - m_arr)".into(),
        }
    }

    /// A valid write of memory.
    fn memory_write(&mut self) -> String {
        let e = self.expr(self.opts.expr_depth.saturating_sub(1));
        let q = self.memory.clone().flatten();
        match self.below(7) {
            0 => format!("m_arr[({}) & 3] = {e};", self.read_var()),
            1 => format!("*m_p = {e};"),
            2 => format!("m_p = &m_arr[({}) & 3];", self.read_var()),
            3 => format!("{} = {e};", self.pick(&["m_s.f", "m_ps->g"])),
            4 => format!("m_h[({}) & 1] += {e};", self.read_var()),
            5 if q.is_some() => format!("*m_q = {e};"),
            _ => format!("m_arr[{}]++;", self.below(4)),
        }
    }

    fn atom(&mut self) -> String {
        if self.memory.is_some() && self.chance(15) {
            return self.memory_read();
        }
        if self.chance(65) {
            self.read_var()
        } else {
            self.constant()
        }
    }

    fn cast_type(&mut self) -> &'static str {
        self.pick(&ALL_TYPES).c_name()
    }

    fn expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.chance(30) {
            return self.atom();
        }
        let d = depth - 1;
        match self.below(20) {
            0..=5 => {
                let op = self.pick(&["+", "-", "*", "&", "|", "^", "+", "-"]);
                format!("({} {op} {})", self.expr(d), self.expr(d))
            }
            6 | 7 => {
                let num = self.expr(d);
                match self.below(6) {
                    0 | 1 => format!("({num} / {})", self.nonzero_constant()),
                    2 => format!("({num} % {})", self.nonzero_constant()),
                    3 => format!("({num} / ({} | 1))", self.atom()),
                    4 => format!("({num} % ({} | 1))", self.atom()),
                    // Unguarded: undefined on 0 for the interpreter and analyses alike.
                    _ => format!("({num} / {})", self.read_var()),
                }
            }
            8 | 9 => {
                let op = self.pick(&["<<", ">>"]);
                let lhs = self.expr(d);
                let amount = match self.below(8) {
                    0..=2 => self.below(8).to_string(),
                    3 => format!("({} & 7)", self.atom()),
                    4 => format!("({} & 31)", self.atom()),
                    5 => self.pick(&["15", "16", "31"]).to_string(),
                    // Risky: may be negative or as wide as the type.
                    6 => self.pick(&["32", "63", "64"]).to_string(),
                    _ => self.read_var(),
                };
                format!("({lhs} {op} {amount})")
            }
            10 => {
                let op = self.pick(&["-", "~", "!"]);
                format!("({op}{})", self.expr(d))
            }
            11 | 12 => format!("(({}) {})", self.cast_type(), self.expr(d)),
            13 | 14 => format!("({})", self.cond(d)),
            15 => format!("({} ? {} : {})", self.cond(d), self.expr(d), self.expr(d)),
            _ => self.atom(),
        }
    }

    fn cond(&mut self, depth: u32) -> String {
        let cmp = self.pick(&["<", "<=", ">", ">=", "==", "!="]);
        if depth == 0 {
            return format!("{} {cmp} {}", self.read_var(), self.constant());
        }
        let d = depth - 1;
        match self.below(12) {
            0..=3 => format!("{} {cmp} {}", self.read_var(), self.constant()),
            4 | 5 => format!("{} {cmp} {}", self.expr(d), self.expr(d)),
            6 => format!("({}) {} {cmp} {}", self.cast_type(), self.read_var(), self.constant()),
            7 => format!("({}) && ({})", self.cond(d), self.cond(d)),
            8 => format!("({}) || ({})", self.cond(d), self.cond(d)),
            9 => format!("!({})", self.cond(d)),
            10 => self.expr(d),
            _ => format!("{} - {} {cmp} {}", self.read_var(), self.read_var(), self.constant()),
        }
    }

    /// A condition for `reach_error()`: a random one, or one of the shapes
    /// that are false under one integer model or both (bit masks, casts,
    /// remainders, squares, `x + 1 < x`, a relation just established),
    /// so that many programs are safe and analyses must prove it.
    fn error_cond(&mut self) -> String {
        if self.chance(35) {
            return self.cond(2);
        }
        let e = self.expr(1);
        let v = self.read_var();
        match self.below(10) {
            0 => {
                let k = self.pick(&[1i128, 3, 7, 255]);
                format!("({e} & {k}) > {k}")
            }
            1 => {
                let ty = self.pick(&ALL_TYPES);
                let (t, lo, hi) = (ty.c_name(), literal(ty.min_value()), literal(ty.max_value()));
                if self.chance(50) {
                    format!("({t}) {v} > {hi}")
                } else {
                    format!("({t}) {v} < {lo}")
                }
            }
            2 => {
                let k = self.pick(&[2i128, 3, 5, 8]);
                format!("{v} % {k} >= {k} || {v} % {k} <= -{k}")
            }
            3 => format!("{v} * {v} < 0"),
            4 => format!("{v} + 1 < {v}"),
            5 => format!("({v} | 1) == 0"),
            6 => format!("{v} - {v} != 0"),
            7 => {
                let k = 1 + self.below(4);
                format!("({v} >> {k}) > {}", literal(i32::MAX as i128 >> k))
            }
            _ => {
                // A relation, established right before the check.
                let target = self.assignable();
                let c = self.small_constant();
                let s = &target.name;
                if *s == v {
                    return format!("{v} != {v}");
                }
                let cmp = self.pick(&["!=", "<", ">"]);
                let rhs = if cmp == "<" { format!("{v} + {}", literal(c.abs())) } else { format!("{v} + {}", literal(c)) };
                let check = match cmp {
                    "!=" => format!("{s} - {v} != {}", literal(c)),
                    "<" => format!("{s} < {v}"),
                    _ => format!("{s} - {v} > {}", literal(c)),
                };
                let indent = self.indent;
                self.line(indent, &format!("{s} = {rhs};"));
                check
            }
        }
    }

    fn nondet_call(&mut self, ty: IntType) -> String {
        // Mostly the variable's own type, sometimes another (a conversion).
        if self.chance(70) {
            let matching: Vec<&str> = NONDET_FUNCTIONS.iter().filter(|(_, t)| *t == ty).map(|(n, _)| *n).collect();
            if !matching.is_empty() {
                return format!("{}()", self.pick(&matching));
            }
        }
        format!("{}()", self.pick(&NONDET_FUNCTIONS).0)
    }

    fn call(&mut self, target: &Var) -> Option<String> {
        let want_rec = self.rec.is_some() && (self.funcs.is_empty() || self.chance(40));
        if want_rec {
            let rec = self.rec.clone()?;
            let n = match self.below(4) {
                0 => self.below(4).to_string(),
                1 | 2 => format!("{} & 3", self.read_var()),
                _ => format!("(int) {} % 5", self.read_var()),
            };
            return Some(format!("{} = {rec}({n}, {});", target.name, self.expr(1)));
        }
        if self.funcs.is_empty() {
            return None;
        }
        let i = self.below(self.funcs.len() as u64) as usize;
        let (name, arity) = (self.funcs[i].name.clone(), self.funcs[i].params.len());
        let args: Vec<String> = (0..arity).map(|_| self.expr(1)).collect();
        Some(format!("{} = {name}({});", target.name, args.join(", ")))
    }

    fn simple_statement(&mut self, indent: usize) {
        self.indent = indent;
        if self.memory.is_some() && self.chance(30) {
            let s = self.memory_write();
            self.line(indent, &s);
            return;
        }
        let v = self.assignable();
        let depth = self.opts.expr_depth;
        let s = match self.below(14) {
            0..=3 => format!("{} = {};", v.name, self.expr(depth)),
            4 => {
                let op = self.pick(&["+=", "-=", "*=", "&=", "|=", "^="]);
                format!("{} {op} {};", v.name, self.expr(depth - 1))
            }
            5 => {
                let op = self.pick(&["<<=", ">>="]);
                format!("{} {op} {};", v.name, self.below(5))
            }
            6 => {
                let op = self.pick(&["/=", "%="]);
                format!("{} {op} {};", v.name, self.nonzero_constant())
            }
            7 => {
                let form = self.pick(&["{}++;", "{}--;", "++{};", "--{};"]);
                form.replace("{}", &v.name)
            }
            8 | 9 => format!("{} = {};", v.name, self.nondet_call(v.ty)),
            10 => format!("__VERIFIER_assume({});", self.cond(1)),
            11 | 12 if self.opts.calls => match self.call(&v) {
                Some(s) => s,
                None => format!("{} = {};", v.name, self.expr(depth)),
            },
            _ => format!("if ({}) reach_error();", self.error_cond()),
        };
        self.line(indent, &s);
    }

    fn block(&mut self, indent: usize, nesting: usize) {
        let n = 1 + self.below(3);
        let mark = self.vars.len();
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            self.statement(indent, nesting);
        }
        self.vars.truncate(mark);
    }

    fn statement(&mut self, indent: usize, nesting: usize) {
        self.indent = indent;
        let kinds = if nesting == 0 { 6 } else { 12 };
        match self.below(kinds) {
            0..=2 => self.simple_statement(indent),
            3 => {
                let c = self.error_cond();
                self.line(indent, &format!("if ({c}) reach_error();"));
            }
            4 if self.loop_depth > 0 => {
                let c = self.cond(1);
                let jump = self.pick(&["break", "continue"]);
                self.line(indent, &format!("if ({c}) {jump};"));
            }
            4 | 5 => {
                // A block-local variable (re-declared on every loop iteration).
                let ty = self.var_type();
                let name = self.name("w");
                let init = if self.chance(15) { String::new() } else { format!(" = {}", self.expr(2)) };
                self.line(indent, &format!("{} {name}{init};", ty.c_name()));
                self.vars.push(Var { name, ty });
            }
            6..=8 => {
                let c = self.cond(2);
                self.line(indent, &format!("if ({c}) {{"));
                self.block(indent + 1, nesting - 1);
                if self.chance(60) {
                    self.line(indent, "} else {");
                    self.block(indent + 1, nesting - 1);
                }
                self.line(indent, "}");
            }
            _ => self.loop_statement(indent, nesting),
        }
    }

    fn loop_statement(&mut self, indent: usize, nesting: usize) {
        let i = self.name("i");
        let k = 1 + self.below(4);
        let head = match self.below(6) {
            0 | 1 => format!("for (int {i} = 0; {i} < {k}; {i}++) {{"),
            2 => {
                let n = self.read_var();
                format!("for (int {i} = 0; {i} < {n} && {i} < {k}; {i}++) {{")
            }
            3 => {
                self.line(indent, &format!("int {i} = 0;"));
                format!("while ({i} < {k}) {{")
            }
            4 => {
                self.line(indent, &format!("int {i} = 0;"));
                let nd = self.pick(&["__VERIFIER_nondet_bool()", "__VERIFIER_nondet_int()", "__VERIFIER_nondet_uchar() & 1"]);
                format!("while ({nd} && {i} < {k}) {{")
            }
            _ => {
                self.line(indent, &format!("int {i} = 0;"));
                "do {".to_string()
            }
        };
        let is_do = head == "do {";
        let is_while = head.starts_with("while");
        self.line(indent, &head);
        if is_do || is_while {
            self.line(indent + 1, &format!("{i}++;"));
        }
        self.counters.push(i.clone());
        self.loop_depth += 1;
        self.block(indent + 1, nesting - 1);
        self.loop_depth -= 1;
        self.counters.pop();
        if is_do {
            let tail = if self.chance(50) {
                format!("}} while ({i} < {k});")
            } else {
                let c = self.cond(1);
                format!("}} while ({i} < {k} && ({c}));")
            };
            self.line(indent, &tail);
        } else {
            self.line(indent, "}");
        }
    }

    fn helper(&mut self, indent: usize) {
        let name = format!("f{}", self.funcs.len() + 1);
        let ret = self.var_type();
        let arity = 1 + self.below(3) as usize;
        let params: Vec<Var> = (0..arity)
            .map(|k| {
                let ty = self.var_type();
                Var { name: format!("p{k}"), ty }
            })
            .collect();
        let list: Vec<String> = params.iter().map(|p| format!("{} {}", p.ty.c_name(), p.name)).collect();
        self.line(indent, &format!("{} {name}({}) {{", ret.c_name(), list.join(", ")));
        let outer = std::mem::take(&mut self.vars);
        self.vars = outer.iter().filter(|v| v.name.starts_with('g')).cloned().collect();
        self.vars.extend(params.iter().cloned());
        self.budget = 2 + self.below(2) as usize;
        let saved_rec = self.rec.take();
        while self.budget > 0 {
            self.budget -= 1;
            self.statement(indent + 1, 1);
        }
        self.rec = saved_rec;
        let e = self.expr(2);
        self.line(indent + 1, &format!("return {e};"));
        self.line(indent, "}");
        self.vars = outer;
        self.funcs.push(Func { name, params: params.iter().map(|p| p.ty).collect() });
    }

    fn recursive(&mut self) {
        let ty = self.var_type();
        let name = "rec".to_string();
        let t = ty.c_name();
        self.line(0, &format!("{t} {name}(int n, {t} a) {{"));
        let base = match self.below(3) {
            0 => "a".to_string(),
            1 => self.constant(),
            _ => "a + 1".to_string(),
        };
        self.line(1, &format!("if (n <= 0) return {base};"));
        let step = self.small_constant();
        let op = self.pick(&["+", "-", "*", "^"]);
        self.line(1, &format!("{t} r = {name}(n - 1, a {op} {});", literal(step)));
        if self.chance(40) {
            let c = self.constant();
            self.line(1, &format!("if (r == {c}) reach_error();"));
        }
        let op2 = self.pick(&["+", "-", "&", "|"]);
        self.line(1, &format!("return r {op2} n;"));
        self.line(0, "}");
        self.rec = Some(name);
    }

    fn program(&mut self) {
        self.line(0, "extern void reach_error(void);");
        if self.opts.memory {
            self.line(0, "struct m_pair { int f; int g; };");
        }
        if self.opts.globals && self.chance(60) {
            for _ in 0..1 + self.below(2) {
                let ty = self.var_type();
                let name = self.name("g");
                let c = self.constant();
                self.line(0, &format!("{} {name} = {c};", ty.c_name()));
                self.vars.push(Var { name, ty });
            }
        }
        if self.opts.recursion && self.chance(40) {
            self.recursive();
        }
        if self.opts.calls {
            let helpers = self.below(3);
            for _ in 0..helpers {
                self.helper(0);
            }
        }
        self.line(0, "int main() {");
        let locals = 2 + self.below(3);
        for _ in 0..locals {
            let ty = self.var_type();
            let name = self.name("v");
            let init = match self.below(6) {
                0 | 1 => format!(" = {}", self.constant()),
                2..=4 => format!(" = {}", self.nondet_call(ty)),
                _ if !self.vars.is_empty() => format!(" = {}", self.expr(1)),
                _ => format!(" = {}", self.constant()),
            };
            self.line(1, &format!("{} {name}{init};", ty.c_name()));
            self.vars.push(Var { name, ty });
        }
        if self.opts.memory {
            self.memory_declarations();
        }
        self.budget = self.opts.max_statements;
        while self.budget > 0 {
            self.block(1, 2);
        }
        self.line(1, "return 0;");
        self.line(0, "}");
    }
}

impl Gen<'_> {
    /// `main`'s memory: every cell is written before anything reads it.
    fn memory_declarations(&mut self) {
        let cells: Vec<String> = (0..4).map(|_| self.constant()).collect();
        self.line(1, &format!("int m_arr[4] = {{{}}};", cells.join(", ")));
        let (f, g) = (self.constant(), self.constant());
        self.line(1, &format!("struct m_pair m_s = {{{f}, {g}}};"));
        self.line(1, "struct m_pair *m_ps = &m_s;");
        let k = self.below(4);
        self.line(1, &format!("int *m_p = &m_arr[{k}];"));
        // Half of the heap blocks have a size known only at run time (2 to
        // 4 cells): an analysis must not lose the paths through such an
        // allocation (an abstract size cannot be enumerated by every domain).
        if self.below(2) == 0 {
            self.line(1, "int *m_h = (int *) malloc(2 * sizeof(int));");
        } else {
            self.line(1, "unsigned int m_n = 2U + __VERIFIER_nondet_uint() % 3U;");
            self.line(1, "int *m_h = (int *) malloc(m_n * sizeof(int));");
        }
        let (a, b) = (self.expr(1), self.expr(1));
        self.line(1, &format!("m_h[0] = {a};"));
        self.line(1, &format!("m_h[1] = {b};"));
        // One `int` local lives in memory: it is changed through `m_q`.
        let target = self.vars.iter().find(|v| v.ty == IntType::Int && v.name.starts_with('v')).map(|v| v.name.clone());
        if let Some(t) = &target {
            self.line(1, &format!("int *m_q = &{t};"));
        }
        self.memory = Some(target);
    }
}

/// The program of `seed` under `options` (deterministic).
pub fn generate(seed: u64, options: &Options) -> GenProgram {
    let mut g = Gen {
        rng: XorShift::new(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1),
        opts: options,
        out: String::new(),
        constants: Vec::new(),
        vars: Vec::new(),
        counters: Vec::new(),
        fresh: 0,
        funcs: Vec::new(),
        rec: None,
        budget: 0,
        loop_depth: 0,
        indent: 0,
        memory: None,
    };
    g.program();
    let mut constants = g.constants;
    constants.sort_unstable();
    constants.dedup();
    GenProgram { seed, text: g.out, constants }
}

/// Where a run's nondeterministic values come from: one fixed value class
/// for every input (the boundary runs), or a random mix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputMode {
    /// Every input 0.
    Zero,
    /// Every input 1.
    One,
    /// Every input −1 converted to its type (the maximum of an unsigned type).
    MinusOne,
    /// Every input the minimum of its type.
    Min,
    /// Every input the maximum of its type.
    Max,
    /// Each input drawn from: 0, ±1, min, max, min+1, max−1, a constant of
    /// the program (±1), a small number, or any value of the type.
    Random,
}

/// Nondeterministic inputs for the concrete interpreter, always within the
/// C range of the requested type (so under `math` too an input is "a value
/// of the type").
#[derive(Clone, Debug)]
pub struct Inputs {
    mode: InputMode,
    rng: XorShift,
    constants: Vec<i128>,
}

impl Inputs {
    /// Inputs of `mode`, random choices from `seed`, biased toward `constants`.
    pub fn new(mode: InputMode, seed: u64, constants: &[i128]) -> Inputs {
        Inputs { mode, rng: XorShift::scrambled(seed), constants: constants.to_vec() }
    }

    /// The inputs of run number `run` of `program`: runs 0–4 are the
    /// boundary runs (zero, one, minus one, min, max), every later run is
    /// random.
    pub fn for_run(program: &GenProgram, run: u64) -> Inputs {
        let mode = match run {
            0 => InputMode::Zero,
            1 => InputMode::One,
            2 => InputMode::MinusOne,
            3 => InputMode::Min,
            4 => InputMode::Max,
            _ => InputMode::Random,
        };
        Inputs::new(mode, program.seed ^ run.wrapping_mul(0x1000_0000_01B3), &program.constants)
    }

    fn value(&mut self, ty: IntType) -> i128 {
        let (lo, hi) = (ty.min_value(), ty.max_value());
        let v = match self.mode {
            InputMode::Zero => 0,
            InputMode::One => 1,
            InputMode::MinusOne => ty.wrap(-1),
            InputMode::Min => lo,
            InputMode::Max => hi,
            InputMode::Random => match self.rng.below(16) {
                0 => 0,
                1 => 1,
                2 => ty.wrap(-1),
                3 => lo,
                4 => hi,
                5 => lo + 1,
                6 => hi - 1,
                7..=9 if !self.constants.is_empty() => {
                    let c = self.constants[self.rng.below(self.constants.len() as u64) as usize];
                    c + self.rng.below(3) as i128 - 1
                }
                7..=11 => self.rng.below(21) as i128 - 10,
                _ => lo + (self.rng.next_u64() as i128).rem_euclid(hi - lo + 1),
            },
        };
        v.clamp(lo, hi)
    }
}

impl InputSource for Inputs {
    fn next_input(&mut self, ty: IntType) -> Option<i128> {
        Some(self.value(ty))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_denote_their_values() {
        assert_eq!(literal(5), "5");
        assert_eq!(literal(-5), "(-5)");
        assert_eq!(literal(i32::MIN as i128), "(-2147483647 - 1)");
        assert_eq!(literal(4294967295), "4294967295u");
        assert_eq!(literal(-4294967296), "(-4294967296ll)");
        assert_eq!(literal(u64::MAX as i128), "18446744073709551615ull");
    }

    #[test]
    fn generation_is_deterministic_and_seed_dependent() {
        let o = Options::full();
        assert_eq!(generate(42, &o), generate(42, &o));
        assert_ne!(generate(42, &o).text, generate(43, &o).text);
    }

    #[test]
    fn inputs_stay_in_the_type_range() {
        let p = generate(7, &Options::full());
        for run in 0..40 {
            let mut inputs = Inputs::for_run(&p, run);
            for ty in ALL_TYPES {
                for _ in 0..20 {
                    let v = inputs.next_input(ty).unwrap();
                    assert!(ty.min_value() <= v && v <= ty.max_value(), "{v} for {ty} in run {run}");
                }
            }
        }
        assert_eq!(Inputs::for_run(&p, 2).next_input(IntType::UChar), Some(255));
        assert_eq!(Inputs::for_run(&p, 3).next_input(IntType::Short), Some(-32768));
    }
}
