//! Czech draughts (ČSDS rules; rules.md section 1.9).

use super::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Variant};
use crate::board::geometry::Board8;
use crate::board::types::Side;

/// Czech draughts: 8x8, White first, men capture forward only, flying kings, and a capture by a
/// king must be preferred to one by a man; otherwise free choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Czech;

impl Rules for Czech {
    type Geo = Board8;
    const VARIANT: Variant = Variant::Czech;
    const FIRST_TO_MOVE: Side = Side::White;
    const START_ROWS: (u32, u32) = (0, 3);
    const MEN_CAPTURE_BACKWARDS: bool = false; // 4.1
    const FLYING_KINGS: bool = true; // 3.9
    const PROMOTION_IN_CAPTURE: PromotionInCapture = PromotionInCapture::EndsMove;
    const REMOVE_CAPTURED_AT_ONCE: bool = false;
    const NO_REVERSAL: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::KingFirst; // 4.14
    const MIRRORED: bool = false;
    const NUMBERING: Numbering = Numbering::TopLeft;
    const ALGEBRAIC: bool = true;
    const HUB_NUMBERING: Numbering = Numbering::BottomLeft;
}
