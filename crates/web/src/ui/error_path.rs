//! The error path panel (renders [`crate::model::error_path`]): for a
//! FALSE (or a target the analysis refuted), the path's edges as `line:
//! code` rows with what is known of the path, the path painted on the CFA
//! (the CEGAR view's CSS mechanism) and its lines marked in the editor,
//! and "Check this path", which runs the engine's feasibility checks and
//! concrete replay on demand through the page's one driver
//! ([`crate::ui::run::drive`]; its one query goes to the page's Z3).

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::model::error_path::{ErrorPathView, PathCheckTask, PathStatus};
use crate::model::run_driver::SliceEnd;
use crate::platform::codemirror;
use crate::ui::run::{drive, CancelFlag};

/// Properties of [`ErrorPathPanel`].
#[derive(Properties, PartialEq)]
pub struct ErrorPathProps {
    /// The error path at the shown position (`None`: nothing to show).
    pub view: Option<ErrorPathView>,
    /// The counterexample checks of the latest checked path, in order
    /// (shown when they are of this path and there are two or more:
    /// `bam-value-predicate`'s value check, then its predicate check).
    #[prop_or_default]
    pub checks: crate::model::blocks::CounterexampleChecks,
}

/// What "Check this path" found for one path.
#[derive(Clone, PartialEq)]
enum Checked {
    /// The check runs (`note`: what it waits for).
    Running(String),
    /// Its result.
    Done(PathStatus),
}

/// The error path panel; renders nothing without a path.
#[function_component(ErrorPathPanel)]
pub fn error_path_panel(props: &ErrorPathProps) -> Html {
    // The on-demand result, for the path (edges) it was computed for.
    let checked = use_state(|| None::<(Vec<cfa::EdgeId>, Checked)>);
    let lines = props.view.as_ref().map(ErrorPathView::lines).unwrap_or_default();
    use_effect_with(lines, |lines| {
        codemirror::set_path_lines(lines);
        || codemirror::set_path_lines(&[])
    });
    let Some(view) = props.view.clone() else { return html! {} };
    let edges = view.edges();
    let mine = checked.as_ref().filter(|(e, _)| *e == edges).map(|(_, c)| c.clone());
    let status = match &mine {
        Some(Checked::Done(s)) => s.clone(),
        _ => view.status.clone(),
    };
    let running = matches!(mine, Some(Checked::Running(_)));
    let on_check = {
        let (checked, view) = (checked.clone(), view.clone());
        Callback::from(move |_: MouseEvent| start_check(&view, &checked))
    };
    let title = if view.refuted {
        format!("Refuted error path to {} ({} edges)", view.target, view.steps.len())
    } else {
        format!("Error path to {} ({} edges)", view.target, view.steps.len())
    };
    html! {
        <section class="error-path" data-testid="error-path">
            <style>{ view_css(&view, &status) }</style>
            <h3>{ title }</h3>
            <p class={classes!("error-path-status", format!("error-path-{}", status.kind()))} data-testid="error-path-status">
                { status.label() }
            </p>
            if props.checks.several() && props.checks.target == Some(view.target) {
                { crate::ui::blocks::checks_list(&props.checks) }
            }
            if let Some(Checked::Running(note)) = &mine {
                <p class="hint" data-testid="error-path-running">{ note.clone() }</p>
            }
            if (view.checkable() && mine.is_none()) || running {
                <button class="check-path" data-testid="check-path" disabled={running} onclick={on_check}
                    title="Run the feasibility checks (explicit values, octagon, SSA path formula on Z3) and replay the inputs concretely">
                    { "Check this path" }
                </button>
            }
            // The path is drawn on the CFA and marked in the editor; the
            // list line by line is one click away, so the verdict's block
            // stays small on a laptop screen.
            <details class="error-path-list">
                <summary data-testid="error-path-toggle">{ "the path line by line" }</summary>
                <ol class="error-path-steps" data-testid="error-path-steps">
                    { for view.steps.iter().map(|s| html! {
                        <li data-line={s.line.to_string()}><span class="error-path-line">{ format!("line {}", s.line) }</span>{ ": " }<code>{ s.code.clone() }</code></li>
                    }) }
                </ol>
            </details>
        </section>
    }
}

/// The path on the CFA, drawn as the status it has now (dashed unless
/// confirmed).
fn view_css(view: &ErrorPathView, status: &PathStatus) -> String {
    ErrorPathView { status: status.clone(), ..view.clone() }.path_css()
}

/// Runs "Check this path" for `view` and records its progress and result
/// in `checked`.
fn start_check(view: &ErrorPathView, checked: &UseStateHandle<Option<(Vec<cfa::EdgeId>, Checked)>>) {
    let edges = view.edges();
    checked.set(Some((edges.clone(), Checked::Running("Checking the path…".into()))));
    let task = Rc::new(RefCell::new(PathCheckTask::new(view)));
    let checked = checked.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let progress = {
            let (checked, edges) = (checked.clone(), edges.clone());
            move |end: &SliceEnd| {
                if let SliceEnd::Parked(_) = end {
                    let note = if crate::platform::z3::status().ready() {
                        "Asking Z3 for inputs that follow the path…"
                    } else {
                        "Asking Z3 (it loads on first use)…"
                    };
                    checked.set(Some((edges.clone(), Checked::Running(note.into()))));
                }
            }
        };
        drive(task.clone(), CancelFlag::new(), progress).await;
        let status = task.borrow().result().map(PathStatus::of_path_check);
        let status = status.unwrap_or(PathStatus::Undecided { description: "the check did not finish".into() });
        checked.set(Some((edges, Checked::Done(status))));
    });
}
