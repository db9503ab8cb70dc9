//! The Octagon CPA's abstract states and its domain: ⊑ and ⊔ on the
//! octagon and on the saved frames of suspended calls.

use super::*;

/// An octagon state: the octagon over all program variables, the saved
/// callee variables of each suspended activation, and whether the state sits
/// at a loop head (for `onlyMergeAtLoopHeads`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctagonState {
    /// The octagon; dimension `i` is the variable `VarId(i)`.
    pub octagon: Octagon,
    /// For each active call (innermost last): the octagon projected on the
    /// callee's variables (parameters, locals, return slot) as they were in
    /// the caller's context; restored on return. Empty while inside a call
    /// means "unknown" (the return then forgets them).
    pub frames: Vec<Octagon>,
    /// Whether the state's location is a loop head.
    pub at_loop_head: bool,
}

/// The octagon domain lifted to [`OctagonState`]s.
#[derive(Clone, Copy, Debug, Default)]
pub struct OctagonDomain;

impl AbstractDomain for OctagonDomain {
    type State = OctagonState;
    /// `γ(a) ⊆ γ(b)` (on the octagons and the saved frames; an empty frame
    /// list in `b` is the ⊤ of frames). Frames of different activations
    /// (different variable sets, possible only without the Callstack CPA,
    /// which configuration validation requires for programs with calls)
    /// are incomparable.
    fn is_less_or_equal(&self, a: &OctagonState, b: &OctagonState) -> bool {
        a.octagon.vars() == b.octagon.vars()
            && a.octagon.leq(&b.octagon)
            && (b.frames.is_empty()
                || (a.frames.len() == b.frames.len()
                    && a.frames.iter().zip(&b.frames).all(|(x, y)| x.vars() == y.vars() && x.leq(y))))
    }
    /// The octagon hull, frame by frame.
    fn join(&self, a: &OctagonState, b: &OctagonState) -> OctagonState {
        OctagonState {
            octagon: a.octagon.join(&b.octagon),
            frames: join_frames(&a.frames, &b.frames),
            at_loop_head: b.at_loop_head,
        }
    }
}

/// The frames of `a ⊔ b`, pairwise; the ⊤ of frames (none: the return
/// forgets the callee's variables) when the stacks differ in height or in a
/// frame's variables.
pub(super) fn join_frames(a: &[Octagon], b: &[Octagon]) -> Vec<Octagon> {
    if a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.vars() == y.vars()) {
        a.iter().zip(b).map(|(x, y)| x.join(y)).collect()
    } else {
        Vec::new()
    }
}
