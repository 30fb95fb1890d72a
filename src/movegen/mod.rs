//! Legal move generation, generic over the rule set and compiled once per variant and side.
//!
//! Captures are compulsory: when the side to move has any, only captures are generated, filtered
//! by the variant's precedence rule. [`count_moves`] counts legal moves without building them
//! where it can (bulk counting for perft). Depends on `geometry`, `rules`, `position` and `moves`;
//! it must not depend on notation, search or I/O.

mod capture;
pub mod perft;

pub use capture::{CaptureSink, NO_DIRECTION};

use crate::bitset::BitSet;
use crate::geometry::{Geometry, slide, step};
use crate::moves::{Move, MoveList};
use crate::position::{Bits, Position};
use crate::rules::{CapturePrecedence, PromotionInCapture, Rules};
use crate::types::Side;
use capture::{CaptureSearch, any_capture, man_move_dirs};

/// Fills `list` (after clearing it) with the legal moves of `position`.
pub fn generate<R: Rules>(position: &Position<R>, list: &mut MoveList<Bits<R>>) {
    list.clear();
    match position.side_to_move() {
        Side::White => generate_for::<R, true>(position, list),
        Side::Black => generate_for::<R, false>(position, list),
    }
}

/// The legal moves of `position` in a new list (unique convention).
pub fn legal_moves<R: Rules>(position: &Position<R>) -> MoveList<Bits<R>> {
    let mut list = MoveList::new();
    generate(position, &mut list);
    list
}

/// True when the side to move must capture.
pub fn has_capture<R: Rules>(position: &Position<R>) -> bool {
    match position.side_to_move() {
        Side::White => side_has_capture::<R, true>(position),
        Side::Black => side_has_capture::<R, false>(position),
    }
}

/// Number of legal moves; `scratch` is used when captures must be generated to be counted.
#[inline]
pub fn count_moves<R: Rules>(position: &Position<R>, scratch: &mut MoveList<Bits<R>>) -> u64 {
    match position.side_to_move() {
        Side::White => count_for::<R, true>(position, scratch),
        Side::Black => count_for::<R, false>(position, scratch),
    }
}

/// Reports every capture route of the side to move to `sink`, without precedence filtering.
pub fn visit_captures<R: Rules, S: CaptureSink<Bits<R>>>(position: &Position<R>, sink: &mut S) {
    match position.side_to_move() {
        Side::White => search_captures::<R, S, true>(position, sink),
        Side::Black => search_captures::<R, S, false>(position, sink),
    }
}

/// The precedence rank of a capture under `R`: among available captures only those of the
/// highest rank are legal.
#[inline(always)]
pub fn capture_rank<R: Rules>(captured: Bits<R>, kings: Bits<R>) -> u32 {
    match R::PRECEDENCE {
        CapturePrecedence::Free => 0,
        CapturePrecedence::MostPieces => captured.count(),
        CapturePrecedence::MostPiecesThenKings => {
            captured.count() * 256 + (captured & kings).count()
        }
    }
}

#[inline(always)]
fn parts<R: Rules, const WHITE: bool>(
    position: &Position<R>,
) -> (Bits<R>, Bits<R>, Bits<R>, Bits<R>) {
    let (us, them) = if WHITE { (Side::White, Side::Black) } else { (Side::Black, Side::White) };
    let ours = position.pieces(us);
    let kings = ours & position.kings();
    (ours & !kings, kings, position.pieces(them), position.empty())
}

#[inline(always)]
fn side_has_capture<R: Rules, const WHITE: bool>(position: &Position<R>) -> bool {
    let (men, kings, them, empty) = parts::<R, WHITE>(position);
    any_capture::<R, WHITE>(men, kings, them, empty)
}

/// Adds captures to a move list under the variant's precedence rule. `STOPS` selects the kish
/// route convention (see [`MoveList::keeping_every_stop`]).
struct ListSink<'a, R: Rules, const STOPS: bool> {
    list: &'a mut MoveList<Bits<R>>,
    kings: Bits<R>,
}

impl<R: Rules, const STOPS: bool> CaptureSink<Bits<R>> for ListSink<'_, R, STOPS> {
    const EVERY_STOP: bool = STOPS;

    #[inline(always)]
    fn capture(&mut self, from: u32, to: u32, captured: Bits<R>, promotes: bool) {
        let rank = capture_rank::<R>(captured, self.kings);
        self.list.push_capture(Move::new(from, to, captured, promotes), rank);
    }
}

/// Counts captures under the variant's precedence rule without listing them; only captures
/// long enough to have duplicate routes are kept, in `long`, to merge duplicates.
struct CountSink<'a, R: Rules> {
    long: &'a mut MoveList<Bits<R>>,
    kings: Bits<R>,
    best_rank: u32,
    count: u64,
}

impl<R: Rules> CaptureSink<Bits<R>> for CountSink<'_, R> {
    #[inline(always)]
    fn capture(&mut self, from: u32, to: u32, captured: Bits<R>, promotes: bool) {
        let rank = capture_rank::<R>(captured, self.kings);
        if rank < self.best_rank {
            return;
        }
        if rank > self.best_rank {
            self.best_rank = rank;
            self.count = 0;
            self.long.clear();
        }
        if captured.count() >= MoveList::<Bits<R>>::MIN_DUPLICATE_CAPTURES {
            let before = self.long.len();
            self.long.push_capture(Move::new(from, to, captured, promotes), 0);
            if self.long.len() == before {
                return;
            }
        }
        self.count += 1;
    }
}

/// Counts the captures in bulk when every one of them is a single jump by a man: then each
/// (man, direction) pair with a landing square is one move, whatever the precedence rule that
/// ranks by the number of pieces. Returns `None` (search needed) when a side has kings, when
/// the rules rank captures by more than their length, when a man crowned in mid-capture would
/// go on as a king, or when some landing square allows a further jump.
///
/// A further jump from a landing square never involves the piece just taken nor the square just
/// left: both lie in the reverse direction, which a further jump cannot take. So it can be
/// tested against the position's own sets.
#[inline(always)]
fn count_single_jumps<R: Rules, const WHITE: bool>(
    men: Bits<R>,
    kings: Bits<R>,
    them: Bits<R>,
    empty: Bits<R>,
) -> Option<u64> {
    let simple_rank =
        matches!(R::PRECEDENCE, CapturePrecedence::Free | CapturePrecedence::MostPieces);
    let king_continues = R::PROMOTION_IN_CAPTURE == PromotionInCapture::ContinuesAsKing;
    if kings.any() || !simple_rank || king_continues || R::REMOVE_CAPTURED_AT_ONCE {
        return None;
    }
    let man_dirs = capture::man_capture_dirs::<R, WHITE>();
    let promotion_row = if WHITE { R::Geo::TOP_ROW } else { R::Geo::BOTTOM_ROW };
    let ends_on_crowning = R::PROMOTION_IN_CAPTURE == PromotionInCapture::EndsMove;
    // Squares from which a man could jump in each direction.
    let mut jump_from = [Bits::<R>::EMPTY; 4];
    for dir in 0..4 {
        if man_dirs[dir] {
            let back = crate::geometry::opposite(dir);
            jump_from[dir] = step::<R::Geo>(step::<R::Geo>(empty, back) & them, back);
        }
    }
    let mut count = 0;
    for dir in 0..4 {
        if !man_dirs[dir] {
            continue;
        }
        let landings = step::<R::Geo>(step::<R::Geo>(men, dir) & them, dir) & empty;
        let mut onward = Bits::<R>::EMPTY;
        for next in 0..4 {
            if next != crate::geometry::opposite(dir) {
                onward |= jump_from[next];
            }
        }
        let mut continuing = landings & onward;
        if ends_on_crowning {
            continuing &= !promotion_row;
        }
        if continuing.any() {
            return None;
        }
        count += u64::from(landings.count());
    }
    Some(count)
}

fn search_captures<R: Rules, S: CaptureSink<Bits<R>>, const WHITE: bool>(
    position: &Position<R>,
    sink: &mut S,
) {
    let (men, kings, them, empty) = parts::<R, WHITE>(position);
    // Only men with a first jump start a search, direction by direction: found by shifting the
    // sets, not square by square.
    let man_dirs = capture::man_capture_dirs::<R, WHITE>();
    let mut search = CaptureSearch::<R, S, WHITE>::new(sink);
    for dir in 0..4 {
        if man_dirs[dir] {
            let back = crate::geometry::opposite(dir);
            let landings = step::<R::Geo>(step::<R::Geo>(men, dir) & them, dir) & empty;
            for bit in step::<R::Geo>(step::<R::Geo>(landings, back), back).iter() {
                search.man_first_jump(dir, bit, them, empty);
            }
        }
    }
    for bit in kings.iter() {
        search.king(bit, them, empty);
    }
}

fn generate_for<R: Rules, const WHITE: bool>(position: &Position<R>, list: &mut MoveList<Bits<R>>) {
    let (men, kings, them, empty) = parts::<R, WHITE>(position);
    if any_capture::<R, WHITE>(men, kings, them, empty) {
        let kings = position.kings();
        if list.counts_every_stop() {
            search_captures::<R, _, WHITE>(position, &mut ListSink::<R, true> { list, kings });
        } else {
            search_captures::<R, _, WHITE>(position, &mut ListSink::<R, false> { list, kings });
        }
        return;
    }
    let promotion_row = if WHITE { R::Geo::TOP_ROW } else { R::Geo::BOTTOM_ROW };
    let dirs = man_move_dirs::<R, WHITE>();
    for dir in 0..4 {
        if !dirs[dir] {
            continue;
        }
        let back = crate::geometry::opposite(dir);
        for to in (step::<R::Geo>(men, dir) & empty).iter() {
            let from = step::<R::Geo>(Bits::<R>::single(to), back).lowest();
            let promotes = promotion_row.contains(to);
            list.push_quiet(Move::new(from, to, Bits::<R>::EMPTY, promotes));
        }
    }
    for from in kings.iter() {
        let king = Bits::<R>::single(from);
        for dir in 0..4 {
            let targets = if R::FLYING_KINGS {
                slide::<R::Geo>(king, dir, empty)
            } else {
                step::<R::Geo>(king, dir) & empty
            };
            for to in targets.iter() {
                list.push_quiet(Move::new(from, to, Bits::<R>::EMPTY, false));
            }
        }
    }
}

#[inline(always)]
fn count_for<R: Rules, const WHITE: bool>(
    position: &Position<R>,
    scratch: &mut MoveList<Bits<R>>,
) -> u64 {
    let (men, kings, them, empty) = parts::<R, WHITE>(position);
    if any_capture::<R, WHITE>(men, kings, them, empty) {
        if scratch.counts_every_stop() {
            scratch.clear();
            generate_for::<R, WHITE>(position, scratch);
            return scratch.len() as u64;
        }
        if let Some(count) = count_single_jumps::<R, WHITE>(men, kings, them, empty) {
            return count;
        }
        scratch.clear();
        let mut sink =
            CountSink::<R> { long: scratch, kings: position.kings(), best_rank: 0, count: 0 };
        search_captures::<R, _, WHITE>(position, &mut sink);
        return sink.count;
    }
    let dirs = man_move_dirs::<R, WHITE>();
    let mut count = 0;
    for dir in 0..4 {
        if dirs[dir] {
            count += (step::<R::Geo>(men, dir) & empty).count();
        }
        if kings.any() {
            count += if R::FLYING_KINGS {
                slide::<R::Geo>(kings, dir, empty).count()
            } else {
                (step::<R::Geo>(kings, dir) & empty).count()
            };
        }
    }
    u64::from(count)
}
