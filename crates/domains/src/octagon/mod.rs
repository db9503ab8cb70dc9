//! The octagon abstract domain (Miné, "The octagon abstract domain", HOSC 2006)
//! over the integers, on our own difference-bound matrices.
//!
//! An octagon over variables `x_0 … x_{n−1}` is a conjunction of constraints
//! `±x_i ± x_j ≤ c` and `±x_i ≤ c`; in two dimensions its shape is an
//! octagon, hence the name. It sits between intervals (no relations) and
//! polyhedra (any linear relation): it can say `x ≤ y` or `x + y ≤ 10`, which
//! is what loop counters and array indices need, at O(n²) memory and O(n³)
//! time.
//!
//! * `γ(o)` = the integer points satisfying every constraint; `γ(⊥) = ∅`.
//! * ⊑ = inclusion of `γ` (decided cell-wise on the closed form),
//!   ⊔ = least upper bound in the octagon lattice (cell-wise max of closed
//!   forms; it may add points: the octagon hull of two octagons),
//!   ⊓ = intersection (cell-wise min, exact), ∇ = widening.
//! * ⊤ has no constraint; ⊥ is any unsatisfiable DBM.
//!
//! One file per concern:
//!
//! | module       | what |
//! |--------------|------|
//! | [`dbm`]      | coherent half-matrix storage, the encoding of constraints into cells |
//! | [`closure`]  | tight closure, incremental closure, emptiness |
//! | `kernels`    | the cell-wise loops of ⊑ ⊔ ⊓ ∇, vectorized where the CPU allows |
//! | [`lattice`]  | ⊑ ⊔ ⊓ |
//! | [`widening`] | ∇ and ∇ with thresholds; why widening never closes its left argument |
//! | [`transfer`] | assignments, guards, forgetting — on [`LinExpr`]s |
//! | [`view`]     | what the UI shows: constraint text, the matrix, a 2-D polygon |
//!
//! # Lazy closure
//!
//! An [`Octagon`] remembers whether its DBM is closed. Transfer functions
//! close (incrementally) right away, so a state on an edge of the analysis is
//! always closed and emptiness (an infeasible branch) is known at once. Meet
//! and widening leave their result *open*; read-only operations that need the
//! closed form (⊑, ⊔, views, intervals) close a copy, never the octagon
//! itself — this matters for widening, see [`widening`].
//!
//! *API boundary*: the domain knows nothing of CFAs or the CPA algorithm;
//! variables are numbers `0..n`, expressions are [`LinExpr`]s and
//! [`Interval`]s.

pub mod closure;
pub mod dbm;
mod kernels;
pub mod lattice;
pub mod transfer;
pub mod view;
pub mod widening;

pub use dbm::Dbm;
pub use transfer::{Cmp, LinExpr};
pub use view::{ConstraintView, MatrixView, PlotView};

use crate::interval::Interval;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// What we know about the DBM of an [`Octagon`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
enum Form {
    /// Tightly closed and satisfiable.
    Closed,
    /// Any DBM: maybe not closed, maybe even unsatisfiable.
    Open,
    /// Known to be `⊥` (the DBM is irrelevant).
    Empty,
}

/// An element of the octagon domain over `n` integer variables.
///
/// `==` compares representations, not concretizations; use
/// [`Octagon::leq`] both ways for semantic equality.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Octagon {
    dbm: Dbm,
    form: Form,
}

impl Octagon {
    /// `⊤` over `n` variables: no constraint.
    pub fn top(n: usize) -> Octagon {
        Octagon { dbm: Dbm::top(n), form: Form::Closed }
    }

    /// `⊥` over `n` variables: no point.
    pub fn bottom(n: usize) -> Octagon {
        Octagon { dbm: Dbm::top(n), form: Form::Empty }
    }

    /// An octagon from a raw DBM (any matrix; it is closed lazily).
    pub fn from_dbm(dbm: Dbm) -> Octagon {
        Octagon { dbm, form: Form::Open }
    }

    /// Number of variables `n`.
    pub fn vars(&self) -> usize {
        self.dbm.vars()
    }

    /// The DBM as stored (closed only if [`Octagon::is_closed`]).
    pub fn dbm(&self) -> &Dbm {
        &self.dbm
    }

    /// Whether the stored DBM is known to be tightly closed (or `⊥`).
    pub fn is_closed(&self) -> bool {
        self.form != Form::Open
    }

    /// Brings the DBM into its canonical, tightly closed form, or marks the
    /// octagon `⊥`. Does not change `γ`.
    pub fn close(&mut self) {
        if self.form == Form::Open {
            self.form = if closure::close(&mut self.dbm) { Form::Closed } else { Form::Empty };
        }
    }

    /// The octagon in closed form (a copy only if `self` is open).
    pub fn closed(&self) -> Cow<'_, Octagon> {
        if self.form == Form::Open {
            let mut c = self.clone();
            c.close();
            Cow::Owned(c)
        } else {
            Cow::Borrowed(self)
        }
    }

    /// Whether `γ(self) = ∅`. Exact: closure detects every unsatisfiable DBM.
    pub fn is_bottom(&self) -> bool {
        self.closed().form == Form::Empty
    }

    /// Whether `self` has no constraint (`γ = ℤⁿ`).
    pub fn is_top(&self) -> bool {
        let c = self.closed();
        c.form == Form::Closed && c.dbm == Dbm::top(self.vars())
    }

    /// The closed DBM, or `None` for `⊥`.
    pub(crate) fn canonical(&self) -> Option<Cow<'_, Dbm>> {
        match self.form {
            Form::Closed => Some(Cow::Borrowed(&self.dbm)),
            Form::Empty => None,
            Form::Open => {
                let mut d = self.dbm.clone();
                closure::close(&mut d).then_some(Cow::Owned(d))
            }
        }
    }

    pub(crate) fn set_bottom(&mut self) {
        self.form = Form::Empty;
    }

    /// Whether `self` is known to be `⊥` without closing.
    pub(crate) fn known_bottom(&self) -> bool {
        self.form == Form::Empty
    }

    /// The projection of `γ(self)` on `x`: the tightest interval (exact on
    /// the closed form).
    pub fn interval(&self, x: usize) -> Interval {
        match self.canonical() {
            None => Interval::BOTTOM,
            Some(d) => interval_in(&d, x),
        }
    }

    /// Whether the integer point `p` (`p[v]` = value of variable `v`) is in
    /// `γ(self)`: it satisfies every constraint of the stored DBM. Exact, and
    /// valid for open DBMs too (closure does not change `γ`).
    pub fn contains(&self, p: &[i64]) -> bool {
        if self.form == Form::Empty {
            return false;
        }
        let val = |i: usize| if i.is_multiple_of(2) { p[i / 2] as i128 } else { -(p[i / 2] as i128) };
        let n2 = 2 * self.vars();
        (0..n2).all(|i| {
            (0..=(i | 1)).all(|j| match self.dbm.get(i, j).get() {
                None => true,
                Some(c) => val(j) - val(i) <= c as i128,
            })
        })
    }

    /// Adds `k` unconstrained variables, numbered `n .. n+k`.
    pub fn add_vars(&mut self, k: usize) {
        self.dbm.add_vars(k);
    }

    /// Removes the variables in `drop` (projection: the constraints among the
    /// remaining variables, including those implied through the dropped
    /// ones, are kept); the others are renumbered in order.
    pub fn remove_vars(&mut self, drop: &[usize]) {
        self.close();
        let n = self.vars() - (0..self.vars()).filter(|v| drop.contains(v)).count();
        if self.form == Form::Empty {
            *self = Octagon::bottom(n);
        } else {
            self.dbm = self.dbm.remove_vars(drop);
        }
    }

    /// The octagon whose variable `k` is `self`'s variable `map[k]`, or a
    /// fresh unconstrained variable when `map[k]` is `None`. Used to bring two
    /// octagons over different variable sets to a common one. Sound and
    /// exact: `γ(result)` = points whose `map`-image lies in `γ(self)`.
    pub fn embed(&self, map: &[Option<usize>]) -> Octagon {
        match self.canonical() {
            None => Octagon::bottom(map.len()),
            Some(d) => Octagon { dbm: d.embed(map), form: Form::Closed },
        }
    }

    /// The octagon over `keep[0], keep[1], …` (renumbered `0, 1, …`): a
    /// projection (and, if `keep` repeats or reorders, a permutation).
    pub fn select(&self, keep: &[usize]) -> Octagon {
        match self.canonical() {
            None => Octagon::bottom(keep.len()),
            Some(d) => Octagon { dbm: d.select(keep), form: Form::Closed },
        }
    }
}

/// The interval of `x` read off a closed DBM: `2x ≤ m[2x+1][2x]`,
/// `−2x ≤ m[2x][2x+1]`.
pub(crate) fn interval_in(d: &Dbm, x: usize) -> Interval {
    let hi = d.get(2 * x + 1, 2 * x).get().map(|c| c.div_euclid(2));
    let lo = d.get(2 * x, 2 * x + 1).get().map(|c| -(c.div_euclid(2)));
    Interval::new(lo, hi)
}
