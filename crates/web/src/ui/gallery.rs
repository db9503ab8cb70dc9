//! The examples gallery in the page: a dialog of cards, one per example of
//! [`crate::model::gallery`], each with its explanation rendered from the safe
//! Markdown tree (never as HTML) and an "Open" button that loads the
//! program, the first configuration and the integer model.

use yew::prelude::*;

use crate::model::gallery::{Block, Example, Inline};
use crate::model::share::encode;

/// The top bar's "Examples" button and the gallery it opens.
#[function_component(ExamplesButton)]
pub fn examples_button() -> Html {
    let open = use_state(|| false);
    let show = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(true))
    };
    let close = {
        let open = open.clone();
        Callback::from(move |_: ()| open.set(false))
    };
    html! {
        <>
            <button class="examples-button" onclick={show} data-testid="examples-button"
                title="The papers' examples and ours, with what to look at">{ "Examples" }</button>
            if *open {
                <Gallery on_open={Callback::from(|e: Example| open_example(&e))} on_close={close} />
            }
        </>
    }
}

/// Opens an example the way a share link opens: the page reloads with the
/// example's state in the URL fragment, so the restore path is the one
/// share links use (and the back button returns to the previous program).
pub fn open_example(example: &Example) {
    // The top bar's hashchange listener reloads the page.
    crate::platform::location::open_fragment(&format!("#{}", encode(&example.share_state())));
}

/// Properties of [`Gallery`].
#[derive(Properties, PartialEq)]
pub struct GalleryProps {
    /// Called with the example the student opens.
    pub on_open: Callback<Example>,
    /// Called when the dialog is closed without opening anything.
    pub on_close: Callback<()>,
}

/// The gallery dialog.
#[function_component(Gallery)]
pub fn gallery(props: &GalleryProps) -> Html {
    let (examples, errors) = crate::model::gallery::examples();
    let close = {
        let on_close = props.on_close.clone();
        Callback::from(move |_: MouseEvent| on_close.emit(()))
    };
    let on_key = {
        let on_close = props.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                on_close.emit(());
            }
        })
    };
    html! {
        <div class="gallery-backdrop" onkeydown={on_key}>
            <div class="gallery" role="dialog" aria-label="Examples" data-testid="gallery">
                <div class="gallery-head">
                    <h2>{ "Examples" }</h2>
                    <button class="gallery-close" onclick={close} aria-label="Close the examples">{ "✕" }</button>
                </div>
                { for errors.iter().map(|e| html! { <p class="status status-error">{ e.to_string() }</p> }) }
                <div class="gallery-cards">
                    { for examples.into_iter().map(|e| card(e, &props.on_open)) }
                </div>
            </div>
        </div>
    }
}

/// One example's card: title, source, configurations with their expected
/// verdicts, integer model, explanation and the Open button.
fn card(example: Example, on_open: &Callback<Example>) -> Html {
    let id = example.id;
    let title = example.title.clone();
    let source = example.source.clone();
    let configs = example.config_chips();
    let model = example.int_model.clone();
    let body = example.body.clone();
    let open = {
        let on_open = on_open.clone();
        Callback::from(move |_: MouseEvent| on_open.emit(example.clone()))
    };
    html! {
        <article class="gallery-card" data-example={id}>
            <h3>{ title }</h3>
            if let Some(source) = source {
                <p class="gallery-source">{ source }</p>
            }
            <p class="gallery-configs">
                { for configs.iter().map(|c| html! { <span class="chip">{ c.clone() }</span> }) }
                <span class="chip chip-model">{ format!("int model: {model}") }</span>
            </p>
            <div class="gallery-body">{ blocks(&body) }</div>
            <button class="gallery-open" onclick={open} data-testid={format!("open-{id}")}>{ "Open" }</button>
        </article>
    }
}

/// Renders explanation blocks as elements (text nodes only, never HTML).
pub fn blocks(blocks: &[Block]) -> Html {
    html! { <>{ for blocks.iter().map(block) }</> }
}

/// One explanation block as elements.
fn block(b: &Block) -> Html {
    match b {
        Block::Paragraph(v) => html! { <p>{ inlines(v) }</p> },
        Block::Heading(level, v) => match level {
            1 | 2 => html! { <h4>{ inlines(v) }</h4> },
            _ => html! { <h5>{ inlines(v) }</h5> },
        },
        Block::List { ordered: true, items } => html! { <ol>{ for items.iter().map(|i| html! { <li>{ blocks(i) }</li> }) }</ol> },
        Block::List { ordered: false, items } => {
            html! { <ul>{ for items.iter().map(|i| html! { <li>{ blocks(i) }</li> }) }</ul> }
        }
        Block::Code(text) => html! { <pre><code>{ text.clone() }</code></pre> },
        Block::Quote(b) => html! { <blockquote>{ blocks(b) }</blockquote> },
        Block::Table { head, rows } => html! {
            <table class="gallery-table">
                <thead><tr>{ for head.iter().map(|c| html! { <th>{ inlines(c) }</th> }) }</tr></thead>
                <tbody>
                    { for rows.iter().map(|r| html! { <tr>{ for r.iter().map(|c| html! { <td>{ inlines(c) }</td> }) }</tr> }) }
                </tbody>
            </table>
        },
        Block::Rule => html! { <hr /> },
    }
}

/// A run of inline text as elements.
fn inlines(v: &[Inline]) -> Html {
    html! { <>{ for v.iter().map(inline) }</> }
}

/// One piece of inline text (links open in a new tab, without the opener).
fn inline(i: &Inline) -> Html {
    match i {
        Inline::Text(t) => html! { { t.clone() } },
        Inline::Code(t) => html! { <code>{ t.clone() }</code> },
        Inline::Emph(v) => html! { <em>{ inlines(v) }</em> },
        Inline::Strong(v) => html! { <strong>{ inlines(v) }</strong> },
        Inline::Link { href, children } => html! {
            <a href={href.clone()} target="_blank" rel="noopener noreferrer">{ inlines(children) }</a>
        },
        Inline::Break => html! { <br /> },
    }
}
