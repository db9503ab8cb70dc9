//! Finite unions of closed intervals: the value sets of one variable that
//! the decision procedure computes. The same set serves the bit-vector
//! values `[0, 2^w)` (`u128`) and the integers (`i128`, whose extreme values
//! stand for −∞ and +∞); what differs — the complement, the size — lives
//! with each kind of variable.

use super::MAX_INTERVALS;

/// A value set: sorted, disjoint, non-adjacent closed intervals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Set<T>(pub(super) Vec<(T, T)>);

/// A value type of the sets: ordered, with a successor that stops at the
/// type's largest value (so an interval ending there is adjacent to none).
pub(super) trait Bound: Copy + Ord {
    fn next_up(self) -> Self;
}

impl Bound for u128 {
    fn next_up(self) -> u128 {
        self.saturating_add(1)
    }
}

impl Bound for i128 {
    fn next_up(self) -> i128 {
        self.saturating_add(1)
    }
}

impl<T: Bound> Set<T> {
    pub(super) fn empty() -> Set<T> {
        Set(Vec::new())
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Drops empty intervals, sorts, and merges overlapping or adjacent ones.
    pub(super) fn normalized(mut v: Vec<(T, T)>) -> Set<T> {
        v.retain(|&(lo, hi)| lo <= hi);
        v.sort_unstable();
        let mut out: Vec<(T, T)> = Vec::with_capacity(v.len());
        for (lo, hi) in v {
            match out.last_mut() {
                Some(last) if lo <= last.1.next_up() => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        Set(out)
    }

    pub(super) fn union(&self, other: &Set<T>) -> Set<T> {
        Set::normalized(self.0.iter().chain(&other.0).copied().collect())
    }

    pub(super) fn intersect(&self, other: &Set<T>) -> Set<T> {
        let (a, b) = (&self.0, &other.0);
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::new();
        while i < a.len() && j < b.len() {
            let lo = a[i].0.max(b[j].0);
            let hi = a[i].1.min(b[j].1);
            if lo <= hi {
                out.push((lo, hi));
            }
            if a[i].1 < b[j].1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        Set(out)
    }

    /// The set itself, or `None` (give up) when it has more than
    /// [`MAX_INTERVALS`] intervals.
    pub(super) fn within_limit(self) -> Option<Set<T>> {
        (self.0.len() <= MAX_INTERVALS).then_some(self)
    }
}
