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

use super::{Decision, MAX_ENUMERATED, MAX_INTERVALS, MAX_PIECES};
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

/// A set of integers: sorted, disjoint, non-adjacent closed intervals whose
/// ends may be [`NEG_INF`] / [`POS_INF`].
#[derive(Clone, Debug, PartialEq, Eq)]
struct Set(Vec<(i128, i128)>);

impl Set {
    fn empty() -> Set {
        Set(Vec::new())
    }

    fn full() -> Set {
        Set(vec![(NEG_INF, POS_INF)])
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn normalized(mut v: Vec<(i128, i128)>) -> Set {
        v.retain(|&(lo, hi)| lo <= hi);
        v.sort_unstable();
        let mut out: Vec<(i128, i128)> = Vec::with_capacity(v.len());
        for (lo, hi) in v {
            match out.last_mut() {
                // Overlapping or adjacent (`hi + 1 == lo`, without overflow).
                Some(last) if last.1 == POS_INF || lo <= last.1 + 1 => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        Set(out)
    }

    fn union(&self, other: &Set) -> Set {
        Set::normalized(self.0.iter().chain(&other.0).copied().collect())
    }

    fn intersect(&self, other: &Set) -> Set {
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < self.0.len() && j < other.0.len() {
            let (a, b) = (self.0[i], other.0[j]);
            let (lo, hi) = (a.0.max(b.0), a.1.min(b.1));
            if lo <= hi {
                out.push((lo, hi));
            }
            if a.1 < b.1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        Set(out)
    }

    fn complement(&self) -> Set {
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
    domain: Set,
}

impl Ctx<'_> {
    fn rest(&self, s: &Set) -> Set {
        s.complement().intersect(&self.domain)
    }

    fn check(&self, s: Set) -> Option<Set> {
        (s.0.len() <= MAX_INTERVALS).then_some(s)
    }

    /// The values of `y` making the Boolean term `t` true.
    fn truth(&self, t: &Term) -> Option<Set> {
        let s = match t.node() {
            Node::Bool(true) => self.domain.clone(),
            Node::Bool(false) => Set::empty(),
            Node::App { op, args } => match (op, args.as_slice()) {
                (Op::Not, [a]) => self.rest(&self.truth(a)?),
                (Op::And, _) => {
                    let mut acc = self.domain.clone();
                    for a in args {
                        acc = acc.intersect(&self.truth(a)?);
                    }
                    acc
                }
                (Op::Or, _) => {
                    let mut acc = Set::empty();
                    for a in args {
                        acc = acc.union(&self.truth(a)?);
                    }
                    acc
                }
                (Op::Eq, [p, q]) if p.sort() == Sort::Bool => {
                    let (p, q) = (self.truth(p)?, self.truth(q)?);
                    p.intersect(&q).union(&self.rest(&p).intersect(&self.rest(&q)))
                }
                (Op::Eq | Op::Lt | Op::Le, [l, r]) if l.sort() == Sort::Int => self.compare(*op, l, r)?,
                _ => return None,
            },
            _ => return None,
        };
        self.check(s)
    }

    /// `t` (an `Int` term) as linear pieces: on each piece's set of `y`,
    /// `t = a·y + b`; the sets partition the domain.
    fn pieces(&self, t: &Term) -> Option<Vec<(Set, Lin)>> {
        let all = || self.domain.clone();
        let out = match t.node() {
            Node::Int(v) => vec![(all(), Lin { a: 0, b: bounded(*v)? })],
            Node::Var { name, sort: Sort::Int } if &**name == self.var => vec![(all(), Lin { a: 1, b: 0 })],
            Node::App { op, args } => match (op, args.as_slice()) {
                (Op::Neg, [x]) => self.pieces(x)?.into_iter().map(|(s, l)| (s, Lin { a: -l.a, b: -l.b })).collect(),
                (Op::Add | Op::Sub | Op::Mul, [first, rest @ ..]) if !rest.is_empty() => {
                    let mut acc = self.pieces(first)?;
                    for r in rest {
                        let rp = self.pieces(r)?;
                        let mut next = Vec::new();
                        for (s1, l1) in &acc {
                            for (s2, l2) in &rp {
                                let s = s1.intersect(s2);
                                if s.is_empty() {
                                    continue;
                                }
                                let l = match op {
                                    Op::Add => Lin { a: l1.a.checked_add(l2.a)?, b: l1.b.checked_add(l2.b)? },
                                    Op::Sub => Lin { a: l1.a.checked_sub(l2.a)?, b: l1.b.checked_sub(l2.b)? },
                                    _ if l1.a == 0 => Lin { a: l1.b.checked_mul(l2.a)?, b: l1.b.checked_mul(l2.b)? },
                                    _ if l2.a == 0 => Lin { a: l2.b.checked_mul(l1.a)?, b: l2.b.checked_mul(l1.b)? },
                                    _ => return None, // y·y is not linear
                                };
                                next.push((s, Lin { a: bounded(l.a)?, b: bounded(l.b)? }));
                            }
                        }
                        if next.len() > MAX_PIECES {
                            return None;
                        }
                        acc = next;
                    }
                    acc
                }
                (Op::Ite, [c, x, y]) => {
                    let cs = self.truth(c)?;
                    let not_cs = self.rest(&cs);
                    let mut out = Vec::new();
                    for (branch, set) in [(x, &cs), (y, &not_cs)] {
                        for (s, l) in self.pieces(branch)? {
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
            },
            _ => return None,
        };
        Some(out)
    }

    /// The values of `y` where `op(lhs, rhs)` holds (`=`, `<`, `≤`).
    fn compare(&self, op: Op, lhs: &Term, rhs: &Term) -> Option<Set> {
        let (lp, rp) = (self.pieces(lhs)?, self.pieces(rhs)?);
        let mut acc = Set::empty();
        for (s1, l1) in &lp {
            for (s2, l2) in &rp {
                let s = s1.intersect(s2);
                if s.is_empty() {
                    continue;
                }
                // l1 op l2 ⟺ d op 0 with d = l1 − l2 = a·y + b.
                let d = Lin { a: bounded(l1.a - l2.a)?, b: bounded(l1.b - l2.b)? };
                let target = match op {
                    Op::Eq => (0, 0),
                    Op::Lt => (NEG_INF, -1),
                    _ => (NEG_INF, 0),
                };
                acc = self.check(acc.union(&s.intersect(&preimage(d, target))))?;
            }
        }
        Some(acc)
    }
}

/// `{ y : a·y + b ∈ [lo, hi] }` (ends may be infinite), exactly.
fn preimage(l: Lin, (lo, hi): (i128, i128)) -> Set {
    if l.a == 0 {
        return if lo <= l.b && l.b <= hi { Set::full() } else { Set::empty() };
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
    let mut ctx = Ctx { var: name, domain: Set::full() };
    let mut deferred = Vec::new();
    for a in assertions {
        match ctx.truth(a) {
            Some(s) => ctx.domain = s,
            None => deferred.push(a),
        }
        if ctx.domain.is_empty() {
            return Some(Decision::Unsat);
        }
    }
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
