//! Transfer functions of the octagon domain: assignments, guards, forgetting.
//!
//! Expressions arrive as [`LinExpr`]s `Σ aᵢ·yᵢ + c` (the engine translates
//! program expressions into them) or as an [`Interval`] ("some value in this
//! range": nondeterminism, or a non-linear expression the caller evaluated
//! with [`Octagon::interval`] and interval arithmetic).
//!
//! Soundness contract of every transfer `t`: for each integer point `p ∈ γ(a)`
//! the concrete successor(s) of `p` lie in `γ(t(a))`. Each function says
//! where it is exact and how it approximates otherwise.
//!
//! | statement                          | how                                  | exact? |
//! |------------------------------------|--------------------------------------|--------|
//! | `x := c`, `x := [a, b]`            | forget `x`, bound it                 | yes    |
//! | `x := ±y + c` (`y ≠ x`)            | forget `x`, add `x ∓ y = c`          | yes    |
//! | `x := x + c`                       | shift every bound on `x` by `c`       | yes    |
//! | `x := −x + c`                      | swap `+x`/`−x`, then shift           | yes    |
//! | `x := Σ aᵢ·yᵢ + c` (other)         | interval of the rhs, plus `x ± yⱼ` via intervals of `rhs ∓ yⱼ` | no |
//! | `x := x + [a, b]`                  | every bound on `x` moves by the worst case | yes |
//! | `x := e + [a, b]` (other)          | as the general linear case, `[a, b]` added | no |
//! | `±x ± y ≤ c`, `±x ≤ c` (`<`, `=`, `≥`, `>`) | one DBM cell, incremental closure | yes |
//! | other linear `e ≤ 0`              | unary/binary consequences via intervals of the rest | no |
//! | `e ≠ 0`                            | refines only a bound equal to the excluded value | no |
//!
//! The linear-assignment approximation is Miné's interval linear forms
//! (HOSC 2006, §4.4): for `x := e` we bound `x` by the interval of `e`, and
//! `x − yⱼ`, `x + yⱼ` by the intervals of `e − yⱼ`, `e + yⱼ` — cancelling the
//! coefficient of `yⱼ` when it is ±1, so `x := y + z` keeps `x − y ∈ [z]`.

use super::closure;
use super::dbm::Dbm;
use super::{interval_in, Form, Octagon};
use crate::bound::Bound;
use crate::interval::Interval;
use serde::{Deserialize, Serialize};

/// A linear expression `Σ aᵢ·x_{vᵢ} + constant` over variable numbers.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct LinExpr {
    /// `(variable, coefficient)` pairs; duplicates are summed, zeros ignored.
    pub terms: Vec<(usize, i64)>,
    /// The constant term.
    pub constant: i64,
}

impl LinExpr {
    /// `Σ terms + constant`.
    pub fn new(terms: Vec<(usize, i64)>, constant: i64) -> LinExpr {
        LinExpr { terms, constant }
    }

    /// The constant `c`.
    pub fn constant(c: i64) -> LinExpr {
        LinExpr { terms: vec![], constant: c }
    }

    /// The variable `x`.
    pub fn var(x: usize) -> LinExpr {
        LinExpr { terms: vec![(x, 1)], constant: 0 }
    }

    /// Duplicates summed, zero coefficients dropped, sorted by variable, in
    /// `i128` so that nothing overflows.
    fn normalized(&self) -> (Vec<(usize, i128)>, i128) {
        let mut t: Vec<(usize, i128)> = self.terms.iter().map(|&(v, a)| (v, a as i128)).collect();
        t.sort_by_key(|p| p.0);
        let mut out: Vec<(usize, i128)> = Vec::with_capacity(t.len());
        for (v, a) in t {
            match out.last_mut() {
                Some(last) if last.0 == v => last.1 += a,
                _ => out.push((v, a)),
            }
        }
        out.retain(|p| p.1 != 0);
        (out, self.constant as i128)
    }

    /// The value at a concrete point `p` (`p[v]` is variable `v`), exactly.
    pub fn eval_at(&self, p: &[i64]) -> i128 {
        self.terms.iter().map(|&(v, a)| a as i128 * p[v] as i128).sum::<i128>() + self.constant as i128
    }
}

/// A comparison `e ⋈ 0` for guards.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Cmp {
    /// `≤`
    Le,
    /// `<`
    Lt,
    /// `≥`
    Ge,
    /// `>`
    Gt,
    /// `=`
    Eq,
    /// `≠`
    Ne,
}

impl Cmp {
    /// Whether `v ⋈ 0` holds.
    pub fn holds(self, v: i128) -> bool {
        match self {
            Cmp::Le => v <= 0,
            Cmp::Lt => v < 0,
            Cmp::Ge => v >= 0,
            Cmp::Gt => v > 0,
            Cmp::Eq => v == 0,
            Cmp::Ne => v != 0,
        }
    }
}

/// Interval of `Σ aᵢ·yᵢ + c` from per-variable intervals.
fn eval_terms(d: &Dbm, terms: &[(usize, i128)], c: i128) -> Interval {
    let mut acc = Interval::constant(0).add(const_itv(c));
    for &(v, a) in terms {
        acc = acc.add(interval_in(d, v).mul(const_itv(a)));
    }
    acc
}

/// `[c, c]`, or the unbounded side(s) when `c` does not fit (sound).
fn const_itv(c: i128) -> Interval {
    if c > i64::MAX as i128 - 1 || c < i64::MIN as i128 + 1 {
        Interval::TOP
    } else {
        Interval::constant(c as i64)
    }
}

/// Index of the signed variable `s·x` (`+x` = 2x, `−x` = 2x+1).
fn signed(x: usize, positive: bool) -> usize {
    2 * x + usize::from(!positive)
}

impl Octagon {
    /// The interval of a linear expression over `γ(self)`, from the
    /// variables' intervals (sound; exact for one variable).
    pub fn eval(&self, e: &LinExpr) -> Interval {
        let Some(d) = self.canonical() else { return Interval::BOTTOM };
        let (t, c) = e.normalized();
        eval_terms(&d, &t, c)
    }

    /// Closes `self`; `false` if it is `⊥` (then there is nothing to do).
    fn ready(&mut self) -> bool {
        self.close();
        self.form == Form::Closed
    }

    /// Projection: forget everything about `x` (`x := anything`). Exact in
    /// the sense that `γ(result) = { p[x ↦ v] | p ∈ γ(self), v ∈ ℤ }`.
    pub fn forget(&mut self, x: usize) {
        if !self.ready() {
            return;
        }
        forget_in(&mut self.dbm, x);
    }

    /// Adds the constraint `V_j − V_i ≤ b` and restores closure
    /// incrementally (the cell lies in the rows of variable `i / 2`).
    fn add_cell(&mut self, i: usize, j: usize, b: Bound) {
        if !self.ready() {
            return;
        }
        if b < self.dbm.get(i, j) {
            self.dbm.set(i, j, b);
            if !closure::close_incremental(&mut self.dbm, i / 2) {
                self.set_bottom();
            }
        }
    }

    /// `x := e` (see the module table for exactness).
    pub fn assign(&mut self, x: usize, e: &LinExpr) {
        if !self.ready() {
            return;
        }
        let (t, c) = e.normalized();
        match t.as_slice() {
            [] => self.assign_interval(x, const_itv(c)),
            &[(y, 1)] if y == x => self.shift(x, c),
            &[(y, -1)] if y == x => {
                self.negate(x);
                self.shift(x, c);
            }
            &[(y, a)] if a == 1 || a == -1 => {
                // x := ±y + c: forget x, then x ∓ y ≤ c and −(x ∓ y) ≤ −c.
                forget_in(&mut self.dbm, x);
                let (up, down) = (Bound::from_i128(c), Bound::from_i128(-c));
                let px = signed(x, true);
                let qy = signed(y, a > 0); // V_q = ±y, so x − V_q = c
                self.dbm.set(qy, px, up);
                self.dbm.set(px, qy, down);
                if !closure::close_incremental(&mut self.dbm, x) {
                    self.set_bottom();
                }
            }
            _ => self.assign_linear(x, &t, c, Interval::constant(0)),
        }
    }

    /// `x := e + r` for some `r ∈ rest` — Miné's *interval linear form*
    /// (useful when part of an expression is only known as an interval, e.g.
    /// `x := y + nondet()` with the nondet in a type's range). Exact for
    /// `x := x + [a, b]` (every bound on `x` moves by the worst case) and
    /// `x := ±y + [a, b]` (`a ≤ x ∓ y ≤ b`); otherwise the general linear
    /// approximation with `rest` added to every interval. `⊥` if `rest` is.
    pub fn assign_with_interval(&mut self, x: usize, e: &LinExpr, rest: Interval) {
        if !self.ready() {
            return;
        }
        if rest.is_bottom() {
            self.set_bottom();
            return;
        }
        let (t, c) = e.normalized();
        if let Some(k) = rest.as_constant() {
            if let Ok(c) = i64::try_from(c + k as i128) {
                let e = LinExpr::new(e.terms.clone(), c);
                return self.assign(x, &e);
            }
        }
        match t.as_slice() {
            &[(y, 1)] if y == x => self.shift_interval(x, const_itv(c).add(rest)),
            _ => self.assign_linear(x, &t, c, rest),
        }
    }

    /// `x := x + δ` for some `δ ∈ d`: the bound on `V_j − V_i` grows by the
    /// largest increase of `V_j` plus the largest decrease of `V_i`
    /// (`+x` rises by at most `d.hi`, falls by at most `−d.lo`; `−x` the
    /// other way round).
    fn shift_interval(&mut self, x: usize, d: Interval) {
        let n2 = 2 * self.vars();
        let hi = d.hi().map(|h| h as i128);
        let neg_lo = d.lo().map(|l| -(l as i128));
        let up = |s: usize| {
            if s == 2 * x {
                hi
            } else if s == 2 * x + 1 {
                neg_lo
            } else {
                Some(0)
            }
        };
        let down = |s: usize| {
            if s == 2 * x {
                neg_lo
            } else if s == 2 * x + 1 {
                hi
            } else {
                Some(0)
            }
        };
        let cells = (2 * x..2 * x + 2)
            .flat_map(|i| (0..=(i | 1)).map(move |j| (i, j)))
            .chain((2 * x + 2..n2).flat_map(|i| [(i, 2 * x), (i, 2 * x + 1)]));
        for (i, j) in cells {
            if i == j {
                continue;
            }
            let k = super::dbm::idx(i, j);
            let v = self.dbm.m[k];
            if v == super::dbm::INF {
                continue;
            }
            self.dbm.m[k] = match (up(j), down(i)) {
                (Some(a), Some(b)) => Bound::from_i128(v as i128 + a + b).raw(),
                _ => super::dbm::INF,
            };
        }
        if !closure::close_incremental(&mut self.dbm, x) {
            self.set_bottom();
        }
    }

    /// `x := any value of itv` (`⊥` if `itv` is empty). Exact.
    pub fn assign_interval(&mut self, x: usize, itv: Interval) {
        if !self.ready() {
            return;
        }
        if itv.is_bottom() {
            self.set_bottom();
            return;
        }
        forget_in(&mut self.dbm, x);
        let hi = itv.hi().map_or(Bound::INF, |h| Bound::from_i128(2 * h as i128));
        let lo = itv.lo().map_or(Bound::INF, |l| Bound::from_i128(-2 * l as i128));
        self.dbm.set(2 * x + 1, 2 * x, hi);
        self.dbm.set(2 * x, 2 * x + 1, lo);
        if !closure::close_incremental(&mut self.dbm, x) {
            self.set_bottom();
        }
    }

    /// `x := x + c`: every bound on `V_j − V_i` moves by `δ(j) − δ(i)` with
    /// `δ(+x) = c`, `δ(−x) = −c`, `δ = 0` elsewhere. Keeps closure. Exact.
    fn shift(&mut self, x: usize, c: i128) {
        if c == 0 {
            return;
        }
        let n2 = 2 * self.vars();
        let delta = |i: usize| -> i128 {
            match i {
                _ if i == 2 * x => c,
                _ if i == 2 * x + 1 => -c,
                _ => 0,
            }
        };
        // Every stored cell involving x, once: the two rows of x, then the
        // columns of x in the rows below.
        let cells = (2 * x..2 * x + 2)
            .flat_map(|i| (0..=(i | 1)).map(move |j| (i, j)))
            .chain((2 * x + 2..n2).flat_map(|i| [(i, 2 * x), (i, 2 * x + 1)]));
        for (i, j) in cells {
            let k = super::dbm::idx(i, j);
            let v = self.dbm.m[k];
            if v != super::dbm::INF {
                self.dbm.m[k] = Bound::from_i128(v as i128 + delta(j) - delta(i)).raw();
            }
        }
    }

    /// `x := −x`: exchange the roles of `+x` and `−x`. Keeps closure. Exact.
    fn negate(&mut self, x: usize) {
        let n2 = 2 * self.vars();
        let swap = |i: usize| if i / 2 == x { i ^ 1 } else { i };
        let old = self.dbm.clone();
        for i in 0..n2 {
            for j in 0..=(i | 1) {
                self.dbm.set(i, j, old.get(swap(i), swap(j)));
            }
        }
    }

    /// `x := Σ aᵢ·yᵢ + c` (general case): interval of the rhs for `x`, and
    /// intervals of `rhs ∓ yⱼ` for `x ∓ yⱼ`, all evaluated before `x` changes.
    fn assign_linear(&mut self, x: usize, t: &[(usize, i128)], c: i128, rest: Interval) {
        let whole = eval_terms(&self.dbm, t, c).add(rest);
        if whole.is_bottom() {
            self.set_bottom();
            return;
        }
        // (V_q, bound on x − V_q, bound on V_q − x)
        let mut rel: Vec<(usize, Interval)> = Vec::new();
        for &(y, _) in t {
            if y == x {
                continue;
            }
            for positive in [true, false] {
                // e − s·y where s = ±1: the coefficient of y becomes a − s.
                let s: i128 = if positive { 1 } else { -1 };
                let shifted: Vec<(usize, i128)> =
                    t.iter().map(|&(v, b)| if v == y { (v, b - s) } else { (v, b) }).filter(|p| p.1 != 0).collect();
                rel.push((signed(y, positive), eval_terms(&self.dbm, &shifted, c).add(rest)));
            }
        }
        forget_in(&mut self.dbm, x);
        let px = signed(x, true);
        let nx = signed(x, false);
        if let Some(h) = whole.hi() {
            self.dbm.set(nx, px, Bound::from_i128(2 * h as i128));
        }
        if let Some(l) = whole.lo() {
            self.dbm.set(px, nx, Bound::from_i128(-2 * l as i128));
        }
        for (q, itv) in rel {
            // x − V_q ∈ itv:  m[q][+x] ≤ hi,  m[+x][q] ≤ −lo.
            if let Some(h) = itv.hi() {
                self.dbm.tighten(q, px, Bound::finite(h));
            }
            if let Some(l) = itv.lo() {
                self.dbm.tighten(px, q, Bound::from_i128(-(l as i128)));
            }
        }
        if !closure::close_incremental(&mut self.dbm, x) {
            self.set_bottom();
        }
    }

    /// Guard `e ⋈ 0` over the integers: keeps the points of `γ(self)` that
    /// satisfy it (see the module table for exactness). May yield `⊥`.
    pub fn guard(&mut self, e: &LinExpr, cmp: Cmp) {
        if !self.ready() {
            return;
        }
        let (t, c) = e.normalized();
        let neg: Vec<(usize, i128)> = t.iter().map(|&(v, a)| (v, -a)).collect();
        match cmp {
            Cmp::Le => self.guard_le(&t, c),
            Cmp::Lt => self.guard_le(&t, c + 1),
            Cmp::Ge => self.guard_le(&neg, -c),
            Cmp::Gt => self.guard_le(&neg, -c + 1),
            Cmp::Eq => {
                self.guard_le(&t, c);
                self.guard_le(&neg, -c);
            }
            Cmp::Ne => self.guard_ne(&t, c),
        }
    }

    /// `Σ aᵢ·yᵢ + c ≤ 0`.
    fn guard_le(&mut self, t: &[(usize, i128)], c: i128) {
        if !self.ready() {
            return;
        }
        match *t {
            [] => {
                if c > 0 {
                    self.set_bottom();
                }
            }
            // a·y ≤ −c  ⇒  ±y ≤ ⌊−c / |a|⌋.
            [(y, a)] => {
                let b = (-c).div_euclid(a.abs());
                let (i, j) = if a > 0 { (2 * y + 1, 2 * y) } else { (2 * y, 2 * y + 1) };
                self.add_cell(i, j, Bound::from_i128(2 * b));
            }
            // k·(±y ± z) ≤ −c  ⇒  ±y ± z ≤ ⌊−c / k⌋: one cell.
            [(y, a), (z, b)] if a.abs() == b.abs() => {
                let bound = (-c).div_euclid(a.abs());
                let p = signed(y, a > 0);
                let q = signed(z, b < 0);
                self.add_cell(q, p, Bound::from_i128(bound));
            }
            _ => self.guard_le_general(t, c),
        }
    }

    /// A non-octagonal `Σ aᵢ·yᵢ + c ≤ 0`: for each variable, and for each pair
    /// with equal |coefficients|, the octagonal consequence obtained by
    /// bounding the remaining terms with their intervals (sound, not exact).
    fn guard_le_general(&mut self, t: &[(usize, i128)], c: i128) {
        // rest(S) = lower bound of c + Σ_{i∉S} aᵢ·yᵢ;  then Σ_{i∈S} aᵢ·yᵢ ≤ −rest.
        let lower_rest = |d: &Dbm, skip: &[usize]| -> Option<i128> {
            let others: Vec<(usize, i128)> = t.iter().enumerate().filter(|(k, _)| !skip.contains(k)).map(|(_, p)| *p).collect();
            eval_terms(d, &others, c).lo().map(|l| l as i128)
        };
        let mut cells: Vec<(usize, usize, Bound)> = Vec::new();
        for (k, &(y, a)) in t.iter().enumerate() {
            if let Some(l) = lower_rest(&self.dbm, &[k]) {
                let b = (-l).div_euclid(a.abs());
                let (i, j) = if a > 0 { (2 * y + 1, 2 * y) } else { (2 * y, 2 * y + 1) };
                cells.push((i, j, Bound::from_i128(2 * b)));
            }
        }
        for (k, &(y, a)) in t.iter().enumerate() {
            for (l, &(z, b)) in t.iter().enumerate().skip(k + 1) {
                if a.abs() != b.abs() {
                    continue;
                }
                if let Some(lo) = lower_rest(&self.dbm, &[k, l]) {
                    let bound = (-lo).div_euclid(a.abs());
                    cells.push((signed(z, b < 0), signed(y, a > 0), Bound::from_i128(bound)));
                }
            }
        }
        // The rest of the sum must also be able to meet the guard at all.
        if let Some(l) = eval_terms(&self.dbm, t, c).lo() {
            if l > 0 {
                self.set_bottom();
                return;
            }
        }
        for (i, j, b) in cells {
            self.add_cell(i, j, b);
        }
    }

    /// `Σ aᵢ·yᵢ + c ≠ 0`: only a bound equal to the excluded value can move.
    fn guard_ne(&mut self, t: &[(usize, i128)], c: i128) {
        let itv = eval_terms(&self.dbm, t, c);
        if itv.as_constant() == Some(0) {
            self.set_bottom();
            return;
        }
        match *t {
            // a·y ≠ −c: only if a divides c; then y ≠ v.
            [(y, a)] if c % a == 0 => {
                let v = -c / a;
                let yi = interval_in(&self.dbm, y);
                if yi.lo().map(|l| l as i128) == Some(v) {
                    self.guard_le(&[(y, -1)], v + 1);
                } else if yi.hi().map(|h| h as i128) == Some(v) {
                    self.guard_le(&[(y, 1)], -v + 1);
                }
            }
            // k·(±y ± z) ≠ −c: read the bounds of ±y ± z from the DBM.
            [(y, a), (z, b)] if a.abs() == b.abs() && c % a.abs() == 0 => {
                let k = a.abs();
                let v = -c / k; // excluded value of s·y + r·z
                let p = signed(y, a > 0);
                let q = signed(z, b < 0);
                let hi = self.dbm.get(q, p).get().map(|h| h as i128); // s·y + r·z ≤ hi
                let lo = self.dbm.get(p, q).get().map(|h| -(h as i128)); // ≥ lo
                let unit = [(y, a.signum()), (z, b.signum())];
                let neg = [(y, -a.signum()), (z, -b.signum())];
                if hi == Some(v) {
                    self.guard_le(&unit, -v + 1);
                } else if lo == Some(v) {
                    self.guard_le(&neg, v + 1);
                }
            }
            _ => {}
        }
    }
}

/// Sets every bound involving `x` to `+∞` (diagonal 0). On a closed DBM the
/// result is closed and is exactly the projection.
fn forget_in(d: &mut Dbm, x: usize) {
    let n2 = 2 * d.vars();
    for i in [2 * x, 2 * x + 1] {
        for j in 0..n2 {
            d.set(i, j, if i == j { Bound::ZERO } else { Bound::INF });
        }
    }
}
