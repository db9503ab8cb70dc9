//! # web — the CPA Playground page
//!
//! The page is a Yew app compiled to WebAssembly by Trunk (entry
//! `www/index.html`). It is three layers, each in its own folder, and
//! imports only go downwards (`ui` → `platform` → `model`, `ui` → `model`):
//!
//! - [`model`]: everything the page knows and shows, as plain Rust data (no
//!   Yew, no web-sys): the page's state, a run of the CPA algorithm and the
//!   panels at the cursor's event, the graphs' layouts, the compare view,
//!   share links, the gallery, exercises, the solver log. Compiled and tested
//!   natively by `cargo test --workspace`.
//! - `platform` (browser only): the browser's services, each behind a few
//!   plain functions: the clock, the clipboard, local storage, the address
//!   (fragment, reload), dialogs, files (fetch, download), Z3 (in its own
//!   Web Worker) and the CodeMirror editor.
//! - `ui` (browser only): the Yew components. Each `ui::X` renders
//!   `model::X` and turns user input into calls on it; `ui::page` is the
//!   whole playground, `ui::exercise::Root` the entry point.
//!
//! Architecture invariant: the page runs the same `minic`/`cfa`/`engine`
//! code as the command-line tool; it has no front end or analysis of its
//! own, and every decision the page makes is in `model`, where it is tested
//! natively.

pub mod model;

#[cfg(target_arch = "wasm32")]
pub mod platform;
#[cfg(target_arch = "wasm32")]
pub mod ui;
