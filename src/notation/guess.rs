//! Which rule set a text was written for, when nobody said: read from the squares it names or
//! from a Hub position string's length. Every reader of pasted positions and of PDN games
//! without a `GameType` tag (`--fen`, `analyze --pdn`, `pdn check`, the text mode's `load`)
//! asks here, so that they all guess alike.
//!
//! The evidence and the order: algebraic squares (`c3-d4`) are written for the 8x8 boards of
//! Russian and Czech draughts; a square number above 50 needs the 12x12 board; above 32, the
//! 10x10 board; numbers up to 32 fit English checkers first. A guess lists the candidates in
//! that order with the reason in words; the caller keeps the first in which the text makes
//! sense (the position reads, the game replays).
//!
//! Depends on the rule sets' names only; must not depend on the rules' types, search or I/O.

use crate::rules::Variant;

/// The rule sets a text may be written for, most likely first, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guess {
    /// The candidates, most likely first; never empty.
    pub candidates: Vec<Variant>,
    /// The evidence in words, e.g. "squares above 32".
    pub why: &'static str,
}

impl Guess {
    /// The most likely rule set.
    pub fn first(&self) -> Variant {
        self.candidates.first().copied().unwrap_or(Variant::English)
    }

    /// What a reader tells the user when it goes with `chosen`.
    pub fn said(&self, chosen: Variant) -> String {
        format!("{}: {} assumed", self.why, chosen.name())
    }
}

/// The guess from the squares named in `texts` (moves, FENs).
pub fn from_squares<'a>(texts: impl IntoIterator<Item = &'a str>) -> Guess {
    let mut algebraic = false;
    let mut highest = 0u32;
    for text in texts {
        for part in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            // Drop the letters a FEN puts before a square (side, colour, king).
            let part = part.trim_start_matches(['K', 'W', 'B']);
            if part.as_bytes().first().is_some_and(u8::is_ascii_lowercase) {
                algebraic = true;
            } else if let Ok(square) = part.parse::<u32>() {
                highest = highest.max(square);
            }
        }
    }
    if algebraic {
        Guess { candidates: vec![Variant::Russian, Variant::Czech], why: "algebraic squares" }
    } else if highest > 50 {
        Guess { candidates: vec![Variant::Canadian], why: "squares above 50" }
    } else if highest > 32 {
        Guess {
            candidates: vec![Variant::International, Variant::Brazilian],
            why: "squares above 32",
        }
    } else {
        Guess {
            candidates: vec![Variant::English, Variant::International],
            why: "square numbers up to 32",
        }
    }
}

/// Whether `text` has the shape of a Hub position string (a side letter, then one letter per
/// square) rather than a FEN.
pub fn is_hub_position(text: &str) -> bool {
    let text = text.trim();
    text.len() > 1
        && text.starts_with(['W', 'B'])
        && text.chars().all(|c| matches!(c, 'w' | 'b' | 'W' | 'B' | 'e' | 'E' | '.'))
}

/// The guess for a pasted position: a Hub position string by its length (33 characters: an
/// 8x8 board; 51: 10x10; 73: 12x12), a FEN by its squares.
pub fn of_position(text: &str) -> Guess {
    let text = text.trim();
    if is_hub_position(text) {
        return match text.len() - 1 {
            50 => Guess {
                candidates: vec![Variant::International],
                why: "a Hub position of 50 squares",
            },
            72 => {
                Guess { candidates: vec![Variant::Canadian], why: "a Hub position of 72 squares" }
            }
            _ => Guess { candidates: vec![Variant::English], why: "a Hub position" },
        };
    }
    from_squares([text])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_choose_the_board() {
        assert_eq!(of_position("W:W31-50:B1-20").first(), Variant::International);
        assert_eq!(of_position("B:W21-32:B1-12").first(), Variant::English);
        assert_eq!(of_position("W:Wc1,e1:Bd8").first(), Variant::Russian);
        assert_eq!(of_position("W:W60,K71:B2").first(), Variant::Canadian);
        // K before a number is a king, not an algebraic square.
        assert_eq!(of_position("W:WK45:BK3").first(), Variant::International);
        assert_eq!(from_squares(["32-28", "19x26"]).first(), Variant::English);
        assert_eq!(from_squares(["32-28", "19-23", "33-29"]).first(), Variant::International);
    }

    #[test]
    fn hub_strings_go_by_length() {
        let ten = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
        assert!(is_hub_position(&ten));
        assert_eq!(of_position(&ten).first(), Variant::International);
        let eight = format!("B{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
        assert_eq!(of_position(&eight).first(), Variant::English);
        assert!(!is_hub_position("W:W31-50:B1-20"));
        assert!(!is_hub_position("W"));
    }

    #[test]
    fn the_guess_says_why() {
        let guess = of_position("W:W31-50:B1-20");
        assert_eq!(guess.said(Variant::International), "squares above 32: international assumed");
    }
}
