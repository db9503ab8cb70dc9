//! The Octagon CPA's merge operator (merge^sep, merge^join,
//! merge^widening = e' ∇ (e ⊔ e'), optionally only at loop heads) and the
//! widening thresholds taken from the program's constants.

use super::*;

/// The Octagon CPA's merge operator: merge^sep, merge^join or
/// merge^widening, optionally only at loop heads.
#[derive(Clone, Debug)]
pub struct OctagonMerge {
    /// The operator (`cpa.octagon.mergeop.type`).
    pub kind: MergeKind,
    /// `cpa.octagon.mergeop.onlyMergeAtLoopHeads`.
    pub only_at_loop_heads: bool,
    /// Widening thresholds (sorted, ascending); empty = standard widening.
    pub thresholds: Arc<Vec<i64>>,
}

impl MergeOperator<OctagonState, TrackingPrecision> for OctagonMerge {
    fn kind(&self) -> MergeKind {
        self.kind
    }
    /// merge^sep away from loop heads when `onlyMergeAtLoopHeads` is set.
    fn kind_for(&self, _new: &OctagonState, reached: &OctagonState) -> MergeKind {
        if self.only_at_loop_heads && !reached.at_loop_head {
            MergeKind::Sep
        } else {
            self.kind
        }
    }
    /// merge^sep(e, e') = e'; merge^join(e, e') = e ⊔ e';
    /// merge^widening(e, e') = e' ∇ (e ⊔ e'). When `e ⊑ e'` every operator
    /// returns `e'` itself (nothing to add).
    fn merge(&self, new: &OctagonState, reached: &OctagonState, _p: &TrackingPrecision) -> OctagonState {
        let kind = self.kind_for(new, reached);
        if kind == MergeKind::Sep || OctagonDomain.is_less_or_equal(new, reached) {
            return reached.clone();
        }
        let joined = OctagonDomain.join(new, reached);
        match kind {
            MergeKind::Join => joined,
            _ => OctagonState {
                octagon: reached.octagon.widen_with_thresholds(&joined.octagon, &self.thresholds),
                frames: joined.frames,
                at_loop_head: reached.at_loop_head,
            },
        }
    }
}

/// The widening thresholds of a program: every integer constant `c` on its
/// edges with `c − 1`, `c + 1` and their negations, sorted.
pub fn program_thresholds(program: &Program) -> Vec<i64> {
    fn collect(e: &Expr, out: &mut BTreeSet<i64>) {
        match e {
            Expr::Const { value, .. } => {
                for d in [-1i128, 0, 1] {
                    for s in [1i128, -1] {
                        let v = s * (value + d);
                        if v.abs() < (1i128 << 62) {
                            out.insert(v as i64);
                        }
                    }
                }
            }
            Expr::Var { .. } => {}
            Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => collect(arg, out),
            Expr::Binary { lhs, rhs, .. } => {
                collect(lhs, out);
                collect(rhs, out);
            }
        }
    }
    let mut out = BTreeSet::new();
    for edge in &program.edges {
        for e in edge.kind.expressions() {
            collect(e, &mut out);
        }
    }
    out.into_iter().collect()
}
