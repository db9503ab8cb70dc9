//! Block-abstraction memoization (BAM; Wonisch & Wehrheim 2012, as
//! CPAchecker's `BAMCPA`) inside the reachability algorithm: blocks are
//! function bodies (`cpa.bam.blockHeuristic = FunctionPartitioning`).
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
//!    see; the cache is looked up by (block, reduced state, precision);
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
//! Recursion: a call of a function already open on the block stack (or of
//! `main`) is not a block but an ordinary call inside the open block (the
//! call stack CPA bounds its depth with `cpa.callstack.depth` as without
//! BAM). A block's exit states are only those with the block's own call
//! stack, so an inner activation returns normally.
//!
//! A target inside a block ends the run as anywhere else; the error path
//! ([`Reachability::paths_to`]) goes through a reused block's states from
//! its entry state to the exit state that was expanded, so it is the full
//! interprocedural path.

use super::{Phase, Reachability};
use crate::cpa::Cpa;
use crate::reached::ReachedSet;
use crate::trace::{Event, Origin, StateId, Verdict};
use crate::waitlist::Waitlist;
use cfa::{Edge, EdgeId, EdgeKind, FuncId, NodeId};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A completed block analysis' reached set: the block's function and its
/// reached states (see [`Reachability::block_reached`]).
pub type BlockReached<'a, S> = (FuncId, Vec<(StateId, &'a S)>);

/// One cache entry: a block analysed from one reduced entry state under one
/// precision, and its exit states once the analysis is complete.
pub(super) struct CacheEntry<S, P> {
    block: FuncId,
    reduced: S,
    precision: Arc<P>,
    /// The block analysis' initial state (the reduced entry state).
    pub(super) initial: StateId,
    /// The exit states; `None` while the block is being analysed.
    exits: Option<Vec<StateId>>,
    /// The block's final reached set (once complete).
    reached: Vec<StateId>,
}

/// An open block: what the caller's frame was doing when it entered it.
pub(super) struct BlockFrame {
    block: FuncId,
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
pub(super) struct Bam<S, P> {
    pub(super) cache: Vec<CacheEntry<S, P>>,
    pub(super) stack: Vec<BlockFrame>,
    /// The entry whose block just finished (its first use is no hit).
    just_finished: Option<usize>,
    /// For each expanded state: (the block's initial state, the exit state
    /// it expands), so error paths go through the block.
    pub(super) summaries: BTreeMap<StateId, (StateId, StateId)>,
    /// The reverse postorder for fresh waitlists.
    rpo: Option<Vec<u32>>,
}

impl<S, P> Bam<S, P> {
    pub(super) fn new(rpo: Option<Vec<u32>>) -> Self {
        Bam { cache: Vec::new(), stack: Vec::new(), just_finished: None, summaries: BTreeMap::new(), rpo }
    }
}

impl<C: Cpa> Reachability<C> {
    /// How many entries the BAM cache holds (0 without BAM).
    pub fn bam_cache_len(&self) -> usize {
        self.bam.as_ref().map_or(0, |b| b.cache.len())
    }

    /// BAM: the final reached set of every completed block analysis, with
    /// the block's function. Its states are reduced: their call stacks
    /// start at the block (empty at its entry) and they know nothing of
    /// the caller's variables. Together with [`Reachability::reached`] (the
    /// states of `main`'s analysis) they are the fixpoint of a TRUE run.
    pub fn block_reached(&self) -> Vec<BlockReached<'_, C::State>> {
        let Some(bam) = &self.bam else { return Vec::new() };
        (bam.cache.iter().filter(|c| c.exits.is_some()))
            .map(|c| (c.block, c.reached.iter().map(|id| (*id, &self.states[id.0 as usize].state)).collect()))
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

    /// The function `edge` calls when BAM treats the call as a block: a
    /// call to a function not open on the block stack and not `main`.
    pub(super) fn bam_block_of(&self, edge: &Edge) -> Option<FuncId> {
        let bam = self.bam.as_ref()?;
        let EdgeKind::Call { callee, .. } = edge.kind else { return None };
        let open = bam.stack.iter().any(|f| f.block == callee);
        (!open && callee != self.program.main).then_some(callee)
    }

    /// Whether the popped state `id` is an exit state of the open block
    /// (its successors are the caller's business).
    pub(super) fn bam_is_block_exit(&self, id: StateId) -> bool {
        let Some(frame) = self.bam.as_ref().and_then(|b| b.stack.last()) else { return false };
        let exit = self.program.functions.get(frame.block.0 as usize).map(|f| f.exit);
        let rec = &self.states[id.0 as usize];
        rec.location.is_some() && rec.location == exit && self.cpa.call_stack(&rec.state) == frame.base_stack
    }

    /// The name of a block.
    fn block_name(&self, block: FuncId) -> String {
        self.program.functions.get(block.0 as usize).map(|f| f.name.clone()).unwrap_or_else(|| format!("f{}", block.0))
    }

    /// The call edge `edges[next]` of `popped` under BAM (see the module
    /// docs): the transfer, then cache lookup, block entry or expansion.
    pub(super) fn bam_call(&mut self, popped: StateId, edges: Vec<EdgeId>, next: usize, edge: Edge, block: FuncId) {
        let rec = &self.states[popped.0 as usize];
        let precision = rec.precision.clone();
        let result = self.cpa.transfer_relation().successors(&rec.state, &edge, &precision);
        if let Some(script) = self.oracle.as_ref().and_then(|o| o.take_pending()) {
            let query = crate::solver::SolverQuery { id: self.queries, smtlib: script };
            self.phase = Phase::AwaitSolver { popped, edges, next, query };
            return;
        }
        let _ = self.cpa.take_prune_report();
        let entries = match result {
            Ok(s) => s,
            Err(err) => {
                self.failed_transfer = Some((popped, edge.id));
                return self.finish(Verdict::Unknown, err.reason);
            }
        };
        let name = self.block_name(block);
        let mut expansions: Vec<(usize, StateId, C::State)> = Vec::new();
        for e in &entries {
            let reduced = self.cpa.reduce(e, &self.program, block);
            let bam = self.bam.as_mut().expect("BAM is on");
            let found = bam.cache.iter().position(|c| c.block == block && c.reduced == reduced && c.precision == precision);
            let Some(k) = found else {
                return self.bam_enter(popped, edges, next, &edge, block, reduced, precision);
            };
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
                let expanded = self.cpa.expand(e, &self.states[x.0 as usize].state, &self.program, block);
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
        block: FuncId,
        reduced: C::State,
        precision: Arc<C::Precision>,
    ) {
        let name = self.block_name(block);
        let k = self.bam.as_ref().map_or(0, |b| b.cache.len());
        self.emit(Event::CacheMiss { block: name.clone(), from: popped, edge: edge.id, entry: k as u32 });
        let base_stack = self.cpa.call_stack(&reduced);
        let initial = self.create(reduced.clone(), precision.clone(), Origin::Transfer { parent: popped, edge: edge.id });
        let bam = self.bam.as_mut().expect("BAM is on");
        bam.cache.push(CacheEntry { block, reduced, precision, initial, exits: None, reached: Vec::new() });
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
        let exit = self.program.functions.get(frame.block.0 as usize).map(|f| f.exit);
        let exits: Vec<StateId> = self
            .reached
            .at(exit)
            .iter()
            .copied()
            .filter(|id| self.cpa.call_stack(&self.states[id.0 as usize].state) == frame.base_stack)
            .collect();
        let block_reached: Vec<StateId> = self.reached.iter().collect();
        self.reached = frame.reached;
        self.waitlist = frame.waitlist;
        let name = self.block_name(frame.block);
        let bam = self.bam.as_mut().expect("BAM is on");
        bam.cache[frame.entry].exits = Some(exits.clone());
        bam.cache[frame.entry].reached = block_reached;
        bam.just_finished = Some(frame.entry);
        self.emit(Event::BlockExited { block: name, entry: frame.entry as u32, exits, depth });
        self.phase = frame.resume;
        true
    }

    /// The expanded exit states become the call's successors (at the
    /// function's exit, in the caller's context).
    fn bam_expand(
        &mut self,
        popped: StateId,
        edges: Vec<EdgeId>,
        next: usize,
        edge: &Edge,
        block: FuncId,
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
        let exit = self.program.functions.get(block.0 as usize).map_or(edge.target, |f| f.exit);
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
