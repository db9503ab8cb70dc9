//! The lattice operations of the octagon domain: ⊑, ⊔, ⊓ (widening ∇ is in
//! [`super::widening`]).
//!
//! All of them (and ∇) are cell-wise on DBMs, which is why closure matters:
//!
//! * `a ⊑ b` iff every cell of *closed* `a` is `≤` the cell of `b`. On open
//!   matrices the test is sound but incomplete (it may answer "no" for
//!   `x ≤ 1 ∧ y ≤ x` against `y ≤ 1`), so we compare closed forms — trying
//!   the raw cells of an open `b` first, which settles most stop checks
//!   against widened states without closing them.
//! * `a ⊔ b` = cell-wise `max` of the closed forms: the least octagon
//!   containing both (`γ(a) ∪ γ(b) ⊆ γ(a ⊔ b)`). The max of two (tightly)
//!   closed DBMs is again (tightly) closed, so the join stays closed for free.
//! * `a ⊓ b` = cell-wise `min`: exactly `γ(a) ∩ γ(b)`; the result is open.
//!
//! Widening `a ∇ b` is in [`super::widening`].

use super::dbm::Dbm;
use super::kernels;
use super::{Form, Octagon};

impl Octagon {
    /// `self ⊑ other`, i.e. `γ(self) ⊆ γ(other)` (exact: decided on the
    /// closed forms).
    pub fn leq(&self, other: &Octagon) -> bool {
        assert_eq!(self.vars(), other.vars(), "octagons over different variables");
        let Some(a) = self.canonical() else { return true };
        if other.form == Form::Open && kernels::all_le(&a.m, &other.dbm.m) {
            // Closed, non-empty `a` below the raw cells of `other`: every
            // point of `a` satisfies every constraint of `other`. This spares
            // closing (a copy of) a widened state at every stop check.
            return true;
        }
        let Some(b) = other.canonical() else { return false };
        kernels::all_le(&a.m, &b.m)
    }

    /// `self ⊔ other`: the least upper bound (cell-wise max of the closed
    /// forms). Sound: `γ(self) ∪ γ(other) ⊆ γ(self ⊔ other)`. Closed.
    pub fn join(&self, other: &Octagon) -> Octagon {
        assert_eq!(self.vars(), other.vars(), "octagons over different variables");
        let Some(a) = self.canonical() else { return other.closed().into_owned() };
        let Some(b) = other.canonical() else { return self.closed().into_owned() };
        let m = kernels::max_cells(&a.m, &b.m);
        Octagon { dbm: Dbm { n: a.vars(), m }, form: Form::Closed }
    }

    /// `self ⊓ other`: the greatest lower bound, `γ(self) ∩ γ(other)` exactly
    /// (cell-wise min). The result is open (closed lazily).
    pub fn meet(&self, other: &Octagon) -> Octagon {
        assert_eq!(self.vars(), other.vars(), "octagons over different variables");
        if self.known_bottom() || other.known_bottom() {
            return Octagon::bottom(self.vars());
        }
        let m = kernels::min_cells(&self.dbm.m, &other.dbm.m);
        Octagon { dbm: Dbm { n: self.vars(), m }, form: Form::Open }
    }
}
