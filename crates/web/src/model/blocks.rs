//! The block view of block-abstraction memoization (BAM) at the shown
//! position of a run, without any browser: the call tree of the blocks
//! entered so far (each call a cache *miss*, which analysed the block, or a
//! *hit*, which reused its summary), every call with its call site, its
//! reduced entry state and the summary (exit states) it got, and the cache
//! table (entry, block, reduced state, number of exit states, hits).
//!
//! Everything comes from the fold's [`engine::view::BlockView`]
//! (`Snapshot::blocks`), so stepping back shows the tree as it was. Also
//! here: the counterexample checks of the latest error path in order
//! ([`CounterexampleChecks`]) — `bam-value-predicate` checks each path
//! twice, first with the value analysis' explicit values, then (if those do
//! not refute it) with the predicate analysis' path formula.
//!
//! Rendered by `crate::ui::blocks`.

use cfa::Program;
use engine::trace::{Event, StateId};
use engine::view::{CacheRefinement, Snapshot};

use crate::model::analysis::state_text;

/// One state of the block view: its key for the linked selection (`s12`)
/// and its content in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockState {
    /// The state's key (`s12`), as every state link carries it.
    pub id: String,
    /// Its content without location and call stack (`n=3, i=0`).
    pub text: String,
}

impl BlockState {
    fn of(snap: &Snapshot, id: StateId) -> BlockState {
        BlockState { id: id.to_string(), text: state_text(snap, id) }
    }
}

/// One node of the call tree: a call of a block (a function) or the entry
/// of a loop block from a caller's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallNode {
    /// The block (the called function's name, or `loop@line N` for a loop
    /// block, `cpa.bam.blockHeuristic = LoopPartitioning`).
    pub block: String,
    /// Nesting depth (0: called from `main`'s analysis; 1: from inside a
    /// block analysed for a call of depth 0, …).
    pub depth: u32,
    /// The source line of the call (0 when unknown).
    pub line: u32,
    /// The calling state.
    pub from: BlockState,
    /// The cache entry the call used (a hit) or made (a miss).
    pub entry: u32,
    /// A cache hit: the block's summary was reused, the block not analysed
    /// again.
    pub hit: bool,
    /// The reduced entry state the cache was looked up with (the block
    /// analysis' initial state); `None` until the block analysis began.
    pub entry_state: Option<BlockState>,
    /// The summary: the entry's exit states (`None` while the block is
    /// still being analysed).
    pub summary: Option<Vec<BlockState>>,
    /// The block is open: its analysis is running at the shown position.
    pub open: bool,
    /// The call was made by the event shown (the latest one applied).
    pub latest: bool,
}

impl CallNode {
    /// Whether the block is a loop (its name is `loop@line N`).
    pub fn is_loop(&self) -> bool {
        self.block.starts_with("loop@")
    }

    /// The block as the tree names it: `count()` for a function,
    /// `loop@line 7` for a loop.
    pub fn title(&self) -> String {
        if self.is_loop() {
            self.block.clone()
        } else {
            format!("{}()", self.block)
        }
    }

    /// Where the block was entered, in words (empty when unknown):
    /// ` called at line 6`, or ` entered at line 6` for a loop (the line
    /// of the edge into its head).
    pub fn site(&self) -> String {
        match (self.line, self.is_loop()) {
            (0, _) => String::new(),
            (n, true) => format!(" entered at line {n}"),
            (n, false) => format!(" called at line {n}"),
        }
    }
}

/// One row of the cache table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheRow {
    /// The entry number.
    pub entry: u32,
    /// The block (the function's name).
    pub block: String,
    /// The reduced entry state (the key, with the precision).
    pub reduced: Option<BlockState>,
    /// How many exit states the summary has (`None` while analysed).
    pub exits: Option<usize>,
    /// How often the summary was reused (cache hits).
    pub hits: u32,
    /// Kept from the previous CEGAR iteration (the refinement did not
    /// change the block's reduced precision) and re-created, not analysed.
    pub kept: bool,
}

/// The block view at one position of a BAM run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockPanel {
    /// Every call so far in the order made, which is the call tree's
    /// pre-order (a nested call is made while its parent's block is open);
    /// indent by [`CallNode::depth`].
    pub calls: Vec<CallNode>,
    /// The cache (the current CEGAR iteration's: a refinement empties it).
    pub cache: Vec<CacheRow>,
    /// Cache hits so far in this iteration.
    pub hits: usize,
    /// Cache misses so far in this iteration.
    pub misses: usize,
    /// What the latest refinement did to the cache (the
    /// `cache_invalidated` event; `None` before one).
    pub last_refinement: Option<CacheRefinement>,
}

/// Whether the run described by the trace's first event uses BAM
/// (`cpa.bam.enabled = true`).
pub fn is_bam_run(events: &[Event]) -> bool {
    matches!(events.first(), Some(Event::AnalysisStarted { info })
        if info.properties.get("cpa.bam.enabled").is_some_and(|v| v == "true"))
}

impl BlockPanel {
    /// The block view at the fold `snap` of `events` (the page shows it
    /// only for BAM runs: [`is_bam_run`]).
    pub fn of(program: &Program, snap: &Snapshot, events: &[Event]) -> BlockPanel {
        let view = &snap.blocks;
        let latest_event = snap.position.checked_sub(1).and_then(|i| events.get(i));
        let latest_call = match latest_event {
            Some(Event::CacheHit { .. } | Event::CacheMiss { .. }) => view.calls.len().checked_sub(1),
            _ => None,
        };
        let calls = view
            .calls
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let cached = view.cache.get(c.entry as usize);
                let edge = program.edges.get(c.edge.0 as usize);
                CallNode {
                    block: c.block.clone(),
                    depth: c.depth,
                    line: edge.map_or(0, |e| e.line),
                    from: BlockState::of(snap, c.from),
                    entry: c.entry,
                    hit: c.hit,
                    entry_state: cached.and_then(|e| e.initial).map(|id| BlockState::of(snap, id)),
                    summary: cached
                        .and_then(|e| e.exits.as_ref())
                        .map(|exits| exits.iter().map(|&id| BlockState::of(snap, id)).collect()),
                    open: view.open.contains(&i),
                    latest: latest_call == Some(i),
                }
            })
            .collect();
        let cache = view
            .cache
            .iter()
            .enumerate()
            .map(|(k, e)| CacheRow {
                entry: k as u32,
                block: e.block.clone(),
                reduced: e.initial.map(|id| BlockState::of(snap, id)),
                exits: e.exits.as_ref().map(Vec::len),
                hits: e.hits,
                kept: e.restored,
            })
            .collect();
        BlockPanel {
            calls,
            cache,
            hits: view.calls.iter().filter(|c| c.hit).count(),
            misses: view.calls.iter().filter(|c| !c.hit).count(),
            last_refinement: view.last_refinement.clone(),
        }
    }

    /// What the latest refinement did to the cache, in words (`None`
    /// before any refinement).
    pub fn refinement_note(&self) -> Option<String> {
        let CacheRefinement { blocks, dropped, kept } = self.last_refinement.as_ref()?;
        let entries = |n: u32| format!("{n} {}", if n == 1 { "entry" } else { "entries" });
        let blocks = if blocks.is_empty() { "no block".to_string() } else { blocks.join(", ") };
        Some(format!(
            "The last refinement changed the reduced precision of {blocks}: {} dropped, so those blocks are analysed again; {} of other blocks kept, re-created at their first hit without analysing them (marked kept).",
            entries(*dropped),
            entries(*kept)
        ))
    }

    /// One line for the panel's head: `3 calls: 1 miss, 2 hits (cache: 1 entry)`.
    pub fn summary(&self) -> String {
        let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        format!(
            "{}: {}, {} (cache: {})",
            plural(self.calls.len(), "call", "calls"),
            plural(self.misses, "miss", "misses"),
            plural(self.hits, "hit", "hits"),
            plural(self.cache.len(), "entry", "entries")
        )
    }
}

/// One counterexample check of an error path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckRow {
    /// Which check (`explicit values (value analysis)`, `SMT`, …).
    pub check: String,
    /// The verdict in a word or two: `infeasible`, `feasible, confirmed`,
    /// `feasible`, `does not refute`.
    pub verdict: String,
    /// `Some(false)`: the check refuted the path; `Some(true)`: feasible;
    /// `None`: it decided nothing (the next check decides).
    pub feasible: Option<bool>,
    /// What the check found, in words.
    pub description: String,
}

/// The checks of the latest error path checked before the shown position,
/// in the order they ran (one per analysis under `bam-value-predicate`:
/// the value analysis' explicit values first, then — when they do not
/// refute the path — the predicate analysis' path formula).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CounterexampleChecks {
    /// The target state the path ends in.
    pub target: Option<StateId>,
    /// The checks in order.
    pub checks: Vec<CheckRow>,
}

impl CounterexampleChecks {
    /// The checks of the latest checked path in `events[..position]`:
    /// consecutive `counterexample` events for the same target, with no
    /// refinement or restart between them.
    pub fn at(events: &[Event], position: usize) -> CounterexampleChecks {
        let mut out = CounterexampleChecks::default();
        let mut open = false;
        for e in &events[..position.min(events.len())] {
            match e {
                Event::Counterexample { target, feasible, description, check, confirmed, .. } => {
                    if !open || out.target != Some(*target) {
                        out = CounterexampleChecks { target: Some(*target), checks: Vec::new() };
                    }
                    open = true;
                    let verdict = match feasible {
                        Some(false) => "infeasible",
                        Some(true) if *confirmed => "feasible, confirmed",
                        Some(true) => "feasible",
                        None => "does not refute",
                    };
                    out.checks.push(CheckRow {
                        check: check.clone(),
                        verdict: verdict.into(),
                        feasible: *feasible,
                        description: description.clone(),
                    });
                }
                Event::Refinement { .. } | Event::Restart { .. } | Event::AnalysisStarted { .. } => open = false,
                _ => {}
            }
        }
        out
    }

    /// Whether there are two or more checks to show in order (one check is
    /// what the CEGAR tab's "latest counterexample" already says).
    pub fn several(&self) -> bool {
        self.checks.len() >= 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::cegar::build_verifier;
    use engine::Stepper;
    use std::sync::Arc;

    const FIVE_CALLS: &str = "extern void reach_error(void);
int id(int n) {
  return n;
}
int main(void) {
  int a = id(3);
  int b = id(3);
  int c = id(3);
  int d = id(3);
  int e = id(3);
  if (a + b + c + d + e != 15) {
    reach_error();
  }
  return 0;
}
";

    fn run(source: &str, preset: &str) -> (Arc<Program>, Vec<Event>) {
        let program = Arc::new(cfa::from_source(source).unwrap());
        let config = engine::Config::preset(preset).unwrap();
        let mut verifier = build_verifier(program.clone(), &config, true).unwrap();
        let events = verifier.run();
        (program, events)
    }

    /// Loop blocks: the inner loop is a child of the outer one in the tree
    /// (depth = nesting), named by its line, entered (not called) at the
    /// line of the edge into its head.
    #[test]
    fn loop_blocks_nest_in_the_tree_by_their_nesting() {
        let source = "extern void reach_error(void);
int main(void) {
  int n = 0;
  int k = 0;
  while (k < 3) {
    int j = 0;
    while (j < 2) {
      j++;
    }
    n = n + j;
    k++;
  }
  if (n != 6) reach_error();
  return 0;
}
";
        let program = Arc::new(cfa::from_source(source).unwrap());
        let mut config = engine::Config::preset("value").unwrap();
        config.set("cpa.bam.enabled", "true").unwrap();
        config.set("cpa.bam.blockHeuristic", "LoopPartitioning").unwrap();
        let events = build_verifier(program.clone(), &config, true).unwrap().run();
        let panel = BlockPanel::of(&program, &Snapshot::of(&events), &events);
        let tree: Vec<(String, u32, bool, String)> =
            (panel.calls.iter()).map(|c| (c.title(), c.depth, c.hit, c.site())).collect();
        let row = |t: &str, d: u32, hit: bool, line: u32| (t.to_string(), d, hit, format!(" entered at line {line}"));
        assert_eq!(
            tree,
            vec![
                row("loop@line 5", 0, false, 5),
                row("loop@line 7", 1, false, 7),
                row("loop@line 7", 1, true, 7),
                row("loop@line 7", 1, true, 7)
            ]
        );
        assert_eq!(panel.summary(), "4 calls: 2 misses, 2 hits (cache: 2 entries)");
    }

    #[test]
    fn five_equal_calls_miss_once_and_hit_four_times() {
        let (program, events) = run(FIVE_CALLS, "bam-value");
        assert!(is_bam_run(&events));
        // The first iteration (before any refinement): one miss, four hits.
        let end_of_first =
            events.iter().position(|e| matches!(e, Event::CacheInvalidated { .. } | Event::AnalysisFinished { .. })).unwrap();
        let snap = Snapshot::of(&events[..end_of_first]);
        let panel = BlockPanel::of(&program, &snap, &events);
        let hits: Vec<bool> = panel.calls.iter().map(|c| c.hit).collect();
        assert_eq!(hits, [false, true, true, true, true], "{panel:?}");
        assert_eq!((panel.misses, panel.hits), (1, 4));
        assert_eq!(panel.summary(), "5 calls: 1 miss, 4 hits (cache: 1 entry)");
        let lines: Vec<u32> = panel.calls.iter().map(|c| c.line).collect();
        assert_eq!(lines, [6, 7, 8, 9, 10], "each call's own call site");
        assert!(panel.calls.iter().all(|c| c.block == "id" && c.depth == 0 && c.entry == 0 && !c.open));
        // Every hit reuses the miss's summary: the same exit states.
        let summary = panel.calls[0].summary.clone().expect("the block was analysed");
        assert!(!summary.is_empty());
        assert!(panel.calls.iter().all(|c| c.summary.as_ref() == Some(&summary)));
        assert_eq!(panel.cache.len(), 1);
        assert_eq!((panel.cache[0].hits, panel.cache[0].exits), (4, Some(summary.len())));
        assert_eq!(panel.calls[0].entry_state, panel.cache[0].reduced);
    }

    #[test]
    fn a_block_being_analysed_is_open_and_has_no_summary_yet() {
        let (program, events) = run(FIVE_CALLS, "bam-value");
        let entered = events.iter().position(|e| matches!(e, Event::BlockEntered { .. })).unwrap();
        let snap = Snapshot::of(&events[..=entered]);
        let panel = BlockPanel::of(&program, &snap, &events);
        assert_eq!(panel.calls.len(), 1);
        assert!(panel.calls[0].open && !panel.calls[0].hit);
        assert_eq!(panel.calls[0].summary, None);
        assert!(panel.calls[0].entry_state.is_some(), "the reduced entry state is known once entered");
        // Right after the miss event, the call is the latest one.
        let miss = events.iter().position(|e| matches!(e, Event::CacheMiss { .. })).unwrap();
        let snap = Snapshot::of(&events[..=miss]);
        let at_miss = BlockPanel::of(&program, &snap, &events);
        assert!(at_miss.calls[0].latest && at_miss.calls[0].entry_state.is_none());
    }

    #[test]
    fn the_block_breakpoints_stop_at_block_events_only() {
        use crate::model::analysis::Breakpoint;
        let (_, events) = run(FIVE_CALLS, "bam-value");
        let hits = events.iter().filter(|e| Breakpoint::CacheHit.matches(e)).count();
        assert_eq!(hits as u64, engine::view::Statistics::of(&events).cache_hits);
        assert!(hits >= 4);
        let kinds: std::collections::BTreeSet<&str> =
            events.iter().filter(|e| Breakpoint::BlockEvent.matches(e)).map(|e| e.kind()).collect();
        let expected = ["block_entered", "block_exited", "block_expanded", "cache_hit", "cache_invalidated", "cache_miss"];
        assert_eq!(kinds.into_iter().collect::<Vec<_>>(), expected);
        let (_, events) = run(include_str!("../../../engine/tests/programs/bam/kept.c"), "bam-value");
        assert!(events.iter().any(|e| matches!(e, Event::CacheRestored { .. }) && Breakpoint::BlockEvent.matches(e)));
        assert!(Breakpoint::ALL.contains(&Breakpoint::CacheHit) && Breakpoint::ALL.contains(&Breakpoint::BlockEvent));
    }

    /// `noise(5)` runs before the variable the refinement is about exists:
    /// after the refinement its entry is kept (and marked so), `inc`'s is
    /// dropped, and the note says both.
    #[test]
    fn a_kept_entry_is_marked_and_the_refinement_note_counts_dropped_and_kept() {
        let (program, events) = run(include_str!("../../../engine/tests/programs/bam/kept.c"), "bam-value");
        let panel = BlockPanel::of(&program, &Snapshot::of(&events), &events);
        let kept: Vec<(&str, bool)> = panel.cache.iter().map(|r| (r.block.as_str(), r.kept)).collect();
        assert!(kept.contains(&("noise", true)) && kept.contains(&("inc", false)), "{kept:?}");
        let note = panel.refinement_note().expect("one refinement");
        assert!(note.contains("of inc: 1 entry dropped") && note.contains("1 entry of other blocks kept"), "{note}");
        let first = events.iter().position(|e| matches!(e, Event::CacheInvalidated { .. })).unwrap();
        let before = BlockPanel::of(&program, &Snapshot::of(&events[..first]), &events[..first]);
        assert_eq!(before.refinement_note(), None);
    }

    #[test]
    fn a_run_without_bam_has_no_block_view() {
        let (program, events) = run(FIVE_CALLS, "value");
        assert!(!is_bam_run(&events));
        let panel = BlockPanel::of(&program, &Snapshot::of(&events), &events);
        assert!(panel.calls.is_empty() && panel.cache.is_empty());
    }

    #[test]
    fn two_checks_in_order_value_then_predicate() {
        let events = vec![
            Event::Counterexample {
                target: StateId(7),
                feasible: None,
                description: "explicit values along the path do not refute it".into(),
                path: vec![],
                check: "explicit values (value analysis)".into(),
                inputs: vec![],
                confirmed: false,
            },
            Event::Counterexample {
                target: StateId(7),
                feasible: Some(false),
                description: "the SSA path formula is unsatisfiable".into(),
                path: vec![],
                check: "SMT".into(),
                inputs: vec![],
                confirmed: false,
            },
        ];
        let both = CounterexampleChecks::at(&events, 2);
        assert!(both.several());
        let verdicts: Vec<&str> = both.checks.iter().map(|c| c.verdict.as_str()).collect();
        assert_eq!(verdicts, ["does not refute", "infeasible"]);
        assert_eq!(both.checks[0].check, "explicit values (value analysis)");
        // Stepped back to between them: only the first check so far.
        assert_eq!(CounterexampleChecks::at(&events, 1).checks.len(), 1);
        // A check of another target starts a new list.
        let mut more = events.clone();
        more.push(Event::Counterexample {
            target: StateId(9),
            feasible: Some(false),
            description: "explicit values refute edge 3".into(),
            path: vec![],
            check: "explicit values (value analysis)".into(),
            inputs: vec![],
            confirmed: false,
        });
        let last = CounterexampleChecks::at(&more, 3);
        assert_eq!((last.target, last.checks.len()), (Some(StateId(9)), 1));
    }
}
