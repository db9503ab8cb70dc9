//! The precision of the variable-tracking CPAs (Value, Octagon): which
//! program variables they track, and where.
//!
//! [`TrackingPrecision`] is the one precision type both CPAs use: all
//! variables, a fixed set, or a refinable `π : L → 2^X`.
//!
//! In the CPA+ formalism a precision π tells the precision adjustment what
//! to keep. For the explicit-value analysis of Beyer & Löwe (FASE 2013) and
//! for the octagon analysis with CEGAR, the precision is a function
//! `π : L → 2^X` from CFA locations to the program variables tracked there.
//! [`VarPrecision`] is that function: a set of variables tracked at every
//! location (`global`, used by the octagon backup refiner) plus a set per
//! location (`local`, filled by explicit-value interpolation). It starts
//! empty and only grows: every CEGAR refinement adds variables, so a
//! refined analysis is never coarser than the previous one.

use cfa::{NodeId, Program, VarId};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The precision π of a variable-tracking CPA (Value, Octagon): which
/// variables it keeps (where). The precision adjustment forgets the others.
#[derive(Clone, Debug)]
pub enum TrackingPrecision {
    /// Track every variable (static full precision).
    Full,
    /// Track only these, at every location (empty = track nothing).
    Tracked(BTreeSet<VarId>),
    /// Track per location what CEGAR's refinements found necessary
    /// (`π(l)`, see [`VarPrecision`]); shared by all states of a run.
    Refined(Arc<VarPrecision>),
}

impl PartialEq for TrackingPrecision {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (TrackingPrecision::Full, TrackingPrecision::Full) => true,
            (TrackingPrecision::Tracked(a), TrackingPrecision::Tracked(b)) => a == b,
            // One refined precision is shared by a whole run: pointer
            // equality is the fast path.
            (TrackingPrecision::Refined(a), TrackingPrecision::Refined(b)) => Arc::ptr_eq(a, b) || a == b,
            _ => false,
        }
    }
}

impl Eq for TrackingPrecision {}

impl TrackingPrecision {
    /// Whether `var` is tracked at `location` (`None`: a state without a
    /// location).
    pub fn tracks_at(&self, location: Option<NodeId>, var: VarId) -> bool {
        match self {
            TrackingPrecision::Full => true,
            TrackingPrecision::Tracked(t) => t.contains(&var),
            TrackingPrecision::Refined(p) => p.tracks(location, var),
        }
    }

    /// BAM's reduced precision as a key ([`crate::cpa::Cpa::block_precision_key`]):
    /// the global part and the per-location entries at locations of
    /// `functions`; entries elsewhere do not change a block analysis.
    pub fn block_key(&self, program: &Program, functions: &BTreeSet<cfa::FuncId>) -> String {
        match self {
            TrackingPrecision::Full | TrackingPrecision::Tracked(_) => format!("{self:?}"),
            TrackingPrecision::Refined(p) => {
                let inside = |l: &NodeId| program.nodes.get(l.0 as usize).is_some_and(|n| functions.contains(&n.function));
                let local: Vec<_> = p.local.iter().filter(|(l, _)| inside(l)).collect();
                format!("refined {:?} {:?}", p.global, local)
            }
        }
    }

    /// The precision in words for the trace: `all variables`, the tracked
    /// set `{x, y}` (each variable spelled by `name`), or the refined π
    /// ([`VarPrecision::describe`]).
    pub fn describe(&self, program: &Program, name: impl Fn(VarId) -> String) -> String {
        match self {
            TrackingPrecision::Full => "all variables".into(),
            TrackingPrecision::Refined(p) => p.describe(program),
            TrackingPrecision::Tracked(t) => {
                let names: Vec<String> = t.iter().map(|v| name(*v)).collect();
                format!("{{{}}}", names.join(", "))
            }
        }
    }
}

/// A precision `π : L → 2^X`: which variables a CPA tracks at which
/// location. `π(l) = global ∪ local[l]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct VarPrecision {
    /// Variables tracked at every location.
    pub global: BTreeSet<VarId>,
    /// Variables tracked at one location only (from interpolants).
    pub local: BTreeMap<NodeId, BTreeSet<VarId>>,
}

impl VarPrecision {
    /// The empty precision π₀ = ∅ (track nothing): where CEGAR starts.
    pub fn empty() -> Self {
        VarPrecision::default()
    }

    /// Whether `var` is tracked at `location` (`None`: a state without a
    /// location, where only the global set applies).
    pub fn tracks(&self, location: Option<NodeId>, var: VarId) -> bool {
        self.global.contains(&var) || location.and_then(|l| self.local.get(&l)).is_some_and(|s| s.contains(&var))
    }

    /// Adds `var` at `location`; returns whether π grew.
    pub fn add_local(&mut self, location: NodeId, var: VarId) -> bool {
        if self.global.contains(&var) {
            return false;
        }
        self.local.entry(location).or_default().insert(var)
    }

    /// Adds `var` at every location; returns whether π grew.
    pub fn add_global(&mut self, var: VarId) -> bool {
        let grew = self.global.insert(var);
        // Local entries of a global variable are redundant.
        for s in self.local.values_mut() {
            s.remove(&var);
        }
        self.local.retain(|_, s| !s.is_empty());
        grew
    }

    /// Whether nothing is tracked anywhere.
    pub fn is_empty(&self) -> bool {
        self.global.is_empty() && self.local.values().all(BTreeSet::is_empty)
    }

    /// Every variable tracked somewhere.
    pub fn variables(&self) -> BTreeSet<VarId> {
        let mut out = self.global.clone();
        for s in self.local.values() {
            out.extend(s.iter().copied());
        }
        out
    }

    /// The (location, variable) pairs of `self` that `old` does not have:
    /// what a refinement added (global entries have location `None`).
    pub fn added_since(&self, old: &VarPrecision) -> Vec<(Option<NodeId>, VarId)> {
        let mut out: Vec<(Option<NodeId>, VarId)> =
            self.global.iter().filter(|v| !old.global.contains(v)).map(|v| (None, *v)).collect();
        for (l, s) in &self.local {
            for v in s {
                if !old.tracks(Some(*l), *v) {
                    out.push((Some(*l), *v));
                }
            }
        }
        out
    }

    /// The precision in words: `{flag} everywhere; N5: {x}; N7: {x, y}`.
    pub fn describe(&self, program: &Program) -> String {
        let name =
            |v: &VarId| program.variables.get(v.0 as usize).map(|x| x.qualified.clone()).unwrap_or_else(|| format!("v{}", v.0));
        let set = |s: &BTreeSet<VarId>| format!("{{{}}}", s.iter().map(name).collect::<Vec<_>>().join(", "));
        if self.is_empty() {
            return "{} (nothing tracked)".into();
        }
        let mut parts = Vec::new();
        if !self.global.is_empty() {
            parts.push(format!("{} everywhere", set(&self.global)));
        }
        for (l, s) in &self.local {
            if !s.is_empty() {
                parts.push(format!("{l}: {}", set(s)));
            }
        }
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracks_global_and_local_entries() {
        let mut p = VarPrecision::empty();
        assert!(p.is_empty());
        assert!(p.add_local(NodeId(3), VarId(1)));
        assert!(!p.add_local(NodeId(3), VarId(1)));
        assert!(p.tracks(Some(NodeId(3)), VarId(1)));
        assert!(!p.tracks(Some(NodeId(4)), VarId(1)));
        assert!(!p.tracks(None, VarId(1)));
        assert!(p.add_global(VarId(1)));
        assert!(p.tracks(Some(NodeId(4)), VarId(1)));
        assert!(p.local.is_empty(), "a global variable needs no local entries");
        let old = p.clone();
        p.add_local(NodeId(9), VarId(2));
        assert_eq!(p.added_since(&old), vec![(Some(NodeId(9)), VarId(2))]);
    }

    #[test]
    fn tracking_precision_tracks_per_kind() {
        let mut refined = VarPrecision::empty();
        refined.add_local(NodeId(2), VarId(0));
        let r = TrackingPrecision::Refined(Arc::new(refined));
        assert!(r.tracks_at(Some(NodeId(2)), VarId(0)));
        assert!(!r.tracks_at(Some(NodeId(3)), VarId(0)));
        let t = TrackingPrecision::Tracked([VarId(1)].into_iter().collect());
        assert!(t.tracks_at(None, VarId(1)) && !t.tracks_at(None, VarId(0)));
        assert!(TrackingPrecision::Full.tracks_at(None, VarId(7)));
        assert_ne!(t, TrackingPrecision::Full);
    }
}
