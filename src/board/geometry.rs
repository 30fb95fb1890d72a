//! Board shapes: how squares map to bits, and how a step in each direction is a shift.
//!
//! Owns the bit layouts of every board damas plays on. It depends only on [`crate::board::bitset`] and
//! must not know about pieces, sides or rules.
//!
//! Squares have two identities here: the *square index* (0-based, playable squares only, in
//! reading order from the top-left as White sees the board, so index = PDN number - 1 for English
//! and International) and the *bit index* inside the word. Diagonal boards insert one unused
//! "ghost" bit after every two rows, so that each of the four diagonal steps is the same shift
//! from every square and a step off the board lands on a ghost bit or outside the word; the
//! result is masked with [`Geometry::PLAYABLE`]. The orthogonal 8x8 board of Turkish draughts uses
//! all 64 bits and masks the source squares of sideways steps instead.
//!
//! Directions: the first four are the board's own lines, numbered so that `3 - d` is the
//! opposite of `d`: diagonal boards 0 = up-left, 1 = up-right, 2 = down-left, 3 = down-right;
//! orthogonal boards 0 = up, 1 = left, 2 = right, 3 = down. "Up" is towards Black's side.
//! Diagonal boards also have four orthogonal directions, 4 = up, 5 = left, 6 = right,
//! 7 = down (`11 - d` is the opposite), each a step to the nearest square of the same colour:
//! two rows up or down, or the next playable square along the row. Frisian captures use them.

use crate::board::bitset::BitSet;
use std::fmt::Debug;

/// A board shape. Implemented by zero-sized marker types; everything is an associated constant or
/// a small pure function so that generic code compiles to constant shifts.
pub trait Geometry: Copy + Default + Debug + Send + Sync + 'static {
    /// The word type holding one bit per square.
    type Bits: BitSet;
    /// Columns of the board.
    const COLUMNS: u32;
    /// Rows of the board.
    const ROWS: u32;
    /// Number of playable squares.
    const SQUARES: u32;
    /// True for boards whose pieces move along ranks and files (Turkish).
    const ORTHOGONAL: bool;
    /// Bits of all playable squares.
    const PLAYABLE: Self::Bits;
    /// Signed shift of one step in each direction.
    const SHIFT: [i32; MAX_DIRECTIONS];
    /// Squares from which a step in each direction stays on the board (a step from elsewhere
    /// would wrap around an edge); empty for directions the board does not have.
    const SOURCE: [Self::Bits; MAX_DIRECTIONS];
    /// Playable squares of the top row (White's promotion row).
    const TOP_ROW: Self::Bits;
    /// Playable squares of the bottom row (Black's promotion row).
    const BOTTOM_ROW: Self::Bits;

    /// Bit index of a square index.
    fn bit(square: u32) -> u32;
    /// Square index of a playable bit index.
    fn square(bit: u32) -> u32;
    /// (row from the top, column from the left) of a square index.
    fn coords(square: u32) -> (u32, u32);
    /// The square index at (row from the top, column from the left), if that square is playable.
    fn at(row: u32, column: u32) -> Option<u32>;
}

/// Number of direction slots: four along the board's lines, four more on diagonal boards.
pub const MAX_DIRECTIONS: usize = 8;

/// Bit set type of a geometry.
pub type BitsOf<G> = <G as Geometry>::Bits;

/// One step of every member of `set` in direction `dir`, dropping those that leave the board.
#[inline(always)]
pub fn step<G: Geometry>(set: G::Bits, dir: usize) -> G::Bits {
    let shift = G::SHIFT[dir];
    let source = set & G::SOURCE[dir];
    let moved = if shift > 0 { source << shift as u32 } else { source >> shift.unsigned_abs() };
    moved & G::PLAYABLE
}

/// One step of every member of `set` in direction `dir`, kept where it lands in `within`. As
/// [`step`] masked with `within`, one operation cheaper: `within` must hold playable squares
/// only, so the board mask is not needed.
#[inline(always)]
pub fn step_within<G: Geometry>(set: G::Bits, dir: usize, within: G::Bits) -> G::Bits {
    let shift = G::SHIFT[dir];
    let source = set & G::SOURCE[dir];
    let moved = if shift > 0 { source << shift as u32 } else { source >> shift.unsigned_abs() };
    moved & within
}

/// The bit `steps` steps back from bit `to` against direction `dir`: where a piece came from
/// that reached `to` with `steps` steps in `dir` (plain arithmetic on the index, cheaper than
/// shifting a one-bit set; the caller knows the squares on the way are on the board).
#[inline(always)]
pub fn back_from<G: Geometry>(to: u32, dir: usize, steps: i32) -> u32 {
    to.wrapping_add_signed(-steps * G::SHIFT[dir])
}

/// Where pieces on `set` land jumping in direction `dir` over a piece of `over` onto a square of
/// `onto` (both sets of playable squares only).
#[inline(always)]
pub fn jump<G: Geometry>(set: G::Bits, dir: usize, over: G::Bits, onto: G::Bits) -> G::Bits {
    step_within::<G>(step_within::<G>(set, dir, over), dir, onto)
}

/// All squares reachable from `set` in direction `dir` by sliding over squares of `free` (playable
/// squares only), excluding the start squares. Rays from different start squares never overlap, because a
/// start square is not in `free` and so stops the ray behind it.
#[inline(always)]
pub fn slide<G: Geometry>(set: G::Bits, dir: usize, free: G::Bits) -> G::Bits {
    let mut reached = G::Bits::EMPTY;
    let mut front = step_within::<G>(set, dir, free);
    while front.any() {
        reached |= front;
        front = step_within::<G>(front, dir, free);
    }
    reached
}

/// Runs `$body` once for each direction below `$count` (at most [`MAX_DIRECTIONS`]), with
/// `$dir` bound to a literal. Written out rather than looped so that each copy sees a constant
/// direction: its shifts become immediates and its direction-set lookups fold away, which
/// LLVM does not always manage for a loop. Bodies cannot `continue`; they use `if` instead.
#[macro_export]
macro_rules! unroll_dirs {
    ($count:expr, |$dir:ident| $body:block) => {{
        if 0 < $count {
            let $dir: usize = 0;
            $body
        }
        if 1 < $count {
            let $dir: usize = 1;
            $body
        }
        if 2 < $count {
            let $dir: usize = 2;
            $body
        }
        if 3 < $count {
            let $dir: usize = 3;
            $body
        }
        if 4 < $count {
            let $dir: usize = 4;
            $body
        }
        if 5 < $count {
            let $dir: usize = 5;
            $body
        }
        if 6 < $count {
            let $dir: usize = 6;
            $body
        }
        if 7 < $count {
            let $dir: usize = 7;
            $body
        }
    }};
}

/// The opposite of direction `dir`.
#[inline(always)]
pub const fn opposite(dir: usize) -> usize {
    if dir < 4 { 3 - dir } else { 11 - dir }
}

macro_rules! diagonal_board {
    ($(#[$doc:meta])* $name:ident, $bits:ty, $cols:expr, $rows:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl $name {
            const HALF: u32 = $cols / 2;

            /// Playable squares of one column.
            const fn column_bits(column: u32) -> $bits {
                let mut bits: $bits = 0;
                let mut square = 0;
                while square < $cols * $rows / 2 {
                    let row = square / Self::HALF;
                    let col = 2 * (square % Self::HALF) + if row % 2 == 0 { 1 } else { 0 };
                    if col == column {
                        bits |= 1 << (square + square / $cols);
                    }
                    square += 1;
                }
                bits
            }

            const fn playable_bits(first_row: u32, last_row: u32) -> $bits {
                let mut bits: $bits = 0;
                let mut square = first_row * Self::HALF;
                while square < (last_row + 1) * Self::HALF {
                    bits |= 1 << (square + square / $cols);
                    square += 1;
                }
                bits
            }
        }

        impl Geometry for $name {
            type Bits = $bits;
            const COLUMNS: u32 = $cols;
            const ROWS: u32 = $rows;
            const SQUARES: u32 = $cols * $rows / 2;
            const ORTHOGONAL: bool = false;
            const PLAYABLE: $bits = Self::playable_bits(0, $rows - 1);
            const SHIFT: [i32; MAX_DIRECTIONS] = [
                -(Self::HALF as i32 + 1),
                -(Self::HALF as i32),
                Self::HALF as i32,
                Self::HALF as i32 + 1,
                -($cols + 1),
                -1,
                1,
                $cols + 1,
            ];
            const SOURCE: [$bits; MAX_DIRECTIONS] = [
                !0,
                !0,
                !0,
                !0,
                !0,
                !Self::column_bits(0) & !Self::column_bits(1),
                !Self::column_bits($cols - 2) & !Self::column_bits($cols - 1),
                !0,
            ];
            const TOP_ROW: $bits = Self::playable_bits(0, 0);
            const BOTTOM_ROW: $bits = Self::playable_bits($rows - 1, $rows - 1);

            #[inline(always)]
            fn bit(square: u32) -> u32 {
                square + square / $cols
            }
            #[inline(always)]
            fn square(bit: u32) -> u32 {
                bit - bit / ($cols + 1)
            }
            fn coords(square: u32) -> (u32, u32) {
                let row = square / Self::HALF;
                let column = 2 * (square % Self::HALF) + u32::from(row % 2 == 0);
                (row, column)
            }
            fn at(row: u32, column: u32) -> Option<u32> {
                (row < $rows && column < $cols && (row + column) % 2 == 1)
                    .then(|| row * Self::HALF + column / 2)
            }
        }
    };
}

diagonal_board!(
    /// The 8x8 board played on its 32 dark squares (English, Russian, Brazilian, Spanish...).
    Board8, u64, 8, 8
);
diagonal_board!(
    /// The 10x10 board played on its 50 dark squares (International and its relatives).
    Board10, u64, 10, 10
);
diagonal_board!(
    /// The 12x12 board played on its 72 dark squares (Canadian draughts).
    Board12, u128, 12, 12
);

/// The 8x8 board with all 64 squares, for orthogonal play (Turkish draughts).
/// Bit index = square index = row * 8 + column, row 0 at the top.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Orthogonal8;

impl Orthogonal8 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = Self::FILE_A << 7;
}

impl Geometry for Orthogonal8 {
    type Bits = u64;
    const COLUMNS: u32 = 8;
    const ROWS: u32 = 8;
    const SQUARES: u32 = 64;
    const ORTHOGONAL: bool = true;
    const PLAYABLE: u64 = !0;
    const SHIFT: [i32; MAX_DIRECTIONS] = [-8, -1, 1, 8, 0, 0, 0, 0];
    const SOURCE: [u64; MAX_DIRECTIONS] = [!0, !Self::FILE_A, !Self::FILE_H, !0, 0, 0, 0, 0];
    const TOP_ROW: u64 = 0xff;
    const BOTTOM_ROW: u64 = 0xff << 56;

    #[inline(always)]
    fn bit(square: u32) -> u32 {
        square
    }
    #[inline(always)]
    fn square(bit: u32) -> u32 {
        bit
    }
    fn coords(square: u32) -> (u32, u32) {
        (square / 8, square % 8)
    }
    fn at(row: u32, column: u32) -> Option<u32> {
        (row < 8 && column < 8).then_some(row * 8 + column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbours<G: Geometry>(square: u32, directions: usize) -> Vec<Option<u32>> {
        (0..directions)
            .map(|dir| {
                let moved = step::<G>(G::Bits::single(G::bit(square)), dir);
                (moved.any()).then(|| G::square(moved.lowest()))
            })
            .collect()
    }

    /// Every step agrees with coordinate arithmetic, on every square of every board.
    fn check_steps<G: Geometry>() {
        let deltas: [(i32, i32); 4] = if G::ORTHOGONAL {
            [(-1, 0), (0, -1), (0, 1), (1, 0)]
        } else {
            [(-1, -1), (-1, 1), (1, -1), (1, 1)]
        };
        let deltas: Vec<(i32, i32)> = if G::ORTHOGONAL {
            deltas.to_vec()
        } else {
            [&deltas[..], &[(-2, 0), (0, -2), (0, 2), (2, 0)]].concat()
        };
        assert_eq!(G::PLAYABLE.count(), G::SQUARES);
        for square in 0..G::SQUARES {
            let (row, column) = G::coords(square);
            assert_eq!(G::at(row, column), Some(square));
            assert_eq!(G::square(G::bit(square)), square);
            assert!(G::PLAYABLE.contains(G::bit(square)));
            for (dir, found) in neighbours::<G>(square, deltas.len()).into_iter().enumerate() {
                let (dr, dc) = deltas[dir];
                let expected = u32::try_from(row as i32 + dr)
                    .ok()
                    .zip(u32::try_from(column as i32 + dc).ok())
                    .and_then(|(r, c)| G::at(r, c));
                assert_eq!(found, expected, "square {square} dir {dir}");
            }
        }
    }

    #[test]
    fn steps_match_coordinates_on_every_board() {
        check_steps::<Board8>();
        check_steps::<Board10>();
        check_steps::<Board12>();
        check_steps::<Orthogonal8>();
    }

    #[test]
    fn promotion_rows() {
        assert_eq!(Board10::TOP_ROW.count(), 5);
        assert_eq!(Board10::BOTTOM_ROW.iter().map(Board10::square).min(), Some(45));
        assert_eq!(Board8::BOTTOM_ROW.iter().map(Board8::square).max(), Some(31));
    }
}
