//! Spanish draughts (FEDA; rules.md section 1.8).

use super::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Variant};
use crate::board::geometry::Board8;
use crate::board::types::Side;

/// Spanish draughts: 8x8 turned (playable corner at each player's near right), White on 1-12
/// moves first, flying kings, men capture forward only, most pieces then most kings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Spanish;

impl Rules for Spanish {
    type Geo = Board8;
    const VARIANT: Variant = Variant::Spanish;
    const FIRST_TO_MOVE: Side = Side::White;
    const START_ROWS: (u32, u32) = (0, 3);
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = true;
    const PROMOTION_IN_CAPTURE: PromotionInCapture = PromotionInCapture::EndsMove;
    const REMOVE_CAPTURED_AT_ONCE: bool = false;
    const NO_REVERSAL: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPiecesThenKings; // quantity, quality
    const MIRRORED: bool = true;
    const NUMBERING: Numbering = Numbering::BottomRight; // 1 = h1, right to left, upwards
    const ALGEBRAIC: bool = false;
    const HUB_NUMBERING: Numbering = Numbering::BottomRight;
}
