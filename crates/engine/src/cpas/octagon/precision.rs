//! The Octagon CPA's precision adjustment: forget the variables the
//! precision π does not track at the state's location.

use super::*;

/// The Octagon CPA's precision adjustment: forget every untracked variable
/// (it keeps only the values of its type, see [`OctagonCpa`]).
#[derive(Clone, Debug)]
pub struct OctagonPrecisionAdjustment {
    /// What an unknown value of each variable may be.
    unknown: Vec<Interval>,
    /// The DBM's unary cells `(+v → −v, −v → +v)` of a forgotten variable
    /// (from `unknown`), to skip forgetting what is already forgotten.
    unknown_cells: Vec<(domains::Bound, domains::Bound)>,
}

impl OctagonPrecisionAdjustment {
    pub(super) fn new(unknown: Vec<Interval>) -> Self {
        let unknown_cells = unknown
            .iter()
            .map(|itv| {
                let mut o = Octagon::top(1);
                o.assign_interval(0, *itv);
                (o.dbm().get(0, 1), o.dbm().get(1, 0))
            })
            .collect();
        OctagonPrecisionAdjustment { unknown, unknown_cells }
    }

    /// Whether variable `v` of `o` is already as forgetting leaves it: no
    /// relation with another variable in the stored DBM and exactly the
    /// unary bounds of an unknown value (then forgetting cannot change γ).
    fn already_forgotten(&self, o: &Octagon, v: usize) -> bool {
        let d = o.dbm();
        let (p, m) = (2 * v, 2 * v + 1);
        let Some(cells) = self.unknown_cells.get(v) else { return false };
        if d.get(p, m) != cells.0 || d.get(m, p) != cells.1 {
            return false;
        }
        (0..2 * d.vars()).all(|j| j == p || j == m || (d.get(p, j).is_inf() && d.get(m, j).is_inf()))
    }
}

impl PrecisionAdjustment<OctagonState, TrackingPrecision> for OctagonPrecisionAdjustment {
    fn prec(&self, state: &OctagonState, precision: &TrackingPrecision) -> (OctagonState, TrackingPrecision) {
        self.prec_at(state, precision, None)
    }
    /// Forgets (back to "any value of its type") every variable that
    /// `π(location)` does not track.
    fn prec_at(
        &self,
        state: &OctagonState,
        precision: &TrackingPrecision,
        location: Option<NodeId>,
    ) -> (OctagonState, TrackingPrecision) {
        if matches!(precision, TrackingPrecision::Full) {
            return (state.clone(), precision.clone());
        }
        let n = state.octagon.vars();
        let forget: Vec<usize> = (0..self.unknown.len().min(n))
            .filter(|&v| !precision.tracks_at(location, VarId(v as u32)) && !self.already_forgotten(&state.octagon, v))
            .collect();
        if forget.is_empty() {
            return (state.clone(), precision.clone());
        }
        let mut s = state.clone();
        for v in forget {
            s.octagon.assign_interval(v, self.unknown[v]);
        }
        // Closed once here rather than in every later comparison.
        s.octagon.close();
        (s, precision.clone())
    }
}
