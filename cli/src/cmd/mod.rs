//! The commands, one module each: its arguments (`Args`, with the shared ones of `crate::args`
//! flattened in) and its run (`run`). `main` parses and dispatches; a new command is a module
//! here and a variant of `main`'s `Command`.

pub mod check;
pub mod dedup;
pub mod explore;
pub mod export;
pub mod filter;
pub mod find;
pub mod fmt;
pub mod json;
pub mod split;
pub mod stats;
