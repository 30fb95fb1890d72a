//! Moves as text: PDN short form (`32-28`, `28x19`), PDN long form with landing squares when the
//! short form is ambiguous (`47x38x29x18`), and Hub form with every captured square
//! (`28x19x23`). Parsing accepts all three, with `-`, `x` or `:` as separators.

use super::squares::SquareStyle;
use super::{NotationError, squares};
use crate::board::bitset::BitSet;
use crate::board::geometry::Geometry;
use crate::board::types::{Piece, Side};
use crate::movegen::{self, Capture, CaptureSink, capture_rank};
use crate::position::{Bits, MoveOf, Position};
use crate::rules::{CapturePrecedence, Numbering, Rules};

/// A capture route: the move and the landing squares (bits) in order, ending at the destination.
#[derive(Clone, Debug)]
pub struct Route<R: Rules> {
    /// The move the route makes.
    pub mv: MoveOf<R>,
    /// Bits of the landing squares, the destination last; empty for a quiet move.
    pub path: Vec<u8>,
}

struct RouteSink<R: Rules> {
    routes: Vec<(Route<R>, u64)>,
    kings: Bits<R>,
    path: Vec<u8>,
}

impl<R: Rules> CaptureSink<Bits<R>> for RouteSink<R> {
    fn enter(&mut self, bit: u32) {
        self.path.push(bit as u8);
    }

    fn leave(&mut self) {
        self.path.pop();
    }

    fn capture(&mut self, capture: Capture<Bits<R>>) {
        let rank = capture_rank::<R>(&capture, self.kings);
        let mv = MoveOf::<R>::new(capture.from, capture.to, capture.captured, capture.promotes);
        self.routes.push((Route { mv, path: self.path.clone() }, rank));
    }
}

/// Every legal route of the position: one per capture route (so a move may appear more than
/// once), or one per quiet move.
pub fn routes<R: Rules>(position: &Position<R>) -> Vec<Route<R>> {
    if !movegen::has_capture(position) {
        let list = movegen::legal_moves(position);
        return list.iter().map(|&mv| Route { mv, path: vec![mv.to() as u8] }).collect();
    }
    let mut sink = RouteSink::<R> { routes: Vec::new(), kings: position.kings(), path: Vec::new() };
    movegen::visit_captures(position, &mut sink);
    let best = sink.routes.iter().map(|(_, rank)| *rank).max().unwrap_or(0);
    sink.routes.into_iter().filter(|(_, rank)| *rank == best).map(|(route, _)| route).collect()
}

fn separator<R: Rules>(capture: bool) -> char {
    match (capture, R::VARIANT) {
        (false, _) => '-',
        (true, crate::rules::Variant::Russian) => ':',
        (true, _) => 'x',
    }
}

/// The PDN text of each move of a line played from `position` (a principal variation).
pub fn line_to_pdn<R: Rules>(position: &Position<R>, line: &[MoveOf<R>]) -> Vec<String> {
    let mut position = *position;
    line.iter()
        .map(|mv| {
            let text = to_pdn(&position, mv);
            position.play(mv);
            text
        })
        .collect()
}

/// The PDN text of a legal move: short form, or the long form with every landing square when
/// another legal move shares its origin and destination.
pub fn to_pdn<R: Rules>(position: &Position<R>, mv: &MoveOf<R>) -> String {
    to_pdn_styled(position, mv, SquareStyle::Standard)
}

/// [`to_pdn`] with squares written in the given style.
pub fn to_pdn_styled<R: Rules>(
    position: &Position<R>,
    mv: &MoveOf<R>,
    style: SquareStyle,
) -> String {
    let sep = separator::<R>(mv.is_capture());
    let name = |bit: u32| squares::styled::<R>(bit, style);
    let (from, to) = (name(mv.from()), name(mv.to()));
    let short = format!("{from}{sep}{to}");
    if !mv.is_capture() {
        return short;
    }
    let legal = movegen::legal_moves(position);
    let ambiguous =
        legal.iter().filter(|other| other.from() == mv.from() && other.to() == mv.to()).count() > 1;
    if !ambiguous {
        return short;
    }
    // PDN 3.0's long form: the origin, every landing square in order, the destination. (A
    // shorter subset of landing squares can also identify the move, but readers such as
    // pydraughts match only the complete route.)
    match routes(position).into_iter().find(|route| route.mv == *mv) {
        Some(route) => {
            let mut text = from;
            for &bit in &route.path {
                text.push(sep);
                text.push_str(&name(u32::from(bit)));
            }
            text
        }
        None => short,
    }
}

/// The Hub text of a move: `from-to`, or `fromxto` followed by `x` and each captured square,
/// in ascending order, all in the variant's Hub numbering.
pub fn to_hub<R: Rules>(mv: &MoveOf<R>) -> String {
    let number = |bit| squares::number::<R>(bit, R::HUB_NUMBERING);
    if !mv.is_capture() {
        return format!("{}-{}", number(mv.from()), number(mv.to()));
    }
    let mut captured: Vec<u32> = mv.captured().iter().map(number).collect();
    captured.sort_unstable();
    let mut text = format!("{}x{}", number(mv.from()), number(mv.to()));
    for square in captured {
        text.push('x');
        text.push_str(&square.to_string());
    }
    text
}

/// Reads a move in PDN (short or long) or Hub form, with numeric squares in the variant's PDN
/// numbering or algebraic squares, and finds it among the legal moves.
///
/// # Errors
/// Unreadable text, a move that is not legal here, or a short form that fits several moves.
pub fn parse<R: Rules>(position: &Position<R>, text: &str) -> Result<MoveOf<R>, NotationError> {
    parse_in::<R>(position, text, R::NUMBERING)
}

/// Reads a move whose numeric squares are in the Hub numbering of the variant.
///
/// # Errors
/// As [`parse`].
pub fn parse_hub<R: Rules>(position: &Position<R>, text: &str) -> Result<MoveOf<R>, NotationError> {
    parse_in::<R>(position, text, R::HUB_NUMBERING)
}

fn parse_in<R: Rules>(
    position: &Position<R>,
    text: &str,
    numbering: Numbering,
) -> Result<MoveOf<R>, NotationError> {
    let text = text.trim();
    let mut parts: Vec<&str> = text.split(['-', 'x', 'X', ':']).collect();
    if parts.len() == 1 {
        // Algebraic squares written without a separator (`a3b4`, `c3e5g7`): each square starts
        // with its file letter.
        let starts: Vec<usize> =
            text.char_indices().filter(|(_, c)| c.is_ascii_lowercase()).map(|(at, _)| at).collect();
        let squares_only = starts.first() == Some(&0)
            && text.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        if squares_only && starts.len() >= 2 {
            let ends = starts.iter().skip(1).copied().chain([text.len()]);
            parts = starts.iter().zip(ends).map(|(&start, end)| &text[start..end]).collect();
        }
    }
    if parts.len() < 2 {
        return Err(NotationError::new(format!(
            "'{text}' is not a move (expected e.g. 32-28 or 28x19)"
        )));
    }
    let mut bits = Vec::with_capacity(parts.len());
    for part in &parts {
        let bit = squares::parse::<R>(part, numbering)
            .map_err(|e| NotationError::new(format!("move '{text}': {e}")))?;
        bits.push(bit);
    }
    let (from, to) = (bits[0], bits[1]);
    let legal = movegen::legal_moves(position);
    if bits.len() == 2 {
        let matching: Vec<&MoveOf<R>> =
            legal.iter().filter(|mv| mv.from() == from && mv.to() == to).collect();
        return match matching.as_slice() {
            [mv] => Ok(**mv),
            [] => Err(illegal(position, text, from, to, numbering)),
            _ => Err(NotationError::new(format!(
                "move '{text}' is ambiguous: give the captured or landing squares"
            ))),
        };
    }
    // Hub form: from, to, then exactly the captured squares.
    let mut listed = Bits::<R>::EMPTY;
    for &bit in &bits[2..] {
        listed |= Bits::<R>::single(bit);
    }
    if let Some(mv) =
        legal.iter().find(|mv| mv.from() == from && mv.to() == to && mv.captured() == listed)
    {
        return Ok(*mv);
    }
    // PDN long form: from, landing squares, to. A route whose landing squares are exactly those
    // listed wins; otherwise the listed squares must lie on the route in order.
    let last = bits[bits.len() - 1];
    let stops = &bits[1..];
    let candidates: Vec<Route<R>> = routes(position)
        .into_iter()
        .filter(|route| route.mv.from() == from && route.mv.to() == last)
        .collect();
    let mut found: Vec<MoveOf<R>> = Vec::new();
    for exact in [true, false] {
        for route in &candidates {
            let mut path = route.path.iter().map(|&b| u32::from(b));
            let fits = if exact {
                route.path.len() == stops.len() && path.eq(stops.iter().copied())
            } else {
                stops.iter().all(|stop| path.any(|b| b == *stop))
            };
            if fits && !found.contains(&route.mv) {
                found.push(route.mv);
            }
        }
        if !found.is_empty() {
            break;
        }
    }
    match found.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(illegal(position, text, from, last, numbering)),
        _ => Err(NotationError::new(format!(
            "move '{text}' is ambiguous: give more landing squares"
        ))),
    }
}

/// Why the move `text` (from `from` to `to`) is not legal in `position`, as a person needs to
/// hear it: no piece there, the other side's piece, a capture that is compulsory (which), a man
/// going backwards; else the legal moves.
fn illegal<R: Rules>(
    position: &Position<R>,
    text: &str,
    from: u32,
    to: u32,
    numbering: Numbering,
) -> NotationError {
    let legal = movegen::legal_moves(position);
    let list = |moves: &mut dyn Iterator<Item = &MoveOf<R>>| {
        moves.map(|mv| to_pdn(position, mv)).collect::<Vec<_>>().join(" ")
    };
    let square = |bit: u32| squares::number::<R>(bit, numbering);
    let mover = position.side_to_move();
    let why = match position.piece_at(from) {
        None => format!("there is no piece on {}", square(from)),
        Some((side, _)) if side != mover => {
            format!("{} holds a {side} piece, and {mover} is to move", square(from))
        }
        _ if legal.is_empty() => format!("{mover} has no legal move"),
        _ if legal.iter().all(|mv| !mv.captured().is_empty()) => {
            let which = match R::PRECEDENCE {
                CapturePrecedence::Free => "",
                _ => " (of the captures, those the rules' precedence allows)",
            };
            format!("a capture is compulsory: {}{which}", list(&mut legal.iter()))
        }
        Some((_, Piece::Man)) if moves_back::<R>(mover, from, to) => {
            format!("a man does not move backwards; legal moves: {}", list(&mut legal.iter()))
        }
        _ => format!("legal moves: {}", list(&mut legal.iter())),
    };
    NotationError::new(format!("illegal move '{text}': {why}"))
}

/// Whether going from bit `from` to bit `to` takes a man of `side` away from its promotion row.
fn moves_back<R: Rules>(side: Side, from: u32, to: u32) -> bool {
    type Geo<R> = <R as Rules>::Geo;
    let row = |bit: u32| Geo::<R>::coords(Geo::<R>::square(bit)).0;
    // Rows count from the top, White's promotion row.
    match side {
        Side::White => row(to) > row(from),
        Side::Black => row(to) < row(from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An illegal move says why: no piece there, the other side's piece, a compulsory capture
    /// (which), a man going backwards; else the legal moves.
    #[test]
    fn illegal_moves_say_why() {
        use crate::rules::{English, International};
        let after = |moves: &[&str]| {
            let mut position = Position::<English>::start();
            for text in moves {
                let mv = parse(&position, text).expect("a legal move");
                position.play(&mv);
            }
            position
        };
        let why = |moves: &[&str], text: &str| {
            parse(&after(moves), text).expect_err("illegal").to_string()
        };
        assert!(why(&[], "16-20").ends_with("illegal move '16-20': there is no piece on 16"));
        assert!(why(&[], "22-18").ends_with("22 holds a white piece, and black is to move"));
        assert!(why(&["11-15", "22-18"], "9-13").ends_with("a capture is compulsory: 15x22"));
        let back = why(&["11-15", "23-19"], "15-11");
        assert!(back.contains("'15-11': a man does not move backwards; legal moves: "), "{back}");
        assert!(back.contains("15-18"), "{back}");
        assert!(why(&[], "12-17").contains("legal moves: 9-13 10-14 11-15 12-16"));
        // Where the rules rank the captures, the message says the list is what they allow.
        let mut position = Position::<International>::start();
        for text in ["32-28", "19-23", "28x19", "14x23", "33-28"] {
            let mv = parse(&position, text).expect("a legal move");
            position.play(&mv);
        }
        let error = parse(&position, "23x34").expect_err("not the largest capture").to_string();
        assert!(
            error.contains("a capture is compulsory: 23x32 (of the captures, those"),
            "{error}"
        );
    }
    use crate::rules::Russian;

    #[test]
    fn algebraic_squares_without_a_separator_are_read() {
        let start = Position::<Russian>::start();
        let plain = parse(&start, "a3-b4").expect("a3-b4");
        assert_eq!(parse(&start, "a3b4").expect("a3b4"), plain);
        assert!(parse(&start, "a3").is_err());
        assert!(parse(&start, "3a4").is_err());
        assert!(parse(&start, "a3b9").is_err());
    }
}
