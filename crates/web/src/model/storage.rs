//! What the page keeps in the browser's local storage, as text: the
//! editor's program ([`PROGRAM_KEY`], stored as it is), the analysis
//! configuration chosen in the analysis pane ([`CONFIG_KEY`]), so it
//! survives a reload, and each exercise set's progress
//! ([`crate::model::exercise::Progress`]). The configuration is stored in
//! the share-link format ([`crate::model::share`], with an empty program),
//! so it is validated the same way when read back; anything unreadable is
//! ignored. Reading and writing the storage itself is
//! `crate::platform::storage`.

use crate::model::analysis::RunSpec;
use crate::model::share::{decode, encode, ShareState};

/// The local-storage key of the editor's program text.
pub const PROGRAM_KEY: &str = "cpa-playground.program";

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
