//! Russian draughts (FSR Kodeks 2004; rules.md section 1.5).

use super::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Variant};
use crate::board::geometry::Board8;
use crate::board::types::Side;

/// Russian draughts: 8x8, White first, flying kings, men capture backwards, free choice of
/// capture, a man crowned in mid-capture continues as a king.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Russian;

impl Rules for Russian {
    type Geo = Board8;
    const VARIANT: Variant = Variant::Russian;
    const FIRST_TO_MOVE: Side = Side::White;
    const START_ROWS: (u32, u32) = (0, 3);
    const MEN_CAPTURE_BACKWARDS: bool = true; // Kodeks 1.5.3
    const FLYING_KINGS: bool = true; // Kodeks 1.4.5
    const PROMOTION_IN_CAPTURE: PromotionInCapture = PromotionInCapture::ContinuesAsKing; // 1.5.15
    const REMOVE_CAPTURED_AT_ONCE: bool = false;
    const NO_REVERSAL: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::Free;
    const MIRRORED: bool = false;
    const NUMBERING: Numbering = Numbering::TopLeft;
    const ALGEBRAIC: bool = true;
    const HUB_NUMBERING: Numbering = Numbering::BottomLeft;
}
