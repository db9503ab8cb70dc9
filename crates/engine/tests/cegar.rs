//! CEGAR with explicit-value interpolation, the octagon backup refiner, the
//! counterexample check and the restart algorithm: the octagon
//! thesis's Listing 2.1, its footnote case, and the fold across restarts.

use engine::cegar::{build_verifier, Verifier};
use engine::trace::Event;
use engine::view::{Cursor, Snapshot, Statistics};
use engine::Stepper;
use engine::{build_analysis, Config, Verdict};
use engine::{feasibility, interpolation, refinement};
use std::sync::Arc;

fn program(src: &str) -> Arc<cfa::Program> {
    Arc::new(cfa::from_source(src).expect("the test program parses"))
}

fn listing_2_1() -> Arc<cfa::Program> {
    program(include_str!("../../../static/examples/octagon-listing2-1.c"))
}

fn config(name: &str, steps: &str) -> Config {
    let mut c = Config::preset(name).unwrap();
    c.set("limits.steps", steps).unwrap();
    c
}

fn run(p: &Arc<cfa::Program>, c: &Config) -> (Verifier, Vec<Event>) {
    let mut v = build_verifier(p.clone(), c, true).unwrap();
    let events = v.run();
    (v, events)
}

fn var(p: &cfa::Program, name: &str) -> cfa::VarId {
    p.variables.iter().find(|v| v.name == name).unwrap().id
}

#[test]
fn value_does_not_terminate_on_listing_2_1() {
    let p = listing_2_1();
    let mut a = build_analysis(p, &config("value", "2000"), false).unwrap();
    a.run_with(|_| {});
    let (v, reason) = a.outcome().unwrap();
    assert_eq!(v, Verdict::Unknown);
    assert!(reason.contains("step limit"), "{reason}");
}

#[test]
fn value_cegar_on_listing_2_1_tracks_flag_and_never_the_loop_counter() {
    let p = listing_2_1();
    let (v, events) = run(&p, &config("value-cegar", "2000"));
    let (verdict, reason) = v.outcome().unwrap();
    println!("value-cegar: {verdict:?} {reason}");
    let ticks = var(&p, "ticks");
    let flag = var(&p, "flag");
    let tracked = v.precision().variables();
    assert!(!tracked.contains(&ticks), "the loop counter must never be tracked: {tracked:?}");
    assert!(tracked.contains(&flag), "the refinement tracks flag: {tracked:?}");
    assert!(!reason.contains("step limit"), "CEGAR terminates: {reason}");
    assert_ne!(verdict, Verdict::False, "the program is safe: {reason}");
    let stats = Statistics::of(&events);
    assert!(stats.refinements >= 1);
}

#[test]
fn octagon_cegar_proves_listing_2_1() {
    let p = listing_2_1();
    let (v, events) = run(&p, &config("octagon-cegar", "2000"));
    let (verdict, reason) = v.outcome().unwrap();
    assert_eq!(verdict, Verdict::True, "{reason}");
    let tracked = v.precision().variables();
    assert!(!tracked.contains(&var(&p, "ticks")), "{tracked:?}");
    assert!(tracked.contains(&var(&p, "flag")), "{tracked:?}");
    let stats = Statistics::of(&events);
    assert!(stats.refinements >= 1 && stats.restarts == stats.refinements, "{stats:?}");
}

/// The octagon thesis's footnote case: `x` is nondet, so explicit values
/// know nothing about it, but `x > 5` and `x < 3` contradict each other on
/// intervals.
const FOOTNOTE: &str = include_str!("../../../static/examples/cegar-footnote.c");

#[test]
fn footnote_case_explicit_values_cannot_refute_but_octagons_can() {
    let p = program(FOOTNOTE);
    // The error path of the first CEGAR iteration (nothing tracked).
    let (_, events) = run(&p, &config("octagon-cegar", "5000"));
    let path = events
        .iter()
        .find_map(|e| match e {
            Event::Counterexample { path, .. } => Some(path.clone()),
            _ => None,
        })
        .expect("a counterexample was checked");
    let model = minic::IntModel::Math;
    assert_eq!(feasibility::value_infeasible_at(&p, &path, model), None, "explicit values cannot refute it");
    assert!(interpolation::interpolate(&p, &path, model, 1_000_000).is_none());
    assert!(feasibility::octagon_infeasible(&p, &path, model), "the octagon refutes it");
    // The backup refiner tracks x (the assumptions' variable), not n.
    let closure = refinement::assumption_closure(&p, &path);
    assert!(closure.contains(&var(&p, "x")));
    assert!(!closure.contains(&var(&p, "n")), "the loop counter is not an assumption variable");
    let refiners: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Refinement { refiner, .. } => Some(refiner.clone()),
            _ => None,
        })
        .collect();
    assert!(refiners.iter().any(|r| r == "assumptions"), "{refiners:?}");
}

#[test]
fn footnote_case_octagon_cegar_proves_it_value_cegar_does_not_claim_false() {
    let p = program(FOOTNOTE);
    for model in ["MATH", "C"] {
        let mut c = config("octagon-cegar", "5000");
        c.set("analysis.intModel", model).unwrap();
        let (v, _) = run(&p, &c);
        let (verdict, reason) = v.outcome().unwrap();
        assert_eq!(verdict, Verdict::True, "{model}: {reason}");
        let mut c = config("value-cegar", "5000");
        c.set("analysis.intModel", model).unwrap();
        let (v, _) = run(&p, &c);
        let (verdict, reason) = v.outcome().unwrap();
        assert_eq!(verdict, Verdict::Unknown, "{model}: {reason}");
    }
}

const BUG: &str = r#"
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int i = 0;
  while (i < 10) { i++; }
  if (i == 10) {
    if (x * 3 == 126) {
      reach_error();
    }
  }
  return 0;
}
"#;

#[test]
fn a_real_bug_is_false_and_confirmed_by_replay() {
    let p = program(BUG);
    for preset in ["value-cegar", "octagon-cegar", "octagon-seq-widening-cegar"] {
        for model in ["MATH", "C"] {
            let mut c = config(preset, "5000");
            c.set("analysis.intModel", model).unwrap();
            let (v, events) = run(&p, &c);
            let (verdict, reason) = v.outcome().unwrap();
            assert_eq!(verdict, Verdict::False, "{preset}/{model}: {reason}");
            assert_eq!(v.confirmed(), Some(true), "{preset}/{model}");
            assert_eq!(v.inputs(), &[42], "{preset}/{model}");
            let ex = feasibility::replay(
                &p,
                v.inputs(),
                if model == "C" { minic::IntModel::C } else { minic::IntModel::Math },
                10_000,
            );
            assert!(matches!(ex.outcome, concrete::Outcome::ReachedError { .. }));
            assert!(events.iter().any(|e| matches!(e, Event::SolverQuery { .. })), "{preset}: the SMT check ran");
            assert!(matches!(events.last(), Some(Event::AnalysisFinished { .. })));
        }
    }
}

#[test]
fn without_cegar_the_trace_is_the_reachability_trace() {
    let p = listing_2_1();
    let c = config("octagon-widening", "2000");
    let plain = build_analysis(p.clone(), &c, true).unwrap().run();
    let (_, wrapped) = run(&p, &c);
    assert_eq!(plain, wrapped);
}

#[test]
fn the_fold_restarts_with_each_iteration_and_stays_a_function_of_the_prefix() {
    let p = listing_2_1();
    let (_, events) = run(&p, &config("octagon-cegar", "2000"));
    let restarts: Vec<usize> =
        events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Restart { .. })).map(|(i, _)| i + 1).collect();
    assert!(!restarts.is_empty());
    for (n, k) in restarts.iter().enumerate() {
        let s = Snapshot::of(&events[..*k]);
        assert!(s.reached.is_empty() && s.waitlist.is_empty() && s.states.is_empty(), "restart empties the reached set");
        assert_eq!(s.stats.reached, 0);
        assert_eq!(s.iteration as usize, n + 2);
        assert_eq!(s.iteration_starts.len(), n + 2);
        assert!(!s.precision.is_empty(), "the refined precision is shown");
        assert!(s.precision.iter().any(|e| e.new), "the refinement's additions are marked");
        assert!(s.counterexample.as_ref().is_some_and(|c| c.feasible == Some(false) && !c.path.is_empty()));
        // Before the restart, the previous iteration's reached set was there.
        let before = Snapshot::of(&events[..*k - 1]);
        assert!(!before.reached.is_empty());
    }
    let end = Snapshot::of(&events);
    assert_eq!(end.finished.as_ref().map(|f| f.0), Some(Verdict::True));
    // Every position, reached by seeking forward and backward, is the fold of the prefix.
    let mut cursor = Cursor::with_interval(events.clone(), 7);
    let n = events.len();
    let order: Vec<usize> = (0..=n).rev().chain((0..=n).step_by(3)).collect();
    for k in order {
        let expected = Snapshot::of(&events[..k]);
        assert_eq!(cursor.seek(k), &expected, "position {k}");
    }
}

#[test]
fn counterexample_checks_confirm_real_bugs_and_reject_spurious_paths() {
    // Without the loop, the widening and join paths are the real one.
    let straight = program(&BUG.replace("while (i < 10) { i++; }", "i = 10;"));
    let looping = program(BUG);
    for preset in ["octagon-widening-cex", "octagon-join-cex"] {
        let (v, _) = run(&straight, &config(preset, "5000"));
        let (verdict, reason) = v.outcome().unwrap();
        assert_eq!((verdict, v.confirmed()), (Verdict::False, Some(true)), "{preset}: {reason}");
        assert_eq!(v.inputs(), &[42]);
        // Through the widened loop the ARG's path leaves the loop too early:
        // the check finds it spurious and says UNKNOWN, never an
        // unconfirmed FALSE.
        let (v, events) = run(&looping, &config(preset, "5000"));
        let (verdict, reason) = v.outcome().unwrap();
        assert!(verdict == Verdict::Unknown || v.confirmed() == Some(true), "{preset}: {reason}");
        assert!(events.iter().any(|e| matches!(e, Event::Counterexample { .. })));
    }
    // The restart algorithm falls back to octagon CEGAR and confirms it.
    let (v, events) = run(&looping, &config("octagon-seq-widening-cegar", "5000"));
    assert_eq!(v.outcome().unwrap().0, Verdict::False);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Restart { configuration, .. } if configuration.starts_with("octagon-cegar"))));
}

#[test]
fn without_an_attached_solver_the_path_check_parks_and_the_answer_resumes_it() {
    use smt::SolverBackend;
    let p = program(BUG);
    let c = config("value-cegar", "5000");
    let (_, native) = run(&p, &c);
    let mut v = Verifier::new(p.clone(), &c, true).unwrap();
    v.set_solver(None);
    let mut z3 = smt::Z3Process::system(std::time::Duration::from_secs(10));
    let (mut events, mut parked) = (Vec::new(), 0);
    loop {
        let evs = v.step();
        if !evs.is_empty() {
            events.extend(evs);
            continue;
        }
        if v.is_finished() {
            break;
        }
        let q = v.pending_query().expect("a run that is not finished and yields nothing is parked").smtlib.clone();
        parked += 1;
        assert!(parked < 20);
        v.answer_query(&z3.solve_text(&q));
    }
    assert!(parked >= 1, "the path formula was asked through the driver");
    assert_eq!(events, native, "parking changes nothing but who answers");
    assert_eq!(v.confirmed(), Some(true));
}

#[test]
fn restart_algorithm_moves_on_when_a_stage_runs_out_of_time() {
    let p = listing_2_1();
    let c = Config::parse(
        "analysis.restartAfterUnknown = true\nrestartAlgorithm.configFiles = value, octagon-cegar\nrestartAlgorithm.stageTimeMs = 300\nlimits.steps = 0\n",
        "seq.properties",
    )
    .unwrap();
    let (v, events) = run(&p, &c);
    let (verdict, reason) = v.outcome().unwrap();
    assert_eq!(verdict, Verdict::True, "{reason}");
    assert!(reason.contains("stage 2 of 2: octagon-cegar"), "{reason}");
    let restart = events.iter().find_map(|e| match e {
        Event::Restart { configuration, .. } => Some(configuration.clone()),
        _ => None,
    });
    assert!(restart.unwrap().contains("time limit"), "the first restart names why stage 1 ended");
}

#[test]
fn bad_restart_configurations_are_errors_not_panics() {
    let p = listing_2_1();
    for text in [
        "analysis.restartAfterUnknown = true\n",
        "analysis.restartAfterUnknown = true\nrestartAlgorithm.configFiles = no-such-preset\n",
        "analysis.restartAfterUnknown = true\nrestartAlgorithm.configFiles = octagon-seq-widening-cegar\n",
        "analysis.checkCounterexamples = true\ncounterexample.checker.config = nope\n",
    ] {
        let c = Config::parse(text, "bad.properties").unwrap();
        assert!(Verifier::new(p.clone(), &c, false).is_err(), "{text}");
    }
}

#[test]
fn fold_of_a_synthetic_restart() {
    use engine::trace::{Origin, PrecisionEntry, RunInfo};
    use engine::StateId;
    let created = |id: u32, node: u32| Event::StateCreated {
        state: StateId(id),
        location: Some(cfa::NodeId(node)),
        callstack: vec![],
        origin: Origin::Initial,
        view: None,
    };
    let entry = PrecisionEntry { location: Some(cfa::NodeId(3)), var: cfa::VarId(1), name: "flag".into() };
    let events = vec![
        Event::AnalysisStarted { info: RunInfo::default() },
        created(0, 0),
        Event::ReachedAdd { state: StateId(0) },
        Event::WaitlistPush { state: StateId(0), index: 0 },
        Event::Counterexample {
            target: StateId(0),
            feasible: Some(false),
            description: "infeasible".into(),
            path: vec![cfa::EdgeId(0)],
            check: "explicit values".into(),
            inputs: vec![],
            confirmed: false,
        },
        Event::Refinement {
            precision: "N3: {flag}".into(),
            reason: "test".into(),
            iteration: 1,
            refiner: "interpolation".into(),
            path: vec![cfa::EdgeId(0)],
            interpolants: vec![],
            added: vec![entry.clone()],
            tracked: vec![entry.clone()],
            predicates_added: vec![],
            predicates: vec![],
            thresholds_raised: Vec::new(),
            precision_function: Vec::new(),
            from_path_invariants: Vec::new(),
        },
        Event::Restart { configuration: "again".into(), iteration: 2 },
        created(0, 7),
    ];
    let before = Snapshot::of(&events[..6]);
    assert_eq!(before.reached_len(), 1);
    assert_eq!(before.waitlist.len(), 1);
    assert_eq!(before.iteration, 1);
    assert_eq!(before.precision.len(), 1);
    assert!(before.precision[0].new);
    let after = Snapshot::of(&events[..7]);
    assert_eq!((after.reached_len(), after.waitlist.len(), after.states.len()), (0, 0, 0));
    assert_eq!((after.stats.reached, after.stats.waitlist, after.stats.restarts), (0, 0, 1));
    assert_eq!(after.iteration, 2);
    assert_eq!(after.iteration_starts, vec![0, 6]);
    assert_eq!(after.precision, before.precision, "the precision carries over");
    assert_eq!(after.counterexample.as_ref().unwrap().check, "explicit values");
    let end = Snapshot::of(&events);
    assert_eq!(end.state(StateId(0)).unwrap().location, Some(cfa::NodeId(7)), "ids start again at s0");
    // The JSON of the new fields round-trips; old traces without them still read.
    let json = serde_json::to_string(&events).unwrap();
    let back: Vec<Event> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, events);
    let old: Event = serde_json::from_str(r#"{"event":"restart","configuration":"x"}"#).unwrap();
    assert_eq!(old, Event::Restart { configuration: "x".into(), iteration: 0 });
}

fn pivot(name: &str, steps: &str) -> Config {
    let mut c = config(name, steps);
    c.set("cegar.restart", "PIVOT").unwrap();
    c
}

#[test]
fn restart_from_the_pivot_keeps_the_arg_above_it() {
    // Listing 2.1 and the footnote case are proved, the bug confirmed, as
    // with restarts from the root.
    let (v, events) = run(&listing_2_1(), &pivot("octagon-cegar", "2000"));
    assert_eq!(v.outcome().unwrap().0, Verdict::True, "{}", v.outcome().unwrap().1);
    assert!(events.iter().any(|e| matches!(e, Event::ArgPruned { .. })));
    assert!(!events.iter().any(|e| matches!(e, Event::Restart { .. })), "no restart from the root");
    let (v, _) = run(&program(FOOTNOTE), &pivot("octagon-cegar", "5000"));
    assert_eq!(v.outcome().unwrap().0, Verdict::True, "{}", v.outcome().unwrap().1);
    for name in ["value-cegar", "octagon-cegar"] {
        let (v, events) = run(&program(BUG), &pivot(name, "5000"));
        assert_eq!((v.outcome().unwrap().0, v.confirmed()), (Verdict::False, Some(true)), "{name}: {}", v.outcome().unwrap().1);
        assert_eq!(v.inputs(), &[42]);
        // Fewer states than starting over: the states above the pivot stay.
        let (_, root_events) = run(&program(BUG), &config(name, "5000"));
        let (p, r) = (Statistics::of(&events), Statistics::of(&root_events));
        assert!(p.created < r.created, "{name}: pivot {} vs root {}", p.created, r.created);
        // The fold: pruned states leave the reached set; ids continue.
        let k = events.iter().position(|e| matches!(e, Event::ArgPruned { .. })).unwrap() + 1;
        let s = Snapshot::of(&events[..k]);
        assert_eq!(s.iteration, 2);
        let Event::ArgPruned { removed, readded, .. } = &events[k - 1] else { unreachable!() };
        assert!(!removed.is_empty() && !readded.is_empty());
        for id in removed {
            let st = s.state(*id).unwrap();
            assert!(st.pruned && !st.in_reached);
        }
        assert_eq!(s.stats.reached as usize, s.reached_len());
        let end = Snapshot::of(&events);
        assert_eq!(end.stats.reached as usize, end.reached_len());
        let mut cursor = Cursor::with_interval(events.clone(), 5);
        for k in (0..=events.len()).rev() {
            assert_eq!(cursor.seek(k), &Snapshot::of(&events[..k]));
        }
    }
}

#[test]
fn the_fold_agrees_with_itself_across_iterations_on_sv_comp_tasks() {
    for task in svcomp_tasks::tasks().into_iter().step_by(4) {
        let p = program(&task.source());
        for (name, restart) in [("value-cegar", "PIVOT"), ("octagon-cegar", "ROOT"), ("octagon-seq-widening-cegar", "ROOT")] {
            let mut c = config(name, "300");
            c.set("analysis.intModel", "C").unwrap();
            c.set("cegar.restart", restart).unwrap();
            c.set("restartAlgorithm.stageSteps", "300").unwrap();
            let (v, events) = run(&p, &c);
            let mut s = Snapshot::default();
            for e in &events {
                s.apply(e);
                if matches!(e, Event::Restart { .. } | Event::ArgPruned { .. } | Event::AnalysisFinished { .. }) {
                    assert_eq!(s.stats.reached as usize, s.reached_len(), "{} {name}", task.path);
                    assert_eq!(s.stats.waitlist as usize, s.waitlist.len(), "{} {name}", task.path);
                }
            }
            assert_eq!(s.finished.as_ref().map(|f| f.0), v.outcome().map(|o| o.0), "{} {name}", task.path);
            assert_eq!(events.iter().filter(|e| matches!(e, Event::AnalysisFinished { .. })).count(), 1);
        }
    }
}
