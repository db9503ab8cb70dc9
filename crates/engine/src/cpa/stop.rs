//! The stop operator of a CPA, `stop(e, R, π)` (coverage by the reached
//! set), and the stock operators stop^sep, stop^join and stop^never.

use super::AbstractDomain;
use serde::{Deserialize, Serialize};

/// Which stop operator a [`StopOperator`] is (recorded in
/// [`crate::trace::Event::Stop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StopKind {
    /// stop^sep(e, R) = ∃e' ∈ R: e ⊑ e'.
    Sep,
    /// stop^join(e, R) = e ⊑ ⊔R.
    Join,
    /// stop^never(e, R) = false: no state is ever covered, so every path
    /// is explored on its own (symbolic execution's tree; terminates only
    /// when the tree is finite).
    Never,
}

impl StopKind {
    /// `sep`, `join` or `never` (as in the configuration and the trace).
    pub fn name(self) -> &'static str {
        match self {
            StopKind::Sep => "sep",
            StopKind::Join => "join",
            StopKind::Never => "never",
        }
    }
}

/// The answer of a stop operator: whether the state is covered and by which
/// reached states (indices into the slice passed to [`StopOperator::stop`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// `stop(e, R)`.
    pub covered: bool,
    /// The reached states that cover `e` (the witness for stop^sep, all of
    /// `R` for stop^join).
    pub by: Vec<usize>,
}

/// A stop operator: decides whether a new state is already covered by the
/// reached set.
///
/// Contract: `stop(e, R, π) ⇒ γ(e) ⊆ ∪{γ(e') | e' ∈ R}`.
pub trait StopOperator<S, P> {
    /// Which operator this is, for the trace.
    fn kind(&self) -> StopKind;
    /// `stop(state, reached, precision)`.
    fn stop(&self, state: &S, reached: &[&S], precision: &P) -> Coverage;
}

// ---------------------------------------------------------------------------
// Stock operators
// ---------------------------------------------------------------------------

/// stop^sep(e, R) = ∃e' ∈ R: e ⊑ e'.
#[derive(Clone, Debug, Default)]
pub struct StopSep<D>(pub D);

impl<D: AbstractDomain, P> StopOperator<D::State, P> for StopSep<D> {
    fn kind(&self) -> StopKind {
        StopKind::Sep
    }
    fn stop(&self, state: &D::State, reached: &[&D::State], _precision: &P) -> Coverage {
        match reached.iter().position(|r| self.0.is_less_or_equal(state, r)) {
            Some(i) => Coverage { covered: true, by: vec![i] },
            None => Coverage::default(),
        }
    }
}

/// stop^join(e, R) = e ⊑ ⊔R: covered by the join of all reached states.
///
/// Contract caveat: γ(e) ⊆ γ(⊔R) implies the stop contract
/// γ(e) ⊆ ∪γ(R) only when the domain's join is exact (γ(⊔R) = ∪γ(R), as
/// for powerset domains like the mock's tag sets). For domains whose join
/// over-approximates (values, octagons) stop^join may cover states no
/// reached state covers — it is offered for teaching that very point.
#[derive(Clone, Debug, Default)]
pub struct StopJoin<D>(pub D);

impl<D: AbstractDomain, P> StopOperator<D::State, P> for StopJoin<D>
where
    D::State: Clone,
{
    fn kind(&self) -> StopKind {
        StopKind::Join
    }
    fn stop(&self, state: &D::State, reached: &[&D::State], _precision: &P) -> Coverage {
        let Some((first, rest)) = reached.split_first() else {
            return Coverage::default();
        };
        let mut acc: D::State = (*first).clone();
        for r in rest {
            acc = self.0.join(&acc, r);
        }
        if self.0.is_less_or_equal(state, &acc) {
            Coverage { covered: true, by: (0..reached.len()).collect() }
        } else {
            Coverage::default()
        }
    }
}

/// stop^never(e, R) = false: trivially satisfies the stop contract (it
/// never claims coverage). With merge^sep and a DFS waitlist the CPA+
/// algorithm becomes plain symbolic execution: the ARG is the
/// symbolic-execution tree.
#[derive(Clone, Copy, Debug, Default)]
pub struct StopNever;

impl<S, P> StopOperator<S, P> for StopNever {
    fn kind(&self) -> StopKind {
        StopKind::Never
    }
    fn stop(&self, _state: &S, _reached: &[&S], _precision: &P) -> Coverage {
        Coverage::default()
    }
}
