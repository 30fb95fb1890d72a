//! The DXP position: the 50 squares of a 10x10 board in the order of their numbers, `e` empty,
//! `w`/`z` white and black men, `W`/`Z` kings: the board of the DamExchange protocol's GAMEREQ
//! message (the side to move travels in a field of its own); and a move as the MOVE message
//! carries it, its origin, destination and captured squares by number.
//!
//! Depends on the rules library only.

use super::NotationError;
use super::squares;
use crate::board::bitset::BitSet;
use crate::board::types::{Piece, Side};
use crate::position::{Bits, MoveOf, Position};
use crate::rules::{Numbering, Rules};

/// Reads a DXP position with `side` to move.
///
/// # Errors
/// Not 50 letters, a wrong letter, or an impossible position.
pub fn parse<R: Rules>(side: Side, text: &str) -> Result<Position<R>, NotationError> {
    if text.chars().count() != 50 {
        return Err(NotationError::new("a DXP position has 50 squares"));
    }
    let mut pieces = [Bits::<R>::EMPTY; 2];
    let mut kings = Bits::<R>::EMPTY;
    for (index, letter) in text.chars().enumerate() {
        let square = index as u32 + 1;
        let Some(bit) = squares::from_number::<R>(square, Numbering::TopLeft) else {
            return Err(NotationError::new(format!("square {square} does not exist")));
        };
        let (owner, piece) = match letter {
            'e' => continue,
            'w' => (Side::White, Piece::Man),
            'z' => (Side::Black, Piece::Man),
            'W' => (Side::White, Piece::King),
            'Z' => (Side::Black, Piece::King),
            other => {
                return Err(NotationError::new(format!(
                    "unknown letter '{other}' at square {square}"
                )));
            }
        };
        pieces[owner as usize] |= Bits::<R>::single(bit);
        if piece == Piece::King {
            kings |= Bits::<R>::single(bit);
        }
    }
    Position::from_parts(pieces[0], pieces[1], kings, side)
        .map_err(|e| NotationError::new(format!("bad position: {e}")))
}

/// Writes the 50 squares of `position` (its side to move is not part of the text).
pub fn write<R: Rules>(position: &Position<R>) -> String {
    (1..=50)
        .map(|square| {
            let piece = squares::from_number::<R>(square, Numbering::TopLeft)
                .and_then(|bit| position.piece_at(bit));
            match piece {
                None => 'e',
                Some((Side::White, Piece::Man)) => 'w',
                Some((Side::Black, Piece::Man)) => 'z',
                Some((Side::White, Piece::King)) => 'W',
                Some((Side::Black, Piece::King)) => 'Z',
            }
        })
        .collect()
}

/// A move as DXP's MOVE message gives it: origin, destination, and the captured squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSquares {
    /// Origin, 1..50.
    pub from: u32,
    /// Destination.
    pub to: u32,
    /// Captured squares, in the order of the capture.
    pub captured: Vec<u32>,
}

/// The squares of `mv`.
pub fn move_squares<R: Rules>(mv: &MoveOf<R>) -> MoveSquares {
    let number = |bit| squares::number::<R>(bit, Numbering::TopLeft);
    MoveSquares {
        from: number(mv.from()),
        to: number(mv.to()),
        captured: mv.captured().iter().map(number).collect(),
    }
}

/// The move among `legal` with these squares (the captured ones in any order).
pub fn find_move<R: Rules>(legal: &[MoveOf<R>], wanted: &MoveSquares) -> Option<MoveOf<R>> {
    let mut taken = wanted.captured.clone();
    taken.sort_unstable();
    legal.iter().copied().find(|mv| {
        let mut squares = move_squares::<R>(mv);
        squares.captured.sort_unstable();
        squares.from == wanted.from && squares.to == wanted.to && squares.captured == taken
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::rules::International;

    #[test]
    fn positions_read_back() {
        let start = Position::<International>::start();
        let text = write(&start);
        assert_eq!(text, format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20)));
        assert_eq!(parse::<International>(Side::White, &text), Ok(start));
        let kings = fen::parse::<International>("B:WK46,35:BK5,17").unwrap();
        assert_eq!(parse::<International>(Side::Black, &write(&kings)), Ok(kings));
        assert!(parse::<International>(Side::White, "e").is_err());
        assert!(parse::<International>(Side::White, &"x".repeat(50)).is_err());
    }

    #[test]
    fn moves_are_found_by_their_squares() {
        let position = fen::parse::<International>("W:W27,28:B22,13,14").unwrap();
        let legal = crate::movegen::legal_moves(&position);
        let legal = legal.as_slice();
        let capture = legal.iter().find(|mv| !mv.captured().is_empty()).unwrap();
        let squares = move_squares::<International>(capture);
        let mut shuffled = squares.clone();
        shuffled.captured.reverse();
        assert_eq!(find_move::<International>(legal, &shuffled), Some(*capture));
        let wrong = MoveSquares { captured: vec![], ..squares };
        assert_eq!(find_move::<International>(legal, &wrong), None);
    }
}
