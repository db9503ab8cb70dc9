//! The fold's picture of block-abstraction memoization (BAM): the call tree
//! of the blocks entered (each call a cache hit or a miss) and the cache's
//! entries, as far as the trace has come.

use crate::trace::{Event, StateId};
use cfa::{EdgeId, NodeId};
use std::collections::BTreeMap;

/// One use of a block: a call that missed (and so analysed the block) or
/// hit the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockCall {
    /// The block (its function's name, or `loop@line N` for a loop block).
    pub block: String,
    /// The calling state.
    pub from: StateId,
    /// The call edge.
    pub edge: EdgeId,
    /// The cache entry used or made.
    pub entry: u32,
    /// Whether the cache already had the summary.
    pub hit: bool,
    /// The call (index into [`BlockView::calls`]) whose block was open when
    /// this call was made; `None` for calls from `main`'s analysis.
    pub parent: Option<usize>,
    /// How deep in the call tree (0: called from `main`'s analysis).
    pub depth: u32,
    /// The expanded states the call produced (once expanded).
    pub successors: Vec<StateId>,
}

/// One cache entry: a block with its reduced entry state and its summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheEntryView {
    /// The block (its function's name, or `loop@line N` for a loop block).
    pub block: String,
    /// The block analysis' initial state (the reduced entry state; its view
    /// is that state's).
    pub initial: Option<StateId>,
    /// The call site that first entered it.
    pub call_site: Option<NodeId>,
    /// The exit states (the summary); `None` while the block is analysed.
    pub exits: Option<Vec<StateId>>,
    /// How often the summary was reused.
    pub hits: u32,
    /// Whether the entry was kept from an earlier CEGAR iteration
    /// ([`Event::CacheRestored`]) rather than analysed in this one.
    pub restored: bool,
}

/// What a refinement did to the BAM cache ([`Event::CacheInvalidated`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheRefinement {
    /// The blocks whose reduced precision changed (their entries dropped).
    pub blocks: Vec<String>,
    /// How many entries were dropped.
    pub dropped: u32,
    /// How many entries of other blocks were kept.
    pub kept: u32,
}

/// A caller's reached set (by location) and waitlist, kept while a block
/// is open.
type Stashed = (BTreeMap<NodeId, Vec<StateId>>, Vec<StateId>);

/// BAM as shown at some point of the trace (empty for runs without BAM).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockView {
    /// Every call of a block so far, in order (the call tree through
    /// [`BlockCall::parent`]).
    pub calls: Vec<BlockCall>,
    /// The cache, by entry number.
    pub cache: Vec<CacheEntryView>,
    /// The calls whose blocks are open (innermost last).
    pub open: Vec<usize>,
    /// The caller's reached set and waitlist while a block is open.
    stashed: Vec<Stashed>,
    /// What the latest refinement did to the cache (`None` before any).
    pub last_refinement: Option<CacheRefinement>,
}

impl BlockView {
    /// Folds one BAM event. `reached` and `waitlist` are the snapshot's:
    /// entering a block stashes them (the block starts with its own),
    /// leaving it brings them back.
    pub(super) fn apply(&mut self, e: &Event, reached: &mut BTreeMap<NodeId, Vec<StateId>>, waitlist: &mut Vec<StateId>) {
        match e {
            Event::CacheMiss { block, from, edge, entry } | Event::CacheHit { block, from, edge, entry } => {
                let hit = matches!(e, Event::CacheHit { .. });
                let parent = self.open.last().copied();
                let depth = self.open.len() as u32;
                self.calls.push(BlockCall {
                    block: block.clone(),
                    from: *from,
                    edge: *edge,
                    entry: *entry,
                    hit,
                    parent,
                    depth,
                    successors: Vec::new(),
                });
                let k = *entry as usize;
                self.ensure_entry(k, block);
                if hit {
                    self.cache[k].hits += 1;
                }
            }
            Event::BlockEntered { entry, state, call_site, .. } => {
                if let Some(c) = self.cache.get_mut(*entry as usize) {
                    c.initial = Some(*state);
                    c.call_site = Some(*call_site);
                }
                self.open.push(self.calls.len().saturating_sub(1));
                self.stashed.push((std::mem::take(reached), std::mem::take(waitlist)));
            }
            Event::BlockExited { entry, exits, .. } => {
                if let Some(c) = self.cache.get_mut(*entry as usize) {
                    c.exits = Some(exits.clone());
                }
                self.open.pop();
                if let Some((r, w)) = self.stashed.pop() {
                    *reached = r;
                    *waitlist = w;
                }
            }
            Event::BlockExpanded { entry, from, successors, .. } => {
                let call = self.calls.iter_mut().rev().find(|c| c.entry == *entry && c.from == *from);
                if let Some(c) = call {
                    c.successors.extend(successors.iter().copied());
                }
            }
            Event::CacheRestored { block, entry, initial, exits, .. } => {
                let k = *entry as usize;
                self.ensure_entry(k, block);
                let c = &mut self.cache[k];
                c.block = block.clone();
                c.initial = Some(*initial);
                c.exits = Some(exits.clone());
                c.restored = true;
            }
            Event::CacheInvalidated { blocks, entries, kept } => {
                self.last_refinement = Some(CacheRefinement { blocks: blocks.clone(), dropped: *entries, kept: *kept });
            }
            _ => {}
        }
    }

    /// Makes sure the cache view has entry `k` (of `block`).
    fn ensure_entry(&mut self, k: usize, block: &str) {
        if self.cache.len() <= k {
            let empty = CacheEntryView {
                block: block.to_string(),
                initial: None,
                call_site: None,
                exits: None,
                hits: 0,
                restored: false,
            };
            self.cache.resize(k + 1, empty);
        }
    }

    /// A restart: the next iteration starts with an empty cache view; the
    /// entries the refinement kept come back by [`Event::CacheRestored`].
    pub(super) fn restart(&mut self) {
        let last_refinement = self.last_refinement.take();
        *self = BlockView { last_refinement, ..BlockView::default() };
    }
}
