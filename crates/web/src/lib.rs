//! # web — the CPA Playground page
//!
//! The page is a Yew app compiled to WebAssembly by Trunk (entry
//! `www/index.html`). It is split in two:
//!
//! - [`view`]: the page's state and everything it shows, as plain Rust data
//!   (no Yew, no web-sys), tested natively by `cargo test --workspace`;
//! - [`analysis`]: a run of the CPA algorithm in the page (computed in
//!   slices, seeked with `engine::view::Cursor`) and the panels shown at the
//!   cursor's event (step in words, waitlist, reached set, statistics,
//!   highlights), as plain Rust data, tested natively;
//! - `app` and `analysis_app` (only when compiled for `wasm32`): the Yew
//!   components that render [`view::Model`] and [`analysis::Panels`] and turn
//!   user input into actions.
//!
//! - [`solver`]: Z3 in the page (loaded lazily through `www/js/z3-glue.mjs`)
//!   and the log of every query; `solver_app` is its Yew panel.
//!
//! - [`share`]: share links (program, configuration, step in the URL
//!   fragment), plain Rust; `share_app` is the button and the restore.
//!
//! - [`compare`]: two or three configurations stepped in sync (divergence,
//!   series, summary, heat), plain Rust; `compare_app` is the view.
//!
//! - [`config_panel`]: the configuration form and its properties text kept
//!   in sync, plain Rust; `config_app` is the panel.
//!
//! - [`gallery`]: the examples (`static/examples/NAME.c` + `NAME.md`), the
//!   Markdown parsed into safe text blocks, plain Rust; `gallery_app` is the
//!   dialog, which opens an example through the share-link restore.
//!
//! - [`selection`]: linked selection (a node, edge or state highlighted in
//!   every panel), plain Rust; `linked` shares it through a Yew context.
//!
//! - [`editor`]: the CodeMirror editor (bundled from `www/js/editor.mjs`)
//!   bound with wasm-bindgen, and the diagnostic ranges it marks.
//!
//! - [`octagon_plot`]: an octagon state projected on two variables, as a
//!   polygon in its interval box with axes (SVG coordinates), plain Rust.
//!
//! - [`state_view`]: one state made readable (values, octagon constraints,
//!   the DBM as a table); [`predict`]: predict mode's questions and their
//!   grading against the trace; `inspector_app` and `predict_app` render them.
//!   [`storage`]: the configuration and each exercise set's progress kept
//!   across reloads.
//!
//! - [`exercise`]: exercises in the page (routes, the set's files fetched
//!   in rounds, draft answers, grading in slices, progress and its export),
//!   plain Rust; `exercise_app` is the exercise pane above the playground.
//!
//! Architecture invariant: the page runs the same `minic`/`cfa` code as the
//! command-line tool; it has no front end of its own.

pub mod analysis;
pub mod arg;
pub mod cfa_graph;
pub mod compare;
pub mod config_panel;
pub mod editor;
pub mod exercise;
pub mod gallery;
pub mod layout;
pub mod octagon_plot;
pub mod predict;
pub mod selection;
pub mod share;
pub mod solver;
pub mod state_view;
pub mod storage;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod analysis_app;
#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod compare_app;
#[cfg(target_arch = "wasm32")]
pub mod config_app;
#[cfg(target_arch = "wasm32")]
pub mod exercise_app;
#[cfg(target_arch = "wasm32")]
pub mod gallery_app;
#[cfg(target_arch = "wasm32")]
pub mod graphs_app;
#[cfg(target_arch = "wasm32")]
pub mod inspector_app;
#[cfg(target_arch = "wasm32")]
pub mod linked;
#[cfg(target_arch = "wasm32")]
pub mod predict_app;
#[cfg(target_arch = "wasm32")]
pub mod share_app;
#[cfg(target_arch = "wasm32")]
pub mod solver_app;
