//! Evaluation weights, all in one place so that a tuner can change them. Units: a man is 100.

use crate::rules::{Goal, Rules};

/// Weights of the evaluation terms.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king.
    pub king: i32,
    /// Per row a man has advanced, scaled by how far the game has gone (men matter more as the
    /// board empties).
    pub advance: i32,
    /// A man still on its own back row while the opponent has men (guards the crowning squares).
    pub back_rank: i32,
    /// A man on a central square.
    pub centre: i32,
    /// A man that can run to the crowning row unopposed (no enemy piece in its way).
    pub runaway: i32,
    /// Per legal-looking king step (king mobility).
    pub king_mobility: i32,
}

/// The weights for a rule set: the king is worth more where it flies, and the losing variants
/// turn material upside down.
pub fn weights<R: Rules>() -> Weights {
    let king = if !R::FLYING_KINGS {
        150
    } else if <R::Geo as crate::board::geometry::Geometry>::COLUMNS >= 10 {
        320
    } else {
        260
    };
    let base = Weights {
        man: 100,
        king,
        advance: 3,
        back_rank: 8,
        centre: 6,
        runaway: 40,
        king_mobility: 2,
    };
    match R::GOAL {
        Goal::Normal => base,
        Goal::Losing => Weights { man: -100, king: -king, back_rank: 0, runaway: 0, ..base },
        Goal::Breakthrough => Weights { advance: 12, runaway: 200, ..base },
    }
}
