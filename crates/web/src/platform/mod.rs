//! The browser's services, each behind a few plain functions so that the
//! components in `crate::ui` never call web-sys or JavaScript themselves
//! (browser only).

pub mod clipboard;
pub mod clock;
pub mod codemirror;
pub mod dialog;
pub mod engine_scope;
pub mod engine_worker;
pub mod files;
pub mod location;
pub mod region_hover;
pub mod service_worker;
pub mod storage;
pub mod z3;
pub mod z3_worker;
