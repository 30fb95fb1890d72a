//! Brazilian draughts (CBD: international rules on 64 squares; rules.md section 1.4).

use super::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Variant};
use crate::board::geometry::Board8;
use crate::board::types::Side;

/// Brazilian draughts: the international rules on the 8x8 board, written algebraically.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Brazilian;

impl Rules for Brazilian {
    type Geo = Board8;
    const VARIANT: Variant = Variant::Brazilian;
    const FIRST_TO_MOVE: Side = Side::White;
    const START_ROWS: (u32, u32) = (0, 3);
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PROMOTION_IN_CAPTURE: PromotionInCapture = PromotionInCapture::OnlyAtEnd;
    const REMOVE_CAPTURED_AT_ONCE: bool = false;
    const NO_REVERSAL: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPieces;
    const MIRRORED: bool = false; // long dark diagonal on each player's left
    const NUMBERING: Numbering = Numbering::TopLeft;
    const ALGEBRAIC: bool = true;
    const HUB_NUMBERING: Numbering = Numbering::BottomLeft;
}
