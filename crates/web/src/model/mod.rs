//! The page's model: plain Rust data and pure functions, no Yew and no
//! web-sys, so all of it is tested natively. Each module is rendered by the
//! `ui` module of the same name (where there is one).

pub mod analysis;
pub mod blocks;
pub mod compare;
pub mod config_choice;
pub mod config_panel;
pub mod editor;
pub mod engine_link;
pub mod error_path;
pub mod exercise;
pub mod gallery;
pub mod graphs;
pub mod memory_view;
pub mod merge_card;
pub mod octagon_plot;
pub mod page;
pub mod predict;
pub mod program_history;
pub mod run_driver;
pub mod selection;
pub mod share;
pub mod solver;
pub mod state_list;
pub mod state_view;
pub mod storage;
pub mod transformation;
