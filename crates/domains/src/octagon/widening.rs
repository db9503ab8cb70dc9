//! Widening `a ∇ b` of the octagon domain, with and without thresholds:
//! keep the cells of the previous iterate `a` that `b` respects, and let the
//! others jump to `+∞` (or, with thresholds, to the next threshold first).
//! Widening is what makes an analysis with merge^widening terminate on
//! loops.
//!
//! # Convergence
//!
//! Every cell of a widening chain `w_{k+1} = w_k ∇ x_{k+1}` either stays put
//! or jumps to `+∞`, and `+∞` is final, so the chain is stable after at most
//! `2n(n+1)` (the number of stored cells) strict increases. With thresholds a
//! cell may instead climb through the finite, sorted list of constants first,
//! so at most `2n(n+1)·(|thresholds| + 1)` increases.
//!
//! **The left argument must not be closed between widening steps.** Closure
//! re-derives a cell that widening just dropped to `+∞` from the cells that
//! remained (e.g. `x ≤ y` and `y ≤ 10` bring back `x ≤ 10`), so alternating
//! "close, widen" can climb forever (Miné 2006, §4.7). Hence
//! [`Octagon::widen`] reads `self` *as stored* and returns an open octagon,
//! and the read-only operations close copies, never the iterate itself. The
//! right argument may (and should) be closed: that only makes the result
//! more precise.

use super::dbm::{Dbm, INF};
use super::kernels;
use super::{Form, Octagon};

impl Octagon {
    /// Standard widening `self ∇ next` (`self` = previous iterate, as stored;
    /// `next` is closed first). Upper bound: `γ(self) ∪ γ(next) ⊆ γ(result)`.
    /// The result is left open — see the module docs for why.
    pub fn widen(&self, next: &Octagon) -> Octagon {
        self.widen_with_thresholds(next, &[])
    }

    /// Widening with thresholds: a growing cell jumps to the smallest
    /// threshold `t` (sorted ascending) with `t ≥` the new bound — for a unary
    /// cell, which bounds `2·x`, to `2t` — or to `+∞` if there is none.
    /// Upper bound like [`Octagon::widen`]; converges (see `# Convergence`).
    pub fn widen_with_thresholds(&self, next: &Octagon, thresholds: &[i64]) -> Octagon {
        assert_eq!(self.vars(), next.vars(), "octagons over different variables");
        if self.known_bottom() {
            return next.clone();
        }
        let Some(b) = next.canonical() else { return self.clone() };
        let a = &self.dbm;
        if thresholds.is_empty() {
            let m = kernels::widen_cells(&a.m, &b.m);
            return Octagon { dbm: Dbm { n: a.vars(), m }, form: Form::Open };
        }
        let mut out = a.clone();
        let n2 = 2 * a.vars();
        let mut k = 0;
        for i in 0..n2 {
            for j in 0..=(i | 1) {
                let (old, new) = (a.m[k], b.m[k]);
                if new > old {
                    let unary = j == (i ^ 1);
                    out.m[k] = next_threshold(new, thresholds, unary);
                }
                k += 1;
            }
        }
        Octagon { dbm: out, form: Form::Open }
    }
}

/// The smallest threshold bound `≥ c` (`2t` for unary cells), else `+∞`.
fn next_threshold(c: i64, thresholds: &[i64], unary: bool) -> i64 {
    let scale = |t: i64| if unary { t.checked_mul(2).unwrap_or(INF) } else { t };
    let p = thresholds.partition_point(|&t| scale(t) < c);
    thresholds.get(p).map_or(INF, |&t| scale(t))
}
