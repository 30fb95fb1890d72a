//! The move type and the move list, shared by move generation, notation and search.
//!
//! A move is its effect on the board: origin and destination bits, the set of captured bits and
//! whether the moving man is crowned. Two capture routes with the same effect are the same move,
//! which is the FMJD rule for legal-move lists ("unique" perft convention). The route itself
//! (landing squares) is only needed for notation and is produced separately.
//!
//! Depends on `bitset` only.

use crate::board::bitset::BitSet;

/// A move: origin, destination, captured pieces and crowning. Destination equals origin for a
/// king capture that comes back to its start square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move<B> {
    from: u8,
    to: u8,
    promotes: bool,
    captured: B,
}

impl<B: BitSet> Move<B> {
    /// A move from bit `from` to bit `to` capturing `captured`, crowning if `promotes`.
    #[inline(always)]
    pub fn new(from: u32, to: u32, captured: B, promotes: bool) -> Self {
        debug_assert!(from < 128 && to < 128);
        Move { from: from as u8, to: to as u8, promotes, captured }
    }

    /// Bit index of the origin.
    #[inline(always)]
    pub fn from(&self) -> u32 {
        u32::from(self.from)
    }

    /// Bit index of the destination.
    #[inline(always)]
    pub fn to(&self) -> u32 {
        u32::from(self.to)
    }

    /// The captured pieces' bits.
    #[inline(always)]
    pub fn captured(&self) -> B {
        self.captured
    }

    /// True for a capture.
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured.any()
    }

    /// True when the moving man is crowned by this move.
    #[inline(always)]
    pub fn promotes(&self) -> bool {
        self.promotes
    }
}

/// A list of legal moves with the bookkeeping for capture precedence and de-duplication.
#[derive(Clone, Debug)]
pub struct MoveList<B> {
    moves: Vec<Move<B>>,
    best_rank: u64,
    keep_duplicates: bool,
    every_stop: bool,
}

/// An empty list without room reserved: `std::mem::take` on a list in the search's stack must
/// not allocate (it did, once per node, and malloc/free cost 3% of the search).
impl<B: BitSet> Default for MoveList<B> {
    fn default() -> Self {
        MoveList { moves: Vec::new(), best_rank: 0, keep_duplicates: false, every_stop: false }
    }
}

impl<B: BitSet> MoveList<B> {
    /// An empty list using the unique convention (duplicate capture routes merged).
    pub fn new() -> Self {
        MoveList {
            moves: Vec::with_capacity(64),
            best_rank: 0,
            keep_duplicates: false,
            every_stop: false,
        }
    }

    /// An empty list that keeps one entry per capture route (the "paths" perft convention).
    pub fn keeping_duplicates() -> Self {
        MoveList { keep_duplicates: true, ..Self::new() }
    }

    /// An empty list that keeps one entry per capture route, and counts a flying king's
    /// straight-on continuation once for every square where it could have stopped between the
    /// two pieces (the convention of the kish crate's published Turkish perft table).
    pub fn keeping_every_stop() -> Self {
        MoveList { keep_duplicates: true, every_stop: true, ..Self::new() }
    }

    /// True for lists made by [`MoveList::keeping_every_stop`].
    #[inline(always)]
    pub fn counts_every_stop(&self) -> bool {
        self.every_stop
    }

    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.moves.clear();
        self.best_rank = 0;
    }

    /// Keeps only the moves for which `keep` is true.
    pub fn retain(&mut self, keep: impl FnMut(&Move<B>) -> bool) {
        self.moves.retain(keep);
    }

    /// Adds a non-capturing move.
    #[inline(always)]
    pub fn push_quiet(&mut self, mv: Move<B>) {
        self.moves.push(mv);
    }

    /// Adds a complete capture with its precedence rank: captures of a higher rank replace the
    /// list, lower ones are dropped. With `may_be_duplicate` (the capture is long enough for two
    /// routes to have the same effect), a move already listed is not added again unless the list
    /// keeps duplicates.
    #[inline]
    pub fn push_capture(&mut self, mv: Move<B>, rank: u64, may_be_duplicate: bool) {
        if rank < self.best_rank {
            return;
        }
        if rank > self.best_rank {
            self.moves.clear();
            self.best_rank = rank;
        }
        if may_be_duplicate && !self.keep_duplicates && self.moves.contains(&mv) {
            return;
        }
        self.moves.push(mv);
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when there is no move.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move<B>] {
        &self.moves
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move<B>> {
        self.moves.iter()
    }
}

impl<'a, B: BitSet> IntoIterator for &'a MoveList<B> {
    type Item = &'a Move<B>;
    type IntoIter = std::slice::Iter<'a, Move<B>>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}
