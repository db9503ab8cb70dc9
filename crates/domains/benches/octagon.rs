//! Octagon operations at n = 4, 16, 64 variables on random satisfiable
//! octagons around a known integer point: *sparse* (about 2n constraints
//! `±xi ± xj ≤ c`) and *dense* (a constraint for every pair).
//!
//! Run: `cargo bench -p domains --bench octagon -- --warm-up-time 1 --measurement-time 2`
//! Results and the comparison with ELINA/APRON/PPL: `crates/domains/BENCHMARKS.md`.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use domains::octagon::{closure, Cmp, Dbm, LinExpr, Octagon};
use domains::Bound;
// A seeded generator, so runs are comparable.
use xorshift::XorShift;

/// An open random octagon satisfied by `point`: `m` constraints
/// `V_j − V_i ≤ (V_j − V_i)(point) + slack`, or all pairs when `dense`.
fn random_octagon(n: usize, dense: bool, seed: u64, point: &[i64]) -> Octagon {
    let mut rng = XorShift::scrambled(seed);
    let mut d = Dbm::top(n);
    let val = |i: usize| if i.is_multiple_of(2) { point[i / 2] } else { -point[i / 2] };
    // Dense octagons get slack 10..30 per constraint, so no path of two or
    // more edges beats a direct one and the closed form keeps some slack
    // (with slack 0..20, all-pairs closure collapses to nearly one point).
    let (base, spread) = if dense { (10, 20) } else { (0, 20) };
    let mut add = |i: usize, j: usize, rng: &mut XorShift| {
        if i != j {
            let c = val(j) - val(i) + base + rng.below(spread) as i64;
            d.tighten(i, j, Bound::finite(c));
        }
    };
    if dense {
        for i in 0..2 * n {
            for j in 0..2 * n {
                if j <= (i | 1) {
                    add(i, j, &mut rng);
                }
            }
        }
    } else {
        for _ in 0..2 * n {
            let i = rng.index(2 * n);
            let j = rng.index(2 * n);
            add(i, j, &mut rng);
        }
    }
    Octagon::from_dbm(d)
}

fn closed(o: &Octagon) -> Octagon {
    let mut c = o.clone();
    c.close();
    assert!(!c.is_bottom());
    c
}

fn benches(c: &mut Criterion) {
    for dense in [false, true] {
        let kind = if dense { "dense" } else { "sparse" };
        for n in [4usize, 16, 64] {
            let mut rng = XorShift::new(n as u64 + 7);
            let point: Vec<i64> = (0..n).map(|_| rng.below(100) as i64 - 50).collect();
            let a = random_octagon(n, dense, 1, &point);
            let b = random_octagon(n, dense, 2, &point);
            let (ac, bc) = (closed(&a), closed(&b));
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
                let e = LinExpr::new(vec![(1, 1)], 3); // x0 := x1 + 3
                bn.iter_batched_ref(|| ac.clone(), |o| o.assign(0, &e), BatchSize::SmallInput)
            });
            c.bench_function(&id("guard_then_close"), |bn| {
                // xv − xw ≤ (xv − xw)(point) for the first pair whose bound it
                // tightens: satisfiable, and the closure has work to do.
                let (v, w) = (0..n)
                    .flat_map(|v| (0..n).map(move |w| (v, w)))
                    .find(|&(v, w)| v != w && ac.dbm().get(2 * w, 2 * v) > Bound::finite(point[v] - point[w]))
                    .unwrap_or((0, 1));
                let e = LinExpr::new(vec![(v, 1), (w, -1)], -(point[v] - point[w]));
                bn.iter_batched_ref(|| ac.clone(), |o| o.guard(&e, Cmp::Le), BatchSize::SmallInput)
            });
        }
    }
}

criterion_group!(octagon, benches);
criterion_main!(octagon);
