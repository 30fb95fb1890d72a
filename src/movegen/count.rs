//! Counting legal moves without listing them: perft's bulk count of the last ply, and of the
//! last two plies from a parent's sets (no child position is built). Quiet moves are counted by
//! population counts, single-jump captures from the first-jump sets, longer captures by the
//! capture search with a sink that keeps only what de-duplication needs. Depends on the rest of
//! `movegen`, `position` and `moves` only.

use super::capture::man_move_dirs;
use super::{
    Capture, CaptureSink, FirstJumps, Sides, capture_rank, first_jumps, generate_for,
    min_duplicate, search_captures_from,
};
use crate::board::bitset::BitSet;
use crate::board::geometry::{slide, step_within};
use crate::board::moves::{Move, MoveList};
use crate::board::types::Side;
use crate::position::{Bits, Position};
use crate::rules::Rules;

/// Number of legal moves; `scratch` is used when captures must be generated to be counted.
#[inline]
pub fn count_moves<R: Rules>(position: &Position<R>, scratch: &mut MoveList<Bits<R>>) -> u64 {
    match position.side_to_move() {
        Side::White => count_for::<R, true>(position, scratch),
        Side::Black => count_for::<R, false>(position, scratch),
    }
}

/// The sum over `moves` (legal moves of `position`) of the number of legal moves after each:
/// perft's last two plies. Each child is seen through its sets, computed from the parent's and
/// the move, rather than built as a position (a copy to memory and back per child).
pub fn count_after_each<R: Rules>(
    position: &Position<R>,
    moves: &MoveList<Bits<R>>,
    scratch: &mut MoveList<Bits<R>>,
) -> u64 {
    match position.side_to_move() {
        Side::White => count_children::<R, false>(position, moves, scratch),
        Side::Black => count_children::<R, true>(position, moves, scratch),
    }
}

/// [`count_after_each`] for a parent whose opponent is White when `WHITE` (the children's
/// side to move).
fn count_children<R: Rules, const WHITE: bool>(
    position: &Position<R>,
    moves: &MoveList<Bits<R>>,
    scratch: &mut MoveList<Bits<R>>,
) -> u64 {
    let mut total = 0;
    for mv in moves.iter() {
        let sides = Sides::<R>::after::<WHITE>(position, mv);
        let child = || {
            let mut child = *position;
            child.play_unhashed(mv);
            child
        };
        total += count_sides::<R, WHITE>(&sides, scratch, child);
    }
    total
}

/// Counts captures under the variant's precedence rule without listing them; only captures
/// long enough to have duplicate routes are kept, in `long`, to merge duplicates.
struct CountSink<'a, R: Rules> {
    long: &'a mut MoveList<Bits<R>>,
    kings: Bits<R>,
    best_rank: u64,
    count: u64,
}

impl<R: Rules> CaptureSink<Bits<R>> for CountSink<'_, R> {
    #[inline(always)]
    fn capture(&mut self, capture: Capture<Bits<R>>) {
        let rank = capture_rank::<R>(&capture, self.kings);
        if rank < self.best_rank {
            return;
        }
        if rank > self.best_rank {
            self.best_rank = rank;
            self.count = 0;
            self.long.clear();
        }
        if capture.captured.count() >= min_duplicate::<R>(&capture) {
            let before = self.long.len();
            let mv = Move::new(capture.from, capture.to, capture.captured, capture.promotes);
            self.long.push_capture(mv, 0, true);
            if self.long.len() == before {
                return;
            }
        }
        self.count += 1;
    }
}

#[inline(always)]
fn count_for<R: Rules, const WHITE: bool>(
    position: &Position<R>,
    scratch: &mut MoveList<Bits<R>>,
) -> u64 {
    count_sides::<R, WHITE>(&Sides::<R>::of::<WHITE>(position), scratch, || *position)
}

/// The number of legal moves of the side `sides` describes (White when `WHITE`); `position`
/// builds the position itself, needed only to list captures in the kish convention.
#[inline(always)]
fn count_sides<R: Rules, const WHITE: bool>(
    sides: &Sides<R>,
    scratch: &mut MoveList<Bits<R>>,
    position: impl FnOnce() -> Position<R>,
) -> u64 {
    if let Some(landings) = sides.capture_landings::<WHITE>() {
        if scratch.counts_every_stop() {
            scratch.clear();
            generate_for::<R, WHITE>(&position(), scratch, true);
            return scratch.len() as u64;
        }
        let from = match first_jumps::<R, WHITE>(sides, &landings) {
            FirstJumps::Counted(count, _) => return count,
            FirstJumps::SearchFrom(continuing) => continuing,
            FirstJumps::SearchAll => landings,
        };
        scratch.clear();
        let mut sink =
            CountSink::<R> { long: scratch, kings: sides.all_kings, best_rank: 0, count: 0 };
        search_captures_from::<R, _, WHITE>(sides, &from, &mut sink);
        return sink.count;
    }
    let dirs = man_move_dirs::<R, WHITE>();
    let mut count = 0;
    crate::unroll_dirs!(4, |dir| {
        if dirs[dir] {
            count += step_within::<R::Geo>(sides.men, dir, sides.empty).count();
        }
    });
    if sides.kings.any() {
        crate::unroll_dirs!(4, |dir| {
            count += if R::FLYING_KINGS {
                slide::<R::Geo>(sides.kings, dir, sides.empty).count()
            } else {
                step_within::<R::Geo>(sides.kings, dir, sides.empty).count()
            };
        });
    }
    u64::from(count)
}
