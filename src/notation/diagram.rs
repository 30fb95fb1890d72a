//! A text diagram of a position for people: the board as the players see it (White at the
//! bottom), rank and file labels, and the square numbers of each row for numeric variants.

use super::squares;
use crate::board::geometry::Geometry;
use crate::board::types::{Piece, Side};
use crate::position::Position;
use crate::rules::Rules;
use std::fmt::Write;

/// The diagram: `w`/`b` men, `W`/`B` kings, `.` an empty playing square, blank a square that is
/// not played on. White is at the bottom.
pub fn draw<R: Rules>(position: &Position<R>) -> String {
    draw_oriented(position, false)
}

/// The diagram, turned 180 degrees when `flipped` (Black at the bottom, as Black sees it).
pub fn draw_oriented<R: Rules>(position: &Position<R>, flipped: bool) -> String {
    let rows = R::Geo::ROWS;
    let columns = R::Geo::COLUMNS;
    let order = |n: u32, count: u32| if flipped { count - 1 - n } else { n };
    let mut text = String::new();
    let files: String =
        (0..columns).map(|c| format!(" {}", char::from(b'a' + order(c, columns) as u8))).collect();
    let _ = writeln!(text, "    {files}");
    for row in (0..rows).map(|r| order(r, rows)) {
        let rank = rows - row;
        let _ = write!(text, "{rank:>3} ");
        let mut numbers = Vec::new();
        for column in (0..columns).map(|c| order(c, columns)) {
            let cell = match squares::at_physical::<R>(row, column) {
                None => ' ',
                Some(bit) => {
                    numbers.push(squares::number::<R>(bit, R::NUMBERING));
                    match position.piece_at(bit) {
                        None => '.',
                        Some((Side::White, Piece::Man)) => 'w',
                        Some((Side::White, Piece::King)) => 'W',
                        Some((Side::Black, Piece::Man)) => 'b',
                        Some((Side::Black, Piece::King)) => 'B',
                    }
                }
            };
            let _ = write!(text, " {cell}");
        }
        if !R::ALGEBRAIC && !numbers.is_empty() {
            let (low, high) = (numbers.iter().min(), numbers.iter().max());
            if let (Some(low), Some(high)) = (low, high) {
                let _ = write!(text, "    {low:>2}-{high}");
            }
        }
        text.truncate(text.trim_end().len());
        text.push('\n');
    }
    let _ = writeln!(text, "{} to move ({})", position.side_to_move(), R::VARIANT);
    text
}
