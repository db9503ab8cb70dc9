//! The precision adjustment `prec(e, π, R) = (ê, π̂)` of a CPA, and the
//! static one that changes nothing. (The precisions themselves are the
//! CPAs' own types; the variable-tracking one is [`crate::precision`].)

use cfa::NodeId;

/// The precision adjustment `prec(e, π, R) = (ê, π̂)`: may widen a state
/// under a (possibly changed) precision.
///
/// Contract: `γ(e) ⊆ γ(ê)`. (Our CPAs do not consult the reached set; it is
/// omitted from the signature.)
pub trait PrecisionAdjustment<S, P> {
    /// `(ê, π̂)`; return clones when nothing changes.
    fn prec(&self, state: &S, precision: &P) -> (S, P);
    /// `prec` for a state at a known CFA `location` (the composite passes
    /// its location component's node), for precisions that differ per
    /// location (`π : L → 2^X`, as CEGAR refines them). Defaults to
    /// [`Self::prec`]; same contract.
    fn prec_at(&self, state: &S, precision: &P, _location: Option<NodeId>) -> (S, P) {
        self.prec(state, precision)
    }
}

/// The static precision adjustment: `prec(e, π) = (e, π)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct StaticPrecision;

impl<S: Clone, P: Clone> PrecisionAdjustment<S, P> for StaticPrecision {
    fn prec(&self, state: &S, precision: &P) -> (S, P) {
        (state.clone(), precision.clone())
    }
}
