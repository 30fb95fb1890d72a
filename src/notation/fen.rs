//! PDN FEN: `W:W31-50:B1-20`, in each variant's own square names.
//!
//! Reading accepts numeric and algebraic squares, `K` kings, ranges (`31-50`), pieces in any
//! order, either colour list first, empty lists, a `[FEN "..."]` wrapper and a trailing dot.
//! Writing gives one square per item, men and kings in ascending order.

use super::{NotationError, squares};
use crate::board::bitset::BitSet;
use crate::board::types::Side;
use crate::position::{Bits, Position};
use crate::rules::{Numbering, Rules};

/// Reads a PDN FEN for rule set `R`.
///
/// # Errors
/// Malformed syntax, an unknown or out-of-range square, a square listed twice, or an impossible
/// position; the message names the offending part.
pub fn parse<R: Rules>(text: &str) -> Result<Position<R>, NotationError> {
    let fen = unwrap_tag(text);
    let fail = |why: String| NotationError::new(format!("bad FEN '{fen}': {why}"));
    let mut fields = fen.split(':');
    let side_field = fields.next().unwrap_or("").trim();
    let side = match side_field {
        "W" | "w" => Side::White,
        "B" | "b" => Side::Black,
        other => return Err(fail(format!("side to move must be W or B, not '{other}'"))),
    };
    let mut pieces = [Bits::<R>::EMPTY; 2];
    let mut kings = Bits::<R>::EMPTY;
    let mut seen = [false; 2];
    for field in fields {
        let field = field.trim();
        // lidraughts appends the halfmove clock and the move number (`:H0:F1`): not part of
        // the position.
        let counter = |letter| {
            field.strip_prefix(letter).is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
        };
        if counter('H') || counter('F') {
            continue;
        }
        let mut chars = field.chars();
        let colour = match chars.next().and_then(Side::from_letter) {
            Some(colour) => colour,
            None => return Err(fail(format!("piece list '{field}' must start with W or B"))),
        };
        if std::mem::replace(&mut seen[colour.index()], true) {
            return Err(fail(format!("two piece lists for {colour}")));
        }
        for item in chars.as_str().split(',').map(str::trim).filter(|item| !item.is_empty()) {
            let (king, squares_text) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            for bit in expand::<R>(squares_text).map_err(|e| fail(e.to_string()))? {
                let single = Bits::<R>::single(bit);
                if ((pieces[0] | pieces[1]) & single).any() {
                    let name = squares::name::<R>(bit);
                    return Err(fail(format!("square {name} is listed twice")));
                }
                pieces[colour.index()] |= single;
                if king {
                    kings |= single;
                }
            }
        }
    }
    if !seen[0] && !seen[1] {
        return Err(fail("no piece lists".to_string()));
    }
    Position::from_parts(pieces[0], pieces[1], kings, side).map_err(|e| fail(e.to_string()))
}

/// Strips a `[FEN "..."]` wrapper, quotes, spaces and a trailing dot.
fn unwrap_tag(text: &str) -> &str {
    let mut fen = text.trim();
    if let Some(inner) = fen.strip_prefix("[FEN").and_then(|rest| rest.strip_suffix(']')) {
        fen = inner.trim();
    }
    fen.trim_matches('"').trim().trim_end_matches('.')
}

/// The bits named by one list item: a square or a numeric range `a-b`.
fn expand<R: Rules>(text: &str) -> Result<Vec<u32>, NotationError> {
    let Some((low, high)) = text.split_once('-') else {
        return Ok(vec![squares::parse::<R>(text, R::NUMBERING)?]);
    };
    let bound = |part: &str| {
        part.trim()
            .parse::<u32>()
            .map_err(|_| NotationError::new(format!("range '{text}' must be two square numbers")))
    };
    let (low, high) = (bound(low)?, bound(high)?);
    if low > high {
        return Err(NotationError::new(format!("range '{text}' runs backwards")));
    }
    (low..=high).map(|value| squares::parse::<R>(&value.to_string(), R::NUMBERING)).collect()
}

/// Writes the PDN FEN of a position.
pub fn write<R: Rules>(position: &Position<R>) -> String {
    let mut fen = String::new();
    fen.push(position.side_to_move().letter());
    for side in [Side::White, Side::Black] {
        fen.push(':');
        fen.push(side.letter());
        let mut items: Vec<(u32, String)> = position
            .pieces(side)
            .iter()
            .map(|bit| {
                let king = if position.kings().contains(bit) { "K" } else { "" };
                (
                    // Algebraic lists read from a1 upwards, numeric ones in number order.
                    squares::number::<R>(
                        bit,
                        if R::ALGEBRAIC { Numbering::BottomLeft } else { R::NUMBERING },
                    ),
                    format!("{king}{}", squares::name::<R>(bit)),
                )
            })
            .collect();
        items.sort();
        let list: Vec<String> = items.into_iter().map(|(_, item)| item).collect();
        fen.push_str(&list.join(","));
    }
    fen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{English, International, Russian, Turkish};

    #[test]
    fn start_positions_read_and_write() {
        let intl = parse::<International>("W:W31-50:B1-20").unwrap();
        assert_eq!(intl, Position::start());
        assert_eq!(parse::<International>(&write(&intl)).unwrap(), intl);
        let english = parse::<English>("[FEN \"B:W21-32:B1-12\"]").unwrap();
        assert_eq!(english, Position::start());
        let russian = parse::<Russian>(
            "W:Wa1,c3,e3,g3,c1,e1,g1,b2,d2,f2,h2,a3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        )
        .unwrap();
        assert_eq!(russian, Position::start());
        let turkish = parse::<Turkish>(
            "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
        )
        .unwrap();
        assert_eq!(turkish, Position::start());
    }

    #[test]
    fn kings_any_order_and_pydraughts_sorting() {
        let a = parse::<International>("B:W31,32,K45:B1,10,2,K20").unwrap();
        let b = parse::<International>("B:BK20,2,10,1:WK45,32,31.").unwrap();
        assert_eq!(a, b);
        assert_eq!(write(&a), "B:W31,32,K45:B1,2,10,K20");
    }

    #[test]
    fn errors_name_the_problem() {
        let err = |fen: &str| parse::<International>(fen).unwrap_err().to_string();
        assert!(err("X:W31:B1").contains("side to move"));
        assert!(err("W:W31,51:B1").contains("out of range"));
        assert!(err("W:W31,31:B1").contains("listed twice"));
        assert!(err("W:W31:W32").contains("two piece lists"));
        assert!(err("W:W3:B20").contains("promotion row"));
        assert!(err("W:W31-:B1").contains("range"));
        assert!(err("W:Q31:B1").contains("must start with W or B"));
        assert!(err("").contains("side to move"));
        assert!(err("W:W31:B1:Hx").contains("must start with W or B"));
    }

    #[test]
    fn lidraughts_counters_are_skipped() {
        let plain = parse::<International>("W:W31-50:B1-20").expect("plain");
        assert_eq!(parse::<International>("W:W31-50:B1-20:H0:F1").expect("counters"), plain);
        assert_eq!(parse::<International>("[FEN \"W:W31-50:B1-20:H12:F30\"]").expect("tag"), plain);
    }
}
