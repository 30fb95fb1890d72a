//! The vocabulary every layer shares: square sets as machine words ([`bitset`]), the board
//! shapes and their bit layouts ([`geometry`]), sides and piece kinds ([`types`]), and the move
//! type and move list ([`moves`]).
//!
//! Depends on nothing else in the crate; everything else depends on it.

pub mod bitset;
pub mod geometry;
pub mod moves;
pub mod types;
