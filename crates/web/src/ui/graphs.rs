//! The graph views (Yew): the CFA as a laid-out graph and the ARG, drawn as
//! SVG, with pan (drag), zoom (wheel), fit-to-view, folding of
//! straight-line chains, and linked selection.
//!
//! What is drawn and where is computed natively-tested in
//! [`crate::model::graphs::cfa`] (graph + [`CfaGraph::overlay`]), [`crate::model::graphs::arg`]
//! and [`crate::model::graphs::layout`]; the run's position arrives as a [`RunFrame`]
//! from the analysis pane; the selection is the page's
//! [`crate::ui::selection::SelectionContext`]; pan and zoom are
//! [`crate::model::graphs::viewport`]'s state and reducer. A CEGAR run's latest interpolants
//! come with the frame's fold and are drawn beside their nodes
//! ([`CfaGraph::interpolant_labels`]). Labels are SVG text nodes, never
//! markup.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use cfa::Program;
use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::model::graphs::arg::{window_start, ArgGraph, ArgStubNode};
use crate::model::graphs::cfa::{
    predicate_caption, CfaGraph, EdgePlace, GraphEdge, GraphNode, InterpolantLabel, Overlay, CHAR_W, LINE_H,
};
use crate::model::graphs::frame::FrameSlot;
use crate::model::graphs::layout::Point;
use crate::model::graphs::viewport::{wheel_factor, Action, Bounds, PanZoom, ViewTransform};
use crate::model::memory_view::{edge_region, edge_region_text, memory_model};
use crate::model::page::Marker;
use crate::model::selection::{Highlight, Selection};
use crate::ui::selection::{use_selection, SelectionContext};

/// The frame type lives in the model; the analysis pane names it here.
pub use crate::model::graphs::frame::RunFrame;

/// The latest [`RunFrame`], shared between the analysis pane (which sets
/// it) and the graph views (which subscribe and redraw), without
/// re-rendering the rest of the page: a Yew reducer would re-render the
/// page that owns it on every step, so this is a shared handle to a
/// [`FrameSlot`] (whose logic is tested natively).
#[derive(Clone, Default)]
pub struct FrameStore(Rc<RefCell<FrameSlot<Callback<()>>>>);

/// Two stores are equal when they are the same store (Yew compares props).
impl PartialEq for FrameStore {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl FrameStore {
    /// Replaces the frame and tells the subscribers (when it changed).
    pub fn set(&self, frame: Option<Rc<RunFrame>>) {
        // The borrow ends before the listeners run (they read the frame).
        let listeners = self.0.borrow_mut().set(frame);
        for l in listeners {
            l.emit(());
        }
    }

    /// The current frame.
    pub fn get(&self) -> Option<Rc<RunFrame>> {
        self.0.borrow().frame()
    }

    /// Calls `listener` after every change; returns the id to unsubscribe with.
    pub fn subscribe(&self, listener: Callback<()>) -> u64 {
        self.0.borrow_mut().subscribe(listener)
    }

    /// Stops calling the listener `id`.
    pub fn unsubscribe(&self, id: u64) {
        self.0.borrow_mut().unsubscribe(id);
    }
}

/// The current frame of `frames`, re-rendering the calling component
/// whenever the analysis pane publishes a new one (a hook: subscribes on
/// mount, unsubscribes on unmount).
#[hook]
pub fn use_frame(frames: &FrameStore) -> Option<Rc<RunFrame>> {
    let redraw = use_force_update();
    {
        let store = frames.clone();
        use_effect_with(frames.clone(), move |_| {
            let id = store.subscribe(Callback::from(move |_| redraw.force_update()));
            move || store.unsubscribe(id)
        });
    }
    frames.get()
}

/// The SVG `transform` attribute of a pan/zoom: `translate(x y) scale(k)`.
fn transform_attr(v: &ViewTransform) -> String {
    format!("translate({:.1} {:.1}) scale({:.4})", v.x, v.y, v.k)
}

/// One viewport's pan/zoom state and the DOM it acts on. The state changes
/// only through [`PanZoom::reduce`] (in [`Pan::dispatch`]); it is kept out
/// of Yew's state on purpose: a drag or a wheel turn writes the transform
/// straight to the SVG group instead of re-rendering the whole graph, and
/// the DOM listeners (wheel, capturing click) read it when their events
/// arrive, which a render-time snapshot could not give them.
#[derive(Clone)]
struct Pan {
    state: Rc<RefCell<PanZoom>>,
    /// The `<svg>` (its client size is the viewport's size).
    svg: NodeRef,
    /// The `<g>` the transform is set on.
    g: NodeRef,
    /// The `<div>` around the `<svg>`: the page's layout gives it its size,
    /// and the `<svg>` is set to that size in pixels (see
    /// [`use_observed_size`]).
    frame: NodeRef,
    /// The viewport's size as last measured (0×0: not yet): kept up to
    /// date by a `ResizeObserver` ([`use_observed_size`]), so following the
    /// current state at every step reads it without forcing the browser to
    /// lay out the page in the middle of a render.
    size: Rc<RefCell<(f64, f64)>>,
}

impl Pan {
    /// Applies `action`; writes the transform to the SVG when the view
    /// changed, and captures the pointer when a drag starts moving. Returns
    /// the state before the action.
    fn dispatch(&self, action: Action) -> PanZoom {
        let before = *self.state.borrow();
        let after = before.reduce(action);
        *self.state.borrow_mut() = after;
        if let Some(pointer) = before.drag_started(&after) {
            if let Some(el) = self.svg.cast::<web_sys::Element>() {
                let _ = el.set_pointer_capture(pointer);
            }
        }
        if after.view != before.view {
            if let Some(el) = self.g.cast::<web_sys::Element>() {
                let _ = el.set_attribute("transform", &transform_attr(&after.view));
            }
        }
        before
    }

    /// The viewport's size in screen pixels (0×0 before it is in the DOM):
    /// the observed size, measured only when none is known yet.
    fn viewport_size(&self) -> (f64, f64) {
        let known = *self.size.borrow();
        if known.0 > 0.0 && known.1 > 0.0 {
            return known;
        }
        self.measure()
    }

    /// Reads the viewport's size from the DOM and remembers it.
    fn measure(&self) -> (f64, f64) {
        let size = self
            .frame
            .cast::<web_sys::Element>()
            .map(|e| (e.client_width() as f64, e.client_height() as f64))
            .unwrap_or((0.0, 0.0));
        *self.size.borrow_mut() = size;
        size
    }

    /// Gives the `<svg>` the viewport's size in pixels. The browser lays
    /// the page's panes out in passes, and an `<svg>` sized in percent
    /// passes through other sizes on the way, each time laying out every
    /// text of the graph again (with the ARG's ≈ 300 states, most of a
    /// step's time); one sized in pixels keeps its size and its layout.
    fn pin_svg_size(&self, (width, height): (f64, f64)) {
        if let Some(el) = self.svg.cast::<web_sys::Element>() {
            let _ = el.set_attribute("style", &format!("width: {width}px; height: {height}px"));
        }
    }

    /// Fits what is drawn into the viewport, in both dimensions (Fit).
    fn fit(&self, drawing: Bounds) {
        self.dispatch(Action::Fit { drawing, viewport: self.viewport_size() });
    }
}

/// The viewport's pan/zoom handle, made once per viewport.
#[hook]
fn use_pan() -> Pan {
    // A non-rendering handle (see [`Pan`]): `use_mut_ref` keeps the same
    // cell across renders without re-rendering when it changes.
    let state = use_mut_ref(PanZoom::default);
    let (svg, g, frame) = (use_node_ref(), use_node_ref(), use_node_ref());
    let size = use_mut_ref(|| (0.0, 0.0));
    Pan { state, svg, g, frame, size }
}

/// Keeps [`Pan::size`] current and the `<svg>` at that size: a
/// `ResizeObserver` on the viewport's `<div>` re-measures it whenever the
/// browser lays it out at another size (window resized, a pane opened or
/// closed), when reading the size costs nothing, and pins the `<svg>` to it
/// ([`Pan::pin_svg_size`]).
#[hook]
fn use_observed_size(pan: &Pan) {
    let pan = pan.clone();
    use_effect_with((), move |_| {
        let on_resize = {
            let pan = pan.clone();
            Closure::<dyn FnMut()>::new(move || {
                let size = pan.measure();
                pan.pin_svg_size(size);
            })
        };
        let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
        if let (Some(observer), Some(el)) = (&observer, pan.frame.cast::<web_sys::Element>()) {
            observer.observe(&el);
        }
        move || {
            if let Some(observer) = observer {
                observer.disconnect();
            }
            drop(on_resize);
        }
    });
}

/// Shows the drawing's first view whenever `fit_key` changes (a new graph),
/// once it is in the DOM.
#[hook]
fn use_fit_on_new_graph(pan: &Pan, fit_key: String, drawing: Bounds) {
    let pan = pan.clone();
    use_effect_with(fit_key, move |_| {
        pan.dispatch(Action::Show { drawing, viewport: pan.viewport_size() });
    });
}

/// Pans to `point` (a point of the drawing) whenever it changes and lies
/// outside the view.
#[hook]
fn use_keep_in_view(pan: &Pan, point: Option<(i32, i32)>) {
    let pan = pan.clone();
    use_effect_with(point, move |point| {
        if let Some((x, y)) = *point {
            let point = Point { x: x as f64, y: y as f64 };
            pan.dispatch(Action::KeepInView { point, viewport: pan.viewport_size() });
        }
    });
}

/// Wheel zoom around the pointer. It needs a non-passive listener (to keep
/// the page from scrolling), which Yew's `onwheel` is not.
#[hook]
fn use_wheel_zoom(pan: &Pan) {
    let pan = pan.clone();
    use_effect_with((), move |_| {
        let listener = pan.svg.cast::<web_sys::Element>().map(|el| {
            let target = el.clone();
            EventListener::new_with_options(&el, "wheel", EventListenerOptions::enable_prevent_default(), move |e| {
                let Some(e) = e.dyn_ref::<WheelEvent>() else { return };
                e.prevent_default();
                // offset_* are relative to the event target; use the svg's own
                // coordinates when the target is inside it.
                let at = match e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                    Some(t) if t == target => (e.offset_x() as f64, e.offset_y() as f64),
                    _ => (target.client_width() as f64 / 2.0, target.client_height() as f64 / 2.0),
                };
                pan.dispatch(Action::ZoomAt { factor: wheel_factor(e.delta_y()), at });
            })
        });
        move || drop(listener)
    });
}

/// A click that ends a drag does not select anything: a capturing listener,
/// so it runs before the nodes' own handlers.
#[hook]
fn use_swallow_click_after_drag(pan: &Pan) {
    let pan = pan.clone();
    use_effect_with((), move |_| {
        let listener = pan.svg.cast::<web_sys::Element>().map(|el| {
            let options = EventListenerOptions { phase: gloo_events::EventListenerPhase::Capture, passive: false };
            EventListener::new_with_options(&el, "click", options, move |e| {
                if pan.dispatch(Action::Click).swallow_click {
                    e.stop_propagation();
                }
            })
        });
        move || drop(listener)
    });
}

/// The pointer handlers of the svg: press (primary button), move, release
/// (also on cancel) — dragging the background pans.
struct PointerHandlers {
    down: Callback<PointerEvent>,
    moved: Callback<PointerEvent>,
    up: Callback<PointerEvent>,
}

/// The svg's pointer handlers, each dispatching to the pan/zoom reducer.
fn pointer_handlers(pan: &Pan) -> PointerHandlers {
    let client = |e: &PointerEvent| (e.client_x() as f64, e.client_y() as f64);
    let down = {
        let pan = pan.clone();
        Callback::from(move |e: PointerEvent| {
            if e.button() == 0 {
                pan.dispatch(Action::Press { pointer: e.pointer_id(), at: client(&e) });
            }
        })
    };
    let moved = {
        let pan = pan.clone();
        Callback::from(move |e: PointerEvent| {
            pan.dispatch(Action::Move { at: client(&e) });
        })
    };
    let up = {
        let pan = pan.clone();
        Callback::from(move |_: PointerEvent| {
            pan.dispatch(Action::Release);
        })
    };
    PointerHandlers { down, moved, up }
}

/// The zoom buttons: in, out (around the viewport's center), and Fit.
fn zoom_buttons(pan: &Pan, drawing: Bounds) -> Html {
    let zoom = |factor: f64| {
        let pan = pan.clone();
        Callback::from(move |_: MouseEvent| {
            let (vw, vh) = pan.viewport_size();
            pan.dispatch(Action::ZoomAt { factor, at: (vw / 2.0, vh / 2.0) });
        })
    };
    let on_fit = {
        let pan = pan.clone();
        Callback::from(move |_: MouseEvent| pan.fit(drawing))
    };
    html! {
        <div class="graph-zoom">
            <button title="Zoom in" onclick={zoom(1.25)}>{ "+" }</button>
            <button title="Zoom out" onclick={zoom(0.8)}>{ "−" }</button>
            <button data-testid="graph-fit" title="Fit the graph into the view" onclick={on_fit}>{ "Fit" }</button>
        </div>
    }
}

/// The arrow heads the edges end in: plain, and "hot" (current or selected).
fn arrow_markers() -> Html {
    html! {
        <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse">
                <path d="M0 0 L10 5 L0 10 z" class="arrow-head" />
            </marker>
            <marker id="arrow-hot" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse">
                <path d="M0 0 L10 5 L0 10 z" class="arrow-head hot" />
            </marker>
        </defs>
    }
}

/// Properties of [`Viewport`].
#[derive(Properties, PartialEq)]
pub struct ViewportProps {
    /// What is drawn (what Fit shows), in drawing coordinates.
    pub drawing: Bounds,
    /// Fit again whenever this changes (a new graph).
    pub fit_key: String,
    /// `data-testid` of the svg.
    pub testid: AttrValue,
    /// A point of the drawing (the current node or state) to keep in view:
    /// when it changes and lies outside the view, the view pans to it.
    #[prop_or_default]
    pub follow: Option<(i32, i32)>,
    /// Likewise for the selection.
    #[prop_or_default]
    pub reveal: Option<(i32, i32)>,
    /// A line that changes with every step (the ARG's state count), drawn
    /// over the viewport's top left corner: out of the page's flow, so
    /// changing its text does not make the browser lay the drawing out again.
    #[prop_or_default]
    pub status: Html,
    /// The drawing.
    pub children: Html,
}

/// An SVG viewport of a graph (CFA or ARG) with pan (drag the background),
/// zoom (wheel, around the pointer; + and − buttons) and a Fit button.
#[function_component(Viewport)]
pub fn viewport(props: &ViewportProps) -> Html {
    let pan = use_pan();
    use_observed_size(&pan);
    use_fit_on_new_graph(&pan, props.fit_key.clone(), props.drawing);
    // Keep the current and the selected item in view.
    use_keep_in_view(&pan, props.follow);
    use_keep_in_view(&pan, props.reveal);
    use_wheel_zoom(&pan);
    use_swallow_click_after_drag(&pan);
    let pointer = pointer_handlers(&pan);
    let transform = transform_attr(&pan.state.borrow().view);
    html! {
        <div class="graph-viewport" ref={pan.frame.clone()}>
            if props.status != Html::default() {
                <div class="graph-status">{ props.status.clone() }</div>
            }
            { zoom_buttons(&pan, props.drawing) }
            <svg class="graph-svg" ref={pan.svg.clone()} data-testid={props.testid.clone()}
                onpointerdown={pointer.down} onpointermove={pointer.moved} onpointerup={pointer.up.clone()} onpointercancel={pointer.up}>
                { arrow_markers() }
                <g ref={pan.g.clone()} transform={transform}>
                    { props.children.clone() }
                </g>
            </svg>
        </div>
    }
}

/// Which graph tab is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tab {
    Cfa,
    Arg,
    /// The Transformation view (runs of the explorer only).
    Transformed,
}

/// Properties of [`GraphsPane`].
#[derive(Properties, PartialEq)]
pub struct GraphsPaneProps {
    /// The editor's program text.
    pub source: String,
    /// Where the analysis pane puts the run's shown position.
    pub frames: FrameStore,
}

/// The graph views: a CFA tab and an ARG tab, with the selection's status.
#[function_component(GraphsPane)]
pub fn graphs_pane(props: &GraphsPaneProps) -> Html {
    let tab = use_state(|| Tab::Cfa);
    let linked = use_selection();
    // Redraw when the analysis pane publishes a new frame.
    let current_frame = use_frame(&props.frames);
    let program: Rc<Option<Arc<Program>>> = use_memo(props.source.clone(), |s| cfa::from_source(s).ok().map(Arc::new));
    // A fold choice per program: None = the default for its size.
    let fold_choice = use_state(|| None::<bool>);
    {
        let fold_choice = fold_choice.clone();
        use_effect_with(props.source.clone(), move |_| fold_choice.set(None));
    }
    let Some(program) = (*program).clone() else {
        return html! { <div class="graphs" data-testid="graphs"><p class="hint">{ "Fix the program's errors to see its graph." }</p></div> };
    };
    let fold = fold_choice.unwrap_or_else(|| CfaGraph::fold_by_default(&program));
    let frame = current_frame.as_ref().filter(|f| f.fresh).cloned();
    let snapshot = frame.as_ref().map(|f| f.snapshot.clone());
    let highlight = linked.selection.resolve(&program, snapshot.as_deref());
    // Runs of the explorer of a transformed program add the Transformation view.
    let transform_run = crate::model::transformation::is_transform_run(frame.as_ref().and_then(|f| f.info.as_deref()));
    let tab_shown = if *tab == Tab::Transformed && !transform_run { Tab::Cfa } else { *tab };

    let set_tab = |t: Tab| {
        let tab = tab.clone();
        Callback::from(move |_: MouseEvent| tab.set(t))
    };
    let on_fold = {
        let fold_choice = fold_choice.clone();
        Callback::from(move |_: MouseEvent| fold_choice.set(Some(!fold)))
    };
    let on_clear = {
        let linked = linked.clone();
        Callback::from(move |_: MouseEvent| linked.set(Selection::None))
    };
    let described = linked.selection.describe(&program, snapshot.as_deref());
    // The CFA listing below marks the selected nodes too (it tags its node
    // groups with `data-node`; ids are numbers, nothing from the program text).
    let listing_css: String = highlight
        .nodes
        .iter()
        .map(|n| format!(".listing tbody[data-node=\"{n}\"] .node-row {{ background: var(--loop-bg); box-shadow: inset 3px 0 0 var(--loop); }}\n"))
        .collect();

    html! {
        <div class={classes!("graphs", (tab_shown == Tab::Transformed).then_some("graphs-transformed"))} data-testid="graphs">
            <div class="graph-tabs">
                <div class="graph-tabs-list" role="tablist" aria-label="Graph">
                <button role="tab" data-testid="graph-tab-cfa" class={classes!("tab", (tab_shown == Tab::Cfa).then_some("active"))}
                    aria-selected={(tab_shown == Tab::Cfa).to_string()} tabindex={crate::ui::tabs::roving_tabindex(tab_shown == Tab::Cfa)} onclick={set_tab(Tab::Cfa)}>{ "CFA graph" }</button>
                <button role="tab" data-testid="graph-tab-arg" class={classes!("tab", (tab_shown == Tab::Arg).then_some("active"))}
                    aria-selected={(tab_shown == Tab::Arg).to_string()} tabindex={crate::ui::tabs::roving_tabindex(tab_shown == Tab::Arg)} onclick={set_tab(Tab::Arg)}>{ "ARG" }</button>
                if transform_run {
                    <button role="tab" data-testid="graph-tab-transformed" class={classes!("tab", (tab_shown == Tab::Transformed).then_some("active"))}
                        aria-selected={(tab_shown == Tab::Transformed).to_string()} tabindex={crate::ui::tabs::roving_tabindex(tab_shown == Tab::Transformed)} onclick={set_tab(Tab::Transformed)}
                        title="The transformed program the explorer runs, beside the original">{ "Transformed" }</button>
                }
                </div>
                <span class="graph-tabs-gap"></span>
                if tab_shown == Tab::Cfa {
                    <label class="fold-toggle" title="Fold straight-line chains (nodes with one edge in and one out) into one box">
                        <input type="checkbox" data-testid="graph-fold" checked={fold} onclick={on_fold} />{ " fold chains" }
                    </label>
                }
            </div>
            if !listing_css.is_empty() {
                <style>{ listing_css }</style>
            }
            if !linked.selection.is_none() {
                <p class="selection-bar" data-testid="selection-bar">
                    { "Selected: " }<strong>{ described }</strong>
                    if linked.selection.node().is_some() { <span class="hint">{ " — reached set filtered to it" }</span> }
                    <button class="link" onclick={on_clear} title="Clear the selection">{ "clear" }</button>
                </p>
            }
            { match tab_shown {
                Tab::Transformed => match &frame {
                    Some(f) => html! {
                        <crate::ui::transformation::TransformationView program={program.clone()} source={props.source.clone()} frame={f.clone()}>
                            <ArgView frame={f.clone()} highlight={Rc::new(highlight)} />
                        </crate::ui::transformation::TransformationView>
                    },
                    None => Html::default(),
                },
                Tab::Cfa => html! { <CfaGraphView program={program.clone()} fold={fold} frame={frame.clone()} highlight={Rc::new(highlight)} /> },
                Tab::Arg => match &frame {
                    Some(f) => html! { <ArgView frame={f.clone()} highlight={Rc::new(highlight)} /> },
                    None => html! { <p class="hint graph-empty" data-testid="arg-empty">{ "Press Analyze: the ARG grows as you step through the run." }</p> },
                },
            } }
        </div>
    }
}

/// Properties of [`CfaGraphView`].
#[derive(Properties, PartialEq)]
pub struct CfaGraphViewProps {
    /// The program drawn.
    pub program: Arc<Program>,
    /// Whether chains are folded.
    pub fold: bool,
    /// The run's position (for counts and the current node/edge).
    pub frame: Option<Rc<RunFrame>>,
    /// The resolved selection.
    pub highlight: Rc<Highlight>,
}

/// The CSS class of a node marker in the CFA graph.
fn marker_class(m: Marker) -> &'static str {
    match m {
        Marker::Entry => "entry",
        Marker::Exit => "exit",
        Marker::LoopHead => "loop-head",
        Marker::Error => "error",
        Marker::Terminal => "terminal",
    }
}

/// The CFA drawn as a graph.
#[function_component(CfaGraphView)]
pub fn cfa_graph_view(props: &CfaGraphViewProps) -> Html {
    let linked = use_selection();
    let graph: Rc<CfaGraph> = {
        let program = props.program.clone();
        use_memo((Arc::as_ptr(&props.program) as usize, props.fold), move |&(_, fold)| CfaGraph::build(&program, fold))
    };
    let overlay = match &props.frame {
        Some(f) => {
            let s = &f.snapshot;
            let current_node = s.current_state.and_then(|id| s.state(id)).and_then(|i| i.location);
            graph.overlay(&s.reached, current_node, s.current_edge, &props.highlight)
        }
        None => graph.overlay(&Default::default(), None, None, &props.highlight),
    };
    // The latest refinement's interpolants at the shown position (the
    // fold keeps them; before the first refinement there are none) — for
    // predicate analysis the predicate precision they gave instead, with
    // the predicates of no single node in a caption.
    let predicates = props.frame.as_ref().map(|f| f.snapshot.predicates.as_slice()).unwrap_or_default();
    let interpolants = match &props.frame {
        Some(_) if !predicates.is_empty() => graph.predicate_labels(predicates),
        Some(f) if !f.snapshot.interpolants.is_empty() => graph.interpolant_labels(&props.program, &f.snapshot.interpolants),
        _ => Vec::new(),
    };
    let caption = predicate_caption(predicates);
    let legend = match (predicates.is_empty(), interpolants.is_empty()) {
        (true, false) => Legend::Interpolants,
        (false, _) => Legend::Predicates,
        _ => Legend::Plain,
    };
    // Predicate analysis: a load or store names its memory region on hover.
    let regions = RegionHover {
        program: &props.program,
        model: props.frame.as_ref().filter(|f| f.fresh).and_then(|f| f.info.as_deref()).and_then(memory_model),
    };
    let edges = graph.edges.iter().enumerate().map(|(i, e)| cfa_edge(&graph, &overlay, i, e, &linked, &regions));
    let nodes = graph.nodes.iter().enumerate().map(|(i, n)| cfa_node(&overlay, i, n, &linked, &regions));
    let interpolant_views = interpolants.iter().map(|l| interpolant_view(l, &linked));
    // Labels may reach past the laid-out drawing: Fit shows them too.
    let (draw_w, draw_h) = interpolants
        .iter()
        .fold((graph.width, graph.height), |(w, h), l| (w.max(l.at.x + l.width + 10.0), h.max(l.at.y + l.height + 10.0)));
    let fit_key = format!("cfa {:p} {}", Arc::as_ptr(&props.program), props.fold);
    let at = |i: usize| graph.nodes.get(i).map(|n| (n.center.x as i32, n.center.y as i32));
    let follow = overlay.current_node.and_then(at);
    let reveal = overlay.selected_nodes.iter().next().copied().and_then(at);
    html! {
        <>
            <Viewport drawing={Bounds::of_size(draw_w, draw_h)} fit_key={fit_key} testid="cfa-graph" {follow} {reveal}>
                { for edges }
                { for nodes }
                { for interpolant_views }
            </Viewport>
            { cfa_legend(&graph, legend) }
            if !caption.is_empty() {
                <p class="graph-legend predicate-caption" data-testid="cfa-predicate-caption">
                    { "Predicates of no single location: " }
                    { for caption.iter().enumerate().map(|(i, (p, new))| html! {
                        <>{ if i > 0 { ", " } else { "" } }<span class={classes!("lg", "lg-predicate", new.then_some("new"))}>{ p.clone() }</span></>
                    }) }
                </p>
            }
        </>
    }
}

/// The memory region a load or store edge shows on hover (predicate
/// analysis: `p->f — region struct S.f (BNB)`), and the rows of the
/// regions table it marks meanwhile.
struct RegionHover<'a> {
    program: &'a Program,
    /// The run's `cpa.predicate.memoryRegions`; `None` without a memory model.
    model: Option<cfa::RegionModel>,
}

/// What [`RegionHover::of`] gives one edge: the title's extra line and
/// the hover/focus handlers that mark the region's rows.
struct EdgeRegion {
    text: String,
    region: String,
    enter: Callback<MouseEvent>,
    leave: Callback<MouseEvent>,
    focus: Callback<FocusEvent>,
    blur: Callback<FocusEvent>,
}

impl RegionHover<'_> {
    /// The region of edge `edge`'s lvalue, if it loads or stores memory
    /// and the run models memory.
    fn of(&self, edge: cfa::EdgeId) -> Option<EdgeRegion> {
        let model = self.model?;
        let text = edge_region_text(self.program, edge, model)?;
        let region = edge_region(self.program, edge, model)?;
        let mark = |r: Option<String>| move || crate::platform::region_hover::set_hovered_region(r.as_deref());
        let (on, off) = (mark(Some(region.clone())), mark(None));
        let (on2, off2) = (on.clone(), off.clone());
        Some(EdgeRegion {
            text,
            region,
            enter: Callback::from(move |_: MouseEvent| on()),
            leave: Callback::from(move |_: MouseEvent| off()),
            focus: Callback::from(move |_: FocusEvent| on2()),
            blur: Callback::from(move |_: FocusEvent| off2()),
        })
    }
}

/// One CFA edge (edge `i` of the graph): its path, arrow and label, marked
/// when it is the edge being processed or selected; a load or store names
/// its memory region on hover and focus.
fn cfa_edge(
    graph: &CfaGraph,
    overlay: &Overlay,
    i: usize,
    e: &GraphEdge,
    linked: &SelectionContext,
    regions: &RegionHover,
) -> Html {
    let current = overlay.current_edge == Some(EdgePlace::Edge(i));
    let selected = overlay.selected_edges.contains(&i);
    let class = classes!(
        "cfa-edge",
        format!("kind-{}", e.kind),
        e.back.then_some("back"),
        current.then_some("current"),
        selected.then_some("selected")
    );
    let marker = if current || selected { "url(#arrow-hot)" } else { "url(#arrow)" };
    let key = Selection::Edge(e.edge).to_string();
    let region = regions.of(e.edge);
    let title = format!("{} → {}: {}", graph.nodes[e.from].title, graph.nodes[e.to].title, e.full_label);
    let title = match &region {
        Some(r) => format!("{title}\n{}", r.text),
        None => title,
    };
    html! {
        <g class={class} data-edge={key} tabindex="0" role="button" aria-pressed={selected.to_string()} onclick={select_on_click(linked, Selection::Edge(e.edge))} onkeydown={on_enter(linked, Selection::Edge(e.edge))}
            data-region={region.as_ref().map(|r| r.region.clone())} data-region-text={region.as_ref().map(|r| r.text.clone())}
            onmouseenter={region.as_ref().map(|r| r.enter.clone())} onmouseleave={region.as_ref().map(|r| r.leave.clone())}
            onfocus={region.as_ref().map(|r| r.focus.clone())} onblur={region.as_ref().map(|r| r.blur.clone())}>
            <title>{ title }</title>
            <path class="hit" d={e.path.clone()} />
            <path class="line" d={e.path.clone()} marker-end={marker} />
            if let Some(p) = e.label_at {
                <rect class="label-bg" x={fmt(p.x - 2.0)} y={fmt(p.y)} width={fmt(e.label.chars().count() as f64 * CHAR_W + 4.0)} height={fmt(LINE_H)} rx="2" />
                <text class="edge-label" x={fmt(p.x)} y={fmt(p.y + 11.0)}>{ e.label.clone() }</text>
            }
        </g>
    }
}

/// One CFA node (node `i` of the graph): a circle, or a box listing the
/// operations of a folded chain; its markers and its count of reached
/// states as a badge.
fn cfa_node(overlay: &Overlay, i: usize, n: &GraphNode, linked: &SelectionContext, regions: &RegionHover) -> Html {
    let count = overlay.counts.get(&i).copied().unwrap_or(0);
    let current = overlay.current_node == Some(i);
    let selected = overlay.selected_nodes.contains(&i);
    let mut class = classes!(
        "cfa-node",
        n.is_folded().then_some("folded"),
        current.then_some("current"),
        selected.then_some("selected"),
        (count > 0).then_some("has-states")
    );
    for m in &n.markers {
        class.push(marker_class(*m));
    }
    let (cx, cy) = (n.center.x, n.center.y);
    let node_sel = n.cfa_nodes.first().map(|&id| Selection::Node(id)).unwrap_or_default();
    let shape = if n.is_folded() { folded_chain(overlay, i, n, linked, regions) } else { node_circle(n) };
    let badge_at =
        if n.is_folded() { (cx + n.width / 2.0, cy - n.height / 2.0) } else { (cx + n.width * 0.36, cy - n.height * 0.36) };
    html! {
        <g class={class} data-node={n.key()} data-count={count.to_string()} tabindex="0" role="button" aria-pressed={selected.to_string()}
            onclick={select_on_click(linked, node_sel)} onkeydown={on_enter(linked, node_sel)}>
            <title>{ if count > 0 { format!("{} — {count} reached state{}", n.tooltip(), if count == 1 { "" } else { "s" }) } else { n.tooltip() } }</title>
            { shape }
            if count > 0 {
                <g class="count-badge">
                    <rect x={fmt(badge_at.0 - 4.0)} y={fmt(badge_at.1 - 8.0)} width={fmt(count.to_string().len() as f64 * 6.6 + 8.0)} height="15" rx="7" />
                    <text x={fmt(badge_at.0)} y={fmt(badge_at.1 + 3.5)}>{ count.to_string() }</text>
                </g>
            }
        </g>
    }
}

/// A folded chain (graph node `i`): a box with its title and one line per
/// operation, each selectable as its CFA edge.
fn folded_chain(overlay: &Overlay, i: usize, n: &GraphNode, linked: &SelectionContext, regions: &RegionHover) -> Html {
    let (x0, y0) = (n.center.x - n.width / 2.0, n.center.y - n.height / 2.0);
    html! {
        <>
            <rect class="shape" x={fmt(x0)} y={fmt(y0)} width={fmt(n.width)} height={fmt(n.height)} rx="5" />
            <text class="fold-title" x={fmt(x0 + 7.0)} y={fmt(y0 + 5.0 + 11.0)}>{ n.title.clone() }</text>
            { for n.ops.iter().enumerate().map(|(k, op)| {
                let cur = overlay.current_edge == Some(EdgePlace::Inner { node: i, op: k });
                let sel = overlay.selected_ops.contains(&(i, k));
                let y = y0 + 5.0 + (k + 1) as f64 * LINE_H;
                let region = regions.of(op.edge);
                let title = match &region {
                    Some(r) => format!("{}\n{}", op.full, r.text),
                    None => op.full.clone(),
                };
                html! {
                    <g class={classes!("fold-op", cur.then_some("current"), sel.then_some("selected"))}
                        data-edge={Selection::Edge(op.edge).to_string()} onclick={select_on_click(linked, Selection::Edge(op.edge))}
                        data-region={region.as_ref().map(|r| r.region.clone())} data-region-text={region.as_ref().map(|r| r.text.clone())}
                        onmouseenter={region.as_ref().map(|r| r.enter.clone())} onmouseleave={region.as_ref().map(|r| r.leave.clone())}>
                        <title>{ title }</title>
                        <rect class="op-bg" x={fmt(x0 + 2.0)} y={fmt(y + 1.0)} width={fmt(n.width - 4.0)} height={fmt(LINE_H)} />
                        <text x={fmt(x0 + 7.0)} y={fmt(y + 11.0)}>{ op.text.clone() }</text>
                    </g>
                }
            }) }
        </>
    }
}

/// A single CFA node: a circle (a ring inside for a loop head) with its
/// title.
fn node_circle(n: &GraphNode) -> Html {
    let (cx, cy, r) = (n.center.x, n.center.y, n.width / 2.0);
    html! {
        <>
            <circle class="shape" cx={fmt(cx)} cy={fmt(cy)} r={fmt(r)} />
            if n.markers.contains(&Marker::LoopHead) {
                <circle class="inner-ring" cx={fmt(cx)} cy={fmt(cy)} r={fmt(r - 4.0)} />
            }
            <text class="node-label" x={fmt(cx)} y={fmt(cy + 4.0)}>{ n.title.clone() }</text>
        </>
    }
}

/// A CEGAR interpolant beside its CFA node (clicking it selects the node).
fn interpolant_view(l: &InterpolantLabel, linked: &SelectionContext) -> Html {
    let sel = Selection::Node(l.node);
    html! {
        <g class={classes!("cfa-interpolant", l.new.then_some("new"))} data-node={l.node.to_string()} onclick={select_on_click(linked, sel)}>
            <title>{ l.full.clone() }</title>
            <rect x={fmt(l.at.x)} y={fmt(l.at.y)} width={fmt(l.width)} height={fmt(l.height)} rx="3" />
            <text x={fmt(l.at.x + 4.0)} y={fmt(l.at.y + 11.0)}>{ l.text.clone() }</text>
        </g>
    }
}

/// The line under the CFA graph: how many nodes are drawn (and folded),
/// and what the marks mean.
/// What the labels beside the CFA nodes are, for the legend.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Legend {
    /// No labels.
    Plain,
    /// The latest refinement's interpolants (value CEGAR).
    Interpolants,
    /// The predicate precision (predicate analysis).
    Predicates,
}

fn cfa_legend(graph: &CfaGraph, labels: Legend) -> Html {
    html! {
        <p class="graph-legend" data-testid="cfa-graph-status">
            { format!("{} nodes drawn", graph.nodes.len()) }
            if graph.folded && graph.foldable > 0 { { format!(" ({} CFA nodes folded into chains)", graph.foldable) } }
            { " · " }<span class="lg lg-loop">{ "◎ loop head" }</span>
            { " · " }<span class="lg lg-error">{ "● error" }</span>
            { " · " }<span class="lg lg-entry">{ "entry" }</span>{ "/" }<span class="lg lg-exit">{ "exit" }</span>
            { " · badge: reached states · click a node to filter the reached set" }
            if labels == Legend::Interpolants { <>{ " · " }<span class="lg lg-interpolant">{ "interpolant" }</span>{ " of the latest refinement" }</> }
            if labels == Legend::Predicates {
                <>{ " · " }<span class="lg lg-interpolant" data-testid="cfa-legend-predicates">{ "predicates" }</span>{ " of a location (" }<span class="lg lg-interpolant new">{ "new" }</span>{ ": added by the latest refinement)" }</>
            }
        </p>
    }
}

/// Properties of [`ArgView`].
#[derive(Properties, PartialEq)]
pub struct ArgViewProps {
    /// The run's position.
    pub frame: Rc<RunFrame>,
    /// The resolved selection.
    pub highlight: Rc<Highlight>,
}

/// The ARG drawn as a graph.
#[function_component(ArgView)]
pub fn arg_view(props: &ArgViewProps) -> Html {
    let linked = use_selection();
    let snap = props.frame.snapshot.clone();
    let shown = snap.states.len();
    // Laid out from the whole trace's states, once per window (stepping
    // only changes marks and which states are drawn).
    let graph: Rc<ArgGraph> = {
        let (states, stubs) = (props.frame.arg_states.clone(), props.frame.arg_stubs.clone());
        use_memo((props.frame.run_id, props.frame.events_len, props.frame.arg_from, window_start(shown)), move |_| {
            ArgGraph::build_with_stubs(&states, &stubs, shown)
        })
    };
    let marks = graph.marks(&snap, &props.highlight);
    let covered = graph.covered_links(&snap);
    let on_path = graph.path_edges(&marks);
    // Every link and state of the laid-out window is in the document; those
    // not created yet at the shown position are `arg-future` (not drawn), so
    // a step changes a few classes instead of removing and re-creating
    // hundreds of elements.
    let edges = graph.edges.iter().zip(&on_path).map(|(e, on)| {
        let class = if graph.visible(e.to, shown) {
            classes!("arg-edge", e.link.css_class(), on.then_some("on-path"))
        } else {
            classes!("arg-future")
        };
        html! { <path {class} d={AttrValue::from(e.path.clone())} marker-end="url(#arrow)" /> }
    });
    // Branches without a successor: a dashed link to a labelled leaf.
    let stubs: Vec<&ArgStubNode> = graph.visible_stubs(&snap).collect();
    let stub_views = stubs.iter().map(|s| {
        let (x0, y0) = (s.center.x - s.width / 2.0, s.center.y - s.height / 2.0);
        html! {
            <g class={s.stub.css_class()} data-stub={s.index.to_string()}>
                <title>{ format!("{} → {}: {} — {}", s.stub.from, s.stub.location, s.stub.label(), s.stub.detail) }</title>
                <path class="arg-stub-link" d={AttrValue::from(s.path.clone())} />
                <rect class="arg-stub-box" x={fmt(x0)} y={fmt(y0)} width={fmt(s.width)} height={fmt(s.height)} rx="8" />
                <text x={fmt(s.center.x)} y={fmt(s.center.y + 4.0)}>{ s.stub.label() }</text>
            </g>
        }
    });
    let has = |reason: engine::trace::PruneReason| stubs.iter().any(|s| s.stub.reason == reason);
    let (any_infeasible, any_not_simple) =
        (has(engine::trace::PruneReason::Infeasible), has(engine::trace::PruneReason::NotSimple));
    let any_point = marks.iter().any(|m| m.abstraction_point);
    let tree = crate::model::graphs::arg::is_symbolic_execution(&snap);
    let covers =
        covered.iter().map(|(_, _, d)| html! { <path class="arg-edge arg-covered" d={d.clone()} marker-end="url(#arrow)" /> });
    // One memoized component per state: a step re-renders only the states
    // whose marks changed.
    let nodes = graph.nodes.iter().zip(&marks).enumerate().map(|(i, (n, m))| {
        html! {
            <ArgNodeView key={n.state.0} state={n.state} location={AttrValue::from(n.location.clone())} drawn={graph.visible(i, shown)}
                x={n.center.x} y={n.center.y} width={n.width} height={n.height} marks={*m} linked={linked.clone()} />
        }
    });
    let fit_key = format!("arg {}", props.frame.run_id);
    let status = html! {
        <span data-testid="arg-status" role="status">
            { format!("{shown} state{}", if shown == 1 { "" } else { "s" }) }
            if graph.hidden() > 0 {
                <span class="arg-cap">{ format!(" — showing the {} most recent (s{}…); {} older states hidden", shown.saturating_sub(graph.hidden()), graph.first, graph.hidden()) }</span>
            }
        </span>
    };
    let at = |id: Option<engine::StateId>| {
        let i = graph.node_index(id?)?;
        graph.nodes.get(i).map(|n| (n.center.x as i32, n.center.y as i32))
    };
    let follow = at(snap.current_state.or_else(|| snap.states.last().map(|s| s.id)));
    let reveal = at(props.highlight.states.iter().next().copied());
    html! {
        <>
            <Viewport drawing={graph.visible_bounds(shown)} fit_key={fit_key} testid="arg-graph" {follow} {reveal} status={status}>
                { for edges }
                { for covers }
                { for stub_views }
                { for nodes }
            </Viewport>
            <p class="graph-legend" data-testid="arg-legend">
                <span class="lg lg-reached">{ "reached" }</span>
                { " · " }<span class="lg lg-waiting">{ "waitlist" }</span>
                if !tree {
                    // merge^sep and stop^never: no merge result, nothing replaced or covered.
                    { " · " }<span class="lg lg-merged">{ "⊔ merge result" }</span>
                    { " · " }<span class="lg lg-replaced">{ "replaced" }</span>
                    { " · " }<span class="lg lg-covered">{ "⊑ covered ⇢ coverer" }</span>
                }
                { " · " }<span class="lg lg-target">{ "✕ target" }</span>
                if marks.iter().any(|m| m.abstraction) {
                    { " · " }<span class="lg lg-abstraction" data-testid="arg-legend-abstraction">{ "abstraction state (ψ computed)" }</span>
                }
                if tree && marks.iter().any(|m| m.on_path) {
                    { " · " }<span class="lg lg-on-path" data-testid="arg-legend-path">{ "current path" }</span>
                }
                if any_point {
                    { " · " }<span class="lg lg-abstraction-point" data-testid="arg-legend-abstraction-point">{ "⬡ abstraction point" }</span>
                }
                if any_infeasible {
                    { " · " }<span class="lg lg-stub-infeasible" data-testid="arg-legend-infeasible">{ "infeasible branch" }</span>
                }
                if any_not_simple {
                    { " · " }<span class="lg lg-stub-not-simple" data-testid="arg-legend-not-simple">{ "pruned: not p-simple" }</span>
                }
            </p>
        </>
    }
}

/// Properties of [`ArgNodeView`].
#[derive(Properties, PartialEq)]
pub struct ArgNodeViewProps {
    /// The state.
    pub state: engine::StateId,
    /// `@N5`.
    pub location: AttrValue,
    /// Center.
    pub x: f64,
    /// Center.
    pub y: f64,
    /// Size.
    pub width: f64,
    /// Size.
    pub height: f64,
    /// What the state is at the shown position.
    pub marks: crate::model::graphs::arg::ArgMarks,
    /// Whether the state exists at the shown position (else it is kept in
    /// the document, classed `arg-future`, and not drawn).
    pub drawn: bool,
    /// The page's selection.
    pub linked: SelectionContext,
}

/// One state of the ARG.
#[function_component(ArgNodeView)]
pub fn arg_node_view(props: &ArgNodeViewProps) -> Html {
    let sel = Selection::State(props.state);
    let onclick = select_on_click(&props.linked, sel);
    let (x0, y0) = (props.x - props.width / 2.0, props.y - props.height / 2.0);
    let m = props.marks;
    html! {
        <g class={if props.drawn { classes!(m.classes()) } else { classes!("arg-future") }} data-state={sel.to_string()}
            tabindex={if props.drawn { "0" } else { "-1" }} role="button" aria-hidden={(!props.drawn).then_some("true")} {onclick} onkeydown={on_enter(&props.linked, sel)}>
            <title>{ format!("{}{} — {}", props.state, if props.location.is_empty() { String::new() } else { format!(" {}", props.location) }, m.words()) }</title>
            if m.abstraction_point {
                // An abstraction point of symbolic execution: a hexagon.
                <polygon class="shape hexagon" points={hexagon(x0, y0, props.width, props.height)} />
            } else {
                <rect class="shape" x={fmt(x0)} y={fmt(y0)} width={fmt(props.width)} height={fmt(props.height)} rx="4" />
            }
            if m.abstraction {
                // The double border of an abstraction state.
                <rect class="abs-ring" x={fmt(x0 + 2.5)} y={fmt(y0 + 2.5)} width={fmt(props.width - 5.0)} height={fmt(props.height - 5.0)} rx="3" />
            }
            <text class="arg-id" x={fmt(props.x)} y={fmt(y0 + 13.0)}>{ props.state.to_string() }</text>
            if let Some(glyph) = mark_glyph(&m) {
                // Not colour alone: a merge result, a covered state and a
                // target carry a sign just outside their top right corner
                // (as in the legend; inside it would cover the id).
                <text class="arg-mark" x={fmt(x0 + props.width + 2.0)} y={fmt(y0 + 9.0)} aria-hidden="true">{ glyph }</text>
            }
            <text class="arg-loc" x={fmt(props.x)} y={fmt(y0 + 26.0)}>{ props.location.clone() }</text>
        </g>
    }
}

/// The sign a state node carries beside its colour: ⊔ a merge result, ⊑
/// covered (stop), ✕ a target.
fn mark_glyph(m: &crate::model::graphs::arg::ArgMarks) -> Option<&'static str> {
    if m.target {
        Some("✕")
    } else if m.covered {
        Some("⊑")
    } else if m.merged {
        Some("⊔")
    } else {
        None
    }
}

/// A click on a graph item selects it in every panel (or clears the
/// selection when it is selected already); the viewport's background does
/// not see the click.
fn select_on_click(linked: &SelectionContext, sel: Selection) -> Callback<MouseEvent> {
    let linked = linked.clone();
    Callback::from(move |e: MouseEvent| {
        e.stop_propagation();
        linked.click(sel);
    })
}

/// Enter or Space on a focused graph item selects it, as a click does
/// (items are focusable with Tab, and buttons to a screen reader).
fn on_enter(linked: &SelectionContext, sel: Selection) -> Callback<KeyboardEvent> {
    let linked = linked.clone();
    Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            linked.click(sel);
        }
    })
}

/// The points of a hexagon in the box at (x0, y0) of the given size (the
/// left and right corners at mid height).
fn hexagon(x0: f64, y0: f64, width: f64, height: f64) -> String {
    let (x1, y1, cut, ym) = (x0 + width, y0 + height, 7.0_f64.min(width / 4.0), y0 + height / 2.0);
    [(x0 + cut, y0), (x1 - cut, y0), (x1, ym), (x1 - cut, y1), (x0 + cut, y1), (x0, ym)]
        .iter()
        .map(|(x, y)| format!("{},{}", fmt(*x), fmt(*y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A coordinate as the SVG attributes take it (one decimal).
fn fmt(v: f64) -> String {
    format!("{v:.1}")
}
