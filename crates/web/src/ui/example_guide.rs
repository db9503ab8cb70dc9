//! An opened example's guidance, kept next to the program: the gallery
//! card's "What to look at" text ([`crate::model::gallery::Example::guidance`])
//! as a panel above the editor, so the student can follow it while
//! stepping. It stays through edits until dismissed.

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
                <div class="guide-body" tabindex="0">{ crate::ui::gallery::blocks(props.example.guidance()) }</div>
            </details>
            <button class="dismiss" onclick={dismiss} data-testid="dismiss-guide" aria-label="Dismiss the example's guidance">{ "✕" }</button>
        </aside>
    }
}
