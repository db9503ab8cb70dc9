//! Pan and zoom of a graph view (the CFA or the ARG drawn in an SVG
//! viewport), as plain data: the [`ViewTransform`] of the drawing, the
//! [`PanZoom`] state of one viewport (its transform and the drag in
//! progress) and the [`Action`]s the viewport's input turns into, applied by
//! the pure [`PanZoom::reduce`]. `crate::ui::graphs::Viewport` feeds it
//! pointer, wheel and button events and writes the transform to the SVG.

use crate::model::graphs::layout::Point;

/// A pan/zoom transform of a drawing in a viewport: screen = drawing × `k`
/// + (`x`, `y`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewTransform {
    /// Horizontal shift in screen pixels.
    pub x: f64,
    /// Vertical shift in screen pixels.
    pub y: f64,
    /// Scale.
    pub k: f64,
}

impl Default for ViewTransform {
    fn default() -> Self {
        ViewTransform { x: 0.0, y: 0.0, k: 1.0 }
    }
}

/// The part of a drawing to show, in drawing coordinates: the whole
/// drawing, or only what is drawn of it so far (the ARG's states created by
/// the shown position, in a layout of the whole run).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Left.
    pub x0: f64,
    /// Top.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Bottom.
    pub y1: f64,
}

impl Bounds {
    /// A whole `w`×`h` drawing.
    pub fn of_size(w: f64, h: f64) -> Bounds {
        Bounds { x0: 0.0, y0: 0.0, x1: w, y1: h }
    }

    /// Width.
    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }

    /// Height.
    pub fn height(&self) -> f64 {
        self.y1 - self.y0
    }
}

impl ViewTransform {
    /// The transform that shows all of `b` in a `vw`×`vh` viewport, in both
    /// dimensions, centered (never magnified, at least scale 0.02): the Fit
    /// button.
    pub fn fit(b: Bounds, vw: f64, vh: f64) -> ViewTransform {
        let (w, h) = (b.width(), b.height());
        if !(w > 0.0 && h > 0.0 && vw > 0.0 && vh > 0.0) {
            return ViewTransform::default();
        }
        let k = (vw / w).min(vh / h).clamp(0.02, 1.0);
        ViewTransform { x: (vw - w * k) / 2.0 - b.x0 * k, y: (vh - h * k) / 2.0 - b.y0 * k, k }
    }

    /// The first view of a new graph: all of `b` when that keeps it at
    /// least 75% of its size (never magnified; near the top); otherwise as
    /// wide as the viewport (at most 1:1), from its top — a tall graph is
    /// then read by dragging, and Fit shows it whole.
    pub fn first_view(b: Bounds, vw: f64, vh: f64) -> ViewTransform {
        let (w, h) = (b.width(), b.height());
        if !(w > 0.0 && h > 0.0 && vw > 0.0 && vh > 0.0) {
            return ViewTransform::default();
        }
        let whole = (vw / w).min(vh / h).clamp(0.02, 1.0);
        if whole >= 0.75 {
            let y = ((vh - h * whole) / 2.0).clamp(0.0, 8.0);
            return ViewTransform { x: (vw - w * whole) / 2.0 - b.x0 * whole, y: y - b.y0 * whole, k: whole };
        }
        let k = (vw / w).min(1.0).max(whole);
        ViewTransform { x: ((vw - w * k) / 2.0).max(0.0) - b.x0 * k, y: 4.0 - b.y0 * k, k }
    }

    /// Zooms by `factor` (the scale kept within 0.02–6) around the screen
    /// point (`mx`, `my`), which stays where it is.
    pub fn zoom_at(self, factor: f64, mx: f64, my: f64) -> ViewTransform {
        let k = (self.k * factor).clamp(0.02, 6.0);
        let r = k / self.k;
        ViewTransform { x: mx - (mx - self.x) * r, y: my - (my - self.y) * r, k }
    }

    /// The transform that brings drawing point `p` into a `vw`×`vh`
    /// viewport — centered along each axis on which it was outside — or
    /// `None` when it is already well inside.
    pub fn keep_in_view(self, p: Point, vw: f64, vh: f64) -> Option<ViewTransform> {
        if !(vw > 0.0 && vh > 0.0) {
            return None;
        }
        let (sx, sy) = (p.x * self.k + self.x, p.y * self.k + self.y);
        let margin = 60.0_f64.min(vw / 4.0).min(vh / 4.0);
        let out_x = sx < margin || sx > vw - margin;
        let out_y = sy < margin || sy > vh - margin;
        if !out_x && !out_y {
            return None;
        }
        Some(ViewTransform {
            x: if out_x { vw / 2.0 - p.x * self.k } else { self.x },
            y: if out_y { vh / 2.0 - p.y * self.k } else { self.y },
            k: self.k,
        })
    }
}

/// A pointer that moves less than this far (in screen pixels) from where
/// it was pressed is a click, not a drag.
const DRAG_THRESHOLD: f64 = 4.0;

/// A drag of the background in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    /// The pointer that drags (captured once the drag starts moving).
    pub pointer: i32,
    /// Where the pointer was pressed (screen pixels).
    pub start: (f64, f64),
    /// The transform when it was pressed.
    pub from: ViewTransform,
    /// Whether it moved past the threshold (then it pans, and the click
    /// that ends it selects nothing).
    pub moved: bool,
}

/// The pan/zoom state of one graph viewport.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PanZoom {
    /// How the drawing is shown.
    pub view: ViewTransform,
    /// The drag in progress, if the primary button is down.
    pub drag: Option<Drag>,
    /// A drag just ended: the click that follows is not a selection.
    pub swallow_click: bool,
}

/// What the viewport's input asks of the pan/zoom state. Sizes are screen
/// pixels: `viewport` is the SVG's client size, `drawing` the graph's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// The first view of a new graph ([`ViewTransform::first_view`]).
    Show {
        /// What is drawn.
        drawing: Bounds,
        /// The viewport's width and height.
        viewport: (f64, f64),
    },
    /// The Fit button: show all that is drawn, in both dimensions
    /// ([`ViewTransform::fit`]).
    Fit {
        /// What is drawn.
        drawing: Bounds,
        /// The viewport's width and height.
        viewport: (f64, f64),
    },
    /// Bring a drawing point (the current or selected node or state) into
    /// view if it is outside ([`ViewTransform::keep_in_view`]).
    KeepInView {
        /// The point of the drawing.
        point: Point,
        /// The viewport's width and height.
        viewport: (f64, f64),
    },
    /// Zoom by `factor` around a screen point: the + and − buttons zoom
    /// around the viewport's center, a wheel turn by [`wheel_factor`]
    /// around the pointer.
    ZoomAt {
        /// Scale factor (> 1 zooms in).
        factor: f64,
        /// The screen point that stays put.
        at: (f64, f64),
    },
    /// The primary button went down at a screen point: a drag may start.
    Press {
        /// The pointer's id.
        pointer: i32,
        /// Where (client coordinates).
        at: (f64, f64),
    },
    /// The pointer moved to a screen point: pans once past the threshold.
    Move {
        /// Where (client coordinates).
        at: (f64, f64),
    },
    /// The button went up (or the pointer was cancelled): the drag ends.
    Release,
    /// A click reached the viewport (it is swallowed after a drag).
    Click,
}

/// The zoom factor of a wheel turn: exponential in the delta, at most
/// doubling or halving per event.
pub fn wheel_factor(delta_y: f64) -> f64 {
    (-delta_y * 0.0015).exp().clamp(0.5, 2.0)
}

impl PanZoom {
    /// The state after `action`.
    pub fn reduce(&self, action: Action) -> PanZoom {
        let mut next = *self;
        match action {
            Action::Show { drawing, viewport: (vw, vh) } => next.view = ViewTransform::first_view(drawing, vw, vh),
            Action::Fit { drawing, viewport: (vw, vh) } => next.view = ViewTransform::fit(drawing, vw, vh),
            Action::KeepInView { point, viewport: (vw, vh) } => {
                if let Some(v) = self.view.keep_in_view(point, vw, vh) {
                    next.view = v;
                }
            }
            Action::ZoomAt { factor, at: (x, y) } => next.view = self.view.zoom_at(factor, x, y),
            Action::Press { pointer, at } => {
                next.drag = Some(Drag { pointer, start: at, from: self.view, moved: false });
                next.swallow_click = false;
            }
            Action::Move { at } => next = self.dragged_to(at),
            Action::Release => {
                if let Some(d) = self.drag {
                    next.drag = None;
                    next.swallow_click = d.moved;
                }
            }
            Action::Click => next.swallow_click = false,
        }
        next
    }

    /// A move of the pointer to `at`: pans by how far it is from where the
    /// drag started, once that is past the threshold.
    fn dragged_to(&self, at: (f64, f64)) -> PanZoom {
        let Some(d) = self.drag else { return *self };
        let (dx, dy) = (at.0 - d.start.0, at.1 - d.start.1);
        if !d.moved && dx * dx + dy * dy < DRAG_THRESHOLD * DRAG_THRESHOLD {
            return *self;
        }
        PanZoom {
            view: ViewTransform { x: d.from.x + dx, y: d.from.y + dy, k: d.from.k },
            drag: Some(Drag { moved: true, ..d }),
            swallow_click: self.swallow_click,
        }
    }

    /// The pointer to capture when going from `self` to `next` turned a
    /// press into a drag (captured only then, so plain clicks reach the
    /// nodes).
    pub fn drag_started(&self, next: &PanZoom) -> Option<i32> {
        match (self.drag, next.drag) {
            (Some(before), Some(after)) if !before.moved && after.moved => Some(after.pointer),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_zooming_and_keeping_a_point_in_view() {
        let size = Bounds::of_size;
        // Small drawings are centered, never magnified.
        assert_eq!(ViewTransform::first_view(size(100.0, 50.0), 400.0, 300.0), ViewTransform { x: 150.0, y: 8.0, k: 1.0 });
        // A drawing that fits at ≥ 75% is shown whole.
        let v = ViewTransform::first_view(size(500.0, 300.0), 400.0, 300.0);
        assert_eq!(v.k, 0.8);
        // A tall one is first shown as wide as the viewport, from the top.
        let v = ViewTransform::first_view(size(300.0, 3000.0), 400.0, 300.0);
        assert_eq!((v.k, v.y), (1.0, 4.0));
        assert_eq!(ViewTransform::first_view(size(0.0, 10.0), 400.0, 300.0), ViewTransform::default());
        assert_eq!(ViewTransform::fit(size(0.0, 10.0), 400.0, 300.0), ViewTransform::default());
        // Zooming keeps the point under the pointer.
        let z = ViewTransform::default().zoom_at(2.0, 100.0, 50.0);
        assert_eq!((z.x, z.y, z.k), (-100.0, -50.0, 2.0));
        // A point outside is centered; one inside stays.
        let t = ViewTransform::default();
        assert_eq!(t.keep_in_view(Point { x: 200.0, y: 150.0 }, 400.0, 300.0), None);
        let moved = t.keep_in_view(Point { x: 120.0, y: 900.0 }, 400.0, 300.0).unwrap();
        assert_eq!((moved.x, moved.y), (0.0, -750.0), "only the axis it was out on moves");
        let moved = t.keep_in_view(Point { x: 900.0, y: 900.0 }, 400.0, 300.0).unwrap();
        assert_eq!((moved.x, moved.y), (-700.0, -750.0));
    }

    fn pressed_at(view: ViewTransform, at: (f64, f64)) -> PanZoom {
        PanZoom { view, ..PanZoom::default() }.reduce(Action::Press { pointer: 7, at })
    }

    #[test]
    fn a_drag_pans_once_past_the_threshold_and_swallows_its_click() {
        let start = ViewTransform { x: 10.0, y: 20.0, k: 2.0 };
        let pressed = pressed_at(start, (100.0, 100.0));
        assert_eq!(pressed.drag.map(|d| (d.pointer, d.from, d.moved)), Some((7, start, false)));
        // Under 4 px: still a click, nothing moves, nothing is captured.
        let nudged = pressed.reduce(Action::Move { at: (102.0, 103.0) });
        assert_eq!(nudged, pressed);
        assert_eq!(pressed.drag_started(&nudged), None);
        // Past it: the drawing follows the pointer, at the same scale.
        let moved = nudged.reduce(Action::Move { at: (130.0, 90.0) });
        assert_eq!(moved.view, ViewTransform { x: 40.0, y: 10.0, k: 2.0 });
        assert_eq!(nudged.drag_started(&moved), Some(7));
        // Once moving, small moves pan too, and nothing is captured again.
        let back = moved.reduce(Action::Move { at: (101.0, 100.0) });
        assert_eq!(back.view, ViewTransform { x: 11.0, y: 20.0, k: 2.0 });
        assert_eq!(moved.drag_started(&back), None);
        // The click that ends a drag selects nothing; the next one does.
        let released = back.reduce(Action::Release);
        assert!(released.drag.is_none() && released.swallow_click);
        assert_eq!(released.view, back.view);
        let clicked = released.reduce(Action::Click);
        assert!(!clicked.swallow_click);
        // A press that never moved is a plain click.
        let plain = pressed.reduce(Action::Release);
        assert!(plain.drag.is_none() && !plain.swallow_click);
        // Moves and releases without a press change nothing.
        let idle = PanZoom::default();
        assert_eq!(idle.reduce(Action::Move { at: (500.0, 500.0) }), idle);
        assert_eq!(idle.reduce(Action::Release), idle);
        // A new press forgets a pending swallow.
        assert!(!released.reduce(Action::Press { pointer: 1, at: (0.0, 0.0) }).swallow_click);
    }

    #[test]
    fn zooming_keeps_the_point_under_the_pointer_and_stays_in_range() {
        let s = PanZoom::default();
        let z = s.reduce(Action::ZoomAt { factor: 2.0, at: (100.0, 50.0) });
        assert_eq!(z.view, ViewTransform { x: -100.0, y: -50.0, k: 2.0 });
        // The wheel: down zooms out, up zooms in, at most ×2 / ÷2 per event.
        assert!(wheel_factor(100.0) < 1.0 && wheel_factor(-100.0) > 1.0);
        assert_eq!((wheel_factor(10_000.0), wheel_factor(-10_000.0)), (0.5, 2.0));
        let w = s.reduce(Action::ZoomAt { factor: wheel_factor(-10_000.0), at: (100.0, 50.0) });
        assert_eq!(w.view, z.view);
        // The scale stays within 0.02–6 however far one zooms.
        let mut far = s;
        for _ in 0..20 {
            far = far.reduce(Action::ZoomAt { factor: 2.0, at: (0.0, 0.0) });
        }
        assert_eq!(far.view.k, 6.0);
        for _ in 0..40 {
            far = far.reduce(Action::ZoomAt { factor: wheel_factor(10_000.0), at: (0.0, 0.0) });
        }
        assert_eq!(far.view.k, 0.02);
    }

    #[test]
    fn fit_and_keep_in_view_set_the_transform() {
        let s = PanZoom { view: ViewTransform { x: 5.0, y: 5.0, k: 3.0 }, ..PanZoom::default() };
        let fitted = s.reduce(Action::Show { drawing: Bounds::of_size(100.0, 50.0), viewport: (400.0, 300.0) });
        assert_eq!(fitted.view, ViewTransform { x: 150.0, y: 8.0, k: 1.0 });
        let inside = fitted.reduce(Action::KeepInView { point: Point { x: 100.0, y: 100.0 }, viewport: (400.0, 300.0) });
        assert_eq!(inside, fitted, "a point well inside does not move the view");
        let outside = fitted.reduce(Action::KeepInView { point: Point { x: 50.0, y: 900.0 }, viewport: (400.0, 300.0) });
        assert_eq!(outside.view, ViewTransform { x: 150.0, y: -750.0, k: 1.0 });
    }

    /// Where the corners of `b` land on screen under `v`.
    fn on_screen(v: ViewTransform, b: Bounds) -> (f64, f64, f64, f64) {
        (b.x0 * v.k + v.x, b.y0 * v.k + v.y, b.x1 * v.k + v.x, b.y1 * v.k + v.y)
    }

    #[test]
    fn fit_shows_all_that_is_drawn_in_both_dimensions() {
        let inside = |v: ViewTransform, b: Bounds, vw: f64, vh: f64| {
            let (l, t, r, bottom) = on_screen(v, b);
            l >= -1e-9 && t >= -1e-9 && r <= vw + 1e-9 && bottom <= vh + 1e-9
        };
        // A tall drawing: the first view shows its top at 1:1, Fit all of it.
        let tall = Bounds::of_size(300.0, 3000.0);
        assert!(!inside(ViewTransform::first_view(tall, 400.0, 300.0), tall, 400.0, 300.0));
        let v = ViewTransform::fit(tall, 400.0, 300.0);
        assert!(inside(v, tall, 400.0, 300.0), "{v:?}");
        assert_eq!(v.k, 0.1);
        // A wide one, and one just a little too tall (the CFA of the example).
        for b in [Bounds::of_size(4000.0, 200.0), Bounds::of_size(390.0, 520.0)] {
            let v = ViewTransform::fit(b, 400.0, 300.0);
            assert!(inside(v, b, 400.0, 300.0), "{b:?} {v:?}");
            let (l, t, r, bottom) = on_screen(v, b);
            assert!((l - (400.0 - r)).abs() < 1e-9 && (t - (300.0 - bottom)).abs() < 1e-9, "centered");
        }
        // Part of a larger drawing (the ARG's states so far): that part is
        // fitted, at its own scale, not at the whole drawing's.
        let part = Bounds { x0: 900.0, y0: 40.0, x1: 1100.0, y1: 240.0 };
        let v = ViewTransform::fit(part, 400.0, 300.0);
        assert_eq!(v.k, 1.0);
        assert!(inside(v, part, 400.0, 300.0), "{v:?}");
        assert_eq!(ViewTransform::first_view(part, 400.0, 300.0).k, 1.0);
        assert!(inside(ViewTransform::first_view(part, 400.0, 300.0), part, 400.0, 300.0));
        // Never magnified; through the reducer, from any earlier view.
        let s = PanZoom { view: ViewTransform { x: -500.0, y: 70.0, k: 4.0 }, ..PanZoom::default() };
        let small = Bounds::of_size(100.0, 50.0);
        let fitted = s.reduce(Action::Fit { drawing: small, viewport: (400.0, 300.0) });
        assert_eq!(fitted.view, ViewTransform { x: 150.0, y: 125.0, k: 1.0 });
    }
}
