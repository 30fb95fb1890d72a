//! American pool checkers (APCA tournament rules; rules.md section 1.6).

use super::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Variant};
use crate::board::geometry::Board8;
use crate::board::types::Side;

/// Pool checkers: 8x8, Black (squares 1-12) first, flying kings, men capture backwards, free
/// choice of capture, a man crossing the crown row in mid-capture goes on as a man.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool;

impl Rules for Pool {
    type Geo = Board8;
    const VARIANT: Variant = Variant::Pool;
    const FIRST_TO_MOVE: Side = Side::Black;
    const START_ROWS: (u32, u32) = (0, 3);
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PROMOTION_IN_CAPTURE: PromotionInCapture = PromotionInCapture::OnlyAtEnd;
    const REMOVE_CAPTURED_AT_ONCE: bool = false;
    const NO_REVERSAL: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::Free;
    const MIRRORED: bool = false;
    const NUMBERING: Numbering = Numbering::TopLeft; // as English: 1 = b8
    const ALGEBRAIC: bool = false;
    const HUB_NUMBERING: Numbering = Numbering::TopLeft;
}
