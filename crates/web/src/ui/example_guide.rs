//! An opened example's guidance, kept next to the program: the gallery
//! card's "What to look at" text ([`crate::model::gallery::Example::guidance`])
//! as a panel above the editor, so the student can follow it while
//! stepping. It stays through edits until dismissed. For an example whose
//! configurations ask Z3 it also shows Z3's loading progress (the compare
//! view, which such an example opens, covers the Solver log's own bar).

use yew::prelude::*;

use crate::model::gallery::Example;

/// Properties of [`ExampleGuide`].
#[derive(Properties, PartialEq)]
pub struct ExampleGuideProps {
    /// The example the page was opened with.
    pub example: Example,
    /// Called when the student dismisses the panel.
    pub on_dismiss: Callback<()>,
}

/// The example's title and its "What to look at" text, collapsible and
/// dismissible.
#[function_component(ExampleGuide)]
pub fn example_guide(props: &ExampleGuideProps) -> Html {
    let dismiss = props.on_dismiss.reform(|_: MouseEvent| ());
    html! {
        <aside class="example-guide" data-testid="example-guide" aria-label="What to look at in this example">
            <details open=true>
                <summary>
                    <span class="guide-kicker">{ "Example" }</span>
                    <strong>{ props.example.title.clone() }</strong>
                </summary>
                if props.example.uses_solver() {
                    <Z3Progress />
                }
                <div class="guide-body" tabindex="0">{ crate::ui::gallery::blocks(props.example.guidance()) }</div>
            </details>
            <button class="dismiss" onclick={dismiss} data-testid="dismiss-guide" aria-label="Dismiss the example's guidance">{ "✕" }</button>
        </aside>
    }
}

/// Z3's loading status and progress bar (the Solver log's, kept up to date
/// the same way), for an example that uses the solver; also shown in the
/// compare view's guidance, which covers the Solver log.
#[function_component(Z3Progress)]
pub fn z3_progress() -> Html {
    let redraw = use_force_update();
    use_effect_with((), move |_| {
        let key = crate::platform::z3::subscribe(Callback::from(move |_| redraw.force_update()));
        move || crate::platform::z3::unsubscribe(key)
    });
    let status = crate::platform::z3::status();
    html! {
        <p class="guide-z3" data-testid="guide-z3-status" data-phase={status.phase.clone()} aria-live="polite">
            { status.text() }
            { crate::ui::solver::load_progress(&status, "guide-z3-progress") }
        </p>
    }
}
