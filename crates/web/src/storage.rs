//! What the page keeps in the browser's local storage besides the program
//! text (which `app` stores): the analysis configuration chosen in the
//! analysis pane, so it survives a reload, and each exercise set's progress
//! ([`crate::exercise::Progress`]). The configuration is stored in the
//! share-link format ([`crate::share`], with an empty program), so it is
//! validated the same way when read back; anything unreadable is ignored.

use crate::analysis::RunSpec;
use crate::share::{decode, encode, ShareState};

/// The local-storage key of the configuration.
pub const CONFIG_KEY: &str = "cpa-playground.config";

/// The stored text for `spec`.
pub fn spec_to_text(spec: &RunSpec) -> String {
    encode(&ShareState::new("", spec))
}

/// The configuration stored as `text`, if it is a valid one.
pub fn spec_from_text(text: &str) -> Option<RunSpec> {
    let state = decode(text).ok()??;
    state.validate().ok()?;
    Some(state.spec())
}

/// The browser's local storage, if the page may use it (browser only).
#[cfg(target_arch = "wasm32")]
pub fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The configuration saved by the last visit, if any (browser only).
#[cfg(target_arch = "wasm32")]
pub fn load_spec() -> Option<RunSpec> {
    spec_from_text(&local_storage()?.get_item(CONFIG_KEY).ok()??)
}

/// Saves the configuration (browser only; a full or disabled storage is
/// ignored: the page works without it).
#[cfg(target_arch = "wasm32")]
pub fn save_spec(spec: &RunSpec) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(CONFIG_KEY, &spec_to_text(spec));
    }
}

/// The progress kept for exercise set `set` (a fresh start when there is
/// none or it is unreadable; browser only).
#[cfg(target_arch = "wasm32")]
pub fn load_progress(set: &str) -> crate::exercise::Progress {
    local_storage()
        .and_then(|s| s.get_item(&crate::exercise::storage_key(set)).ok().flatten())
        .map(|t| crate::exercise::Progress::from_json(&t))
        .unwrap_or_default()
}

/// Keeps the progress of exercise set `set` (a full or disabled storage:
/// it lasts until the tab closes; browser only).
#[cfg(target_arch = "wasm32")]
pub fn save_progress(set: &str, progress: &crate::exercise::Progress) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(&crate::exercise::storage_key(set), &progress.to_json());
    }
}

/// Forgets the progress of exercise set `set` (browser only).
#[cfg(target_arch = "wasm32")]
pub fn forget_progress(set: &str) {
    if let Some(s) = local_storage() {
        let _ = s.remove_item(&crate::exercise::storage_key(set));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minic::IntModel;

    #[test]
    fn a_configuration_round_trips_and_garbage_is_ignored() {
        let spec = RunSpec { preset: "value-join".into(), int_model: IntModel::C, max_steps: 123, properties: None };
        assert_eq!(spec_from_text(&spec_to_text(&spec)), Some(spec));
        assert_eq!(spec_from_text(&spec_to_text(&RunSpec::default())), Some(RunSpec::default()));
        for bad in ["", "octagon-widening", "#s=1zzzz", "\u{0}"] {
            assert_eq!(spec_from_text(bad), None, "{bad:?}");
        }
        let unknown = RunSpec { preset: "no-such-preset".into(), ..RunSpec::default() };
        assert_eq!(spec_from_text(&spec_to_text(&unknown)), None, "an unknown preset is not restored");
    }
}
