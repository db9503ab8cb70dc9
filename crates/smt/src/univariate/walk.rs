//! The walk shared by both kinds of variable: a Boolean term becomes the
//! set of values of `y` that make it true, an arithmetic term becomes
//! linear pieces (on each piece's set of `y`, the term is `a·y + b`).
//!
//! The walk is the same for a bit-vector (arithmetic modulo 2^w) and an
//! integer (arithmetic over ℤ); what differs is behind [`OneVariable`]:
//! which operators are arithmetic and which are comparisons, how linear
//! forms combine (wrapping, or checked and bounded), and where a
//! comparison of two linear forms holds.

use super::intervals::{Bound, Set};
use super::MAX_PIECES;
use crate::term::{Node, Op, Sort, Term};

/// An arithmetic operator of the variable's sort, by meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arith {
    Neg,
    Add,
    Sub,
    Mul,
}

/// One variable's value domain and arithmetic: what [`truth`] and
/// [`pieces`] need to know about a bit-vector or an integer variable.
pub(super) trait OneVariable {
    /// The values (`u128` for bit-vectors, `i128` for integers).
    type Num: Bound;
    /// A linear form `a·y + b`.
    type Lin: Copy;

    /// The values still possible; every set computed is a subset of it.
    fn domain(&self) -> &Set<Self::Num>;
    /// Replaces the domain (by a subset: a constraint was decided).
    fn narrow_to(&mut self, s: Set<Self::Num>);
    /// The values of the domain not in `s` (negation within the domain).
    fn rest(&self, s: &Set<Self::Num>) -> Set<Self::Num>;
    /// Whether `t` has the variable's sort (only such terms have pieces).
    fn has_sort(&self, t: &Term) -> bool;
    /// A constant or the variable itself as a linear form (`None` for
    /// anything else, or a constant too large to compute with).
    fn leaf(&self, t: &Term) -> Option<Self::Lin>;
    /// What `op` means when applied to the variable's sort, if arithmetic.
    fn arith(&self, op: Op) -> Option<Arith>;
    /// Whether `op` is a comparison of two terms of the variable's sort
    /// that [`OneVariable::holds`] decides.
    fn is_comparison(&self, op: Op) -> bool;
    /// `op` applied to linear forms (`l2` unused for [`Arith::Neg`]);
    /// `None` when the result is not linear (`y·y`) or not computable.
    fn combine(&self, op: Arith, l1: Self::Lin, l2: Self::Lin) -> Option<Self::Lin>;
    /// The values of the domain where the comparison `op(l1, l2)` holds.
    fn holds(&self, op: Op, l1: Self::Lin, l2: Self::Lin) -> Option<Set<Self::Num>>;
}

/// The linear pieces of a term: on each set of `y`, the term's linear form.
type Pieces<V> = Vec<(Set<<V as OneVariable>::Num>, <V as OneVariable>::Lin)>;

/// The values of `y` in the domain making the Boolean term `t` true.
pub(super) fn truth<V: OneVariable>(v: &V, t: &Term) -> Option<Set<V::Num>> {
    let s = match t.node() {
        Node::Bool(true) => v.domain().clone(),
        Node::Bool(false) => Set::empty(),
        Node::App { op, args } => match (op, args.as_slice()) {
            (Op::Not, [a]) => v.rest(&truth(v, a)?),
            (Op::And, _) => {
                let mut acc = v.domain().clone();
                for a in args {
                    acc = acc.intersect(&truth(v, a)?);
                }
                acc
            }
            (Op::Or, _) => {
                let mut acc = Set::empty();
                for a in args {
                    acc = acc.union(&truth(v, a)?);
                }
                acc
            }
            (Op::Eq, [p, q]) if p.sort() == Sort::Bool => {
                let (p, q) = (truth(v, p)?, truth(v, q)?);
                p.intersect(&q).union(&v.rest(&p).intersect(&v.rest(&q)))
            }
            (op, [lhs, rhs]) if v.is_comparison(*op) => compare(v, *op, lhs, rhs)?,
            _ => return None,
        },
        _ => return None,
    };
    s.within_limit()
}

/// `t` (a term of the variable's sort) as linear pieces whose sets
/// partition the domain; `None` beyond [`MAX_PIECES`] pieces or where a
/// part is not linear.
fn pieces<V: OneVariable>(v: &V, t: &Term) -> Option<Pieces<V>> {
    if !v.has_sort(t) {
        return None;
    }
    if let Some(l) = v.leaf(t) {
        return Some(vec![(v.domain().clone(), l)]);
    }
    let Node::App { op, args } = t.node() else { return None };
    let out = match (v.arith(*op), op, args.as_slice()) {
        (Some(Arith::Neg), _, [x]) => {
            pieces(v, x)?.into_iter().map(|(s, l)| Some((s, v.combine(Arith::Neg, l, l)?))).collect::<Option<_>>()?
        }
        (Some(arith @ (Arith::Add | Arith::Sub | Arith::Mul)), _, [first, rest @ ..]) if !rest.is_empty() => {
            let mut acc = pieces(v, first)?;
            for r in rest {
                let rp = pieces(v, r)?;
                let mut next = Vec::new();
                for (s1, l1) in &acc {
                    for (s2, l2) in &rp {
                        let s = s1.intersect(s2);
                        if !s.is_empty() {
                            next.push((s, v.combine(arith, *l1, *l2)?));
                        }
                    }
                }
                if next.len() > MAX_PIECES {
                    return None;
                }
                acc = next;
            }
            acc
        }
        (None, Op::Ite, [c, x, y]) => {
            let cs = truth(v, c)?;
            let not_cs = v.rest(&cs);
            let mut out = Vec::new();
            for (branch, set) in [(x, &cs), (y, &not_cs)] {
                for (s, l) in pieces(v, branch)? {
                    let s = s.intersect(set);
                    if !s.is_empty() {
                        out.push((s, l));
                    }
                }
            }
            if out.len() > MAX_PIECES {
                return None;
            }
            out
        }
        _ => return None,
    };
    Some(out)
}

/// The values of `y` where `op(lhs, rhs)` holds: on each pair of pieces,
/// where the comparison of their linear forms holds.
fn compare<V: OneVariable>(v: &V, op: Op, lhs: &Term, rhs: &Term) -> Option<Set<V::Num>> {
    let (lp, rp) = (pieces(v, lhs)?, pieces(v, rhs)?);
    let mut acc = Set::empty();
    for (s1, l1) in &lp {
        for (s2, l2) in &rp {
            let s = s1.intersect(s2);
            if s.is_empty() {
                continue;
            }
            acc = acc.union(&s.intersect(&v.holds(op, *l1, *l2)?)).within_limit()?;
        }
    }
    Some(acc)
}

/// Narrows the domain by each assertion in turn; the assertions the walk
/// cannot decide are returned to be evaluated on the values left. `None`
/// when the domain becomes empty (the conjunction is unsat).
pub(super) fn narrow<'t, V: OneVariable>(v: &mut V, assertions: &'t [Term]) -> Option<Vec<&'t Term>> {
    let mut deferred = Vec::new();
    for a in assertions {
        match truth(v, a) {
            Some(s) => v.narrow_to(s),
            None => deferred.push(a),
        }
        if v.domain().is_empty() {
            return None;
        }
    }
    Some(deferred)
}
