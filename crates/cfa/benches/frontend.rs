//! Front-end speed: parse, check and lower to CFAs every task of the SV-COMP
//! folder (`svcomp_tasks::folder()`), one criterion benchmark per file,
//! plus a large synthetic file to see the per-line cost at scale.
//!
//! Run: `cargo bench -p cfa --bench frontend`. The closing figure of merit is
//! the median time per 100 source lines (target: under 1 ms natively).

use criterion::{black_box, criterion_group, criterion_main, Criterion};

/// The task files listed in MANIFEST.tsv, with their text.
fn tasks() -> Vec<(String, String)> {
    svcomp_tasks::tasks().iter().map(|t| (t.path.clone(), t.source())).collect()
}

/// A long but ordinary program: `n` small functions, each a loop with a branch.
fn synthetic(n: usize) -> String {
    let mut s = String::from("extern int __VERIFIER_nondet_int(void);\n");
    for i in 0..n {
        s.push_str(&format!(
            "int f{i}(int a) {{\n  int s = 0;\n  for (int k = 0; k < a; k++) {{\n    if (k % 3 == 0 && s < 100) s += k; else s = s - 1;\n  }}\n  return s;\n}}\n"
        ));
    }
    s.push_str("int main(void) {\n  int x = __VERIFIER_nondet_int();\n  return f0(x);\n}\n");
    s
}

fn frontend(c: &mut Criterion) {
    let mut group = c.benchmark_group("svcomp");
    for (path, text) in tasks() {
        group.bench_function(&path, |b| {
            b.iter(|| {
                let program = cfa::from_source(black_box(&text)).expect("every task lowers");
                black_box(program.nodes.len())
            })
        });
    }
    group.finish();

    let big = synthetic(500);
    let lines = big.lines().count();
    c.bench_function(&format!("synthetic/{lines}-lines"), |b| {
        b.iter(|| black_box(cfa::from_source(black_box(&big)).expect("lowers").nodes.len()))
    });
}

criterion_group!(benches, frontend);
criterion_main!(benches);
