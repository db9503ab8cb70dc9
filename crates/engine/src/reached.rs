//! The reached set of the CPA+ algorithm: the set `reached` of the
//! pseudo-code (see [`crate::algorithm`]), the states the analysis has kept
//! so far — what it returns as the fixpoint when the waitlist runs empty.
//!
//! As in CPAchecker the set is partitioned by CFA location: merge and stop
//! for a successor `e'` only look at the reached states at `e'`'s location
//! ([`ReachedSet::at`]). Within a partition the states keep the order in
//! which they (last) entered the set, and a *coverage index* groups them by
//! the CPA's [`crate::cpa::Cpa::index_shape`] and then by
//! [`crate::cpa::Cpa::index_hash`], so stop^sep can skip states that cannot
//! cover ([`ReachedSet::cover_candidates`]). The index only ever changes the
//! speed, never which state covers.
//!
//! The set holds [`StateId`]s; the states themselves live in the algorithm's
//! ARG records. It knows nothing of the CPA: callers pass each state's
//! location and its [`IndexKey`].

use crate::trace::StateId;
use cfa::NodeId;
use std::collections::BTreeMap;

/// Where a state sits in the coverage index: the CPA's index shape of the
/// state and its index hash under that shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexKey {
    /// [`crate::cpa::Cpa::index_shape`] of the state.
    pub shape: Vec<u32>,
    /// [`crate::cpa::Cpa::index_hash`] of the state under its own shape.
    pub hash: u64,
}

/// Reached states of one index shape, by their index hash.
type Buckets = BTreeMap<u64, Vec<StateId>>;

/// The reached states at one location: in insertion order, plus the
/// coverage index.
#[derive(Clone, Debug, Default)]
struct Partition {
    ids: Vec<StateId>,
    groups: Vec<(Vec<u32>, Buckets)>,
}

/// The reached set `reached` of CPA+, partitioned by location (see the
/// module docs).
#[derive(Clone, Debug, Default)]
pub struct ReachedSet {
    partitions: BTreeMap<Option<NodeId>, Partition>,
    len: usize,
    /// For each state id: whether it is in the set now.
    member: Vec<bool>,
    /// For each state id: when it (last) entered the set.
    added_at: Vec<u64>,
    adds: u64,
}

impl ReachedSet {
    /// The empty reached set.
    pub fn new() -> Self {
        ReachedSet::default()
    }

    /// `reached := reached ∪ {id}`: adds the state `id` at `location` with
    /// its coverage-index `key`.
    pub fn add(&mut self, id: StateId, location: Option<NodeId>, key: IndexKey) {
        let i = id.0 as usize;
        if self.member.len() <= i {
            self.member.resize(i + 1, false);
            self.added_at.resize(i + 1, 0);
        }
        self.member[i] = true;
        self.adds += 1;
        self.added_at[i] = self.adds;
        let part = self.partitions.entry(location).or_default();
        part.ids.push(id);
        match part.groups.iter_mut().find(|(s, _)| *s == key.shape) {
            Some((_, buckets)) => buckets.entry(key.hash).or_default().push(id),
            None => part.groups.push((key.shape, BTreeMap::from([(key.hash, vec![id])]))),
        }
        self.len += 1;
    }

    /// `reached := reached \ {id}` for a state replaced by a merge: `location`
    /// and `key` must be those it was added with.
    pub fn remove(&mut self, id: StateId, location: Option<NodeId>, key: &IndexKey) {
        self.set_member(id, false);
        if let Some(p) = self.partitions.get_mut(&location) {
            p.ids.retain(|s| *s != id);
            if let Some((_, buckets)) = p.groups.iter_mut().find(|(s, _)| *s == key.shape) {
                if let Some(b) = buckets.get_mut(&key.hash) {
                    b.retain(|s| *s != id);
                    if b.is_empty() {
                        buckets.remove(&key.hash);
                    }
                }
            }
        }
        self.len -= 1;
    }

    /// Removes the states `ids` (each in the set, at the given location),
    /// wherever the index holds them: the reached part of an ARG subtree
    /// that CEGAR's restart from a pivot drops.
    pub fn remove_subtree(&mut self, ids: &[(StateId, Option<NodeId>)]) {
        for (id, location) in ids {
            self.set_member(*id, false);
            if let Some(p) = self.partitions.get_mut(location) {
                p.ids.retain(|s| s != id);
                for (_, buckets) in p.groups.iter_mut() {
                    for b in buckets.values_mut() {
                        b.retain(|s| s != id);
                    }
                    buckets.retain(|_, b| !b.is_empty());
                }
            }
            self.len -= 1;
        }
    }

    fn set_member(&mut self, id: StateId, on: bool) {
        if let Some(m) = self.member.get_mut(id.0 as usize) {
            *m = on;
        }
    }

    /// Whether `id` is in the reached set now.
    pub fn contains(&self, id: StateId) -> bool {
        self.member.get(id.0 as usize).copied().unwrap_or(false)
    }

    /// `|reached|`.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the reached set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The reached states at `location` (the partition merge and stop look
    /// at), in the order they entered the set.
    pub fn at(&self, location: Option<NodeId>) -> &[StateId] {
        self.partitions.get(&location).map_or(&[][..], |p| &p.ids[..])
    }

    /// Every reached state, partition by partition (locations in order).
    pub fn iter(&self) -> impl Iterator<Item = StateId> + '_ {
        self.partitions.values().flat_map(|p| p.ids.iter().copied())
    }

    /// The reached states at `location` that stop^sep must consider for a
    /// state with index shape `shape`, in the partition's order: those in
    /// the groups whose shape `may_cover` admits, in the bucket `hash_under`
    /// gives for that group's shape. A state that covers is always among
    /// them. Small partitions with one shape are returned whole (the index
    /// would not pay off).
    pub fn cover_candidates(
        &self,
        location: Option<NodeId>,
        shape: &[u32],
        may_cover: impl Fn(&[u32], &[u32]) -> bool,
        hash_under: impl Fn(&[u32]) -> u64,
    ) -> Vec<StateId> {
        let Some(part) = self.partitions.get(&location) else { return Vec::new() };
        if part.groups.len() <= 1 && part.ids.len() < 8 {
            return part.ids.clone();
        }
        let mut out = Vec::new();
        for (g, buckets) in &part.groups {
            if may_cover(shape, g) {
                if let Some(b) = buckets.get(&hash_under(g)) {
                    out.extend_from_slice(b);
                }
            }
        }
        out.sort_unstable_by_key(|id| self.added_at[id.0 as usize]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(shape: u32, hash: u64) -> IndexKey {
        IndexKey { shape: vec![shape], hash }
    }

    #[test]
    fn add_remove_and_partitions_by_location() {
        let mut r = ReachedSet::new();
        r.add(StateId(0), Some(NodeId(1)), key(0, 7));
        r.add(StateId(1), Some(NodeId(2)), key(0, 7));
        r.add(StateId(2), Some(NodeId(1)), key(1, 3));
        assert_eq!(r.len(), 3);
        assert_eq!(r.at(Some(NodeId(1))), &[StateId(0), StateId(2)]);
        assert!(r.contains(StateId(2)) && !r.contains(StateId(5)));
        r.remove(StateId(0), Some(NodeId(1)), &key(0, 7));
        assert_eq!(r.at(Some(NodeId(1))), &[StateId(2)]);
        assert!(!r.contains(StateId(0)));
        r.remove_subtree(&[(StateId(2), Some(NodeId(1)))]);
        assert_eq!(r.iter().collect::<Vec<_>>(), vec![StateId(1)]);
        assert_eq!(r.len(), 1);
    }

    #[test]
    fn cover_candidates_use_the_index_only_on_large_partitions() {
        let mut r = ReachedSet::new();
        for i in 0..10u32 {
            r.add(StateId(i), None, key(i % 2, u64::from(i % 3)));
        }
        // Shape 0 may only be covered by shape 0, hash 0: ids 0 and 6.
        let c = r.cover_candidates(None, &[0], |a, b| a == b, |_| 0);
        assert_eq!(c, vec![StateId(0), StateId(6)]);
        let mut small = ReachedSet::new();
        small.add(StateId(0), None, key(0, 1));
        small.add(StateId(1), None, key(0, 2));
        assert_eq!(small.cover_candidates(None, &[0], |_, _| false, |_| 0).len(), 2);
    }
}
