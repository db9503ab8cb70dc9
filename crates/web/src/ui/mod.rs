//! The Yew components (browser only). `ui::X` renders `crate::model::X`;
//! [`page`] is the playground, [`root::Root`] the entry point that
//! opens an exercise link or mounts the playground.

pub mod analysis;
pub mod blocks;
pub mod compare;
pub mod config_panel;
pub mod dialogs;
pub mod editor;
pub mod error_path;
pub mod example_guide;
pub mod exercise;
pub mod exercise_bar;
pub mod gallery;
pub mod graphs;
pub mod inspector;
pub mod make_exercise;
pub mod memory_view;
pub mod page;
pub mod predict;
pub mod program_history;
pub mod root;
pub mod run;
pub mod selection;
pub mod share;
pub mod solver;
pub mod state_list;
pub mod tabs;
pub mod transformation;
pub mod update_notice;
