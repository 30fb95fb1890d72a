//! Turkish draughts (dama; rules.md section 1.11).
//!
//! Promotion in mid-capture: sources disagree. We follow kish's RULES.md 7.2 (the source of the
//! published perft table): a man reaching the back row in mid-capture finishes the sequence as a
//! man and is crowned only if the sequence ends there.

use super::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Variant};
use crate::board::geometry::Orthogonal8;
use crate::board::types::Side;

/// Turkish draughts: all 64 squares, 16 men each on rows 2-3, men move forward or sideways,
/// kings fly along ranks and files, captured pieces leave at once, no 180 degree turn between
/// jumps, the capture taking the most pieces is compulsory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Turkish;

impl Rules for Turkish {
    type Geo = Orthogonal8;
    const VARIANT: Variant = Variant::Turkish;
    const FIRST_TO_MOVE: Side = Side::White;
    const START_ROWS: (u32, u32) = (1, 2); // rows 2-3, back row empty
    const MEN_CAPTURE_BACKWARDS: bool = false; // forward and sideways only
    const FLYING_KINGS: bool = true;
    const PROMOTION_IN_CAPTURE: PromotionInCapture = PromotionInCapture::OnlyAtEnd;
    const REMOVE_CAPTURED_AT_ONCE: bool = true;
    const NO_REVERSAL: bool = true;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::MostPieces;
    const MIRRORED: bool = false;
    const NUMBERING: Numbering = Numbering::TopLeft; // pydraughts: 1 = a8 ... 64 = h1
    const ALGEBRAIC: bool = true;
    const HUB_NUMBERING: Numbering = Numbering::BottomLeft; // a1 = 1 ... h8 = 64
}
