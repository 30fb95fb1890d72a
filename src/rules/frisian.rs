//! Frisian draughts (KNDB/FRB rules; rules.md section 1.12).
//!
//! King value in the precedence rule: sources give "a king is worth a man and a half"
//! (Wikipedia) or "n kings are worth more than 2n - 1 and less than 2n men" (Halbersma, mlwi,
//! DCTL's "just under two men"). We follow the second, the federation's counting as the
//! published perft tables use it. The limit of three consecutive non-capturing moves by one king
//! is a rule of the game's history, kept by the game layer (`game::KingStreak`) and by the
//! search's tree, not by move generation.

use super::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Variant};
use crate::board::geometry::Board10;
use crate::board::types::Side;

/// Frisian draughts: the international board and start; men and kings capture diagonally and
/// orthogonally; the capture of highest value is compulsory (a king just under two men), and
/// among equal values a capture by a king.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frisian;

impl Rules for Frisian {
    type Geo = Board10;
    const VARIANT: Variant = Variant::Frisian;
    const FIRST_TO_MOVE: Side = Side::White;
    const START_ROWS: (u32, u32) = (0, 4);
    const CAPTURE_DIRECTIONS: usize = 8;
    const MIN_DUPLICATE_CAPTURES: u32 = 2;
    // A man's shortest loop is a triangle of jumps (two diagonal, one orthogonal).
    const MIN_DUPLICATE_MAN_CAPTURES: u32 = 3;
    const MEN_CAPTURE_BACKWARDS: bool = true;
    const FLYING_KINGS: bool = true;
    const PROMOTION_IN_CAPTURE: PromotionInCapture = PromotionInCapture::OnlyAtEnd;
    const REMOVE_CAPTURED_AT_ONCE: bool = false;
    const NO_REVERSAL: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::HighestValue;
    const MIRRORED: bool = false;
    const NUMBERING: Numbering = Numbering::TopLeft;
    const ALGEBRAIC: bool = false;
    const HUB_NUMBERING: Numbering = Numbering::TopLeft;
}
