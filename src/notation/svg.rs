//! An SVG picture of a position, White at the bottom, with an optional move drawn as an arrow
//! through its landing squares: the board people paste into articles and forum posts.

use super::moves::routes;
use super::squares;
use crate::board::geometry::Geometry;
use crate::board::types::{Piece, Side};
use crate::position::{MoveOf, Position};
use crate::rules::Rules;
use std::fmt::Write;

const CELL: u32 = 48;
const MARGIN: u32 = 24;

fn centre<R: Rules>(bit: u32) -> (u32, u32) {
    let (row, column) = squares::physical::<R>(bit);
    (MARGIN + column * CELL + CELL / 2, MARGIN + row * CELL + CELL / 2)
}

/// The SVG document of `position`, with `arrow` (a legal move) drawn along its route.
pub fn draw<R: Rules>(position: &Position<R>, arrow: Option<&MoveOf<R>>) -> String {
    let (rows, columns) = (R::Geo::ROWS, R::Geo::COLUMNS);
    let (width, height) = (columns * CELL + 2 * MARGIN, rows * CELL + 2 * MARGIN);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(svg, "<title>{} {}</title>", R::VARIANT.name(), super::fen::write(position));
    let _ = writeln!(
        svg,
        "<defs><marker id=\"head\" markerWidth=\"4\" markerHeight=\"4\" refX=\"2\" refY=\"2\" \
         orient=\"auto\"><path d=\"M0,0 L4,2 L0,4 z\" fill=\"#1565c0\"/></marker></defs>"
    );
    let _ = writeln!(svg, "<rect width=\"{width}\" height=\"{height}\" fill=\"#f4ecd8\"/>");
    for row in 0..rows {
        for column in 0..columns {
            let playable = squares::at_physical::<R>(row, column);
            let fill =
                if playable.is_some() && !R::Geo::ORTHOGONAL { "#8b5a2b" } else { "#e8d0a9" };
            let (x, y) = (MARGIN + column * CELL, MARGIN + row * CELL);
            let _ = writeln!(
                svg,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" \
                 stroke=\"#5d4037\" stroke-width=\"0.5\"/>"
            );
            if let Some(bit) = playable.filter(|_| !R::ALGEBRAIC) {
                let number = squares::number::<R>(bit, R::NUMBERING);
                let _ = writeln!(
                    svg,
                    "<text x=\"{}\" y=\"{}\" font-size=\"9\" fill=\"#f4ecd8\">{number}</text>",
                    x + 2,
                    y + 10
                );
            }
        }
    }
    for column in 0..columns {
        let letter = char::from(b'a' + column as u8);
        let x = MARGIN + column * CELL + CELL / 2 - 3;
        let _ =
            writeln!(svg, "<text x=\"{x}\" y=\"{}\" font-size=\"12\">{letter}</text>", height - 7);
    }
    for row in 0..rows {
        let y = MARGIN + row * CELL + CELL / 2 + 4;
        let _ = writeln!(svg, "<text x=\"4\" y=\"{y}\" font-size=\"12\">{}</text>", rows - row);
    }
    for bit in (0..R::Geo::SQUARES).map(R::Geo::bit) {
        let Some((side, piece)) = position.piece_at(bit) else { continue };
        let (x, y) = centre::<R>(bit);
        let (fill, stroke) = match side {
            Side::White => ("#fafafa", "#424242"),
            Side::Black => ("#212121", "#9e9e9e"),
        };
        let radius = CELL * 2 / 5;
        let _ = writeln!(
            svg,
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"{radius}\" fill=\"{fill}\" stroke=\"{stroke}\" \
             stroke-width=\"2\"/>"
        );
        if piece == Piece::King {
            let _ = writeln!(
                svg,
                "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"none\" stroke=\"#c62828\" \
                 stroke-width=\"3\"/>",
                radius / 2
            );
        }
    }
    if let Some(mv) = arrow {
        let path = routes(position)
            .into_iter()
            .find(|route| route.mv == *mv)
            .map(|route| route.path)
            .unwrap_or_else(|| vec![mv.to() as u8]);
        let mut points = vec![centre::<R>(mv.from())];
        points.extend(path.iter().map(|&bit| centre::<R>(u32::from(bit))));
        let text: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
        let _ = writeln!(
            svg,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"6\" \
             stroke-opacity=\"0.85\" stroke-linejoin=\"round\" marker-end=\"url(#head)\"/>",
            text.join(" ")
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::rules::{English, International, Turkish};

    #[test]
    fn draws_every_piece_and_the_arrow() {
        let position = Position::<International>::start();
        let list = legal_moves(&position);
        let svg = draw(&position, list.iter().next());
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<circle").count(), 40);
        assert_eq!(svg.matches("<polyline").count(), 1);
        assert_eq!(svg.matches("<rect x=").count(), 100);
        let english = draw(&Position::<English>::start(), None);
        assert_eq!(english.matches("<circle").count(), 24);
        assert!(!english.contains("<polyline"));
        let turkish = draw(&Position::<Turkish>::start(), None);
        assert_eq!(turkish.matches("<circle").count(), 32);
    }
}
