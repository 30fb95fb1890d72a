//! damas: a checkers and draughts engine.
//!
//! The rules library (geometry, rules, positions, move generation, notation) is usable on its
//! own, without search, threads or I/O:
//!
//! ```
//! use damas::movegen::perft::{perft, Convention};
//! use damas::position::Position;
//! use damas::rules::International;
//!
//! let start = Position::<International>::start();
//! assert_eq!(perft(&start, 3, Convention::Unique), 658);
//! ```

#![warn(missing_docs)]
#![deny(unsafe_code)]
// A direction is an index into several tables at once (shifts, source masks, allowed-direction
// masks), so move generation loops over `0..4` rather than over one of the tables.
#![allow(clippy::needless_range_loop)]

pub mod analyze;
pub mod bench;
pub mod bitset;
pub mod book;
pub mod datagen;
pub mod egdb;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod matchplay;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod train;
pub mod types;
