//! Every SV-COMP task of the shared benchmark set lowers to CFAs, and the
//! error locations reachable from `main` in the interprocedural graph are
//! exactly at the lines where the source calls `reach_error()` (outside its
//! own definition) or has an `ERROR:` label.

use cfa::{NodeId, Program};
use std::collections::BTreeSet;

fn tasks() -> Vec<(String, String)> {
    let tasks: Vec<(String, String)> =
        svcomp_tasks::tasks().into_iter().map(|t| (t.path, t.expected.lower().to_string())).collect();
    assert!(tasks.len() >= 50, "expected the full benchmark set, found {} tasks", tasks.len());
    tasks
}

/// Lines with a `reach_error()` call outside the definition of `reach_error`,
/// or an `ERROR:` label.
fn expected_error_lines(src: &str) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    for (i, line) in src.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let is_definition =
            code.contains("void reach_error(") && !code.trim_start().starts_with("extern") && !code.trim_end().ends_with(';');
        let calls = code.contains("reach_error()") && !is_definition;
        let label = code.contains("ERROR:");
        if calls || label {
            out.insert(i as u32 + 1);
        }
    }
    out
}

/// Error nodes reachable from main's entry, following call edges into callees
/// and return edges back out (context-insensitively: a superset of the
/// feasible paths, which is what "syntactically reachable" means here).
fn reachable_error_lines(p: &Program) -> BTreeSet<u32> {
    let mut seen = vec![false; p.nodes.len()];
    let mut stack: Vec<NodeId> = vec![p.main_function().entry];
    seen[stack[0].0 as usize] = true;
    let mut lines = BTreeSet::new();
    while let Some(n) = stack.pop() {
        let node = p.node(n);
        if node.error {
            assert!(node.outgoing.is_empty(), "error node {n} has successors");
            lines.insert(node.line);
        }
        for e in p.successors(n) {
            if !seen[e.target.0 as usize] {
                seen[e.target.0 as usize] = true;
                stack.push(e.target);
            }
        }
    }
    lines
}

#[test]
fn every_task_lowers_and_its_error_locations_are_where_the_source_says() {
    let mut failures = Vec::new();
    let mut total_nodes = 0;
    let tasks = tasks();
    for (path, verdict) in &tasks {
        let file = svcomp_tasks::folder().join(path);
        let src = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let program = match cfa::from_source(&src) {
            Ok(p) => p,
            Err(diags) => {
                let msgs: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
                failures.push(format!("{path}: does not lower:\n    {}", msgs.join("\n    ")));
                continue;
            }
        };
        total_nodes += program.nodes.len();
        let expected = expected_error_lines(&src);
        let actual = reachable_error_lines(&program);
        if actual.is_empty() {
            failures.push(format!("{path} ({verdict}): no error location is reachable"));
        }
        if expected != actual {
            failures.push(format!("{path}: error locations at lines {actual:?}, source says {expected:?}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} tasks fail:\n{}", failures.len(), tasks.len(), failures.join("\n"));
    assert!(total_nodes > 0);
}
