//! The graphs the page draws, as positioned nodes and edges in SVG
//! coordinates: the control-flow automaton ([`cfa`]), the abstract
//! reachability graph ([`arg`]), and the layered layout both use
//! ([`layout`]); what they draw of a run ([`frame`]) and how a view of
//! them is panned and zoomed ([`viewport`]). Rendered by `crate::ui::graphs`.

pub mod arg;
pub mod cfa;
pub mod frame;
pub mod layout;
pub mod viewport;
