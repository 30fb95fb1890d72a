//! The opening book: positions of the opening, each with its moves and the score of each, so
//! that the engine plays its first moves at once, varies them from game to game among moves of
//! equal worth, and keeps its thinking time for later. `tree` grows and minimaxes it.
//!
//! A book is a text file (`book/VARIANT.book`, made by `damas book build`): comment lines, a
//! header line with the format's name, its version and the rule set, one line per position (the
//! position as a PDN FEN, then each of its moves in PDN with its score in hundredths of a man
//! for the side to move, separated by tabs, shown here as `<TAB>`), and a last line with the
//! FNV-1a checksum of every byte before it:
//!
//! ```text
//! # comments start with '#'
//! damas-book 2 english
//! B:W21-32:B1-12<TAB>11-15 +4<TAB>9-14 +2<TAB>11-16 -1
//! checksum 0123456789abcdef
//! ```
//!
//! Positions are stored as text, not as hash keys, so that a book outlives a change of the
//! engine's keys. A book is refused when its header is not this format's (another file, or
//! another version), when it is for another rule set, when its checksum does not match (a
//! flipped byte anywhere, a file cut short), or when a position or a move does not read or is
//! not legal where it stands; every book move is checked again against the game's own legal
//! moves when the book is asked, so a book can never make the engine play an illegal move.
//! [`Book::choose`] picks among the moves within a margin of the best one.
//!
//! Depends on the rules library, `notation` and `checksum` only: never on the search, threads
//! or I/O beyond reading the one file it is given.

pub mod tree;

use crate::board::moves::MoveList;
use crate::checksum::Fnv;
use crate::notation::{fen, moves};
use crate::position::{Bits, MoveOf, Position};
use crate::rules::{Rules, Variant};
use std::collections::HashMap;
use std::path::Path;

/// The first word of a book's header line.
pub const MAGIC: &str = "damas-book";

/// The version of the format this damas reads and writes (the second word of the header).
pub const VERSION: u32 = 2;

/// A book move: the move and its score, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove<R: Rules> {
    /// The move.
    pub mv: MoveOf<R>,
    /// Its score, in hundredths of a man, for the side to move: the search's score of the
    /// position it leads to, or the minimax of the book below it ([`Book::minimax`]).
    pub score: i32,
}

/// An opening book for rule set `R`.
#[derive(Clone, Debug, Default)]
pub struct Book<R: Rules> {
    /// The positions with their moves (best first), in the order they were added.
    entries: Vec<(Position<R>, Vec<BookMove<R>>)>,
    /// Position hash to its entry.
    index: HashMap<u64, usize>,
}

/// Score margin, in hundredths of a man, within which [`Book::choose`] treats moves as equal
/// when a caller has no reason to choose another.
pub const DEFAULT_MARGIN: i32 = 5;

/// The most a book score may be, either way (wins included).
const SCORE_LIMIT: i32 = 100_000;

/// The rule set a book's text is for, read from its header line (the first that is neither a
/// comment nor blank), so that a caller can read a book without being told its rule set.
///
/// # Errors
/// No header line of this format and version.
pub fn variant_of(text: &str) -> Result<Variant, String> {
    let Some((number, line)) = text
        .lines()
        .map(|line| line.trim_end_matches('\r'))
        .enumerate()
        .find(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
    else {
        return Err(format!("no `{MAGIC} {VERSION}` line: not a damas book"));
    };
    let at = |why: String| format!("line {}: {why}", number + 1);
    let mut words = line.split_whitespace();
    if words.next() != Some(MAGIC) {
        return Err(if line.starts_with("variant ") {
            at(format!(
                "a book of the first format (no `{MAGIC}` header): rebuild it with damas book build"
            ))
        } else {
            at(format!("not a damas book (it does not start with `{MAGIC} {VERSION}`)"))
        });
    }
    match words.next().map(str::parse::<u32>) {
        Some(Ok(VERSION)) => {}
        Some(Ok(other)) => {
            return Err(at(format!(
                "a damas book of version {other}; this damas reads version {VERSION}"
            )));
        }
        _ => return Err(at(format!("`{line}` is not `{MAGIC} {VERSION} VARIANT`"))),
    }
    let name = words.next().ok_or_else(|| at(format!("`{line}` names no rule set")))?;
    name.parse::<Variant>().map_err(|e| at(e.to_string()))
}

/// Checks the checksum line that ends `text` against the bytes before it, and returns those.
fn checked_body(text: &str) -> Result<&str, String> {
    let trimmed = text.strip_suffix('\n').unwrap_or(text);
    let start = trimmed.rfind('\n').map_or(0, |at| at + 1);
    let last = trimmed[start..].trim_end_matches('\r');
    let Some(hex) = last.strip_prefix("checksum ") else {
        return Err("no checksum line at the end: the file is cut short or was edited".into());
    };
    let body = &text[..start];
    // Compared as text, as written: sixteen lower-case digits.
    let actual = format!("{:016x}", Fnv::of(body.as_bytes()));
    if hex != actual {
        return Err(format!(
            "checksum {actual} does not match the stored `{hex}`: the file is damaged"
        ));
    }
    Ok(body)
}

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

    /// Every position with its moves, in the order they were added.
    pub fn entries(&self) -> impl Iterator<Item = (&Position<R>, &[BookMove<R>])> {
        self.entries.iter().map(|(position, moves)| (position, moves.as_slice()))
    }

    /// The index of `position`'s entry.
    fn find(&self, position: &Position<R>) -> Option<usize> {
        let &index = self.index.get(&position.hash())?;
        (self.entries[index].0 == *position).then_some(index)
    }

    /// The moves of `position`, best first, if it is in the book.
    pub fn moves(&self, position: &Position<R>) -> Option<&[BookMove<R>]> {
        self.find(position).map(|index| self.entries[index].1.as_slice())
    }

    /// Whether `position` is in the book.
    pub fn contains(&self, position: &Position<R>) -> bool {
        self.find(position).is_some()
    }

    /// Adds `position` with its `moves` (sorted best first here), replacing what the book had
    /// for it.
    pub fn insert(&mut self, position: Position<R>, mut moves: Vec<BookMove<R>>) {
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        match self.find(&position) {
            Some(index) => self.entries[index].1 = moves,
            None => {
                self.index.insert(position.hash(), self.entries.len());
                self.entries.push((position, moves));
            }
        }
    }

    /// Adds the positions of `other` that this book lacks. A position in both must have the
    /// same moves in both (the scores of this book are kept: [`Book::minimax`] brings them up
    /// to date).
    ///
    /// # Errors
    /// A position with other moves in `other`: its FEN.
    pub fn merge(&mut self, other: &Book<R>) -> Result<(), String> {
        for (position, moves) in other.entries() {
            match self.moves(position) {
                Some(known) => {
                    let same = known.len() == moves.len()
                        && moves.iter().all(|m| known.iter().any(|k| k.mv == m.mv));
                    if !same {
                        return Err(format!("{} has other moves", fen::write(position)));
                    }
                }
                None => self.insert(*position, moves.to_vec()),
            }
        }
        Ok(())
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
    /// A missing or foreign header, a checksum that does not match, a bad FEN, an illegal or
    /// unreadable move or score, a position without moves or listed twice: the line number and
    /// what is wrong.
    pub fn parse(text: &str) -> Result<Self, String> {
        let variant = variant_of(text)?;
        if variant != R::VARIANT {
            return Err(format!("the book is for {}, not {}", variant.name(), R::VARIANT.name()));
        }
        let body = checked_body(text)?;
        let mut book = Book::new();
        let mut header_seen = false;
        for (number, line) in body.lines().enumerate() {
            let at = |why: String| format!("line {}: {why}", number + 1);
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if !header_seen {
                // Read by `variant_of` above.
                header_seen = true;
                continue;
            }
            let mut fields = line.split('\t');
            let position =
                fen::parse::<R>(fields.next().unwrap_or("")).map_err(|e| at(e.to_string()))?;
            let mut book_moves = Vec::new();
            for field in fields {
                let (text, score) = field
                    .trim()
                    .split_once(' ')
                    .ok_or_else(|| at(format!("`{field}` is not a move and a score")))?;
                let mv = moves::parse::<R>(&position, text).map_err(|e| at(e.to_string()))?;
                if book_moves.iter().any(|known: &BookMove<R>| known.mv == mv) {
                    return Err(at(format!("the move {text} is listed twice")));
                }
                let score = score
                    .trim()
                    .parse::<i32>()
                    .ok()
                    .filter(|s| s.abs() <= SCORE_LIMIT)
                    .ok_or_else(|| at(format!("`{score}` is not a score")))?;
                book_moves.push(BookMove { mv, score });
            }
            if book_moves.is_empty() {
                return Err(at("a position without book moves".into()));
            }
            if book.contains(&position) {
                return Err(at("the position is listed twice".into()));
            }
            book.insert(position, book_moves);
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

    /// The book as text, which [`Book::parse`] reads back to the same book: `comment` lines,
    /// the header, the positions in [`Book::canonical_order`], the checksum.
    pub fn write(&self, comment: &[String]) -> String {
        let mut text = String::new();
        for line in comment {
            text.push_str(&format!("# {line}\n"));
        }
        text.push_str(&format!("{MAGIC} {VERSION} {}\n", R::VARIANT.name()));
        for index in self.canonical_order() {
            let (position, book_moves) = &self.entries[index];
            text.push_str(&fen::write(position));
            for m in book_moves {
                let score = m.score.clamp(-SCORE_LIMIT, SCORE_LIMIT);
                text.push_str(&format!("\t{} {score:+}", moves::to_pdn(position, &m.mv)));
            }
            text.push('\n');
        }
        let checksum = Fnv::of(text.as_bytes());
        text.push_str(&format!("checksum {checksum:016x}\n"));
        text
    }

    /// The order positions are written in, whatever order they were added in (so that a book
    /// built in parts and merged is the same file as one built whole): breadth first from the
    /// start position through the book's moves, each position's moves in their order, then
    /// the positions not reached from the start, by their FEN.
    pub fn canonical_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> =
            self.breadth_first(&self.children()).into_iter().map(|(index, _)| index).collect();
        let mut placed = vec![false; self.len()];
        for &index in &order {
            placed[index] = true;
        }
        let mut rest: Vec<(String, usize)> = (0..self.len())
            .filter(|&index| !placed[index])
            .map(|index| (fen::write(&self.entries[index].0), index))
            .collect();
        rest.sort();
        order.extend(rest.into_iter().map(|(_, index)| index));
        order
    }
}

/// The book built into the binary for `variant`, as text, if it has one (made with
/// `damas book build`; book/README.md gives each book's command).
pub fn embedded(variant: Variant) -> Option<&'static str> {
    match variant {
        Variant::English => Some(include_str!("../../book/english.book")),
        Variant::International => Some(include_str!("../../book/international.book")),
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

    /// A book's text: `lines` after the header, and the checksum.
    pub(super) fn book_text(variant: &str, lines: &str) -> String {
        let body = format!("# test\n{MAGIC} {VERSION} {variant}\n{lines}");
        format!("{body}checksum {:016x}\n", Fnv::of(body.as_bytes()))
    }

    fn start_book() -> Book<English> {
        Book::parse(&book_text("english", "B:W21-32:B1-12\t11-15 +4\t9-14 +2\t11-16 -10\n"))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_book_written_and_read_back_is_the_same() {
        let book = start_book();
        let text = book.write(&["again".into()]);
        let again = Book::<English>::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.entries, book.entries);
        assert_eq!(again.len(), 1);
        assert_eq!(again.write(&["again".into()]), text);
        assert_eq!(variant_of(&text), Ok(Variant::English));
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
        let start = "B:W21-32:B1-12";
        let cases = [
            (book_text("english", &format!("{start}\t11-14 +4\n")), "line 3:"),
            (book_text("english", &format!("{start}\t11-15 x\n")), "line 3: `x` is not a score"),
            (book_text("english", &format!("{start}\n")), "line 3: a position without book"),
            (book_text("english", "B:W21-32:Bz\t11-15 +1\n"), "line 3:"),
            (
                book_text("english", &format!("{start}\t11-15 +1\t11-15 +2\n")),
                "line 3: the move 11-15 is",
            ),
            (
                book_text("english", &format!("{start}\t11-15 +1\n{start}\t9-13 +1\n")),
                "line 4: the position is listed twice",
            ),
            (book_text("international", ""), "the book is for international"),
            (book_text("nowhere", ""), "line 2:"),
            (format!("variant english\n{start}\t11-15 +4\n"), "line 1: a book of the first"),
            ("# nothing\n".to_string(), "no `damas-book 2` line"),
            ("PK\u{3}\u{4}".to_string(), "line 1: not a damas book"),
            (format!("{MAGIC} 3 english\n"), "line 1: a damas book of version 3"),
            (format!("{MAGIC} 2 english\n{start}\t11-15 +4\n"), "no checksum line"),
        ];
        for (text, expected) in cases {
            match Book::<English>::parse(&text) {
                Ok(_) => panic!("accepted: {text:?}"),
                Err(error) => assert!(error.starts_with(expected), "{text:?}: {error}"),
            }
        }
        assert!(Book::<International>::parse(&book_text("english", "")).is_err());
    }

    /// Every byte of a book is covered: flipping any one bit is refused.
    #[test]
    fn a_flipped_byte_anywhere_is_refused() {
        let text = start_book().write(&["a comment".into()]);
        for at in 0..text.len() {
            let mut bytes = text.clone().into_bytes();
            bytes[at] ^= 0x20;
            if let Ok(changed) = String::from_utf8(bytes) {
                assert!(Book::<English>::parse(&changed).is_err(), "byte {at} flipped: accepted");
            }
        }
    }

    #[test]
    fn the_order_of_adding_does_not_change_the_file() {
        let game = Game::<English>::new(Position::start());
        let root = *game.position();
        let mut children: Vec<(Position<English>, Vec<BookMove<English>>)> = Vec::new();
        let mut root_moves = Vec::new();
        for (i, mv) in game.legal_moves().as_slice().iter().enumerate() {
            let mut child = root;
            child.play(mv);
            let reply = Game::new(child).legal_moves().as_slice()[0];
            children.push((child, vec![BookMove { mv: reply, score: 3 }]));
            root_moves.push(BookMove { mv: *mv, score: i as i32 });
        }
        let mut forward = Book::<English>::new();
        forward.insert(root, root_moves.clone());
        let mut backward = Book::<English>::new();
        for (child, moves) in children.iter().rev() {
            backward.insert(*child, moves.clone());
            forward.insert(*child, moves.clone());
        }
        backward.insert(root, root_moves);
        assert_eq!(forward.write(&[]), backward.write(&[]));
        assert!(forward.write(&[]).lines().nth(1).is_some_and(|line| line.starts_with("B:W21")));
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
