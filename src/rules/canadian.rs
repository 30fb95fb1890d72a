//! Canadian draughts (international rules on 12x12; rules.md section 1.13).

use super::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Variant};
use crate::board::geometry::Board12;
use crate::board::types::Side;

/// Canadian draughts: the international rules on a 12x12 board with 30 men each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Canadian;

impl Rules for Canadian {
    type Geo = Board12;
    const VARIANT: Variant = Variant::Canadian;
    const FIRST_TO_MOVE: Side = Side::White;
    const START_ROWS: (u32, u32) = (0, 5);
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PROMOTION_IN_CAPTURE: PromotionInCapture = PromotionInCapture::OnlyAtEnd;
    const REMOVE_CAPTURED_AT_ONCE: bool = false;
    const NO_REVERSAL: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPieces;
    const MIRRORED: bool = false;
    const NUMBERING: Numbering = Numbering::TopLeft; // 1-72, PDN GameType 27: N2
    const ALGEBRAIC: bool = false;
    const HUB_NUMBERING: Numbering = Numbering::TopLeft;
}
