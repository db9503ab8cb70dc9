//! Coherent half-matrix storage of a difference-bound matrix (DBM).
//!
//! An octagon over variables `x_0 … x_{n−1}` is encoded over `2n` *signed
//! variables* `V_{2i} = +x_i` and `V_{2i+1} = −x_i`. Cell `m[i][j]` is an upper
//! bound on `V_j − V_i`:
//!
//! | cell                | constraint        |
//! |---------------------|-------------------|
//! | `m[2i+1][2i] = c`   | `2·x_i ≤ c`       |
//! | `m[2i][2i+1] = c`   | `−2·x_i ≤ c`      |
//! | `m[2j][2i] = c`     | `x_i − x_j ≤ c`   |
//! | `m[2j+1][2i] = c`   | `x_i + x_j ≤ c`   |
//! | `m[2j][2i+1] = c`   | `−x_i − x_j ≤ c`  |
//!
//! Writing `ī = i xor 1` for the opposite signed variable, `V_j − V_i` and
//! `V_ī − V_j̄` are the same quantity, so `m[i][j]` and `m[j̄][ī]` always hold the
//! same bound (*coherence*). We store each pair once, as Miné does: only cells
//! `(i, j)` with `j ≤ i | 1` (the lower triangle plus the 2×2 diagonal
//! blocks; the diagonal cells `m[i][i] = 0` are kept per row although
//! `m[i][i]` and `m[ī][ī]` are twins). Row `i` then has `(i | 1) + 1` cells and starts at offset
//! `(i + 1)² / 2`, for `2n(n+1)` cells in all — about half of `4n²`.
//!
//! *Architecture invariant*: all reads and writes of a matrix go through
//! [`Dbm::get`]/[`Dbm::set`] or the row slices, so coherence holds by
//! construction.

use crate::bound::Bound;
use serde::{Deserialize, Serialize};

/// The raw encoding of `+∞` (see [`Bound`]).
pub(crate) const INF: i64 = i64::MAX;

/// A coherent DBM over `2·n` signed variables, stored as a half matrix.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Dbm {
    pub(crate) n: usize,
    /// Row-major half matrix, raw bounds (`i64::MAX` = `+∞`).
    pub(crate) m: Vec<i64>,
}

/// Offset of row `i` in the half matrix.
#[inline(always)]
pub(crate) const fn row_start(i: usize) -> usize {
    (i + 1) * (i + 1) / 2
}

/// Index of the stored cell holding `m[i][j]` (using coherence when `(i, j)`
/// lies above the stored half).
#[inline(always)]
pub(crate) const fn idx(i: usize, j: usize) -> usize {
    if j <= (i | 1) {
        row_start(i) + j
    } else {
        row_start(j ^ 1) + (i ^ 1)
    }
}

/// Number of stored cells for `n` variables.
#[inline]
pub(crate) const fn size(n: usize) -> usize {
    2 * n * (n + 1)
}

impl Dbm {
    /// The DBM of `⊤` over `n` variables: `0` on the diagonal, `+∞` elsewhere.
    pub fn top(n: usize) -> Dbm {
        let mut m = vec![INF; size(n)];
        for i in 0..2 * n {
            m[row_start(i) + i] = 0;
        }
        Dbm { n, m }
    }

    /// Number of program variables `n` (the matrix is `2n × 2n`).
    pub fn vars(&self) -> usize {
        self.n
    }

    /// The bound on `V_j − V_i`.
    #[inline]
    pub fn get(&self, i: usize, j: usize) -> Bound {
        Bound::finite(self.m[idx(i, j)])
    }

    /// Sets the bound on `V_j − V_i` (and, by coherence, on `V_ī − V_j̄`).
    #[inline]
    pub fn set(&mut self, i: usize, j: usize, b: Bound) {
        self.m[idx(i, j)] = b.raw();
    }

    /// Strengthens the bound on `V_j − V_i` to `min(old, b)` (adds a constraint).
    #[inline]
    pub fn tighten(&mut self, i: usize, j: usize, b: Bound) {
        let c = &mut self.m[idx(i, j)];
        *c = (*c).min(b.raw());
    }

    #[inline(always)]
    pub(crate) fn raw(&self, i: usize, j: usize) -> i64 {
        self.m[idx(i, j)]
    }

    /// The full row `i` (`m[i][0..2n]`), materialized from the half storage.
    pub(crate) fn full_row(&self, i: usize, out: &mut [i64]) {
        let s = row_start(i);
        let len = (i | 1) + 1;
        out[..len].copy_from_slice(&self.m[s..s + len]);
        for (j, o) in out.iter_mut().enumerate().skip(len) {
            *o = self.m[row_start(j ^ 1) + (i ^ 1)];
        }
    }

    /// Appends `k` unconstrained variables (indices `n .. n+k`).
    pub fn add_vars(&mut self, k: usize) {
        let old = 2 * self.n;
        self.n += k;
        self.m.resize(size(self.n), INF);
        for i in old..2 * self.n {
            self.m[row_start(i) + i] = 0;
        }
    }

    /// Removes the variables in `drop` (sorted or not), keeping the
    /// constraints among the others and renumbering them in order.
    pub fn remove_vars(&self, drop: &[usize]) -> Dbm {
        let keep: Vec<usize> = (0..self.n).filter(|v| !drop.contains(v)).collect();
        self.select(&keep)
    }

    /// The DBM over the variables `keep[0], keep[1], …` (renumbered `0, 1, …`).
    pub fn select(&self, keep: &[usize]) -> Dbm {
        let map: Vec<Option<usize>> = keep.iter().map(|&v| Some(v)).collect();
        self.embed(&map)
    }

    /// The DBM whose variable `k` is the old variable `map[k]`, or a fresh
    /// unconstrained one when `map[k]` is `None` (projection, permutation and
    /// adding variables in one).
    pub fn embed(&self, map: &[Option<usize>]) -> Dbm {
        let mut out = Dbm::top(map.len());
        for (ni, oi) in map.iter().enumerate() {
            let Some(oi) = *oi else { continue };
            for (nj, oj) in map.iter().enumerate().take(ni + 1) {
                let Some(oj) = *oj else { continue };
                for (a, b) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    let (i, j) = (2 * ni + a, 2 * nj + b);
                    if j <= (i | 1) {
                        out.m[idx(i, j)] = self.raw(2 * oi + a, 2 * oj + b);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_matrix_indices_cover_each_coherent_pair_once() {
        let n = 3;
        let mut seen = vec![0; size(n)];
        for i in 0..2 * n {
            for j in 0..2 * n {
                if i != j {
                    assert_eq!(idx(i, j), idx(j ^ 1, i ^ 1));
                }
                seen[idx(i, j)] += 1;
            }
        }
        // Every stored cell is hit by (i,j) and (j̄,ī): twice, or once when
        // they coincide (j = ī). The diagonal (always 0) is stored per row.
        for i in 0..2 * n {
            for j in 0..2 * n {
                let expect = if j == i ^ 1 || i == j { 1 } else { 2 };
                assert_eq!(seen[idx(i, j)], expect, "cell ({i},{j})");
            }
        }
    }

    #[test]
    fn full_row_reads_through_coherence() {
        let mut d = Dbm::top(2);
        d.set(3, 0, Bound::finite(7)); // x0 + x1 ≤ 7
        let mut row = vec![0; 4];
        d.full_row(1, &mut row);
        // m[1][2] = m[3][0]
        assert_eq!(row[2], 7);
    }
}
