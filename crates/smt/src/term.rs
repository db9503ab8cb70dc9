//! Formula terms: the project's own representation of SMT formulas over the
//! theories mini-C needs — mathematical integers (`Int`), fixed-width
//! bit-vectors (`(_ BitVec w)`, w ≤ 64) and Booleans.
//!
//! A [`Term`] is an immutable tree shared by reference counting (cheap to
//! clone, compared and hashed structurally, totally ordered so sets of terms
//! are deterministic). Build terms with the smart constructors
//! ([`Term::add`], [`Term::lt`], …): they fold constants with the exact
//! SMT-LIB semantics of [`Term::eval`], so an expression over constants is a
//! constant, and a constraint over constants is `true` or `false`.
//!
//! In CPA terms: a term over *symbolic identifiers* is what a symbolic
//! abstract state binds a variable to, and a Boolean term is a path
//! constraint; SMT-LIB text of terms is what the solver is asked.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

/// The sort (type) of a term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    /// SMT-LIB `Bool`.
    Bool,
    /// SMT-LIB `Int`: unbounded mathematical integers.
    Int,
    /// SMT-LIB `(_ BitVec w)` with 1 ≤ w ≤ 64.
    Bv(u32),
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("Bool"),
            Sort::Int => f.write_str("Int"),
            Sort::Bv(w) => write!(f, "(_ BitVec {w})"),
        }
    }
}

/// An operator of a term application, named as in SMT-LIB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// `not`
    Not,
    /// `and` (n-ary)
    And,
    /// `or` (n-ary)
    Or,
    /// `ite c a b`
    Ite,
    /// `=` (binary, any sort)
    Eq,
    /// `-` unary (Int)
    Neg,
    /// `+` (Int)
    Add,
    /// `-` binary (Int)
    Sub,
    /// `*` (Int)
    Mul,
    /// `div` (Int, Euclidean: the remainder is non-negative)
    Div,
    /// `mod` (Int, Euclidean)
    Mod,
    /// `<` (Int)
    Lt,
    /// `<=` (Int)
    Le,
    /// `bvneg`
    BvNeg,
    /// `bvnot`
    BvNot,
    /// `bvadd`
    BvAdd,
    /// `bvsub`
    BvSub,
    /// `bvmul`
    BvMul,
    /// `bvudiv`
    BvUdiv,
    /// `bvurem`
    BvUrem,
    /// `bvsdiv` (truncates toward zero, as C)
    BvSdiv,
    /// `bvsrem` (sign of the dividend, as C)
    BvSrem,
    /// `bvshl`
    BvShl,
    /// `bvlshr`
    BvLshr,
    /// `bvashr`
    BvAshr,
    /// `bvand`
    BvAnd,
    /// `bvor`
    BvOr,
    /// `bvxor`
    BvXor,
    /// `bvult`
    BvUlt,
    /// `bvule`
    BvUle,
    /// `bvslt`
    BvSlt,
    /// `bvsle`
    BvSle,
    /// `(_ extract hi lo)`
    Extract(u32, u32),
    /// `(_ zero_extend n)`
    ZeroExt(u32),
    /// `(_ sign_extend n)`
    SignExt(u32),
}

impl Op {
    /// The operator's SMT-LIB name, written to `out` (`(_ extract hi lo)`
    /// for the indexed ones).
    fn write_name(self, out: &mut String) {
        use Op::*;
        let simple = match self {
            Not => "not",
            And => "and",
            Or => "or",
            Ite => "ite",
            Eq => "=",
            Neg | Sub => "-",
            Add => "+",
            Mul => "*",
            Div => "div",
            Mod => "mod",
            Lt => "<",
            Le => "<=",
            BvNeg => "bvneg",
            BvNot => "bvnot",
            BvAdd => "bvadd",
            BvSub => "bvsub",
            BvMul => "bvmul",
            BvUdiv => "bvudiv",
            BvUrem => "bvurem",
            BvSdiv => "bvsdiv",
            BvSrem => "bvsrem",
            BvShl => "bvshl",
            BvLshr => "bvlshr",
            BvAshr => "bvashr",
            BvAnd => "bvand",
            BvOr => "bvor",
            BvXor => "bvxor",
            BvUlt => "bvult",
            BvUle => "bvule",
            BvSlt => "bvslt",
            BvSle => "bvsle",
            Extract(h, l) => {
                out.push_str("(_ extract ");
                push_decimal(out, h.into());
                out.push(' ');
                push_decimal(out, l.into());
                out.push(')');
                return;
            }
            ZeroExt(n) | SignExt(n) => {
                out.push_str(if matches!(self, ZeroExt(_)) { "(_ zero_extend " } else { "(_ sign_extend " });
                push_decimal(out, n.into());
                out.push(')');
                return;
            }
        };
        out.push_str(simple);
    }
}

/// Writes `v` in decimal with `itoa`, without the formatting machinery:
/// rendering queries is on every solver-backed analysis's hot path.
pub(crate) fn push_decimal(out: &mut String, v: u128) {
    out.push_str(itoa::Buffer::new().format(v));
}

/// The node of a term tree.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Node {
    /// A Boolean constant.
    Bool(bool),
    /// An integer constant (sort `Int`).
    Int(i128),
    /// A bit-vector constant: `value` (< 2^width) of sort `(_ BitVec width)`.
    Bv {
        /// The bits, as an unsigned number.
        value: u128,
        /// The width.
        width: u32,
    },
    /// A free variable (a symbolic identifier, an SSA variable, …): it is
    /// declared in the SMT-LIB script with its sort.
    Var {
        /// Its SMT-LIB name.
        name: Arc<str>,
        /// Its sort.
        sort: Sort,
    },
    /// An operator applied to arguments (the sort is computed).
    App {
        /// The operator.
        op: Op,
        /// The arguments.
        args: Vec<Term>,
    },
}

/// A formula term (see the module docs). Clone is O(1).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Term(Arc<Node>);

/// A ground value of a term: what [`Term::eval`] computes and what a model
/// assigns to a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// A Boolean.
    Bool(bool),
    /// An integer.
    Int(i128),
    /// A bit-vector (`value < 2^width`).
    Bv {
        /// The bits as an unsigned number.
        value: u128,
        /// The width.
        width: u32,
    },
}

impl Value {
    /// The value as a term constant.
    pub fn to_term(self) -> Term {
        match self {
            Value::Bool(b) => Term::bool(b),
            Value::Int(i) => Term::int(i),
            Value::Bv { value, width } => Term::bv(value as i128, width),
        }
    }

    /// The sort of the value.
    pub fn sort(self) -> Sort {
        match self {
            Value::Bool(_) => Sort::Bool,
            Value::Int(_) => Sort::Int,
            Value::Bv { width, .. } => Sort::Bv(width),
        }
    }
}

fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// The bits of `v` read as a two's-complement signed number of `width` bits.
pub fn bv_signed(value: u128, width: u32) -> i128 {
    let v = value & mask(width);
    if width == 0 {
        return 0;
    }
    if v >> (width - 1) & 1 == 1 {
        v as i128 - (1i128 << width)
    } else {
        v as i128
    }
}

impl Term {
    fn mk(node: Node) -> Term {
        Term(Arc::new(node))
    }

    /// The node at the root.
    pub fn node(&self) -> &Node {
        &self.0
    }

    /// `true` or `false`.
    pub fn bool(b: bool) -> Term {
        Term::mk(Node::Bool(b))
    }

    /// An `Int` constant.
    pub fn int(i: i128) -> Term {
        Term::mk(Node::Int(i))
    }

    /// A bit-vector constant of `width` bits holding `v` modulo 2^width
    /// (negative `v` in two's complement).
    pub fn bv(v: i128, width: u32) -> Term {
        let width = width.clamp(1, 64);
        Term::mk(Node::Bv { value: (v as u128) & mask(width), width })
    }

    /// A free variable of `sort` named `name` (an SMT-LIB symbol).
    pub fn var(name: &str, sort: Sort) -> Term {
        Term::mk(Node::Var { name: Arc::from(name), sort })
    }

    /// The constant value, if the term is a constant.
    pub fn as_value(&self) -> Option<Value> {
        match self.node() {
            Node::Bool(b) => Some(Value::Bool(*b)),
            Node::Int(i) => Some(Value::Int(*i)),
            Node::Bv { value, width } => Some(Value::Bv { value: *value, width: *width }),
            _ => None,
        }
    }

    /// Whether the term is a constant.
    pub fn is_const(&self) -> bool {
        self.as_value().is_some()
    }

    /// The variable's name, if the term is a variable.
    pub fn as_var(&self) -> Option<&str> {
        match self.node() {
            Node::Var { name, .. } => Some(name),
            _ => None,
        }
    }

    /// The constant as a signed number (`Int` as is, bit-vectors as
    /// two's complement), if it is an integer or bit-vector constant.
    pub fn as_signed(&self) -> Option<i128> {
        match self.node() {
            Node::Int(i) => Some(*i),
            Node::Bv { value, width } => Some(bv_signed(*value, *width)),
            _ => None,
        }
    }

    /// The sort of the term.
    pub fn sort(&self) -> Sort {
        match self.node() {
            Node::Bool(_) => Sort::Bool,
            Node::Int(_) => Sort::Int,
            Node::Bv { width, .. } => Sort::Bv(*width),
            Node::Var { sort, .. } => *sort,
            Node::App { op, args } => {
                use Op::*;
                match op {
                    Not | And | Or | Eq | Lt | Le | BvUlt | BvUle | BvSlt | BvSle => Sort::Bool,
                    Ite => args.get(1).map(|a| a.sort()).unwrap_or(Sort::Bool),
                    Neg | Add | Sub | Mul | Div | Mod => Sort::Int,
                    Extract(h, l) => Sort::Bv(h - l + 1),
                    ZeroExt(n) | SignExt(n) => match args.first().map(|a| a.sort()) {
                        Some(Sort::Bv(w)) => Sort::Bv(w + n),
                        _ => Sort::Bv(*n),
                    },
                    _ => args.first().map(|a| a.sort()).unwrap_or(Sort::Int),
                }
            }
        }
    }

    /// An application, folded to a constant when every argument is one
    /// (and the result is defined: SMT `div`/`mod` by zero are left alone).
    pub fn app(op: Op, args: Vec<Term>) -> Term {
        if args.iter().all(Term::is_const) {
            let t = Term::mk(Node::App { op, args });
            return match t.eval(&|_| None) {
                Some(v) => v.to_term(),
                None => t,
            };
        }
        if matches!(op, Op::Add | Op::Sub | Op::Neg | Op::Mul | Op::BvAdd | Op::BvSub | Op::BvNeg | Op::BvMul) {
            let t = Term::mk(Node::App { op, args });
            return normalize_linear(&t).unwrap_or(t);
        }
        Term::mk(Node::App { op, args })
    }

    // -- Booleans -------------------------------------------------------

    /// `(not a)`, simplifying double negation and comparisons' negations
    /// that stay in the same theory.
    #[allow(clippy::should_implement_trait)] // SMT-LIB's operator names; they build terms, not Rust arithmetic
    pub fn not(a: Term) -> Term {
        if let Node::App { op: Op::Not, args } = a.node() {
            return args[0].clone();
        }
        Term::app(Op::Not, vec![a])
    }

    /// `(and …)` with `true` dropped, `false` absorbing, one argument unwrapped.
    pub fn and(args: Vec<Term>) -> Term {
        let mut out = Vec::new();
        for a in args {
            match a.node() {
                Node::Bool(true) => {}
                Node::Bool(false) => return Term::bool(false),
                _ => out.push(a),
            }
        }
        match out.len() {
            0 => Term::bool(true),
            1 => out.pop().expect("one"),
            _ => Term::mk(Node::App { op: Op::And, args: out }),
        }
    }

    /// `(or …)` with `false` dropped, `true` absorbing, one argument unwrapped.
    pub fn or(args: Vec<Term>) -> Term {
        let mut out = Vec::new();
        for a in args {
            match a.node() {
                Node::Bool(false) => {}
                Node::Bool(true) => return Term::bool(true),
                _ => out.push(a),
            }
        }
        match out.len() {
            0 => Term::bool(false),
            1 => out.pop().expect("one"),
            _ => Term::mk(Node::App { op: Op::Or, args: out }),
        }
    }

    /// `(ite c a b)`, decided when `c` is a constant or `a == b`.
    pub fn ite(c: Term, a: Term, b: Term) -> Term {
        match c.node() {
            Node::Bool(true) => a,
            Node::Bool(false) => b,
            _ if a == b => a,
            _ => Term::mk(Node::App { op: Op::Ite, args: vec![c, a, b] }),
        }
    }

    /// `(= a b)`; `true` when the terms are identical.
    pub fn eq(a: Term, b: Term) -> Term {
        if a == b {
            return Term::bool(true);
        }
        Term::app(Op::Eq, vec![a, b])
    }

    /// `(not (= a b))`.
    pub fn ne(a: Term, b: Term) -> Term {
        Term::not(Term::eq(a, b))
    }

    // -- Int ------------------------------------------------------------

    /// `(- a)` (Int).
    #[allow(clippy::should_implement_trait)] // SMT-LIB's operator names; they build terms, not Rust arithmetic
    pub fn neg(a: Term) -> Term {
        Term::app(Op::Neg, vec![a])
    }
    /// `(+ a b)` (Int); `a + 0 = a`.
    #[allow(clippy::should_implement_trait)] // SMT-LIB's operator names; they build terms, not Rust arithmetic
    pub fn add(a: Term, b: Term) -> Term {
        if b.as_value() == Some(Value::Int(0)) {
            return a;
        }
        if a.as_value() == Some(Value::Int(0)) {
            return b;
        }
        Term::app(Op::Add, vec![a, b])
    }
    /// `(- a b)` (Int); `a - 0 = a`.
    #[allow(clippy::should_implement_trait)] // SMT-LIB's operator names; they build terms, not Rust arithmetic
    pub fn sub(a: Term, b: Term) -> Term {
        if b.as_value() == Some(Value::Int(0)) {
            return a;
        }
        Term::app(Op::Sub, vec![a, b])
    }
    /// `(* a b)` (Int).
    #[allow(clippy::should_implement_trait)] // SMT-LIB's operator names; they build terms, not Rust arithmetic
    pub fn mul(a: Term, b: Term) -> Term {
        Term::app(Op::Mul, vec![a, b])
    }
    /// `(div a b)` (Int, Euclidean).
    #[allow(clippy::should_implement_trait)] // SMT-LIB's operator names; they build terms, not Rust arithmetic
    pub fn div(a: Term, b: Term) -> Term {
        Term::app(Op::Div, vec![a, b])
    }
    /// `(mod a b)` (Int, Euclidean).
    pub fn modulo(a: Term, b: Term) -> Term {
        Term::app(Op::Mod, vec![a, b])
    }
    /// `(< a b)` (Int).
    pub fn lt(a: Term, b: Term) -> Term {
        Term::app(Op::Lt, vec![a, b])
    }
    /// `(<= a b)` (Int).
    pub fn le(a: Term, b: Term) -> Term {
        Term::app(Op::Le, vec![a, b])
    }

    /// A binary bit-vector operation.
    pub fn bv2(op: Op, a: Term, b: Term) -> Term {
        Term::app(op, vec![a, b])
    }
    /// A unary bit-vector operation (`bvneg`, `bvnot`, extract, extensions).
    pub fn bv1(op: Op, a: Term) -> Term {
        Term::app(op, vec![a])
    }

    // -- traversal ------------------------------------------------------

    /// The arguments (empty for constants and variables).
    pub fn args(&self) -> &[Term] {
        match self.node() {
            Node::App { args, .. } => args,
            _ => &[],
        }
    }

    /// Every free variable with its sort, by name.
    pub fn vars(&self) -> BTreeMap<Arc<str>, Sort> {
        let mut out = BTreeMap::new();
        self.collect_vars(&mut out);
        out
    }

    /// Adds the term's free variables to `out`.
    pub fn collect_vars(&self, out: &mut BTreeMap<Arc<str>, Sort>) {
        match self.node() {
            Node::Var { name, sort } => {
                out.insert(name.clone(), *sort);
            }
            Node::App { args, .. } => args.iter().for_each(|a| a.collect_vars(out)),
            _ => {}
        }
    }

    /// The names of the free variables, in order of first occurrence
    /// (depth-first, left to right).
    pub fn var_names_in_order(&self, out: &mut Vec<Arc<str>>) {
        match self.node() {
            Node::Var { name, .. } if !out.contains(name) => out.push(name.clone()),
            Node::App { args, .. } => args.iter().for_each(|a| a.var_names_in_order(out)),
            _ => {}
        }
    }

    /// Replaces variables by terms (`map` gives the replacement of a name,
    /// `None` = keep), re-folding constants.
    pub fn substitute(&self, map: &dyn Fn(&str) -> Option<Term>) -> Term {
        match self.node() {
            Node::Var { name, .. } => map(name).unwrap_or_else(|| self.clone()),
            Node::App { op, args } => {
                let new: Vec<Term> = args.iter().map(|a| a.substitute(map)).collect();
                if new == *args {
                    return self.clone();
                }
                rebuild(*op, new)
            }
            _ => self.clone(),
        }
    }

    /// The term with every variable renamed by `rename` (same sorts).
    pub fn rename(&self, rename: &dyn Fn(&str) -> Option<Arc<str>>) -> Term {
        self.substitute(&|n| {
            let sort = self.var_sort(n)?;
            rename(n).map(|m| Term::mk(Node::Var { name: m, sort }))
        })
    }

    fn var_sort(&self, name: &str) -> Option<Sort> {
        match self.node() {
            Node::Var { name: n, sort } if &**n == name => Some(*sort),
            Node::App { args, .. } => args.iter().find_map(|a| a.var_sort(name)),
            _ => None,
        }
    }

    /// The number of nodes (a size measure for limits).
    pub fn size(&self) -> usize {
        1 + self.args().iter().map(Term::size).sum::<usize>()
    }

    // -- evaluation -----------------------------------------------------

    /// Evaluates the term with SMT-LIB semantics, variables from `env`.
    /// `None` when a variable has no value, an `Int` result leaves 128 bits,
    /// or the value is unspecified by SMT-LIB (`div`/`mod` by zero).
    /// Bit-vector division by zero follows SMT-LIB (`bvudiv x 0` = all ones,
    /// `bvurem x 0` = x).
    pub fn eval(&self, env: &dyn Fn(&str) -> Option<Value>) -> Option<Value> {
        use Op::*;
        match self.node() {
            Node::Bool(b) => Some(Value::Bool(*b)),
            Node::Int(i) => Some(Value::Int(*i)),
            Node::Bv { value, width } => Some(Value::Bv { value: *value, width: *width }),
            Node::Var { name, .. } => env(name),
            Node::App { op, args } => {
                if *op == Ite {
                    let Value::Bool(c) = args.first()?.eval(env)? else { return None };
                    return args.get(if c { 1 } else { 2 })?.eval(env);
                }
                if *op == And || *op == Or {
                    // Short-circuit so a decided conjunct decides even when
                    // another is unknown.
                    let decisive = *op == Or;
                    let mut unknown = false;
                    for a in args {
                        match a.eval(env) {
                            Some(Value::Bool(b)) if b == decisive => return Some(Value::Bool(decisive)),
                            Some(Value::Bool(_)) => {}
                            _ => unknown = true,
                        }
                    }
                    return if unknown { None } else { Some(Value::Bool(!decisive)) };
                }
                let vals: Vec<Value> = args.iter().map(|a| a.eval(env)).collect::<Option<_>>()?;
                eval_op(*op, &vals)
            }
        }
    }
}

/// Collects `t` (scaled by `scale`) as a linear combination: atoms with
/// coefficients in order of first occurrence, and a constant. Bit-vector
/// arithmetic wraps (the ring Z/2^w, reduced by the caller); integer
/// arithmetic fails on i128 overflow.
fn collect_linear(t: &Term, scale: i128, atoms: &mut Vec<(Term, i128)>, k: &mut i128, bv: bool) -> bool {
    let mul = |a: i128, b: i128| if bv { Some(a.wrapping_mul(b)) } else { a.checked_mul(b) };
    let add = |a: i128, b: i128| if bv { Some(a.wrapping_add(b)) } else { a.checked_add(b) };
    if let Some(c) = t.as_signed() {
        return match mul(scale, c).and_then(|x| add(*k, x)) {
            Some(v) => {
                *k = v;
                true
            }
            None => false,
        };
    }
    if let Node::App { op, args } = t.node() {
        match (op, args.as_slice()) {
            (Op::Add | Op::BvAdd, [a, b]) => {
                return collect_linear(a, scale, atoms, k, bv) && collect_linear(b, scale, atoms, k, bv)
            }
            (Op::Sub | Op::BvSub, [a, b]) => {
                return collect_linear(a, scale, atoms, k, bv)
                    && match mul(scale, -1) {
                        Some(s) => collect_linear(b, s, atoms, k, bv),
                        None => false,
                    }
            }
            (Op::Neg | Op::BvNeg, [a]) => {
                return match mul(scale, -1) {
                    Some(s) => collect_linear(a, s, atoms, k, bv),
                    None => false,
                }
            }
            (Op::Mul | Op::BvMul, [a, b]) if a.is_const() || b.is_const() => {
                let (c, x) = if a.is_const() { (a, b) } else { (b, a) };
                return match c.as_signed().and_then(|c| mul(scale, c)) {
                    Some(s) => collect_linear(x, s, atoms, k, bv),
                    None => false,
                };
            }
            _ => {}
        }
    }
    match atoms.iter_mut().find(|(a, _)| a == t) {
        Some((_, c)) => match add(*c, scale) {
            Some(v) => *c = v,
            None => return false,
        },
        None => atoms.push((t.clone(), scale)),
    }
    true
}

/// The canonical form of a linear term: like atoms merged (in order of
/// first occurrence — the structure decides the order, never the names of
/// variables, so renaming commutes with normalizing) and constants summed:
/// `c1·a1 ± c2·a2 … ± k`. `x + 1 + 1` becomes `x + 2`, and a loop's
/// `x = x + y` keeps a term of constant size.
fn normalize_linear(t: &Term) -> Option<Term> {
    let sort = t.sort();
    let (bv, width) = match sort {
        Sort::Bv(w) => (true, w),
        Sort::Int => (false, 0),
        Sort::Bool => return None,
    };
    let mut atoms = Vec::new();
    let mut k = 0i128;
    if !collect_linear(t, 1, &mut atoms, &mut k, bv) {
        return None;
    }
    let reduce = |c: i128| if bv { bv_signed(c as u128, width) } else { c };
    let constant = |c: i128| if bv { Term::bv(c, width) } else { Term::int(c) };
    let raw = |op: Op, args: Vec<Term>| Term::mk(Node::App { op, args });
    let (add, sub, mul, neg) =
        if bv { (Op::BvAdd, Op::BvSub, Op::BvMul, Op::BvNeg) } else { (Op::Add, Op::Sub, Op::Mul, Op::Neg) };
    let mut acc: Option<Term> = None;
    for (a, c) in atoms {
        let c = reduce(c);
        if c == 0 {
            continue;
        }
        let mag = c.checked_abs()?;
        let scaled = |m: i128| if m == 1 { a.clone() } else { raw(mul, vec![constant(m), a.clone()]) };
        acc = Some(match acc {
            None if c < 0 => raw(neg, vec![scaled(mag)]),
            None => scaled(mag),
            Some(x) if c < 0 => raw(sub, vec![x, scaled(mag)]),
            Some(x) => raw(add, vec![x, scaled(mag)]),
        });
    }
    let k = reduce(k);
    Some(match acc {
        None => constant(k),
        Some(x) if k == 0 => x,
        Some(x) if k < 0 && k != i128::MIN && !(bv && -k >= 1i128 << (width - 1).min(126)) => raw(sub, vec![x, constant(-k)]),
        Some(x) => raw(add, vec![x, constant(k)]),
    })
}

/// Re-applies `op` to new arguments through the simplifying constructors.
fn rebuild(op: Op, mut args: Vec<Term>) -> Term {
    match op {
        Op::Not if args.len() == 1 => Term::not(args.pop().expect("one")),
        Op::And => Term::and(args),
        Op::Or => Term::or(args),
        Op::Ite if args.len() == 3 => {
            let b = args.pop().expect("3");
            let a = args.pop().expect("3");
            let c = args.pop().expect("3");
            Term::ite(c, a, b)
        }
        Op::Eq if args.len() == 2 => {
            let b = args.pop().expect("2");
            let a = args.pop().expect("2");
            Term::eq(a, b)
        }
        _ => Term::app(op, args),
    }
}

fn eval_op(op: Op, v: &[Value]) -> Option<Value> {
    use Op::*;
    let int = |i: usize| match v.get(i) {
        Some(Value::Int(x)) => Some(*x),
        _ => None,
    };
    let bv = |i: usize| match v.get(i) {
        Some(Value::Bv { value, width }) => Some((*value, *width)),
        _ => None,
    };
    let boolean = |i: usize| match v.get(i) {
        Some(Value::Bool(b)) => Some(*b),
        _ => None,
    };
    let mk = |value: u128, width: u32| Value::Bv { value: value & mask(width), width };
    Some(match op {
        Not => Value::Bool(!boolean(0)?),
        Eq => Value::Bool(v.first()? == v.get(1)?),
        Neg => Value::Int(int(0)?.checked_neg()?),
        Add => Value::Int(int(0)?.checked_add(int(1)?)?),
        Sub => Value::Int(int(0)?.checked_sub(int(1)?)?),
        Mul => Value::Int(int(0)?.checked_mul(int(1)?)?),
        Div => {
            let (a, b) = (int(0)?, int(1)?);
            if b == 0 {
                return None;
            }
            Value::Int(a.checked_div_euclid(b)?)
        }
        Mod => {
            let (a, b) = (int(0)?, int(1)?);
            if b == 0 {
                return None;
            }
            Value::Int(a.checked_rem_euclid(b)?)
        }
        Lt => Value::Bool(int(0)? < int(1)?),
        Le => Value::Bool(int(0)? <= int(1)?),
        BvNeg => {
            let (a, w) = bv(0)?;
            mk(a.wrapping_neg(), w)
        }
        BvNot => {
            let (a, w) = bv(0)?;
            mk(!a, w)
        }
        BvAdd | BvSub | BvMul | BvUdiv | BvUrem | BvSdiv | BvSrem | BvShl | BvLshr | BvAshr | BvAnd | BvOr | BvXor | BvUlt
        | BvUle | BvSlt | BvSle => {
            let (a, w) = bv(0)?;
            let (b, w2) = bv(1)?;
            if w != w2 {
                return None;
            }
            let ones = mask(w);
            let udiv = |a: u128, b: u128| a.checked_div(b).unwrap_or(ones);
            let urem = |a: u128, b: u128| if b == 0 { a } else { a % b };
            let neg = |x: u128| x.wrapping_neg() & ones;
            let msb = |x: u128| x >> (w - 1) & 1 == 1;
            match op {
                BvAdd => mk(a.wrapping_add(b), w),
                BvSub => mk(a.wrapping_sub(b), w),
                BvMul => mk(a.wrapping_mul(b), w),
                BvUdiv => mk(udiv(a, b), w),
                BvUrem => mk(urem(a, b), w),
                BvSdiv => mk(
                    match (msb(a), msb(b)) {
                        (false, false) => udiv(a, b),
                        (true, false) => neg(udiv(neg(a), b)),
                        (false, true) => neg(udiv(a, neg(b))),
                        (true, true) => udiv(neg(a), neg(b)),
                    },
                    w,
                ),
                BvSrem => mk(
                    match (msb(a), msb(b)) {
                        (false, false) => urem(a, b),
                        (true, false) => neg(urem(neg(a), b)),
                        (false, true) => urem(a, neg(b)),
                        (true, true) => neg(urem(neg(a), neg(b))),
                    },
                    w,
                ),
                BvShl => mk(if b >= w as u128 { 0 } else { a << b }, w),
                BvLshr => mk(if b >= w as u128 { 0 } else { a >> b }, w),
                BvAshr => {
                    let s = bv_signed(a, w);
                    let sh = if b >= w as u128 { w - 1 } else { b as u32 };
                    mk((s >> sh) as u128, w)
                }
                BvAnd => mk(a & b, w),
                BvOr => mk(a | b, w),
                BvXor => mk(a ^ b, w),
                BvUlt => Value::Bool(a < b),
                BvUle => Value::Bool(a <= b),
                BvSlt => Value::Bool(bv_signed(a, w) < bv_signed(b, w)),
                BvSle => Value::Bool(bv_signed(a, w) <= bv_signed(b, w)),
                _ => return None,
            }
        }
        Extract(h, l) => {
            let (a, _) = bv(0)?;
            mk(a >> l, h - l + 1)
        }
        ZeroExt(n) => {
            let (a, w) = bv(0)?;
            mk(a, w + n)
        }
        SignExt(n) => {
            let (a, w) = bv(0)?;
            mk(bv_signed(a, w) as u128, w + n)
        }
        And | Or | Ite => return None,
    })
}

/// Whether `s` can be written as an SMT-LIB simple symbol.
fn simple_symbol(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.bytes().all(|c| c.is_ascii_alphanumeric() || b"~!@$%^&*_-+=<>.?/".contains(&c))
}

/// Writes a symbol, quoting it with `|…|` when needed (`|` and `\` are
/// replaced, as SMT-LIB does not allow them inside quotes).
pub fn write_symbol(f: &mut impl fmt::Write, s: &str) -> fmt::Result {
    if simple_symbol(s) {
        f.write_str(s)
    } else {
        let clean: String = s.chars().map(|c| if c == '|' || c == '\\' { '_' } else { c }).collect();
        write!(f, "|{clean}|")
    }
}

impl Term {
    /// Appends the term's SMT-LIB2 text to `out` (what [`fmt::Display`]
    /// prints): the renderer of every query script
    /// ([`crate::Query::to_smtlib`]), so it writes straight into the string.
    pub fn write_smtlib(&self, out: &mut String) {
        match self.node() {
            Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Node::Int(i) => {
                if *i < 0 {
                    out.push_str("(- ");
                    push_decimal(out, i.unsigned_abs());
                    out.push(')');
                } else {
                    push_decimal(out, i.unsigned_abs());
                }
            }
            Node::Bv { value, width } => {
                out.push_str("(_ bv");
                push_decimal(out, *value);
                out.push(' ');
                push_decimal(out, (*width).into());
                out.push(')');
            }
            Node::Var { name, .. } => {
                let _ = write_symbol(out, name);
            }
            Node::App { op, args } => {
                out.push('(');
                op.write_name(out);
                for a in args {
                    out.push(' ');
                    a.write_smtlib(out);
                }
                out.push(')');
            }
        }
    }
}

impl fmt::Display for Term {
    /// SMT-LIB2 text of the term ([`Term::write_smtlib`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_smtlib(&mut s);
        f.write_str(&s)
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Term {
    /// The term in C-like infix notation for people (`a + 1 <= b`), with
    /// bit-vector constants shown as signed numbers and `(s)`/`(u)` marking
    /// signed/unsigned bit-vector comparisons and divisions.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        self.pretty_into(&mut s, 0);
        s
    }

    fn pretty_into(&self, out: &mut String, parent_prec: u8) {
        use Op::*;
        match self.node() {
            Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Node::Int(i) => out.push_str(&i.to_string()),
            Node::Bv { value, width } => out.push_str(&bv_signed(*value, *width).to_string()),
            Node::Var { name, .. } => out.push_str(name),
            Node::App { op, args } => {
                let (sym, prec): (&str, u8) = match op {
                    Or => ("||", 1),
                    And => ("&&", 2),
                    Eq => ("==", 4),
                    Lt | BvSlt => ("<", 5),
                    Le | BvSle => ("<=", 5),
                    BvUlt => ("<ᵤ", 5),
                    BvUle => ("<=ᵤ", 5),
                    BvOr => ("|", 3),
                    BvXor => ("^", 3),
                    BvAnd => ("&", 3),
                    BvShl => ("<<", 6),
                    BvAshr => (">>", 6),
                    BvLshr => (">>ᵤ", 6),
                    Add | BvAdd => ("+", 7),
                    Sub | BvSub => ("-", 7),
                    Mul | BvMul => ("*", 8),
                    Div => ("div", 8),
                    Mod => ("mod", 8),
                    BvSdiv => ("/", 8),
                    BvUdiv => ("/ᵤ", 8),
                    BvSrem => ("%", 8),
                    BvUrem => ("%ᵤ", 8),
                    _ => ("", 0),
                };
                if prec > 0 && args.len() >= 2 {
                    if prec <= parent_prec {
                        out.push('(');
                    }
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            out.push(' ');
                            out.push_str(sym);
                            out.push(' ');
                        }
                        a.pretty_into(out, prec);
                    }
                    if prec <= parent_prec {
                        out.push(')');
                    }
                    return;
                }
                match op {
                    Not => {
                        if let Some(Node::App { op: Eq, args: eq }) = args.first().map(|a| a.node()) {
                            if parent_prec >= 4 {
                                out.push('(');
                            }
                            eq[0].pretty_into(out, 4);
                            out.push_str(" != ");
                            eq[1].pretty_into(out, 4);
                            if parent_prec >= 4 {
                                out.push(')');
                            }
                            return;
                        }
                        out.push('!');
                        args[0].pretty_into(out, 9);
                    }
                    Neg | BvNeg => {
                        out.push('-');
                        args[0].pretty_into(out, 9);
                    }
                    BvNot => {
                        out.push('~');
                        args[0].pretty_into(out, 9);
                    }
                    Ite => {
                        if parent_prec > 0 {
                            out.push('(');
                        }
                        args[0].pretty_into(out, 1);
                        out.push_str(" ? ");
                        args[1].pretty_into(out, 1);
                        out.push_str(" : ");
                        args[2].pretty_into(out, 1);
                        if parent_prec > 0 {
                            out.push(')');
                        }
                    }
                    Extract(_, _) | ZeroExt(_) | SignExt(_) => {
                        let w = match self.sort() {
                            Sort::Bv(w) => w,
                            _ => 0,
                        };
                        let kind = match op {
                            Extract(..) => "",
                            ZeroExt(_) => "u",
                            _ => "s",
                        };
                        out.push_str(&format!("({kind}{w})"));
                        args[0].pretty_into(out, 9);
                    }
                    _ => {
                        op.write_name(out);
                        out.push('(');
                        for (i, a) in args.iter().enumerate() {
                            if i > 0 {
                                out.push_str(", ");
                            }
                            a.pretty_into(out, 0);
                        }
                        out.push(')');
                    }
                }
            }
        }
    }
}

/// The set of free variables of several terms, with sorts.
pub fn vars_of<'a>(terms: impl IntoIterator<Item = &'a Term>) -> BTreeMap<Arc<str>, Sort> {
    let mut out = BTreeMap::new();
    for t in terms {
        t.collect_vars(&mut out);
    }
    out
}

/// The names of the free variables of several terms.
pub fn var_names<'a>(terms: impl IntoIterator<Item = &'a Term>) -> BTreeSet<Arc<str>> {
    vars_of(terms).into_keys().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_fold() {
        let t = Term::add(Term::int(2), Term::int(3));
        assert_eq!(t.as_value(), Some(Value::Int(5)));
        let t = Term::bv2(Op::BvSdiv, Term::bv(-7, 32), Term::bv(2, 32));
        assert_eq!(t.as_signed(), Some(-3));
        let t = Term::bv2(Op::BvSrem, Term::bv(-7, 32), Term::bv(2, 32));
        assert_eq!(t.as_signed(), Some(-1));
        assert_eq!(Term::div(Term::int(-7), Term::int(2)).as_signed(), Some(-4));
        assert_eq!(Term::modulo(Term::int(-7), Term::int(2)).as_signed(), Some(1));
    }

    #[test]
    fn linear_terms_are_normalized() {
        let x = Term::var("x", Sort::Bv(32));
        let y = Term::var("y", Sort::Bv(32));
        let one = Term::bv(1, 32);
        let t = Term::bv2(Op::BvAdd, Term::bv2(Op::BvAdd, x.clone(), one.clone()), one.clone());
        assert_eq!(t.to_string(), "(bvadd x (_ bv2 32))");
        // x + y + (x + 1) - y = 2x + 1
        let t = Term::bv2(
            Op::BvSub,
            Term::bv2(Op::BvAdd, Term::bv2(Op::BvAdd, x.clone(), y.clone()), Term::bv2(Op::BvAdd, x.clone(), one.clone())),
            y.clone(),
        );
        assert_eq!(t.to_string(), "(bvadd (bvmul (_ bv2 32) x) (_ bv1 32))");
        let t = Term::bv2(Op::BvSub, x.clone(), x.clone());
        assert_eq!(t.as_signed(), Some(0));
        let i = Term::var("i", Sort::Int);
        assert_eq!(Term::sub(Term::add(i.clone(), Term::int(3)), Term::int(5)).to_string(), "(- i 2)");
    }

    #[test]
    fn printing() {
        let x = Term::var("x", Sort::Int);
        let t = Term::le(Term::add(x.clone(), Term::int(-1)), Term::int(3));
        assert_eq!(t.to_string(), "(<= (- x 1) 3)");
        assert_eq!(t.pretty(), "x - 1 <= 3");
        let y = Term::var("a b", Sort::Bv(8));
        assert_eq!(Term::bv1(Op::SignExt(24), y).to_string(), "((_ sign_extend 24) |a b|)");
    }

    #[test]
    fn numbers_are_printed_at_their_extremes() {
        // The renderer writes numbers with `itoa` (`push_decimal`), so the
        // ends of every range are checked against Rust's own formatting.
        for i in [0, 1, 9, 10, -1, -10, i64::MAX as i128, i128::MAX, i128::MIN, i128::MIN + 1] {
            let want = if i < 0 { format!("(- {})", i.unsigned_abs()) } else { i.to_string() };
            assert_eq!(Term::int(i).to_string(), want);
        }
        assert_eq!(Term::bv(-1, 64).to_string(), format!("(_ bv{} 64)", u64::MAX));
        assert_eq!(Term::bv(0, 1).to_string(), "(_ bv0 1)");
        let x = Term::var("|x\\y", Sort::Bv(32));
        assert_eq!(Term::bv1(Op::Extract(31, 0), x.clone()).to_string(), "((_ extract 31 0) |_x_y|)");
        assert_eq!(Term::bv1(Op::ZeroExt(100), x).to_string(), "((_ zero_extend 100) |_x_y|)");
    }
}
