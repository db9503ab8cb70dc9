//! The seeded octagon instances every octagon benchmark runs on: the
//! criterion bench (`benches/octagon.rs`) and the same-run comparison with
//! PPL (`examples/octagon_vs_ppl.rs`) include this file, so both measure the
//! same octagons.
//!
//! An instance is a pair of random *open* octagons `a`, `b` over `n`
//! variables, both satisfied by one known integer point: *sparse* = about
//! `2n` random constraints `±xi ± xj ≤ c` with slack 0–19 at the point,
//! *dense* = a constraint for every stored DBM cell with slack 10–29.

use domains::octagon::{Dbm, Octagon};
use domains::Bound;
// A seeded generator, so runs are comparable.
use xorshift::XorShift;

/// The variable counts every octagon benchmark runs at.
pub const SIZES: [usize; 3] = [4, 16, 64];

/// The assignment `x0 := x1 + 3` the "assign then close" cells run: its
/// single variable term and its constant.
pub const ASSIGN: ((usize, i64), i64) = ((1, 1), 3);

/// One benchmark instance: two open octagons satisfied by `point`.
pub struct Instance {
    /// `true` for the all-pairs octagons, `false` for the sparse ones.
    pub dense: bool,
    /// The integer point both octagons contain.
    pub point: Vec<i64>,
    /// The first open octagon (the one closed, assigned to and guarded).
    pub a: Octagon,
    /// The second open octagon (the other argument of join).
    pub b: Octagon,
}

impl Instance {
    /// The seeded instance for `n` variables (sparse or dense).
    pub fn generate(n: usize, dense: bool) -> Instance {
        let mut rng = XorShift::new(n as u64 + 7);
        let point: Vec<i64> = (0..n).map(|_| rng.below(100) as i64 - 50).collect();
        let a = random_octagon(n, dense, 1, &point);
        let b = random_octagon(n, dense, 2, &point);
        Instance { dense, point, a, b }
    }

    /// `"dense"` or `"sparse"`.
    pub fn kind(&self) -> &'static str {
        if self.dense {
            "dense"
        } else {
            "sparse"
        }
    }

    /// The guard `xv − xw ≤ c` of "guard then close": the first pair whose
    /// bound in the closed `ac` it tightens, with `c = (xv − xw)(point)`, so
    /// the result is satisfiable and the closure has work to do.
    pub fn guard(&self, ac: &Octagon) -> (usize, usize, i64) {
        let (n, p) = (self.point.len(), &self.point);
        let (v, w) = (0..n)
            .flat_map(|v| (0..n).map(move |w| (v, w)))
            .find(|&(v, w)| v != w && ac.dbm().get(2 * w, 2 * v) > Bound::finite(p[v] - p[w]))
            .unwrap_or((0, 1));
        (v, w, p[v] - p[w])
    }
}

/// An open random octagon satisfied by `point`: `V_j − V_i ≤ (V_j − V_i)(point) + slack`
/// for about `2n` random cells, or for every stored cell when `dense`.
pub fn random_octagon(n: usize, dense: bool, seed: u64, point: &[i64]) -> Octagon {
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
