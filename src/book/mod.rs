//! The opening book: positions of the opening, each with the moves worth playing there and the
//! score a search gave each, so that the engine plays its first moves at once, varies them from
//! game to game among moves of equal worth, and keeps its thinking time for later.
//!
//! A book is a text file (`book/VARIANT.book`, made by `damas book build`): a `variant` line,
//! then one line per position, the position as a PDN FEN, then each book move in PDN with its
//! score in hundredths of a man for the side to move, separated by tabs (shown as `<TAB>`):
//!
//! ```text
//! # comments start with '#'
//! variant english
//! B:W21-32:B1-12<TAB>11-15 +4<TAB>9-14 +2<TAB>11-16 -1
//! ```
//!
//! Every position and move is checked when the book is read (a move must be legal where it
//! stands), and again against the game's own legal moves when the book is asked, so a book can
//! never make the engine play an illegal move. [`Book::choose`] picks among the moves within a
//! margin of the best one.
//!
//! Depends on the rules library and `notation` only: never on the search, threads or I/O
//! beyond reading the one file it is given.

use crate::board::moves::MoveList;
use crate::notation::{fen, moves};
use crate::position::{Bits, MoveOf, Position};
use crate::rules::{Rules, Variant};
use std::collections::HashMap;
use std::path::Path;

/// A book move: the move and the search's score of it, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove<R: Rules> {
    /// The move.
    pub mv: MoveOf<R>,
    /// Its score, in hundredths of a man, for the side to move.
    pub score: i32,
}

/// An opening book for rule set `R`.
#[derive(Clone, Debug, Default)]
pub struct Book<R: Rules> {
    /// The positions in the order they were added (written back in that order).
    entries: Vec<(Position<R>, Vec<BookMove<R>>)>,
    /// Position hash to its entry.
    index: HashMap<u64, usize>,
}

/// Score margin, in hundredths of a man, within which [`Book::choose`] treats moves as equal
/// when a caller has no reason to choose another.
pub const DEFAULT_MARGIN: i32 = 5;

impl<R: Rules> Book<R> {
    /// An empty book.
    pub fn new() -> Self {
        Book { entries: Vec::new(), index: HashMap::new() }
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every position with its book moves, in the order they were added.
    pub fn entries(&self) -> impl Iterator<Item = (&Position<R>, &[BookMove<R>])> {
        self.entries.iter().map(|(position, moves)| (position, moves.as_slice()))
    }

    /// The book moves of `position`, best first, if it is in the book.
    pub fn moves(&self, position: &Position<R>) -> Option<&[BookMove<R>]> {
        let &index = self.index.get(&position.hash())?;
        let (stored, moves) = &self.entries[index];
        (stored == position).then_some(moves.as_slice())
    }

    /// Adds `position` with its book `moves` (sorted best first), replacing what the book had
    /// for it.
    pub fn insert(&mut self, position: Position<R>, mut moves: Vec<BookMove<R>>) {
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        match self.index.get(&position.hash()) {
            Some(&index) if self.entries[index].0 == position => self.entries[index].1 = moves,
            _ => {
                self.index.insert(position.hash(), self.entries.len());
                self.entries.push((position, moves));
            }
        }
    }

    /// A move to play in `position` among `legal` (the game's legal moves): one of the book
    /// moves scored within `margin` of the best legal book move, the `draw`-th of them (any
    /// number: it is taken modulo their count, so a random one varies the games). None when
    /// the position is not in the book or none of its moves is legal in the game.
    pub fn choose(
        &self,
        position: &Position<R>,
        legal: &MoveList<Bits<R>>,
        margin: i32,
        draw: u64,
    ) -> Option<BookMove<R>> {
        let playable: Vec<BookMove<R>> = self
            .moves(position)?
            .iter()
            .filter(|m| legal.as_slice().contains(&m.mv))
            .copied()
            .collect();
        let best = playable.first()?.score;
        let equal = playable.iter().take_while(|m| m.score >= best - margin.max(0)).count();
        Some(playable[(draw % equal as u64) as usize])
    }

    /// Reads a book from its text (see the module's documentation).
    ///
    /// # Errors
    /// A missing or foreign `variant` line, a bad FEN, an illegal or unreadable move or score,
    /// a position without moves: the line number and what is wrong.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut book = Book::new();
        let mut variant_seen = false;
        for (number, line) in text.lines().enumerate() {
            let at = |why: String| format!("line {}: {why}", number + 1);
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(name) = line.strip_prefix("variant ") {
                let variant: Variant = name.trim().parse().map_err(|e| at(format!("{e}")))?;
                if variant != R::VARIANT {
                    return Err(at(format!(
                        "the book is for {}, not {}",
                        variant.name(),
                        R::VARIANT.name()
                    )));
                }
                variant_seen = true;
                continue;
            }
            if !variant_seen {
                return Err(at("a `variant` line must come before the positions".into()));
            }
            let mut fields = line.split('\t');
            let position =
                fen::parse::<R>(fields.next().unwrap_or("")).map_err(|e| at(e.to_string()))?;
            let mut book_moves = Vec::new();
            for field in fields {
                let (mv, score) = field
                    .trim()
                    .split_once(' ')
                    .ok_or_else(|| at(format!("`{field}` is not a move and a score")))?;
                let text = mv;
                let mv = moves::parse::<R>(&position, mv).map_err(|e| at(e.to_string()))?;
                if book_moves.iter().any(|known: &BookMove<R>| known.mv == mv) {
                    return Err(at(format!("the move {text} is listed twice")));
                }
                let score = score
                    .trim()
                    .parse::<i32>()
                    .ok()
                    .filter(|s| s.abs() <= 100_000)
                    .ok_or_else(|| at(format!("`{score}` is not a score")))?;
                book_moves.push(BookMove { mv, score });
            }
            if book_moves.is_empty() {
                return Err(at("a position without book moves".into()));
            }
            if book.moves(&position).is_some() {
                return Err(at("the position is listed twice".into()));
            }
            book.insert(position, book_moves);
        }
        if !variant_seen {
            return Err(format!("no `variant {}` line: not a damas book", R::VARIANT.name()));
        }
        Ok(book)
    }

    /// Reads the book file at `path`.
    ///
    /// # Errors
    /// The file cannot be read, or [`Book::parse`] refuses it; the message names the file.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = crate::bounded::read_text(path, crate::bounded::BOOK)?;
        Self::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The book as text, which [`Book::parse`] reads back to the same book; `comment` lines go
    /// first.
    pub fn write(&self, comment: &[String]) -> String {
        let mut text = String::new();
        for line in comment {
            text.push_str(&format!("# {line}\n"));
        }
        text.push_str(&format!("variant {}\n", R::VARIANT.name()));
        for (position, book_moves) in &self.entries {
            text.push_str(&fen::write(position));
            for m in book_moves {
                text.push_str(&format!("\t{} {:+}", moves::to_pdn(position, &m.mv), m.score));
            }
            text.push('\n');
        }
        text
    }
}

/// The book built into the binary for `variant`, as text, if it has one (made with
/// `damas book build`; docs/book.md gives the command).
pub fn embedded(variant: Variant) -> Option<&'static str> {
    match variant {
        Variant::English => Some(include_str!("../../book/english.book")),
        _ => None,
    }
}

/// The book built in for `R`, if the binary has one.
pub fn builtin<R: Rules>() -> Option<Book<R>> {
    embedded(R::VARIANT).and_then(|text| Book::parse(text).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rules::{English, International};

    fn start_book() -> Book<English> {
        Book::parse("# test\nvariant english\nB:W21-32:B1-12\t11-15 +4\t9-14 +2\t11-16 -10\n")
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_book_written_and_read_back_is_the_same() {
        let book = start_book();
        let again = Book::<English>::parse(&book.write(&["again".into()]))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.entries, book.entries);
        assert_eq!(again.len(), 1);
    }

    #[test]
    fn choose_stays_within_the_margin_and_among_legal_moves() {
        let book = start_book();
        let game = Game::<English>::new(Position::start());
        let legal = game.legal_moves();
        let root = *game.position();
        let text = |draw, margin| {
            book.choose(&root, &legal, margin, draw).map(|m| moves::to_pdn(&root, &m.mv))
        };
        assert_eq!(text(0, 0), Some("11-15".to_string()));
        assert_eq!(text(1, 0), Some("11-15".to_string()));
        assert_eq!(text(1, 2), Some("9-14".to_string()));
        assert_eq!(text(2, 2), Some("11-15".to_string()));
        // A move the game does not allow is never chosen.
        let mut only = legal.clone();
        only.retain(|mv| moves::to_pdn(&root, mv) == "11-16");
        assert_eq!(
            book.choose(&root, &only, 0, 0).map(|m| moves::to_pdn(&root, &m.mv)),
            Some("11-16".to_string())
        );
        let mut after = game.clone();
        let first = legal.as_slice()[0];
        after.play(&first).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(book.choose(after.position(), &after.legal_moves(), 0, 0).is_none());
    }

    #[test]
    fn bad_books_are_refused_with_the_line() {
        let cases = [
            ("B:W21-32:B1-12\t11-15 +4\n", "line 1: a `variant` line"),
            ("variant international\nB:W21-32:B1-12\t11-15 +4\n", "line 1: the book is for"),
            ("variant english\nB:W21-32:B1-12\t11-14 +4\n", "line 2:"),
            ("variant english\nB:W21-32:B1-12\t11-15 x\n", "line 2: `x` is not a score"),
            ("variant english\nB:W21-32:B1-12\n", "line 2: a position without book moves"),
            ("variant english\nB:W21-32:Bz\t11-15 +1\n", "line 2:"),
            ("# nothing\n", "no `variant english` line"),
            ("variant english\nB:W21-32:B1-12\t11-15 +1\t11-15 +2\n", "line 2: the move 11-15 is"),
            (
                "variant english\nB:W21-32:B1-12\t11-15 +1\nB:W21-32:B1-12\t9-13 +1\n",
                "line 3: the position is listed twice",
            ),
        ];
        for (text, expected) in cases {
            match Book::<English>::parse(text) {
                Ok(_) => panic!("accepted: {text:?}"),
                Err(error) => assert!(error.starts_with(expected), "{text:?}: {error}"),
            }
        }
        assert!(Book::<International>::parse("variant english\n").is_err());
    }

    #[test]
    fn the_built_in_books_load() {
        for &variant in Variant::ALL {
            if let Some(text) = embedded(variant) {
                crate::with_variant!(variant, R => {
                    let book = Book::<R>::parse(text).unwrap_or_else(|e| panic!("{e}"));
                    assert!(!book.is_empty(), "{}", variant.name());
                });
            }
        }
    }
}
