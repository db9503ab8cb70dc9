//! Octagon operations at n = 4, 16, 64 variables on random satisfiable
//! octagons around a known integer point: *sparse* (about 2n constraints
//! `±xi ± xj ≤ c`) and *dense* (a constraint for every pair).
//!
//! Run: `cargo bench -p domains --bench octagon -- --warm-up-time 1 --measurement-time 2`
//! Results: `crates/domains/BENCHMARKS.md`; the same-run comparison with PPL on
//! these instances is `scripts/bench-octagon-ppl.sh`.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use domains::octagon::{closure, Cmp, LinExpr, Octagon};
use domains::Bound;

#[path = "common/instances.rs"]
mod instances;
use instances::{Instance, ASSIGN, SIZES};

fn closed(o: &Octagon) -> Octagon {
    let mut c = o.clone();
    c.close();
    assert!(!c.is_bottom());
    c
}

fn benches(c: &mut Criterion) {
    for dense in [false, true] {
        for n in SIZES {
            let inst = Instance::generate(n, dense);
            let (kind, point, a) = (inst.kind(), &inst.point, &inst.a);
            let (ac, bc) = (closed(&inst.a), closed(&inst.b));
            let joined = ac.join(&bc);
            let id = |op: &str| format!("{op}/{kind}/{n}");

            c.bench_function(&id("closure"), |bn| bn.iter_batched_ref(|| a.clone(), |o| o.close(), BatchSize::SmallInput));
            c.bench_function(&id("incremental_closure"), |bn| {
                // a closed octagon plus one new constraint on x0: x0 − x1 ≤ (point) − 1 … +∞
                let mut d = ac.dbm().clone();
                let c0 = point[0] - point[1];
                d.tighten(2, 0, Bound::finite(c0));
                bn.iter_batched_ref(|| d.clone(), |d| closure::close_incremental(d, 0), BatchSize::SmallInput)
            });
            c.bench_function(&id("join"), |bn| bn.iter(|| black_box(&ac).join(black_box(&bc))));
            c.bench_function(&id("widening"), |bn| bn.iter(|| black_box(&ac).widen(black_box(&bc))));
            c.bench_function(&id("inclusion"), |bn| bn.iter(|| black_box(&ac).leq(black_box(&joined))));
            c.bench_function(&id("assign_then_close"), |bn| {
                let ((y, k), c) = ASSIGN;
                let e = LinExpr::new(vec![(y, k)], c); // x0 := x1 + 3
                bn.iter_batched_ref(|| ac.clone(), |o| o.assign(0, &e), BatchSize::SmallInput)
            });
            c.bench_function(&id("guard_then_close"), |bn| {
                // xv − xw ≤ (xv − xw)(point) for the first pair whose bound it
                // tightens: satisfiable, and the closure has work to do.
                let (v, w, c) = inst.guard(&ac);
                let e = LinExpr::new(vec![(v, 1), (w, -1)], -c);
                bn.iter_batched_ref(|| ac.clone(), |o| o.guard(&e, Cmp::Le), BatchSize::SmallInput)
            });
        }
    }
}

criterion_group!(octagon, benches);
criterion_main!(octagon);
