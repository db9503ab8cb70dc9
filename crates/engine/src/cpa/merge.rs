//! The merge operator of a CPA, `merge(e, e', π)`, and the stock operators
//! merge^sep and merge^join (CPAchecker's defaults).

use super::AbstractDomain;
use serde::{Deserialize, Serialize};

/// Which merge operator a [`MergeOperator`] is (recorded in
/// [`crate::trace::Event::Merge`] and the run's info).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MergeKind {
    /// merge^sep(e, e') = e': never combines states.
    Sep,
    /// merge^join(e, e') = e ⊔ e'.
    Join,
    /// merge^widening(e, e') = e' ∇ (e ⊔ e') (octagons).
    Widening,
}

impl MergeKind {
    /// The name as written in the papers: `sep`, `join`, `widening`.
    pub fn name(self) -> &'static str {
        match self {
            MergeKind::Sep => "sep",
            MergeKind::Join => "join",
            MergeKind::Widening => "widening",
        }
    }
}

/// A merge operator: `merge(e, e', π)` combines a new state `e` with a
/// reached state `e'`; the result replaces `e'` when it differs.
///
/// Contract: `e' ⊑ merge(e, e', π)` (the result may only lose precision
/// with respect to the reached state, so nothing reached is forgotten).
pub trait MergeOperator<S, P> {
    /// Which operator this is, for the trace.
    fn kind(&self) -> MergeKind;
    /// Which operator applies to this particular pair (e.g. a composite
    /// applies merge^sep when the locations or call stacks disagree, an
    /// octagon merge may join only at loop heads). Defaults to [`Self::kind`].
    fn kind_for(&self, _new: &S, _reached: &S) -> MergeKind {
        self.kind()
    }
    /// `merge(new, reached, precision)`.
    fn merge(&self, new: &S, reached: &S, precision: &P) -> S;
}

// ---------------------------------------------------------------------------
// Stock operators
// ---------------------------------------------------------------------------

/// merge^sep(e, e') = e': never combine (path-sensitive, precise, may not
/// terminate on loops without a stop that covers).
#[derive(Clone, Copy, Debug, Default)]
pub struct MergeSep;

impl<S: Clone, P> MergeOperator<S, P> for MergeSep {
    fn kind(&self) -> MergeKind {
        MergeKind::Sep
    }
    fn merge(&self, _new: &S, reached: &S, _precision: &P) -> S {
        reached.clone()
    }
}

/// merge^join(e, e') = e ⊔ e': combine every new state with the reached
/// ones at the same location (data-flow analysis style).
#[derive(Clone, Debug, Default)]
pub struct MergeJoin<D>(pub D);

impl<D: AbstractDomain, P> MergeOperator<D::State, P> for MergeJoin<D> {
    fn kind(&self) -> MergeKind {
        MergeKind::Join
    }
    fn merge(&self, new: &D::State, reached: &D::State, _precision: &P) -> D::State {
        self.0.join(new, reached)
    }
}
