//! The transfer relation ⇝ ⊆ E × G × E × Π of a CPA (with strengthening ↓
//! for composites), and the error that ends a run when a transfer cannot be
//! computed soundly.

use cfa::Edge;
use std::any::Any;

/// Why a transfer could not be computed soundly: the analysis must stop with
/// UNKNOWN and this reason (e.g. "recursion deeper than 32").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransferError {
    /// The reason, in words, shown as the UNKNOWN verdict's reason.
    pub reason: String,
}

impl TransferError {
    /// A transfer error with this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        TransferError { reason: reason.into() }
    }
}

/// The transfer relation ⇝: the abstract successors of a state along one CFA
/// edge, under a precision.
///
/// Soundness contract: for every concrete state c ∈ γ(e) and every concrete
/// step c —g→ c', some returned successor e' has c' ∈ γ(e'). Returning no
/// successor claims the edge cannot be taken from any c ∈ γ(e).
pub trait TransferRelation {
    /// The abstract states.
    type State;
    /// The precision the transfer may consult (e.g. which variables to track).
    type Precision;

    /// The successors of `state` along `edge` (whose source is the state's
    /// location). An `Err` stops the whole analysis with UNKNOWN.
    fn successors(
        &self,
        state: &Self::State,
        edge: &Edge,
        precision: &Self::Precision,
    ) -> Result<Vec<Self::State>, TransferError>;

    /// Strengthening ↓ (composite CPAs): after every component computed its
    /// successor along `edge`, a component may refine its own part using the
    /// other components' parts (`others`, downcast what you know). `None`
    /// means the combination is infeasible (⊥).
    ///
    /// Contract: the result must still contain every concrete state that the
    /// product of all components represents. The default changes nothing.
    fn strengthen(
        &self,
        state: &Self::State,
        _others: &[&dyn Any],
        _edge: &Edge,
        _precision: &Self::Precision,
    ) -> Option<Self::State>
    where
        Self::State: Clone,
    {
        Some(state.clone())
    }
}
