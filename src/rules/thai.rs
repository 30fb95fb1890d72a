//! Thai draughts, mak-hot (no federation text; rules.md section 1.10).
//!
//! Who moves first is not fixed by the sources; Thai sites let White start, and so do we.
//! 180-degree turns in a king's capture are allowed (fandom, coldmoon, DCTL).

use super::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Variant};
use crate::board::geometry::Board8;
use crate::board::types::Side;

/// Thai draughts: 8 men each on the two nearest rows, men move and capture forward only,
/// kings move any distance but land right behind the piece they take, captured pieces are
/// lifted at once, free choice of capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Thai;

impl Rules for Thai {
    type Geo = Board8;
    const VARIANT: Variant = Variant::Thai;
    const FIRST_TO_MOVE: Side = Side::White;
    const START_ROWS: (u32, u32) = (0, 2);
    const MEN_CAPTURE_BACKWARDS: bool = false;
    const FLYING_KINGS: bool = true;
    const KING_LANDS_RIGHT_BEHIND: bool = true;
    const PROMOTION_IN_CAPTURE: PromotionInCapture = PromotionInCapture::EndsMove;
    const REMOVE_CAPTURED_AT_ONCE: bool = true;
    const NO_REVERSAL: bool = false;
    const PRECEDENCE: CapturePrecedence = CapturePrecedence::Free;
    const MIRRORED: bool = false;
    const NUMBERING: Numbering = Numbering::TopLeft; // PDN GameType 31: N2
    const ALGEBRAIC: bool = false;
    const HUB_NUMBERING: Numbering = Numbering::TopLeft;
}
