//! Block-abstraction memoization (presets `bam-value`, `bam-predicate`,
//! `bam-value-predicate`) through `engine::cegar::build_verifier` with the
//! native z3: exact cache hit/miss counts on hand-computed programs, what
//! the cache saves against `predicate` (states created, solver queries:
//! counts, never time), the cache emptied after a refinement, error paths
//! through a reused block that are real CFA paths and confirmed FALSE, and
//! recursion (a call of an open block is an ordinary call inside it).

use engine::cegar::build_verifier;
use engine::trace::Event;
use engine::view::{Snapshot, Statistics};
use engine::{Config, Stepper, Verdict};
use std::sync::Arc;

struct Outcome {
    verdict: Verdict,
    reason: String,
    confirmed: Option<bool>,
    path: Vec<cfa::EdgeId>,
    stats: Statistics,
    events: Vec<Event>,
    program: Arc<cfa::Program>,
}

fn run(src: &str, preset: &str) -> Outcome {
    run_with(src, preset, &[])
}

const FIVE: &str = include_str!("programs/bam/five.c");
/// The gallery's cache-hits example: a function with a loop, called five
/// times with the same argument.
const LOOP5: &str = include_str!("../../../static/examples/bam-cache-hits.c");
const REUSED_BUG: &str = include_str!("programs/bam/reused_bug.c");
const RECURSIVE: &str = include_str!("programs/bam/recursive.c");
const RECURSIVE_BUG: &str = include_str!("programs/bam/recursive_bug.c");

/// The events of each CEGAR iteration.
fn iterations(events: &[Event]) -> Vec<&[Event]> {
    events.split(|e| matches!(e, Event::Restart { .. })).collect()
}

/// `count(3)` from five call sites: the call edge assigns n = 3 and reduce
/// drops main's variables, so in every CEGAR iteration every call enters
/// `count` with the same reduced state and precision: the first call
/// misses and the other four hit; `count` is analysed once per iteration.
#[test]
fn five_equal_calls_one_miss_four_hits() {
    let o = run(LOOP5, "bam-value-predicate");
    assert_eq!(o.verdict, Verdict::True, "{}", o.reason);
    let its = iterations(&o.events);
    assert_eq!(its.len() as u64, o.stats.refinements + 1);
    for (i, it) in its.iter().enumerate() {
        let s = Statistics::of(it);
        assert_eq!((s.cache_misses, s.cache_hits, s.blocks_entered), (1, 4, 1), "iteration {}", i + 1);
    }
    let last = its.last().unwrap();
    let snap = Snapshot::of(last);
    assert_eq!(snap.blocks.cache.len(), 1);
    assert_eq!(snap.blocks.cache[0].block, "count");
    assert_eq!(snap.blocks.cache[0].hits, 4);
    assert_eq!(snap.blocks.calls.iter().filter(|c| c.hit).count(), 4);
    assert!(snap.blocks.open.is_empty(), "every block was closed");
    // Every hit expanded the one exit state into its caller's context.
    assert!(snap.blocks.calls.iter().all(|c| c.successors.len() == 1));
}

/// The same program under `predicate` (no cache): the loop of `count` is
/// analysed at every call. Printed figures: `cargo test -p engine --test bam
/// -- --nocapture`.
#[test]
fn the_cache_saves_states_and_queries_against_predicate() {
    let bam = run(LOOP5, "bam-value-predicate");
    let plain = run(LOOP5, "predicate");
    assert_eq!(plain.verdict, Verdict::True, "{}", plain.reason);
    println!(
        "bam-cache-hits.c: bam-value-predicate {} states, {} queries; predicate {} states, {} queries (ratios {:.3}, {:.3})",
        bam.stats.created,
        bam.stats.solver_queries,
        plain.stats.created,
        plain.stats.solver_queries,
        bam.stats.created as f64 / plain.stats.created as f64,
        bam.stats.solver_queries as f64 / plain.stats.solver_queries.max(1) as f64
    );
    assert!(bam.stats.created < plain.stats.created);
    assert!(bam.stats.solver_queries < plain.stats.solver_queries);
}

/// Value ∥ predicate: every error path is checked twice, one
/// `Counterexample` per analysis, the value analysis' first. Here explicit
/// values never refute a path (n is an input), so each refinement is the
/// predicate analysis' (predicate interpolation) after the path formula
/// found the path infeasible.
#[test]
fn two_counterexample_checks_and_the_analysis_that_refutes_refines() {
    let o = run(include_str!("programs/bam/needs_predicates.c"), "bam-value-predicate");
    assert_eq!(o.verdict, Verdict::True, "{}", o.reason);
    assert!(o.stats.refinements > 0);
    let checks: Vec<&Event> = o.events.iter().filter(|e| matches!(e, Event::Counterexample { .. })).collect();
    assert_eq!(checks.len() % 2, 0);
    for pair in checks.chunks(2) {
        let (Event::Counterexample { check: first, feasible: f1, .. }, Event::Counterexample { check: second, .. }) =
            (pair[0], pair[1])
        else {
            unreachable!()
        };
        assert_eq!(first, "explicit values (value analysis)");
        assert_eq!(*f1, None, "explicit values cannot refute a path over an input");
        assert_ne!(second, first);
    }
    for e in &o.events {
        if let Event::Refinement { refiner, .. } = e {
            assert!(refiner.starts_with("predicate interpolation"), "{refiner}");
        }
    }
    // five.c: explicit values refute the path; the value analysis refines
    // its own precision (no path formula asked).
    let o = run(FIVE, "bam-value-predicate");
    assert_eq!(o.verdict, Verdict::True, "{}", o.reason);
    let kinds: Vec<String> = o
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Counterexample { check, feasible, .. } => Some(format!("check {check} {feasible:?}")),
            Event::Refinement { refiner, .. } => Some(format!("refinement {refiner}")),
            _ => None,
        })
        .collect();
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    assert_eq!(kinds[0], "check explicit values (value analysis) Some(false)");
    assert!(kinds[1].starts_with("refinement") && !kinds[1].contains("predicate"), "{kinds:?}");
}

/// Value analysis with CEGAR (empty precision): `inc(a)` enters `inc` with
/// x unknown (a is not tracked), `inc(0)` with x = 0 — two cache entries,
/// the last three calls hit the second: 2 misses, 3 hits per iteration.
/// The error path is refuted by value interpolation; the refinement changes
/// the precision at locations of `inc` and `main`, so both entries (both
/// of `inc`) are dropped and the second iteration has the same 2 misses
/// and 3 hits.
#[test]
fn value_cegar_counts_and_the_entries_of_a_refined_block_dropped() {
    let o = run(FIVE, "bam-value");
    assert_eq!(o.verdict, Verdict::True, "{}", o.reason);
    assert_eq!(o.stats.refinements, 1);
    assert_eq!((o.stats.cache_misses, o.stats.cache_hits), (4, 6));
    let invalidated: Vec<(&Vec<String>, u32, u32)> = o
        .events
        .iter()
        .filter_map(|e| match e {
            Event::CacheInvalidated { blocks, entries, kept } => Some((blocks, *entries, *kept)),
            _ => None,
        })
        .collect();
    assert_eq!(invalidated.len(), 1);
    assert_eq!(invalidated[0].1, 2);
    assert_eq!(invalidated[0].2, 0, "both entries are of `inc`, whose precision changed");
    assert!(invalidated[0].0.contains(&"inc".to_string()), "{:?}", invalidated[0].0);
    // The invalidation comes between the refinement and the restart.
    let pos = |k: &str| o.events.iter().position(|e| e.kind() == k).unwrap();
    assert!(pos("refinement") < pos("cache_invalidated") && pos("cache_invalidated") < pos("restart"));
    assert_eq!(o.stats.cache_invalidated, 2);
}

/// The edges of a path follow each other in the CFA.
fn assert_cfa_path(o: &Outcome) {
    assert!(!o.path.is_empty());
    for w in o.path.windows(2) {
        let (a, b) = (o.program.edge(w[0]), o.program.edge(w[1]));
        assert_eq!(a.target, b.source, "edges {} and {} do not connect", a.id.0, b.id.0);
    }
}

/// The error comes after the second call of `next`, which reuses the first
/// call's summary: the error path must still run through `next`'s body
/// twice (reconstructed through the cached block) and be confirmed.
#[test]
fn an_error_path_through_a_reused_block_is_a_real_path_and_confirmed() {
    for preset in ["bam-value", "bam-predicate", "bam-value-predicate"] {
        let o = run(REUSED_BUG, preset);
        assert_eq!(o.verdict, Verdict::False, "{preset}: {}", o.reason);
        assert_eq!(o.confirmed, Some(true), "{preset}");
        assert_eq!((o.stats.cache_misses, o.stats.cache_hits), (1, 1), "{preset}");
        assert_cfa_path(&o);
        let next = o.program.functions.iter().find(|f| f.name == "next").unwrap();
        let returns = o.path.iter().filter(|e| o.program.edge(**e).source == next.exit).count();
        assert_eq!(returns, 2, "{preset}: the path leaves `next` twice");
    }
}

/// A recursive call is an ordinary call inside the open block: the safe
/// program is never TRUE wrongly, the buggy one is found and confirmed.
#[test]
fn recursion_inside_a_block_is_sound() {
    for preset in ["bam-value", "bam-predicate", "bam-value-predicate"] {
        let safe = run(RECURSIVE, preset);
        let bug = run(RECURSIVE_BUG, preset);
        assert_ne!(bug.verdict, Verdict::True, "{preset}: a wrong TRUE ({})", bug.reason);
        if bug.verdict == Verdict::False {
            assert_eq!(bug.confirmed, Some(true), "{preset}");
            assert_cfa_path(&bug);
        }
        assert_ne!(safe.verdict, Verdict::False, "{preset}: {}", safe.reason);
    }
    assert_eq!(run(RECURSIVE, "bam-value-predicate").verdict, Verdict::True);
    assert_eq!(run(RECURSIVE_BUG, "bam-value-predicate").verdict, Verdict::False);
}

/// A TRUE under mathematical integers names the first operation whose C
/// result could differ — here inside a block (`x + x` of `twice`, reached
/// only in the block analysis' reached set), which the caveat must see.
#[test]
fn the_integer_model_caveat_looks_into_blocks() {
    let program = Arc::new(cfa::from_source(include_str!("programs/bam/overflow.c")).unwrap());
    let mut config = Config::preset("bam-value-predicate").unwrap();
    config.set("analysis.intModel", "MATH").unwrap();
    let mut v = build_verifier(program, &config, false).unwrap();
    v.run();
    assert_eq!(v.outcome().unwrap().0, Verdict::True);
    let caveat = v.int_model_caveat().expect("a caveat for `x + x`");
    assert_eq!((caveat.line, caveat.operation.as_str()), (4, "x + x"));
}

const KEPT: &str = include_str!("programs/bam/kept.c");

/// The events between two restarts, as kinds.
fn kinds(events: &[Event]) -> Vec<&'static str> {
    events.iter().map(Event::kind).collect()
}

/// `noise(5)` runs before `a` exists, so the refinement that refutes the
/// first error path (a ≠ 1 after `inc(0)`) adds precision in `inc` and
/// `main` only: `noise`'s cache entry is kept ("1 kept"), `inc`'s dropped.
/// In the second iteration `noise` is not analysed again: its entry is
/// re-created (`cache_restored`, no miss, no solver query inside it) and
/// reused; the real error path then runs through the re-created block, is
/// a CFA path through `noise`'s body and is confirmed. Under every BAM
/// preset, and the same with the TRUE variant (whose second refinement
/// touches `noise` too, dropping both entries).
#[test]
fn a_refinement_keeps_the_cache_entries_of_blocks_it_does_not_affect() {
    for preset in ["bam-value", "bam-predicate", "bam-value-predicate"] {
        let o = run(KEPT, preset);
        assert_eq!(o.verdict, Verdict::False, "{preset}: {}", o.reason);
        assert_eq!(o.confirmed, Some(true), "{preset}");
        let inv: Vec<(Vec<String>, u32, u32)> = (o.events.iter())
            .filter_map(|e| match e {
                Event::CacheInvalidated { blocks, entries, kept } => Some((blocks.clone(), *entries, *kept)),
                _ => None,
            })
            .collect();
        assert_eq!(inv, vec![(vec!["inc".to_string()], 1, 1)], "{preset}");
        let its = iterations(&o.events);
        assert_eq!(its.len(), 2, "{preset}");
        let second = kinds(its[1]);
        let restored = second.iter().position(|k| *k == "cache_restored").expect("noise's entry re-created");
        assert_eq!(second[restored + 1], "cache_hit", "{preset}: the re-created entry is used at once");
        let misses: Vec<&str> = (its[1].iter())
            .filter_map(|e| match e {
                Event::CacheMiss { block, .. } => Some(block.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(misses, vec!["inc"], "{preset}: only inc is analysed again");
        // The re-created states are announced like any other, in order.
        let Some(Event::CacheRestored { initial, exits, states, .. }) =
            its[1].iter().find(|e| matches!(e, Event::CacheRestored { .. }))
        else {
            unreachable!()
        };
        let created: Vec<u32> = (its[1].iter())
            .filter_map(|e| match e {
                Event::StateCreated { state, .. } if state.0 >= initial.0 && state.0 < initial.0 + states => Some(state.0),
                _ => None,
            })
            .collect();
        assert_eq!(created.len() as u32, *states, "{preset}");
        assert!(exits.iter().all(|x| x.0 < initial.0 + states), "{preset}");
        assert_cfa_path(&o);
        let noise = o.program.functions.iter().find(|f| f.name == "noise").unwrap();
        assert_eq!(
            o.path.iter().filter(|e| o.program.edge(**e).source == noise.exit).count(),
            1,
            "{preset}: the error path leaves the re-created `noise` block"
        );
        assert!(o.path.iter().any(|e| o.program.edge(*e).target == noise.exit), "{preset}: and runs through its body");
        let snap = Snapshot::of(&o.events);
        assert_eq!(o.stats.cache_restored, 1, "{preset}");
        assert!(snap.blocks.cache.iter().any(|c| c.restored && c.block == "noise"), "{preset}");

        // The TRUE variant: the error needs z != 5 after noise(5).
        let kept_true = KEPT.replace("if (z == 5)", "if (z != 5)");
        assert_ne!(kept_true, KEPT);
        let o = run(&kept_true, preset);
        assert_eq!(o.verdict, Verdict::True, "{preset}: {}", o.reason);
        assert_eq!(o.stats.cache_restored, 1, "{preset}");
    }
}

/// `run` with `cpa.bam.blockHeuristic = heuristic` and the other `sets`.
fn run_blocks(src: &str, preset: &str, heuristic: &str, sets: &[(&str, &str)]) -> Outcome {
    let mut all = vec![("cpa.bam.blockHeuristic", heuristic)];
    all.extend_from_slice(sets);
    run_with(src, preset, &all)
}

/// `run` with the options `sets` set after the preset's.
fn run_with(src: &str, preset: &str, sets: &[(&str, &str)]) -> Outcome {
    let program = Arc::new(cfa::from_source(src).expect("the test program parses"));
    let mut config = Config::preset(preset).unwrap();
    config.set("limits.steps", "20000").unwrap();
    for (k, v) in sets {
        config.set(k, v).unwrap();
    }
    let mut v = build_verifier(program.clone(), &config, false).unwrap();
    let events = v.run();
    let (verdict, reason) = v.outcome().expect("the run finished");
    let path = v.error_path().map(|p| p.to_vec()).unwrap_or_default();
    Outcome {
        verdict,
        reason: reason.to_string(),
        confirmed: v.confirmed(),
        path,
        stats: Statistics::of(&events),
        events,
        program,
    }
}

/// The `value` preset (full precision, one iteration) with BAM on.
const FULL_VALUE_BAM: &[(&str, &str)] = &[("cpa.bam.enabled", "true")];

/// The (block, hit) of every cache lookup, in order.
fn lookups(events: &[Event]) -> Vec<(String, bool)> {
    (events.iter())
        .filter_map(|e| match e {
            Event::CacheMiss { block, .. } => Some((block.clone(), false)),
            Event::CacheHit { block, .. } => Some((block.clone(), true)),
            _ => None,
        })
        .collect()
}

const LOOPS_NESTED: &str = include_str!("programs/bam/loops_nested.c");
const LOOP_IN_CALLS: &str = include_str!("programs/bam/loop_in_calls.c");
const REUSED_LOOP_BUG: &str = include_str!("programs/bam/reused_loop_bug.c");

/// LoopPartitioning, full explicit values (one iteration): the outer loop
/// (line 5) is entered once from `main` with n = k = 0: a miss. Inside its
/// block the inner loop (line 7) is entered at k = 0, 1, 2, each time
/// with j = 0; reduce keeps only j (the inner loop touches nothing else),
/// so the first entry misses and the other two hit the same entry
/// ({j = 0} ↦ exit {j = 2}). 2 misses, 2 hits, 2 cache entries; the outer
/// block is open while the inner one runs (depth 2), and the summary of
/// the inner loop, expanded with n and k of each outer iteration, gives
/// n = 6 at the end: TRUE.
#[test]
fn loop_blocks_nested_inner_loop_reused_from_the_same_reduced_state() {
    let o = run_blocks(LOOPS_NESTED, "value", "LoopPartitioning", FULL_VALUE_BAM);
    assert_eq!(o.verdict, Verdict::True, "{}", o.reason);
    let (outer, inner) = ("loop@line 5".to_string(), "loop@line 7".to_string());
    assert_eq!(
        lookups(&o.events),
        vec![(outer.clone(), false), (inner.clone(), false), (inner.clone(), true), (inner.clone(), true)]
    );
    assert_eq!((o.stats.cache_misses, o.stats.cache_hits, o.stats.blocks_entered), (2, 2, 2));
    let depths: Vec<(String, u32)> = (o.events.iter())
        .filter_map(|e| match e {
            Event::BlockEntered { block, depth, .. } => Some((block.clone(), *depth)),
            _ => None,
        })
        .collect();
    assert_eq!(depths, vec![(outer.clone(), 1), (inner.clone(), 2)]);
    let snap = Snapshot::of(&o.events);
    assert_eq!(snap.blocks.cache.len(), 2);
    assert_eq!((snap.blocks.cache[1].block.as_str(), snap.blocks.cache[1].hits), ("loop@line 7", 2));
    assert_eq!(snap.blocks.cache[1].exits.as_ref().map(Vec::len), Some(1), "the inner loop has one exit state, j = 2");
    // The call tree: the inner loop's three uses are children of the outer loop's.
    assert_eq!(snap.blocks.calls.iter().filter(|c| c.parent == Some(0) && c.depth == 1).count(), 3);
    // Under FunctionPartitioning this program has no blocks at all.
    let f = run_blocks(LOOPS_NESTED, "value", "FunctionPartitioning", FULL_VALUE_BAM);
    assert_eq!((f.verdict, f.stats.cache_misses, f.stats.cache_hits), (Verdict::True, 0, 0));
}

/// The loop of `wait` reached from three call sites with only `t` (which
/// the loop does not touch) and the call stack differing: as function
/// blocks, `wait(1)`, `wait(2)`, `wait(3)` are three misses; as a loop
/// block (calls inline) the loop is entered with {c = 0} each time: one
/// miss, two hits; with both, each call of `wait` misses and the loop
/// inside it misses once, then hits twice (a loop block nested in a
/// function block).
#[test]
fn loop_blocks_the_same_loop_from_several_call_sites() {
    let counts = |h: &str| {
        let o = run_blocks(LOOP_IN_CALLS, "value", h, FULL_VALUE_BAM);
        assert_eq!(o.verdict, Verdict::True, "{h}: {}", o.reason);
        (o.stats.cache_misses, o.stats.cache_hits, lookups(&o.events))
    };
    let (m, h, _) = counts("FunctionPartitioning");
    assert_eq!((m, h), (3, 0));
    let (m, h, l) = counts("LoopPartitioning");
    assert_eq!((m, h), (1, 2));
    assert!(l.iter().all(|(b, _)| b == "loop@line 6"), "{l:?}");
    let (m, h, l) = counts("FunctionAndLoopPartitioning");
    assert_eq!((m, h), (4, 2), "{l:?}");
    let order: Vec<(&str, bool)> = l.iter().map(|(b, hit)| (b.as_str(), *hit)).collect();
    assert_eq!(
        order,
        vec![
            ("wait", false),
            ("loop@line 6", false),
            ("wait", false),
            ("loop@line 6", true),
            ("wait", false),
            ("loop@line 6", true)
        ]
    );
}

/// A FALSE and a TRUE program under LoopPartitioning with every BAM
/// preset. In the FALSE one the error comes after the outer loop ran
/// twice; the inner loop's second entry reuses the first one's summary in
/// the final CEGAR iteration, so the error path leaves the inner loop
/// twice — once through the reused block, reconstructed — and is a real
/// CFA path, confirmed by concrete replay. The TRUE variant needs r = 2
/// after the outer loop.
#[test]
fn loop_blocks_true_and_false_under_every_preset_with_a_path_through_a_reused_loop() {
    let safe = REUSED_LOOP_BUG.replace("if (x == 5) reach_error();", "if (r != 2) reach_error();");
    assert_ne!(safe, REUSED_LOOP_BUG);
    for preset in ["bam-value", "bam-predicate", "bam-value-predicate"] {
        let o = run_blocks(REUSED_LOOP_BUG, preset, "LoopPartitioning", &[]);
        assert_eq!(o.verdict, Verdict::False, "{preset}: {}", o.reason);
        assert_eq!(o.confirmed, Some(true), "{preset}");
        assert_cfa_path(&o);
        let last = *iterations(&o.events).last().unwrap();
        assert!(lookups(last).contains(&("loop@line 8".to_string(), true)), "{preset}: {:?}", lookups(last));
        let inner_exits = (o.path.iter()).filter(|e| o.program.edge(**e).label == "[!(c < 2)]").count();
        assert_eq!(inner_exits, 2, "{preset}: the path leaves the inner loop twice");
        let t = run_blocks(&safe, preset, "LoopPartitioning", &[]);
        assert_eq!(t.verdict, Verdict::True, "{preset}: {}", t.reason);
        assert!(t.stats.cache_hits > 0, "{preset}");
    }
}
