//! Square names: PDN numbers in each variant's numbering, and algebraic coordinates.
//!
//! The "physical" board is the board as the players see it, White at the bottom. It equals the
//! internal layout except for the turned boards (Spanish, Italian), whose playable corner is at
//! the near right: their columns are mirrored.

use super::NotationError;
use crate::board::geometry::Geometry;
use crate::rules::{Numbering, Rules};

/// Playable squares per row and the column step between them.
fn row_shape<G: Geometry>() -> (u32, u32) {
    let per_row = G::SQUARES / G::ROWS;
    (per_row, G::COLUMNS / per_row)
}

/// (row from the top, column from the left) of a bit on the physical board.
pub fn physical<R: Rules>(bit: u32) -> (u32, u32) {
    let (row, column) = R::Geo::coords(R::Geo::square(bit));
    if R::MIRRORED { (row, R::Geo::COLUMNS - 1 - column) } else { (row, column) }
}

/// The bit at a physical (row, column), if that square is playable.
pub fn at_physical<R: Rules>(row: u32, column: u32) -> Option<u32> {
    if column >= R::Geo::COLUMNS {
        return None;
    }
    let column = if R::MIRRORED { R::Geo::COLUMNS - 1 - column } else { column };
    R::Geo::at(row, column).map(R::Geo::bit)
}

/// The 1-based number of a bit in `numbering`.
pub fn number<R: Rules>(bit: u32, numbering: Numbering) -> u32 {
    let (row, column) = physical::<R>(bit);
    let (per_row, step) = row_shape::<R::Geo>();
    let top_left = row * per_row + column / step + 1;
    match numbering {
        Numbering::TopLeft => top_left,
        Numbering::BottomRight => R::Geo::SQUARES + 1 - top_left,
        Numbering::BottomLeft => (R::Geo::ROWS - 1 - row) * per_row + column / step + 1,
    }
}

/// The bit of a 1-based square number in `numbering`, if it is in range.
pub fn from_number<R: Rules>(value: u32, numbering: Numbering) -> Option<u32> {
    (0..R::Geo::SQUARES).map(R::Geo::bit).find(|&bit| number::<R>(bit, numbering) == value)
}

/// Algebraic name of a bit: file letter from `a` on White's left, rank from 1 at the bottom.
pub fn algebraic<R: Rules>(bit: u32) -> String {
    let (row, column) = physical::<R>(bit);
    let file = char::from(b'a' + column as u8);
    format!("{file}{}", R::Geo::ROWS - row)
}

/// How squares are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SquareStyle {
    /// The variant's own PDN convention (numbers, or algebraic for Russian, Brazilian, Czech and
    /// Turkish).
    #[default]
    Standard,
    /// PDN numbers in the variant's numbering, whatever the convention.
    Numeric,
    /// Algebraic coordinates (`c3`), whatever the convention.
    Algebraic,
}

/// The name of a bit in the variant's PDN notation (number or algebraic).
pub fn name<R: Rules>(bit: u32) -> String {
    styled::<R>(bit, SquareStyle::Standard)
}

/// The name of a bit in the given style.
pub fn styled<R: Rules>(bit: u32, style: SquareStyle) -> String {
    let algebraic_name = match style {
        SquareStyle::Standard => R::ALGEBRAIC,
        SquareStyle::Numeric => false,
        SquareStyle::Algebraic => true,
    };
    if algebraic_name { algebraic::<R>(bit) } else { number::<R>(bit, R::NUMBERING).to_string() }
}

/// Parses a square given as a number in `numbering` or algebraically (`c3`).
///
/// # Errors
/// Unknown syntax, a number out of range, or an algebraic square that is not playable.
pub fn parse<R: Rules>(text: &str, numbering: Numbering) -> Result<u32, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError::new("empty square"));
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        let value: u32 = text
            .parse()
            .map_err(|_| NotationError::new(format!("square '{text}' is not a number")))?;
        return from_number::<R>(value, numbering).ok_or_else(|| {
            NotationError::new(format!(
                "square {value} is out of range (1-{}) for {}",
                R::Geo::SQUARES,
                R::VARIANT
            ))
        });
    }
    let mut chars = text.chars();
    let file = chars.next().map(|c| c.to_ascii_lowercase()).filter(char::is_ascii_lowercase);
    let rank: Option<u32> = chars.as_str().parse().ok();
    let (Some(file), Some(rank)) = (file, rank) else {
        return Err(NotationError::new(format!("'{text}' is not a square")));
    };
    let column = u32::from(file) - u32::from('a');
    if rank == 0 || rank > R::Geo::ROWS || column >= R::Geo::COLUMNS {
        return Err(NotationError::new(format!("square {text} is off the {} board", R::VARIANT)));
    }
    at_physical::<R>(R::Geo::ROWS - rank, column).ok_or_else(|| {
        NotationError::new(format!("square {text} is not a playing square in {}", R::VARIANT))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{English, International, Russian, Spanish, Turkish};

    fn named<R: Rules>(text: &str) -> String {
        name::<R>(parse::<R>(text, R::NUMBERING).unwrap())
    }

    #[test]
    fn numberings_follow_the_rulebooks() {
        // English: 1 = b8, 29 = a1, 32 = g1.
        assert_eq!(
            algebraic::<English>(from_number::<English>(1, Numbering::TopLeft).unwrap()),
            "b8"
        );
        assert_eq!(
            algebraic::<English>(from_number::<English>(29, Numbering::TopLeft).unwrap()),
            "a1"
        );
        assert_eq!(
            algebraic::<English>(from_number::<English>(32, Numbering::TopLeft).unwrap()),
            "g1"
        );
        // International: 46 = a1, 5 = j10.
        assert_eq!(
            algebraic::<International>(
                from_number::<International>(46, Numbering::TopLeft).unwrap()
            ),
            "a1"
        );
        assert_eq!(
            algebraic::<International>(
                from_number::<International>(5, Numbering::TopLeft).unwrap()
            ),
            "j10"
        );
        // Spanish: 1 = h1, 4 = b1, 5 = g2 (board turned, counted from White's bottom right).
        assert_eq!(
            algebraic::<Spanish>(from_number::<Spanish>(1, Numbering::BottomRight).unwrap()),
            "h1"
        );
        assert_eq!(
            algebraic::<Spanish>(from_number::<Spanish>(4, Numbering::BottomRight).unwrap()),
            "b1"
        );
        assert_eq!(
            algebraic::<Spanish>(from_number::<Spanish>(5, Numbering::BottomRight).unwrap()),
            "g2"
        );
        // pydraughts' Hub numbering of Russian: a1 = 1, c1 = 2, b2 = 5, h8 = 32.
        for (value, square) in [(1, "a1"), (2, "c1"), (5, "b2"), (32, "h8"), (10, "c3"), (28, "g7")]
        {
            assert_eq!(
                algebraic::<Russian>(from_number::<Russian>(value, Numbering::BottomLeft).unwrap()),
                square
            );
        }
        // Turkish: a1 = 1 ... h8 = 64 in Hub numbering; 1 = a8 in PDN numbering.
        assert_eq!(
            algebraic::<Turkish>(from_number::<Turkish>(17, Numbering::BottomLeft).unwrap()),
            "a3"
        );
        assert_eq!(
            algebraic::<Turkish>(from_number::<Turkish>(1, Numbering::TopLeft).unwrap()),
            "a8"
        );
        assert_eq!(named::<Russian>("C3"), "c3");
    }

    #[test]
    fn bad_squares_are_errors() {
        assert!(
            parse::<International>("51", Numbering::TopLeft)
                .unwrap_err()
                .to_string()
                .contains("out of range")
        );
        assert!(parse::<English>("0", Numbering::TopLeft).is_err());
        assert!(
            parse::<Russian>("a2", Numbering::TopLeft)
                .unwrap_err()
                .to_string()
                .contains("not a playing square")
        );
        assert!(parse::<Russian>("z9", Numbering::TopLeft).is_err());
        assert!(parse::<Russian>("x", Numbering::TopLeft).is_err());
    }
}
