//! Block-abstraction memoization (BAM; Wonisch & Wehrheim 2012, as
//! CPAchecker's `BAMCPA`) inside the reachability algorithm: blocks are
//! function bodies (`cpa.bam.blockHeuristic = FunctionPartitioning`), loops
//! (`LoopPartitioning`) or both (`FunctionAndLoopPartitioning`); see
//! [`crate::block`] for what a block is, where it is entered and left and
//! what its reduce keeps.
//!
//! # Design: a stack of reached sets in one algorithm
//!
//! A block analysis is not a second `Reachability` object but a new
//! *frame* of the same one: entering a block swaps in a fresh reached set
//! and waitlist, and the main loop ([`super::Phase`]) runs on them until
//! the block's waitlist is empty; then the caller's reached set and
//! waitlist come back and the caller resumes exactly where it was. So the
//! run stays one explicit state machine that can stop after any event and
//! park on any solver query (inside a block too), every state of every
//! block is in the one trace with its own id, and the ARG links of block
//! states lead back into the caller, so error paths through blocks are real
//! CFA paths.
//!
//! On a `Call` edge to a function that is not open on the block stack:
//!
//! 1. the transfer along the call edge gives the callee's entry state `e`
//!    (parameters assigned, call stack pushed) — it may park on a query;
//! 2. `reduce(e)` ([`crate::cpa::Cpa::reduce`]) drops what the block cannot
//!    see; the cache is looked up by (block, reduced state, reduced
//!    precision);
//! 3. *miss* ([`Event::CacheMiss`], [`Event::BlockEntered`]): the reduced
//!    state becomes the initial state of the block's reached set; states at
//!    the function's exit with the block's base call stack are exit states
//!    (their return edges are not followed inside the block); the block's
//!    empty waitlist stores the exit states in the entry
//!    ([`Event::BlockExited`]) and the caller redoes the call edge, which
//!    now finds the entry;
//! 4. *hit* ([`Event::CacheHit`]; none right after the miss that computed
//!    it): each exit state is expanded into the caller's context
//!    ([`crate::cpa::Cpa::expand`]) and becomes a successor of the call at
//!    the function's exit ([`Event::Transfer`] along the call edge, then
//!    [`Event::BlockExpanded`]), which then takes its return edge as usual.
//!
//! A loop block is entered the same way by an intraprocedural edge from
//! outside the loop into its head (the transfer along it gives `e` at the
//! head); its exit states are the states of its own activation (the
//! block's base call stack) at nodes outside the loop, and the expanded
//! exit states are successors of the entry edge at those nodes. An edge
//! leaving the open loop block never enters another block (its successor
//! is an exit state). Nested loops are nested blocks; a call in a loop is
//! analysed inside the loop's block (a nested function block under
//! `FunctionAndLoopPartitioning`).
//!
//! Recursion: a call of a function already open on the block stack (or of
//! `main`) is not a block but an ordinary call inside the open block (the
//! call stack CPA bounds its depth with `cpa.callstack.depth` as without
//! BAM). A block's exit states are only those with the block's own call
//! stack, so an inner activation returns normally.
//!
//! # The cache across CEGAR iterations
//!
//! An entry is keyed by (block, reduced entry state, *reduced precision*):
//! [`crate::cpa::Cpa::block_precision_key`], the part of the precision at
//! the locations of the block's function and of every function it may
//! call. A refinement starts the next iteration from the initial state
//! with a new [`Reachability`]; [`Reachability::take_bam_carry`] hands the
//! finished entries over and [`Reachability::adopt_bam_carry`] keeps
//! exactly those whose block's reduced precision the refinement left
//! unchanged ([`Event::CacheInvalidated`] names the dropped ones). A kept
//! entry's states belong to the earlier iteration, so its first hit
//! re-creates them here ([`Event::CacheRestored`]: new ids, the same
//! states and ARG edges, no transfer and no solver query), and error paths
//! through it are real CFA paths again.
//!
//! A target inside a block ends the run as anywhere else; the error path
//! ([`Reachability::paths_to`]) goes through a reused block's states from
//! its entry state to the exit state that was expanded, so it is the full
//! interprocedural path.

use super::{Phase, Reachability};
use crate::block::{Block, BlockHeuristic, BlockId};
use crate::cpa::Cpa;
use crate::reached::ReachedSet;
use crate::trace::{Event, Origin, StateId, Verdict};
use crate::waitlist::Waitlist;
use cfa::{Edge, EdgeId, EdgeKind, NodeId, Program};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A completed block analysis' reached set: the block (a function body or
/// a loop) and its reached states (see [`Reachability::block_reached`]).
pub type BlockReached<'a, S> = (&'a Block, Vec<(StateId, &'a S)>);

/// One cache entry: a block analysed from one reduced entry state under one
/// reduced precision, and its exit states once the analysis is complete.
pub(super) struct CacheEntry<S> {
    block: BlockId,
    reduced: S,
    /// The reduced precision ([`crate::cpa::Cpa::block_precision_key`]).
    key: String,
    /// The block analysis' initial state (the reduced entry state).
    pub(super) initial: StateId,
    /// The first state id after the block analysis (its states, nested
    /// blocks' included, are `initial..end`); set when it is complete.
    end: StateId,
    /// The exit states; `None` while the block is being analysed.
    exits: Option<Vec<StateId>>,
    /// The block's final reached set (once complete).
    reached: Vec<StateId>,
}

/// The states of an earlier CEGAR iteration's run, kept for the block
/// analyses the refinement did not invalidate: each state with its
/// location and ARG origin, and the block summaries used by expanded states.
struct Archive<S> {
    states: Vec<(S, Option<NodeId>, Origin)>,
    summaries: BTreeMap<StateId, (StateId, StateId)>,
}

/// A finished cache entry of an earlier CEGAR iteration (ids are the
/// archive's), re-created in this run on its first hit.
struct Carried<S> {
    block: BlockId,
    reduced: S,
    key: String,
    archive: Arc<Archive<S>>,
    initial: StateId,
    end: StateId,
    exits: Vec<StateId>,
    reached: Vec<StateId>,
    /// The cache entry it became in this run, once re-created.
    restored: Option<usize>,
}

/// BAM's cache handed from one CEGAR iteration to the next
/// ([`Reachability::take_bam_carry`], [`Reachability::adopt_bam_carry`]).
pub struct BamCarry<S> {
    entries: Vec<Carried<S>>,
}

impl<S> BamCarry<S> {
    /// How many finished block analyses it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// What [`Reachability::adopt_bam_carry`] kept and dropped.
pub struct CarryOutcome {
    /// Entries kept (their block's reduced precision is unchanged).
    pub kept: usize,
    /// Entries dropped.
    pub dropped: usize,
    /// The blocks of the dropped entries, in program order.
    pub dropped_blocks: Vec<String>,
}

/// An open block: what the caller's frame was doing when it entered it.
pub(super) struct BlockFrame {
    block: Arc<Block>,
    entry: usize,
    /// The caller's reached set and waitlist, swapped out.
    reached: ReachedSet,
    waitlist: Waitlist,
    /// Where the caller resumes: its call edge again.
    resume: Phase,
    /// The block's base call stack (its exit states have it).
    base_stack: Option<Vec<NodeId>>,
}

/// BAM's part of a run: the cache and the stack of open blocks.
pub(super) struct Bam<S> {
    pub(super) cache: Vec<CacheEntry<S>>,
    /// Finished entries of earlier CEGAR iterations still valid here.
    carried: Vec<Carried<S>>,
    /// Which blocks there are (`cpa.bam.blockHeuristic`).
    heuristic: BlockHeuristic,
    /// The blocks met so far, computed once each.
    blocks: BTreeMap<BlockId, Arc<Block>>,
    /// The loop blocks by loop head (empty unless loops are blocks).
    loops: BTreeMap<NodeId, Arc<Block>>,
    pub(super) stack: Vec<BlockFrame>,
    /// The entry whose block just finished (its first use is no hit).
    just_finished: Option<usize>,
    /// For each expanded state: (the block's initial state, the exit state
    /// it expands), so error paths go through the block.
    pub(super) summaries: BTreeMap<StateId, (StateId, StateId)>,
    /// The reverse postorder for fresh waitlists.
    rpo: Option<Vec<u32>>,
}

impl<S> Bam<S> {
    pub(super) fn new(rpo: Option<Vec<u32>>, heuristic: BlockHeuristic, program: &Program) -> Self {
        let loops: BTreeMap<NodeId, Arc<Block>> = if heuristic.loops() {
            let heads = crate::block::loop_blocks(program).into_iter();
            heads
                .filter_map(|b| match b.id {
                    BlockId::Loop(head) => Some((head, Arc::new(b))),
                    BlockId::Function(_) => None,
                })
                .collect()
        } else {
            BTreeMap::new()
        };
        let blocks = loops.values().map(|b| (b.id, b.clone())).collect();
        Bam {
            cache: Vec::new(),
            carried: Vec::new(),
            heuristic,
            blocks,
            loops,
            stack: Vec::new(),
            just_finished: None,
            summaries: BTreeMap::new(),
            rpo,
        }
    }
}

impl<C: Cpa> Reachability<C> {
    /// How many entries the BAM cache holds (0 without BAM).
    pub fn bam_cache_len(&self) -> usize {
        self.bam.as_ref().map_or(0, |b| b.cache.len())
    }

    /// BAM: the final reached set of every completed block analysis, with
    /// the block. Its states are reduced: their call stacks start at the
    /// block (empty at its entry) and they know nothing of the variables
    /// the block cannot see. Together with [`Reachability::reached`] (the
    /// states of `main`'s analysis) they are the fixpoint of a TRUE run.
    pub fn block_reached(&self) -> Vec<BlockReached<'_, C::State>> {
        let Some(bam) = &self.bam else { return Vec::new() };
        (bam.cache.iter().filter(|c| c.exits.is_some()))
            .filter_map(|c| {
                Some((
                    &**bam.blocks.get(&c.block)?,
                    c.reached.iter().map(|id| (*id, &self.states[id.0 as usize].state)).collect(),
                ))
            })
            .collect()
    }

    /// BAM: the states of every completed block analysis' reached set, by
    /// location (empty without BAM).
    pub(super) fn bam_reached_by_location(&self) -> BTreeMap<NodeId, Vec<StateId>> {
        let mut out: BTreeMap<NodeId, Vec<StateId>> = BTreeMap::new();
        for c in self.bam.iter().flat_map(|b| &b.cache) {
            for id in &c.reached {
                if let Some(l) = self.states[id.0 as usize].location {
                    out.entry(l).or_default().push(*id);
                }
            }
        }
        out
    }

    /// The block `edge` enters, if any: with function blocks, a call to a
    /// function not open on the block stack and not `main`; with loop
    /// blocks, an edge from outside a loop into its head when that loop is
    /// not open on the block stack and the edge does not leave the open
    /// loop block (its successor is then an exit state of that block).
    pub(super) fn bam_block_of(&self, edge: &Edge) -> Option<BlockId> {
        let bam = self.bam.as_ref()?;
        let open = |b: BlockId| bam.stack.iter().any(|f| f.block.id == b);
        if let EdgeKind::Call { callee, .. } = edge.kind {
            let block = BlockId::Function(callee);
            return (bam.heuristic.functions() && !open(block) && callee != self.program.main).then_some(block);
        }
        let block = bam.loops.get(&edge.target)?;
        let leaves_open = bam.stack.last().is_some_and(|f| {
            matches!(f.block.id, BlockId::Loop(_)) && f.block.body.contains(&edge.source) && !f.block.body.contains(&edge.target)
        });
        (block.entered_by(edge) && !open(block.id) && !leaves_open).then_some(block.id)
    }

    /// The block `id` (computed on its first use).
    fn bam_block(&mut self, id: BlockId) -> Arc<Block> {
        let program = self.program.clone();
        let bam = self.bam.as_mut().expect("BAM is on");
        bam.blocks.entry(id).or_insert_with(|| Arc::new(Block::new(&program, id))).clone()
    }

    /// Whether the popped state `id` is an exit state of the open block
    /// (its successors are the caller's business).
    pub(super) fn bam_is_block_exit(&self, id: StateId) -> bool {
        let Some(frame) = self.bam.as_ref().and_then(|b| b.stack.last()) else { return false };
        let rec = &self.states[id.0 as usize];
        rec.location.is_some_and(|l| frame.block.is_exit(&self.program, l)) && self.cpa.call_stack(&rec.state) == frame.base_stack
    }

    /// The reduced precision of `block` under `precision`, as a key.
    /// A loop block's is the precision at the locations of its function and
    /// of every function it may call (more than the loop consults: a key
    /// that changes too often only reuses less).
    fn block_key(&mut self, block: BlockId, precision: &C::Precision) -> String {
        let block = self.bam_block(block);
        self.cpa.block_precision_key(precision, &self.program, &block.functions)
    }

    /// The end of a CEGAR iteration: its finished block analyses (and the
    /// still unused ones it was handed), for [`Reachability::adopt_bam_carry`]
    /// of the next iteration's run. Leaves this run without states.
    pub fn take_bam_carry(&mut self) -> BamCarry<C::State> {
        let Some(bam) = self.bam.as_mut() else { return BamCarry { entries: Vec::new() } };
        let states = std::mem::take(&mut self.states);
        let archive = Arc::new(Archive {
            states: states.into_iter().map(|r| (r.state, r.location, r.origin)).collect(),
            summaries: std::mem::take(&mut bam.summaries),
        });
        let mut entries: Vec<Carried<C::State>> = std::mem::take(&mut bam.carried);
        entries.retain(|c| c.restored.is_none());
        for c in std::mem::take(&mut bam.cache) {
            let Some(exits) = c.exits else { continue };
            entries.push(Carried {
                block: c.block,
                reduced: c.reduced,
                key: c.key,
                archive: archive.clone(),
                initial: c.initial,
                end: c.end,
                exits,
                reached: c.reached,
                restored: None,
            });
        }
        BamCarry { entries }
    }

    /// The start of a CEGAR iteration: keeps the entries of `carry` whose
    /// block's reduced precision is the same under this run's (refined)
    /// precision — exactly those the refinement does not affect — and drops
    /// the others.
    pub fn adopt_bam_carry(&mut self, carry: BamCarry<C::State>) -> CarryOutcome {
        let mut out = CarryOutcome { kept: 0, dropped: 0, dropped_blocks: Vec::new() };
        if self.bam.is_none() {
            out.dropped = carry.entries.len();
            return out;
        }
        let precision = self.cpa.initial_precision(self.program.functions[self.program.main.0 as usize].entry);
        let mut dropped_funcs: BTreeSet<BlockId> = BTreeSet::new();
        for c in carry.entries {
            if self.block_key(c.block, &precision) == c.key {
                out.kept += 1;
                self.bam.as_mut().expect("BAM is on").carried.push(c);
            } else {
                out.dropped += 1;
                dropped_funcs.insert(c.block);
            }
        }
        out.dropped_blocks = dropped_funcs.into_iter().map(|f| self.block_name(f)).collect();
        out
    }

    /// Re-creates the carried entry `j` in this run for a hit from `popped`
    /// along the call edge `edge` (see the module docs): its states get new
    /// ids in the same order (so ARG edges inside it map one to one), its
    /// initial state becomes a successor of `popped`, and block summaries it
    /// used from entries outside it are re-created first. Returns the new
    /// cache entry, or `None` when a summary it used is no longer cached (the
    /// caller then analyses the block anew).
    fn bam_restore(&mut self, j: usize, popped: StateId, edge: EdgeId, precision: &Arc<C::Precision>) -> Option<usize> {
        let bam = self.bam.as_ref().expect("BAM is on");
        let c = &bam.carried[j];
        if let Some(k) = c.restored {
            return Some(k);
        }
        let (archive, initial, end) = (c.archive.clone(), c.initial, c.end);
        let inside = |id: StateId| initial <= id && id < end;
        // Summaries this block used from blocks analysed outside it.
        let mut outside: BTreeMap<StateId, StateId> = BTreeMap::new();
        for (_, &(ni, nx)) in archive.summaries.range(initial..end) {
            if inside(ni) || outside.contains_key(&ni) {
                continue;
            }
            let bam = self.bam.as_ref().expect("BAM is on");
            let other = bam.carried.iter().position(|o| Arc::ptr_eq(&o.archive, &archive) && o.initial == ni)?;
            if !bam.carried[other].exits.contains(&nx) {
                return None;
            }
            let k = self.bam_restore(other, popped, edge, precision)?;
            let entry = &self.bam.as_ref().expect("BAM is on").cache[k];
            let exits = entry.exits.as_ref()?;
            outside.insert(ni, entry.initial);
            for (old, new) in self.bam.as_ref().expect("BAM is on").carried[other].exits.iter().zip(exits) {
                outside.insert(*old, *new);
            }
        }
        let base = self.states.len() as u32;
        let map = |id: StateId| {
            if inside(id) {
                StateId(base + id.0 - initial.0)
            } else {
                outside.get(&id).copied().unwrap_or(popped)
            }
        };
        for old in initial.0..end.0 {
            let (state, _, origin) = &archive.states[old as usize];
            let origin = match origin {
                _ if old == initial.0 => Origin::Transfer { parent: popped, edge },
                Origin::Initial => Origin::Transfer { parent: popped, edge },
                Origin::Transfer { parent, edge } => Origin::Transfer { parent: map(*parent), edge: *edge },
                Origin::Precision { of } => Origin::Precision { of: map(*of) },
                Origin::Merge { new, reached } => Origin::Merge { new: map(*new), reached: map(*reached) },
            };
            self.create(state.clone(), precision.clone(), origin);
        }
        let bam = self.bam.as_mut().expect("BAM is on");
        for (expanded, &(ni, nx)) in archive.summaries.range(initial..end) {
            bam.summaries.insert(map(*expanded), (map(ni), map(nx)));
        }
        // This entry and the entries of blocks analysed inside it.
        let mut restored: Vec<(usize, usize)> = Vec::new();
        for (i, o) in bam.carried.iter().enumerate() {
            if o.restored.is_none() && Arc::ptr_eq(&o.archive, &archive) && inside(o.initial) && o.end <= end {
                restored.push((i, bam.cache.len() + restored.len()));
            }
        }
        let mut events = Vec::new();
        for &(i, k) in &restored {
            let o = &bam.carried[i];
            let exits: Vec<StateId> = o.exits.iter().map(|x| map(*x)).collect();
            bam.cache.push(CacheEntry {
                block: o.block,
                reduced: o.reduced.clone(),
                key: o.key.clone(),
                initial: map(o.initial),
                end: StateId(map(o.initial).0 + (o.end.0 - o.initial.0)),
                exits: Some(exits.clone()),
                reached: o.reached.iter().map(|x| map(*x)).collect(),
            });
            events.push((o.block, k, map(o.initial), exits, o.end.0 - o.initial.0));
        }
        for &(i, k) in &restored {
            bam.carried[i].restored = Some(k);
        }
        let own = bam.carried[j].restored;
        for (block, k, initial, exits, states) in events {
            let block = self.block_name(block);
            self.emit(Event::CacheRestored { block, entry: k as u32, initial, exits, states });
        }
        own
    }

    /// The name of a block.
    fn block_name(&self, block: BlockId) -> String {
        block.name(&self.program)
    }

    /// The edge `edges[next]` of `popped` that enters `block` under BAM (a
    /// call, or a loop entry; see the module docs): the transfer, then
    /// cache lookup, block entry or expansion.
    pub(super) fn bam_call(&mut self, popped: StateId, edges: Vec<EdgeId>, next: usize, edge: Edge, block: BlockId) {
        let precision = self.states[popped.0 as usize].precision.clone();
        let result = self.transfer(popped, &edge, &precision);
        if let Some(script) = self.oracle.as_ref().and_then(|o| o.take_pending()) {
            self.emit_oracle_answers(false);
            let query = crate::solver::SolverQuery { id: self.queries, smtlib: script };
            self.phase = Phase::AwaitSolver { popped, edges, next, query };
            return;
        }
        self.emit_oracle_answers(true);
        let _ = self.cpa.take_prune_report();
        let entries = match result {
            Ok(s) => s,
            Err(err) => {
                self.failed_transfer = Some((popped, edge.id));
                return self.finish(Verdict::Unknown, err.reason);
            }
        };
        let name = self.block_name(block);
        let key = self.block_key(block, &precision);
        let desc = self.bam_block(block);
        let mut expansions: Vec<(usize, StateId, C::State)> = Vec::new();
        for e in &entries {
            let reduced = self.cpa.reduce(e, &self.program, &desc);
            let bam = self.bam.as_mut().expect("BAM is on");
            let mut found = bam.cache.iter().position(|c| c.block == block && c.reduced == reduced && c.key == key);
            if found.is_none() {
                let carried = (bam.carried.iter())
                    .position(|c| c.restored.is_none() && c.block == block && c.reduced == reduced && c.key == key);
                found = carried.and_then(|j| self.bam_restore(j, popped, edge.id, &precision));
            }
            let Some(k) = found else {
                return self.bam_enter(popped, edges, next, &edge, desc, reduced, precision, key);
            };
            let bam = self.bam.as_mut().expect("BAM is on");
            let Some(exits) = bam.cache[k].exits.clone() else {
                // Unreachable: an open block's function is called inline.
                return self.finish(
                    Verdict::Unknown,
                    format!("block {name} was entered again while its analysis was open (recursion under BAM)"),
                );
            };
            if bam.just_finished.take() != Some(k) {
                self.emit(Event::CacheHit { block: name.clone(), from: popped, edge: edge.id, entry: k as u32 });
            }
            for x in exits {
                let expanded = self.cpa.expand(e, &self.states[x.0 as usize].state, &self.program, &desc);
                expansions.push((k, x, expanded));
            }
        }
        self.bam_expand(popped, edges, next, &edge, block, expansions);
    }

    /// A cache miss: open the block with the reduced entry state.
    #[allow(clippy::too_many_arguments)]
    fn bam_enter(
        &mut self,
        popped: StateId,
        edges: Vec<EdgeId>,
        next: usize,
        edge: &Edge,
        block: Arc<Block>,
        reduced: C::State,
        precision: Arc<C::Precision>,
        key: String,
    ) {
        let name = block.name.clone();
        let k = self.bam.as_ref().map_or(0, |b| b.cache.len());
        self.emit(Event::CacheMiss { block: name.clone(), from: popped, edge: edge.id, entry: k as u32 });
        let base_stack = self.cpa.call_stack(&reduced);
        let initial = self.create(reduced.clone(), precision.clone(), Origin::Transfer { parent: popped, edge: edge.id });
        let bam = self.bam.as_mut().expect("BAM is on");
        bam.cache.push(CacheEntry { block: block.id, reduced, key, initial, end: initial, exits: None, reached: Vec::new() });
        let fresh = Waitlist::new(self.options.order, bam.rpo.clone());
        let reached = std::mem::replace(&mut self.reached, ReachedSet::new());
        let waitlist = std::mem::replace(&mut self.waitlist, fresh);
        let resume = Phase::Edges { popped, edges, next };
        bam.stack.push(BlockFrame { block, entry: k, reached, waitlist, resume, base_stack });
        let depth = bam.stack.len() as u32;
        self.emit(Event::BlockEntered { block: name, entry: k as u32, state: initial, call_site: edge.source, depth });
        self.add_to_reached(initial);
        self.phase = if self.after_add(initial) { Phase::Done } else { Phase::Pop };
        if self.target.is_some() {
            self.resume = Some(Phase::Pop);
        }
    }

    /// The block's waitlist is empty: store its exit states and give the
    /// caller its reached set and waitlist back. False when no block is open.
    pub(super) fn bam_block_finished(&mut self) -> bool {
        let Some(frame) = self.bam.as_mut().and_then(|b| b.stack.pop()) else { return false };
        let depth = self.bam.as_ref().map_or(0, |b| b.stack.len() as u32 + 1);
        let at_exit: Vec<StateId> = match frame.block.id {
            BlockId::Function(f) => {
                let exit = self.program.functions.get(f.0 as usize).map(|f| f.exit);
                self.reached.at(exit).to_vec()
            }
            BlockId::Loop(_) => (self.reached.iter())
                .filter(|id| self.states[id.0 as usize].location.is_some_and(|l| frame.block.is_exit(&self.program, l)))
                .collect(),
        };
        let exits: Vec<StateId> = (at_exit.into_iter())
            .filter(|id| self.cpa.call_stack(&self.states[id.0 as usize].state) == frame.base_stack)
            .collect();
        let block_reached: Vec<StateId> = self.reached.iter().collect();
        self.reached = frame.reached;
        self.waitlist = frame.waitlist;
        let name = frame.block.name.clone();
        let bam = self.bam.as_mut().expect("BAM is on");
        bam.cache[frame.entry].exits = Some(exits.clone());
        bam.cache[frame.entry].end = StateId(self.states.len() as u32);
        bam.cache[frame.entry].reached = block_reached;
        bam.just_finished = Some(frame.entry);
        self.emit(Event::BlockExited { block: name, entry: frame.entry as u32, exits, depth });
        self.phase = frame.resume;
        true
    }

    /// The expanded exit states become the entry edge's successors (at the
    /// function's exit, or at the nodes where they left the loop, in the
    /// caller's context).
    fn bam_expand(
        &mut self,
        popped: StateId,
        edges: Vec<EdgeId>,
        next: usize,
        edge: &Edge,
        block: BlockId,
        expansions: Vec<(usize, StateId, C::State)>,
    ) {
        let precision = self.states[popped.0 as usize].precision.clone();
        let mut succs = Vec::with_capacity(expansions.len());
        let mut by_entry: BTreeMap<usize, (Vec<StateId>, Vec<StateId>)> = BTreeMap::new();
        for (k, x, state) in expansions {
            let id = self.create(state, precision.clone(), Origin::Transfer { parent: popped, edge: edge.id });
            let bam = self.bam.as_mut().expect("BAM is on");
            let initial = bam.cache[k].initial;
            bam.summaries.insert(id, (initial, x));
            let e = by_entry.entry(k).or_default();
            e.0.push(x);
            e.1.push(id);
            succs.push(id);
        }
        let exit = match block {
            BlockId::Function(f) => self.program.functions.get(f.0 as usize).map_or(edge.target, |f| f.exit),
            BlockId::Loop(_) => succs.first().and_then(|s| self.states[s.0 as usize].location).unwrap_or(edge.target),
        };
        let name = self.block_name(block);
        self.emit(Event::Transfer {
            from: popped,
            edge: edge.id,
            source: edge.source,
            target: exit,
            label: format!("{} (block summary of {name})", edge.label),
            successors: succs.clone(),
        });
        for (k, (exits, successors)) in by_entry {
            self.emit(Event::BlockExpanded { block: name.clone(), from: popped, entry: k as u32, exits, successors });
        }
        self.phase = Phase::Successors { popped, edges, edge: next, succs, k: 0 };
    }
}
