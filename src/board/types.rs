//! Small vocabulary types shared by every layer: sides and piece kinds.
//!
//! Depends on nothing else in the crate.

use std::fmt;
use std::ops::Not;

/// One of the two players. White is always drawn at the bottom and moves up the board, whatever
/// the rule set calls its colours; in English checkers Black (on squares 1-12) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The side at the bottom of the board (PDN `W`).
    White = 0,
    /// The side at the top of the board (PDN `B`).
    Black = 1,
}

impl Side {
    /// Index for arrays indexed by side.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The PDN letter of this side.
    pub const fn letter(self) -> char {
        match self {
            Side::White => 'W',
            Side::Black => 'B',
        }
    }

    /// Parses a PDN side letter (either case).
    pub fn from_letter(letter: char) -> Option<Side> {
        match letter {
            'W' | 'w' => Some(Side::White),
            'B' | 'b' => Some(Side::Black),
            _ => None,
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline(always)]
    fn not(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::White => "white",
            Side::Black => "black",
        })
    }
}

/// Kind of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// An uncrowned piece.
    Man,
    /// A crowned piece.
    King,
}
