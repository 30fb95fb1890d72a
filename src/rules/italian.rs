//! Italian draughts (FID technical regulations, Capo I; rules.md section 1.7).

use super::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Variant};
use crate::board::geometry::Board8;
use crate::board::types::Side;

/// Italian draughts: 8x8 turned (dark corner at each player's near right), White first, men
/// move and capture forward only and may never capture a king, short kings, and the FID
/// capture order: most pieces, then by a king, then most kings, then kings met earliest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Italian;

impl Rules for Italian {
    type Geo = Board8;
    const VARIANT: Variant = Variant::Italian;
    const FIRST_TO_MOVE: Side = Side::White;
    const START_ROWS: (u32, u32) = (0, 3);
    const MEN_CAPTURE_BACKWARDS: bool = false; // 5.3
    const MEN_CAPTURE_KINGS: bool = false; // 5.3: a man may not capture a king
    const FLYING_KINGS: bool = false; // 4.7
    const PROMOTION_IN_CAPTURE: PromotionInCapture = PromotionInCapture::EndsMove;
    const REMOVE_CAPTURED_AT_ONCE: bool = false;
    const NO_REVERSAL: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::Italian; // 6.6-6.9
    const MIRRORED: bool = true; // 2.3: board turned
    const NUMBERING: Numbering = Numbering::TopLeft; // 1 = a8 (Black's right-hand corner)
    const ALGEBRAIC: bool = false;
    const HUB_NUMBERING: Numbering = Numbering::TopLeft;
}
