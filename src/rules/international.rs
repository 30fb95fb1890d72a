//! International draughts (FMJD rules, Annex 1).

use super::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Variant};
use crate::board::geometry::Board10;
use crate::board::types::Side;

/// International draughts: 10x10, White first, flying kings, men capture backwards, the
/// capture taking the most pieces is compulsory, a man is crowned only if its move ends on the
/// far row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct International;

impl Rules for International {
    type Geo = Board10;
    const VARIANT: Variant = Variant::International;
    const FIRST_TO_MOVE: Side = Side::White; // 2.8
    const START_ROWS: (u32, u32) = (0, 4); // 2.8: 20 men on the four nearest rows
    const MEN_CAPTURE_BACKWARDS: bool = true; // 4.1
    const FLYING_KINGS: bool = true; // 3.x, 4.3
    const PROMOTION_IN_CAPTURE: PromotionInCapture = PromotionInCapture::OnlyAtEnd; // 4.15
    const REMOVE_CAPTURED_AT_ONCE: bool = false; // 4.5-4.6: lifted after the move
    const NO_REVERSAL: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPieces; // 4.13
    const MIRRORED: bool = false; // 2.4
    const NUMBERING: Numbering = Numbering::TopLeft; // 2.6: 1 = b10 ... 50 = i1
    const ALGEBRAIC: bool = false;
    const HUB_NUMBERING: Numbering = Numbering::TopLeft;
}
