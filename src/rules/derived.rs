//! Rule sets that play exactly like another one but for a start position, the killer rule or
//! the goal of the game: Portuguese (Spanish), frysk! (Frisian), killer, antidraughts and
//! breakthrough (International), and giveaway checkers (English).

use super::{English, Frisian, Goal, International, Rules, Spanish, Variant};

/// Declares `$name`, a rule set equal to `$base` except for the listed constants.
macro_rules! derived_rules {
    ($(#[$doc:meta])* $name:ident from $base:ty, $variant:expr,
     start_rows: $start:expr, killer: $killer:expr, goal: $goal:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl Rules for $name {
            type Geo = <$base as Rules>::Geo;
            const VARIANT: Variant = $variant;
            const START_ROWS: (u32, u32) = $start;
            const KILLER: bool = $killer;
            const GOAL: Goal = $goal;
            const FIRST_TO_MOVE: crate::board::types::Side = <$base>::FIRST_TO_MOVE;
            const MEN_CAPTURE_BACKWARDS: bool = <$base>::MEN_CAPTURE_BACKWARDS;
            const FLYING_KINGS: bool = <$base>::FLYING_KINGS;
            const PROMOTION_IN_CAPTURE: super::PromotionInCapture = <$base>::PROMOTION_IN_CAPTURE;
            const REMOVE_CAPTURED_AT_ONCE: bool = <$base>::REMOVE_CAPTURED_AT_ONCE;
            const NO_REVERSAL: bool = <$base>::NO_REVERSAL;
            const PRECEDENCE: super::CapturePrecedence = <$base>::PRECEDENCE;
            const MIRRORED: bool = <$base>::MIRRORED;
            const NUMBERING: super::Numbering = <$base>::NUMBERING;
            const ALGEBRAIC: bool = <$base>::ALGEBRAIC;
            const HUB_NUMBERING: super::Numbering = <$base>::HUB_NUMBERING;
            const HUB_TURNED: bool = <$base>::HUB_TURNED;
            const CAPTURE_DIRECTIONS: usize = <$base>::CAPTURE_DIRECTIONS;
            const MEN_CAPTURE_KINGS: bool = <$base>::MEN_CAPTURE_KINGS;
            const KING_LANDS_RIGHT_BEHIND: bool = <$base>::KING_LANDS_RIGHT_BEHIND;
            const MIN_DUPLICATE_CAPTURES: u32 = <$base>::MIN_DUPLICATE_CAPTURES;
            const MIN_DUPLICATE_MAN_CAPTURES: u32 = <$base>::MIN_DUPLICATE_MAN_CAPTURES;
        }
    };
}

derived_rules!(
    /// Portuguese draughts (FPD): played as Spanish, most pieces then most kings. (The FPD text
    /// reportedly makes a king switch to a perpendicular diagonal when it can capture there;
    /// DCTL does not, and neither do we until a source settles it.)
    Portuguese from Spanish, Variant::Portuguese,
    start_rows: (0, 3), killer: false, goal: Goal::Normal
);
derived_rules!(
    /// frysk!: Frisian rules from a start of five men each on the back row.
    Frysk from Frisian, Variant::Frysk,
    start_rows: (0, 1), killer: false, goal: Goal::Normal
);
derived_rules!(
    /// Killer draughts: International, but a king whose last captured piece is a king stops on
    /// the square right behind it.
    Killer from International, Variant::Killer,
    start_rows: (0, 4), killer: true, goal: Goal::Normal
);
derived_rules!(
    /// Antidraughts (lidraughts): International moves; a side without a legal move wins.
    Antidraughts from International, Variant::Antidraughts,
    start_rows: (0, 4), killer: false, goal: Goal::Losing
);
derived_rules!(
    /// Breakthrough (lidraughts): International moves; the first side to crown a king wins.
    Breakthrough from International, Variant::Breakthrough,
    start_rows: (0, 4), killer: false, goal: Goal::Breakthrough
);
derived_rules!(
    /// Giveaway checkers: English moves; a side without a legal move wins.
    EnglishLosing from English, Variant::EnglishLosing,
    start_rows: (0, 3), killer: false, goal: Goal::Losing
);
