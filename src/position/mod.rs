//! Positions: where the pieces stand and who is to move, with an incremental Zobrist hash.
//!
//! A [`Position`] is `Copy` and knows nothing of the game's history (repetitions and move
//! counters belong to the game layer). It is only built through [`Position::from_parts`], which
//! rejects impossible positions, or [`Position::start`]; every legal move keeps it valid.
//!
//! Depends on `bitset`, `geometry`, `rules`, `types` and `moves`; it must not depend on move
//! generation, notation or anything above.

mod zobrist;

use crate::board::bitset::BitSet;
use crate::board::geometry::{BitsOf, Geometry};
use crate::board::moves::Move;
use crate::board::types::{Piece, Side};
use crate::rules::Rules;
use bitflags::bitflags;
use std::fmt;
use std::marker::PhantomData;

/// Bit set type of a rule set's board.
pub type Bits<R> = BitsOf<<R as Rules>::Geo>;

/// Move type of a rule set.
pub type MoveOf<R> = Move<Bits<R>>;

/// Pieces on the board, the side to move and the hash of both.
pub struct Position<R: Rules> {
    pieces: [Bits<R>; 2],
    kings: Bits<R>,
    side: Side,
    hash: u64,
    rules: PhantomData<R>,
}

impl<R: Rules> Clone for Position<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Rules> Copy for Position<R> {}

impl<R: Rules> PartialEq for Position<R> {
    fn eq(&self, other: &Self) -> bool {
        self.pieces == other.pieces && self.kings == other.kings && self.side == other.side
    }
}

impl<R: Rules> Eq for Position<R> {}

impl<R: Rules> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("variant", &R::VARIANT)
            .field("white", &self.pieces[0])
            .field("black", &self.pieces[1])
            .field("kings", &self.kings)
            .field("side", &self.side)
            .finish()
    }
}

bitflags! {
    /// Why a set of pieces is not a position that can arise in a game. Several may hold at once.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct PositionError: u16 {
        /// A square holds a white and a black piece.
        const OVERLAPPING_PIECES = 1 << 0;
        /// A man stands on the row where it would have been crowned.
        const MAN_ON_PROMOTION_ROW = 1 << 1;
        /// A side has more pieces than it starts with.
        const TOO_MANY_PIECES = 1 << 2;
        /// The side that just moved has no piece left, which no move can bring about.
        const SIDE_NOT_TO_MOVE_HAS_NO_PIECES = 1 << 3;
        /// A man stands behind its side's starting rows (Turkish men never move backwards).
        const MAN_BEHIND_START_ROWS = 1 << 4;
        /// A square outside the board is set.
        const OFF_BOARD = 1 << 5;
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut reasons = Vec::new();
        for (flag, text) in [
            (PositionError::OVERLAPPING_PIECES, "a square holds two pieces"),
            (PositionError::MAN_ON_PROMOTION_ROW, "a man stands on its own promotion row"),
            (PositionError::TOO_MANY_PIECES, "a side has more pieces than at the start"),
            (
                PositionError::SIDE_NOT_TO_MOVE_HAS_NO_PIECES,
                "the side that just moved has no pieces",
            ),
            (PositionError::MAN_BEHIND_START_ROWS, "a man stands behind its starting rows"),
            (PositionError::OFF_BOARD, "a piece is off the board"),
        ] {
            if self.contains(flag) {
                reasons.push(text);
            }
        }
        write!(f, "impossible position: {}", reasons.join("; "))
    }
}

impl std::error::Error for PositionError {}

impl<R: Rules> Position<R> {
    /// Builds a position from White's pieces, Black's pieces, the kings among them and the side
    /// to move, after checking that it can arise in a game of `R`.
    ///
    /// # Errors
    /// Every violated condition is reported in the returned [`PositionError`] set.
    pub fn from_parts(
        white: Bits<R>,
        black: Bits<R>,
        kings: Bits<R>,
        side: Side,
    ) -> Result<Self, PositionError> {
        let playable = R::Geo::PLAYABLE;
        let mut error = PositionError::empty();
        if (white & black).any() {
            error |= PositionError::OVERLAPPING_PIECES;
        }
        if ((white | black | kings) & !playable).any() || (kings & !(white | black)).any() {
            error |= PositionError::OFF_BOARD;
        }
        let men = !kings;
        if (white & men & R::Geo::TOP_ROW).any() || (black & men & R::Geo::BOTTOM_ROW).any() {
            error |= PositionError::MAN_ON_PROMOTION_ROW;
        }
        let start = Self::start();
        if white.count() > start.pieces[0].count() || black.count() > start.pieces[1].count() {
            error |= PositionError::TOO_MANY_PIECES;
        }
        if [white, black][(!side).index()].is_empty() {
            error |= PositionError::SIDE_NOT_TO_MOVE_HAS_NO_PIECES;
        }
        let (behind_white, behind_black) = Self::rows_behind_start();
        if (white & men & behind_white).any() || (black & men & behind_black).any() {
            error |= PositionError::MAN_BEHIND_START_ROWS;
        }
        if !error.is_empty() {
            return Err(error);
        }
        let mut position =
            Position { pieces: [white, black], kings, side, hash: 0, rules: PhantomData };
        position.hash = position.compute_hash();
        Ok(position)
    }

    /// The squares where a man of `side` can stand in a game: not its crowning row, not behind
    /// its starting rows (Turkish).
    pub fn man_squares(side: Side) -> Bits<R> {
        let (behind_white, behind_black) = Self::rows_behind_start();
        match side {
            Side::White => R::Geo::PLAYABLE & !R::Geo::TOP_ROW & !behind_white,
            Side::Black => R::Geo::PLAYABLE & !R::Geo::BOTTOM_ROW & !behind_black,
        }
    }

    /// Squares behind each side's first row of men at the start (empty unless the men start
    /// away from their back row, as in Turkish).
    fn rows_behind_start() -> (Bits<R>, Bits<R>) {
        let (first, _) = R::START_ROWS;
        let rows = R::Geo::ROWS;
        let mut white = Bits::<R>::EMPTY;
        let mut black = Bits::<R>::EMPTY;
        for square in 0..R::Geo::SQUARES {
            let (row, _) = R::Geo::coords(square);
            let bit = Bits::<R>::single(R::Geo::bit(square));
            if row + first >= rows {
                white |= bit;
            }
            if row < first {
                black |= bit;
            }
        }
        (white, black)
    }

    /// The start position of `R`.
    pub fn start() -> Self {
        let (first, count) = R::START_ROWS;
        let rows = R::Geo::ROWS;
        let mut white = Bits::<R>::EMPTY;
        let mut black = Bits::<R>::EMPTY;
        for square in 0..R::Geo::SQUARES {
            let (row, _) = R::Geo::coords(square);
            let bit = Bits::<R>::single(R::Geo::bit(square));
            let from_bottom = rows - 1 - row;
            if from_bottom >= first && from_bottom < first + count {
                white |= bit;
            }
            if row >= first && row < first + count {
                black |= bit;
            }
        }
        let mut position = Position {
            pieces: [white, black],
            kings: Bits::<R>::EMPTY,
            side: R::FIRST_TO_MOVE,
            hash: 0,
            rules: PhantomData,
        };
        position.hash = position.compute_hash();
        position
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// All pieces of `side`.
    #[inline(always)]
    pub fn pieces(&self, side: Side) -> Bits<R> {
        self.pieces[side.index()]
    }

    /// All kings of both sides.
    #[inline(always)]
    pub fn kings(&self) -> Bits<R> {
        self.kings
    }

    /// Occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bits<R> {
        self.pieces[0] | self.pieces[1]
    }

    /// Empty playable squares.
    #[inline(always)]
    pub fn empty(&self) -> Bits<R> {
        !self.occupied() & R::Geo::PLAYABLE
    }

    /// The Zobrist hash, maintained incrementally.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The piece on a bit index, if any.
    pub fn piece_at(&self, bit: u32) -> Option<(Side, Piece)> {
        let side = if self.pieces[0].contains(bit) {
            Side::White
        } else if self.pieces[1].contains(bit) {
            Side::Black
        } else {
            return None;
        };
        let piece = if self.kings.contains(bit) { Piece::King } else { Piece::Man };
        Some((side, piece))
    }

    /// The hash computed from scratch; equals [`Position::hash`] in a consistent position.
    pub fn compute_hash(&self) -> u64 {
        let mut hash = if self.side == Side::Black { zobrist::BLACK_TO_MOVE } else { 0 };
        for side in [Side::White, Side::Black] {
            for bit in self.pieces[side.index()].iter() {
                hash ^= zobrist::piece_key(side.index(), self.kings.contains(bit), bit);
            }
        }
        hash
    }

    /// Plays a move generated for this position. The move is trusted: playing a move that is
    /// not legal here leaves an inconsistent position.
    #[inline(always)]
    pub fn play(&mut self, mv: &MoveOf<R>) {
        self.play_hashing::<true>(mv);
    }

    /// Plays a move as [`Position::play`] does but leaves the hash as it was, stale: for move
    /// counting (perft), which never reads it and should not pay for a key per captured piece.
    #[inline(always)]
    pub fn play_unhashed(&mut self, mv: &MoveOf<R>) {
        self.play_hashing::<false>(mv);
    }

    /// Each side's pieces and all kings after `mv`, as [`Position::play`] leaves them, without
    /// building the position: perft's bulk count reads a child's sets from here (a child copied
    /// to memory and read back cost a fifth of perft's time). Branch-free; `play_hashing` keeps
    /// its own branches because the search, which plays every move, runs 1.3% fewer
    /// instructions with them (the invariants test checks the two agree).
    #[inline(always)]
    pub fn sets_after(&self, mv: &MoveOf<R>) -> ([Bits<R>; 2], Bits<R>) {
        let us = self.side.index();
        let captured = mv.captured();
        let from = Bits::<R>::single(mv.from());
        let to = Bits::<R>::single(mv.to());
        let mut pieces = self.pieces;
        pieces[1 - us] &= !captured;
        pieces[us] = (pieces[us] & !from) | to;
        let kings_left = self.kings & !captured;
        let crowned = (kings_left & from).any() || mv.promotes();
        let kings = (kings_left & !from) | if crowned { to } else { Bits::<R>::EMPTY };
        (pieces, kings)
    }

    /// The hash that [`Position::play`] would give the position after `mv`, without playing it:
    /// the search asks for a child's table bucket ahead of time with it.
    #[inline(always)]
    pub fn hash_after(&self, mv: &MoveOf<R>) -> u64 {
        let us = self.side.index();
        let mut hash = self.hash ^ zobrist::BLACK_TO_MOVE;
        for bit in mv.captured().iter() {
            hash ^= zobrist::piece_key(1 - us, self.kings.contains(bit), bit);
        }
        let was_king = self.kings.contains(mv.from());
        hash ^= zobrist::piece_key(us, was_king, mv.from());
        hash ^ zobrist::piece_key(us, was_king || mv.promotes(), mv.to())
    }

    #[inline(always)]
    fn play_hashing<const HASH: bool>(&mut self, mv: &MoveOf<R>) {
        if HASH {
            // Read before the move changes the sets it reads.
            self.hash = self.hash_after(mv);
        }
        let us = self.side.index();
        let them = 1 - us;
        // Captured pieces go first: where they are lifted at once (Turkish), the capturing
        // piece may finish on the square of a piece it took.
        let captured = mv.captured();
        if captured.any() {
            self.pieces[them] &= !captured;
            self.kings &= !captured;
        }
        let from = Bits::<R>::single(mv.from());
        let to = Bits::<R>::single(mv.to());
        let was_king = (self.kings & from).any();
        self.pieces[us] = (self.pieces[us] & !from) | to;
        if was_king {
            self.kings = (self.kings & !from) | to;
        } else if mv.promotes() {
            self.kings |= to;
        }
        self.side = !self.side;
    }

    /// Hands the move to the opponent without moving a piece (for tests and null-move search).
    pub fn pass(&mut self) {
        self.side = !self.side;
        self.hash ^= zobrist::BLACK_TO_MOVE;
    }

    /// The bit of the square that `bit`'s square becomes when the board is turned 180 degrees
    /// (as [`Position::color_flipped`] turns it). Boards are symmetric under the turn.
    #[inline]
    pub fn turned_bit(bit: u32) -> u32 {
        let (row, column) = R::Geo::coords(R::Geo::square(bit));
        R::Geo::at(R::Geo::ROWS - 1 - row, R::Geo::COLUMNS - 1 - column).map_or(bit, R::Geo::bit)
    }

    /// The same position seen from the other side: the board turned 180 degrees, the colours
    /// swapped and the other side to move. The rules treat both sides alike, so it is as good
    /// (or bad) for the side to move as `self` is: an evaluation must give both the same score,
    /// and a trainer can learn from both.
    pub fn color_flipped(&self) -> Self {
        let turn = |set: Bits<R>| {
            let mut turned = Bits::<R>::EMPTY;
            for bit in set.iter() {
                turned |= Bits::<R>::single(Self::turned_bit(bit));
            }
            turned
        };
        let mut flipped = Position {
            pieces: [turn(self.pieces[1]), turn(self.pieces[0])],
            kings: turn(self.kings),
            side: !self.side,
            hash: 0,
            rules: PhantomData,
        };
        flipped.hash = flipped.compute_hash();
        flipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{English, International, Turkish};

    #[test]
    fn turning_the_board_twice_gives_the_position_back() {
        fn check<R: Rules>() {
            let start = Position::<R>::start();
            let mut position = start;
            for mv in crate::movegen::legal_moves(&position).as_slice().iter().take(1) {
                position.play(mv);
            }
            let flipped = position.color_flipped();
            assert_eq!(flipped.pieces(Side::White).count(), position.pieces(Side::Black).count());
            assert_ne!(flipped, position);
            assert_eq!(flipped.color_flipped(), position);
            assert_eq!(flipped.hash(), flipped.compute_hash());
            // The start position is symmetric: turned, only the side to move changes.
            let mut turned = start.color_flipped();
            turned.pass();
            assert_eq!(turned, start);
        }
        check::<English>();
        check::<International>();
        check::<Turkish>();
    }

    #[test]
    fn start_positions_have_the_right_men() {
        let english = Position::<English>::start();
        assert_eq!(english.pieces(Side::White).count(), 12);
        assert_eq!(english.side_to_move(), Side::Black);
        let international = Position::<International>::start();
        assert_eq!(international.pieces(Side::Black).count(), 20);
        let turkish = Position::<Turkish>::start();
        assert_eq!(turkish.pieces(Side::White), 0x00ff_ff00_0000_0000);
        assert_eq!(turkish.pieces(Side::Black), 0x0000_0000_00ff_ff00);
    }

    #[test]
    fn validation_names_each_problem() {
        let top = <English as Rules>::Geo::TOP_ROW;
        let err = Position::<English>::from_parts(top, top, 0, Side::White).unwrap_err();
        assert!(err.contains(PositionError::OVERLAPPING_PIECES));
        assert!(err.contains(PositionError::MAN_ON_PROMOTION_ROW));
        let err = Position::<English>::from_parts(1 << 9, 0, 0, Side::White).unwrap_err();
        assert_eq!(err, PositionError::SIDE_NOT_TO_MOVE_HAS_NO_PIECES);
        let err = Position::<Turkish>::from_parts(1 << 60, 1 << 20, 0, Side::White).unwrap_err();
        assert_eq!(err, PositionError::MAN_BEHIND_START_ROWS);
    }
}
