//! The Hub protocol's position string: a side letter, then one letter per playable square
//! (`w`/`b` men, `W`/`B` kings, `e` empty), e.g. Scan's 51 characters for 10x10.
//!
//! Square order follows pydraughts, the de-facto Hub client for 8x8 boards
//! (its `core/variant.py` and `engines/hub.py`): the physical board read from the top-left, except for
//! English, which pydraughts turns 180 degrees with the colours swapped.

use super::{NotationError, squares};
use crate::board::bitset::BitSet;
use crate::board::geometry::Geometry;
use crate::board::types::{Piece, Side};
use crate::position::{Bits, Position};
use crate::rules::{Numbering, Rules};

/// The bit at 1-based index `k` of the string.
fn bit_at<R: Rules>(k: u32) -> Option<u32> {
    let number = if R::HUB_TURNED { R::Geo::SQUARES + 1 - k } else { k };
    squares::from_number::<R>(number, Numbering::TopLeft)
}

/// The colour as the string writes it (swapped for turned boards; the swap is its own inverse).
fn written<R: Rules>(side: Side) -> Side {
    if R::HUB_TURNED { !side } else { side }
}

/// Writes the Hub position string.
pub fn write<R: Rules>(position: &Position<R>) -> String {
    let swap = written::<R>;
    let mut text = String::with_capacity(R::Geo::SQUARES as usize + 1);
    text.push(swap(position.side_to_move()).letter());
    for k in 1..=R::Geo::SQUARES {
        let letter = match bit_at::<R>(k).and_then(|bit| position.piece_at(bit)) {
            None => 'e',
            Some((side, piece)) => {
                let letter = swap(side).letter();
                if piece == Piece::Man { letter.to_ascii_lowercase() } else { letter }
            }
        };
        text.push(letter);
    }
    text
}

/// Reads a Hub position string.
///
/// # Errors
/// Wrong length, an unknown letter, or an impossible position.
pub fn parse<R: Rules>(text: &str) -> Result<Position<R>, NotationError> {
    let text = text.trim();
    let expected = R::Geo::SQUARES as usize + 1;
    let fail = |why: String| NotationError::new(format!("bad position '{text}': {why}"));
    if text.chars().count() != expected {
        return Err(fail(format!(
            "{} needs {expected} characters (side to move and {} squares), got {}",
            R::VARIANT,
            R::Geo::SQUARES,
            text.chars().count()
        )));
    }
    let mut chars = text.chars();
    let turn = chars.next().and_then(Side::from_letter).filter(|_| text.starts_with(['W', 'B']));
    let Some(turn) = turn else {
        return Err(fail("the first letter must be W or B".to_string()));
    };
    let swap = written::<R>;
    let mut pieces = [Bits::<R>::EMPTY; 2];
    let mut kings = Bits::<R>::EMPTY;
    for (index, letter) in chars.enumerate() {
        let k = index as u32 + 1;
        let Some(bit) = bit_at::<R>(k) else {
            return Err(fail(format!("square {k} does not exist")));
        };
        let single = Bits::<R>::single(bit);
        let (side, king) = match letter {
            'e' | 'E' | '.' => continue,
            'w' => (Side::White, false),
            'b' => (Side::Black, false),
            'W' => (Side::White, true),
            'B' => (Side::Black, true),
            other => return Err(fail(format!("unknown letter '{other}' at square {k}"))),
        };
        pieces[swap(side).index()] |= single;
        if king {
            kings |= single;
        }
    }
    Position::from_parts(pieces[0], pieces[1], kings, swap(turn)).map_err(|e| fail(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::rules::{English, International, Russian, Turkish};

    #[test]
    fn scan_start_string() {
        let start = Position::<International>::start();
        assert_eq!(write(&start), "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
        assert_eq!(parse::<International>(&write(&start)).unwrap(), start);
    }

    #[test]
    fn pydraughts_examples() {
        // Captured from pydraughts 0.6.7's Hub engine wrapper.
        let english = fen::parse::<English>("B:W18,K30:B5,K10").unwrap();
        assert_eq!(write(&english), "WeeBeeeeeeeeeeebeeeeeeeWeeeeweeee");
        assert_eq!(parse::<English>("WeeBeeeeeeeeeeebeeeeeeeWeeeeweeee").unwrap(), english);
        assert_eq!(write(&Position::<English>::start()), "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        let russian = fen::parse::<Russian>("W:Wa1,Kc3:Bh8,Kf6").unwrap();
        assert_eq!(write(&russian), "WeeebeeeeeeBeeeeeeeeeeWeeeeeeweee");
        assert_eq!(parse::<Russian>("WeeebeeeeeeBeeeeeeeeeeWeeeeeeweee").unwrap(), russian);
        let turkish = Position::<Turkish>::start();
        assert_eq!(parse::<Turkish>(&write(&turkish)).unwrap(), turkish);
    }

    #[test]
    fn bad_strings() {
        assert!(parse::<International>("W").unwrap_err().to_string().contains("needs 51"));
        let mut bad = write(&Position::<International>::start());
        bad.replace_range(5..6, "x");
        assert!(parse::<International>(&bad).unwrap_err().to_string().contains("unknown letter"));
        assert!(parse::<International>(&bad.replace('x', "b").replacen('W', "Q", 1)).is_err());
    }
}
