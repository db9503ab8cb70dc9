//! A run's time limit bounds each solver query, not only the steps between
//! them: with a deadline (`restartAlgorithm.stageTimeMs`, handed to the
//! analysis by its stage), every query the attached back end answers —
//! lent to a transfer or for a parked query — is limited to what is left
//! of it ([`smt::SolverBackend::limit_next`]), so one hard query cannot
//! keep the run past its limit for `solver.timeout`.

#![cfg(not(target_arch = "wasm32"))]

use engine::{build_analysis, Config, Stepper};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A back end that records the limit each query was given (`None`: only
/// its own) and answers `unknown`, which prunes nothing.
struct Recording {
    next: Option<Duration>,
    limits: Arc<Mutex<Vec<Option<Duration>>>>,
}

impl smt::SolverBackend for Recording {
    fn name(&self) -> String {
        "recording".into()
    }
    fn solve(&mut self, _script: &str) -> Result<String, smt::SolverError> {
        self.limits.lock().unwrap().push(self.next.take());
        Ok("unknown\n".into())
    }
    fn limit_next(&mut self, limit: Duration) {
        self.next = Some(limit);
    }
}

const PROGRAM: &str = r#"
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (x * x + y * y == 25) {
    if (x > 0 && y > 0 && x != 3 && x != 4) { reach_error(); }
  }
  return 0;
}
"#;

/// The limits the back end got in a `preset` run with `lend` queries lent
/// per transfer (0: every query parks and is answered by the attached back
/// end afterwards) and `deadline`.
fn limits(preset: &str, lend: u32, deadline: Option<Instant>) -> Vec<Option<Duration>> {
    let program = Arc::new(cfa::from_source(PROGRAM).expect("the test program parses"));
    let mut config = Config::preset(preset).unwrap();
    config.set("analysis.intModel", "c").unwrap();
    config.set("limits.steps", "200").unwrap();
    let mut analysis = build_analysis(program, &config, false).unwrap();
    let limits = Arc::new(Mutex::new(Vec::new()));
    analysis.set_solver(Some(Box::new(Recording { next: None, limits: limits.clone() })));
    analysis.set_lend_queries(lend);
    analysis.set_deadline(deadline);
    analysis.run_with(|_| {});
    let got = limits.lock().unwrap().clone();
    got
}

#[test]
fn every_query_of_a_run_with_a_deadline_gets_at_most_what_is_left() {
    for preset in ["symbolic", "predicate"] {
        for lend in [u32::MAX, 0] {
            let deadline = Instant::now() + Duration::from_secs(60);
            let got = limits(preset, lend, Some(deadline));
            assert!(!got.is_empty(), "{preset} (lend {lend}) asks the solver");
            for limit in &got {
                let limit = limit.unwrap_or_else(|| panic!("{preset} (lend {lend}): a query without a limit"));
                assert!(limit <= Duration::from_secs(60), "{preset} (lend {lend}): {limit:?} is more than the run has");
            }
        }
    }
}

#[test]
fn a_query_past_the_deadline_gets_the_least_limit_and_without_one_none() {
    let past = Instant::now() - Duration::from_secs(1);
    let got = limits("symbolic", u32::MAX, Some(past));
    assert!(!got.is_empty());
    assert!(got.iter().all(|l| *l == Some(Duration::from_millis(1))), "{got:?}");
    let free = limits("symbolic", u32::MAX, None);
    assert!(!free.is_empty());
    assert!(free.iter().all(Option::is_none), "no deadline, no limit: {free:?}");
}
