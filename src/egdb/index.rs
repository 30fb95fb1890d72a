//! Positions of an endgame slice as numbers 0..size and back.
//!
//! A slice is a material signature seen from the side to move: its men and kings, the
//! opponent's men and kings. Every position is first turned so that White is to move
//! ([`Position::color_flipped`]: the rules treat both sides alike), so one table serves both
//! colours. The index places, in this order, the mover's men among the squares a man of its
//! colour may stand on, the opponent's men the same way, then the mover's kings among the squares
//! the men left free, then the opponent's kings among those left after that: each a
//! combination in the combinatorial number system. Men of both colours can fall on one square;
//! such numbers are holes ([`SliceIndex::position`] gives `None`) and cost a few per cent.
//!
//! Under a limit on king moves in a row (Frisian: one king at most three non-capturing moves in
//! succession while its side has men), a position's value also depends on each side's streak, so
//! the numbering gives every position a number per pair of streaks ([`Streaks`]): a side with
//! both men and kings has `1 + limit x kings` states (no streak, or which of its kings, in
//! square order, has made 1..=limit moves), any other side one. The streaks are the most
//! significant part of the number: a table is a run of whole position tables, one per pair of
//! states. In every other rule set there is one state a side and the numbers are the positions'.
//!
//! Depends on the rules library (position, geometry); must not depend on search or I/O.

use crate::board::bitset::BitSet;
use crate::board::geometry::Geometry;
use crate::board::types::Side;
use crate::game::draws::king_move_limit;
use crate::game::rules::KingStreak;
use crate::position::{Bits, Position};
use crate::rules::Rules;
use std::fmt;

/// Most squares of any board (Canadian 12x12: 72), for the binomial table.
const MAX_SQUARES: usize = 72;
/// Most pieces of one kind in one slice the index handles.
pub const MAX_KIND: usize = 8;

/// Binomial coefficients C(n, k) for n < MAX_SQUARES + 1, k <= MAX_KIND.
struct Binomials([[u64; MAX_KIND + 1]; MAX_SQUARES + 1]);

const BINOMIALS: Binomials = {
    let mut table = [[0u64; MAX_KIND + 1]; MAX_SQUARES + 1];
    let mut n = 0;
    while n <= MAX_SQUARES {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_KIND {
            table[n][k] = if n == 0 { 0 } else { table[n - 1][k - 1] + table[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    Binomials(table)
};

fn choose(n: usize, k: usize) -> u64 {
    if k > MAX_KIND || n > MAX_SQUARES { 0 } else { BINOMIALS.0[n][k] }
}

/// The rank of a set of distinct numbers below `n` (ascending) among all sets of its size.
fn rank(sorted: &[usize]) -> u64 {
    sorted.iter().enumerate().map(|(i, &value)| choose(value, i + 1)).sum()
}

/// The set of `k` numbers with rank `r` (ascending), written into `out`.
fn unrank(mut r: u64, k: usize, n: usize, out: &mut [usize]) {
    let mut top = n;
    for i in (1..=k).rev() {
        // The largest value c < top with C(c, i) <= r.
        let mut c = top - 1;
        while choose(c, i) > r {
            c -= 1;
        }
        out[i - 1] = c;
        r -= choose(c, i);
        top = c;
    }
}

/// A material signature from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slice {
    /// Men of the side to move, then of the opponent.
    pub men: [u8; 2],
    /// Kings of the side to move, then of the opponent.
    pub kings: [u8; 2],
}

impl Slice {
    /// The slice of the side to move's material `men`/`kings` (index 0 the mover).
    pub fn new(men: [u8; 2], kings: [u8; 2]) -> Slice {
        Slice { men, kings }
    }

    /// Every piece on the board.
    pub fn pieces(self) -> u32 {
        u32::from(self.men[0] + self.men[1] + self.kings[0] + self.kings[1])
    }

    /// The same material with the other side to move.
    pub fn swapped(self) -> Slice {
        Slice { men: [self.men[1], self.men[0]], kings: [self.kings[1], self.kings[0]] }
    }

    /// The slice of a position (either side to move).
    pub fn of<R: Rules>(position: &Position<R>) -> Slice {
        let mover = position.side_to_move();
        let count = |side: Side, kings: bool| {
            let set = position.pieces(side);
            let set = if kings { set & position.kings() } else { set & !position.kings() };
            u8::try_from(set.count()).unwrap_or(u8::MAX)
        };
        Slice {
            men: [count(mover, false), count(!mover, false)],
            kings: [count(mover, true), count(!mover, true)],
        }
    }

    /// Every slice of exactly `pieces` pieces with at least one piece a side, in the order a
    /// build needs them: fewer men first (a promotion turns a slice into one with a man fewer).
    pub fn all_of(pieces: u32) -> Vec<Slice> {
        let mut slices = Vec::new();
        let p = u8::try_from(pieces).unwrap_or(0);
        for men in 0..=p {
            for wm in 0..=men {
                let bm = men - wm;
                for wk in 0..=(p - men) {
                    let bk = p - men - wk;
                    if wm + wk > 0 && bm + bk > 0 {
                        slices.push(Slice { men: [wm, bm], kings: [wk, bk] });
                    }
                }
            }
        }
        slices
    }

    /// The file-name form: `2-1-1-0` (mover's men, kings, opponent's men, kings).
    pub fn name(self) -> String {
        format!("{}-{}-{}-{}", self.men[0], self.kings[0], self.men[1], self.kings[1])
    }
}

impl fmt::Display for Slice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |men: u8, kings: u8| {
            let mut text = String::new();
            if kings > 0 {
                text.push_str(&format!("{kings}K"));
            }
            if men > 0 {
                text.push_str(&format!("{men}M"));
            }
            text
        };
        write!(f, "{} v {}", side(self.men[0], self.kings[0]), side(self.men[1], self.kings[1]))
    }
}

/// Each side's king streak (White's, Black's), as [`Counters`](crate::game::rules::Counters)
/// keeps them: what a database value depends on besides the position under a limit on king
/// moves in a row (none elsewhere: [`NO_STREAKS`]).
pub type Streaks = [KingStreak; 2];

/// No king has moved in a row on either side (and every position's streaks in a rule set
/// without a king-move limit).
pub const NO_STREAKS: Streaks = [KingStreak { moves: 0, square: 0 }; 2];

/// The numbering of one slice's positions in rule set `R` (White to move).
#[derive(Clone, Debug)]
pub struct SliceIndex {
    slice: Slice,
    /// The king-move limit (0: none).
    limit: u8,
    /// Streak states of each side (White's, Black's): 1 unless the side has men and kings under
    /// a limit.
    states: [u64; 2],
    /// Squares a man of each colour may stand on (White's, Black's), ascending.
    man_squares: [Vec<usize>; 2],
    /// Dense number of each square among the man squares of each colour (usize::MAX: none).
    man_rank: [Vec<usize>; 2],
    squares: usize,
    /// Sizes of the four parts: white men, black men, white kings, black kings.
    parts: [u64; 4],
}

impl SliceIndex {
    /// The numbering of `slice` in rule set `R`; None when the slice has more pieces of one kind
    /// than the index handles or than the board holds.
    pub fn new<R: Rules>(slice: Slice) -> Option<SliceIndex> {
        let squares = R::Geo::SQUARES as usize;
        let kinds = [slice.men[0], slice.men[1], slice.kings[0], slice.kings[1]];
        if kinds.iter().any(|&k| usize::from(k) > MAX_KIND) || squares > MAX_SQUARES {
            return None;
        }
        let mut man_squares = [Vec::new(), Vec::new()];
        let mut man_rank = [vec![usize::MAX; squares], vec![usize::MAX; squares]];
        for (colour, side) in [Side::White, Side::Black].into_iter().enumerate() {
            let allowed = Position::<R>::man_squares(side);
            for square in 0..squares {
                if allowed.contains(R::Geo::bit(square as u32)) {
                    man_rank[colour][square] = man_squares[colour].len();
                    man_squares[colour].push(square);
                }
            }
        }
        let men = usize::from(slice.men[0] + slice.men[1]);
        let parts = [
            choose(man_squares[0].len(), usize::from(slice.men[0])),
            choose(man_squares[1].len(), usize::from(slice.men[1])),
            choose(squares.checked_sub(men)?, usize::from(slice.kings[0])),
            choose(
                squares.checked_sub(men + usize::from(slice.kings[0]))?,
                usize::from(slice.kings[1]),
            ),
        ];
        let limit = u8::try_from(king_move_limit(R::VARIANT).unwrap_or(0)).ok()?;
        let states = [0, 1].map(|side| {
            let (men, kings) = (u64::from(slice.men[side]), u64::from(slice.kings[side]));
            if limit > 0 && men > 0 && kings > 0 { 1 + u64::from(limit) * kings } else { 1 }
        });
        parts.iter().chain(&states).try_fold(1u64, |size, &part| size.checked_mul(part))?;
        Some(SliceIndex { slice, limit, states, man_squares, man_rank, squares, parts })
    }

    /// The slice numbered.
    pub fn slice(&self) -> Slice {
        self.slice
    }

    /// Numbers in the slice (holes included).
    pub fn size(&self) -> u64 {
        self.positions() * self.states[0] * self.states[1]
    }

    /// Numbers of positions (holes included), each numbered once per pair of streaks.
    fn positions(&self) -> u64 {
        self.parts.iter().product()
    }

    /// Whether the numbers tell streaks apart (a king-move limit, and a side with men and
    /// kings).
    pub fn has_streaks(&self) -> bool {
        self.states != [1, 1]
    }

    /// The number of `position` with no streaks (see [`SliceIndex::index_with`]).
    pub fn index<R: Rules>(&self, position: &Position<R>) -> u64 {
        self.index_with(position, &NO_STREAKS)
    }

    /// The number of `position`, which must have White to move and this slice's material, with
    /// `streaks` (a streak that does not count is numbered as none: its side has no men, or its
    /// square holds no king of that side).
    pub fn index_with<R: Rules>(&self, position: &Position<R>, streaks: &Streaks) -> u64 {
        let kings = position.kings();
        let squares_of = |set: Bits<R>, out: &mut [usize; MAX_KIND]| -> usize {
            let mut n = 0;
            for bit in set.iter() {
                out[n] = R::Geo::square(bit) as usize;
                n += 1;
            }
            out[..n].sort_unstable();
            n
        };
        let (white, black) = (position.pieces(Side::White), position.pieces(Side::Black));
        let mut buffers = [[0usize; MAX_KIND]; 4];
        let counts = [
            squares_of(white & !kings, &mut buffers[0]),
            squares_of(black & !kings, &mut buffers[1]),
            squares_of(white & kings, &mut buffers[2]),
            squares_of(black & kings, &mut buffers[3]),
        ];
        let mut ranks = [0u64; 4];
        for colour in 0..2 {
            let mut dense = [0usize; MAX_KIND];
            for (i, &square) in buffers[colour][..counts[colour]].iter().enumerate() {
                dense[i] = self.man_rank[colour][square];
            }
            ranks[colour] = rank(&dense[..counts[colour]]);
        }
        // Kings: each square numbered among those not taken by the pieces placed before.
        let mut taken = [0usize; 3 * MAX_KIND];
        let mut n_taken = 0;
        for part in 0..2 {
            for &square in &buffers[part][..counts[part]] {
                taken[n_taken] = square;
                n_taken += 1;
            }
        }
        for part in 2..4 {
            let mut dense = [0usize; MAX_KIND];
            for (i, &square) in buffers[part][..counts[part]].iter().enumerate() {
                dense[i] = square - taken[..n_taken].iter().filter(|&&t| t < square).count();
            }
            ranks[part] = rank(&dense[..counts[part]]);
            for &square in &buffers[part][..counts[part]] {
                taken[n_taken] = square;
                n_taken += 1;
            }
        }
        let mut index = 0;
        // Known when compiled: no trace of streaks in the other rule sets' code.
        let streaks_counted = const { king_move_limit(R::VARIANT).is_some() } && self.has_streaks();
        for side in (0..2).filter(|_| streaks_counted) {
            let colour = if side == 0 { Side::White } else { Side::Black };
            let limit = Some(u32::from(self.limit));
            let state = match counted_streak(position, colour, streaks[side], limit) {
                streak if self.states[side] == 1 || streak.moves == 0 => 0,
                streak => {
                    let square = R::Geo::square(u32::from(streak.square)) as usize;
                    let kings = &buffers[2 + side][..counts[2 + side]];
                    kings.iter().position(|&k| k == square).map_or(0, |king| {
                        1 + king as u64 * u64::from(self.limit) + u64::from(streak.moves) - 1
                    })
                }
            };
            index = index * self.states[side] + state;
        }
        ranks.iter().zip(&self.parts).fold(index, |index, (&r, &part)| index * part + r)
    }

    /// The position numbered `index` (White to move), or None for a hole.
    pub fn position<R: Rules>(&self, index: u64) -> Option<Position<R>> {
        self.entry(index).map(|(position, _)| position)
    }

    /// The position and the streaks numbered `index` (White to move), or None for a hole.
    pub fn entry<R: Rules>(&self, index: u64) -> Option<(Position<R>, Streaks)> {
        if const { king_move_limit(R::VARIANT).is_none() } || !self.has_streaks() {
            // The common case, without the divisions below (a build decodes every number).
            return Some((self.position_numbered::<R>(index)?, NO_STREAKS));
        }
        let positions = self.positions();
        let (state, index) = (index / positions, index % positions);
        let state = [state / self.states[1], state % self.states[1]];
        if state[0] >= self.states[0] {
            return None;
        }
        let position = self.position_numbered::<R>(index)?;
        let mut streaks = NO_STREAKS;
        for side in 0..2 {
            if state[side] > 0 {
                let limit = u64::from(self.limit);
                let colour = if side == 0 { Side::White } else { Side::Black };
                let kings = position.pieces(colour) & position.kings();
                // Kings in square order, as the number counts them.
                let mut squares = [0u32; MAX_KIND];
                let mut n = 0;
                for bit in kings.iter() {
                    squares[n] = R::Geo::square(bit);
                    n += 1;
                }
                squares[..n].sort_unstable();
                let king = squares[((state[side] - 1) / limit) as usize];
                streaks[side] = KingStreak {
                    moves: ((state[side] - 1) % limit + 1) as u8,
                    square: R::Geo::bit(king) as u8,
                };
            }
        }
        Some((position, streaks))
    }

    /// The position of number `index` below [`SliceIndex::positions`], or None for a hole.
    fn position_numbered<R: Rules>(&self, index: u64) -> Option<Position<R>> {
        let mut ranks = [0u64; 4];
        let mut rest = index;
        for part in (0..4).rev() {
            ranks[part] = rest % self.parts[part];
            rest /= self.parts[part];
        }
        if rest != 0 {
            return None;
        }
        let counts =
            [self.slice.men[0], self.slice.men[1], self.slice.kings[0], self.slice.kings[1]]
                .map(usize::from);
        // On the stack: the three vectors a call this made were about a fifth of an English
        // 6-piece build's time in malloc and free (perf).
        let mut occupied = [false; MAX_SQUARES];
        let mut sets = [Bits::<R>::EMPTY; 4];
        let mut dense = [0usize; MAX_KIND];
        for colour in 0..2 {
            let pool = &self.man_squares[colour];
            unrank(ranks[colour], counts[colour], pool.len(), &mut dense);
            for &d in &dense[..counts[colour]] {
                let square = pool[d];
                if occupied[square] {
                    return None;
                }
                occupied[square] = true;
                sets[colour] |= Bits::<R>::single(R::Geo::bit(square as u32));
            }
        }
        let mut free = [0usize; MAX_SQUARES];
        for part in 2..4 {
            let mut n_free = 0;
            for square in (0..self.squares).filter(|&s| !occupied[s]) {
                free[n_free] = square;
                n_free += 1;
            }
            unrank(ranks[part], counts[part], n_free, &mut dense);
            for &d in &dense[..counts[part]] {
                let square = free[d];
                occupied[square] = true;
                sets[part] |= Bits::<R>::single(R::Geo::bit(square as u32));
            }
        }
        let [white_men, black_men, white_kings, black_kings] = sets;
        Position::from_parts(
            white_men | white_kings,
            black_men | black_kings,
            white_kings | black_kings,
            Side::White,
        )
        .ok()
    }
}

/// `position` turned, where needed, so that White is to move.
pub fn canonical<R: Rules>(position: &Position<R>) -> Position<R> {
    if position.side_to_move() == Side::White { *position } else { position.color_flipped() }
}

/// `position` and its `streaks` turned, where needed, so that White is to move.
#[inline]
pub fn canonical_with<R: Rules>(
    position: &Position<R>,
    streaks: &Streaks,
) -> (Position<R>, Streaks) {
    if const { king_move_limit(R::VARIANT).is_none() } {
        (canonical(position), NO_STREAKS)
    } else if position.side_to_move() == Side::White {
        (*position, *streaks)
    } else {
        flipped_with(position, streaks)
    }
}

/// `position` seen from the other side ([`Position::color_flipped`]) with its `streaks`.
#[inline]
pub fn flipped_with<R: Rules>(position: &Position<R>, streaks: &Streaks) -> (Position<R>, Streaks) {
    let turned = |streak: KingStreak| match streak.moves {
        0 => KingStreak::default(),
        moves => {
            KingStreak { moves, square: Position::<R>::turned_bit(u32::from(streak.square)) as u8 }
        }
    };
    (position.color_flipped(), [turned(streaks[1]), turned(streaks[0])])
}

/// The streak of `side` in `position` as far as the rules read it under king-move `limit`
/// (None: no limit): none when there is no limit, when the side has no men left, or when the
/// streak's square holds none of its kings (it was captured); else at most `limit` moves.
pub fn counted_streak<R: Rules>(
    position: &Position<R>,
    side: Side,
    streak: KingStreak,
    limit: Option<u32>,
) -> KingStreak {
    let ours = position.pieces(side);
    let counts = limit.is_some_and(|_| streak.moves > 0)
        && (ours & !position.kings()).any()
        && (ours & position.kings()).contains(u32::from(streak.square));
    match limit {
        Some(limit) if counts => KingStreak {
            moves: streak.moves.min(u8::try_from(limit).unwrap_or(u8::MAX)),
            square: streak.square,
        },
        _ => KingStreak::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{English, Frisian, International, Turkish};

    fn round_trip<R: Rules>(pieces: u32) -> u64 {
        let mut valid = 0;
        for slice in Slice::all_of(pieces) {
            let index = SliceIndex::new::<R>(slice).expect("slice");
            for i in 0..index.size() {
                if let Some((position, streaks)) = index.entry::<R>(i) {
                    assert_eq!(Slice::of(&position), slice);
                    assert_eq!(index.index_with(&position, &streaks), i, "{slice} {i}");
                    valid += 1;
                }
            }
        }
        valid
    }

    #[test]
    fn every_number_round_trips_and_counts_match_the_combinatorial_totals() {
        assert_eq!(round_trip::<English>(2), 3_488);
        assert_eq!(round_trip::<English>(3), 196_032);
        assert_eq!(round_trip::<International>(2), 8_845);
        round_trip::<Turkish>(2);
        // Frisian numbers each position of 3 pieces (806,300, as on International's board) once
        // per pair of king streaks: 2,013,020 numbers.
        assert_eq!(round_trip::<International>(3), 806_300);
        assert_eq!(round_trip::<Frisian>(3), 2_013_020);
    }

    #[test]
    fn ranks_and_unranks_agree() {
        let mut out = [0usize; MAX_KIND];
        for r in 0..choose(10, 3) {
            unrank(r, 3, 10, &mut out);
            assert!(out[0] < out[1] && out[1] < out[2] && out[2] < 10);
            assert_eq!(rank(&out[..3]), r);
        }
    }
}
