//! Timings of what the page redraws (criterion; figures depend on the
//! machine): the ARG of a long run laid out capped (as shown) and uncapped,
//! its marks and covered links, the panels at the last event, a step back
//! with the cursor, and the CFA graph of the example and of a program of a
//! few hundred lines, folded and not.
//!
//! `cargo bench -p web --bench graphs`

use criterion::{criterion_group, criterion_main, Criterion};
use web::model::analysis::{Panels, Run, RunSpec};
use web::model::graphs::arg::{ArgGraph, ArgState};
use web::model::graphs::cfa::CfaGraph;
use web::model::graphs::layout::{layout, EdgeSpec, NodeSpec, Shape, Spacing};
use web::model::page::EXAMPLE_PROGRAM;
use web::model::selection::Highlight;

/// The example run with merge^sep to the end: an ARG of about a thousand
/// states, more than the page draws.
fn long_run() -> Run {
    let spec = RunSpec { preset: "octagon-sep".into(), max_steps: 1100, ..RunSpec::default() };
    let mut r = Run::start(EXAMPLE_PROGRAM, spec).expect("the example runs").complete();
    let n = r.cursor.len();
    r.cursor.seek(n);
    r
}

/// A straight-line-heavy program of `blocks` × 14 lines: assignments, an
/// `if` and a loop per block.
fn long_program(blocks: usize) -> String {
    let mut s = String::from(
        "extern int __VERIFIER_nondet_int(void);\nint main() {\n  int x = 0;\n  int y = 0;\n  int z = __VERIFIER_nondet_int();\n",
    );
    for k in 0..blocks {
        s += &format!("  x = x + {k};\n  y = y - 1;\n  z = z + x;\n  x = x - y;\n");
        s += "  if (x > y) {\n    x = x - 1;\n    y = y + 2;\n  } else {\n    y = y + 1;\n  }\n";
        s += &format!("  while (x < {k}) {{\n    x = x + 1;\n    z = z - 1;\n  }}\n");
    }
    s + "  return 0;\n}\n"
}

fn arg(c: &mut Criterion) {
    let mut r = long_run();
    let snap = r.cursor.snapshot().clone();
    let states = ArgState::of_snapshot(&snap);
    let shown = snap.states.len();
    c.bench_function("arg: layout of the capped ARG", |b| b.iter(|| ArgGraph::build(&states, shown)));
    let g = ArgGraph::build(&states, shown);
    c.bench_function("arg: marks and covered links", |b| {
        b.iter(|| (g.marks(&snap, &Highlight::default()), g.covered_links(&snap)))
    });
    // For comparison: every state laid out, uncapped.
    let specs: Vec<NodeSpec> = states.iter().map(|_| NodeSpec { width: 50.0, height: 32.0, shape: Shape::Rect }).collect();
    let mut edges = Vec::new();
    for (i, s) in states.iter().enumerate() {
        for p in s.origin.parents() {
            edges.push(EdgeSpec { from: p.0 as usize, to: i, label: None });
        }
    }
    let mut group = c.benchmark_group("arg uncapped");
    group.sample_size(10);
    group.bench_function("layout of every state", |b| b.iter(|| layout(&specs, &edges, Spacing::default())));
    group.finish();
    c.bench_function("analysis: snapshot clone", |b| b.iter(|| r.cursor.snapshot().clone()));
    c.bench_function("analysis: panels at the last event", |b| b.iter(|| Panels::of(&r.program, &r.cursor, &r.lines)));
    let n = r.cursor.len();
    c.bench_function("analysis: cursor one step back and forth", |b| {
        b.iter(|| {
            r.cursor.seek(n - 1);
            r.cursor.seek(n);
        })
    });
}

fn cfa(c: &mut Criterion) {
    let example = cfa::from_source(EXAMPLE_PROGRAM).expect("the example lowers");
    c.bench_function("cfa graph: the example", |b| b.iter(|| CfaGraph::build(&example, false)));
    let src = long_program(20);
    let long = cfa::from_source(&src).expect("the long program lowers");
    for fold in [false, true] {
        let name = format!("cfa graph: a {}-line program, fold {fold}", src.lines().count());
        c.bench_function(&name, |b| b.iter(|| CfaGraph::build(&long, fold)));
    }
}

criterion_group!(benches, arg, cfa);
criterion_main!(benches);
