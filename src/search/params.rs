//! The search's tunable numbers, in one place, so that a tuner (SPSA, as chess engines' testing
//! frameworks run it) or a person with the match tool can change them.
//!
//! Depends on nothing else in the crate.

/// Reverse futility pruning (a "static null move"): at a node this many plies from the
/// horizon or fewer, where nobody can capture, a static evaluation this far above beta per ply
/// left is taken as a cut.
pub const STATIC_CUT_DEPTH: i32 = 3;
/// See [`STATIC_CUT_DEPTH`]; in hundredths of a man.
pub const STATIC_CUT_MARGIN: i32 = 80;
/// Bound of a history entry, in either direction (quiet moves are ordered by it).
pub const HISTORY_MAX: i32 = 1 << 14;
