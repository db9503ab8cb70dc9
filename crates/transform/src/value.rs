//! Abstract values at run time and the domain operations the transformed
//! program calls (`lift`, `a_add`, `a_lt`, …): one [`AbsValue`] per domain,
//! dispatched by [`Ops`].

use crate::options::Domain;
use crate::term::{PathTerms, TermEncoding};
use cfa::{BinOp, Expr, UnOp, VarId};
use domains::{Arith, Parity, Rel, Sign};
use minic::{IntModel, IntType};
use smt::{encode_expr, EncodeEnv, Term};
use std::fmt;

/// An abstract value of one of the domains.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AbsValue {
    /// Even / odd.
    Parity(Parity),
    /// −, 0, +.
    Sign(Sign),
    /// A term over the path's symbols.
    Term(TermValue),
}

/// A term with an order (by its text), so states can be sorted.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TermValue(pub Term);

impl PartialOrd for TermValue {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for TermValue {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.to_string().cmp(&other.0.to_string())
    }
}

impl fmt::Display for AbsValue {
    /// `even`, `≥0`, or the term in mini-C-like infix.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AbsValue::Parity(p) => write!(f, "{p}"),
            AbsValue::Sign(s) => write!(f, "{s}"),
            AbsValue::Term(t) => write!(f, "{}", t.0.pretty()),
        }
    }
}

/// The arithmetic of C type `ty` under `model`, as the value domains see it.
pub fn arith(ty: IntType, model: IntModel) -> Arith {
    Arith { bits: ty.bits(), signed: ty.is_signed(), wraps: model == IntModel::C }
}

/// The comparison `op` is, if it is one.
pub fn rel(op: BinOp) -> Option<Rel> {
    Some(match op {
        BinOp::Lt => Rel::Lt,
        BinOp::Le => Rel::Le,
        BinOp::Gt => Rel::Gt,
        BinOp::Ge => Rel::Ge,
        BinOp::Eq => Rel::Eq,
        BinOp::Ne => Rel::Ne,
        _ => return None,
    })
}

/// The domain operations of one run: a domain under an integer model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ops {
    /// The domain.
    pub domain: Domain,
    /// The integer model.
    pub model: IntModel,
}

/// Operands bound to placeholder variables 0 and 1 for the encoder.
struct Placeholders<'a> {
    operands: [Option<Term>; 2],
    enc: TermEncoding,
    path: &'a mut PathTerms,
}

impl EncodeEnv for Placeholders<'_> {
    fn var(&mut self, var: VarId, ty: IntType) -> Term {
        match self.operands.get(var.0 as usize).cloned().flatten() {
            Some(t) => t,
            None => self.enc.undefined(ty, self.path),
        }
    }
    fn fresh(&mut self, ty: IntType, _why: &str) -> Term {
        self.enc.undefined(ty, self.path)
    }
}

fn placeholder(i: u32, ty: IntType) -> Box<Expr> {
    Box::new(Expr::Var { var: VarId(i), ty })
}

/// The largest term (in nodes, shared subterms counted each time they
/// occur, as the solver's script writes them) a term operation keeps;
/// a larger result becomes a fresh symbol.
pub const MAX_TERM_SIZE: usize = 4000;

/// Whether `t` has more than `limit` nodes (stops counting there).
fn larger_than(t: &Term, limit: usize) -> bool {
    let mut stack = vec![t];
    let mut count = 0usize;
    while let Some(x) = stack.pop() {
        count += 1;
        if count > limit {
            return true;
        }
        stack.extend(x.args());
    }
    false
}

impl Ops {
    fn terms(self) -> TermEncoding {
        TermEncoding { model: self.model }
    }

    fn encode(self, e: &Expr, operands: [Option<Term>; 2], path: &mut PathTerms) -> AbsValue {
        let enc = self.terms();
        let mut env = Placeholders { operands, enc, path };
        let t = encode_expr(e, enc.encoding(), &mut env);
        if larger_than(&t, MAX_TERM_SIZE) {
            // A term that keeps growing (a loop feeding a value into
            // itself several times) becomes a fresh symbol: any value of
            // its type, an over-approximation that keeps the solver's
            // scripts small.
            return AbsValue::Term(TermValue(enc.undefined(e.ty(), path)));
        }
        AbsValue::Term(TermValue(t))
    }

    /// `lift(v)`: the abstract value of the constant `v` of type `ty`.
    pub fn lift(self, v: i128, ty: IntType) -> AbsValue {
        match self.domain {
            Domain::Parity => AbsValue::Parity(Parity::constant(v)),
            Domain::Sign => AbsValue::Sign(Sign::constant(v)),
            Domain::Term => AbsValue::Term(TermValue(self.terms().encoding().constant(v, ty))),
        }
    }

    /// `lift(*)`: any value of type `ty` (a new input symbol for terms).
    pub fn input(self, ty: IntType, path: &mut PathTerms) -> AbsValue {
        match self.domain {
            Domain::Parity => AbsValue::Parity(Parity::TOP),
            Domain::Sign => AbsValue::Sign(Sign::top_of(arith(ty, self.model))),
            Domain::Term => AbsValue::Term(TermValue(self.terms().input(ty, path))),
        }
    }

    /// `a_neg`, `a_bitnot`, `a_not`.
    pub fn unary(self, op: UnOp, ty: IntType, a: &AbsValue, path: &mut PathTerms) -> AbsValue {
        let t = arith(ty, self.model);
        match a {
            AbsValue::Parity(p) => AbsValue::Parity(match op {
                UnOp::Neg => p.neg(t),
                UnOp::BitNot => p.bitnot(t),
                UnOp::LogNot => p.lognot(),
            }),
            AbsValue::Sign(s) => AbsValue::Sign(match op {
                UnOp::Neg => s.neg(t),
                UnOp::BitNot => s.bitnot(t),
                UnOp::LogNot => s.lognot(),
            }),
            AbsValue::Term(x) => self.encode(&Expr::Unary { op, ty, arg: placeholder(0, ty) }, [Some(x.0.clone()), None], path),
        }
    }

    /// `a_add`, `a_lt`, … (`rty`: the right operand's type, which differs
    /// from `ty` only for shifts).
    pub fn binary(self, op: BinOp, ty: IntType, rty: IntType, a: &AbsValue, b: &AbsValue, path: &mut PathTerms) -> AbsValue {
        let t = arith(ty, self.model);
        match (a, b) {
            (AbsValue::Parity(x), AbsValue::Parity(y)) => AbsValue::Parity(match rel(op) {
                Some(r) => x.compare(r, *y),
                None => match op {
                    BinOp::Add => x.add(*y, t),
                    BinOp::Sub => x.sub(*y, t),
                    BinOp::Mul => x.mul(*y, t),
                    BinOp::Div => x.div(*y, t),
                    BinOp::Rem => x.rem(*y, t),
                    BinOp::Shl => x.shl(*y, t),
                    BinOp::Shr => x.shr(*y, t),
                    BinOp::BitAnd => x.bitand(*y, t),
                    BinOp::BitOr => x.bitor(*y, t),
                    _ => x.bitxor(*y, t),
                },
            }),
            (AbsValue::Sign(x), AbsValue::Sign(y)) => AbsValue::Sign(match rel(op) {
                Some(r) => x.compare(r, *y),
                None => match op {
                    BinOp::Add => x.add(*y, t),
                    BinOp::Sub => x.sub(*y, t),
                    BinOp::Mul => x.mul(*y, t),
                    BinOp::Div => x.div(*y, t),
                    BinOp::Rem => x.rem(*y, t),
                    BinOp::Shl => x.shl(*y, t),
                    BinOp::Shr => x.shr(*y, t),
                    BinOp::BitAnd => x.bitand(*y, t),
                    BinOp::BitOr => x.bitor(*y, t),
                    _ => x.bitxor(*y, t),
                },
            }),
            (AbsValue::Term(x), AbsValue::Term(y)) => self.encode(
                &Expr::Binary { op, ty, lhs: placeholder(0, ty), rhs: placeholder(1, rty) },
                [Some(x.0.clone()), Some(y.0.clone())],
                path,
            ),
            // Mixed domains cannot happen in one run; stay sound.
            _ => self.input(if op.is_comparison() { IntType::Int } else { ty }, path),
        }
    }

    /// `a_cast`: conversion from type `from` to type `to`.
    pub fn cast(self, from: IntType, to: IntType, a: &AbsValue, path: &mut PathTerms) -> AbsValue {
        match a {
            AbsValue::Parity(p) => AbsValue::Parity(p.cast(arith(from, self.model), arith(to, self.model))),
            AbsValue::Sign(s) => AbsValue::Sign(s.cast(arith(from, self.model), arith(to, self.model))),
            AbsValue::Term(x) => self.encode(&Expr::Cast { ty: to, arg: placeholder(0, from) }, [Some(x.0.clone()), None], path),
        }
    }

    /// For parity and sign: whether the value may be non-zero and whether
    /// it may be zero (`None` for terms: the solver decides). `boolean`:
    /// the value is 0 or 1 by construction (a comparison's result), so an
    /// even parity is 0 and an odd one 1.
    pub fn truth(self, a: &AbsValue, boolean: bool) -> Option<(bool, bool)> {
        match a {
            AbsValue::Parity(p) if boolean => Some((p.contains(1), p.contains(0))),
            AbsValue::Parity(p) => Some((p.may_be_nonzero(), p.may_be_zero())),
            AbsValue::Sign(s) => Some((s.may_be_nonzero(), s.may_be_zero())),
            AbsValue::Term(_) => None,
        }
    }

    /// Parity and sign: `a` restricted to the values `v` with `v rel c`.
    pub fn refine(self, a: &AbsValue, rel: Rel, c: i128) -> AbsValue {
        match a {
            AbsValue::Parity(p) => AbsValue::Parity(p.refine(rel, c)),
            AbsValue::Sign(s) => AbsValue::Sign(s.refine(rel, c)),
            AbsValue::Term(t) => AbsValue::Term(t.clone()),
        }
    }

    /// Whether `a` has no value at all (`⊥`).
    pub fn is_bottom(self, a: &AbsValue) -> bool {
        match a {
            AbsValue::Parity(p) => p.is_bottom(),
            AbsValue::Sign(s) => s.is_bottom(),
            AbsValue::Term(_) => false,
        }
    }

    /// Whether the concrete value `v` is in `γ(a)` (parity and sign; terms:
    /// `true`).
    pub fn contains(self, a: &AbsValue, v: i128) -> bool {
        match a {
            AbsValue::Parity(p) => p.contains(v),
            AbsValue::Sign(s) => s.contains(v),
            AbsValue::Term(_) => true,
        }
    }

    /// The term encoding (term domain).
    pub fn term_encoding(self) -> TermEncoding {
        self.terms()
    }
}
