//! Encoding of mini-C expressions ([`cfa::Expr`]) into formula terms.
//!
//! This is the one place that knows how C's integer operations look in SMT:
//! the symbolic-execution CPAs, counterexample checks (SSA path formulas)
//! and anything else that asks a solver about program expressions call
//! [`encode_expr`] / [`encode_condition`] with an [`EncodeEnv`] that says
//! what a program variable stands for (a symbolic value, an SSA variable
//! `x@3`, …).
//!
//! # The two theories (`solver.theory`)
//!
//! * [`Theory::Bitvector`]: a value of C type `T` is a `(_ BitVec w)` with
//!   `w = T.bits()` (ILP32; `_Bool` is 1 bit). Arithmetic wraps modulo
//!   2^w exactly as C does under the `c` integer model; signed/unsigned
//!   comparisons, division (`bvsdiv` truncates toward zero, `bvsrem` takes
//!   the dividend's sign — both as C), right shifts (`bvashr`/`bvlshr`),
//!   bitwise operators and conversions (extract / sign- or zero-extend) are
//!   exact. Sound for `analysis.intModel = C`.
//! * [`Theory::Integer`]: every value is an `Int`. `+ - *` do **not** wrap
//!   (overflow is ignored: exact for `math`, unsound for `c`). C division
//!   truncates toward zero while SMT-LIB `div`/`mod` are Euclidean, so
//!   `a / b` is encoded as `ite(a >= 0, div(a, b), -div(-a, b))` and `a % b`
//!   as `a - b * (a / b)`. Shifts by a constant `k` are `a * 2^k` and
//!   `div(a, 2^k)` (floor = arithmetic shift); `~a` is `-a - 1`. Bitwise
//!   `& | ^` and shifts by a non-constant amount cannot be expressed in
//!   linear integer arithmetic: they become a **fresh unconstrained value**
//!   ([`EncodeEnv::fresh`]) — a sound over-approximation. Conversions under
//!   the `c` model wrap exactly (`mod 2^w`, a linear operation); under
//!   `math` only `_Bool` normalizes (as [`minic::IntType::convert`]).
//!
//! # Exact wrap-around over the integers ([`Encoding::wrapped`])
//!
//! Quantifier elimination over bit-vectors does not finish in z3, so an
//! analysis that eliminates quantifiers (the predicate analysis) encodes
//! over `Int` with `wrap` set: under the `c` model every arithmetic result
//! is wrapped into its type's range exactly, as two's complement does.
//! With in-range operands one wrap suffices for `+ - unary-`:
//! `ite(t > MAX, t - 2^w, ite(t < MIN, t + 2^w, t))`; multiplication and
//! left shift by a constant use the `mod 2^w` wrap of conversions; `~a` and
//! right shifts by a constant stay in range by themselves. A product of
//! two non-constants, division or remainder by a non-constant, bitwise
//! `& | ^` and shifts by a non-constant amount become a fresh value, so the
//! formulas stay in linear integer arithmetic. Constants fold to C's
//! result. The inputs (variables, fresh values) must be in range — the
//! caller asserts [`Encoding::range_constraint`] for them (an unconstrained
//! fresh value is still sound, only less precise).
//!
//! In both theories, division or remainder by zero and shifts by an
//! out-of-range amount have no defined result in mini-C (`docs/minic.md`): the
//! encoding guards them, `ite(b = 0, fresh, a / b)`, so the result is an
//! arbitrary value rather than SMT-LIB's fixed `bvsdiv x 0`.
//!
//! Every operand of an [`Expr::Binary`] already has the operation's type
//! (lowering inserted the casts), so the encoding never converts implicitly.

use crate::term::{Op, Sort, Term, Value};
use cfa::{BinOp, Expr, UnOp, VarId};
use minic::{IntModel, IntType};
use std::collections::BTreeMap;
use std::fmt;

/// Which SMT theory integer values are encoded in (`solver.theory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Theory {
    /// Unbounded integers (`Int`): fast, exact for the `math` model, ignores
    /// overflow under `c`.
    #[default]
    Integer,
    /// Fixed-width bit-vectors: exact for the `c` model.
    Bitvector,
}

impl Theory {
    /// `INTEGER` or `BITVECTOR` (the configuration spelling).
    pub fn name(self) -> &'static str {
        match self {
            Theory::Integer => "INTEGER",
            Theory::Bitvector => "BITVECTOR",
        }
    }

    /// The theory that is sound for an integer model: `c` → bit-vectors,
    /// `math` → integers.
    pub fn sound_for(model: IntModel) -> Theory {
        match model {
            IntModel::C => Theory::Bitvector,
            IntModel::Math => Theory::Integer,
        }
    }

    /// When this theory is not exact for `model`, a sentence saying what it
    /// ignores (for a verdict's reason).
    pub fn caveat(self, model: IntModel) -> Option<&'static str> {
        match (self, model) {
            (Theory::Integer, IntModel::C) => Some(
                "solver.theory = INTEGER under analysis.intModel = C ignores arithmetic overflow, so a TRUE verdict may be wrong for C",
            ),
            (Theory::Bitvector, IntModel::Math) => Some(
                "solver.theory = BITVECTOR under analysis.intModel = MATH wraps values at their type's width, which unbounded integers do not do",
            ),
            _ => None,
        }
    }
}

impl fmt::Display for Theory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Theory {
    type Err = String;
    fn from_str(s: &str) -> Result<Theory, String> {
        match s.to_ascii_uppercase().as_str() {
            "INTEGER" | "INT" => Ok(Theory::Integer),
            "BITVECTOR" | "BV" => Ok(Theory::Bitvector),
            _ => Err(format!("unknown theory `{s}` (expected INTEGER or BITVECTOR)")),
        }
    }
}

/// How to encode: the theory and the integer model of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Encoding {
    /// `solver.theory`.
    pub theory: Theory,
    /// `analysis.intModel`.
    pub model: IntModel,
    /// Whether `Int` arithmetic under the `c` model wraps exactly (see
    /// [`Encoding::wrapped`]); `false` ignores overflow.
    pub wrap: bool,
}

impl Encoding {
    /// An encoding.
    pub fn new(theory: Theory, model: IntModel) -> Self {
        Encoding { theory, model, wrap: false }
    }

    /// Integer theory; under IntModel::C every arithmetic result is wrapped into its type's range exactly (two's
    /// complement, as `cfa::Expr::eval` under C), and non-linear products become a fresh value, so formulas stay in
    /// linear integer arithmetic (QE works) and stay exact for + - unary- ~, multiplication by a constant, shifts by
    /// a constant, conversions. Under IntModel::Math the same as Encoding::new(Integer, Math).
    pub fn wrapped(model: IntModel) -> Encoding {
        Encoding { theory: Theory::Integer, model, wrap: model == IntModel::C }
    }

    /// When this encoding is not exact for its model, a sentence saying what
    /// it ignores (for a verdict's reason): `None` for a wrapped encoding,
    /// else [`Theory::caveat`].
    pub fn caveat(self) -> Option<&'static str> {
        if self.wraps() {
            None
        } else {
            self.theory.caveat(self.model)
        }
    }

    /// Whether `Int` results are wrapped (integer theory, `c` model, `wrap`).
    fn wraps(self) -> bool {
        self.wrap && self.theory == Theory::Integer && self.model == IntModel::C
    }

    /// The sort of a value of C type `ty`.
    pub fn sort(self, ty: IntType) -> Sort {
        match self.theory {
            Theory::Integer => Sort::Int,
            Theory::Bitvector => Sort::Bv(ty.bits()),
        }
    }

    /// The constant `v` as a value of type `ty` (converted to `ty` first
    /// under the `c` model, reduced modulo 2^w for bit-vectors).
    pub fn constant(self, v: i128, ty: IntType) -> Term {
        match self.theory {
            Theory::Integer => Term::int(ty.convert(v, self.model)),
            Theory::Bitvector => Term::bv(v, ty.bits()),
        }
    }

    /// The constraint that `t` (of type `ty`) lies in the range of `ty`
    /// under the run's model: needed for the inputs of an `Int` encoding
    /// under `c` (and for `_Bool` always); `true` when the sort already
    /// guarantees it (bit-vectors).
    pub fn range_constraint(self, t: &Term, ty: IntType) -> Term {
        match (self.theory, self.model) {
            (Theory::Bitvector, _) => Term::bool(true),
            (Theory::Integer, IntModel::Math) if ty != IntType::Bool => Term::bool(true),
            (Theory::Integer, _) => {
                Term::and(vec![Term::le(Term::int(ty.min_value()), t.clone()), Term::le(t.clone(), Term::int(ty.max_value()))])
            }
        }
    }
}

/// What the encoder needs from its caller: the term a program variable
/// stands for, and fresh unconstrained values.
pub trait EncodeEnv {
    /// The term for the current value of program variable `var` (of C type
    /// `ty`); it must have sort `encoding.sort(ty)`.
    fn var(&mut self, var: VarId, ty: IntType) -> Term;
    /// A fresh, unconstrained value of type `ty` (sort `encoding.sort(ty)`)
    /// for an operation the theory over-approximates or whose result is
    /// undefined; `why` names the operation (for display). Under a wrapped
    /// encoding ([`Encoding::wrapped`]) the caller should constrain it to
    /// `ty`'s range ([`Encoding::range_constraint`]) like an input.
    fn fresh(&mut self, ty: IntType, why: &str) -> Term;
}

/// A ready-made [`EncodeEnv`]: program variables map to the terms in
/// `vars` (missing ones to a variable named `{prefix}v{id}`), fresh values
/// are variables `{prefix}fresh{k}` — all recorded in `declared`, so the
/// caller knows every free variable it must declare.
#[derive(Clone, Debug, Default)]
pub struct MapEnv {
    /// The encoding (sorts).
    pub encoding: Encoding,
    /// Program variable → term.
    pub vars: BTreeMap<VarId, Term>,
    /// Name prefix of the variables this env invents.
    pub prefix: String,
    /// How many fresh values were made.
    pub fresh_count: u32,
}

impl MapEnv {
    /// An env with no variables bound yet.
    pub fn new(encoding: Encoding, prefix: &str) -> Self {
        MapEnv { encoding, vars: BTreeMap::new(), prefix: prefix.to_string(), fresh_count: 0 }
    }
}

impl EncodeEnv for MapEnv {
    fn var(&mut self, var: VarId, ty: IntType) -> Term {
        let (enc, prefix) = (self.encoding, self.prefix.clone());
        self.vars.entry(var).or_insert_with(|| Term::var(&format!("{prefix}v{}", var.0), enc.sort(ty))).clone()
    }
    fn fresh(&mut self, ty: IntType, _why: &str) -> Term {
        self.fresh_count += 1;
        Term::var(&format!("{}fresh{}", self.prefix, self.fresh_count), self.encoding.sort(ty))
    }
}

/// The value of `expr` as a term of sort `enc.sort(expr.ty())`: the
/// meaning of the C expression under `enc` (see the module docs), with
/// program variables as `env` says.
///
/// ```
/// use smt::{encode_expr, Encoding, MapEnv, Theory, Term, Sort};
/// use cfa::{Expr, BinOp, VarId};
/// use minic::{IntModel, IntType};
/// let enc = Encoding::new(Theory::Bitvector, IntModel::C);
/// let mut env = MapEnv::new(enc, "");
/// env.vars.insert(VarId(0), Term::var("x", Sort::Bv(32)));
/// let e = Expr::Binary { op: BinOp::Add, ty: IntType::Int,
///     lhs: Box::new(Expr::Var { var: VarId(0), ty: IntType::Int }), rhs: Box::new(Expr::int(1)) };
/// assert_eq!(encode_expr(&e, enc, &mut env).to_string(), "(bvadd x (_ bv1 32))");
/// ```
pub fn encode_expr(expr: &Expr, enc: Encoding, env: &mut dyn EncodeEnv) -> Term {
    Encoder { enc, env }.value(expr)
}

/// The Boolean term "`expr` is non-zero" (C truth), with comparisons and
/// `!` encoded directly as predicates rather than 0/1 values: what an
/// assume edge `[expr]` constrains.
pub fn encode_condition(expr: &Expr, enc: Encoding, env: &mut dyn EncodeEnv) -> Term {
    Encoder { enc, env }.cond(expr)
}

/// Converts a term holding a value of C type `from` to type `to` under
/// `enc` (the meaning of a C cast).
pub fn encode_cast(t: Term, from: IntType, to: IntType, enc: Encoding) -> Term {
    cast(t, from, to, enc)
}

struct Encoder<'a> {
    enc: Encoding,
    env: &'a mut dyn EncodeEnv,
}

fn pow2(k: u32) -> i128 {
    1i128 << k.min(126)
}

fn zero(enc: Encoding, ty: IntType) -> Term {
    enc.constant(0, ty)
}

fn bool_to_value(c: Term, enc: Encoding) -> Term {
    Term::ite(c, enc.constant(1, IntType::Int), enc.constant(0, IntType::Int))
}

fn cast(t: Term, from: IntType, to: IntType, enc: Encoding) -> Term {
    if to == IntType::Bool {
        let nz = Term::ne(t, zero(enc, from));
        return Term::ite(nz, enc.constant(1, to), enc.constant(0, to));
    }
    match enc.theory {
        Theory::Bitvector => {
            let (w1, w2) = (from.bits(), to.bits());
            if w1 == w2 {
                t
            } else if w2 < w1 {
                Term::bv1(Op::Extract(w2 - 1, 0), t)
            } else if from.is_signed() {
                Term::bv1(Op::SignExt(w2 - w1), t)
            } else {
                Term::bv1(Op::ZeroExt(w2 - w1), t)
            }
        }
        Theory::Integer => {
            if enc.model == IntModel::Math || (from.min_value() >= to.min_value() && from.max_value() <= to.max_value()) {
                return t;
            }
            wrap_mod(t, to)
        }
    }
}

/// Exact wrap of an `Int` into `ty`'s range (not `_Bool`): unsigned:
/// `t mod 2^w`; signed: `((t + 2^(w-1)) mod 2^w) - 2^(w-1)`.
fn wrap_mod(t: Term, ty: IntType) -> Term {
    let m = pow2(ty.bits());
    if ty.is_signed() {
        let h = pow2(ty.bits() - 1);
        Term::sub(Term::modulo(Term::add(t, Term::int(h)), Term::int(m)), Term::int(h))
    } else {
        Term::modulo(t, Term::int(m))
    }
}

/// Wrap of an `Int` that is at most one range width outside `ty`'s range
/// (a sum, difference or negation of in-range values) — linear and without
/// `mod`: `ite(t > MAX, t - 2^w, ite(t < MIN, t + 2^w, t))`.
fn wrap_once(t: Term, ty: IntType) -> Term {
    let m = Term::int(pow2(ty.bits()));
    let (min, max) = (Term::int(ty.min_value()), Term::int(ty.max_value()));
    Term::ite(
        Term::lt(max, t.clone()),
        Term::sub(t.clone(), m.clone()),
        Term::ite(Term::lt(t.clone(), min), Term::add(t.clone(), m), t),
    )
}

impl Encoder<'_> {
    fn value(&mut self, e: &Expr) -> Term {
        let enc = self.enc;
        match e {
            Expr::Const { value, ty } => enc.constant(*value, *ty),
            Expr::Var { var, ty } => self.env.var(*var, *ty),
            Expr::Cast { ty, arg } => {
                let from = arg.ty();
                let a = self.value(arg);
                cast(a, from, *ty, enc)
            }
            Expr::Unary { op: UnOp::LogNot, .. } => bool_to_value(self.cond(e), enc),
            Expr::Unary { op, ty, arg } => {
                let a = self.value(arg);
                if enc.theory == Theory::Bitvector && *ty == IntType::Bool {
                    // C computes on the promoted value, then converts back.
                    let wide = cast(a, IntType::Bool, IntType::Int, enc);
                    let r = if *op == UnOp::Neg { Term::bv1(Op::BvNeg, wide) } else { Term::bv1(Op::BvNot, wide) };
                    return cast(r, IntType::Int, IntType::Bool, enc);
                }
                match (enc.theory, op) {
                    (Theory::Bitvector, UnOp::Neg) => Term::bv1(Op::BvNeg, a),
                    (Theory::Bitvector, _) => Term::bv1(Op::BvNot, a),
                    (Theory::Integer, UnOp::Neg) if enc.wraps() && *ty != IntType::Bool => wrap_once(Term::neg(a), *ty),
                    (Theory::Integer, UnOp::Neg) => self.int_result(Term::neg(a), *ty),
                    (Theory::Integer, _) if enc.model == IntModel::C && !ty.is_signed() && *ty != IntType::Bool => {
                        // ~a = (2^w - 1) - a for unsigned types (exact).
                        Term::sub(Term::int(ty.max_value()), a)
                    }
                    (Theory::Integer, _) => self.int_result(Term::sub(Term::neg(a), Term::int(1)), *ty),
                }
            }
            Expr::Binary { op, .. } if op.is_comparison() => bool_to_value(self.cond(e), enc),
            Expr::Binary { op, ty, lhs, rhs } => {
                let a = self.value(lhs);
                let b = self.value(rhs);
                self.arith(*op, *ty, a, b, rhs.ty())
            }
        }
    }

    /// Under the Integer theory, arithmetic results are not wrapped
    /// (overflow ignored) — except `_Bool`, which always normalizes.
    fn int_result(&mut self, t: Term, ty: IntType) -> Term {
        if ty == IntType::Bool {
            let nz = Term::ne(t, Term::int(0));
            return Term::ite(nz, Term::int(1), Term::int(0));
        }
        t
    }

    fn arith(&mut self, op: BinOp, ty: IntType, a: Term, b: Term, rhs_ty: IntType) -> Term {
        let enc = self.enc;
        let signed = ty.is_signed();
        match enc.theory {
            Theory::Bitvector if ty == IntType::Bool => {
                // C computes on the promoted values, then converts back.
                let wa = cast(a, IntType::Bool, IntType::Int, enc);
                let (wb, bty) =
                    if rhs_ty == IntType::Bool { (cast(b, IntType::Bool, IntType::Int, enc), IntType::Int) } else { (b, rhs_ty) };
                let r = self.arith(op, IntType::Int, wa, wb, bty);
                cast(r, IntType::Int, IntType::Bool, enc)
            }
            Theory::Bitvector => {
                match op {
                    BinOp::Add => Term::bv2(Op::BvAdd, a, b),
                    BinOp::Sub => Term::bv2(Op::BvSub, a, b),
                    BinOp::Mul => Term::bv2(Op::BvMul, a, b),
                    BinOp::Div | BinOp::Rem => {
                        let o = match (op, signed) {
                            (BinOp::Div, true) => Op::BvSdiv,
                            (BinOp::Div, false) => Op::BvUdiv,
                            (_, true) => Op::BvSrem,
                            (_, false) => Op::BvUrem,
                        };
                        let is_zero = Term::eq(b.clone(), zero(enc, ty));
                        let q = Term::bv2(o, a, b);
                        if is_zero.as_value() == Some(Value::Bool(false)) {
                            q
                        } else {
                            let f = self.env.fresh(ty, "division by zero");
                            Term::ite(is_zero, f, q)
                        }
                    }
                    BinOp::Shl | BinOp::Shr => {
                        let w = ty.bits();
                        // Amount in range: 0 <= b < w (in b's own type).
                        let in_range = if rhs_ty.is_signed() {
                            Term::and(vec![
                                Term::not(Term::bv2(Op::BvSlt, b.clone(), Term::bv(0, rhs_ty.bits()))),
                                Term::bv2(Op::BvSlt, b.clone(), Term::bv(w as i128, rhs_ty.bits())),
                            ])
                        } else {
                            Term::bv2(Op::BvUlt, b.clone(), Term::bv(w as i128, rhs_ty.bits()))
                        };
                        let amount = cast(
                            b,
                            rhs_ty,
                            if signed { ty.to_unsigned() } else { ty },
                            Encoding::new(Theory::Bitvector, IntModel::C),
                        );
                        let o = match (op, signed) {
                            (BinOp::Shl, _) => Op::BvShl,
                            (_, true) => Op::BvAshr,
                            (_, false) => Op::BvLshr,
                        };
                        let s = Term::bv2(o, a, amount);
                        if in_range.as_value() == Some(Value::Bool(true)) {
                            s
                        } else {
                            let f = self.env.fresh(ty, "shift by an out-of-range amount");
                            Term::ite(in_range, s, f)
                        }
                    }
                    BinOp::BitAnd => Term::bv2(Op::BvAnd, a, b),
                    BinOp::BitOr => Term::bv2(Op::BvOr, a, b),
                    BinOp::BitXor => Term::bv2(Op::BvXor, a, b),
                    _ => unreachable_comparison(),
                }
            }
            Theory::Integer if enc.wraps() => {
                let t = self.wrapped_arith(op, ty, a, b);
                self.int_result(t, ty)
            }
            Theory::Integer => {
                // Constant folding: C's operation without the final wrap
                // (overflow is ignored in this theory), unless the
                // operation is undefined under the run's model.
                if let (Some(x), Some(y)) = (a.as_signed(), b.as_signed()) {
                    if cfa::expr::eval_binary(op, ty, x, y, enc.model).is_ok() {
                        if let Ok(v) = cfa::expr::eval_binary(op, ty, x, y, IntModel::Math) {
                            return Term::int(v);
                        }
                    }
                }
                let t = match op {
                    BinOp::Add => Term::add(a, b),
                    BinOp::Sub => Term::sub(a, b),
                    BinOp::Mul => Term::mul(a, b),
                    BinOp::Div | BinOp::Rem => {
                        let is_zero = Term::eq(b.clone(), Term::int(0));
                        let q = c_div(a.clone(), b.clone());
                        let r = if op == BinOp::Div { q } else { Term::sub(a, Term::mul(b, q)) };
                        if is_zero.as_value() == Some(Value::Bool(false)) {
                            r
                        } else {
                            let f = self.env.fresh(ty, "division by zero");
                            Term::ite(is_zero, f, r)
                        }
                    }
                    BinOp::Shl | BinOp::Shr => {
                        let limit = match enc.model {
                            IntModel::C => ty.bits() as i128,
                            IntModel::Math => 127,
                        };
                        match b.as_signed() {
                            Some(k) if (0..limit).contains(&k) && k < 126 => {
                                if op == BinOp::Shl {
                                    Term::mul(a, Term::int(pow2(k as u32)))
                                } else {
                                    Term::div(a, Term::int(pow2(k as u32)))
                                }
                            }
                            _ => self.env.fresh(ty, "shift (not linear over the integers)"),
                        }
                    }
                    BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                        self.env.fresh(ty, "bitwise operation (not expressible over the integers)")
                    }
                    _ => unreachable_comparison(),
                };
                self.int_result(t, ty)
            }
        }
    }

    /// `a op b` over `Int` wrapped exactly into `ty` (see the module docs),
    /// operands in range; a `_Bool` result is left for
    /// [`Self::int_result`] to normalize.
    fn wrapped_arith(&mut self, op: BinOp, ty: IntType, a: Term, b: Term) -> Term {
        let (x, y) = (a.as_signed(), b.as_signed());
        let boolean = ty == IntType::Bool;
        let wrap_once = |t: Term| if boolean { t } else { wrap_once(t, ty) };
        let wrap_mod = |t: Term| if boolean { t } else { wrap_mod(t, ty) };
        if let (Some(x), Some(y)) = (x, y) {
            if let Ok(v) = cfa::expr::eval_binary(op, ty, x, y, IntModel::C) {
                return Term::int(v);
            }
        }
        match op {
            BinOp::Add => wrap_once(Term::add(a, b)),
            BinOp::Sub => wrap_once(Term::sub(a, b)),
            BinOp::Mul if x.is_some() || y.is_some() => wrap_mod(Term::mul(a, b)),
            BinOp::Mul => self.env.fresh(ty, "non-linear multiplication"),
            BinOp::Div | BinOp::Rem => match y {
                Some(0) => self.env.fresh(ty, "division by zero"),
                Some(d) => {
                    let q = c_div(a.clone(), b.clone());
                    match op {
                        // Only MIN / -1 leaves the range.
                        BinOp::Div if d == -1 => wrap_once(q),
                        BinOp::Div => q,
                        _ => Term::sub(a, Term::mul(b, q)),
                    }
                }
                None => self.env.fresh(ty, "division by a non-constant (not linear)"),
            },
            BinOp::Shl | BinOp::Shr => match y {
                Some(k) if (0..ty.bits() as i128).contains(&k) => {
                    if op == BinOp::Shl {
                        wrap_mod(Term::mul(a, Term::int(pow2(k as u32))))
                    } else {
                        Term::div(a, Term::int(pow2(k as u32)))
                    }
                }
                _ => self.env.fresh(ty, "shift (not linear over the integers)"),
            },
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                self.env.fresh(ty, "bitwise operation (not expressible over the integers)")
            }
            _ => unreachable_comparison(),
        }
    }

    fn cond(&mut self, e: &Expr) -> Term {
        let enc = self.enc;
        match e {
            Expr::Unary { op: UnOp::LogNot, arg, .. } => Term::not(self.cond(arg)),
            Expr::Binary { op, ty, lhs, rhs } if op.is_comparison() => {
                let a = self.value(lhs);
                let b = self.value(rhs);
                let signed = ty.is_signed();
                let (lt, le) = match enc.theory {
                    Theory::Integer => (Op::Lt, Op::Le),
                    Theory::Bitvector if signed => (Op::BvSlt, Op::BvSle),
                    Theory::Bitvector => (Op::BvUlt, Op::BvUle),
                };
                match op {
                    BinOp::Eq => Term::eq(a, b),
                    BinOp::Ne => Term::ne(a, b),
                    BinOp::Lt => Term::app(lt, vec![a, b]),
                    BinOp::Le => Term::app(le, vec![a, b]),
                    BinOp::Gt => Term::app(lt, vec![b, a]),
                    _ => Term::app(le, vec![b, a]),
                }
            }
            _ => {
                let ty = e.ty();
                let v = self.value(e);
                Term::ne(v, zero(enc, ty))
            }
        }
    }
}

/// C's truncating division over `Int` from SMT-LIB's Euclidean `div`:
/// `ite(a >= 0, div(a, b), -div(-a, b))`.
fn c_div(a: Term, b: Term) -> Term {
    if let (Some(x), Some(y)) = (a.as_signed(), b.as_signed()) {
        if y != 0 {
            if let Some(q) = x.checked_div(y) {
                return Term::int(q);
            }
        }
    }
    let nonneg = Term::le(Term::int(0), a.clone());
    Term::ite(nonneg, Term::div(a.clone(), b.clone()), Term::neg(Term::div(Term::neg(a), b)))
}

fn unreachable_comparison() -> Term {
    // Comparisons are handled by `cond`; `arith` is never called with one.
    Term::bool(false)
}
