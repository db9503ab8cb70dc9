//! The examples gallery in the page: a dialog of cards, one per example of
//! [`crate::model::gallery`], grouped by seed (the analysis family), with a
//! filter (words, seed), a "where to start" path for a first lecture, and
//! per card its explanation rendered from the safe Markdown tree (never as
//! HTML) and an "Open" button that loads the program, the first
//! configuration and the integer model.

use yew::prelude::*;

use web_sys::{HtmlInputElement, HtmlSelectElement};

use crate::model::gallery::{Block, Example, Inline, FIRST_LECTURE, SEEDS};
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

/// The gallery dialog: a "where to start" path for a first lecture, a
/// filter (words and seed), and the examples grouped by seed.
#[function_component(Gallery)]
pub fn gallery(props: &GalleryProps) -> Html {
    let (examples, errors) = crate::model::gallery::examples();
    let filter = use_state(String::new);
    let seed = use_state(String::new);
    let filter_ref = use_node_ref();
    {
        // Keyboard users land in the filter when the dialog opens.
        let filter_ref = filter_ref.clone();
        use_effect_with((), move |_| {
            if let Some(input) = filter_ref.cast::<HtmlInputElement>() {
                let _ = input.focus();
            }
        });
    }
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
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| filter.set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let on_seed = {
        let seed = seed.clone();
        Callback::from(move |e: Event| seed.set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let shown: Vec<&Example> = examples.iter().filter(|e| (seed.is_empty() || e.seed == *seed) && e.matches(&filter)).collect();
    let filtering = !filter.trim().is_empty() || !seed.is_empty();
    html! {
        <div class="gallery-backdrop" onkeydown={on_key}>
            <div class="gallery" role="dialog" aria-label="Examples" data-testid="gallery">
                <div class="gallery-head">
                    <h2>{ "Examples" }</h2>
                    <button class="gallery-close" onclick={close} aria-label="Close the examples">{ "✕" }</button>
                </div>
                { for errors.iter().map(|e| html! { <p class="status status-error">{ e.to_string() }</p> }) }
                <div class="gallery-filter" role="search">
                    <label>{ "Filter " }
                        <input type="search" ref={filter_ref} data-testid="gallery-filter" value={(*filter).clone()} oninput={on_filter}
                            placeholder="words: listing, overflow, symbolic…" aria-describedby="gallery-count" />
                    </label>
                    <label>{ "Seed " }
                        <select data-testid="gallery-seed" onchange={on_seed}>
                            <option value="" selected={seed.is_empty()}>{ "all seeds" }</option>
                            { for SEEDS.iter().map(|(id, heading, _)| html! {
                                <option value={*id} selected={*seed == *id}>{ *heading }</option>
                            }) }
                        </select>
                    </label>
                    <span id="gallery-count" class="gallery-count" data-testid="gallery-count" aria-live="polite">
                        { format!("{} of {} examples", shown.len(), examples.len()) }
                    </span>
                </div>
                if !filtering {
                    { first_lecture(&examples, &props.on_open) }
                }
                if shown.is_empty() {
                    <p class="hint" data-testid="gallery-none">{ "No example matches. Clear the filter to see all of them." }</p>
                }
                { for SEEDS.iter().map(|(id, heading, paper)| {
                    let group: Vec<&Example> = shown.iter().copied().filter(|e| e.seed == *id).collect();
                    if group.is_empty() {
                        return html! {};
                    }
                    html! {
                        <section class="gallery-group" data-seed={*id} aria-label={*heading}>
                            <h3>{ *heading }</h3>
                            <p class="gallery-paper">{ *paper }</p>
                            <div class="gallery-cards">
                                { for group.into_iter().map(|e| card(e.clone(), &props.on_open)) }
                            </div>
                        </section>
                    }
                }) }
            </div>
        </div>
    }
}

/// The "where to start" path: [`FIRST_LECTURE`]'s examples in order, each
/// with its one line and a button that opens it.
fn first_lecture(examples: &[Example], on_open: &Callback<Example>) -> Html {
    html! {
        <section class="gallery-start" data-testid="gallery-start" aria-label="Where to start: a first lecture">
            <h3>{ "Where to start: a first lecture" }</h3>
            <ol>
                { for FIRST_LECTURE.iter().filter_map(|(id, why)| Some((examples.iter().find(|e| e.id == *id)?, why))).map(|(e, why)| {
                    let open = {
                        let (on_open, e) = (on_open.clone(), e.clone());
                        Callback::from(move |_: MouseEvent| on_open.emit(e.clone()))
                    };
                    html! {
                        <li>
                            <button class="gallery-start-open" onclick={open} data-testid={format!("start-{}", e.id)}>{ e.title.clone() }</button>
                            { format!(" — {why}") }
                        </li>
                    }
                }) }
            </ol>
        </section>
    }
}

/// One example's card: title, source, configurations with their expected
/// verdicts, integer model, whether it loads Z3, which configuration is
/// unsound on purpose, explanation and the Open button.
fn card(example: Example, on_open: &Callback<Example>) -> Html {
    let id = example.id;
    let title = example.title.clone();
    let source = example.source.clone();
    let configs = example.config_chips();
    let model = example.int_model.clone();
    let body = example.body.clone();
    let uses_solver = example.uses_solver();
    let unsound = example.unsound_by_choice();
    let open = {
        let on_open = on_open.clone();
        Callback::from(move |_: MouseEvent| on_open.emit(example.clone()))
    };
    html! {
        <article class="gallery-card" data-example={id}>
            <h4>{ title }</h4>
            if let Some(source) = source {
                <p class="gallery-source">{ source }</p>
            }
            <p class="gallery-configs">
                { for configs.iter().map(|c| html! { <span class="chip">{ c.clone() }</span> }) }
                <span class="chip chip-model">{ format!("int model: {model}") }</span>
            </p>
            if uses_solver {
                <p class="gallery-solver" data-testid="gallery-solver-note">
                    { "Uses Z3: the page loads the solver (about 35 MB, once; the Solver log shows its progress) when a query needs it, or once the example's runs are done." }
                </p>
            }
            { for unsound.iter().map(|(name, why)| html! {
                <p class="gallery-unsound" data-testid="gallery-unsound">{ format!("⚠ {name}: {why}") }</p>
            }) }
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
