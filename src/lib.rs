//! damas: a checkers and draughts engine.
//!
//! The rules library (board, rules, positions, move generation, notation, game) is usable on its
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

// The rules library: usable alone, no search, threads or I/O.
pub mod board;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod rules;

// The engine: what it knows and how it thinks, each subsystem behind a small API handed to the
// search through its configuration; and the bounded reading of every file and line they take.
pub mod book;
pub mod bounded;
pub mod checksum;
pub mod egdb;
pub mod eval;
pub mod search;
pub mod shard;
pub mod train;

// Its front ends: the protocols on stdin/stdout and TCP, and the match referee.
pub mod matchplay;
pub mod protocol;
