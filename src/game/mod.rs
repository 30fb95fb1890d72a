//! A game: a start position, the moves played, and what the rules of the whole game (module
//! [`rules`]: results, repetitions, move-count and endgame draws, Frisian's limit on king moves,
//! optional capture) say of it. The search reads the same rules through the same module.
//!
//! Depends on the rules library (position, movegen); must not depend on search or I/O.

pub mod draws;
pub mod replay;
pub mod rules;

pub use draws::{DeadDraw, DrawRules, EndgameCount, Material};
pub use rules::{
    Calm, Counters, DrawReason, GameRules, Judgement, KingStreak, Verdict, WinReason,
    king_against_lone_man,
};

use crate::board::moves::MoveList;
use crate::board::types::Side;
use crate::position::{Bits, MoveOf, Position};
use crate::rules::Rules;
use std::fmt;

/// How a game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Not over.
    Ongoing,
    /// Won by a side, for the reason given.
    Win(Side, &'static str),
    /// Drawn, for the reason given.
    Draw(String),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("game in progress"),
            Outcome::Win(side, why) => write!(f, "{side} wins ({why})"),
            Outcome::Draw(why) => write!(f, "draw ({why})"),
        }
    }
}

impl Outcome {
    /// The PDN result: from the point of view of the side that moves first in the variant
    /// (FMJD's convention, which CheckerBoard follows: in English `1-0` is a win for Black), in
    /// the international set (`2-0`, `1-1`, `0-2`) on boards of 10x10 and larger; `*` while
    /// the game goes on.
    pub fn pdn_result<R: Rules>(&self) -> &'static str {
        use crate::board::geometry::Geometry;
        let large = R::Geo::SQUARES >= 50;
        match (self, large) {
            (Outcome::Ongoing, _) => "*",
            (Outcome::Draw(_), true) => "1-1",
            (Outcome::Draw(_), false) => "1/2-1/2",
            (Outcome::Win(side, _), true) if *side == R::FIRST_TO_MOVE => "2-0",
            (Outcome::Win(..), true) => "0-2",
            (Outcome::Win(side, _), false) if *side == R::FIRST_TO_MOVE => "1-0",
            (Outcome::Win(..), false) => "0-1",
        }
    }
}

impl From<Verdict> for Outcome {
    fn from(verdict: Verdict) -> Outcome {
        match verdict {
            Verdict::Win(side, why) => Outcome::Win(side, why.as_str()),
            Verdict::Draw(why) => Outcome::Draw(why.to_string()),
        }
    }
}

/// What one ply changed, kept to undo it.
#[derive(Clone, Copy, Debug)]
struct Ply<R: Rules> {
    before: Position<R>,
    mv: MoveOf<R>,
    counters: Counters,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    start: Position<R>,
    position: Position<R>,
    rules: GameRules,
    plies: Vec<Ply<R>>,
    /// What the rules read besides the position, up to date with it.
    counters: Counters,
}

/// A move that is not legal in the game's current position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove;

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal move")
    }
}

impl std::error::Error for IllegalMove {}

impl<R: Rules> Game<R> {
    /// A game from `start` under the default rules of `R`.
    pub fn new(start: Position<R>) -> Self {
        Self::with_rules(start, GameRules::of::<R>())
    }

    /// A game from `start` under the given rules.
    pub fn with_rules(start: Position<R>, rules: GameRules) -> Self {
        let mut counters = Counters::default();
        rules.arrive(&start, &mut counters);
        Game { start, position: start, rules, plies: Vec::new(), counters }
    }

    /// What the rules read besides the position, now (the search starts from them).
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// The current position.
    pub fn position(&self) -> &Position<R> {
        &self.position
    }

    /// The start position.
    pub fn start(&self) -> &Position<R> {
        &self.start
    }

    /// The rules in force.
    pub fn rules(&self) -> &GameRules {
        &self.rules
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl Iterator<Item = &MoveOf<R>> {
        self.plies.iter().map(|ply| &ply.mv)
    }

    /// Plies since the last capture or man move.
    pub fn reversible_plies(&self) -> u32 {
        u32::from(self.counters.reversible)
    }

    /// Hashes of the earlier positions that a repetition could match (since the last
    /// irreversible move), oldest first; the search uses them to see repetitions in its tree.
    pub fn repetition_candidates(&self) -> impl Iterator<Item = u64> + '_ {
        let skip = self.plies.len().saturating_sub(self.counters.reversible as usize);
        self.plies[skip..].iter().map(|ply| ply.before.hash())
    }

    /// The legal moves now, under the game's rules (house rule, Frisian king-move limit).
    pub fn legal_moves(&self) -> MoveList<Bits<R>> {
        let mut list = MoveList::new();
        self.rules.legal_moves_into(&self.position, &self.counters, &mut list);
        list
    }

    /// Plays a move, checking that it is legal.
    ///
    /// # Errors
    /// [`IllegalMove`] when it is not among [`Game::legal_moves`]; the game is unchanged.
    pub fn play(&mut self, mv: &MoveOf<R>) -> Result<(), IllegalMove> {
        if !self.legal_moves().iter().any(|legal| legal == mv) {
            return Err(IllegalMove);
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move known to be legal (from [`Game::legal_moves`]).
    pub fn play_unchecked(&mut self, mv: &MoveOf<R>) {
        let before = self.position;
        self.plies.push(Ply { before, mv: *mv, counters: self.counters });
        self.counters = self.rules.after(&self.counters, &before, mv);
        self.position.play(mv);
        self.rules.arrive(&self.position, &mut self.counters);
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.plies.pop() {
            Some(ply) => {
                self.position = ply.before;
                self.counters = ply.counters;
                true
            }
            None => false,
        }
    }

    /// Pieces of each kind now.
    pub fn material(&self) -> Material {
        Material::of(&self.position)
    }

    /// How many times the current position (same side to move) has occurred, this one included.
    pub fn occurrences(&self) -> u32 {
        let hash = self.position.hash();
        let now = self.position;
        1 + self
            .plies
            .iter()
            .rev()
            .take(self.counters.reversible as usize)
            .filter(|ply| ply.before.hash() == hash && ply.before == now)
            .count() as u32
    }

    /// The verdict of the rules on the game now, or None while it goes on.
    pub fn verdict(&self) -> Option<Verdict> {
        let repetitions = self.rules.draws.repetitions;
        let repeated = repetitions > 0 && self.occurrences() >= repetitions;
        self.rules.judge(&self.position, &self.counters, repeated, || {
            self.rules.has_legal_move(&self.position, &self.counters)
        })
    }

    /// Whether and how the game has ended.
    pub fn outcome(&self) -> Outcome {
        self.verdict().map_or(Outcome::Ongoing, Outcome::from)
    }
}
