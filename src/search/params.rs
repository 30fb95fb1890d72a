//! The search's tunable numbers, in one place, so that a tuner (SPSA, as chess engines' testing
//! frameworks run it) or a person with the match tool can change them.
//!
//! Depends on the rules library only (which rule set a number is for).

use crate::rules::{Rules, Variant};

/// Reverse futility pruning (a "static null move"): at a node this many plies from the
/// horizon or fewer, where nobody can capture, a static evaluation this far above beta per ply
/// left is taken as a cut.
pub const STATIC_CUT_DEPTH: i32 = 3;
/// See [`STATIC_CUT_DEPTH`]; in hundredths of a man.
pub const STATIC_CUT_MARGIN: i32 = 80;
/// Bound of a history entry, in either direction (quiet moves are ordered by it).
pub const HISTORY_MAX: i32 = 1 << 14;
/// ProbCut: at a node of the kind [`probcut`] names, at least this many plies from the horizon,
/// off the principal variation, a null-window search at [`PROBCUT_DEPTH_PERCENT`] of the depth
/// against beta + [`PROBCUT_MARGIN`] a ply that holds is taken as a cut.
pub const PROBCUT_DEPTH: i32 = 3;
/// See [`PROBCUT_DEPTH`]: the shallow search's depth, in percent of the node's.
pub const PROBCUT_DEPTH_PERCENT: i32 = 40;
/// See [`PROBCUT_DEPTH`]; in hundredths of a man a ply.
pub const PROBCUT_MARGIN: i32 = 10;
/// See [`PROBCUT_DEPTH`]: not in endings of this many pieces or fewer, where a quiet
/// manoeuvre that the shallow search cannot see is often the point.
pub const PROBCUT_MIN_PIECES: u32 = 8;

/// The nodes where ProbCut may cut, per rule set.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ProbCutNodes {
    /// Nowhere.
    None,
    /// Quiet nodes only: neither side can capture.
    Quiet,
    /// Only nodes where the side to move must capture.
    Captures,
}

/// Where rule set `R` searches with ProbCut. Measured at 0.03 s a move (the README's search
/// table): at quiet nodes in English (+26 Elo), Russian (+34) and Italian (+27 in 800 games);
/// not in Brazilian (+8) and Spanish (+10), within the noise. International lost at quiet nodes
/// (-30), gained little with ProbCut everywhere (+22) and gains at the nodes where a capture is
/// due only (+67; likely because forced captures are extended a ply each, and the cut saves
/// long forced lines that lead nowhere). Its price: a shot that begins with a sacrifice is seen
/// some plies later (the Coup Philippe of the tactics suite at depth 9 instead of 4).
/// The other rule sets are not measured yet and keep the search without it.
pub fn probcut<R: Rules>() -> ProbCutNodes {
    match R::VARIANT {
        Variant::English | Variant::Russian | Variant::Italian => ProbCutNodes::Quiet,
        Variant::International => ProbCutNodes::Captures,
        _ => ProbCutNodes::None,
    }
}
