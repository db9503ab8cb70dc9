//! What the page keeps in the browser's local storage besides the program
//! text (which `app` stores): the analysis configuration chosen in the
//! analysis pane, so it survives a reload. Stored in the share-link format
//! ([`crate::share`], with an empty program), so it is validated the same
//! way when read back; anything unreadable is ignored.

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

#[cfg(target_arch = "wasm32")]
fn local_storage() -> Option<web_sys::Storage> {
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
