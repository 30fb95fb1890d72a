//! The rules of the whole game on top of the move rules, written once for the game record
//! ([`Game`](super::Game)) and for the search's tree: the moves a game's history allows
//! (Frisian's limit on king moves, the house rule of optional capture), the counters those
//! rules read (plies without a capture or man move, endgame counts, king streaks) and how a move
//! changes them, and the verdict on a position: won, drawn, or going on.
//!
//! The search keeps one [`Counters`] per ply and asks [`GameRules::judge_in_tree`] at every
//! node, so it sees every ending the game declares; endgame databases and recognisers of known
//! endings will give their verdicts here too. Depends on the rules library (position, movegen)
//! and `draws`; must not depend on search or I/O.

use super::draws::{DrawRules, Material};
use crate::board::bitset::BitSet;
use crate::board::moves::MoveList;
use crate::board::types::Side;
use crate::movegen::{generate_with, has_capture, has_quiet_move, quiet_targets};
use crate::position::{Bits, MoveOf, Position};
use crate::rules::{Goal, Rules};
use std::fmt;

/// The rules of a game beyond the move rules.
#[derive(Clone, Debug)]
pub struct GameRules {
    /// Draw and game-end counters.
    pub draws: DrawRules,
    /// Capturing is compulsory (true by every rulebook; casual sites let players turn it off).
    pub mandatory_capture: bool,
}

/// Endgame counts a game can keep at once (the Russian Kodeks, the longest list, has five);
/// further ones in [`DrawRules::endgames`] are not counted.
pub const MAX_ENDGAME_COUNTS: usize = 6;

/// What the rules of the whole game read besides the position: kept by [`Game`](super::Game)
/// move by move and by the search ply by ply, both through [`GameRules::after`] and
/// [`GameRules::arrive`]. Twelve bytes, so that the search passes them in registers (with
/// 32-bit fields they were copied through memory at every node); the counts saturate (no
/// endgame count allows 255 plies, and 65,535 plies without a capture or a man move is past
/// every game's rule).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Plies since the last capture or man move.
    pub reversible: u16,
    /// Each side's king streak (white, black); kept only under a king-move limit.
    pub king_streaks: [KingStreak; 2],
    /// Per endgame count of the draw rules: positions in a row, this one included, at which
    /// the rule applied with the material unchanged (0 when it does not apply now).
    endgames: [u8; MAX_ENDGAME_COUNTS],
}

/// Where the rules of the whole game can neither end the game nor count anything, as
/// [`GameRules::calm`] computes it: more pieces than any rule of material looks at (dead draws,
/// endgame counts, a king against a lone man) and fewer reversible plies than a repetition or
/// the move-count rule needs. Most nodes of a search are there; the search tests this (two
/// compares) before the full judgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Calm {
    /// Calm only with more pieces than this on the board.
    above_pieces: u32,
    /// Calm only with fewer plies than this since the last capture or man move.
    below_reversible: u16,
}

impl Calm {
    /// True when `position`, with `pieces` pieces, reached with `counters`, is calm:
    /// [`GameRules::arrive`] would leave the counters as they are and
    /// [`GameRules::judge_in_tree`] would answer [`Judgement::Open`].
    #[inline(always)]
    pub fn holds(&self, pieces: u32, counters: &Counters) -> bool {
        pieces > self.above_pieces && counters.reversible < self.below_reversible
    }
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// Breakthrough: the first side to crown a king wins.
    FirstKing,
    /// The loser has no move left.
    NoMoveLeft,
    /// In the losing game, the side with no move left wins.
    NoMoveLeftLosing,
    /// Turkish: with one piece each, a king beats a man.
    KingAgainstLoneMan,
}

impl WinReason {
    /// The reason in words.
    pub fn as_str(self) -> &'static str {
        match self {
            WinReason::FirstKing => "first to crown a king",
            WinReason::NoMoveLeft => "the opponent has no move left",
            WinReason::NoMoveLeftLosing => "no move left, and in the losing game that wins",
            WinReason::KingAgainstLoneMan => "a king against a lone man",
        }
    }
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// Material that is a draw at once (the rule's name).
    DeadDraw(&'static str),
    /// The same position this many times.
    Repetition(u32),
    /// This many plies without a capture or a man move.
    Reversible(u32),
    /// An endgame count ran out.
    Endgame {
        /// The rule's name.
        name: &'static str,
        /// The plies it allows.
        plies: u32,
    },
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawReason::DeadDraw(name) => f.write_str(name),
            DrawReason::Repetition(times) => write!(f, "the same position {times} times"),
            DrawReason::Reversible(limit) => {
                write!(f, "{limit} plies without a capture or a man move")
            }
            DrawReason::Endgame { name, plies } => write!(f, "{name} not won in {plies} plies"),
        }
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Won by a side.
    Win(Side, WinReason),
    /// Drawn.
    Draw(DrawReason),
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Win(side, why) => write!(f, "{side} wins ({})", why.as_str()),
            Verdict::Draw(why) => write!(f, "draw ({why})"),
        }
    }
}

/// What the rules say of a position before its moves are known (the search generates them only
/// when it must).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The game is over, whatever the moves.
    Over(Verdict),
    /// The game is over with this verdict if the side to move has a legal move; without one,
    /// the no-move rule comes first ([`GameRules::no_move`]).
    OverIfMoves(Verdict),
    /// Only the no-move rule can end the game here.
    Open,
}

/// Frisian's limit on king moves: the non-capturing moves one king has made in a row, and where
/// that king now stands.
///
/// The rule (mindsports.nl "Frisian", Wikipedia "Frisian draughts", mlwi.magix.net; lidraughts,
/// where the federation's online events are played, keeps the same two facts): while a side
/// still has men, one king may not make more than three non-capturing moves in succession.
/// After three, that king may only capture; the side must otherwise move another piece (another
/// king included), which ends the streak. A capture or a man move ends it too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingStreak {
    /// Non-capturing moves in a row by the same king (0: the side's last move was something
    /// else).
    pub moves: u8,
    /// Bit index of the square where that king stands.
    pub square: u8,
}

impl KingStreak {
    /// The streak of the side that plays `mv` in `before`, after the move.
    #[inline]
    pub fn after<R: Rules>(self, before: &Position<R>, mv: &MoveOf<R>) -> KingStreak {
        if mv.is_capture() || !before.kings().contains(mv.from()) {
            return KingStreak::default();
        }
        let same_king = self.moves > 0 && u32::from(self.square) == mv.from();
        let moves = if same_king { self.moves.saturating_add(1) } else { 1 };
        KingStreak { moves, square: mv.to() as u8 }
    }

    /// The king of the side to move in `position` that has used up its `limit` of
    /// non-capturing moves (empty when there is none, or when its side has no men left, which
    /// lifts the rule). Its non-capturing moves are forbidden: the rule does not lapse when
    /// nothing else can move.
    #[inline]
    pub fn exhausted<R: Rules>(self, position: &Position<R>, limit: u32) -> Bits<R> {
        let ours = position.pieces(position.side_to_move());
        if u32::from(self.moves) < limit || (ours & !position.kings()).is_empty() {
            return Bits::<R>::EMPTY;
        }
        Bits::<R>::single(u32::from(self.square))
    }
}

/// Turkish (rules.md 0): with one piece each, a king beats a man. The side with the king, if
/// `position` is such an ending.
#[inline]
pub fn king_against_lone_man<R: Rules>(position: &Position<R>) -> Option<Side> {
    let kings = position.kings();
    if position.occupied().count() != 2 || kings.count() != 1 {
        return None;
    }
    let white = position.pieces(Side::White);
    if white.count() != 1 {
        return None;
    }
    Some(if (white & kings).any() { Side::White } else { Side::Black })
}

/// Which draw rules a game is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawRuleSet {
    /// The variant's own, as our users' sites state them (damas's defaults).
    Default,
    /// The federation's, where it has stricter ones (endgame counts).
    Federation,
    /// Repetition only.
    RepetitionOnly,
}

impl DrawRuleSet {
    /// Their names in the options and on the command line, in this order.
    pub const NAMES: [&'static str; 3] = ["default", "federation", "repetition"];

    /// The set of this name (one of [`DrawRuleSet::NAMES`]).
    pub fn from_name(name: &str) -> Option<DrawRuleSet> {
        match name {
            "default" => Some(DrawRuleSet::Default),
            "federation" => Some(DrawRuleSet::Federation),
            "repetition" => Some(DrawRuleSet::RepetitionOnly),
            _ => None,
        }
    }
}

impl GameRules {
    /// The defaults of rule set `R`.
    pub fn of<R: Rules>() -> GameRules {
        GameRules { draws: DrawRules::for_variant(R::VARIANT), mandatory_capture: true }
    }

    /// The rules of `R` with the draw rules of `set`, and capture compulsory or, as some
    /// casual sites play, optional.
    pub fn chosen<R: Rules>(set: DrawRuleSet, mandatory_capture: bool) -> GameRules {
        let draws = match set {
            DrawRuleSet::Default => DrawRules::for_variant(R::VARIANT),
            DrawRuleSet::Federation => DrawRules::federation(R::VARIANT),
            DrawRuleSet::RepetitionOnly => DrawRules::repetition_only(),
        };
        GameRules { draws, mandatory_capture }
    }

    /// The piece of the side to move whose non-capturing moves the game's history forbids now
    /// (Frisian's king-move limit), as a set (usually empty).
    #[inline]
    fn forbidden_quiet<R: Rules>(&self, position: &Position<R>, counters: &Counters) -> Bits<R> {
        match self.draws.king_move_limit {
            Some(limit) => {
                let side = position.side_to_move().index();
                counters.king_streaks[side].exhausted(position, limit)
            }
            None => Bits::<R>::EMPTY,
        }
    }

    /// Fills `list` with the legal moves of `position` under these rules and `counters`.
    /// Always inlined: the search calls it at every inner node (out of line it cost 10 M
    /// instructions, 0.8%, on `damas bench 9`).
    #[inline(always)]
    pub fn legal_moves_into<R: Rules>(
        &self,
        position: &Position<R>,
        counters: &Counters,
        list: &mut MoveList<Bits<R>>,
    ) {
        generate_with(position, list, self.mandatory_capture);
        let forbidden = self.forbidden_quiet(position, counters);
        if forbidden.any() {
            list.retain(|mv| mv.is_capture() || !forbidden.contains(mv.from()));
        }
    }

    /// True when the non-capturing move from square `from` to square `to`, crowning nothing,
    /// is legal for the side to move: the same answer as looking for it in
    /// [`GameRules::legal_moves_into`], without generating the moves (the capture obligation
    /// is one test).
    #[inline]
    pub fn is_legal_quiet_move<R: Rules>(
        &self,
        position: &Position<R>,
        counters: &Counters,
        from: u32,
        to: u32,
    ) -> bool {
        let must_capture = self.mandatory_capture && has_capture(position);
        !must_capture
            && !self.forbidden_quiet(position, counters).contains(from)
            && quiet_targets(position, from).contains(to)
    }

    /// True when the side to move has a legal move, without listing them.
    #[inline]
    pub fn has_legal_move<R: Rules>(&self, position: &Position<R>, counters: &Counters) -> bool {
        has_capture(position) || self.has_quiet_legal_move(position, counters)
    }

    /// True when the side to move has a legal non-capturing move (for a caller that knows it
    /// has no capture).
    #[inline]
    pub fn has_quiet_legal_move<R: Rules>(
        &self,
        position: &Position<R>,
        counters: &Counters,
    ) -> bool {
        has_quiet_move(position, self.forbidden_quiet(position, counters))
    }

    /// The counters after `mv` is played in `before`; [`GameRules::arrive`] then brings them up
    /// to the new position.
    #[inline(always)]
    pub fn after<R: Rules>(
        &self,
        counters: &Counters,
        before: &Position<R>,
        mv: &MoveOf<R>,
    ) -> Counters {
        let mut next = *counters;
        let irreversible = mv.is_capture() || !before.kings().contains(mv.from());
        next.reversible = if irreversible { 0 } else { counters.reversible.saturating_add(1) };
        if self.draws.king_move_limit.is_some() {
            let side = before.side_to_move().index();
            next.king_streaks[side] = counters.king_streaks[side].after(before, mv);
        }
        if mv.is_capture() || mv.promotes() {
            // The material changed: every endgame count starts again.
            next.endgames = [0; MAX_ENDGAME_COUNTS];
        }
        next
    }

    /// Brings the endgame counts up to `position`, reached with `counters` (once per position:
    /// the start of a game, and after each move). Always inlined, like
    /// [`GameRules::judge_in_tree`]: the search calls it at every node.
    #[inline(always)]
    pub fn arrive<R: Rules>(&self, position: &Position<R>, counters: &mut Counters) {
        let rules = &self.draws.endgames;
        if rules.is_empty() {
            return;
        }
        let pieces = position.occupied().count();
        if rules.iter().all(|rule| pieces > rule.max_pieces) {
            // Too many pieces for any count (the middle game): nothing to compute.
            counters.endgames = [0; MAX_ENDGAME_COUNTS];
            return;
        }
        let material = Material::of(position);
        for (count, rule) in counters.endgames.iter_mut().zip(rules) {
            *count = if (rule.applies)(&material) { count.saturating_add(1) } else { 0 };
        }
    }

    /// Where these rules are calm (see [`Calm`]); compute it again when they change.
    pub fn calm<R: Rules>(&self) -> Calm {
        if R::GOAL == Goal::Breakthrough {
            // A king ends the game whatever the material: never calm.
            return Calm { above_pieces: u32::MAX, below_reversible: 0 };
        }
        let draws = &self.draws;
        let lone_man = if draws.king_beats_lone_man { 2 } else { 0 };
        let dead = draws.dead_draw.as_ref().map_or(0, |dead| dead.max_pieces);
        let counted = draws.endgames.iter().map(|rule| rule.max_pieces).max().unwrap_or(0);
        // A position repeats two reversible plies later at the earliest.
        let repetition = if draws.repetitions > 0 { 2 } else { u16::MAX };
        let move_count = draws
            .reversible_plies
            .map_or(u16::MAX, |limit| u16::try_from(limit).unwrap_or(u16::MAX));
        Calm {
            above_pieces: lone_man.max(dead).max(counted),
            below_reversible: repetition.min(move_count),
        }
    }

    /// The verdict when the side to move has no legal move.
    pub fn no_move<R: Rules>(side_to_move: Side) -> Verdict {
        match R::GOAL {
            Goal::Losing => Verdict::Win(side_to_move, WinReason::NoMoveLeftLosing),
            _ => Verdict::Win(!side_to_move, WinReason::NoMoveLeft),
        }
    }

    /// The rules' judgement of `position`, reached with `counters` (brought up to it by
    /// [`GameRules::arrive`]); `repeated` says whether the repetition rule is met (the game
    /// counts occurrences; the search, looking ahead, takes the first repetition). Always
    /// inlined: the search asks at every node and most tests fold away for a given rule set
    /// (out of line, the call cost 47 instructions a node on the bench).
    #[inline(always)]
    pub fn judge_in_tree<R: Rules>(
        &self,
        position: &Position<R>,
        counters: &Counters,
        repeated: bool,
    ) -> Judgement {
        let draws = &self.draws;
        if R::GOAL == Goal::Breakthrough {
            for owner in [Side::White, Side::Black] {
                if (position.pieces(owner) & position.kings()).any() {
                    return Judgement::Over(Verdict::Win(owner, WinReason::FirstKing));
                }
            }
        }
        if draws.king_beats_lone_man {
            if let Some(side) = king_against_lone_man(position) {
                return Judgement::OverIfMoves(Verdict::Win(side, WinReason::KingAgainstLoneMan));
            }
        }
        if let Some(dead) = &draws.dead_draw {
            if position.occupied().count() <= dead.max_pieces
                && (dead.applies)(&Material::of(position))
                && !has_capture(position)
            {
                return Judgement::OverIfMoves(Verdict::Draw(DrawReason::DeadDraw(dead.name)));
            }
        }
        if repeated && draws.repetitions > 0 {
            return Judgement::OverIfMoves(Verdict::Draw(DrawReason::Repetition(
                draws.repetitions,
            )));
        }
        if let Some(limit) = draws.reversible_plies {
            if u32::from(counters.reversible) >= limit {
                return Judgement::OverIfMoves(Verdict::Draw(DrawReason::Reversible(limit)));
            }
        }
        for (count, rule) in counters.endgames.iter().zip(&draws.endgames) {
            // The count includes this position: the plies played under the rule are one fewer.
            if u32::from(*count) > rule.plies {
                let reason = DrawReason::Endgame { name: rule.name, plies: rule.plies };
                return Judgement::OverIfMoves(Verdict::Draw(reason));
            }
        }
        Judgement::Open
    }

    /// The verdict on `position`, or None while the game goes on; `has_moves` is asked only
    /// when the answer depends on it.
    pub fn judge<R: Rules>(
        &self,
        position: &Position<R>,
        counters: &Counters,
        repeated: bool,
        has_moves: impl FnOnce() -> bool,
    ) -> Option<Verdict> {
        let no_move = || Self::no_move::<R>(position.side_to_move());
        match self.judge_in_tree(position, counters, repeated) {
            Judgement::Over(verdict) => Some(verdict),
            Judgement::OverIfMoves(verdict) => Some(if has_moves() { verdict } else { no_move() }),
            Judgement::Open => (!has_moves()).then(no_move),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// The counters' narrow fields hold every count the rules ask for: an endgame count must
    /// pass its rule's plies (it saturates at 255) and every rule set has at most
    /// [`MAX_ENDGAME_COUNTS`] of them.
    #[test]
    fn every_endgame_count_fits_the_counters() {
        for &variant in Variant::ALL {
            for draws in [DrawRules::for_variant(variant), DrawRules::federation(variant)] {
                assert!(draws.endgames.len() <= MAX_ENDGAME_COUNTS, "{variant:?}");
                for rule in &draws.endgames {
                    assert!(rule.plies < u32::from(u8::MAX), "{variant:?} {}", rule.name);
                }
            }
        }
        assert!(std::mem::size_of::<Counters>() <= 16, "passed in two registers");
    }

    /// Plays `games` seeded random games of at most `plies` plies under `rules`, calling
    /// `visit` at every position with the counters the move before handed to it, the same
    /// brought up to it by `arrive`, and its legal moves.
    fn random_games<R: Rules>(
        rules: &GameRules,
        seed: u64,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&Position<R>, &Counters, &Counters, &MoveList<Bits<R>>),
    ) {
        let mut state = seed;
        for _ in 0..games {
            let mut position = Position::<R>::start();
            let mut handed = Counters::default();
            let mut list = MoveList::new();
            for _ in 0..plies {
                let mut counters = handed;
                rules.arrive(&position, &mut counters);
                rules.legal_moves_into(&position, &counters, &mut list);
                visit(&position, &handed, &counters, &list);
                if list.is_empty() {
                    break;
                }
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let mv = list.as_slice()[((state >> 33) % list.len() as u64) as usize];
                handed = rules.after(&counters, &position, &mv);
                position.play(&mv);
            }
        }
    }

    /// `is_legal_quiet_move` answers as a search of the generated legal moves would, in every
    /// rule set, with the capture obligation on and off, through seeded random games (kings,
    /// captures due, and Frisian's king-move limit through the game's own counters).
    #[test]
    fn a_quiet_move_is_legal_exactly_when_the_move_generator_lists_it() {
        fn check<R: Rules>(seed: u64) -> usize {
            let mut checked = 0;
            for mandatory_capture in [true, false] {
                let rules = GameRules::chosen::<R>(DrawRuleSet::Default, mandatory_capture);
                random_games::<R>(&rules, seed, 12, 160, |position, _, counters, list| {
                    let side = position.side_to_move();
                    let squares = position.occupied() | position.empty();
                    for from in position.pieces(side).iter() {
                        for to in squares.iter() {
                            let listed = list.iter().any(|mv| {
                                !mv.is_capture()
                                    && !mv.promotes()
                                    && mv.from() == from
                                    && mv.to() == to
                            });
                            let answered = rules.is_legal_quiet_move(position, counters, from, to);
                            assert_eq!(
                                answered,
                                listed,
                                "{:?} {from}->{to} in {position:?}",
                                R::VARIANT
                            );
                            checked += 1;
                        }
                    }
                });
            }
            checked
        }
        for (seed, &variant) in Variant::ALL.iter().enumerate() {
            let checked = crate::with_variant!(variant, R => check::<R>(seed as u64 + 1));
            assert!(checked > 10_000, "{variant:?}: only {checked} pairs checked");
        }
    }

    /// Where [`GameRules::calm`] says a position is calm, the full rules agree: `arrive` leaves
    /// the counters as they were and `judge_in_tree` finds the game open, in every rule set,
    /// under its default and its federation draw rules, through seeded random games that reach
    /// the endings (where the material rules apply) and king manoeuvres (reversible counts).
    #[test]
    fn a_calm_position_is_one_the_rules_leave_open() {
        fn check<R: Rules>(seed: u64) -> (usize, usize) {
            let (mut calm_seen, mut other_seen) = (0, 0);
            for draw_rules in [DrawRuleSet::Default, DrawRuleSet::Federation] {
                let rules = GameRules::chosen::<R>(draw_rules, true);
                let calm = rules.calm::<R>();
                random_games::<R>(&rules, seed, 40, 300, |position, handed, counters, _| {
                    if !calm.holds(position.occupied().count(), handed) {
                        other_seen += 1;
                        return;
                    }
                    calm_seen += 1;
                    assert_eq!(counters, handed, "{:?}: counted in {position:?}", R::VARIANT);
                    assert!(
                        rules.draws.repetitions == 0 || counters.reversible < 2,
                        "{:?}: a repetition possible",
                        R::VARIANT
                    );
                    let judgement = rules.judge_in_tree(position, counters, false);
                    assert_eq!(judgement, Judgement::Open, "{:?}: {position:?}", R::VARIANT);
                });
            }
            (calm_seen, other_seen)
        }
        for (seed, &variant) in Variant::ALL.iter().enumerate() {
            let (calm, other) = crate::with_variant!(variant, R => check::<R>(seed as u64 + 7));
            // Breakthrough is never calm (a king ends it); every other rule set is, mostly.
            let breakthrough = crate::with_variant!(variant, R => R::GOAL == Goal::Breakthrough);
            let expected = if breakthrough { calm == 0 } else { calm > 1_000 };
            assert!(expected && other > 20, "{variant:?}: {calm} calm, {other} not");
        }
    }
}
