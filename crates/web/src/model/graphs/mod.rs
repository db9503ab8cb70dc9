//! The graphs the page draws, as positioned nodes and edges in SVG
//! coordinates: the control-flow automaton ([`cfa`]), the abstract
//! reachability graph ([`arg`]), and the layered layout both use
//! ([`layout`]). Rendered by `crate::ui::graphs`.

pub mod arg;
pub mod cfa;
pub mod layout;
