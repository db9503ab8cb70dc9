//! Deciding a conjunction over **one bit-vector variable** without a
//! solver, exactly.
//!
//! A loop unrolled symbolically over one input asks many queries whose
//! every constraint is a comparison of a *linear* term `a·y + b` (modulo
//! 2^w) with a constant: `(bvslt (bvadd (bvmul 238 y) 28153) 0)`. The set
//! of values of `y` that satisfy one such constraint is a finite union of
//! intervals of `[0, 2^w)`, computed here with exact integer arithmetic;
//! the conjunction is their intersection. Empty means `unsat` — certain,
//! because every step is exact (nothing is over-approximated: whatever the
//! procedure cannot compute exactly makes it give up). Non-empty gives a
//! candidate value, which [`decide`] answers `sat` only after checking it
//! by evaluating every constraint ([`Term::eval`]), so a `sat` comes with a
//! verified model.
//!
//! In CPA terms: a satisfiability check of a symbolic state's path
//! constraints that the Constraints CPA can do itself before asking the
//! SMT solver; it answers the same as a solver would (both are exact), so
//! the analysis explores the same states. A constraint beyond intervals
//! (`y·y`, division, bit-wise operators, extensions) is decided by
//! evaluating it on every value the others leave, when they leave at most
//! 256 (`n = 332 ∧ n·(n+1) ≠ 110556`).
//!
//! A variable of sort `Int` (mathematical integers) is decided the same
//! way without wrap-around: each linear comparison holds on a half-line or
//! interval of ℤ (the `int` submodule).
//!
//! A comparison with the variable on both sides at the same slope,
//! `a·y + b ⋈ a·y + d` (`x + 1 < x`, C's overflow check), is decided too:
//! with `u = a·y` it is a comparison of `u + b` with `u + d`, whose value
//! changes only where one side wraps around or crosses the signed
//! boundary, so its set of `u` is a few intervals, and `y`'s set is their
//! preimage.
//!
//! Several variables are handled when equalities only tie them through
//! common terms: `a + k = a + b` is `k − b = 0` (bit-vector addition is a
//! group), so after cancelling, each constraint has at most one variable
//! and each variable's constraints are decided on their own. A variable
//! that occurs only zero-extended (`(_ zero_extend n) y`) is decided as a
//! wider variable bounded by `y`'s range. Anything
//! else — a constraint over two variables, more values, or more
//! intervals than [`MAX_INTERVALS`] — is `None` (ask the solver).

use crate::term::{Node, Op, Sort, Term, Value};
use std::collections::BTreeMap;

mod int;
mod intervals;
mod walk;

use intervals::Set;
use walk::{Arith, OneVariable};

/// The answer of [`decide`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// No value of the variable satisfies every constraint.
    Unsat,
    /// This assignment of the variable satisfies every constraint (checked
    /// by evaluation).
    Sat(BTreeMap<String, Value>),
}

/// The most intervals a value set may hold before [`decide`] gives up.
pub const MAX_INTERVALS: usize = 1 << 16;

/// The most interval steps one preimage may take before [`decide`] gives
/// up: the preimage of an interval under `y ↦ a·y (mod 2^w)` has up to
/// `a` pieces over the whole range (fewer within a narrow domain).
const MAX_WORK: usize = 1 << 18;

/// How many values the interval constraints may leave for [`decide`] to
/// evaluate the other constraints on, one by one.
const MAX_ENUMERATED: u128 = 256;

/// How many `ite` branches one term may split into.
const MAX_PIECES: usize = 8;

/// The bit-vector sets: values of `[0, 2^w)`.
impl Set<u128> {
    /// `[0, m)`.
    fn below(m: u128) -> Set<u128> {
        Set(vec![(0, m - 1)])
    }

    fn complement(&self, m: u128) -> Set<u128> {
        let mut out = Vec::with_capacity(self.0.len() + 1);
        let mut next = 0u128;
        for &(lo, hi) in &self.0 {
            if lo > next {
                out.push((next, lo - 1));
            }
            next = hi + 1;
        }
        if next < m {
            out.push((next, m - 1));
        }
        Set(out)
    }
}

/// `a·y + b (mod 2^w)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Lin {
    a: u128,
    b: u128,
}

/// The context of one decision: the variable, its width, and the values
/// still possible (the constraints decided so far). Every set computed is
/// a subset of `domain`: a constraint's values outside it do not matter to
/// the conjunction, and leaving them out keeps the preimages small.
struct Ctx<'a> {
    var: &'a str,
    w: u32,
    m: u128,
    domain: Set<u128>,
}

impl OneVariable for Ctx<'_> {
    type Num = u128;
    type Lin = Lin;

    fn domain(&self) -> &Set<u128> {
        &self.domain
    }

    fn narrow_to(&mut self, s: Set<u128>) {
        self.domain = s;
    }

    fn rest(&self, s: &Set<u128>) -> Set<u128> {
        s.complement(self.m).intersect(&self.domain)
    }

    fn has_sort(&self, t: &Term) -> bool {
        t.sort() == Sort::Bv(self.w)
    }

    fn leaf(&self, t: &Term) -> Option<Lin> {
        match t.node() {
            Node::Bv { value, .. } => Some(Lin { a: 0, b: *value }),
            Node::Var { name, .. } if &**name == self.var => Some(Lin { a: 1, b: 0 }),
            _ => None,
        }
    }

    fn arith(&self, op: Op) -> Option<Arith> {
        match op {
            Op::BvNeg => Some(Arith::Neg),
            Op::BvAdd => Some(Arith::Add),
            Op::BvSub => Some(Arith::Sub),
            Op::BvMul => Some(Arith::Mul),
            _ => None,
        }
    }

    fn is_comparison(&self, op: Op) -> bool {
        matches!(op, Op::Eq | Op::BvUlt | Op::BvUle | Op::BvSlt | Op::BvSle)
    }

    /// Modulo 2^w.
    fn combine(&self, op: Arith, l1: Lin, l2: Lin) -> Option<Lin> {
        let sub = |x: u128, y: u128| self.wrap(x.wrapping_sub(y));
        Some(match op {
            Arith::Neg => Lin { a: sub(0, l1.a), b: sub(0, l1.b) },
            Arith::Add => Lin { a: self.wrap(l1.a + l2.a), b: self.wrap(l1.b + l2.b) },
            Arith::Sub => Lin { a: sub(l1.a, l2.a), b: sub(l1.b, l2.b) },
            Arith::Mul if l1.a == 0 => Lin { a: mul_mod(l1.b, l2.a, self.m), b: mul_mod(l1.b, l2.b, self.m) },
            Arith::Mul if l2.a == 0 => Lin { a: mul_mod(l2.b, l1.a, self.m), b: mul_mod(l2.b, l1.b, self.m) },
            Arith::Mul => return None, // y·y is not linear
        })
    }

    fn holds(&self, op: Op, l1: Lin, l2: Lin) -> Option<Set<u128>> {
        if op == Op::Eq {
            // l1 = l2 ⟺ (l1 - l2) = 0.
            let d = self.combine(Arith::Sub, l1, l2)?;
            self.preimage(d, &Set(vec![(0, 0)]))
        } else if l2.a == 0 {
            self.preimage(l1, &self.range_below(op, l2.b))
        } else if l1.a == 0 {
            self.preimage(l2, &self.range_above(op, l1.b))
        } else if l1.a == l2.a {
            // u + b op u + d with u = a·y: the values of u where it holds,
            // then their preimage under y ↦ a·y.
            self.preimage(Lin { a: l1.a, b: 0 }, &self.same_slope(op, l1.b, l2.b))
        } else {
            None // different slopes: not an interval question
        }
    }
}

impl Ctx<'_> {
    fn wrap(&self, v: u128) -> u128 {
        v & (self.m - 1)
    }

    /// The values of `u` in `[0, 2^w)` with `op(u + b, u + d)` (mod 2^w).
    /// Neither side wraps around, and neither crosses the signed boundary
    /// `2^(w−1)`, between consecutive breakpoints (where `u + b` or `u + d`
    /// is `0` or `2^(w−1)`), so on each segment between them both sides
    /// differ by a constant — unsigned and signed — and the comparison has
    /// one value: evaluating it at the segment's first value decides the
    /// whole segment, exactly.
    fn same_slope(&self, op: Op, b: u128, d: u128) -> Set<u128> {
        let half = self.m / 2;
        let neg = |v: u128| self.wrap(0u128.wrapping_sub(v));
        let mut starts = vec![0, neg(b), self.wrap(half + neg(b)), neg(d), self.wrap(half + neg(d))];
        starts.sort_unstable();
        starts.dedup();
        let signed = |v: u128| if v >= half { v as i128 - self.m as i128 } else { v as i128 };
        let mut out = Vec::new();
        for (i, &lo) in starts.iter().enumerate() {
            let hi = starts.get(i + 1).map_or(self.m - 1, |next| next - 1);
            let (x, z) = (self.wrap(lo + b), self.wrap(lo + d));
            let holds = match op {
                Op::BvUlt => x < z,
                Op::BvUle => x <= z,
                Op::BvSlt => signed(x) < signed(z),
                Op::BvSle => signed(x) <= signed(z),
                _ => x == z,
            };
            if holds {
                out.push((lo, hi));
            }
        }
        Set::normalized(out)
    }

    /// The unsigned set of values `v` with `op(v, c)`.
    fn range_below(&self, op: Op, c: u128) -> Set<u128> {
        let half = self.m / 2;
        match op {
            Op::BvUlt if c == 0 => Set::empty(),
            Op::BvUlt => Set(vec![(0, c - 1)]),
            Op::BvUle => Set(vec![(0, c)]),
            // Signed order: the negatives [2^(w-1), 2^w) come first.
            Op::BvSlt | Op::BvSle => {
                let c = if op == Op::BvSlt {
                    if c == half {
                        return Set::empty(); // nothing is below the minimum
                    }
                    self.wrap(c.wrapping_sub(1))
                } else {
                    c
                };
                if c >= half {
                    Set(vec![(half, c)])
                } else {
                    Set::normalized(vec![(half, self.m - 1), (0, c)])
                }
            }
            _ => Set(vec![(c, c)]),
        }
    }

    /// The unsigned set of values `v` with `op(c, v)`.
    fn range_above(&self, op: Op, c: u128) -> Set<u128> {
        match op {
            // c < v ⟺ ¬(v ≤ c); c ≤ v ⟺ ¬(v < c).
            Op::BvUlt => self.range_below(Op::BvUle, c).complement(self.m),
            Op::BvUle => self.range_below(Op::BvUlt, c).complement(self.m),
            Op::BvSlt => self.range_below(Op::BvSle, c).complement(self.m),
            Op::BvSle => self.range_below(Op::BvSlt, c).complement(self.m),
            _ => Set(vec![(c, c)]),
        }
    }

    /// `{ y : a·y + b mod 2^w ∈ target }`.
    fn preimage(&self, l: Lin, target: &Set<u128>) -> Option<Set<u128>> {
        if l.a == 0 {
            let inside = target.0.iter().any(|&(lo, hi)| lo <= l.b && l.b <= hi);
            return Some(if inside { self.domain.clone() } else { Set::empty() });
        }
        // a·y + b ∈ T ⟺ a·y ∈ T - b; and a·y ∈ U ⟺ (2^w - a)·y ∈ -U, so
        // the smaller of the two multipliers is used.
        let shifted = self.shift(target, self.wrap(0u128.wrapping_sub(l.b)));
        let (a, goal) = if l.a <= self.m / 2 { (l.a, shifted) } else { (self.m - l.a, self.negate(&shifted)) };
        let mut out = Vec::new();
        let mut work = 0usize;
        for &(dlo, dhi) in &self.domain.0 {
            // For y in [dlo, dhi], t = ⌊a·y / 2^w⌋ lies in [a·dlo / 2^w,
            // a·dhi / 2^w] (a < 2^w and y < 2^w, so a·y fits in u128).
            let (t_lo, t_hi) = (a * dlo / self.m, a * dhi / self.m);
            for &(lo, hi) in &goal.0 {
                // a·y (mod 2^w) ∈ [lo, hi] ⟺ lo + t·2^w ≤ a·y ≤ hi + t·2^w
                // for t = ⌊a·y / 2^w⌋, exactly.
                for t in t_lo..=t_hi {
                    let from = (lo + t * self.m).div_ceil(a).max(dlo);
                    let to = ((hi + t * self.m) / a).min(dhi);
                    if from <= to {
                        out.push((from, to));
                    }
                    work += 1;
                    if work > MAX_WORK {
                        return None;
                    }
                }
            }
        }
        Set::normalized(out).within_limit()
    }

    /// `{ v + d mod 2^w : v ∈ s }`.
    fn shift(&self, s: &Set<u128>, d: u128) -> Set<u128> {
        let mut out = Vec::with_capacity(s.0.len() + 1);
        for &(lo, hi) in &s.0 {
            let (l2, h2) = (self.wrap(lo + d), self.wrap(hi + d));
            if l2 <= h2 {
                out.push((l2, h2));
            } else {
                out.push((l2, self.m - 1));
                out.push((0, h2));
            }
        }
        Set::normalized(out)
    }

    /// `{ -v mod 2^w : v ∈ s }`.
    fn negate(&self, s: &Set<u128>) -> Set<u128> {
        let mut out = Vec::with_capacity(s.0.len() + 1);
        for &(lo, hi) in &s.0 {
            if lo == 0 {
                out.push((0, 0));
                if hi > 0 {
                    out.push((self.m - hi, self.m - 1));
                }
            } else {
                out.push((self.m - hi, self.m - lo));
            }
        }
        Set::normalized(out)
    }
}

/// `x·y mod m` for `x, y < m ≤ 2^64`.
fn mul_mod(x: u128, y: u128, m: u128) -> u128 {
    // Both factors are below 2^64, so the product fits in u128.
    (x * y) & (m - 1)
}

/// Decides the conjunction of `assertions` when, after cancelling common
/// terms of equalities, it splits into parts each over one bit-vector
/// variable (see the module docs): `Some(Unsat)` when certainly
/// unsatisfiable, `Some(Sat(model))` with a model checked by evaluation,
/// `None` when the procedure does not apply (ask a solver).
///
/// Equalities of bit-vector terms are rewritten `l = r ⟺ l − r = 0`
/// (exact modulo 2^w, where addition is a group), with the difference
/// normalized by [`Term`]'s linear form, so `a + 331 = a + b` becomes
/// `331 − b = 0`: one input. The rewritten constraints are grouped by
/// shared variables; the conjunction is unsat when one group is (each
/// group is decided over one variable exactly), and sat when every group
/// is, with the groups' models merged and checked on the original
/// constraints by evaluation.
pub fn decide(assertions: &[Term]) -> Option<Decision> {
    let vars = crate::term::vars_of(assertions);
    if let Some(d) = decide_widened(assertions, &vars) {
        return d;
    }
    if vars.len() <= 1 {
        return decide_one(assertions);
    }
    if !vars.values().all(|s| matches!(s, Sort::Bv(_) | Sort::Int)) {
        return None;
    }
    let rewritten: Vec<Term> = assertions.iter().map(cancel_equalities).collect();
    // Group the rewritten constraints by their (single) variable; a
    // constraint over two or more variables means the query is not for
    // this procedure.
    let mut groups: BTreeMap<std::sync::Arc<str>, Vec<Term>> = BTreeMap::new();
    for t in &rewritten {
        let tv = t.vars();
        let mut it = tv.keys();
        match (it.next(), it.next()) {
            (None, _) => match t.as_value() {
                Some(Value::Bool(true)) => {}
                Some(Value::Bool(false)) => return Some(Decision::Unsat),
                _ => return None,
            },
            (Some(v), None) => groups.entry(v.clone()).or_default().push(t.clone()),
            _ => return None,
        }
    }
    let mut model = BTreeMap::new();
    let mut unknown = false;
    for part in groups.values() {
        match decide_one(part) {
            Some(Decision::Unsat) => return Some(Decision::Unsat),
            Some(Decision::Sat(m)) => model.extend(m),
            None => unknown = true,
        }
    }
    if unknown {
        return None;
    }
    // A variable every constraint lost by cancelling takes any value.
    for (name, sort) in &vars {
        match (model.contains_key(&**name), sort) {
            (false, Sort::Bv(width)) => _ = model.insert(name.to_string(), Value::Bv { value: 0, width: *width }),
            (false, Sort::Int) => _ = model.insert(name.to_string(), Value::Int(0)),
            _ => {}
        }
    }
    let env = |n: &str| model.get(n).copied();
    assertions.iter().all(|a| a.eval(&env) == Some(Value::Bool(true))).then_some(Decision::Sat(model))
}

/// A variable `y` of `w` bits that occurs only zero-extended by the same
/// `n` bits (`(_ zero_extend n) y`, an `unsigned short` compared as an
/// `unsigned int`) is replaced by a variable `Y` of `w + n` bits with
/// `Y ≤ 2^w − 1`: zero-extension is a bijection from the values of `y` onto
/// those of `Y`, so the two conjunctions are equisatisfiable, and `y` takes
/// `Y`'s value. `None` when no variable is only zero-extended (decide as
/// is); otherwise the decision of the widened conjunction, a `sat` model
/// mapped back and checked on the original constraints by evaluation.
fn decide_widened(assertions: &[Term], vars: &BTreeMap<std::sync::Arc<str>, Sort>) -> Option<Option<Decision>> {
    let mut widened: Vec<(std::sync::Arc<str>, u32, u32)> = Vec::new(); // (name, w, n)
    for (name, sort) in vars {
        let Sort::Bv(w) = sort else { continue };
        let mut ext = None;
        if assertions.iter().all(|a| only_extended(a, name, &mut ext)) {
            if let Some(n) = ext.filter(|n| w + n <= 64) {
                widened.push((name.clone(), *w, n));
            }
        }
    }
    if widened.is_empty() {
        return None;
    }
    let wide_name = |name: &str| format!("{name}|zero_extended");
    let mut rewritten: Vec<Term> = assertions.iter().map(|a| widen(a, &widened, &wide_name)).collect();
    for (name, w, n) in &widened {
        let top = Term::bv(((1u128 << w) - 1) as i128, w + n);
        rewritten.push(Term::bv2(Op::BvUle, Term::var(&wide_name(name), Sort::Bv(w + n)), top));
    }
    Some(match decide(&rewritten)? {
        Decision::Unsat => Some(Decision::Unsat),
        Decision::Sat(mut model) => {
            for (name, w, _) in &widened {
                let v = match model.remove(&wide_name(name)) {
                    Some(Value::Bv { value, .. }) => value,
                    _ => 0,
                };
                model.insert(name.to_string(), Value::Bv { value: v & ((1u128 << w) - 1), width: *w });
            }
            let env = |n: &str| model.get(n).copied();
            assertions.iter().all(|a| a.eval(&env) == Some(Value::Bool(true))).then_some(Decision::Sat(model))
        }
    })
}

/// Whether every occurrence of the variable `name` in `t` is `(_
/// zero_extend n) name` with one `n` (recorded in `ext`).
fn only_extended(t: &Term, name: &str, ext: &mut Option<u32>) -> bool {
    match t.node() {
        Node::Var { name: v, .. } => &**v != name,
        Node::App { op: Op::ZeroExt(n), args } if args.len() == 1 && args[0].as_var() == Some(name) => {
            *ext.get_or_insert(*n) == *n
        }
        Node::App { args, .. } => args.iter().all(|a| only_extended(a, name, ext)),
        _ => true,
    }
}

/// `t` with `(_ zero_extend n) y` replaced by the wide variable of `y`.
fn widen(t: &Term, widened: &[(std::sync::Arc<str>, u32, u32)], wide_name: &dyn Fn(&str) -> String) -> Term {
    let Node::App { op, args } = t.node() else {
        return t.clone();
    };
    if let (Op::ZeroExt(n), [x]) = (op, args.as_slice()) {
        if let Some((name, w, _)) = widened.iter().find(|(name, _, m)| x.as_var() == Some(&**name) && m == n) {
            return Term::var(&wide_name(name), Sort::Bv(w + n));
        }
    }
    let args: Vec<Term> = args.iter().map(|a| widen(a, widened, wide_name)).collect();
    match (op, args.as_slice()) {
        (Op::Not, [a]) => Term::not(a.clone()),
        (Op::And, _) => Term::and(args),
        (Op::Or, _) => Term::or(args),
        (Op::Ite, [c, a, b]) => Term::ite(c.clone(), a.clone(), b.clone()),
        (Op::Eq, [a, b]) => Term::eq(a.clone(), b.clone()),
        _ => Term::app(*op, args),
    }
}

/// `t` with every equality of bit-vector terms `l = r` (at any depth)
/// rewritten to `l − r = 0`, the difference in linear normal form: an
/// equivalent constraint in which terms common to both sides cancel.
fn cancel_equalities(t: &Term) -> Term {
    let Node::App { op, args } = t.node() else {
        return t.clone();
    };
    let args: Vec<Term> = args.iter().map(cancel_equalities).collect();
    match (op, args.as_slice()) {
        (Op::Eq, [l, r]) => match l.sort() {
            Sort::Bv(w) => Term::eq(Term::bv2(Op::BvSub, l.clone(), r.clone()), Term::bv(0, w)),
            _ => Term::eq(l.clone(), r.clone()),
        },
        (Op::Not, [a]) => Term::not(a.clone()),
        (Op::And, _) => Term::and(args),
        (Op::Or, _) => Term::or(args),
        (Op::Ite, [c, a, b]) => Term::ite(c.clone(), a.clone(), b.clone()),
        _ => Term::app(*op, args),
    }
}

/// [`decide`] for constraints whose only free variable is one bit-vector
/// or one integer ([`int::decide_one`]).
fn decide_one(assertions: &[Term]) -> Option<Decision> {
    let vars = crate::term::vars_of(assertions);
    let mut it = vars.iter();
    let (name, sort) = it.next()?;
    if let (Sort::Int, None) = (*sort, it.clone().next()) {
        return int::decide_one(name, assertions);
    }
    let (Sort::Bv(w), None) = (*sort, it.next()) else {
        return None;
    };
    if !(1..=64).contains(&w) {
        return None;
    }
    let m = 1u128 << w;
    let mut ctx = Ctx { var: name, w, m, domain: Set::below(m) };
    let Some(deferred) = walk::narrow(&mut ctx, assertions) else { return Some(Decision::Unsat) };
    let set = ctx.domain;
    let value = |v: u128| Value::Bv { value: v, width: w };
    if !deferred.is_empty() {
        // Constraints beyond intervals (y·y, bit-wise operators, …): when
        // the others leave only a few values, evaluate them on each.
        let size: u128 = set.0.iter().map(|&(lo, hi)| hi - lo + 1).sum();
        if size > MAX_ENUMERATED {
            return None;
        }
        for v in set.0.iter().flat_map(|&(lo, hi)| lo..=hi) {
            let env = |n: &str| (n == &**name).then_some(value(v));
            let mut all = true;
            for a in &deferred {
                match a.eval(&env) {
                    Some(Value::Bool(true)) => {}
                    Some(Value::Bool(false)) => all = false,
                    _ => return None, // not evaluable: ask the solver
                }
            }
            if all && assertions.iter().all(|a| a.eval(&env) == Some(Value::Bool(true))) {
                return Some(Decision::Sat(BTreeMap::from([(name.to_string(), value(v))])));
            }
        }
        return Some(Decision::Unsat); // no value of the (exact) domain satisfies them
    }
    // A few candidates from the set; the first that every assertion
    // evaluates true under is the model.
    let candidates = set.0.iter().take(4).flat_map(|&(lo, hi)| [lo, hi, lo + (hi - lo) / 2]);
    for v in candidates {
        let env = |n: &str| (n == &**name).then_some(value(v));
        if assertions.iter().all(|a| a.eval(&env) == Some(Value::Bool(true))) {
            return Some(Decision::Sat(BTreeMap::from([(name.to_string(), value(v))])));
        }
    }
    None
}
