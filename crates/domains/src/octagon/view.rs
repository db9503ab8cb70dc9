//! What the UI shows of an octagon: readable constraints, the DBM with
//! labelled rows and columns, and a 2-D picture of any two variables.
//!
//! All views are computed from the **closed** form (a copy; the octagon
//! itself is not changed) except [`Octagon::matrix`], which shows the matrix
//! as stored so a student can watch closure happen. They are plain data,
//! serializable with serde, and use exact integers except the polygon's
//! vertex coordinates, which are halves of integers and are exact in `f64`.

use super::dbm::Dbm;
use super::{interval_in, Octagon};
use crate::interval::Interval;
use serde::{Deserialize, Serialize};

/// One readable constraint, e.g. `x - y <= 3` or `0 <= x <= 10`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ConstraintView {
    /// The constraint as text, using the given variable names.
    pub text: String,
    /// The variables it mentions (one or two).
    pub vars: Vec<usize>,
}

/// The DBM as a full `2n × 2n` matrix: `cells[i][j] = Some(c)` means
/// `labels[j] − labels[i] ≤ c` (`None` is `+∞`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct MatrixView {
    /// Row/column labels: `+x`, `-x`, `+y`, `-y`, …
    pub labels: Vec<String>,
    /// The bounds, row `i` / column `j` bounding `V_j − V_i`.
    pub cells: Vec<Vec<Option<i64>>>,
    /// Whether the matrix shown is closed (its cells are the tightest bounds).
    pub closed: bool,
    /// Whether the octagon is known to be `⊥` (then the cells mean nothing).
    pub bottom: bool,
}

/// A half-plane `a·x + b·y ≤ c` of the 2-D projection (`a, b ∈ {−1, 0, 1}`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct HalfPlane {
    /// Coefficient of the horizontal variable.
    pub a: i64,
    /// Coefficient of the vertical variable.
    pub b: i64,
    /// The bound.
    pub c: i64,
}

/// The projection of an octagon on two variables `(x, y)`, for plotting.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct PlotView {
    /// The horizontal variable.
    pub x: usize,
    /// The vertical variable.
    pub y: usize,
    /// The interval box: bounds of `x`.
    pub x_range: Interval,
    /// The interval box: bounds of `y`.
    pub y_range: Interval,
    /// The (up to 8) finite constraints of the closed octagon on `x`, `y`.
    pub half_planes: Vec<HalfPlane>,
    /// Vertices (counter-clockwise, starting bottom-left) of the octagon
    /// clipped to the viewing box; empty when the octagon is `⊥` or misses
    /// the box.
    pub polygon: Vec<[f64; 2]>,
    /// The viewing box `[x_min, x_max, y_min, y_max]` used for clipping.
    pub clip: [i64; 4],
}

impl Octagon {
    /// The non-redundant-where-cheap constraints of the closed octagon, in
    /// readable form: one line per variable bound (`0 <= x <= 10`, `x == 3`),
    /// then relational constraints (`x - y <= 3`, `x == y`, `x + y >= 2`)
    /// that the variables' bounds do not already imply. `⊥` is `false`;
    /// `⊤` is the empty list. (Transitive redundancy among relational
    /// constraints is not removed.)
    pub fn constraints<N: AsRef<str>>(&self, names: &[N]) -> Vec<ConstraintView> {
        let Some(d) = self.canonical() else {
            return vec![ConstraintView { text: "false".into(), vars: vec![] }];
        };
        let name = |v: usize| names.get(v).map_or_else(|| format!("v{v}"), |s| s.as_ref().to_string());
        let n = d.vars();
        let itv: Vec<Interval> = (0..n).map(|v| interval_in(&d, v)).collect();
        let mut out = Vec::new();
        for (v, i) in itv.iter().enumerate() {
            let x = name(v);
            let text = match (i.lo(), i.hi()) {
                (Some(l), Some(h)) if l == h => format!("{x} == {l}"),
                (Some(l), Some(h)) => format!("{l} <= {x} <= {h}"),
                (Some(l), None) => format!("{x} >= {l}"),
                (None, Some(h)) => format!("{x} <= {h}"),
                (None, None) => continue,
            };
            out.push(ConstraintView { text, vars: vec![v] });
        }
        for a in 0..n {
            for b in a + 1..n {
                let (x, y) = (name(a), name(b));
                // x − y ∈ [lo, hi]; implied range from the intervals: [x] − [y].
                let diff = range_of(&d, 2 * b, 2 * a);
                let implied = itv[a].sub(itv[b]);
                if let Some(text) = relation(&format!("{x} - {y}"), diff, implied, Some((&x, &y))) {
                    out.push(ConstraintView { text, vars: vec![a, b] });
                }
                let sum = range_of(&d, 2 * b + 1, 2 * a);
                let implied = itv[a].add(itv[b]);
                if let Some(text) = relation(&format!("{x} + {y}"), sum, implied, None) {
                    out.push(ConstraintView { text, vars: vec![a, b] });
                }
            }
        }
        out
    }

    /// The DBM as stored, with labels `+x`, `-x` per variable.
    pub fn matrix<N: AsRef<str>>(&self, names: &[N]) -> MatrixView {
        let d = self.dbm();
        let n2 = 2 * d.vars();
        let labels = (0..n2)
            .map(|i| {
                let v = names.get(i / 2).map_or_else(|| format!("v{}", i / 2), |s| s.as_ref().to_string());
                format!("{}{v}", if i % 2 == 0 { "+" } else { "-" })
            })
            .collect();
        let cells = (0..n2).map(|i| (0..n2).map(|j| d.get(i, j).get()).collect()).collect();
        MatrixView { labels, cells, closed: self.is_closed(), bottom: self.known_bottom() }
    }

    /// The projection on `(x, y)`: interval box, the 8 half-planes of the
    /// closed DBM restricted to `x`, `y`, and the polygon they bound, clipped
    /// to `clip = [x_min, x_max, y_min, y_max]` (so unbounded sides end at the
    /// box). Vertices are exact (halves of integers).
    pub fn plot(&self, x: usize, y: usize, clip: [i64; 4]) -> PlotView {
        let Some(d) = self.canonical() else {
            return PlotView {
                x,
                y,
                x_range: Interval::BOTTOM,
                y_range: Interval::BOTTOM,
                half_planes: vec![],
                polygon: vec![],
                clip,
            };
        };
        let mut half_planes = Vec::new();
        // (a, b) = coefficients of x and y; (i, j) = the cell bounding V_j − V_i.
        let (px, nx, py, ny) = (2 * x, 2 * x + 1, 2 * y, 2 * y + 1);
        let forms: [(i64, i64, usize, usize); 8] = [
            (1, 0, nx, px),  // 2x ≤ c
            (-1, 0, px, nx), // −2x ≤ c
            (0, 1, ny, py),
            (0, -1, py, ny),
            (1, -1, py, px), // x − y
            (-1, 1, px, py), // y − x
            (1, 1, ny, px),  // x + y
            (-1, -1, px, ny),
        ];
        for (k, &(a, b, i, j)) in forms.iter().enumerate() {
            if x == y && k >= 2 {
                break;
            }
            if let Some(c) = d.get(i, j).get() {
                let c = if k < 4 { c.div_euclid(2) } else { c };
                half_planes.push(HalfPlane { a, b, c });
            }
        }
        let polygon = clip_polygon(clip, &half_planes);
        PlotView { x, y, x_range: interval_in(&d, x), y_range: interval_in(&d, y), half_planes, polygon, clip }
    }
}

/// The range of `V_j − V_i` in a closed DBM: `[−m[j][i], m[i][j]]`.
fn range_of(d: &Dbm, i: usize, j: usize) -> Interval {
    // (−i64::MIN does not fit: that lower bound is dropped, which is sound.)
    Interval::new(d.get(j, i).get().and_then(|c| c.checked_neg()), d.get(i, j).get())
}

/// Text for `term ∈ range`, leaving out the sides that `implied` already
/// guarantees. `names = Some((x, y))` for a difference, to print `x <= y`.
fn relation(term: &str, range: Interval, implied: Interval, names: Option<(&str, &str)>) -> Option<String> {
    let lo = range.lo().filter(|&l| implied.lo().is_none_or(|il| l > il));
    let hi = range.hi().filter(|&h| implied.hi().is_none_or(|ih| h < ih));
    let pretty = |op: &str, c: i64| match names {
        Some((x, y)) if c == 0 => format!("{x} {op} {y}"),
        _ => format!("{term} {op} {c}"),
    };
    match (lo, hi) {
        (Some(l), Some(h)) if l == h => Some(pretty("==", l)),
        (Some(l), Some(h)) => Some(format!("{l} <= {term} <= {h}")),
        (Some(l), None) => Some(pretty(">=", l)),
        (None, Some(h)) => Some(pretty("<=", h)),
        (None, None) => None,
    }
}

/// Sutherland–Hodgman clipping of the box by each half-plane, in doubled
/// coordinates (`X = 2x`) so every vertex is an exact integer.
fn clip_polygon(clip: [i64; 4], planes: &[HalfPlane]) -> Vec<[f64; 2]> {
    let [x0, x1, y0, y1] = clip.map(|v| 2 * v as i128);
    if x0 > x1 || y0 > y1 {
        return vec![];
    }
    let mut poly: Vec<(i128, i128)> = vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1)];
    for hp in planes {
        let (a, b, c2) = (hp.a as i128, hp.b as i128, 2 * hp.c as i128);
        let f = |p: (i128, i128)| a * p.0 + b * p.1;
        let mut out = Vec::with_capacity(poly.len() + 2);
        for k in 0..poly.len() {
            let p = poly[k];
            let q = poly[(k + 1) % poly.len()];
            let (fp, fq) = (f(p), f(q));
            let (pin, qin) = (fp <= c2, fq <= c2);
            if pin != qin {
                // The crossing point, exact: it is the meet of two lines of
                // the forms x = k, y = k, x ± y = k, hence a half-integer.
                let num = c2 - fp;
                let den = fq - fp;
                let ix = p.0 + num * (q.0 - p.0) / den;
                let iy = p.1 + num * (q.1 - p.1) / den;
                debug_assert_eq!(num * (q.0 - p.0) % den, 0);
                out.push((ix, iy));
            }
            if qin {
                out.push(q);
            }
        }
        out.dedup();
        while out.len() > 1 && out.first() == out.last() {
            out.pop();
        }
        poly = out;
        if poly.is_empty() {
            break;
        }
    }
    // Start at the bottom-most, then left-most vertex, for a stable output.
    if let Some(k) = (0..poly.len()).min_by_key(|&k| (poly[k].1, poly[k].0)) {
        poly.rotate_left(k);
    }
    poly.into_iter().map(|(x, y)| [x as f64 / 2.0, y as f64 / 2.0]).collect()
}
