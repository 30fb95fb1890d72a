//! Capture sequences: a depth-first search over jumps, generic over the rule set.
//!
//! Owns every capture rule: men's and kings' jump directions (four, or eight in Frisian),
//! flying versus short kings, pieces lifted at once or at the end, the no-reversal rule,
//! promotion in mid-capture, men that may not take kings, kings that land right behind their
//! victim (Thai) or stop behind a king taken last (killer), and the rule that a flying king must
//! land where it can go on capturing. Precedence and de-duplication are left to the
//! [`CaptureSink`]. Depends on `geometry`, `rules` and `moves` only.

use crate::board::bitset::BitSet;
use crate::board::geometry::{Geometry, MAX_DIRECTIONS, jump, opposite, slide, step, step_within};
use crate::position::Bits;
use crate::rules::{CapturePrecedence, PromotionInCapture, Rules};
use std::marker::PhantomData;

/// No previous direction: the first jump of a sequence.
pub const NO_DIRECTION: usize = MAX_DIRECTIONS;

/// A set of directions.
pub type Directions = [bool; MAX_DIRECTIONS];

/// One complete capture sequence, as the search reports it.
#[derive(Clone, Copy, Debug)]
pub struct Capture<B> {
    /// Bit of the origin.
    pub from: u32,
    /// Bit of the destination.
    pub to: u32,
    /// The captured pieces.
    pub captured: B,
    /// The moving man is crowned.
    pub promotes: bool,
    /// The capture is made by a piece that was a king when the move began.
    pub by_king: bool,
    /// Where kings came in the capture order: bit `31 - i` is set when the `i`-th piece taken
    /// was a king (kept only for the Italian precedence rule; zero otherwise).
    pub king_order: u32,
}

/// Receives each complete capture sequence found by [`CaptureSearch`].
pub trait CaptureSink<B> {
    /// True when a flying king's capture that goes straight on after a jump should be reported
    /// once for every square where the king could have stopped between the two pieces (the
    /// route convention of the kish crate's Turkish perft table). Normally false.
    const EVERY_STOP: bool = false;

    /// The route steps onto the landing square `bit` (for sinks that record routes).
    #[inline(always)]
    fn enter(&mut self, _bit: u32) {}

    /// The route steps back off its last landing square.
    #[inline(always)]
    fn leave(&mut self) {}

    /// A complete capture; the route's landing squares are those entered and not yet left.
    fn capture(&mut self, capture: Capture<B>);
}

/// Directions in which a man of the given side may capture.
#[inline(always)]
pub fn man_capture_dirs<R: Rules, const WHITE: bool>() -> Directions {
    if R::MEN_CAPTURE_BACKWARDS {
        let mut dirs = [false; MAX_DIRECTIONS];
        for dir in 0..R::CAPTURE_DIRECTIONS {
            dirs[dir] = true;
        }
        dirs
    } else {
        man_move_dirs::<R, WHITE>()
    }
}

/// Directions in which a man of the given side may step: diagonally forward, or on an
/// orthogonal board forward and sideways.
#[inline(always)]
pub fn man_move_dirs<R: Rules, const WHITE: bool>() -> Directions {
    let mut dirs = [false; MAX_DIRECTIONS];
    if <R::Geo as Geometry>::ORTHOGONAL {
        dirs[if WHITE { 0 } else { 3 }] = true;
        dirs[1] = true;
        dirs[2] = true;
    } else if WHITE {
        dirs[0] = true;
        dirs[1] = true;
    } else {
        dirs[2] = true;
        dirs[3] = true;
    }
    dirs
}

/// Every capture direction of `R`.
#[inline(always)]
pub fn all_dirs<R: Rules>() -> Directions {
    let mut dirs = [false; MAX_DIRECTIONS];
    for dir in 0..R::CAPTURE_DIRECTIONS {
        dirs[dir] = true;
    }
    dirs
}

/// The opponent's pieces that a man may jump.
#[inline(always)]
pub fn men_targets<R: Rules>(them: Bits<R>, kings: Bits<R>) -> Bits<R> {
    if R::MEN_CAPTURE_KINGS { them } else { them & !kings }
}

/// The search state for the captures of one side in one position.
pub struct CaptureSearch<'a, R: Rules, S, const WHITE: bool> {
    sink: &'a mut S,
    from: u32,
    by_king: bool,
    promotion_row: Bits<R>,
    their_kings: Bits<R>,
    rules: PhantomData<R>,
}

/// Mutable part of the search: what can still be captured, which squares are free, what has
/// been captured so far and in which order kings came.
#[derive(Clone, Copy)]
struct State<B> {
    capturable: B,
    empty: B,
    captured: B,
    king_order: u32,
}

impl<'a, R: Rules, S: CaptureSink<Bits<R>>, const WHITE: bool> CaptureSearch<'a, R, S, WHITE> {
    /// A search that reports to `sink`; `their_kings` are the opponent's kings.
    pub fn new(sink: &'a mut S, their_kings: Bits<R>) -> Self {
        let promotion_row = if WHITE { R::Geo::TOP_ROW } else { R::Geo::BOTTOM_ROW };
        CaptureSearch {
            sink,
            from: 0,
            by_king: false,
            promotion_row,
            their_kings,
            rules: PhantomData,
        }
    }

    fn start(&mut self, from: u32, by_king: bool, them: Bits<R>, empty: Bits<R>) -> State<Bits<R>> {
        self.from = from;
        self.by_king = by_king;
        let at = Bits::<R>::single(from);
        State { capturable: them, empty: empty | at, captured: Bits::<R>::EMPTY, king_order: 0 }
    }

    /// Searches the captures of the man on bit `from` whose first jump goes in direction `dir`
    /// (the caller knows from set shifts which men jump in which direction). `them` are the
    /// opponent's pieces and `empty` the empty squares (the origin is treated as empty).
    #[inline(always)]
    pub fn man_first_jump(&mut self, dir: usize, from: u32, them: Bits<R>, empty: Bits<R>) {
        let state = self.start(from, false, them, empty);
        self.man_jump(dir, Bits::<R>::single(from), state);
    }

    /// Searches every capture of the king on bit `from`; see [`CaptureSearch::man_first_jump`].
    pub fn king(&mut self, from: u32, them: Bits<R>, empty: Bits<R>) -> bool {
        let state = self.start(from, true, them, empty);
        self.king_jumps(Bits::<R>::single(from), all_dirs::<R>(), NO_DIRECTION, false, state)
    }

    #[inline(always)]
    fn finish(&mut self, at: Bits<R>, state: State<Bits<R>>, promotes: bool) {
        self.sink.capture(Capture {
            from: self.from,
            to: at.lowest(),
            captured: state.captured,
            promotes,
            by_king: self.by_king,
            king_order: state.king_order,
        });
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
    fn after_jump(&self, state: State<Bits<R>>, victim: Bits<R>) -> State<Bits<R>> {
        let king_order =
            if R::PRECEDENCE == CapturePrecedence::Italian && (victim & self.their_kings).any() {
                state.king_order | (1 << (31 - state.captured.count()))
            } else {
                state.king_order
            };
        State {
            capturable: state.capturable & !victim,
            empty: if R::REMOVE_CAPTURED_AT_ONCE { state.empty | victim } else { state.empty },
            captured: state.captured | victim,
            king_order,
        }
    }

    /// True when a jump in `dir` after a jump in `last` is a reversal the rules forbid. (Where
    /// captured pieces stay on the board until the move ends, a reversal needs no check: it
    /// would meet the piece just taken, which can be neither jumped again nor passed.)
    #[inline(always)]
    fn reversal(dir: usize, last: usize) -> bool {
        R::NO_REVERSAL && last != NO_DIRECTION && dir == opposite(last)
    }

    /// What a man may jump in this state.
    #[inline(always)]
    fn man_victims(&self, state: State<Bits<R>>) -> Bits<R> {
        men_targets::<R>(state.capturable, self.their_kings)
    }

    /// Where a man on `at` can land with its next jump, per direction (a bitboard test that
    /// spares the recursive search at the end of most sequences), and whether it can jump at all.
    #[inline(always)]
    fn man_next_landings(
        &self,
        at: Bits<R>,
        last: usize,
        state: State<Bits<R>>,
    ) -> ([Bits<R>; MAX_DIRECTIONS], bool) {
        let dirs = man_capture_dirs::<R, WHITE>();
        let victims = self.man_victims(state);
        let mut landings = [Bits::<R>::EMPTY; MAX_DIRECTIONS];
        let mut any = Bits::<R>::EMPTY;
        crate::unroll_dirs!(R::CAPTURE_DIRECTIONS, |dir| {
            if dirs[dir] && !Self::reversal(dir, last) {
                landings[dir] = jump::<R::Geo>(at, dir, victims, state.empty);
                any |= landings[dir];
            }
        });
        (landings, any.any())
    }

    /// Goes on from `at` with every jump whose landing square `landings` holds.
    fn man_jumps(
        &mut self,
        at: Bits<R>,
        landings: &[Bits<R>; MAX_DIRECTIONS],
        state: State<Bits<R>>,
    ) {
        crate::unroll_dirs!(R::CAPTURE_DIRECTIONS, |dir| {
            if landings[dir].any() {
                let victim = step::<R::Geo>(at, dir);
                self.man_lands(dir, victim, landings[dir], state);
            }
        });
    }

    /// The captures of a man on `at` that begin with a jump in direction `dir`.
    #[inline(always)]
    fn man_jump(&mut self, dir: usize, at: Bits<R>, state: State<Bits<R>>) -> bool {
        let victim = step_within::<R::Geo>(at, dir, self.man_victims(state));
        let landing = step_within::<R::Geo>(victim, dir, state.empty);
        if landing.is_empty() {
            return false;
        }
        self.man_lands(dir, victim, landing, state);
        true
    }

    /// A man jumps `victim` in direction `dir` and lands on `landing`, then goes on if it can.
    #[inline(always)]
    fn man_lands(&mut self, dir: usize, victim: Bits<R>, landing: Bits<R>, state: State<Bits<R>>) {
        let next = self.after_jump(state, victim);
        self.enter(landing);
        let crowned = (landing & self.promotion_row).any();
        match R::PROMOTION_IN_CAPTURE {
            PromotionInCapture::EndsMove if crowned => self.finish(landing, next, true),
            PromotionInCapture::ContinuesAsKing if crowned => {
                if !self.king_jumps(landing, all_dirs::<R>(), dir, true, next) {
                    self.finish(landing, next, true);
                }
            }
            _ => {
                let (onward, any) = self.man_next_landings(landing, dir, next);
                if any {
                    self.man_jumps(landing, &onward, next);
                } else {
                    self.finish(landing, next, crowned);
                }
            }
        }
        self.leave();
    }

    /// Jumps of a king standing on `at`, in the directions allowed by `dirs`. `crowned` is true
    /// when the piece was a man at the start of the move (Russian promotion in mid-capture).
    fn king_jumps(
        &mut self,
        at: Bits<R>,
        dirs: Directions,
        last: usize,
        crowned: bool,
        state: State<Bits<R>>,
    ) -> bool {
        let mut found = false;
        crate::unroll_dirs!(R::CAPTURE_DIRECTIONS, |dir| {
            if dirs[dir] && !Self::reversal(dir, last) {
                found |= self.king_jump(dir, at, crowned, state);
            }
        });
        found
    }

    #[inline(always)]
    fn king_jump(&mut self, dir: usize, at: Bits<R>, crowned: bool, state: State<Bits<R>>) -> bool {
        let start = if R::FLYING_KINGS { at | slide::<R::Geo>(at, dir, state.empty) } else { at };
        let victim = step_within::<R::Geo>(start, dir, state.capturable);
        let first_landing = step_within::<R::Geo>(victim, dir, state.empty);
        if first_landing.is_empty() {
            return false;
        }
        let next = self.after_jump(state, victim);
        if !R::FLYING_KINGS || R::KING_LANDS_RIGHT_BEHIND {
            // One landing square; every direction but back over the victim stays open (where
            // pieces are lifted at once and reversals are allowed, that one too).
            let mut onward = all_dirs::<R>();
            if !R::REMOVE_CAPTURED_AT_ONCE || R::NO_REVERSAL {
                onward[opposite(dir)] = false;
            }
            self.enter(first_landing);
            if !self.king_jumps(first_landing, onward, dir, crowned, next) {
                self.finish(first_landing, next, crowned);
            }
            self.leave();
            return true;
        }
        // A flying king may stop on any free square behind the victim, but must stop on one
        // from which the capture goes on if there is such a square. From each landing square
        // it may turn; going straight on is tried once, from the last landing square, so that
        // routes differing only in where the king paused on a straight line are one route
        // (unless the sink asks for every stop, as kish's Turkish perft counts them).
        let landings = first_landing | slide::<R::Geo>(first_landing, dir, next.empty);
        let mut turns = all_dirs::<R>();
        turns[dir] = false;
        turns[opposite(dir)] = false;
        let mut continued = false;
        for bit in landings.iter() {
            let landing = Bits::<R>::single(bit);
            let mut allowed = turns;
            allowed[dir] = S::EVERY_STOP || (step::<R::Geo>(landing, dir) & landings).is_empty();
            self.enter(landing);
            continued |= self.king_jumps(landing, allowed, dir, crowned, next);
            self.leave();
        }
        if !continued {
            // Killer draughts: a king that takes a king last stops right behind it.
            let stops = if R::KILLER && (victim & self.their_kings).any() {
                first_landing
            } else {
                landings
            };
            for bit in stops.iter() {
                let landing = Bits::<R>::single(bit);
                self.enter(landing);
                self.finish(landing, next, crowned);
                self.leave();
            }
        }
        true
    }
}

/// True when one of `kings` can capture a piece of `them` (`empty`: the empty squares), by
/// bitboard tests alone. (The men's first jumps are computed by the caller, which keeps them.)
#[inline(always)]
pub fn kings_can_capture<R: Rules>(kings: Bits<R>, them: Bits<R>, empty: Bits<R>) -> bool {
    let mut landings = Bits::<R>::EMPTY;
    crate::unroll_dirs!(R::CAPTURE_DIRECTIONS, |dir| {
        let jumpers =
            if R::FLYING_KINGS { kings | slide::<R::Geo>(kings, dir, empty) } else { kings };
        landings |= jump::<R::Geo>(jumpers, dir, them, empty);
    });
    landings.any()
}
