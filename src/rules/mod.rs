//! Rule sets: what differs between variants, as associated constants of zero-sized types.
//!
//! Each variant is a marker type implementing [`Rules`]; move generation is generic over it and
//! every `if R::CONSTANT` folds away when the generic code is compiled for that variant. The
//! runtime [`Variant`] enum names a rule set at the program's edge (command line, protocols), and
//! [`with_variant!`](crate::with_variant) turns it into a concrete type once.
//!
//! Depends on `geometry` and `types` only; it must not know about positions or move lists.

mod brazilian;
mod canadian;
mod czech;
mod derived;
mod english;
mod frisian;
mod international;
mod italian;
mod pool;
mod russian;
mod spanish;
mod thai;
mod turkish;

pub use brazilian::Brazilian;
pub use canadian::Canadian;
pub use czech::Czech;
pub use derived::{Antidraughts, Breakthrough, EnglishLosing, Frysk, Killer, Portuguese};
pub use english::English;
pub use frisian::Frisian;
pub use international::International;
pub use italian::Italian;
pub use pool::Pool;
pub use russian::Russian;
pub use spanish::Spanish;
pub use thai::Thai;
pub use turkish::Turkish;

use crate::board::geometry::Geometry;
use crate::board::types::Side;
use std::fmt::{self, Debug};
use std::str::FromStr;

/// What happens when a man reaches the far row in the middle of a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromotionInCapture {
    /// It is crowned and the move ends there, even if the new king could capture on (English).
    EndsMove,
    /// It is crowned at once and goes on capturing as a king (Russian).
    ContinuesAsKing,
    /// It goes on capturing as a man and is crowned only if the sequence ends on the far row
    /// (International, Brazilian, Turkish).
    OnlyAtEnd,
}

/// Which of several available captures the player may choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapturePrecedence {
    /// Any capture (English, Russian).
    Free,
    /// The capture taking the most pieces, kings and men counting alike (International).
    MostPieces,
    /// Most pieces, then most kings among those (Spanish, Portuguese).
    MostPiecesThenKings,
    /// A capture by a king must be preferred to one by a man; otherwise free (Czech).
    KingFirst,
    /// FID order: most pieces; then a capture by a king; then most kings; then the capture that
    /// meets a king earliest (Italian).
    Italian,
    /// Highest value, a king counting just under two men; if equal, a capture by a king
    /// (Frisian).
    HighestValue,
}

/// How a game is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Take or block every enemy piece: a side without a legal move loses.
    Normal,
    /// The losing form: a side without a legal move wins (antidraughts, giveaway checkers).
    Losing,
    /// The first side to crown a king wins (breakthrough).
    Breakthrough,
}

/// How squares are numbered in PDN numeric notation, over the board as the players see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbering {
    /// 1 is the first playable square of the top row (White's view), counting left to right,
    /// row by row downwards (English, International, Italian).
    TopLeft,
    /// 1 is the first playable square of the bottom row from the right, counting right to left,
    /// row by row upwards (Spanish, Portuguese).
    BottomRight,
    /// 1 is the first playable square of the bottom row from the left, counting left to right,
    /// row by row upwards (pydraughts' numbering of Russian, Brazilian and Turkish).
    BottomLeft,
}

/// A rule set. Implemented by zero-sized marker types; see the module documentation.
pub trait Rules: Copy + Clone + Default + Debug + Send + Sync + 'static {
    /// Board shape.
    type Geo: Geometry;
    /// The runtime name of this rule set.
    const VARIANT: Variant;
    /// Who moves first from the start position.
    const FIRST_TO_MOVE: Side;
    /// Rows of men at the start, counted from each side's own back row: (first row, row count).
    const START_ROWS: (u32, u32);
    /// Men capture backwards as well as forwards.
    const MEN_CAPTURE_BACKWARDS: bool;
    /// Kings move and capture any distance along a free line.
    const FLYING_KINGS: bool;
    /// What a man reaching the far row in mid-capture does.
    const PROMOTION_IN_CAPTURE: PromotionInCapture;
    /// Captured pieces leave the board at once, so their squares can be crossed again during the
    /// same capture (Turkish). Otherwise they stay until the move ends and block.
    const REMOVE_CAPTURED_AT_ONCE: bool;
    /// A capture sequence may not reverse its direction between two jumps (Turkish).
    const NO_REVERSAL: bool;
    /// Which captures are compulsory among those available.
    const PRECEDENCE: CapturePrecedence;
    /// The board is turned: the playable corner is at each player's near right (Spanish,
    /// Italian). Internally every board has a playable near-left corner; notation mirrors.
    const MIRRORED: bool;
    /// PDN numeric numbering.
    const NUMBERING: Numbering;
    /// Squares are written algebraically (`c3`) rather than as numbers in PDN.
    const ALGEBRAIC: bool;
    /// Numbering of moves in the Hub protocol as pydraughts speaks it.
    const HUB_NUMBERING: Numbering;
    /// pydraughts' Hub position string lists this variant's squares turned 180 degrees with
    /// the colours swapped (English, where Black moves first).
    const HUB_TURNED: bool = false;
    /// Directions of capture: 4 along the board's lines, 8 for Frisian (diagonal and
    /// orthogonal).
    const CAPTURE_DIRECTIONS: usize = 4;
    /// Men may capture kings (not in Italian).
    const MEN_CAPTURE_KINGS: bool = true;
    /// A capturing king lands on the square right behind the piece it takes (Thai).
    const KING_LANDS_RIGHT_BEHIND: bool = false;
    /// A king whose last captured piece is a king stops right behind it (killer draughts).
    const KILLER: bool = false;
    /// Fewest captured pieces for which two routes can have the same effect: 3 with four
    /// directions (a two-piece capture taken in both orders would need two parallel lines through
    /// the same piece), 2 with eight.
    const MIN_DUPLICATE_CAPTURES: u32 = 3;
    /// The same for a capture by a man, whose jumps all have one length: two routes with the
    /// same victims and ends would need a closed loop of jumps, so a man's two-piece capture
    /// never has a twin (the two victims are the midpoints of its two jumps).
    const MIN_DUPLICATE_MAN_CAPTURES: u32 = Self::MIN_DUPLICATE_CAPTURES;
    /// How the game is won.
    const GOAL: Goal = Goal::Normal;
}

macro_rules! variants {
    ($($variant:ident, $name:literal, $doc:literal;)*) => {
        /// A rule set, by name: what the command line and protocols select.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Variant {
            $(#[doc = $doc] $variant,)*
        }

        impl Variant {
            /// Every variant, in the order the documentation lists them.
            pub const ALL: &'static [Variant] = &[$(Variant::$variant,)*];

            /// The canonical lowercase name.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Variant::$variant => $name,)*
                }
            }

            /// A one-line description.
            pub const fn description(self) -> &'static str {
                match self {
                    $(Variant::$variant => $doc,)*
                }
            }
        }

    };
}

/// Runs `$body` with `$r` bound to the rule-set type of the runtime variant `$v`.
/// This is where the variant is chosen, once; the body is compiled for each rule set.
#[macro_export]
macro_rules! with_variant {
    ($v:expr, $r:ident => $body:expr) => {
        match $v {
            $crate::rules::Variant::English => {
                type $r = $crate::rules::English;
                $body
            }
            $crate::rules::Variant::International => {
                type $r = $crate::rules::International;
                $body
            }
            $crate::rules::Variant::Brazilian => {
                type $r = $crate::rules::Brazilian;
                $body
            }
            $crate::rules::Variant::Russian => {
                type $r = $crate::rules::Russian;
                $body
            }
            $crate::rules::Variant::Spanish => {
                type $r = $crate::rules::Spanish;
                $body
            }
            $crate::rules::Variant::Turkish => {
                type $r = $crate::rules::Turkish;
                $body
            }
            $crate::rules::Variant::Italian => {
                type $r = $crate::rules::Italian;
                $body
            }
            $crate::rules::Variant::Portuguese => {
                type $r = $crate::rules::Portuguese;
                $body
            }
            $crate::rules::Variant::Czech => {
                type $r = $crate::rules::Czech;
                $body
            }
            $crate::rules::Variant::Pool => {
                type $r = $crate::rules::Pool;
                $body
            }
            $crate::rules::Variant::Thai => {
                type $r = $crate::rules::Thai;
                $body
            }
            $crate::rules::Variant::Canadian => {
                type $r = $crate::rules::Canadian;
                $body
            }
            $crate::rules::Variant::Frisian => {
                type $r = $crate::rules::Frisian;
                $body
            }
            $crate::rules::Variant::Frysk => {
                type $r = $crate::rules::Frysk;
                $body
            }
            $crate::rules::Variant::Killer => {
                type $r = $crate::rules::Killer;
                $body
            }
            $crate::rules::Variant::Antidraughts => {
                type $r = $crate::rules::Antidraughts;
                $body
            }
            $crate::rules::Variant::Breakthrough => {
                type $r = $crate::rules::Breakthrough;
                $body
            }
            $crate::rules::Variant::EnglishLosing => {
                type $r = $crate::rules::EnglishLosing;
                $body
            }
        }
    };
}

variants! {
    English, "english", "English/American checkers (8x8, Black first, short kings).";
    International, "international", "International draughts (10x10, FMJD).";
    Brazilian, "brazilian", "Brazilian draughts (international rules on 8x8).";
    Russian, "russian", "Russian draughts (shashki).";
    Spanish, "spanish", "Spanish draughts (flying kings, men capture forward only).";
    Turkish, "turkish", "Turkish draughts (dama, orthogonal, 64 squares).";
    Italian, "italian", "Italian draughts (FID: men may not take kings, four-step precedence).";
    Portuguese, "portuguese", "Portuguese draughts (played as Spanish).";
    Czech, "czech", "Czech draughts (a king must capture in preference to a man).";
    Pool, "pool", "American pool checkers (Black first, flying kings, men capture backwards).";
    Thai, "thai", "Thai draughts (mak-hot: 8 men each, kings land right behind their victim).";
    Canadian, "canadian", "Canadian draughts (international rules on 12x12).";
    Frisian, "frisian", "Frisian draughts (diagonal and orthogonal captures, value precedence).";
    Frysk, "frysk", "frysk! (Frisian rules, five men each on the back row).";
    Killer, "killer", "Killer draughts (international; a king taking a king last stops behind it).";
    Antidraughts, "antidraughts", "Antidraughts (international moves; no move left wins).";
    Breakthrough, "breakthrough", "Breakthrough (international moves; the first king wins).";
    EnglishLosing, "english-losing", "Giveaway checkers (English moves; no move left wins).";
}

impl Variant {
    /// The number of PDN's `GameType` tag (PDN 3.0's list; frysk! is played under Frisian's
    /// number, as pydraughts writes it), where the variant has one.
    pub const fn pdn_game_type(self) -> Option<u32> {
        Some(match self {
            Variant::English => 21,
            Variant::International => 20,
            Variant::Brazilian => 26,
            Variant::Russian => 25,
            Variant::Spanish => 24,
            Variant::Turkish => 30,
            Variant::Italian => 22,
            Variant::Portuguese => 28,
            Variant::Czech => 29,
            Variant::Pool => 23,
            Variant::Thai => 31,
            Variant::Canadian => 27,
            Variant::Frisian | Variant::Frysk => 40,
            Variant::Killer
            | Variant::Antidraughts
            | Variant::Breakthrough
            | Variant::EnglishLosing => return None,
        })
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        write!(f, "unknown variant '{}' (known: {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Accepts the canonical names and the aliases used by pydraughts, lidraughts and PDN.
    fn from_str(text: &str) -> Result<Variant, UnknownVariant> {
        let lower = text.trim().to_ascii_lowercase();
        Variant::ALL
            .iter()
            .copied()
            .find(|variant| variant.name() == lower || variant.aliases().contains(&lower.as_str()))
            .ok_or_else(|| UnknownVariant(text.to_string()))
    }
}

/// The other names each rule set is known by: site and program names, and the PDN GameType
/// number. One table for reading names ([`Variant::from_str`]) and listing them
/// (`damas variants`).
const ALIASES: &[(Variant, &[&str])] = &[
    (Variant::English, &["american", "checkers", "21"]),
    (Variant::International, &["standard", "normal", "intl", "20", "from position"]),
    (Variant::Brazilian, &["26"]),
    (Variant::Russian, &["shashki", "25"]),
    (Variant::Spanish, &["24"]),
    (Variant::Turkish, &["dama", "30"]),
    (Variant::Italian, &["22"]),
    (Variant::Portuguese, &["28"]),
    (Variant::Czech, &["29"]),
    (Variant::Pool, &["american-pool", "23"]),
    (Variant::Thai, &["mak-hot", "makhos", "31"]),
    (Variant::Canadian, &["27"]),
    (Variant::Frisian, &["40"]),
    (Variant::Frysk, &["frysk!"]),
    (Variant::Killer, &[]),
    (Variant::Antidraughts, &["losing"]),
    (Variant::Breakthrough, &["bt"]),
    (Variant::EnglishLosing, &["giveaway", "suicide"]),
];

impl Variant {
    /// The other names this rule set is read by (its own name aside).
    pub fn aliases(self) -> &'static [&'static str] {
        ALIASES.iter().find(|(variant, _)| *variant == self).map_or(&[], |(_, names)| names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &variant in Variant::ALL {
            assert_eq!(variant.name().parse::<Variant>(), Ok(variant));
            let from_type = with_variant!(variant, R => R::VARIANT);
            assert_eq!(from_type, variant);
            // PDN's game type reads back as the variant (frysk! shares Frisian's number).
            if let Some(number) = variant.pdn_game_type() {
                let back = number.to_string().parse::<Variant>();
                let expected = if variant == Variant::Frysk { Variant::Frisian } else { variant };
                assert_eq!(back, Ok(expected), "{variant}");
            }
        }
        assert_eq!("standard".parse::<Variant>(), Ok(Variant::International));
        assert!("chess".parse::<Variant>().is_err());
        // Every alias reads back as its own rule set, whatever the case.
        for &variant in Variant::ALL {
            for alias in variant.aliases() {
                assert_eq!(alias.to_ascii_uppercase().parse::<Variant>(), Ok(variant), "{alias}");
            }
        }
    }
}
