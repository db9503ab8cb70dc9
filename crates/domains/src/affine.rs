//! Affine equalities (Karr, "Affine relationships among variables of a
//! program", Acta Informatica 1976): an element is the set of integer
//! points satisfying a conjunction of linear equalities `Σ cᵢ·xᵢ = k` over
//! rational coefficients (`a + b = 3·i`, `res + cnt = a + b`).
//!
//! Representation: *homogeneous coordinates*. A point `x` is the vector
//! `(x, 1)` of `n + 1` entries; an equality `c·x = k` is the row
//! `(c, −k)` with `row · (x, 1) = 0`. The rows are kept in reduced row
//! echelon form with integer entries (each row divided by the gcd of its
//! entries, pivot positive), so equal elements have equal rows — rational
//! coefficients scaled to integers. The generators of an element (points
//! and directions, `t = 1` and `t = 0` in the last entry) are the null
//! space of its rows, and the rows are the null space of its generators.
//!
//! * `γ(a)` = the integer points satisfying every row; `γ(⊥) = ∅`.
//! * ⊔ = the affine hull: the rows orthogonal to the generators of both.
//! * assignment `x := Σ aᵢ·xᵢ + b` maps every generator (invertible or not:
//!   `x := 0` as well as `x := x + 1`); `x := ?` adds the direction `eₓ`.
//! * guards: an equality guard adds its row; any other guard is ignored
//!   (sound: the element only grows).
//!
//! No widening is needed: a strictly increasing chain lowers the number of
//! independent rows each step, so it has at most `n + 1` elements.
//!
//! Arithmetic is on `i128` with checked operations; an overflow gives up
//! the element's rows (⊤, or the operand's rows dropped), never a wrong
//! equality.

/// An element of the affine-equality domain over variables `0..n`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Affine {
    n: usize,
    /// `None`: ⊥. Otherwise rows of length `n + 1` in reduced row echelon form.
    rows: Option<Vec<Vec<i128>>>,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.min(i128::MAX as u128) as i128
}

/// `v` divided by the gcd of its entries, first nonzero entry positive.
fn normalize_row(v: &mut [i128]) {
    let g = v.iter().fold(0, |g, &x| gcd(g, x));
    if g > 1 {
        v.iter_mut().for_each(|x| *x /= g);
    }
    if v.iter().find(|x| **x != 0).is_some_and(|x| *x < 0) {
        v.iter_mut().for_each(|x| *x = -*x);
    }
}

/// `a·r − b·s` entry-wise, `None` on overflow.
fn combine(a: i128, r: &[i128], b: i128, s: &[i128]) -> Option<Vec<i128>> {
    r.iter().zip(s).map(|(x, y)| a.checked_mul(*x)?.checked_sub(b.checked_mul(*y)?)).collect()
}

/// The reduced row echelon form of `rows` (integer, normalized rows, zero
/// rows dropped, sorted by pivot column); `None` on overflow.
fn rref(mut rows: Vec<Vec<i128>>, width: usize) -> Option<Vec<Vec<i128>>> {
    let mut done: Vec<Vec<i128>> = Vec::new();
    for col in 0..width {
        let Some(at) = rows.iter().position(|r| r[col] != 0) else { continue };
        let mut pivot = rows.swap_remove(at);
        normalize_row(&mut pivot);
        let p = pivot[col];
        for r in rows.iter_mut().chain(done.iter_mut()) {
            if r[col] != 0 {
                let g = gcd(p, r[col]);
                let mut next = combine(p / g, r, r[col] / g, &pivot)?;
                normalize_row(&mut next);
                *r = next;
            }
        }
        rows.retain(|r| r.iter().any(|x| *x != 0));
        done.push(pivot);
    }
    done.sort_by_key(|r| r.iter().position(|x| *x != 0));
    Some(done)
}

/// A basis of `{ v : r · v = 0 for every row r }` for rows in reduced row
/// echelon form over `width` columns; `None` on overflow.
fn null_space(rows: &[Vec<i128>], width: usize) -> Option<Vec<Vec<i128>>> {
    let pivots: Vec<usize> = rows.iter().map(|r| r.iter().position(|x| *x != 0).unwrap_or(width)).collect();
    let mut basis = Vec::new();
    for free in (0..width).filter(|c| !pivots.contains(c)) {
        // v_free = L, v_pivot(r) = −r[free]·L / r[pivot]: L is the lcm of
        // the pivots, so every entry is an integer.
        let mut l: i128 = 1;
        for (r, &p) in rows.iter().zip(&pivots) {
            if r[free] != 0 {
                l = (l / gcd(l, r[p])).checked_mul(r[p])?;
            }
        }
        let mut v = vec![0i128; width];
        v[free] = l;
        for (r, &p) in rows.iter().zip(&pivots) {
            if r[free] != 0 {
                v[p] = -(r[free].checked_mul(l / r[p])?);
            }
        }
        normalize_row(&mut v);
        basis.push(v);
    }
    Some(basis)
}

impl Affine {
    /// ⊤ over `n` variables: no equality.
    pub fn top(n: usize) -> Affine {
        Affine { n, rows: Some(Vec::new()) }
    }

    /// ⊥ over `n` variables: no point.
    pub fn bottom(n: usize) -> Affine {
        Affine { n, rows: None }
    }

    /// The single point `p` (`xᵢ = pᵢ` for every i).
    pub fn point(p: &[i128]) -> Affine {
        let n = p.len();
        let rows = (0..n)
            .map(|i| {
                let mut r = vec![0; n + 1];
                r[i] = 1;
                r[n] = -p[i];
                r
            })
            .collect();
        Affine { n, rows: Some(rows) }
    }

    /// The number of variables.
    pub fn vars(&self) -> usize {
        self.n
    }

    /// Whether the element is ⊥ (no point).
    pub fn is_bottom(&self) -> bool {
        self.rows.is_none()
    }

    /// Whether the element is ⊤ (no equality).
    pub fn is_top(&self) -> bool {
        self.rows.as_ref().is_some_and(Vec::is_empty)
    }

    /// The element with these rows (homogeneous, any form), ⊥ when they
    /// are contradictory; ⊤ when the arithmetic overflows.
    fn from_rows(n: usize, rows: Vec<Vec<i128>>) -> Affine {
        match rref(rows, n + 1) {
            None => Affine::top(n),
            Some(r) => Affine::from_echelon(n, r),
        }
    }

    /// The element with these rows in reduced row echelon form: ⊥ when one
    /// of them reads `0 = k` with `k ≠ 0`.
    fn from_echelon(n: usize, rows: Vec<Vec<i128>>) -> Affine {
        if rows.iter().any(|row| row[..n].iter().all(|x| *x == 0)) {
            Affine::bottom(n)
        } else {
            Affine { n, rows: Some(rows) }
        }
    }

    /// The element spanned by these homogeneous generators (⊥ without one
    /// whose last entry is nonzero: a point).
    fn from_generators(n: usize, gens: &[Vec<i128>]) -> Affine {
        if gens.iter().all(|g| g[n] == 0) {
            return Affine::bottom(n);
        }
        let Some(echelon) = rref(gens.to_vec(), n + 1) else { return Affine::top(n) };
        match null_space(&echelon, n + 1) {
            Some(rows) => Affine::from_rows(n, rows),
            None => Affine::top(n),
        }
    }

    /// The generators: homogeneous vectors spanning the element (empty for ⊥).
    fn generators(&self) -> Option<Vec<Vec<i128>>> {
        match &self.rows {
            None => Some(Vec::new()),
            Some(rows) => null_space(rows, self.n + 1),
        }
    }

    /// Whether the integer point `p` satisfies every equality.
    pub fn contains(&self, p: &[i128]) -> bool {
        let Some(rows) = &self.rows else { return false };
        rows.iter().all(|r| {
            let mut s: i128 = r[self.n];
            for (c, x) in r.iter().zip(p) {
                match c.checked_mul(*x).and_then(|v| s.checked_add(v)) {
                    Some(v) => s = v,
                    None => return false,
                }
            }
            s == 0
        })
    }

    /// ⊑: every point of `self` is a point of `other`.
    pub fn leq(&self, other: &Affine) -> bool {
        let (Some(_), Some(theirs)) = (&self.rows, &other.rows) else { return self.rows.is_none() };
        let Some(gens) = self.generators() else { return false };
        theirs.iter().all(|r| {
            gens.iter().all(|g| r.iter().zip(g).try_fold(0i128, |s, (a, b)| s.checked_add(a.checked_mul(*b)?)) == Some(0))
        })
    }

    /// ⊔: the affine hull of both.
    pub fn join(&self, other: &Affine) -> Affine {
        match (&self.rows, &other.rows) {
            (None, _) => other.clone(),
            (_, None) => self.clone(),
            _ => {
                let (Some(mut a), Some(b)) = (self.generators(), other.generators()) else { return Affine::top(self.n) };
                a.extend(b);
                Affine::from_generators(self.n, &a)
            }
        }
    }

    /// ⊓ with the equality `Σ coeffs[i]·xᵢ + constant = 0` (an equality
    /// guard); on overflow the guard is ignored (the element only grows).
    pub fn assume_eq(&self, coeffs: &[i128], constant: i128) -> Affine {
        let Some(rows) = &self.rows else { return self.clone() };
        let mut row: Vec<i128> = (0..self.n).map(|i| coeffs.get(i).copied().unwrap_or(0)).collect();
        row.push(constant);
        let mut all = rows.clone();
        all.push(row);
        match rref(all, self.n + 1) {
            None => self.clone(),
            Some(r) => Affine::from_echelon(self.n, r),
        }
    }

    /// `x := Σ coeffs[i]·xᵢ + constant` (invertible or not).
    pub fn assign(&self, x: usize, coeffs: &[i128], constant: i128) -> Affine {
        if self.rows.is_none() {
            return self.clone();
        }
        let Some(gens) = self.generators() else { return self.havoc(x) };
        let n = self.n;
        let mut mapped = Vec::with_capacity(gens.len());
        for g in gens {
            let mut v = constant.checked_mul(g[n]);
            for (i, c) in coeffs.iter().enumerate().take(n) {
                v = v.and_then(|s| s.checked_add(c.checked_mul(g[i])?));
            }
            let Some(v) = v else { return self.havoc(x) };
            let mut h = g.clone();
            h[x] = v;
            mapped.push(h);
        }
        Affine::from_generators(n, &mapped)
    }

    /// `x := ?`: forgets every equality about `x`.
    pub fn havoc(&self, x: usize) -> Affine {
        let Some(rows) = &self.rows else { return self.clone() };
        // Eliminate x: keep the rows without x, and combinations of pairs
        // with x cancelled; in echelon form at most one row has x as its
        // pivot, the others have it after theirs, so cancelling against one
        // row with x suffices.
        let with: Vec<&Vec<i128>> = rows.iter().filter(|r| r[x] != 0).collect();
        let mut out: Vec<Vec<i128>> = rows.iter().filter(|r| r[x] == 0).cloned().collect();
        if let Some(first) = with.first() {
            for r in &with[1..] {
                let g = gcd(first[x], r[x]);
                if let Some(c) = combine(first[x] / g, r, r[x] / g, first) {
                    out.push(c);
                }
            }
        }
        Affine::from_rows(self.n, out)
    }

    /// The equalities as `(coefficients, constant)` with
    /// `Σ coefficients[i]·xᵢ + constant = 0`, in echelon order (none for ⊥).
    pub fn equalities(&self) -> Vec<(Vec<i128>, i128)> {
        self.rows.iter().flatten().map(|r| (r[..self.n].to_vec(), r[self.n])).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lockstep_counters_keep_their_relation() {
        // a = 0, b = 0, i = 0; loop { a += 1; b += 2; i += 1 }: a + b = 3 i.
        let init = Affine::point(&[0, 0, 0]);
        let body = |s: &Affine| s.assign(0, &[1, 0, 0], 1).assign(1, &[0, 1, 0], 2).assign(2, &[0, 0, 1], 1);
        let mut head = init.clone();
        loop {
            let next = head.join(&body(&head));
            if next == head {
                break;
            }
            head = next;
        }
        assert!(head.contains(&[5, 10, 5]));
        assert!(!head.contains(&[5, 10, 4]));
        assert!(!head.contains(&[2, 1, 1]), "a + b = 3 i, but not a = i");
        assert_eq!(head.equalities(), vec![(vec![1, 0, -1], 0), (vec![0, 1, -2], 0)]);
    }

    #[test]
    fn contradictory_guard_is_bottom() {
        let s = Affine::point(&[1, 2]);
        assert!(s.assume_eq(&[1, 0], -2).is_bottom());
        assert_eq!(s.assume_eq(&[1, 0], -1), s);
    }

    #[test]
    fn havoc_forgets_only_that_variable() {
        let s = Affine::point(&[1, 2, 3]).join(&Affine::point(&[2, 4, 3]));
        // x1 = 2 x0, x2 = 3.
        let h = s.havoc(0);
        assert!(h.contains(&[7, 100, 3]));
        assert!(!h.contains(&[7, 100, 4]));
    }
}
