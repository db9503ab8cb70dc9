//! Closure: the canonical (tightest) form of an octagon's DBM.
//!
//! Many DBMs describe the same octagon; the *closed* one has every cell equal
//! to the tightest bound implied by all the others, so it is the normal form
//! that ⊑, ⊔, projection and the views rely on. Over the integers we compute
//! Bagnara, Hill and Zaffanella's **tight closure** (2008), in three steps:
//!
//! 1. **Shortest-path closure** (Floyd–Warshall over the `2n` signed
//!    variables): `m[i][j] ← min(m[i][j], m[i][k] + m[k][j])`. A negative
//!    diagonal cell is a negative cycle: `γ = ∅`.
//! 2. **Tightening**: `m[i][ī]` bounds `2·(±x)`; over the integers `2·x ≤ 7`
//!    means `x ≤ 3`, i.e. `2·x ≤ 6`, so each unary bound is rounded down to
//!    an even number. If then `m[i][ī] + m[ī][i] < 0` for some `i` (e.g.
//!    `2x ≤ 0` and `−2x ≤ −2`), `γ = ∅`.
//! 3. **Strengthening** (Miné): `V_j − V_i ≤ (m[i][ī] + m[j̄][j]) / 2` — the sum
//!    of two unary bounds bounds a binary difference. Bagnara et al. (2009)
//!    proved that one strengthening pass after the shortest-path closure is
//!    enough (Miné's original interleaves it at every pivot); with even unary
//!    bounds the halving is exact.
//!
//! The result is *tightly closed*: its integer points are exactly those of the
//! input (closure never changes `γ`), and every cell is reached by some integer
//! point, so `a ⊑ b` can be read cell by cell.
//!
//! **Incremental closure** ([`close_incremental`]): when the matrix was closed
//! and only the constraints of one variable `v` changed (rows/columns `2v`,
//! `2v+1`), the new shortest paths are old paths plus detours through `v`:
//! first the two rows of `v` are relaxed against the old closed matrix, then
//! `v`'s 2×2 block is closed, then every cell is relaxed through the two
//! pivots `2v`, `2v+1`; tightening and strengthening finish it. Each pass is
//! O(n²) instead of O(n³). Assignments and octagonal guards touch one
//! variable, so they use this.
//!
//! # Performance choices
//!
//! * Half-matrix storage ([`super::dbm`]): rows are contiguous slices, so the
//!   inner loop is a straight `min(c, ik + kj)` over a slice.
//! * Scratch rows live on the stack up to n = 16 (`with_scratch`): at
//!   n = 4 the two heap allocations per closure cost about a tenth of it.
//! * The two pivot rows of variable `k` are materialized once per
//!   iteration, and rows `i` with `m[i][2k] = m[i][2k+1] = +∞` are skipped —
//!   on sparse octagons most of them.
//! * Exact arithmetic costs an overflow and a `+∞` test per addition. When
//!   every finite bound is small (always, in practice) the Floyd–Warshall
//!   loop runs on plain machine additions instead (`fast`, with its
//!   argument why no sum can overflow) and falls back to the exact loop
//!   otherwise; tests check that both give the same matrix.
//! * The inner loops are compiled for AVX-512F and AVX2 as well and chosen at
//!   run time (the baseline x86-64 target has no 64-bit vector `min`). This
//!   is the one place with `unsafe` (calling a `#[target_feature]` function
//!   after checking the CPU); the loop bodies are safe code.
//! * We do **not** decompose the matrix into independent variable blocks as
//!   ELINA does: every operation would have to maintain the partition, which
//!   doubles the code a student has to read, and the `+∞`-skip plus
//!   incremental closure already give most of the benefit on the sparse
//!   octagons an analysis produces. Measured: `BENCHMARKS.md`.

use super::dbm::{row_start, Dbm, INF};
use crate::bound::add_raw;

/// Tight closure in place. Returns `false` when `γ = ∅` (the matrix is then
/// left in an unspecified state and must be discarded).
pub fn close(d: &mut Dbm) -> bool {
    let ok = if fast::applicable(d) { fast::shortest_paths(d) } else { shortest_paths(d) };
    ok && tighten_and_strengthen(d)
}

/// Step 1: Floyd–Warshall over the half matrix, one *variable* `k` at a time.
///
/// The pivots `2k` and `2k+1` are used together (Miné's formulation): a
/// stored cell stands for both `m[i][j]` and its twin `m[j̄][ī]`, and only an
/// update that is symmetric under `i ↦ ī` treats both alike. With the pair
/// `{2k, 2k+1}` as pivot set, the invariant is "after step `k`, every cell is
/// at most the shortest path whose intermediate nodes belong to variables
/// `0..=k`". `false` on a negative cycle.
fn shortest_paths(d: &mut Dbm) -> bool {
    let n2 = 2 * d.vars();
    with_scratch(2 * n2, 0, |rows| {
        let (r0, r1) = rows.split_at_mut(n2);
        shortest_paths_with(d, r0, r1)
    })
}

/// [`shortest_paths`] with the two pivot rows' scratch space.
fn shortest_paths_with(d: &mut Dbm, r0: &mut [i64], r1: &mut [i64]) -> bool {
    let n2 = r0.len();
    for k in 0..d.vars() {
        let (p0, p1) = (2 * k, 2 * k + 1);
        d.full_row(p0, r0);
        d.full_row(p1, r1);
        // Close the two pivot rows among themselves first:
        // m[2k][j] ≤ m[2k][2k+1] + m[2k+1][j], and symmetrically.
        let (up, down) = (r0[p1], r1[p0]);
        if add_raw(up, down) < 0 {
            return false;
        }
        for j in 0..n2 {
            let a = add_raw(up, r1[j]);
            let b = add_raw(down, r0[j]);
            r0[j] = r0[j].min(a);
            r1[j] = r1[j].min(b);
        }
        relax_through(d, r0, r1);
    }
    diagonal_ok(d)
}

/// Largest scratch buffer kept on the stack: the two pivot rows of a
/// closure up to n = 16 variables.
const STACK_SCRATCH: usize = 64;

/// Runs `f` on a scratch buffer of `len` cells set to `fill`: on the stack
/// when it is small (the octagons of most analyses), so that closing a small
/// octagon does not allocate; on the heap otherwise.
#[inline(always)]
fn with_scratch<R>(len: usize, fill: i64, f: impl FnOnce(&mut [i64]) -> R) -> R {
    if len <= STACK_SCRATCH {
        f(&mut [fill; STACK_SCRATCH][..len])
    } else {
        f(&mut vec![fill; len])
    }
}

/// `m[i][j] ← min(m[i][j], m[i][a] + m[a][j], m[i][ā] + m[ā][j])` for every
/// stored cell, where `r0`, `r1` are the full rows of the pivots `a = 2k`,
/// `ā = 2k+1` (already closed among themselves). By coherence the pivot
/// columns are `m[i][2k] = r1[ī]` and `m[i][2k+1] = r0[ī]`.
#[inline]
fn relax_through(d: &mut Dbm, r0: &[i64], r1: &[i64]) {
    relax_rows(&mut d.m, r0, r1, add_raw);
}

/// The relaxation loop of [`relax_through`] on the cells `m`, with `plus`
/// the encoding's `c + a` (which must keep `+∞` absorbing). A pivot cell
/// that is `+∞` contributes nothing, so its half of the loop is skipped.
#[inline(always)]
fn relax_rows(m: &mut [i64], r0: &[i64], r1: &[i64], plus: impl Fn(i64, i64) -> i64) {
    let n2 = r0.len();
    for i in 0..n2 {
        let c0 = r1[i ^ 1];
        let c1 = r0[i ^ 1];
        let s = row_start(i);
        let len = (i | 1) + 1;
        let row = &mut m[s..s + len];
        match (c0 == INF, c1 == INF) {
            (true, true) => {}
            (false, true) => {
                for (c, &a) in row.iter_mut().zip(&r0[..len]) {
                    *c = (*c).min(plus(c0, a));
                }
            }
            (true, false) => {
                for (c, &b) in row.iter_mut().zip(&r1[..len]) {
                    *c = (*c).min(plus(c1, b));
                }
            }
            (false, false) => {
                for ((c, &a), &b) in row.iter_mut().zip(&r0[..len]).zip(&r1[..len]) {
                    *c = (*c).min(plus(c0, a)).min(plus(c1, b));
                }
            }
        }
    }
}

/// The same Floyd–Warshall with plain machine additions, for the common case
/// where every finite bound is small.
///
/// Exact [`add_raw`] needs overflow and `+∞` tests on every addition. If all
/// finite cells satisfy `|c| ≤ L = 2^59 / (4n + 2)`, then (no negative cycle)
/// every shortest-path value is a sum of at most `2n` of them, so lies in
/// `[−2^59, 2^59]`. We temporarily encode `+∞` as `BIG = 2^61`: a sum that
/// uses a `BIG` stays `≥ 2^61 − 2^60 = 2^60`, two cells never add beyond
/// `2^62` (cells only decrease from `≤ BIG`), and after the loop every value
/// `≥ 2^60` is read back as `+∞`. With a negative cycle values may fall far
/// and a sum may wrap around to a large positive number; `min` then ignores
/// it, which can only keep a bound weaker — and the matrix is `⊥` anyway.
/// Same algorithm, same results as the exact version (checked by the tests).
mod fast {
    use super::super::dbm::{row_start, Dbm, INF};
    use super::super::kernels::multiversion;

    const BIG: i64 = 1 << 61;
    const INF_FROM: i64 = 1 << 60;

    /// Whether every finite cell is within the fast range.
    pub fn applicable(d: &Dbm) -> bool {
        let lim = (1i64 << 59) / (4 * d.vars() as i64 + 2);
        super::super::kernels::all_in_range(&d.m, lim)
    }

    pub fn shortest_paths(d: &mut Dbm) -> bool {
        for v in d.m.iter_mut() {
            if *v == INF {
                *v = BIG;
            }
        }
        let n2 = 2 * d.vars();
        let ok = super::with_scratch(2 * n2, 0, |rows| {
            let (r0, r1) = rows.split_at_mut(n2);
            pivot_all(d, r0, r1)
        });
        for v in d.m.iter_mut() {
            if *v >= INF_FROM {
                *v = INF;
            }
        }
        ok && super::diagonal_ok(d)
    }

    /// The Floyd–Warshall pivots of [`shortest_paths`] on the fast encoding;
    /// `false` on a negative cycle.
    fn pivot_all(d: &mut Dbm, r0: &mut [i64], r1: &mut [i64]) -> bool {
        let mut ok = true;
        for k in 0..d.vars() {
            let (p0, p1) = (2 * k, 2 * k + 1);
            d.full_row(p0, r0);
            d.full_row(p1, r1);
            let (up, down) = (r0[p1], r1[p0]);
            if up < INF_FROM && down < INF_FROM && up + down < 0 {
                ok = false;
                break;
            }
            for (a, b) in r0.iter_mut().zip(r1.iter_mut()) {
                let na = (*a).min(up.wrapping_add(*b));
                let nb = (*b).min(down.wrapping_add(*a));
                *a = na;
                *b = nb;
            }
            relax(&mut d.m, r0, r1);
        }
        ok
    }

    multiversion! {
        /// [`super::relax_through`]'s loop on the fast encoding, compiled
        /// for the best vector unit the CPU has (see `kernels`): AVX2
        /// vectorizes `min` over `i64` 4 cells at a time, AVX-512F 8.
        fn relax(m: &mut [i64], r0: &[i64], r1: &[i64]) {
            relax_generic(m, r0, r1)
        }
    }

    multiversion! {
        /// [`super::relax_through`] for matrices in the fast range but with
        /// the ordinary `+∞ = i64::MAX` encoding (used by incremental
        /// closure, where converting the matrix back and forth would cost as
        /// much as the pass): `+∞` operands are tested explicitly, finite
        /// sums cannot overflow.
        fn relax_inf(m: &mut [i64], r0: &[i64], r1: &[i64]) {
            relax_inf_generic(m, r0, r1)
        }
    }

    #[inline(always)]
    fn relax_inf_generic(m: &mut [i64], r0: &[i64], r1: &[i64]) {
        // The pivot rows may hold sums of two in-range cells: still far from
        // overflow when added to a third.
        super::relax_rows(m, r0, r1, |c, a| if a == INF { INF } else { c.wrapping_add(a) });
    }

    #[inline(always)]
    fn relax_generic(m: &mut [i64], r0: &[i64], r1: &[i64]) {
        let n2 = r0.len();
        for i in 0..n2 {
            let c0 = r1[i ^ 1];
            let c1 = r0[i ^ 1];
            if c0 >= INF_FROM && c1 >= INF_FROM {
                continue;
            }
            let s = row_start(i);
            let len = (i | 1) + 1;
            let row = &mut m[s..s + len];
            for ((c, &a), &b) in row.iter_mut().zip(&r0[..len]).zip(&r1[..len]) {
                let v = c0.wrapping_add(a).min(c1.wrapping_add(b));
                *c = (*c).min(v);
            }
        }
    }
}

/// Checks the diagonal for negative cycles and resets it to 0.
fn diagonal_ok(d: &mut Dbm) -> bool {
    for i in 0..2 * d.vars() {
        let c = &mut d.m[row_start(i) + i];
        if *c < 0 {
            return false;
        }
        *c = 0;
    }
    true
}

/// Steps 2 and 3 on a shortest-path-closed matrix. `false` when empty.
fn tighten_and_strengthen(d: &mut Dbm) -> bool {
    let n2 = 2 * d.vars();
    with_scratch(2 * n2, INF, |buf| {
        let (u, ub) = buf.split_at_mut(n2);
        tighten_and_strengthen_with(d, u, ub)
    })
}

/// [`tighten_and_strengthen`] with scratch space for the unary bounds `u`
/// and their twins `ub`.
fn tighten_and_strengthen_with(d: &mut Dbm, u: &mut [i64], ub: &mut [i64]) -> bool {
    let n2 = u.len();
    // u[i] = m[i][ī], tightened to an even number.
    for (i, ui) in u.iter_mut().enumerate() {
        let c = &mut d.m[row_start(i) + (i ^ 1)];
        if *c != INF {
            *c -= c.rem_euclid(2);
        }
        *ui = *c;
    }
    for i in (0..n2).step_by(2) {
        if u[i] != INF && u[i + 1] != INF && (u[i] as i128 + u[i + 1] as i128) < 0 {
            return false;
        }
    }
    // ub[j] = m[j̄][j] = u[j̄]
    for (j, x) in ub.iter_mut().enumerate() {
        *x = u[j ^ 1];
    }
    for (i, &ui) in u.iter().enumerate() {
        if ui == INF {
            continue;
        }
        let s = row_start(i);
        let len = (i | 1) + 1;
        for (c, &uj) in d.m[s..s + len].iter_mut().zip(&ub[..len]) {
            let t = add_raw(ui, uj);
            if t != INF {
                let h = t >> 1; // ⌊t / 2⌋
                if h < *c {
                    *c = h;
                }
            }
        }
    }
    true
}

/// Incremental tight closure after the constraints of variable `v` changed.
///
/// Precondition: apart from rows/columns `2v`, `2v+1`, the matrix is tightly
/// closed (e.g. it was closed, then `v` was forgotten and re-constrained).
/// Returns `false` when `γ = ∅`.
pub fn close_incremental(d: &mut Dbm, v: usize) -> bool {
    let n2 = 2 * d.vars();
    with_scratch(2 * n2, 0, |rows| {
        let (r0, r1) = rows.split_at_mut(n2);
        close_incremental_with(d, v, r0, r1)
    })
}

/// [`close_incremental`] with scratch space for the two rows of `v`.
fn close_incremental_with(d: &mut Dbm, v: usize, r0: &mut [i64], r1: &mut [i64]) -> bool {
    let n2 = r0.len();
    let (a0, a1) = (2 * v, 2 * v + 1);
    let in_v = |i: usize| i >> 1 == v;
    d.full_row(a0, r0);
    d.full_row(a1, r1);

    // 1. r_a[j] ← min_k (r_a[k] + M[k][j]) for k, j outside v, M the old closed
    //    part. Each stored cell (i, j) is M[i][j] and M[j̄][ī].
    for i in 0..n2 {
        if in_v(i) {
            continue;
        }
        let s = row_start(i);
        for j in 0..=(i | 1) {
            if in_v(j) {
                continue;
            }
            let c = d.m[s + j];
            if c == INF {
                continue;
            }
            r0[j] = r0[j].min(add_raw(r0[i], c));
            r1[j] = r1[j].min(add_raw(r1[i], c));
            r0[i ^ 1] = r0[i ^ 1].min(add_raw(r0[j ^ 1], c));
            r1[i ^ 1] = r1[i ^ 1].min(add_raw(r1[j ^ 1], c));
        }
    }

    // 2. The 2×2 block of v: m[a][b] ← min_k r_a[k] + m[k][b], with
    //    m[k][b] = r_b̄[k̄]; then close it (its only cycle is a → ā → a).
    let mut up = r0[a1]; // −2v ≤ up
    let mut down = r1[a0]; // 2v ≤ down
    for k in 0..n2 {
        if in_v(k) {
            continue;
        }
        up = up.min(add_raw(r0[k], r0[k ^ 1])); // m[a0][k] + m[k][a1] = r0[k] + r0[k̄]
        down = down.min(add_raw(r1[k], r1[k ^ 1]));
    }
    if up != INF && down != INF && (up as i128 + down as i128) < 0 {
        return false;
    }
    r0[a1] = up;
    r1[a0] = down;
    r0[a0] = 0;
    r1[a1] = 0;
    // Paths through the other sign of v: a0 → a1 → j and a1 → a0 → j.
    for j in 0..n2 {
        r0[j] = r0[j].min(add_raw(up, r1[j]));
    }
    for j in 0..n2 {
        r1[j] = r1[j].min(add_raw(down, r0[j]));
    }
    if r0[a0] < 0 || r1[a1] < 0 {
        return false;
    }

    // Write the two rows back (coherently).
    for j in 0..n2 {
        d.m[super::dbm::idx(a0, j)] = r0[j];
        d.m[super::dbm::idx(a1, j)] = r1[j];
    }

    // 3. Relax every cell through the pivots a0 and a1.
    if fast::applicable(d) {
        fast::relax_inf(&mut d.m, r0, r1);
    } else {
        relax_through(d, r0, r1);
    }
    diagonal_ok(d) && tighten_and_strengthen(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bound::Bound;
    use proptest::prelude::*;

    /// Random DBMs, small and (n = 16..20) around the stack-scratch limit,
    /// so both branches of `with_scratch` run.
    fn dbm() -> impl Strategy<Value = Dbm> {
        prop_oneof![3 => 1usize..6, 1 => 16usize..20].prop_flat_map(|n| {
            proptest::collection::vec((0..2 * n, 0..2 * n, -30i64..30), 0..4 * n).prop_map(move |cells| {
                let mut d = Dbm::top(n);
                for (i, j, c) in cells {
                    if i != j {
                        d.tighten(i, j, Bound::finite(c));
                    }
                }
                d
            })
        })
    }

    proptest! {
        /// The fast (machine-add) and exact Floyd–Warshall agree.
        #[test]
        fn fast_and_exact_shortest_paths_agree(d in dbm()) {
            prop_assert!(fast::applicable(&d));
            let (mut a, mut b) = (d.clone(), d.clone());
            let ra = shortest_paths(&mut a);
            let rb = fast::shortest_paths(&mut b);
            prop_assert_eq!(ra, rb);
            if ra {
                prop_assert_eq!(a, b);
            }
        }
    }

    proptest! {
        /// Incremental closure equals full closure on both paths: small
        /// bounds (fast) and bounds scaled beyond the fast range (exact).
        #[test]
        fn incremental_matches_full_on_both_paths(d in dbm(), v in 0usize..6, i in 0usize..12, c in -30i64..30, huge in any::<bool>()) {
            // 2^53: beyond the fast range for most cases, yet no sum overflows
            // (so both closures must agree exactly).
            let scale = if huge { 1i64 << 53 } else { 1 };
            let mut d = d;
            for x in d.m.iter_mut() {
                if *x != INF { *x *= scale; }
            }
            let n = d.vars();
            let v = v % n;
            if !close(&mut d) { return Ok(()); }
            let (row, col) = (2 * v + (i & 1), (i >> 1) % (2 * n));
            if row == col { return Ok(()); }
            let mut inc = d.clone();
            inc.tighten(row, col, Bound::finite(c * scale));
            let mut full = inc.clone();
            let a = close_incremental(&mut inc, v);
            let b = close(&mut full);
            prop_assert_eq!(a, b);
            if a { prop_assert_eq!(inc, full); }
        }
    }

    #[test]
    fn huge_bounds_take_the_exact_path_and_stay_sound() {
        // x0 − x1 ≤ 2^62, x1 − x0 ≤ −2^62: satisfiable, beyond the fast range.
        let mut d = Dbm::top(2);
        d.set(2, 0, Bound::finite(1 << 62));
        d.set(0, 2, Bound::finite(-(1 << 62)));
        assert!(!fast::applicable(&d));
        assert!(close(&mut d));
        assert_eq!(d.get(2, 0), Bound::finite(1 << 62));
        // and a huge negative cycle is still found
        d.set(0, 2, Bound::finite(-(1 << 62) - 1));
        assert!(!close(&mut d));
    }
}
