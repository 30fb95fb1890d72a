//! The hand-set evaluation ("classic"): a score for the side to move, in hundredths of a man.
//!
//! Pure and deterministic; the terms are those strong programs use in simple form (material
//! with the variant's king value, advancement, back-rank guard, centre, runaways, king
//! mobility), weighted in `params`. It is the evaluation of the rule sets without trained
//! weights, and the one trained weights are measured against. Depends on the rules library only.

use super::params;
use crate::board::bitset::BitSet;
use crate::board::geometry::{Geometry, slide, step};
use crate::board::types::Side;
use crate::position::{Bits, Position};
use crate::rules::{Goal, Rules};
use params::Weights;

/// Precomputed masks for evaluating positions of one rule set.
#[derive(Clone, Debug)]
pub struct Classic<R: Rules> {
    weights: Weights,
    /// Squares by distance from White's back row: `rows[0]` is White's back row.
    rows_from_white: Vec<Bits<R>>,
    /// Per side, the squares whose row number (counted from that side's back row) has bit `k`
    /// set: the sum of the rows of a set of men is then four weighted popcounts, not one per row.
    row_planes: [[Bits<R>; 4]; 2],
    /// Per side, the squares from which a man is one to three rows from crowning.
    runaway_zone: [Bits<R>; 2],
    /// Per side and bit, the squares ahead of a man there that an enemy piece must occupy to
    /// stop it running to the crowning row (within one column either side per row ahead).
    runaway_cone: [Vec<Bits<R>>; 2],
    centre: Bits<R>,
    total_men: u32,
}

impl<R: Rules> Default for Classic<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Rules> Classic<R> {
    /// The evaluator with the default weights of `R`.
    pub fn new() -> Self {
        Self::with_weights(params::weights::<R>())
    }

    /// The evaluator with `weights`.
    pub fn with_weights(weights: Weights) -> Self {
        let rows = R::Geo::ROWS;
        let mut rows_from_white = vec![Bits::<R>::EMPTY; rows as usize];
        let mut centre = Bits::<R>::EMPTY;
        for square in 0..R::Geo::SQUARES {
            let (row, column) = R::Geo::coords(square);
            let bit = Bits::<R>::single(R::Geo::bit(square));
            rows_from_white[(rows - 1 - row) as usize] |= bit;
            let middle_rows = row >= rows / 2 - 1 && row <= rows / 2;
            let middle_columns = column >= 2 && column + 2 < R::Geo::COLUMNS;
            if middle_rows && middle_columns {
                centre |= bit;
            }
        }
        let mut row_planes = [[Bits::<R>::EMPTY; 4]; 2];
        let mut runaway_zone = [Bits::<R>::EMPTY; 2];
        let bits = (0..R::Geo::SQUARES).map(R::Geo::bit).max().unwrap_or(0) as usize + 1;
        let mut runaway_cone = [vec![Bits::<R>::EMPTY; bits], vec![Bits::<R>::EMPTY; bits]];
        for square in 0..R::Geo::SQUARES {
            let (row, column) = R::Geo::coords(square);
            let bit = R::Geo::bit(square);
            let mask = Bits::<R>::single(bit);
            for (side_index, side) in [Side::White, Side::Black].into_iter().enumerate() {
                // Row 0 is the top of the board, White's crowning row.
                let to_crown = if side == Side::White { row } else { rows - 1 - row };
                let advanced = rows - 1 - to_crown;
                for (k, plane) in row_planes[side_index].iter_mut().enumerate() {
                    if advanced >> k & 1 == 1 {
                        *plane |= mask;
                    }
                }
                if (1..=3).contains(&to_crown) {
                    runaway_zone[side_index] |= mask;
                }
                for other in 0..R::Geo::SQUARES {
                    let (other_row, other_column) = R::Geo::coords(other);
                    let ahead = if side == Side::White { other_row < row } else { other_row > row };
                    if ahead && other_column.abs_diff(column) <= other_row.abs_diff(row) + 1 {
                        runaway_cone[side_index][bit as usize] |=
                            Bits::<R>::single(R::Geo::bit(other));
                    }
                }
            }
        }
        let start = Position::<R>::start();
        let total_men = start.occupied().count();
        Classic {
            weights,
            rows_from_white,
            row_planes,
            runaway_zone,
            runaway_cone,
            centre,
            total_men,
        }
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The score of `position` for the side to move.
    pub fn evaluate(&self, position: &Position<R>) -> i32 {
        let white = self.side_score(position, Side::White);
        let black = self.side_score(position, Side::Black);
        let score = white - black;
        if position.side_to_move() == Side::White { score } else { -score }
    }

    /// The terms of one side, from its own point of view.
    fn side_score(&self, position: &Position<R>, side: Side) -> i32 {
        let w = &self.weights;
        let kings_all = position.kings();
        let ours = position.pieces(side);
        let theirs = position.pieces(!side);
        let men = ours & !kings_all;
        let kings = ours & kings_all;
        let empty = position.empty();
        let men_count = men.count() as i32;
        let king_count = kings.count() as i32;
        let mut score = men_count * w.man + king_count * w.king;

        // Advancement, stronger as pieces come off.
        let pieces_left = position.occupied().count() as i32;
        let phase = (self.total_men as i32 - pieces_left).max(0) + 4;
        let side_index = side as usize;
        let advance: i32 = self.row_planes[side_index]
            .iter()
            .enumerate()
            .map(|(k, plane)| ((men & *plane).count() as i32) << k)
            .sum();
        score += advance * w.advance * phase / 8;

        // Back-rank guard while the opponent still has men to crown.
        let back = if side == Side::White {
            self.rows_from_white[0]
        } else {
            self.rows_from_white[self.rows_from_white.len() - 1]
        };
        if (theirs & !kings_all).any() {
            score += (men & back).count() as i32 * w.back_rank;
        }
        score += (men & self.centre).count() as i32 * w.centre;

        // Runaway men: nothing of the opponent's on the rows ahead within the man's reach.
        if R::GOAL != Goal::Losing {
            score += self.runaways(men, theirs, side) * w.runaway;
        }

        // King mobility.
        if kings.any() {
            let mut reach = 0;
            for dir in 0..4 {
                reach += if R::FLYING_KINGS {
                    slide::<R::Geo>(kings, dir, empty).count()
                } else {
                    (step::<R::Geo>(kings, dir) & empty).count()
                };
            }
            score += reach as i32 * w.king_mobility;
        }
        score
    }

    /// Men with an empty way to the crowning row: no enemy piece on the squares ahead of them
    /// within one column either side, on the last three rows.
    fn runaways(&self, men: Bits<R>, theirs: Bits<R>, side: Side) -> i32 {
        let side_index = side as usize;
        let cones = &self.runaway_cone[side_index];
        (men & self.runaway_zone[side_index])
            .iter()
            .filter(|&bit| (theirs & cones[bit as usize]).is_empty())
            .count() as i32
    }
}
