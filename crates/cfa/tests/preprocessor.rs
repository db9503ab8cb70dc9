//! Preprocessor lines reach the CFA with C's meaning: a disabled group is
//! not lowered, macros are substituted, and edge spans point into the source
//! as written.

use cfa::{EdgeKind, Program};
use std::collections::HashSet;

/// Whether an error location can be reached from `main`'s entry along CFA
/// edges (calls and returns included; assumptions not evaluated).
fn error_reachable(p: &Program) -> bool {
    let mut seen = HashSet::new();
    let mut todo = vec![p.main_function().entry];
    while let Some(n) = todo.pop() {
        if !seen.insert(n) {
            continue;
        }
        if p.node(n).error {
            return true;
        }
        todo.extend(p.successors(n).map(|e| e.target));
    }
    false
}

const DEFECT: &str = "void reach_error();\n\
int main() {\n\
#ifdef NEVER\n\
  return 0;\n\
#endif\n\
  reach_error();\n\
  return 0;\n\
}\n";

#[test]
fn a_disabled_return_does_not_hide_the_error_location() {
    let p = cfa::from_source(DEFECT).expect("lowers");
    assert!(error_reachable(&p), "reach_error must be reachable from main");
    let error_edge = p.edges.iter().find(|e| e.kind == EdgeKind::ReachError).expect("an error edge");
    assert_eq!(error_edge.line, 6);
    assert_eq!(&DEFECT[error_edge.span.start..error_edge.span.end], "reach_error()");
    // The same program with the group enabled returns first.
    let enabled = DEFECT.replace("#ifdef NEVER", "#ifndef NEVER");
    let p = cfa::from_source(&enabled).expect("lowers");
    assert!(!error_reachable(&p));
}

#[test]
fn a_macro_loop_bound_is_substituted_and_spans_stay_in_the_source() {
    let src = "#define LIMIT 100000\nvoid reach_error();\nint main() {\n  int i = 0;\n  while (i < LIMIT) i++;\n  if (i != LIMIT) reach_error();\n  return 0;\n}\n";
    let p = cfa::from_source(src).expect("lowers");
    let heads: Vec<&cfa::Edge> = p.edges.iter().filter(|e| matches!(e.kind, EdgeKind::Assume { .. }) && e.line == 5).collect();
    assert_eq!(heads.len(), 2, "the loop condition and its negation");
    let labels: HashSet<&str> = heads.iter().map(|e| e.label.as_str()).collect();
    assert_eq!(labels, HashSet::from(["[i < 100000]", "[!(i < 100000)]"]));
    for e in heads {
        assert_eq!(&src[e.span.start..e.span.end], "i < LIMIT");
    }
    let incr = p.edges.iter().find(|e| matches!(e.kind, EdgeKind::Assign { .. }) && e.line == 5).expect("the increment");
    assert_eq!(&src[incr.span.start..incr.span.end], "i++");
}
