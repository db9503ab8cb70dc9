//! The Value CPA: lattice laws, and whole programs from source.

use engine::cpa::AbstractDomain;
use engine::cpas::value::{ValueDomain, ValueState};
use engine::Stepper;
use engine::{build_analysis, Config, Verdict};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

fn state() -> impl Strategy<Value = ValueState> {
    proptest::collection::btree_map(0u32..5, -2i128..3, 0..5).prop_map(|m| ValueState {
        values: m.into_iter().map(|(k, v)| (cfa::VarId(k), v)).collect::<BTreeMap<_, _>>(),
        frames: vec![],
    })
}

proptest! {
    #[test]
    fn order_is_a_preorder_and_join_an_upper_bound(a in state(), b in state(), c in state()) {
        let d = ValueDomain;
        prop_assert!(d.is_less_or_equal(&a, &a));
        if d.is_less_or_equal(&a, &b) && d.is_less_or_equal(&b, &c) {
            prop_assert!(d.is_less_or_equal(&a, &c));
        }
        let j = d.join(&a, &b);
        prop_assert!(d.is_less_or_equal(&a, &j));
        prop_assert!(d.is_less_or_equal(&b, &j));
        prop_assert_eq!(&j, &d.join(&b, &a));
        // least: every upper bound of a and b is above the join
        if d.is_less_or_equal(&a, &c) && d.is_less_or_equal(&b, &c) {
            prop_assert!(d.is_less_or_equal(&j, &c));
        }
        if d.is_less_or_equal(&a, &b) {
            prop_assert_eq!(d.join(&a, &b), b.clone());
        }
        // e ⊑ e' iff every binding of e' is in e
        let by_def = b.values.iter().all(|(k, v)| a.values.get(k) == Some(v));
        prop_assert_eq!(d.is_less_or_equal(&a, &b), by_def);
    }
}

pub fn verify(src: &str, preset: &str, sets: &[&str]) -> (Verdict, String) {
    let program = Arc::new(cfa::from_source(src).unwrap_or_else(|d| panic!("{d:?}")));
    let mut c = Config::preset(preset).unwrap();
    for s in sets {
        c.set_pair(s).unwrap();
    }
    let mut a = build_analysis(program, &c, false).unwrap();
    a.run_with(|_| {});
    let (v, r) = a.outcome().unwrap();
    (v, r.to_string())
}

const LISTING_1: &str = r#"
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int a = __VERIFIER_nondet_int();
  int b;
  if (a >= 0) b = a; else b = a + 1;
  if (b < a) reach_error();
  return 0;
}
"#;

#[test]
fn symbolic_execution_listing_1_is_false_unconfirmed_for_value_analysis() {
    // The value analysis cannot relate b to an unknown a: the error location
    // is reached (the path is in fact infeasible: b >= a always).
    for model in ["MATH", "C"] {
        let (v, reason) = verify(LISTING_1, "value", &[&format!("analysis.intModel={model}")]);
        assert_eq!(v, Verdict::False, "{model}");
        assert!(reason.contains("unconfirmed"), "{reason}");
    }
}

#[test]
fn value_analysis_proves_a_counting_loop_safe() {
    let src = r#"
extern void reach_error(void);
int main() {
  int x = 0;
  for (int i = 0; i < 10; i++) { x = x + 2; }
  if (x != 20) reach_error();
  return 0;
}
"#;
    assert_eq!(verify(src, "value", &[]).0, Verdict::True);
    assert_eq!(verify(src, "value", &["analysis.intModel=C"]).0, Verdict::True);
    // With merge^join the loop head loses x and i: the error looks reachable
    // (join of {i=0} and {i=1} forgets i; the loop then never ends precisely).
    assert_ne!(verify(src, "value-join", &[]).0, Verdict::True);
}

#[test]
fn unsigned_wraps_under_c_but_not_under_math() {
    let src = r#"
extern void reach_error(void);
int main() {
  unsigned int x = 4294967295u;
  x = x + 1;
  if (x == 0) reach_error();
  return 0;
}
"#;
    assert_eq!(verify(src, "value", &["analysis.intModel=C"]).0, Verdict::False);
    assert_eq!(verify(src, "value", &["analysis.intModel=MATH"]).0, Verdict::True);
}

#[test]
fn calls_and_recursion() {
    let src = r#"
extern void reach_error(void);
int f(int n) { if (n <= 0) return 0; return n + f(n - 1); }
int main() {
  int s = f(4);
  if (s != 10) reach_error();
  return 0;
}
"#;
    assert_eq!(verify(src, "value", &[]).0, Verdict::True);
    let (v, reason) = verify(src, "value", &["cpa.callstack.depth=3"]);
    assert_eq!(v, Verdict::Unknown);
    assert!(reason.contains("recursion deeper than 3"), "{reason}");
    let bad = src.replace("s != 10", "s == 10");
    assert_eq!(verify(&bad, "value", &[]).0, Verdict::False);
}

#[test]
fn division_by_zero_forgets_instead_of_panicking() {
    let src = r#"
extern void reach_error(void);
int main() {
  int z = 0;
  int x = 7 / z;
  if (x == 3) reach_error();
  return 0;
}
"#;
    assert_eq!(verify(src, "value", &[]).0, Verdict::False);
}

#[test]
fn empty_precision_tracks_nothing() {
    let src = r#"
extern void reach_error(void);
int main() { int x = 1; if (x != 1) reach_error(); return 0; }
"#;
    assert_eq!(verify(src, "value", &[]).0, Verdict::True);
    assert_eq!(verify(src, "value", &["cpa.value.precision=EMPTY"]).0, Verdict::False);
}

#[test]
fn composite_merge_agrees_on_call_stacks_before_joining() {
    // f runs under two different call stacks; merge^join must keep them
    // apart (CPAchecker's AGREE), so each return sees its own x.
    let src = r#"
extern void reach_error(void);
int f(int x) { return x; }
int main() {
  int a = f(1);
  int b = f(2);
  if (a != 1) reach_error();
  if (b != 2) reach_error();
  return 0;
}
"#;
    assert_eq!(verify(src, "value-join", &[]).0, Verdict::True);
    assert_eq!(verify(src, "value", &[]).0, Verdict::True);
}
