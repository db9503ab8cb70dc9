//! Every gallery example, run natively under every configuration it lists,
//! reaches the verdict its explanation promises (so the page's gallery never
//! tells students something the analysis does not do).

use engine::cegar::build_verifier;
use engine::Config;
use engine::Stepper;
use std::sync::Arc;

#[test]
fn every_example_reaches_its_stated_verdicts() {
    let (examples, errors) = web::model::gallery::examples();
    assert!(errors.is_empty(), "{errors:?}");
    let mut checked = 0;
    for e in &examples {
        let program = Arc::new(cfa::from_source(e.program).unwrap_or_else(|d| panic!("{}: {d:?}", e.id)));
        for config_name in &e.configs {
            // A preset, or a preset with overrides (`symbolic[solver.theory=INTEGER]`):
            // the page's own reading of the name.
            let choice = web::model::config_choice::parse(config_name).unwrap_or_else(|err| panic!("{}: {err}", e.id));
            let mut config = choice.run_spec(e.model(), 0).config().unwrap();
            config.set("analysis.intModel", &e.int_model).unwrap();
            // Enough for every terminating example; the others end UNKNOWN here.
            config.set("limits.steps", "3000").unwrap();
            // The verifier runs CEGAR, counterexample checks and restarts
            // when the configuration asks for them (natively with Debian's z3).
            let mut analysis = build_verifier(program.clone(), &config, false).unwrap();
            analysis.run();
            let verdict = analysis.outcome().unwrap().0.lower();
            assert_eq!(Some(verdict), e.expected(config_name), "{} under {config_name}", e.id);
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} runs");
}

/// The cells of every table in a card, as plain text, row by row.
fn card_table_rows(e: &web::model::gallery::Example) -> Vec<Vec<String>> {
    use web::model::gallery::{plain_text, Block};
    (e.body.iter())
        .filter_map(|b| match b {
            Block::Table { rows, .. } => Some(rows.iter().map(|r| r.iter().map(|c| plain_text(c)).collect())),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The thresholds card quotes, per threshold, the refinements and steps of
/// `symexec-predabs` (set in the configuration panel, which the front
/// matter cannot carry): its table must stay what the engine does.
#[test]
fn the_thresholds_card_shows_what_each_threshold_does() {
    let e = web::model::gallery::example("symexec-thresholds").expect("the thresholds example is shipped");
    let rows = card_table_rows(&e);
    assert_eq!(rows.len(), 3, "one row per threshold: {rows:?}");
    let program = Arc::new(cfa::from_source(e.program).unwrap());
    for row in &rows {
        let threshold = &row[0];
        let mut config = Config::preset("symexec-predabs").unwrap();
        config.set("analysis.intModel", &e.int_model).unwrap();
        config.set("symexec.abstraction.threshold", threshold).unwrap();
        let mut analysis = build_verifier(program.clone(), &config, false).unwrap();
        let stats = engine::view::Statistics::of(&analysis.run());
        let verdict = analysis.outcome().unwrap().0.lower().to_uppercase();
        let measured = vec![threshold.clone(), verdict, stats.refinements.to_string(), stats.steps.to_string()];
        assert_eq!(&measured, row, "threshold {threshold}: the card's row is not what the run does");
    }
}

/// The memory-regions card quotes, per `cpa.predicate.memoryRegions`, the
/// retention disjuncts and the verdict of `predicate` on the seed's
/// example: its table must stay what the engine does (BNB fewer than TYPE,
/// SINGLE not provable).
#[test]
fn the_memory_regions_card_shows_the_retention_disjuncts_of_each_setting() {
    let e = web::model::gallery::example("predicate-memory-regions").expect("the memory-regions example is shipped");
    let rows = card_table_rows(&e);
    assert_eq!(rows.len(), 3, "one row per region setting: {rows:?}");
    let program = Arc::new(cfa::from_source(e.program).unwrap());
    let mut retention = Vec::new();
    for row in &rows {
        let setting = &row[0];
        let mut config = Config::preset("predicate").unwrap();
        config.set("analysis.intModel", &e.int_model).unwrap();
        config.set("cpa.predicate.memoryRegions", setting).unwrap();
        let mut analysis = build_verifier(program.clone(), &config, false).unwrap();
        let stats = engine::view::Statistics::of(&analysis.run());
        let verdict = analysis.outcome().unwrap().0.lower().to_uppercase();
        assert_eq!([&row[2], &row[3]], [&stats.retention_disjuncts.to_string(), &verdict], "{setting}: the card's row");
        retention.push((setting.clone(), stats.retention_disjuncts));
    }
    assert_eq!(retention.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>(), ["BNB", "TYPE", "SINGLE"]);
    assert!(retention[0].1 < retention[1].1, "BNB needs fewer retention disjuncts than TYPE: {retention:?}");
}

/// The running-example and thresholds cards say that plain symbolic
/// execution (`symexec`, and `symbolic` on the running example) never ends
/// on them; they are too slow in the page to be card configurations, so the
/// claim is checked here (UNKNOWN at a small step limit).
#[test]
fn plain_symbolic_execution_ends_unknown_on_the_symexec_cards() {
    for (id, configs) in [("symexec-running-example", &["symexec", "symbolic"][..]), ("symexec-thresholds", &["symexec"][..])] {
        let e = web::model::gallery::example(id).expect("the example is shipped");
        let program = Arc::new(cfa::from_source(e.program).unwrap());
        for config_name in configs {
            let mut config = Config::preset(config_name).unwrap();
            config.set("analysis.intModel", &e.int_model).unwrap();
            config.set("limits.steps", "500").unwrap();
            let mut analysis = build_verifier(program.clone(), &config, false).unwrap();
            analysis.run();
            let (verdict, reason) = analysis.outcome().unwrap();
            assert_eq!(verdict.lower(), "unknown", "{id} under {config_name}: {reason}");
            assert!(reason.contains("step limit"), "{id} under {config_name} stops at its step limit: {reason}");
        }
    }
}

/// The theory card: the same `symbolic` analysis under C's integers answers
/// TRUE with the INTEGER theory (deliberately unsound: it says it ignored
/// overflow) and FALSE, confirmed by a concrete replay, with BITVECTOR —
/// the numbers of queries the card quotes (3 and 5) included.
#[test]
fn the_theory_card_integer_misses_the_overflow_bitvector_confirms_it() {
    let e = web::model::gallery::example("symbolic-theory").expect("the theory example is shipped");
    assert_eq!(e.int_model, "c");
    let program = Arc::new(cfa::from_source(e.program).unwrap());
    let mut seen = Vec::new();
    for name in &e.configs {
        let config = web::model::config_choice::parse(name).unwrap().run_spec(e.model(), 0).config().unwrap();
        let mut analysis = build_verifier(program.clone(), &config, false).unwrap();
        let stats = engine::view::Statistics::of(&analysis.run());
        let (verdict, reason) = analysis.outcome().unwrap();
        seen.push((
            config.get("solver.theory").to_string(),
            verdict.lower(),
            stats.solver_queries,
            analysis.confirmed(),
            reason.to_string(),
        ));
    }
    assert_eq!((seen[0].0.as_str(), seen[0].1, seen[0].2), ("INTEGER", "true", 3), "{seen:?}");
    assert!(seen[0].4.contains("ignores arithmetic overflow"), "the unsound TRUE says why: {}", seen[0].4);
    assert_eq!((seen[1].0.as_str(), seen[1].1, seen[1].2, seen[1].3), ("BITVECTOR", "false", 5, Some(true)), "{seen:?}");
    // The card labels the INTEGER column, and only it, as unsound by choice.
    let unsound = e.unsound_by_choice();
    assert_eq!(unsound.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["symbolic with solver.theory = INTEGER"]);
    let text: String = e.body.iter().map(|b| format!("{b:?}")).collect();
    assert!(text.contains("unsound on purpose"), "the card says so in words");
}

/// The strengthening card's claims: `[y != 21]` after `[x == 7]` is decided
/// without a solver query (the equality made `y` explicit), and the whole
/// run asks two.
#[test]
fn the_strengthening_card_decides_y_after_x_equals_7_without_a_query() {
    let e = web::model::gallery::example("symbolic-strengthening").expect("the strengthening example is shipped");
    let program = Arc::new(cfa::from_source(e.program).unwrap());
    let mut config = Config::preset("symbolic").unwrap();
    config.set("analysis.intModel", &e.int_model).unwrap();
    let mut analysis = build_verifier(program.clone(), &config, false).unwrap();
    let events = analysis.run();
    assert_eq!(engine::view::Statistics::of(&events).solver_queries, 2);
    use engine::trace::Event;
    let at = events
        .iter()
        .position(|ev| matches!(ev, Event::Transfer { label, .. } if label == "[y != 21]"))
        .expect("a step takes `[y != 21]`");
    let Event::Transfer { successors, .. } = &events[at] else { unreachable!() };
    assert!(successors.is_empty(), "the edge is infeasible after `x == 7`");
    // Back to the step's pop: no solver query decided it.
    let pop = events[..at].iter().rposition(|ev| matches!(ev, Event::WaitlistPop { .. })).unwrap();
    assert!(
        !events[pop..at].iter().any(|ev| matches!(ev, Event::SolverQuery { .. })),
        "decided by strengthening alone: {:?}",
        &events[pop..at]
    );
}

/// A configuration override the engine does not know is refused with the
/// example's file, line and the column in the name, not run.
#[test]
fn a_bad_override_in_the_front_matter_is_a_located_message() {
    let md = "---\ntitle: t\nprogram: bad.c\nconfigs: symbolic, symbolic[solver.theory=RATIONAL]\nseed: symbolic\n---\nWhat to look at.\n";
    let err = web::model::gallery::parse_example("bad", md, "int main(void) { return 0; }").unwrap_err();
    assert_eq!(err.to_string().split(": ").next(), Some("bad.md:4"), "{err}");
    assert!(err.message.contains("column 10") && err.message.contains("RATIONAL"), "{err}");
}
