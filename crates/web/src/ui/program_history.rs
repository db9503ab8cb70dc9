//! The way back to a replaced program: the notice shown after a link, an
//! example or "Reset example" replaced the student's text (with "Restore
//! your previous program"), and the editor's "Previous programs" menu. What
//! is kept, and when, is [`crate::model::program_history`]; the kept
//! programs live in local storage (`crate::platform::storage`).

use yew::prelude::*;

use crate::model::page::{Action, Model, EXAMPLE_PROGRAM};
use crate::model::program_history::{replace, Replaced, ReplacedBy};
use crate::platform::storage::{load_history, save_history};

/// The playground's replacements of the editor's program, for the page:
/// the notice to show and the actions that replace (each keeps the text it
/// replaces).
pub struct Replacements {
    /// The replacement to tell about, if any.
    pub notice: Option<Replaced>,
    /// Changes whenever the kept programs change (for [`PreviousPrograms`]).
    pub revision: usize,
    /// "Reset example": the built-in example replaces the program.
    pub reset_example: Callback<()>,
    /// "Restore your previous program": puts it back; the text it replaces
    /// is kept in turn, silently.
    pub restore: Callback<String>,
    /// A kept program picked from the menu replaces the program.
    pub pick: Callback<String>,
    /// Dismisses the notice.
    pub dismiss: Callback<()>,
}

/// The replacements of `model`'s program (none are offered for an
/// exercise's program, which is not the student's own). Restoring or
/// picking drops a link's fragment from the address, so a reload keeps the
/// chosen text.
#[hook]
pub fn use_replacements(model: &UseReducerHandle<Model>, exercise_mode: bool) -> Replacements {
    let notice = use_state(|| replaced_on_load(exercise_mode));
    let revision = use_state(|| 0usize);
    // Replaces the editor's text by `next`, keeping the current one; shows
    // the notice `show` makes of the replacement.
    let replacer = {
        let (model, notice, revision) = (model.clone(), notice.clone(), revision.clone());
        move |next: String, by: ReplacedBy, show: bool| {
            let replaced = replace_program(&model.source, &next, by);
            notice.set(replaced.filter(|_| show));
            revision.set(*revision + 1);
            model.dispatch(Action::Edit(next));
        }
    };
    let reset_example = {
        let replacer = replacer.clone();
        Callback::from(move |_: ()| replacer(EXAMPLE_PROGRAM.to_string(), ReplacedBy::ResetExample, true))
    };
    let restore = {
        let replacer = replacer.clone();
        Callback::from(move |previous: String| {
            crate::platform::location::show(&crate::platform::location::base());
            replacer(previous, ReplacedBy::Picked, false)
        })
    };
    let pick = Callback::from(move |picked: String| {
        crate::platform::location::show(&crate::platform::location::base());
        replacer(picked, ReplacedBy::Picked, true)
    });
    let dismiss = {
        let notice = notice.clone();
        Callback::from(move |_: ()| notice.set(None))
    };
    Replacements { notice: (*notice).clone(), revision: *revision, reset_example, restore, pick, dismiss }
}

/// The notice to show when the page was opened with a link whose program
/// replaced the one this browser kept (not for an exercise, whose program
/// is never the student's own).
pub fn replaced_on_load(exercise_mode: bool) -> Option<Replaced> {
    if exercise_mode {
        return None;
    }
    let link = crate::ui::share::initial_program()?;
    let stored = crate::platform::storage::load_program()?;
    replace_program(&stored, &link, ReplacedBy::Link)
}

/// Replacing the editor's `current` text by `next` on the student's
/// request: keeps `current` among the previous programs and returns the
/// notice to show (none when nothing is lost).
pub fn replace_program(current: &str, next: &str, by: ReplacedBy) -> Option<Replaced> {
    let mut history = load_history();
    let notice = replace(&mut history, current, next, by)?;
    save_history(&history);
    Some(notice)
}

/// Properties of [`ReplacedNotice`].
#[derive(Properties, PartialEq)]
pub struct ReplacedNoticeProps {
    /// The replacement to tell about.
    pub notice: Replaced,
    /// Called with the previous program when the student restores it.
    pub on_restore: Callback<String>,
    /// Called when the notice is dismissed.
    pub on_dismiss: Callback<()>,
}

/// "The opened link replaced your program … Restore your previous program".
#[function_component(ReplacedNotice)]
pub fn replaced_notice(props: &ReplacedNoticeProps) -> Html {
    let restore = {
        let (on_restore, previous) = (props.on_restore.clone(), props.notice.previous.clone());
        Callback::from(move |_: MouseEvent| on_restore.emit(previous.clone()))
    };
    let dismiss = props.on_dismiss.reform(|_: MouseEvent| ());
    html! {
        <div class="replaced-notice" role="status" data-testid="replaced-notice">
            <span>{ props.notice.message() }</span>
            <button class="restore-program" onclick={restore} data-testid="restore-program">{ "Restore your previous program" }</button>
            <button class="dismiss" onclick={dismiss} aria-label="Dismiss this notice">{ "✕" }</button>
        </div>
    }
}

/// Properties of [`PreviousPrograms`].
#[derive(Properties, PartialEq)]
pub struct PreviousProgramsProps {
    /// Called with the program the student picks.
    pub on_pick: Callback<String>,
    /// Changes whenever the kept programs may have changed, so the menu
    /// reads them again.
    pub revision: usize,
}

/// The editor's "Previous programs" menu: the kept replaced programs,
/// newest first; picking one puts it in the editor (the text it replaces
/// is kept in turn). Hidden while nothing is kept.
#[function_component(PreviousPrograms)]
pub fn previous_programs(props: &PreviousProgramsProps) -> Html {
    let history = use_memo(props.revision, |_| load_history());
    if history.programs.is_empty() {
        return html! {};
    }
    let on_change = {
        let (on_pick, history) = (props.on_pick.clone(), history.clone());
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Some(p) = select.value().parse::<usize>().ok().and_then(|i| history.programs.get(i)) {
                on_pick.emit(p.clone());
            }
            select.set_value("");
        })
    };
    html! {
        <select class="previous-programs" onchange={on_change} data-testid="previous-programs"
            aria-label="Previous programs" title="Programs that a link, an example or Reset replaced, kept in this browser">
            <option value="" selected=true>{ "Previous programs…" }</option>
            { for history.entries().enumerate().map(|(i, (_, label))| html! { <option value={i.to_string()}>{ label }</option> }) }
        </select>
    }
}
