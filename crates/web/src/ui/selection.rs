//! The Yew side of linked selection: one [`Selection`] for the whole page,
//! shared through a context.
//!
//! The `App` component owns the selection and provides a
//! [`SelectionContext`]; any component reads it with [`use_selection`] and
//! changes it with [`SelectionContext::click`] (toggle: clicking the
//! selected thing again clears it) or [`SelectionContext::set`]. What each
//! panel highlights for it comes from [`Selection::resolve`], which is plain
//! Rust (see [`crate::model::selection`]).

use yew::prelude::*;

use crate::model::selection::Selection;

/// The page's selection and how to change it (provided by `App`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SelectionContext {
    /// What is selected now.
    pub selection: Selection,
    /// Replaces the selection.
    pub on_change: Callback<Selection>,
}

impl SelectionContext {
    /// Selects `clicked`, or clears the selection when it is already selected.
    pub fn click(&self, clicked: Selection) {
        self.on_change.emit(self.selection.toggle(clicked));
    }

    /// Replaces the selection (e.g. [`Selection::None`] to clear it).
    pub fn set(&self, selection: Selection) {
        self.on_change.emit(selection);
    }
}

/// The page's selection context; outside a provider, an empty selection
/// whose changes go nowhere.
#[hook]
pub fn use_selection() -> SelectionContext {
    use_context::<SelectionContext>().unwrap_or_default()
}
