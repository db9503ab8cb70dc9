//! The predicates predicate analysis finds on every gallery example, natively
//! (Debian's z3 — what `cpaplay verify` prints), pinned in
//! `tests/e2e/fixtures/gallery-predicates.json`. The browser test
//! `tests/e2e/predicate-gallery.test.mjs` runs the same examples in the page
//! (with the page's z3-solver) and compares its CEGAR tab with the same
//! file, so the CLI and the page are shown to compute the same predicates.
//!
//! After an intended change of the predicates, regenerate the file with
//! `UPDATE_GALLERY_PREDICATES=1 cargo test -p web --test gallery_predicates`
//! and review its diff.

use engine::cegar::build_verifier;
use engine::trace::Event;
use engine::Config;
use engine::Stepper;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The presets that run predicate analysis.
const PREDICATE_PRESETS: [&str; 2] = ["predicate", "predicate-cartesian"];

fn fixture_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/e2e/fixtures/gallery-predicates.json")
}

/// Example id → preset → the whole predicate precision after the last
/// refinement, each as the page lists it (`predicate scope`).
fn native_predicates() -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let (examples, errors) = web::model::gallery::examples();
    assert!(errors.is_empty(), "{errors:?}");
    let mut out: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for e in &examples {
        let program = Arc::new(cfa::from_source(e.program).unwrap_or_else(|d| panic!("{}: {d:?}", e.id)));
        for preset in PREDICATE_PRESETS {
            if !e.configs.iter().any(|c| c == preset) {
                continue;
            }
            let mut config = Config::preset(preset).unwrap();
            config.set("analysis.intModel", &e.int_model).unwrap();
            let mut analysis = build_verifier(program.clone(), &config, false).unwrap();
            let events = analysis.run();
            let predicates = events
                .iter()
                .rev()
                .find_map(|ev| match ev {
                    Event::Refinement { predicates, .. } => {
                        Some(predicates.iter().map(|p| format!("{} {}", p.predicate, p.scope)).collect())
                    }
                    _ => None,
                })
                .unwrap_or_default();
            out.entry(e.id.to_string()).or_default().insert(preset.to_string(), predicates);
        }
    }
    out
}

#[test]
fn gallery_predicates_match_the_pinned_file() {
    let native = native_predicates();
    assert!(native.len() >= 3, "only {} gallery examples run predicate analysis", native.len());
    let path = fixture_path();
    if std::env::var_os("UPDATE_GALLERY_PREDICATES").is_some() {
        std::fs::write(&path, serde_json::to_string_pretty(&native).unwrap() + "\n").unwrap();
    }
    let pinned: BTreeMap<String, BTreeMap<String, Vec<String>>> =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap();
    assert_eq!(
        native,
        pinned,
        "the predicates differ from {} (if intended: UPDATE_GALLERY_PREDICATES=1 cargo test -p web --test gallery_predicates)",
        path.display()
    );
    // The file pins something: at least one example needs predicates.
    assert!(native.values().flat_map(|m| m.values()).any(|p| !p.is_empty()));
}
