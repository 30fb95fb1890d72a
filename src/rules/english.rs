//! English/American checkers (WCDF and ACF rules).

use super::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Variant};
use crate::board::geometry::Board8;
use crate::board::types::Side;

/// English/American checkers: 8x8, Black (squares 1-12) moves first, short kings, men capture
/// forward only, free choice among captures, crowning ends the move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct English;

impl Rules for English {
    type Geo = Board8;
    const VARIANT: Variant = Variant::English;
    const FIRST_TO_MOVE: Side = Side::Black; // WCDF 1.4: Black moves first
    const START_ROWS: (u32, u32) = (0, 3); // 12 men on the three nearest rows
    const MEN_CAPTURE_BACKWARDS: bool = false; // men jump forward only
    const FLYING_KINGS: bool = false; // kings step and jump one square
    const PROMOTION_IN_CAPTURE: PromotionInCapture = PromotionInCapture::EndsMove; // WCDF 1.20
    const REMOVE_CAPTURED_AT_ONCE: bool = false; // no piece is jumped twice
    const NO_REVERSAL: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::Free; // any jump may be chosen
    const MIRRORED: bool = false; // single corner at each player's near left
    const NUMBERING: Numbering = Numbering::TopLeft; // 1 = b8 ... 32 = g1
    const ALGEBRAIC: bool = false;
    const HUB_NUMBERING: Numbering = Numbering::TopLeft;
    const HUB_TURNED: bool = true; // pydraughts models the first mover as "White"
}
