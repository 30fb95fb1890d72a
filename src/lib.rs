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

pub mod bitset;
pub mod cli;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod position;
pub mod rules;
pub mod notation;
pub mod types;
