//! The browser's local storage: the program, the previous programs, the
//! configuration and each exercise set's
//! progress, in the text formats of [`crate::model::storage`] and
//! [`crate::model::exercise::Progress`]. A full or disabled storage is
//! ignored: the page works without it.

use crate::model::analysis::RunSpec;
use crate::model::exercise;
use crate::model::storage::{spec_from_text, spec_to_text, CONFIG_KEY, PROGRAM_KEY};

/// The browser's local storage, if the page may use it.
pub fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The configuration saved by the last visit, if any.
pub fn load_spec() -> Option<RunSpec> {
    spec_from_text(&local_storage()?.get_item(CONFIG_KEY).ok()??)
}

/// Saves the configuration (browser only; a full or disabled storage is
/// ignored: the page works without it).
pub fn save_spec(spec: &RunSpec) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(CONFIG_KEY, &spec_to_text(spec));
    }
}

/// The progress kept for exercise set `set` (a fresh start when there is
/// none or it is unreadable).
pub fn load_progress(set: &str) -> exercise::Progress {
    local_storage()
        .and_then(|s| s.get_item(&exercise::storage_key(set)).ok().flatten())
        .map(|t| exercise::Progress::from_json(&t))
        .unwrap_or_default()
}

/// Keeps the progress of exercise set `set` (a full or disabled storage:
/// it lasts until the tab closes).
pub fn save_progress(set: &str, progress: &exercise::Progress) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(&exercise::storage_key(set), &progress.to_json());
    }
}

/// Forgets the progress of exercise set `set`.
pub fn forget_progress(set: &str) {
    if let Some(s) = local_storage() {
        let _ = s.remove_item(&exercise::storage_key(set));
    }
}

/// The exercise draft an instructor made or loaded in this browser (see
/// [`crate::model::exercise::draft_session`]), if any.
pub fn load_exercise_draft() -> Option<String> {
    local_storage()?.get_item(exercise::DRAFT_KEY).ok().flatten()
}

/// Keeps an exercise draft to try (`#exercise-draft`), replacing the last
/// one, and starts its progress afresh. `false` when the storage refused it.
pub fn save_exercise_draft(text: &str) -> bool {
    let Some(s) = local_storage() else { return false };
    let _ = s.remove_item(&exercise::storage_key(exercise::DRAFT_SET));
    s.set_item(exercise::DRAFT_KEY, text).is_ok()
}

/// The program text kept by the last visit, if any.
pub fn load_program() -> Option<String> {
    local_storage()?.get_item(PROGRAM_KEY).ok().flatten()
}

/// Keeps the program text for the next visit.
pub fn save_program(text: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(PROGRAM_KEY, text);
    }
}

/// The student's kept previous programs
/// ([`crate::model::program_history`]); empty when there are none.
pub fn load_history() -> crate::model::program_history::ProgramHistory {
    local_storage()
        .and_then(|s| s.get_item(crate::model::program_history::HISTORY_KEY).ok().flatten())
        .map(|t| crate::model::program_history::ProgramHistory::from_text(&t))
        .unwrap_or_default()
}

/// Keeps the previous programs for the next visit.
pub fn save_history(history: &crate::model::program_history::ProgramHistory) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(crate::model::program_history::HISTORY_KEY, &history.to_text());
    }
}
