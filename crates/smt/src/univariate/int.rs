//! Deciding a conjunction over **one integer variable** (sort `Int`,
//! mathematical integers) without a solver, exactly: the integer
//! counterpart of the bit-vector procedure of the parent module.
//!
//! A comparison of a linear term `a·y + b` with a constant holds on one
//! half-line or interval of `y` (no wrap-around over ℤ): `a·y + b ≤ c` with
//! `a > 0` is `y ≤ ⌊(c − b)/a⌋`. Boolean structure (`not`, `and`, `or`,
//! Boolean `=`) and `ite` pieces make finite unions of such intervals; the
//! conjunction is their intersection, computed exactly with checked `i128`
//! arithmetic (an overflow gives up). Empty means `unsat`; otherwise a
//! value of the set is checked by evaluating every constraint
//! ([`Term::eval`]) and is the `sat` answer's model. What is not linear
//! (`y·y`, `div`, `mod`) is evaluated on every value the others leave when
//! they leave at most [`MAX_ENUMERATED`]; anything else gives up.

use super::intervals::Set;
use super::walk::{self, Arith, OneVariable};
use super::{Decision, MAX_ENUMERATED};
use crate::term::{Node, Op, Sort, Term, Value};
use std::collections::BTreeMap;

/// The unbounded ends of an interval: no finite value is this small or
/// this large ([`bounded`] keeps every finite bound strictly inside).
const NEG_INF: i128 = i128::MIN;
const POS_INF: i128 = i128::MAX;

/// The largest magnitude of a finite bound or coefficient: far from the
/// sentinels, so one addition or negation of two of them cannot reach them.
const LIMIT: i128 = 1 << 120;

/// A finite value usable as a bound, or `None` (give up) when it is too
/// large to compute with safely.
fn bounded(v: i128) -> Option<i128> {
    (-LIMIT..=LIMIT).contains(&v).then_some(v)
}

/// The integer sets: ends may be [`NEG_INF`] / [`POS_INF`].
impl Set<i128> {
    fn all_integers() -> Set<i128> {
        Set(vec![(NEG_INF, POS_INF)])
    }

    fn complement(&self) -> Set<i128> {
        let mut out = Vec::with_capacity(self.0.len() + 1);
        let mut next = NEG_INF; // the smallest value not yet covered
        let mut done = false;
        for &(lo, hi) in &self.0 {
            if lo > next {
                out.push((next, lo - 1));
            }
            if hi == POS_INF {
                done = true;
                break;
            }
            next = hi + 1;
        }
        if !done {
            out.push((next, POS_INF));
        }
        Set(out)
    }

    /// How many values it holds, when finite.
    fn size(&self) -> Option<u128> {
        let mut n: u128 = 0;
        for &(lo, hi) in &self.0 {
            if lo == NEG_INF || hi == POS_INF {
                return None;
            }
            n = n.checked_add(hi.abs_diff(lo) + 1)?;
        }
        Some(n)
    }
}

/// `a·y + b` over ℤ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Lin {
    a: i128,
    b: i128,
}

/// The variable and the values still possible (the constraints decided so
/// far; every set computed is a subset of it).
struct Ctx<'a> {
    var: &'a str,
    domain: Set<i128>,
}

impl OneVariable for Ctx<'_> {
    type Num = i128;
    type Lin = Lin;

    fn domain(&self) -> &Set<i128> {
        &self.domain
    }

    fn narrow_to(&mut self, s: Set<i128>) {
        self.domain = s;
    }

    fn rest(&self, s: &Set<i128>) -> Set<i128> {
        s.complement().intersect(&self.domain)
    }

    fn has_sort(&self, t: &Term) -> bool {
        t.sort() == Sort::Int
    }

    fn leaf(&self, t: &Term) -> Option<Lin> {
        match t.node() {
            Node::Int(v) => Some(Lin { a: 0, b: bounded(*v)? }),
            Node::Var { name, sort: Sort::Int } if &**name == self.var => Some(Lin { a: 1, b: 0 }),
            _ => None,
        }
    }

    fn arith(&self, op: Op) -> Option<Arith> {
        match op {
            Op::Neg => Some(Arith::Neg),
            Op::Add => Some(Arith::Add),
            Op::Sub => Some(Arith::Sub),
            Op::Mul => Some(Arith::Mul),
            _ => None,
        }
    }

    fn is_comparison(&self, op: Op) -> bool {
        matches!(op, Op::Eq | Op::Lt | Op::Le)
    }

    /// Checked, and bounded by ±[`LIMIT`].
    fn combine(&self, op: Arith, l1: Lin, l2: Lin) -> Option<Lin> {
        let l = match op {
            Arith::Neg => Lin { a: -l1.a, b: -l1.b },
            Arith::Add => Lin { a: l1.a.checked_add(l2.a)?, b: l1.b.checked_add(l2.b)? },
            Arith::Sub => Lin { a: l1.a.checked_sub(l2.a)?, b: l1.b.checked_sub(l2.b)? },
            Arith::Mul if l1.a == 0 => Lin { a: l1.b.checked_mul(l2.a)?, b: l1.b.checked_mul(l2.b)? },
            Arith::Mul if l2.a == 0 => Lin { a: l2.b.checked_mul(l1.a)?, b: l2.b.checked_mul(l1.b)? },
            Arith::Mul => return None, // y·y is not linear
        };
        Some(Lin { a: bounded(l.a)?, b: bounded(l.b)? })
    }

    /// `l1 op l2 ⟺ d op 0` with `d = l1 − l2 = a·y + b`: a half-line or an
    /// interval (one point for `=`).
    fn holds(&self, op: Op, l1: Lin, l2: Lin) -> Option<Set<i128>> {
        let d = self.combine(Arith::Sub, l1, l2)?;
        let target = match op {
            Op::Eq => (0, 0),
            Op::Lt => (NEG_INF, -1),
            _ => (NEG_INF, 0),
        };
        Some(preimage(d, target))
    }
}

/// `{ y : a·y + b ∈ [lo, hi] }` (ends may be infinite), exactly.
fn preimage(l: Lin, (lo, hi): (i128, i128)) -> Set<i128> {
    if l.a == 0 {
        return if lo <= l.b && l.b <= hi { Set::all_integers() } else { Set::empty() };
    }
    // For a < 0: a·y + b ∈ [lo, hi] ⟺ (−a)·y − b ∈ [−hi, −lo].
    let neg = |v: i128| match v {
        NEG_INF => POS_INF,
        POS_INF => NEG_INF,
        v => -v,
    };
    let (a, b, lo, hi) = if l.a > 0 { (l.a, l.b, lo, hi) } else { (-l.a, -l.b, neg(hi), neg(lo)) };
    // a > 0: y ≥ ⌈(lo − b)/a⌉ and y ≤ ⌊(hi − b)/a⌋. Every finite end and b
    // are within ±2^120, so the differences fit.
    let from = if lo == NEG_INF { NEG_INF } else { ceil_div(lo - b, a) };
    let to = if hi == POS_INF { POS_INF } else { (hi - b).div_euclid(a) };
    Set::normalized(vec![(from, to)])
}

/// `⌈n / d⌉` for `d > 0`.
fn ceil_div(n: i128, d: i128) -> i128 {
    -((-n).div_euclid(d))
}

/// [`super::decide`] for constraints whose only free variable, `name`, is
/// an integer.
pub(super) fn decide_one(name: &str, assertions: &[Term]) -> Option<Decision> {
    let mut ctx = Ctx { var: name, domain: Set::all_integers() };
    let Some(deferred) = walk::narrow(&mut ctx, assertions) else { return Some(Decision::Unsat) };
    let set = ctx.domain;
    let holds = |v: i128| {
        let env = |n: &str| (n == name).then_some(Value::Int(v));
        assertions.iter().all(|a| a.eval(&env) == Some(Value::Bool(true)))
    };
    let model = |v: i128| Some(Decision::Sat(BTreeMap::from([(name.to_string(), Value::Int(v))])));
    if !deferred.is_empty() {
        // Beyond intervals (y·y, div, mod): when the others leave only a
        // few values, evaluate every constraint on each.
        if set.size()? > MAX_ENUMERATED {
            return None;
        }
        for v in set.0.iter().flat_map(|&(lo, hi)| lo..=hi) {
            let env = |n: &str| (n == name).then_some(Value::Int(v));
            for a in &deferred {
                match a.eval(&env) {
                    Some(Value::Bool(_)) => {}
                    _ => return None, // not evaluable: ask the solver
                }
            }
            if holds(v) {
                return model(v);
            }
        }
        return Some(Decision::Unsat); // no value of the (exact) domain satisfies them
    }
    // A few candidates from the set (the finite end nearest to 0 first);
    // the first that every assertion evaluates true under is the model.
    let candidates = set.0.iter().take(4).flat_map(|&(lo, hi)| {
        let inside = |v: i128| (lo <= v && v <= hi).then_some(v);
        [inside(0), (lo != NEG_INF).then_some(lo), (hi != POS_INF).then_some(hi)]
    });
    for v in candidates.flatten() {
        if holds(v) {
            return model(v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn y() -> Term {
        Term::var("y", Sort::Int)
    }

    #[test]
    fn half_lines_and_their_intersection() {
        // y ≥ 0 ∧ y + 1 < y is empty: the second is never true over ℤ.
        let ge0 = Term::app(Op::Le, vec![Term::int(0), y()]);
        let never = Term::app(Op::Lt, vec![Term::app(Op::Add, vec![y(), Term::int(1)]), y()]);
        assert_eq!(decide_one("y", &[ge0.clone(), never]), Some(Decision::Unsat));
        // 3·y − 7 ≤ 5 ∧ y ≥ 0: y ∈ [0, 4]; the model is checked.
        let le = Term::app(
            Op::Le,
            vec![Term::app(Op::Sub, vec![Term::app(Op::Mul, vec![Term::int(3), y()]), Term::int(7)]), Term::int(5)],
        );
        let Some(Decision::Sat(m)) = decide_one("y", &[ge0, le]) else { panic!("sat") };
        let Value::Int(v) = m["y"] else { panic!("an integer") };
        assert!((0..=4).contains(&v));
    }

    #[test]
    fn negative_coefficients_and_complements_are_exact() {
        // −2·y ≤ −7 ⟺ y ≥ 4 (⌈3.5⌉); ¬(y = 4) leaves y ≥ 5.
        let t = Term::app(Op::Le, vec![Term::app(Op::Mul, vec![Term::int(-2), y()]), Term::int(-7)]);
        let ne4 = Term::not(Term::eq(y(), Term::int(4)));
        let lt5 = Term::app(Op::Lt, vec![y(), Term::int(5)]);
        assert_eq!(decide_one("y", &[t.clone(), ne4.clone(), lt5]), Some(Decision::Unsat));
        assert_eq!(decide_one("y", &[t, ne4]), Some(Decision::Sat(BTreeMap::from([("y".to_string(), Value::Int(5))]))));
    }
}
