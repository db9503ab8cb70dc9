//! The abstract domain A = (C, E, ⊑, ⊔, γ) of a CPA: the partial order and
//! the join on abstract states.

/// An abstract domain: the partial order ⊑ and the join ⊔ on abstract states.
///
/// Contract: ⊑ is a preorder that agrees with the concretization
/// (`e ⊑ e' ⇒ γ(e) ⊆ γ(e')`); `join(a, b)` is an upper bound of both
/// (`a ⊑ a ⊔ b` and `b ⊑ a ⊔ b`).
pub trait AbstractDomain {
    /// The abstract states E.
    type State;
    /// `a ⊑ b`: every concrete state `a` represents is represented by `b`.
    fn is_less_or_equal(&self, a: &Self::State, b: &Self::State) -> bool;
    /// `a ⊔ b`: an upper bound of both (the least one where it exists).
    fn join(&self, a: &Self::State, b: &Self::State) -> Self::State;
}
