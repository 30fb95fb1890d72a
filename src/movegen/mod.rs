//! Legal move generation, generic over the rule set and compiled once per variant and side.
//!
//! Captures are compulsory: when the side to move has any, only captures are generated, filtered
//! by the variant's precedence rule (a house rule can make capturing optional, see
//! [`generate_with`]). [`count_moves`] counts legal moves without building them where it can
//! (bulk counting for perft). Depends on `geometry`, `rules`, `position` and `moves`; it must
//! not depend on notation, search or I/O.

mod capture;
mod count;
pub mod perft;

pub use capture::{Capture, CaptureSink, NO_DIRECTION};
pub use count::{count_after_each, count_moves};

use crate::board::bitset::BitSet;
use crate::board::geometry::{
    Geometry, MAX_DIRECTIONS, back_from, jump, opposite, slide, step, step_within,
};
use crate::board::moves::{Move, MoveList};
use crate::board::types::Side;
use crate::position::{Bits, MoveOf, Position};
use crate::rules::{CapturePrecedence, PromotionInCapture, Rules};
use capture::{CaptureSearch, kings_can_capture, man_capture_dirs, man_move_dirs, men_targets};

/// The directions in which a man of `side` captures.
pub fn man_capture_directions<R: Rules>(side: Side) -> [bool; MAX_DIRECTIONS] {
    match side {
        Side::White => man_capture_dirs::<R, true>(),
        Side::Black => man_capture_dirs::<R, false>(),
    }
}

/// What the kings of one side reach with a quiet move, counted king by king: the squares where
/// no man of the other side could take the king at once, and the others (an enemy man beside
/// the square with an empty square behind it, in a direction that man captures in). The
/// evaluation weighs the two (Scan 2.0's king mobility); a king's own square is taken as
/// occupied, and enemy kings are not looked at, which keeps it a few shifts per king.
#[inline]
pub fn king_reach<R: Rules>(position: &Position<R>, side: Side) -> (u32, u32) {
    match side {
        Side::White => king_reach_for::<R, true>(position),
        Side::Black => king_reach_for::<R, false>(position),
    }
}

#[inline(always)]
fn king_reach_for<R: Rules, const WHITE: bool>(position: &Position<R>) -> (u32, u32) {
    let sides = Sides::<R>::of::<WHITE>(position);
    if sides.kings.is_empty() {
        return (0, 0);
    }
    let their_men = sides.them & !sides.their_kings;
    // An enemy man on the square one step along `dir` jumps against `dir`, over the square,
    // onto the square one step back: it needs that capture direction and that square empty.
    let their_dirs =
        if WHITE { man_capture_dirs::<R, false>() } else { man_capture_dirs::<R, true>() };
    let mut exposed = Bits::<R>::EMPTY;
    crate::unroll_dirs!(4, |dir| {
        if their_dirs[opposite(dir)] {
            exposed |= step::<R::Geo>(their_men, opposite(dir)) & step::<R::Geo>(sides.empty, dir);
        }
    });
    let (mut safe, mut unsafe_) = (0, 0);
    for from in sides.kings.iter() {
        let reached = king_quiet_targets::<R>(Bits::<R>::single(from), sides.empty);
        safe += (reached & !exposed).count();
        unsafe_ += (reached & exposed).count();
    }
    (safe, unsafe_)
}

/// Fills `list` (after clearing it) with the legal moves of `position`.
pub fn generate<R: Rules>(position: &Position<R>, list: &mut MoveList<Bits<R>>) {
    generate_with(position, list, true);
}

/// Fills `list` (after clearing it) with the moves of `position`. With `mandatory_capture`
/// false (a house rule of casual play) the quiet moves are legal beside the captures; a capture,
/// once begun, is still completed and still follows the precedence rule.
pub fn generate_with<R: Rules>(
    position: &Position<R>,
    list: &mut MoveList<Bits<R>>,
    mandatory_capture: bool,
) {
    list.clear();
    match position.side_to_move() {
        Side::White => generate_for::<R, true>(position, list, mandatory_capture),
        Side::Black => generate_for::<R, false>(position, list, mandatory_capture),
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
        Side::White => Sides::<R>::of::<true>(position).any_capture::<true>(),
        Side::Black => Sides::<R>::of::<false>(position).any_capture::<false>(),
    }
}

/// True when the side to move has a non-capturing move by a piece outside `except`: one step
/// into an empty square is enough, a flying king's too. With [`has_capture`] it says whether the
/// side can move at all, without listing the moves (the search asks it at its leaves).
#[inline]
pub fn has_quiet_move<R: Rules>(position: &Position<R>, except: Bits<R>) -> bool {
    match position.side_to_move() {
        Side::White => has_quiet_move_for::<R, true>(position, except),
        Side::Black => has_quiet_move_for::<R, false>(position, except),
    }
}

#[inline(always)]
fn has_quiet_move_for<R: Rules, const WHITE: bool>(
    position: &Position<R>,
    except: Bits<R>,
) -> bool {
    let sides = Sides::<R>::of::<WHITE>(position);
    let (men, kings) = (sides.men & !except, sides.kings & !except);
    let dirs = man_move_dirs::<R, WHITE>();
    let mut reached = Bits::<R>::EMPTY;
    crate::unroll_dirs!(4, |dir| {
        if dirs[dir] {
            reached |= step_within::<R::Geo>(men, dir, sides.empty);
        }
    });
    // The search asks at every leaf, and nearly always a man can step: the kings' four
    // directions are looked at only when none can.
    if reached.any() {
        return true;
    }
    if kings.is_empty() {
        return false;
    }
    crate::unroll_dirs!(4, |dir| {
        reached |= step_within::<R::Geo>(kings, dir, sides.empty);
    });
    reached.any()
}

/// The squares the piece of the side to move on square `from` reaches with a non-capturing move
/// that crowns nothing (empty when `from` holds none of its pieces). With [`has_capture`] it
/// says whether one quiet move is legal without listing them all (the endgame database build
/// asks it of every candidate un-move).
pub fn quiet_targets<R: Rules>(position: &Position<R>, from: u32) -> Bits<R> {
    match position.side_to_move() {
        Side::White => quiet_targets_for::<R, true>(position, from),
        Side::Black => quiet_targets_for::<R, false>(position, from),
    }
}

fn quiet_targets_for<R: Rules, const WHITE: bool>(position: &Position<R>, from: u32) -> Bits<R> {
    let sides = Sides::<R>::of::<WHITE>(position);
    let piece = Bits::<R>::single(from);
    let mut reached = Bits::<R>::EMPTY;
    if (sides.men & piece).any() {
        let dirs = man_move_dirs::<R, WHITE>();
        crate::unroll_dirs!(4, |dir| {
            if dirs[dir] {
                reached |= step_within::<R::Geo>(piece, dir, sides.empty);
            }
        });
        let promotion_row = if WHITE { R::Geo::TOP_ROW } else { R::Geo::BOTTOM_ROW };
        reached &= !promotion_row;
    } else if (sides.kings & piece).any() {
        reached = king_quiet_targets::<R>(piece, sides.empty);
    }
    reached
}

/// The squares the king on `piece` reaches with a quiet move over `empty`: a slide in each
/// direction where kings fly, else a step.
#[inline(always)]
fn king_quiet_targets<R: Rules>(piece: Bits<R>, empty: Bits<R>) -> Bits<R> {
    let mut reached = Bits::<R>::EMPTY;
    crate::unroll_dirs!(4, |dir| {
        reached |= if R::FLYING_KINGS {
            slide::<R::Geo>(piece, dir, empty)
        } else {
            step_within::<R::Geo>(piece, dir, empty)
        };
    });
    reached
}

/// Reports every capture route of the side to move to `sink`, without precedence filtering.
pub fn visit_captures<R: Rules, S: CaptureSink<Bits<R>>>(position: &Position<R>, sink: &mut S) {
    match position.side_to_move() {
        Side::White => visit_for::<R, S, true>(&Sides::<R>::of::<true>(position), sink),
        Side::Black => visit_for::<R, S, false>(&Sides::<R>::of::<false>(position), sink),
    }
}

fn visit_for<R: Rules, S: CaptureSink<Bits<R>>, const WHITE: bool>(sides: &Sides<R>, sink: &mut S) {
    if let Some(landings) = sides.capture_landings::<WHITE>() {
        search_captures_from::<R, S, WHITE>(sides, &landings, sink);
    }
}

/// The precedence rank of a capture under `R`: among available captures only those of the
/// highest rank are legal. `kings` are all kings on the board before the move.
#[inline(always)]
pub fn capture_rank<R: Rules>(capture: &Capture<Bits<R>>, kings: Bits<R>) -> u64 {
    let pieces = u64::from(capture.captured.count());
    let kings_taken = u64::from((capture.captured & kings).count());
    let by_king = u64::from(capture.by_king);
    match R::PRECEDENCE {
        CapturePrecedence::Free => 0,
        CapturePrecedence::MostPieces => pieces,
        CapturePrecedence::MostPiecesThenKings => pieces << 8 | kings_taken,
        CapturePrecedence::KingFirst => by_king,
        // FID 6.6-6.9: quantity, then the capturing piece, then quality, then order.
        CapturePrecedence::Italian => {
            pieces << 48 | by_king << 40 | kings_taken << 32 | u64::from(capture.king_order)
        }
        // A king is worth 1.999 men: n kings beat 2n - 1 men and lose to 2n. Ties: by a king.
        CapturePrecedence::HighestValue => {
            ((pieces - kings_taken) * 1000 + kings_taken * 1999) << 1 | by_king
        }
    }
}

/// Fewest captured pieces from which `capture` may have a twin route (same origin, destination
/// and victims) that must be merged with it.
#[inline(always)]
fn min_duplicate<R: Rules>(capture: &Capture<Bits<R>>) -> u32 {
    if capture.by_king || R::PROMOTION_IN_CAPTURE == PromotionInCapture::ContinuesAsKing {
        R::MIN_DUPLICATE_CAPTURES
    } else {
        R::MIN_DUPLICATE_MAN_CAPTURES
    }
}

/// The side to move's men and kings, the opponent's pieces and kings, and the empty squares.
struct Sides<R: Rules> {
    men: Bits<R>,
    kings: Bits<R>,
    them: Bits<R>,
    their_kings: Bits<R>,
    empty: Bits<R>,
    all_kings: Bits<R>,
}

impl<R: Rules> Sides<R> {
    #[inline(always)]
    fn of<const WHITE: bool>(position: &Position<R>) -> Self {
        let (us, them) =
            if WHITE { (Side::White, Side::Black) } else { (Side::Black, Side::White) };
        let ours = position.pieces(us);
        let theirs = position.pieces(them);
        let all_kings = position.kings();
        Sides {
            men: ours & !all_kings,
            kings: ours & all_kings,
            them: theirs,
            their_kings: theirs & all_kings,
            empty: position.empty(),
            all_kings,
        }
    }

    /// The sides of the position after `mv`, for its side to move (White when `WHITE`).
    #[inline(always)]
    fn after<const WHITE: bool>(position: &Position<R>, mv: &MoveOf<R>) -> Self {
        let (pieces, kings) = position.sets_after(mv);
        let (ours, movers) = if WHITE { (pieces[0], pieces[1]) } else { (pieces[1], pieces[0]) };
        Sides {
            men: ours & !kings,
            kings: ours & kings,
            them: movers,
            their_kings: movers & kings,
            empty: !(ours | movers) & R::Geo::PLAYABLE,
            all_kings: kings,
        }
    }

    /// True when the side has a capture (the landing sets, unused, are optimised away).
    #[inline(always)]
    fn any_capture<const WHITE: bool>(&self) -> bool {
        self.capture_landings::<WHITE>().is_some()
    }

    /// Where the men's first jumps land, per direction, when the side has a capture (by a man
    /// or a king); `None` when it has none. The sets serve the capture search and the bulk
    /// count, so they are computed once.
    #[inline(always)]
    fn capture_landings<const WHITE: bool>(&self) -> Option<[Bits<R>; MAX_DIRECTIONS]> {
        let man_dirs = man_capture_dirs::<R, WHITE>();
        let prey = men_targets::<R>(self.them, self.their_kings);
        let mut landings = [Bits::<R>::EMPTY; MAX_DIRECTIONS];
        let mut any = Bits::<R>::EMPTY;
        crate::unroll_dirs!(R::CAPTURE_DIRECTIONS, |dir| {
            if man_dirs[dir] {
                landings[dir] = jump::<R::Geo>(self.men, dir, prey, self.empty);
                any |= landings[dir];
            }
        });
        let kings_capture = || kings_can_capture::<R>(self.kings, self.them, self.empty);
        if any.any() || (self.kings.any() && kings_capture()) { Some(landings) } else { None }
    }
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
    fn capture(&mut self, capture: Capture<Bits<R>>) {
        let rank = capture_rank::<R>(&capture, self.kings);
        let mv = Move::new(capture.from, capture.to, capture.captured, capture.promotes);
        let check = capture.captured.count() >= min_duplicate::<R>(&capture);
        self.list.push_capture(mv, rank, check);
    }
}

/// What the men's first jumps tell before any capture search.
enum FirstJumps<B> {
    /// Every capture is a single jump by a man: this many are legal (only those taking a king
    /// when the flag is set: the precedence rule weighs the victim).
    Counted(u64, bool),
    /// Some captures go on, and under the precedence rule any longer capture outranks every
    /// single jump: only the men whose first jump lands on one of these squares (one set per
    /// direction) need searching.
    SearchFrom([B; crate::board::geometry::MAX_DIRECTIONS]),
    /// Nothing can be concluded: search every piece.
    SearchAll,
}

/// Looks at the men's first jumps by set shifts. When none can go on, the captures are counted
/// in bulk: each (man, direction) pair with a landing square is one move (where the precedence
/// rule weighs the piece taken, Spanish quality or Frisian value, taking a king outranks taking
/// a man, so only the king captures count if there are any). When some can go on and the
/// precedence rule counts pieces first, only those need a search. Nothing is concluded when the
/// side has kings, when a man crowned in mid-capture would go on as a king, or when pieces are
/// lifted at once.
///
/// A further jump from a landing square never involves the piece just taken nor the square just
/// left: both lie in the reverse direction, which a further jump cannot take. So it can be
/// tested against the position's own sets.
#[inline(always)]
fn first_jumps<R: Rules, const WHITE: bool>(
    sides: &Sides<R>,
    landings: &[Bits<R>; MAX_DIRECTIONS],
) -> FirstJumps<Bits<R>> {
    let weighs_victims = matches!(
        R::PRECEDENCE,
        CapturePrecedence::MostPiecesThenKings | CapturePrecedence::HighestValue
    );
    // Under these rules a capture of two pieces outranks any single jump (Frisian: two men are
    // worth 2000, a king 1999).
    let pieces_first = matches!(
        R::PRECEDENCE,
        CapturePrecedence::MostPieces
            | CapturePrecedence::MostPiecesThenKings
            | CapturePrecedence::Italian
            | CapturePrecedence::HighestValue
    );
    let king_continues = R::PROMOTION_IN_CAPTURE == PromotionInCapture::ContinuesAsKing;
    if sides.kings.any() || king_continues || R::REMOVE_CAPTURED_AT_ONCE {
        return FirstJumps::SearchAll;
    }
    let prey = men_targets::<R>(sides.them, sides.their_kings);
    let man_dirs = man_capture_dirs::<R, WHITE>();
    let promotion_row = if WHITE { R::Geo::TOP_ROW } else { R::Geo::BOTTOM_ROW };
    // A man crowned on arrival stops there (or, where it goes on as a man, may continue).
    let stops_on_crowning = R::PROMOTION_IN_CAPTURE == PromotionInCapture::EndsMove;
    // Squares from which a man could jump on. A landing square's jump back would land on the
    // square its man left, which is not empty in these sets: no direction needs leaving out.
    let mut onward = Bits::<R>::EMPTY;
    let mut all_landings = Bits::<R>::EMPTY;
    crate::unroll_dirs!(R::CAPTURE_DIRECTIONS, |dir| {
        if man_dirs[dir] {
            onward |= jump::<R::Geo>(sides.empty, opposite(dir), prey, R::Geo::PLAYABLE);
            all_landings |= landings[dir];
        }
    });
    if stops_on_crowning {
        onward &= !promotion_row;
    }
    if (all_landings & onward).any() {
        if !pieces_first {
            return FirstJumps::SearchAll;
        }
        let mut continuing = [Bits::<R>::EMPTY; MAX_DIRECTIONS];
        crate::unroll_dirs!(R::CAPTURE_DIRECTIONS, |dir| {
            continuing[dir] = landings[dir] & onward;
        });
        return FirstJumps::SearchFrom(continuing);
    }
    if weighs_victims && sides.their_kings.any() {
        let mut of_kings = 0;
        crate::unroll_dirs!(R::CAPTURE_DIRECTIONS, |dir| {
            if man_dirs[dir] {
                let king_landings = step::<R::Geo>(prey & sides.their_kings, dir) & landings[dir];
                of_kings += u64::from(king_landings.count());
            }
        });
        if of_kings > 0 {
            return FirstJumps::Counted(of_kings, true);
        }
    }
    let mut all = 0;
    crate::unroll_dirs!(R::CAPTURE_DIRECTIONS, |dir| {
        all += u64::from(landings[dir].count());
    });
    FirstJumps::Counted(all, false)
}

/// Lists the single jumps of the men (all of them, or only those that take a king), when
/// [`first_jumps`] has shown that they are the legal captures: no search is needed. Moves come
/// in the order the capture search would give them (direction, then square).
fn push_single_jumps<R: Rules, const WHITE: bool>(
    sides: &Sides<R>,
    landings: &[Bits<R>; MAX_DIRECTIONS],
    kings_only: bool,
    list: &mut MoveList<Bits<R>>,
) {
    let man_dirs = man_capture_dirs::<R, WHITE>();
    let promotion_row = if WHITE { R::Geo::TOP_ROW } else { R::Geo::BOTTOM_ROW };
    let king_victims = men_targets::<R>(sides.them, sides.their_kings) & sides.their_kings;
    crate::unroll_dirs!(R::CAPTURE_DIRECTIONS, |dir| {
        if man_dirs[dir] {
            let mut targets = landings[dir];
            if kings_only {
                targets &= step::<R::Geo>(king_victims, dir);
            }
            for to in targets.iter() {
                let victim = Bits::<R>::single(back_from::<R::Geo>(to, dir, 1));
                let from = back_from::<R::Geo>(to, dir, 2);
                let capture = Capture {
                    from,
                    to,
                    captured: victim,
                    promotes: promotion_row.contains(to),
                    by_king: false,
                    king_order: if (victim & sides.their_kings).any() { 1 << 31 } else { 0 },
                };
                let rank = capture_rank::<R>(&capture, sides.all_kings);
                list.push_capture(Move::new(from, to, victim, capture.promotes), rank, false);
            }
        }
    });
}

/// Searches the captures of the men whose first jump in each direction lands on a square of
/// `landings[direction]`, and of every king.
fn search_captures_from<R: Rules, S: CaptureSink<Bits<R>>, const WHITE: bool>(
    sides: &Sides<R>,
    landings: &[Bits<R>; crate::board::geometry::MAX_DIRECTIONS],
    sink: &mut S,
) {
    let man_dirs = man_capture_dirs::<R, WHITE>();
    let mut search = CaptureSearch::<R, S, WHITE>::new(sink, sides.their_kings);
    crate::unroll_dirs!(R::CAPTURE_DIRECTIONS, |dir| {
        if man_dirs[dir] {
            let back = opposite(dir);
            for bit in step::<R::Geo>(step::<R::Geo>(landings[dir], back), back).iter() {
                search.man_first_jump(dir, bit, sides.them, sides.empty);
            }
        }
    });
    for bit in sides.kings.iter() {
        search.king(bit, sides.them, sides.empty);
    }
}

fn generate_for<R: Rules, const WHITE: bool>(
    position: &Position<R>,
    list: &mut MoveList<Bits<R>>,
    mandatory_capture: bool,
) {
    let sides = Sides::<R>::of::<WHITE>(position);
    if let Some(landings) = sides.capture_landings::<WHITE>() {
        let kings = sides.all_kings;
        if list.counts_every_stop() {
            let sink = &mut ListSink::<R, true> { list, kings };
            search_captures_from::<R, _, WHITE>(&sides, &landings, sink);
        } else {
            // What the first jumps show spares the search of men whose capture is outranked,
            // or the whole search when only single jumps are possible.
            let from = match first_jumps::<R, WHITE>(&sides, &landings) {
                FirstJumps::Counted(_, kings_only) => {
                    push_single_jumps::<R, WHITE>(&sides, &landings, kings_only, list);
                    None
                }
                FirstJumps::SearchFrom(continuing) => Some(continuing),
                FirstJumps::SearchAll => Some(landings),
            };
            if let Some(from) = from {
                let sink = &mut ListSink::<R, false> { list, kings };
                search_captures_from::<R, _, WHITE>(&sides, &from, sink);
            }
        }
        if mandatory_capture {
            return;
        }
    }
    let promotion_row = if WHITE { R::Geo::TOP_ROW } else { R::Geo::BOTTOM_ROW };
    let dirs = man_move_dirs::<R, WHITE>();
    crate::unroll_dirs!(4, |dir| {
        if dirs[dir] {
            for to in step_within::<R::Geo>(sides.men, dir, sides.empty).iter() {
                let from = back_from::<R::Geo>(to, dir, 1);
                let promotes = promotion_row.contains(to);
                list.push_quiet(Move::new(from, to, Bits::<R>::EMPTY, promotes));
            }
        }
    });
    for from in sides.kings.iter() {
        let king = Bits::<R>::single(from);
        crate::unroll_dirs!(4, |dir| {
            let targets = if R::FLYING_KINGS {
                slide::<R::Geo>(king, dir, sides.empty)
            } else {
                step::<R::Geo>(king, dir) & sides.empty
            };
            for to in targets.iter() {
                list.push_quiet(Move::new(from, to, Bits::<R>::EMPTY, false));
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// `has_quiet_move` agrees with the generator (captures optional, so that the quiet moves
    /// are listed beside any capture) at every position of random games of every rule set, with
    /// nothing left out, with the men left out (only the kings' directions can answer) and with
    /// the kings left out.
    #[test]
    fn has_quiet_move_agrees_with_the_generator_in_every_rule_set() {
        fn check<R: Rules>() {
            let mut state = 0x2545_f491_4f6c_dd1d_u64 ^ R::VARIANT as u64;
            let mut list = MoveList::new();
            let (mut answers, mut kings_only) = ([0u32; 2], 0);
            for _ in 0..20 {
                let mut position = Position::<R>::start();
                for _ in 0..200 {
                    generate_with(&position, &mut list, false);
                    let ours = position.pieces(position.side_to_move());
                    let men = ours & !position.kings();
                    let kings = ours & position.kings();
                    for except in [Bits::<R>::EMPTY, men, kings] {
                        let expected = list
                            .as_slice()
                            .iter()
                            .any(|mv| !mv.is_capture() && !except.contains(mv.from()));
                        let fen = crate::notation::fen::write(&position);
                        let name = R::VARIANT.name();
                        assert_eq!(has_quiet_move(&position, except), expected, "{name}: {fen}");
                        answers[usize::from(expected)] += 1;
                        kings_only += u32::from(except == men && kings.any());
                    }
                    let legal = legal_moves(&position);
                    if legal.is_empty() {
                        break;
                    }
                    state = crate::matchplay::openings::next_random(state);
                    position.play(&legal.as_slice()[(state >> 33) as usize % legal.len()]);
                }
            }
            // Both answers came up, and the kings' directions were asked alone.
            let name = R::VARIANT.name();
            assert!(answers[0] > 0 && answers[1] > 0, "{name}: {answers:?}");
            assert!(kings_only > 0 || R::VARIANT == Variant::Breakthrough, "{name}");
        }
        for &variant in Variant::ALL {
            crate::with_variant!(variant, R => check::<R>());
        }
    }
}
