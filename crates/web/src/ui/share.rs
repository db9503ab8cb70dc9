//! Share links in the page (Yew): the "Share link" button in the top bar,
//! the link shown for copying, and opening a link on load.
//!
//! The panes report what they show to the page's [`ShareLinks`]
//! ([`ShareLinks::register_analysis`], [`ShareLinks::note_compare`]); the
//! button encodes that with the program ([`crate::model::share::encode`]) and
//! puts the link in the address bar (without reloading). On load, a
//! fragment `#share=1.…` is decoded once ([`opened`]); the app takes the
//! program from it ([`initial_program`]), the analysis pane its
//! configuration and step ([`take_restore`]), the compare view its set
//! ([`take_compare_restore`]). A link that is malformed or too large shows
//! an error banner and the page opens as usual. Opening another link while
//! the page is open (a changed fragment) reloads the page.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::model::analysis::RunSpec;
use crate::model::share::{decode, encode, ShareError, ShareState};

/// Reports the analysis pane's configuration and shown event position.
pub type AnalysisProbe = Box<dyn Fn() -> (RunSpec, Option<usize>)>;

/// What the panes show now, as far as a share link carries it.
#[derive(Default)]
struct Current {
    /// Reads the analysis pane's state (its reducer's
    /// [`crate::model::analysis::AnalysisPane::shared`]).
    analysis: Option<AnalysisProbe>,
    /// The compare view's configurations (empty while it is closed).
    compare: Vec<String>,
    /// The compare view's shared step.
    compare_position: Option<usize>,
}

/// What the panes show now, as far as a share link carries it: one per
/// playground, created by `ui::page::App` and provided to the panes as a
/// Yew context ([`use_share_links`]). The analysis pane registers how to
/// read its configuration and position, the compare view reports its set;
/// the Share button, the compare view and the exercise pane read it when a
/// user acts (Make exercise when its dialog is drawn), so it is a handle
/// nothing re-renders on, and the context value never changes.
#[derive(Clone, Default)]
pub struct ShareLinks(Rc<RefCell<Current>>);

impl PartialEq for ShareLinks {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl ShareLinks {
    /// The analysis pane registers how to read its configuration and, when a
    /// run is shown, its event position.
    pub fn register_analysis(&self, probe: AnalysisProbe) {
        self.0.borrow_mut().analysis = Some(probe);
    }

    /// The compare view reports its configurations and position (an empty
    /// set when it is closed).
    pub fn note_compare(&self, presets: &[String], position: Option<usize>) {
        let mut c = self.0.borrow_mut();
        c.compare = presets.to_vec();
        c.compare_position = position;
    }

    /// The analysis pane's configuration and shown event position now.
    pub fn analysis_now(&self) -> (RunSpec, Option<usize>) {
        self.0.borrow().analysis.as_ref().map(|probe| probe()).unwrap_or_default()
    }

    /// The fragment for the page as it is now, with `program`.
    pub fn fragment(&self, program: &str) -> String {
        let (spec, position) = self.analysis_now();
        let c = self.0.borrow();
        let mut s = ShareState::new(program, &spec);
        s.position = position;
        s.compare = c.compare.clone();
        s.compare_position = c.compare_position;
        encode(&s)
    }
}

/// The playground's [`ShareLinks`]; a detached one where there is no
/// playground around the component (a component mounted alone in a test).
#[hook]
pub fn use_share_links() -> ShareLinks {
    let detached = use_memo((), |_| ShareLinks::default());
    use_context::<ShareLinks>().unwrap_or_else(|| (*detached).clone())
}

// These statics stay, each for a reason: they are facts of the page load,
// not state shared between panes.
// - OPENED: the link the page was opened with (or an exercise's program and
//   configuration), decoded once; it never changes while the page is open
//   (another link reloads the page).
// - RESTORE_ANALYSIS / RESTORE_COMPARE: a link's run and compare set are
//   restored once per page load, even if a pane were mounted again.
thread_local! {
    static OPENED: RefCell<Option<Result<Option<ShareState>, ShareError>>> = const { RefCell::new(None) };
    static RESTORE_ANALYSIS: RefCell<bool> = const { RefCell::new(true) };
    static RESTORE_COMPARE: RefCell<bool> = const { RefCell::new(true) };
}

/// The share link the page was opened with, decoded once: `Ok(None)` when
/// there is none.
pub fn opened() -> Result<Option<ShareState>, ShareError> {
    OPENED.with(|o| o.borrow_mut().get_or_insert_with(|| decode(&crate::platform::location::hash())).clone())
}

/// Schedules Z3's loading if the page was opened with a link whose
/// analysis or compare view asks a solver: Z3 then loads once the page has
/// built itself and the link's runs are done, unless a run's query needs
/// it sooner (see `z3_worker::prefetch`).
pub fn prefetch_solver_for_link() {
    if opened().ok().flatten().is_some_and(|s| s.uses_solver()) {
        crate::platform::z3_worker::prefetch(crate::platform::engine_worker::computing);
    }
}

/// Opens the page as if with a link to `state` (an exercise: its program
/// and configuration), before the playground mounts.
pub fn open_with(state: ShareState) {
    OPENED.with(|o| *o.borrow_mut() = Some(Ok(Some(state))));
}

/// The program of the link the page was opened with, if any.
pub fn initial_program() -> Option<String> {
    opened().ok().flatten().map(|s| s.program)
}

/// The analysis configuration and event position to restore — given once
/// (to the analysis pane when it mounts).
pub fn take_restore() -> Option<(RunSpec, Option<usize>)> {
    let first = RESTORE_ANALYSIS.with(|r| std::mem::replace(&mut *r.borrow_mut(), false));
    let s = opened().ok().flatten().filter(|_| first)?;
    // Only a link made after an analysis ran carries a position; the
    // chooser is restored either way.
    Some((s.spec(), s.position))
}

/// The compare set, its position and the integer model its runs use, to
/// restore once.
pub fn take_compare_restore() -> Option<(Vec<String>, Option<usize>, minic::IntModel)> {
    let first = RESTORE_COMPARE.with(|r| std::mem::replace(&mut *r.borrow_mut(), false));
    let s = opened().ok().flatten().filter(|s| first && !s.compare.is_empty())?;
    let model = s.spec().int_model;
    Some((s.compare, s.compare_position, model))
}

/// Properties of [`ShareBar`].
#[derive(Properties, PartialEq)]
pub struct ShareBarProps {
    /// The editor's program text.
    pub source: String,
}

/// The top bar's "Share link" button, the link it made, and the error
/// banner of a link that could not be opened.
#[function_component(ShareBar)]
pub fn share_bar(props: &ShareBarProps) -> Html {
    let link = use_state(|| None::<String>);
    let dismissed = use_state(|| false);
    let links = use_share_links();
    // A different link pasted into the address bar: open it (reload).
    use_effect_with((), |_| {
        let listener = crate::platform::location::on_hash_change(|_| crate::platform::location::reload());
        move || drop(listener)
    });
    let on_share = {
        let (link, source, links) = (link.clone(), props.source.clone(), links.clone());
        Callback::from(move |_: MouseEvent| {
            let fragment = links.fragment(&source);
            let url = format!("{}#{fragment}", crate::platform::location::base());
            // The address bar shows the link, without a reload.
            crate::platform::location::show(&url);
            link.set(Some(url));
        })
    };
    let on_copy = {
        let link = link.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(url) = &*link {
                crate::platform::clipboard::copy(url);
            }
        })
    };
    let on_close = {
        let link = link.clone();
        Callback::from(move |_: MouseEvent| link.set(None))
    };
    let on_dismiss = {
        let dismissed = dismissed.clone();
        Callback::from(move |_: MouseEvent| dismissed.set(true))
    };
    let error = opened().err().filter(|_| !*dismissed);
    html! {
        <div class="share-bar">
            <button class="share" data-testid="share" onclick={on_share}
                title="Put the program, the configuration and the current step into a link (nothing is uploaded)">
                { "Share link" }
            </button>
            if let Some(url) = &*link {
                <div class="share-pop" data-testid="share-pop">
                    <input data-testid="share-link" readonly=true value={url.clone()} />
                    <button onclick={on_copy}>{ "Copy" }</button>
                    <button onclick={on_close} aria-label="Close">{ "×" }</button>
                    <span class="share-size">{ format!("{} characters; everything is in the link, nothing is uploaded", url.len()) }</span>
                </div>
            }
            if let Some(e) = error {
                <div class="share-error" role="alert" data-testid="share-error">
                    <span>{ format!("This share link cannot be opened: {e}. The page opened as usual.") }</span>
                    <button onclick={on_dismiss} aria-label="Dismiss">{ "×" }</button>
                </div>
            }
        </div>
    }
}
