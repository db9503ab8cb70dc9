//! The 2-D plot of an octagon state: its projection on two chosen variables
//! `x` (horizontal) and `y` (vertical), drawn as a polygon inside its
//! interval box, with axes and ticks — as plain data in SVG coordinates, so
//! the Yew component only draws it and the geometry is tested natively.
//!
//! The projection of an octagon on `(x, y)` is the intersection of at most
//! eight half-planes `±x ≤ c`, `±y ≤ c`, `±x ± y ≤ c`, read off the closed
//! DBM the trace records ([`OctagonView::cells`]: `cells[i][j] = c` bounds
//! `labels[j] − labels[i] ≤ c`). The polygon is the viewing box clipped by
//! each half-plane in turn (Sutherland–Hodgman); the viewing box leaves room
//! around every finite bound, so a polygon side lying on the box's border
//! is one the octagon does not have: it is drawn *open* (the region goes on
//! toward that edge).
//!
//! (`domains::octagon` has the same projection for an `Octagon` value; the
//! page only has the trace's [`OctagonView`], so it computes it from there.)

use engine::trace::OctagonView;

/// A half-plane `a·x + b·y ≤ c` with `a, b ∈ {−1, 0, 1}`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HalfPlane {
    /// Coefficient of the horizontal variable.
    pub a: f64,
    /// Coefficient of the vertical variable.
    pub b: f64,
    /// The bound.
    pub c: f64,
}

/// The constraints of `octagon` on `(x, y)`, by variable name; `None` when
/// either variable is not among the octagon's labels (it is unconstrained),
/// or `x == y`. The unary bounds come out as `±x ≤ c/2` (the DBM stores
/// `2x ≤ c`).
pub fn half_planes(octagon: &OctagonView, x: &str, y: &str) -> Option<Vec<HalfPlane>> {
    if x == y {
        return None;
    }
    let find = |label: String| octagon.labels.iter().position(|l| *l == label);
    let (px, nx) = (find(format!("+{x}"))?, find(format!("-{x}"))?);
    let (py, ny) = (find(format!("+{y}"))?, find(format!("-{y}"))?);
    // (label index, its linear form in (x, y)).
    let terms: [(usize, (f64, f64)); 4] = [(px, (1.0, 0.0)), (nx, (-1.0, 0.0)), (py, (0.0, 1.0)), (ny, (0.0, -1.0))];
    let mut planes: Vec<HalfPlane> = Vec::new();
    for &(i, (ai, bi)) in &terms {
        for &(j, (aj, bj)) in &terms {
            if i == j {
                continue;
            }
            let Some(c) = octagon.cells.get(i).and_then(|row| row.get(j)).copied().flatten() else { continue };
            // labels[j] − labels[i] ≤ c.
            let (mut a, mut b, mut c) = (aj - ai, bj - bi, c as f64);
            if a.abs() == 2.0 || b.abs() == 2.0 {
                a /= 2.0;
                b /= 2.0;
                c /= 2.0;
            }
            if let Some(p) = planes.iter_mut().find(|p| p.a == a && p.b == b) {
                p.c = p.c.min(c);
            } else {
                planes.push(HalfPlane { a, b, c });
            }
        }
    }
    Some(planes)
}

/// Clips the convex polygon `poly` (vertices in order) by the half-plane `h`.
pub fn clip(poly: &[[f64; 2]], h: HalfPlane) -> Vec<[f64; 2]> {
    const EPS: f64 = 1e-9;
    let f = |p: [f64; 2]| h.a * p[0] + h.b * p[1] - h.c;
    let mut out: Vec<[f64; 2]> = Vec::with_capacity(poly.len() + 2);
    for k in 0..poly.len() {
        let (p, q) = (poly[k], poly[(k + 1) % poly.len()]);
        let (fp, fq) = (f(p), f(q));
        let (pin, qin) = (fp <= EPS, fq <= EPS);
        if pin != qin {
            let t = fp / (fp - fq);
            out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
        }
        if qin {
            out.push(q);
        }
    }
    // Drop repeated vertices (a plane through a vertex).
    let mut dedup: Vec<[f64; 2]> = Vec::with_capacity(out.len());
    for p in out {
        if dedup.last().is_none_or(|l: &[f64; 2]| (l[0] - p[0]).abs() > EPS || (l[1] - p[1]).abs() > EPS) {
            dedup.push(p);
        }
    }
    while dedup.len() > 1 && {
        let (a, b) = (dedup[0], dedup[dedup.len() - 1]);
        (a[0] - b[0]).abs() <= EPS && (a[1] - b[1]).abs() <= EPS
    } {
        dedup.pop();
    }
    if dedup.len() < 3 && !dedup.is_empty() {
        // A degenerate polygon (a segment or a point) is still a result:
        // an octagon like x == y is a line.
        return dedup;
    }
    dedup
}

/// The polygon of `planes` inside `bbox = [x0, x1, y0, y1]`, counter-clockwise,
/// starting at the lowest (then leftmost) vertex; empty when the half-planes
/// have no common point in the box.
pub fn polygon(planes: &[HalfPlane], bbox: [f64; 4]) -> Vec<[f64; 2]> {
    let [x0, x1, y0, y1] = bbox;
    let mut poly = vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
    for &h in planes {
        poly = clip(&poly, h);
        if poly.is_empty() {
            break;
        }
    }
    if let Some(k) = (0..poly.len())
        .min_by(|&i, &j| (poly[i][1], poly[i][0]).partial_cmp(&(poly[j][1], poly[j][0])).unwrap_or(std::cmp::Ordering::Equal))
    {
        poly.rotate_left(k);
    }
    poly
}

/// One tick of an axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    /// Position in SVG coordinates (x for the horizontal axis, y for the vertical one).
    pub at: f64,
    /// The value written.
    pub label: String,
}

/// One side of the drawn polygon.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    /// Start, SVG coordinates.
    pub from: [f64; 2],
    /// End, SVG coordinates.
    pub to: [f64; 2],
    /// The side lies on the viewing box's border: the octagon is unbounded
    /// that way and has no such side.
    pub open: bool,
}

/// Everything the SVG shows, in SVG coordinates (y grows downward).
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    /// Horizontal variable.
    pub x: String,
    /// Vertical variable.
    pub y: String,
    /// SVG width and height.
    pub size: [f64; 2],
    /// The plotting area `[left, top, right, bottom]`.
    pub area: [f64; 4],
    /// The values shown: `[x0, x1, y0, y1]`.
    pub view: [f64; 4],
    /// The polygon's vertices in value coordinates (for tests and titles).
    pub vertices: Vec<[f64; 2]>,
    /// The polygon's vertices, SVG coordinates (empty: nothing to draw).
    pub points: Vec<[f64; 2]>,
    /// Its sides, open or bounded.
    pub sides: Vec<Side>,
    /// The interval box `[left, top, right, bottom]`, SVG coordinates,
    /// reaching the area's border on unbounded sides.
    pub interval_box: Option<[f64; 4]>,
    /// Which sides of the interval box are bounds (`[left, top, right,
    /// bottom]`); the others are open and not drawn.
    pub box_bounded: [bool; 4],
    /// The interval box in words: `x ∈ [0, 10], y ∈ [0, +∞)`.
    pub box_text: String,
    /// Ticks of the horizontal axis.
    pub x_ticks: Vec<Tick>,
    /// Ticks of the vertical axis.
    pub y_ticks: Vec<Tick>,
    /// The octagon is ⊥ (nothing to draw).
    pub bottom: bool,
}

const WIDTH: f64 = 300.0;
const HEIGHT: f64 = 240.0;
const AREA: [f64; 4] = [44.0, 10.0, 290.0, 206.0];

/// The shown range of one variable with finite bounds `lo`, `hi` (either
/// may be absent): padded so every finite bound lies strictly inside, and
/// extended past a missing bound.
fn range(lo: Option<f64>, hi: Option<f64>, hint: (f64, f64)) -> (f64, f64) {
    let (lo, hi) = match (lo, hi) {
        (Some(l), Some(h)) => (l, h),
        (Some(l), None) => (l, l.max(hint.1).max(l + 10.0)),
        (None, Some(h)) => (h.min(hint.0).min(h - 10.0), h),
        (None, None) => (hint.0.min(-10.0), hint.1.max(10.0)),
    };
    let pad = ((hi - lo) * 0.15).max(1.0);
    (lo - pad, hi + pad)
}

/// A "nice" tick step (1, 2 or 5 times a power of ten, at least 1) for about five ticks.
fn tick_step(span: f64) -> f64 {
    let raw = (span / 5.0).max(1.0);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * p).find(|&s| s >= raw).unwrap_or(10.0 * p)
}

fn ticks(v0: f64, v1: f64, map: impl Fn(f64) -> f64) -> Vec<Tick> {
    let step = tick_step(v1 - v0);
    let mut t = (v0 / step).ceil() * step;
    let mut out = Vec::new();
    while t <= v1 + 1e-9 && out.len() < 20 {
        out.push(Tick { at: map(t), label: tick_label(t.round()) });
        t += step;
    }
    out
}

/// A tick's value as text: digits, or `2e9` from 100000 on (the ticks of
/// a variable bounded only by its C type would not fit beside the axis).
fn tick_label(v: f64) -> String {
    if v.abs() >= 1e5 {
        format!("{v:e}")
    } else {
        format!("{}", v as i64)
    }
}

fn bound_text(lo: Option<f64>, hi: Option<f64>) -> String {
    let num = |v: f64| if v.fract() == 0.0 { format!("{}", v as i64) } else { format!("{v}") };
    match (lo, hi) {
        (Some(l), Some(h)) => format!("[{}, {}]", num(l), num(h)),
        (Some(l), None) => format!("[{}, +∞)", num(l)),
        (None, Some(h)) => format!("(−∞, {}]", num(h)),
        (None, None) => "(−∞, +∞)".into(),
    }
}

/// The plot of `octagon` projected on `x` and `y`, or `None` when either is
/// not one of its variables (or they are the same).
pub fn plot(octagon: &OctagonView, x: &str, y: &str) -> Option<Plot> {
    let planes = if octagon.bottom { Vec::new() } else { half_planes(octagon, x, y)? };
    if x == y {
        return None;
    }
    // Unary bounds (tight: the DBM is closed).
    let bound = |a: f64, b: f64| planes.iter().find(|p| p.a == a && p.b == b).map(|p| p.c);
    let (xlo, xhi) = (bound(-1.0, 0.0).map(|c| -c), bound(1.0, 0.0));
    let (ylo, yhi) = (bound(0.0, -1.0).map(|c| -c), bound(0.0, 1.0));
    // Where the relational constraints cross the axes, as hints for the
    // extent of an unbounded side.
    let hints: Vec<f64> = planes.iter().filter(|p| p.a != 0.0 && p.b != 0.0).map(|p| p.c).collect();
    let hint = (hints.iter().copied().fold(0.0, f64::min), hints.iter().copied().fold(0.0, f64::max));
    let (x0, x1) = range(xlo, xhi, hint);
    let (y0, y1) = range(ylo, yhi, hint);
    let [left, top, right, bottom] = AREA;
    let sx = |v: f64| left + (v - x0) / (x1 - x0) * (right - left);
    let sy = |v: f64| bottom - (v - y0) / (y1 - y0) * (bottom - top);
    let vertices = if octagon.bottom { Vec::new() } else { polygon(&planes, [x0, x1, y0, y1]) };
    let points: Vec<[f64; 2]> = vertices.iter().map(|p| [sx(p[0]), sy(p[1])]).collect();
    let sides = sides(&vertices, [x0, x1, y0, y1], &sx, &sy);
    let interval_box = (!octagon.bottom).then(|| {
        [xlo.map(sx).unwrap_or(left), yhi.map(sy).unwrap_or(top), xhi.map(sx).unwrap_or(right), ylo.map(sy).unwrap_or(bottom)]
    });
    let box_text = if octagon.bottom {
        "⊥: no concrete state".to_string()
    } else {
        format!("{x} ∈ {}, {y} ∈ {}", bound_text(xlo, xhi), bound_text(ylo, yhi))
    };
    Some(Plot {
        x: x.to_string(),
        y: y.to_string(),
        size: [WIDTH, HEIGHT],
        area: AREA,
        view: [x0, x1, y0, y1],
        vertices,
        points,
        sides,
        interval_box,
        box_bounded: [xlo.is_some(), yhi.is_some(), xhi.is_some(), ylo.is_some()],
        box_text,
        x_ticks: ticks(x0, x1, sx),
        y_ticks: ticks(y0, y1, sy),
        bottom: octagon.bottom,
    })
}

/// SVG `points` attribute text of a polygon: `x,y x,y …` with one decimal.
pub fn points_attr(points: &[[f64; 2]]) -> String {
    points.iter().map(|p| format!("{:.1},{:.1}", p[0], p[1])).collect::<Vec<_>>().join(" ")
}

/// One octagon of an [`Overlay`]: its polygon in the shared view.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// What it is (`s8 (new)`), for the legend and the tooltip.
    pub name: String,
    /// The polygon's vertices in value coordinates.
    pub vertices: Vec<[f64; 2]>,
    /// The polygon's vertices, SVG coordinates (empty: nothing to draw).
    pub points: Vec<[f64; 2]>,
    /// Its sides, open or bounded.
    pub sides: Vec<Side>,
    /// The octagon is ⊥ (nothing to draw).
    pub bottom: bool,
}

/// Several octagons projected on the same two variables in one view (the
/// inputs and the result of a merge): one axis range that holds every
/// finite bound of every layer, one polygon per layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Overlay {
    /// Horizontal variable.
    pub x: String,
    /// Vertical variable.
    pub y: String,
    /// SVG width and height.
    pub size: [f64; 2],
    /// The plotting area `[left, top, right, bottom]`.
    pub area: [f64; 4],
    /// The values shown: `[x0, x1, y0, y1]`.
    pub view: [f64; 4],
    /// Ticks of the horizontal axis.
    pub x_ticks: Vec<Tick>,
    /// Ticks of the vertical axis.
    pub y_ticks: Vec<Tick>,
    /// The octagons, in the order given.
    pub layers: Vec<Layer>,
}

/// The half-planes of `octagon` on `(x, y)` when only some of the two
/// variables are constrained in it (a missing one is unbounded); `None`
/// when neither is.
fn partial_planes(octagon: &OctagonView, x: &str, y: &str) -> Option<Vec<HalfPlane>> {
    if octagon.bottom {
        return Some(Vec::new());
    }
    if let Some(p) = half_planes(octagon, x, y) {
        return Some(p);
    }
    let unary = |v: &str, a: f64, b: f64| -> Option<Vec<HalfPlane>> {
        let find = |label: String| octagon.labels.iter().position(|l| *l == label);
        let (p, n) = (find(format!("+{v}"))?, find(format!("-{v}"))?);
        let cell = |i: usize, j: usize| octagon.cells.get(i).and_then(|row| row.get(j)).copied().flatten();
        // −v − v ≤ c in row +v, column −v: −2v ≤ c; v − (−v) ≤ c: 2v ≤ c.
        let mut out = Vec::new();
        out.extend(cell(n, p).map(|c| HalfPlane { a, b, c: c as f64 / 2.0 }));
        out.extend(cell(p, n).map(|c| HalfPlane { a: -a, b: -b, c: c as f64 / 2.0 }));
        Some(out)
    };
    match (unary(x, 1.0, 0.0), unary(y, 0.0, 1.0)) {
        (None, None) => None,
        (a, b) => Some(a.into_iter().chain(b).flatten().collect()),
    }
}

/// `octagons` (name, octagon) projected on `x` and `y` in one shared view;
/// `None` when `x == y` or no octagon constrains either variable.
pub fn overlay(octagons: &[(String, &OctagonView)], x: &str, y: &str) -> Option<Overlay> {
    if x == y {
        return None;
    }
    let planes: Vec<Option<Vec<HalfPlane>>> = octagons.iter().map(|(_, o)| partial_planes(o, x, y)).collect();
    if planes.iter().all(Option::is_none) {
        return None;
    }
    // One range per axis holding every layer's own range (⊥ has none).
    let mut view = [f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY];
    for p in octagons.iter().zip(&planes).filter(|((_, o), _)| !o.bottom).filter_map(|(_, p)| p.as_ref()) {
        let bound = |a: f64, b: f64| p.iter().find(|h| h.a == a && h.b == b).map(|h| h.c);
        let hints: Vec<f64> = p.iter().filter(|h| h.a != 0.0 && h.b != 0.0).map(|h| h.c).collect();
        let hint = (hints.iter().copied().fold(0.0, f64::min), hints.iter().copied().fold(0.0, f64::max));
        let (x0, x1) = range(bound(-1.0, 0.0).map(|c| -c), bound(1.0, 0.0), hint);
        let (y0, y1) = range(bound(0.0, -1.0).map(|c| -c), bound(0.0, 1.0), hint);
        view = [view[0].min(x0), view[1].max(x1), view[2].min(y0), view[3].max(y1)];
    }
    if !view.iter().all(|v| v.is_finite()) {
        view = [-10.0, 10.0, -10.0, 10.0];
    }
    let [x0, x1, y0, y1] = view;
    let [left, top, right, bottom] = AREA;
    let sx = |v: f64| left + (v - x0) / (x1 - x0) * (right - left);
    let sy = |v: f64| bottom - (v - y0) / (y1 - y0) * (bottom - top);
    let layers = octagons
        .iter()
        .zip(&planes)
        .map(|((name, o), p)| {
            let unconstrained = Vec::new();
            let p = p.as_ref().unwrap_or(&unconstrained);
            let vertices = if o.bottom { Vec::new() } else { polygon(p, view) };
            let points = vertices.iter().map(|v| [sx(v[0]), sy(v[1])]).collect();
            let sides = sides(&vertices, view, &sx, &sy);
            Layer { name: name.clone(), vertices, points, sides, bottom: o.bottom }
        })
        .collect();
    Some(Overlay {
        x: x.to_string(),
        y: y.to_string(),
        size: [WIDTH, HEIGHT],
        area: AREA,
        view,
        x_ticks: ticks(x0, x1, sx),
        y_ticks: ticks(y0, y1, sy),
        layers,
    })
}

/// The sides of a polygon in the view `[x0, x1, y0, y1]`, in SVG
/// coordinates; those on the view's border are open.
fn sides(vertices: &[[f64; 2]], view: [f64; 4], sx: &dyn Fn(f64) -> f64, sy: &dyn Fn(f64) -> f64) -> Vec<Side> {
    let [x0, x1, y0, y1] = view;
    let eq = |a: f64, b: f64| (a - b).abs() < 1e-9;
    let on_border = |p: [f64; 2], q: [f64; 2]| {
        (eq(p[0], x0) && eq(q[0], x0))
            || (eq(p[0], x1) && eq(q[0], x1))
            || (eq(p[1], y0) && eq(q[1], y0))
            || (eq(p[1], y1) && eq(q[1], y1))
    };
    if vertices.len() < 2 {
        return Vec::new();
    }
    (0..vertices.len())
        .map(|k| {
            let (p, q) = (vertices[k], vertices[(k + 1) % vertices.len()]);
            Side { from: [sx(p[0]), sy(p[1])], to: [sx(q[0]), sy(q[1])], open: on_border(p, q) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An octagon view over `vars` with the given constraints
    /// `(a, x, b, y, c)`: `a·x + b·y ≤ c` (b = 0 for a unary bound).
    fn view(vars: &[&str], constraints: &[(i64, &str, i64, &str, i64)]) -> OctagonView {
        let labels: Vec<String> = vars.iter().flat_map(|v| [format!("+{v}"), format!("-{v}")]).collect();
        let n = labels.len();
        let mut cells = vec![vec![None; n]; n];
        for (i, row) in cells.iter_mut().enumerate() {
            row[i] = Some(0);
        }
        let idx = |sign: i64, v: &str| {
            let k = vars.iter().position(|x| x == &v).unwrap();
            if sign > 0 {
                2 * k
            } else {
                2 * k + 1
            }
        };
        for &(a, x, b, y, c) in constraints {
            if b == 0 {
                // a·x ≤ c  ⇔  (a·x) − (−a·x) ≤ 2c.
                cells[idx(-a, x)][idx(a, x)] = Some(2 * c);
            } else {
                // a·x + b·y ≤ c  ⇔  (a·x) − (−b·y) ≤ c, and its coherent twin.
                cells[idx(-b, y)][idx(a, x)] = Some(c);
                cells[idx(-a, x)][idx(b, y)] = Some(c);
            }
        }
        OctagonView { constraints: vec![], bounds: vec![], labels, cells, bottom: false }
    }

    fn round(v: &[[f64; 2]]) -> Vec<(i64, i64)> {
        v.iter().map(|p| (p[0].round() as i64, p[1].round() as i64)).collect()
    }

    #[test]
    fn a_box_cut_by_x_le_y_is_a_triangle() {
        let o = view(
            &["x", "y"],
            &[(1, "x", 0, "", 10), (-1, "x", 0, "", 0), (1, "y", 0, "", 10), (-1, "y", 0, "", 0), (1, "x", -1, "y", 0)],
        );
        let hp = half_planes(&o, "x", "y").unwrap();
        assert_eq!(hp.len(), 5, "{hp:?}");
        let p = plot(&o, "x", "y").unwrap();
        assert_eq!(round(&p.vertices), [(0, 0), (10, 10), (0, 10)]);
        assert!(p.sides.iter().all(|s| !s.open), "every side is a constraint");
        assert_eq!(p.box_text, "x ∈ [0, 10], y ∈ [0, 10]");
        // The box is inside the plotting area, padded.
        let [l, t, r, b] = p.interval_box.unwrap();
        assert!(l > p.area[0] && t > p.area[1] && r < p.area[2] && b < p.area[3]);
        assert_eq!(p.points.len(), 3);
        assert!(!points_attr(&p.points).is_empty());
    }

    #[test]
    fn the_axes_can_be_swapped() {
        let o = view(
            &["x", "y"],
            &[(1, "x", 0, "", 10), (-1, "x", 0, "", 0), (1, "y", 0, "", 10), (-1, "y", 0, "", 0), (1, "x", -1, "y", 0)],
        );
        let p = plot(&o, "y", "x").unwrap();
        // y on the horizontal axis: the triangle y ≥ x.
        assert_eq!(round(&p.vertices), [(0, 0), (10, 0), (10, 10)]);
    }

    #[test]
    fn all_eight_constraints_make_an_octagon() {
        let o = view(
            &["x", "y"],
            &[
                (1, "x", 0, "", 3),
                (-1, "x", 0, "", 3),
                (1, "y", 0, "", 3),
                (-1, "y", 0, "", 3),
                (1, "x", 1, "y", 4),
                (-1, "x", -1, "y", 4),
                (1, "x", -1, "y", 4),
                (-1, "x", 1, "y", 4),
            ],
        );
        let p = plot(&o, "x", "y").unwrap();
        assert_eq!(round(&p.vertices), [(-1, -3), (1, -3), (3, -1), (3, 1), (1, 3), (-1, 3), (-3, 1), (-3, -1)]);
    }

    #[test]
    fn bottom_draws_nothing() {
        let mut o = view(&["x", "y"], &[]);
        o.bottom = true;
        let p = plot(&o, "x", "y").unwrap();
        assert!(p.vertices.is_empty() && p.points.is_empty() && p.sides.is_empty());
        assert!(p.interval_box.is_none());
        assert!(p.bottom);
        // Contradictory constraints (an unclosed view): also no polygon.
        let o = view(&["x", "y"], &[(1, "x", 0, "", 0), (-1, "x", 0, "", -5)]);
        assert!(plot(&o, "x", "y").unwrap().vertices.is_empty());
    }

    #[test]
    fn unbounded_sides_are_open_toward_the_edge() {
        // x ≥ 0, y ≥ 0, y ≤ x: a wedge opening to the right.
        let o = view(&["x", "y"], &[(-1, "x", 0, "", 0), (-1, "y", 0, "", 0), (-1, "x", 1, "y", 0)]);
        let p = plot(&o, "x", "y").unwrap();
        let [x0, x1, y0, y1] = p.view;
        assert!(x0 < 0.0 && x1 >= 10.0 && y0 < 0.0 && y1 >= 10.0, "{:?}", p.view);
        // (0,0), then along y = 0 to the right border, up it, back along y = x.
        assert_eq!(p.vertices[0], [0.0, 0.0]);
        assert_eq!(p.vertices.len(), 3, "{:?}", p.vertices);
        let open: Vec<bool> = p.sides.iter().map(|s| s.open).collect();
        assert_eq!(open, [false, true, false], "only the side on the right border is open");
        assert_eq!(p.box_text, "x ∈ [0, +∞), y ∈ [0, +∞)");
        let [_, top, right, _] = p.interval_box.unwrap();
        assert_eq!((top, right), (p.area[1], p.area[2]), "the box reaches the border where unbounded");
        assert_eq!(p.box_bounded, [true, false, false, true], "only the left and bottom sides are bounds");
    }

    #[test]
    fn nothing_known_fills_the_view_and_every_side_is_open() {
        let o = view(&["x", "y"], &[(1, "x", -1, "y", 2)]);
        let p = plot(&o, "x", "y").unwrap();
        assert!(p.sides.iter().any(|s| s.open));
        assert!(p.sides.iter().any(|s| !s.open), "x − y ≤ 2 is a real side");
        assert_eq!(p.box_text, "x ∈ (−∞, +∞), y ∈ (−∞, +∞)");
    }

    #[test]
    fn unknown_or_equal_variables_give_no_plot_and_ticks_are_nice() {
        let o = view(&["x", "y"], &[]);
        assert!(plot(&o, "x", "z").is_none());
        assert!(plot(&o, "x", "x").is_none());
        assert_eq!(tick_step(13.0), 5.0);
        assert_eq!(tick_step(3.0), 1.0);
        assert_eq!(tick_step(230.0), 50.0);
        let p = plot(&view(&["x", "y"], &[(1, "x", 0, "", 10), (-1, "x", 0, "", 0)]), "x", "y").unwrap();
        let labels: Vec<&str> = p.x_ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["0", "5", "10"]);
        assert_eq!([tick_label(-2e9), tick_label(1.5e9), tick_label(99_999.0)], ["-2e9", "1.5e9", "99999"]);
        assert!(p.x_ticks.windows(2).all(|w| w[0].at < w[1].at));
        assert!(p.y_ticks.windows(2).all(|w| w[0].at > w[1].at), "y grows upward");
    }

    #[test]
    fn a_line_is_a_degenerate_polygon() {
        // x == y, 0 ≤ x ≤ 4.
        let o = view(
            &["x", "y"],
            &[
                (1, "x", -1, "y", 0),
                (-1, "x", 1, "y", 0),
                (1, "x", 0, "", 4),
                (-1, "x", 0, "", 0),
                (1, "y", 0, "", 4),
                (-1, "y", 0, "", 0),
            ],
        );
        let p = plot(&o, "x", "y").unwrap();
        assert_eq!(round(&p.vertices), [(0, 0), (4, 4)]);
    }

    #[test]
    fn an_overlay_draws_every_octagon_in_one_view() {
        // A merge: [0,1]×[0,1] ⊔ [2,3]×[2,3] = the box [0,3]×[0,3] cut by x == y ± 1.
        let unit = |lo: i64, hi: i64| {
            view(&["x", "y"], &[(1, "x", 0, "", hi), (-1, "x", 0, "", -lo), (1, "y", 0, "", hi), (-1, "y", 0, "", -lo)])
        };
        let (a, b) = (unit(0, 1), unit(2, 3));
        let joined = view(
            &["x", "y"],
            &[
                (1, "x", 0, "", 3),
                (-1, "x", 0, "", 0),
                (1, "y", 0, "", 3),
                (-1, "y", 0, "", 0),
                (1, "x", -1, "y", 1),
                (-1, "x", 1, "y", 1),
            ],
        );
        let layers = [("new".to_string(), &a), ("reached".to_string(), &b), ("result".to_string(), &joined)];
        let o = overlay(&layers, "x", "y").unwrap();
        assert_eq!(o.layers.len(), 3);
        assert_eq!(round(&o.layers[0].vertices), [(0, 0), (1, 0), (1, 1), (0, 1)]);
        assert_eq!(round(&o.layers[1].vertices), [(2, 2), (3, 2), (3, 3), (2, 3)]);
        assert_eq!(o.layers[2].vertices.len(), 6, "{:?}", o.layers[2].vertices);
        // One view holds them all: every vertex inside the plotting area,
        // and every side a real bound (nothing reaches the view's border).
        let [l, t, r, b] = o.area;
        for layer in &o.layers {
            assert!(layer.points.iter().all(|p| p[0] > l && p[0] < r && p[1] > t && p[1] < b), "{layer:?}");
            assert!(layer.sides.iter().all(|s| !s.open), "{layer:?}");
        }
        // The same vertex maps to the same point in every layer.
        assert_eq!(o.layers[0].points[0], o.layers[2].points[0]);
        // An octagon that does not constrain y is unbounded along it.
        let only_x = view(&["x"], &[(1, "x", 0, "", 5), (-1, "x", 0, "", 0)]);
        let o = overlay(&[("x only".to_string(), &only_x), ("box".to_string(), &a)], "x", "y").unwrap();
        assert!(o.layers[0].sides.iter().any(|s| s.open) && o.layers[0].vertices.len() == 4);
        assert!(overlay(&[("x only".to_string(), &only_x)], "z", "w").is_none());
        assert!(overlay(&layers, "x", "x").is_none());
    }
}
