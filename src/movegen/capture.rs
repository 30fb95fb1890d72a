//! Capture sequences: a depth-first search over jumps, generic over the rule set.
//!
//! Owns every capture rule: men's and kings' jump directions, flying versus short kings, pieces
//! lifted at once or at the end, the no-reversal rule, promotion in mid-capture, and the rule that
//! a flying king must land where it can go on capturing. Precedence and de-duplication are left
//! to the [`CaptureSink`]. Depends on `geometry`, `rules` and `moves` only.

use crate::bitset::BitSet;
use crate::geometry::{Geometry, opposite, slide, step};
use crate::position::Bits;
use crate::rules::{PromotionInCapture, Rules};
use std::marker::PhantomData;

/// No previous direction: the first jump of a sequence.
pub const NO_DIRECTION: usize = 4;

/// Receives each complete capture sequence found by [`CaptureSearch`].
pub trait CaptureSink<B> {
    /// The route steps onto the landing square `bit` (for sinks that record routes).
    #[inline(always)]
    fn enter(&mut self, _bit: u32) {}

    /// The route steps back off its last landing square.
    #[inline(always)]
    fn leave(&mut self) {}

    /// True when a flying king's capture that goes straight on after a jump should be reported
    /// once for every square where the king could have stopped between the two pieces (the
    /// route convention of the kish crate's Turkish perft table). Normally false.
    const EVERY_STOP: bool = false;

    /// A complete capture from bit `from` to bit `to`; the route's landing squares are those
    /// entered and not yet left.
    fn capture(&mut self, from: u32, to: u32, captured: B, promotes: bool);
}

/// Directions in which a man of the given side may capture.
#[inline(always)]
pub fn man_capture_dirs<R: Rules, const WHITE: bool>() -> [bool; 4] {
    if R::MEN_CAPTURE_BACKWARDS { [true; 4] } else { man_move_dirs::<R, WHITE>() }
}

/// Directions in which a man of the given side may step: diagonally forward, or on an
/// orthogonal board forward and sideways.
#[inline(always)]
pub fn man_move_dirs<R: Rules, const WHITE: bool>() -> [bool; 4] {
    if <R::Geo as Geometry>::ORTHOGONAL {
        if WHITE { [true, true, true, false] } else { [false, true, true, true] }
    } else if WHITE {
        [true, true, false, false]
    } else {
        [false, false, true, true]
    }
}

/// The search state for the captures of one side in one position.
pub struct CaptureSearch<'a, R: Rules, S, const WHITE: bool> {
    sink: &'a mut S,
    from: u32,
    promotion_row: Bits<R>,
    rules: PhantomData<R>,
}

/// Mutable part of the search: what can still be captured, which squares are free, what has
/// been captured so far.
#[derive(Clone, Copy)]
struct State<B> {
    capturable: B,
    empty: B,
    captured: B,
}

impl<'a, R: Rules, S: CaptureSink<Bits<R>>, const WHITE: bool> CaptureSearch<'a, R, S, WHITE> {
    /// A search that reports to `sink`.
    pub fn new(sink: &'a mut S) -> Self {
        let promotion_row = if WHITE { R::Geo::TOP_ROW } else { R::Geo::BOTTOM_ROW };
        CaptureSearch { sink, from: 0, promotion_row, rules: PhantomData }
    }

    /// Searches the captures of the man on bit `from` whose first jump goes in direction `dir`
    /// (the caller knows from set shifts which men jump in which direction). `them` are the
    /// opponent's pieces and `empty` the empty squares (the origin is treated as empty).
    #[inline(always)]
    pub fn man_first_jump(&mut self, dir: usize, from: u32, them: Bits<R>, empty: Bits<R>) {
        let at = Bits::<R>::single(from);
        self.from = from;
        let state = State { capturable: them, empty: empty | at, captured: Bits::<R>::EMPTY };
        self.man_jump(dir, at, state);
    }

    /// Searches every capture of the king on bit `from`; see [`CaptureSearch::man_first_jump`].
    pub fn king(&mut self, from: u32, them: Bits<R>, empty: Bits<R>) -> bool {
        let at = Bits::<R>::single(from);
        self.from = from;
        let state = State { capturable: them, empty: empty | at, captured: Bits::<R>::EMPTY };
        self.king_jumps(at, [true; 4], NO_DIRECTION, false, state)
    }

    #[inline(always)]
    fn finish(&mut self, at: Bits<R>, captured: Bits<R>, promotes: bool) {
        self.sink.capture(self.from, at.lowest(), captured, promotes);
    }

    #[inline(always)]
    fn enter(&mut self, at: Bits<R>) {
        self.sink.enter(at.lowest());
    }

    #[inline(always)]
    fn leave(&mut self) {
        self.sink.leave();
    }

    /// The state after `victim` is jumped.
    #[inline(always)]
    fn after_jump(state: State<Bits<R>>, victim: Bits<R>) -> State<Bits<R>> {
        State {
            capturable: state.capturable & !victim,
            empty: if R::REMOVE_CAPTURED_AT_ONCE { state.empty | victim } else { state.empty },
            captured: state.captured | victim,
        }
    }

    /// True when a jump in `dir` after a jump in `last` is a reversal the rules forbid. (Where
    /// captured pieces stay on the board until the move ends, a reversal needs no check: it
    /// would meet the piece just taken, which can be neither jumped again nor passed.)
    #[inline(always)]
    fn reversal(dir: usize, last: usize) -> bool {
        R::NO_REVERSAL && last != NO_DIRECTION && dir == opposite(last)
    }

    /// True when a man on `at` has a jump: a bitboard test that spares the recursive search
    /// at the end of most sequences.
    #[inline(always)]
    fn man_can_jump(at: Bits<R>, last: usize, state: State<Bits<R>>) -> bool {
        let dirs = man_capture_dirs::<R, WHITE>();
        let mut landings = Bits::<R>::EMPTY;
        for dir in 0..4 {
            if dirs[dir] && !Self::reversal(dir, last) {
                landings |= step::<R::Geo>(step::<R::Geo>(at, dir) & state.capturable, dir);
            }
        }
        (landings & state.empty).any()
    }

    fn man_jumps(&mut self, at: Bits<R>, last: usize, state: State<Bits<R>>) -> bool {
        let dirs = man_capture_dirs::<R, WHITE>();
        let mut found = false;
        for dir in 0..4 {
            if dirs[dir] && !Self::reversal(dir, last) {
                found |= self.man_jump(dir, at, state);
            }
        }
        found
    }

    /// The captures of a man on `at` that begin with a jump in direction `dir`.
    #[inline(always)]
    fn man_jump(&mut self, dir: usize, at: Bits<R>, state: State<Bits<R>>) -> bool {
        let victim = step::<R::Geo>(at, dir) & state.capturable;
        let landing = step::<R::Geo>(victim, dir) & state.empty;
        if landing.is_empty() {
            return false;
        }
        let next = Self::after_jump(state, victim);
        self.enter(landing);
        let crowned = (landing & self.promotion_row).any();
        match R::PROMOTION_IN_CAPTURE {
            PromotionInCapture::EndsMove if crowned => self.finish(landing, next.captured, true),
            PromotionInCapture::ContinuesAsKing if crowned => {
                if !self.king_jumps(landing, [true; 4], dir, true, next) {
                    self.finish(landing, next.captured, true);
                }
            }
            _ => {
                if Self::man_can_jump(landing, dir, next) {
                    self.man_jumps(landing, dir, next);
                } else {
                    self.finish(landing, next.captured, crowned);
                }
            }
        }
        self.leave();
        true
    }

    /// Jumps of a king standing on `at`, in the directions allowed by `dirs`. `crowned` is true
    /// when the piece was a man at the start of the move (Russian promotion in mid-capture).
    fn king_jumps(
        &mut self,
        at: Bits<R>,
        dirs: [bool; 4],
        last: usize,
        crowned: bool,
        state: State<Bits<R>>,
    ) -> bool {
        let mut found = false;
        for dir in 0..4 {
            if !dirs[dir] || Self::reversal(dir, last) {
                continue;
            }
            let start =
                if R::FLYING_KINGS { at | slide::<R::Geo>(at, dir, state.empty) } else { at };
            let victim = step::<R::Geo>(start, dir) & state.capturable;
            if victim.is_empty() {
                continue;
            }
            let first_landing = step::<R::Geo>(victim, dir) & state.empty;
            if first_landing.is_empty() {
                continue;
            }
            found = true;
            let next = Self::after_jump(state, victim);
            if !R::FLYING_KINGS {
                self.enter(first_landing);
                if !self.king_jumps(first_landing, [true; 4], dir, crowned, next) {
                    self.finish(first_landing, next.captured, crowned);
                }
                self.leave();
                continue;
            }
            // A flying king may stop on any free square behind the victim, but must stop on one
            // from which the capture goes on if there is such a square. From each landing square
            // it may turn; going straight on is tried once, from the last landing square, so
            // that routes differing only in where the king paused on a straight line are one
            // (unless the sink asks for every stop, as kish's Turkish perft counts them).
            let landings = first_landing | slide::<R::Geo>(first_landing, dir, next.empty);
            let turns = perpendicular(dir);
            let mut continued = false;
            for bit in landings.iter() {
                let landing = Bits::<R>::single(bit);
                let last_square = step::<R::Geo>(landing, dir) & landings;
                let mut allowed = turns;
                allowed[dir] = S::EVERY_STOP || last_square.is_empty();
                self.enter(landing);
                continued |= self.king_jumps(landing, allowed, dir, crowned, next);
                self.leave();
            }
            if !continued {
                for bit in landings.iter() {
                    let landing = Bits::<R>::single(bit);
                    self.enter(landing);
                    self.finish(landing, next.captured, crowned);
                    self.leave();
                }
            }
        }
        found
    }
}

/// The two directions at right angles to `dir`, as an allowed-direction mask.
#[inline(always)]
fn perpendicular(dir: usize) -> [bool; 4] {
    if dir == 0 || dir == 3 { [false, true, true, false] } else { [true, false, false, true] }
}

/// True when the side to move (men `men`, kings `kings`) has any capture, by bitboard tests
/// alone. `them` are the opponent's pieces, `empty` the empty squares.
#[inline(always)]
pub fn any_capture<R: Rules, const WHITE: bool>(
    men: Bits<R>,
    kings: Bits<R>,
    them: Bits<R>,
    empty: Bits<R>,
) -> bool {
    let man_dirs = man_capture_dirs::<R, WHITE>();
    for dir in 0..4 {
        let mut jumpers = if man_dirs[dir] { men } else { Bits::<R>::EMPTY };
        if kings.any() {
            jumpers |=
                if R::FLYING_KINGS { kings | slide::<R::Geo>(kings, dir, empty) } else { kings };
        }
        if (step::<R::Geo>(step::<R::Geo>(jumpers, dir) & them, dir) & empty).any() {
            return true;
        }
    }
    false
}
