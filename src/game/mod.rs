//! A game: a start position, the moves played, and the rules of the whole game on top of the
//! move rules: results (no move left, the losing goal, breakthrough's first king), repetitions,
//! the move-count draws of each variant, Frisian's limit on consecutive king moves, and the
//! house rule that makes capturing optional.
//!
//! Depends on the rules library (position, movegen); must not depend on search or I/O.

pub mod draws;

pub use draws::{DrawRules, EndgameCount, Material};

use crate::bitset::BitSet;
use crate::movegen::generate_with;
use crate::moves::MoveList;
use crate::position::{Bits, MoveOf, Position};
use crate::rules::{Goal, Rules};
use crate::types::Side;
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

/// Options of a game beyond the draw rules.
#[derive(Clone, Debug)]
pub struct GameRules {
    /// Draw and game-end counters.
    pub draws: DrawRules,
    /// Capturing is compulsory (true by every rulebook; casual sites let players turn it off).
    pub mandatory_capture: bool,
}

impl GameRules {
    /// The defaults of rule set `R`.
    pub fn of<R: Rules>() -> GameRules {
        GameRules { draws: DrawRules::for_variant(R::VARIANT), mandatory_capture: true }
    }
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
    pub moves: u32,
    /// Bit index of the square where that king stands.
    pub square: u32,
}

impl KingStreak {
    /// The streak of the side that plays `mv` in `before`, after the move.
    #[inline]
    pub fn after<R: Rules>(self, before: &Position<R>, mv: &MoveOf<R>) -> KingStreak {
        if mv.is_capture() || !before.kings().contains(mv.from()) {
            return KingStreak::default();
        }
        let same_king = self.moves > 0 && self.square == mv.from();
        KingStreak { moves: if same_king { self.moves + 1 } else { 1 }, square: mv.to() }
    }

    /// Removes from `list` (the moves of `position`) the non-capturing moves of the king that
    /// has used up its `limit`, if its side still has men. If nothing else can move, the side
    /// has no legal move (the rule forbids the king's move; it does not lapse).
    pub fn restrict<R: Rules>(
        self,
        position: &Position<R>,
        list: &mut MoveList<Bits<R>>,
        limit: u32,
    ) {
        if self.moves < limit {
            return;
        }
        let ours = position.pieces(position.side_to_move());
        if (ours & !position.kings()).is_empty() {
            return;
        }
        let square = self.square;
        list.retain(|mv| mv.is_capture() || mv.from() != square);
    }
}

/// Turkish (rules.md 0): with one piece each, a king beats a man. The side with the king, if
/// `position` is such an ending; the game ends there (the search uses it too).
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

/// What one ply changed, kept to undo it and to count.
#[derive(Clone, Copy, Debug)]
struct Ply<R: Rules> {
    before: Position<R>,
    mv: MoveOf<R>,
    reversible: u32,
    since_material_change: u32,
    king_streaks: [KingStreak; 2],
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    start: Position<R>,
    position: Position<R>,
    rules: GameRules,
    plies: Vec<Ply<R>>,
    /// Plies since the last capture or man move.
    reversible: u32,
    /// Plies since the material last changed.
    since_material_change: u32,
    /// Each side's current king streak (Frisian).
    king_streaks: [KingStreak; 2],
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
        Game {
            start,
            position: start,
            rules,
            plies: Vec::new(),
            reversible: 0,
            since_material_change: 0,
            king_streaks: [KingStreak::default(); 2],
        }
    }

    /// Each side's king streak now (white, black), for the search.
    pub fn king_streaks(&self) -> [KingStreak; 2] {
        self.king_streaks
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
        self.reversible
    }

    /// Hashes of the earlier positions that a repetition could match (since the last
    /// irreversible move), oldest first; the search uses them to see repetitions in its tree.
    pub fn repetition_candidates(&self) -> impl Iterator<Item = u64> + '_ {
        let skip = self.plies.len() - self.reversible as usize;
        self.plies[skip..].iter().map(|ply| ply.before.hash())
    }

    /// The legal moves now, under the game's rules (house rule, Frisian king-move limit).
    pub fn legal_moves(&self) -> MoveList<Bits<R>> {
        let mut list = MoveList::new();
        generate_with(&self.position, &mut list, self.rules.mandatory_capture);
        if let Some(limit) = self.rules.draws.king_move_limit {
            let side = self.position.side_to_move();
            self.king_streaks[side.index()].restrict(&self.position, &mut list, limit);
        }
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
        self.plies.push(Ply {
            before,
            mv: *mv,
            reversible: self.reversible,
            since_material_change: self.since_material_change,
            king_streaks: self.king_streaks,
        });
        let side = before.side_to_move().index();
        let by_king = before.kings().contains(mv.from());
        if mv.is_capture() || !by_king {
            self.reversible = 0;
        } else {
            self.reversible += 1;
        }
        if mv.is_capture() || mv.promotes() {
            self.since_material_change = 0;
        } else {
            self.since_material_change += 1;
        }
        self.king_streaks[side] = self.king_streaks[side].after(&before, mv);
        self.position.play(mv);
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.plies.pop() {
            Some(ply) => {
                self.position = ply.before;
                self.reversible = ply.reversible;
                self.since_material_change = ply.since_material_change;
                self.king_streaks = ply.king_streaks;
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
            .take(self.reversible as usize)
            .filter(|ply| ply.before.hash() == hash && ply.before == now)
            .count() as u32
    }

    /// Plies played while `rule` applied without a break, up to now (the rule applies now). A
    /// material change always breaks it; so does a position where the rule did not apply.
    fn plies_under(&self, rule: &EndgameCount) -> u32 {
        let window = self.since_material_change as usize;
        let earlier = self.plies.iter().rev().take(window);
        earlier.take_while(|ply| (rule.applies)(&Material::of(&ply.before))).count() as u32
    }

    /// Whether and how the game has ended.
    pub fn outcome(&self) -> Outcome {
        let side = self.position.side_to_move();
        let draws = &self.rules.draws;
        if R::GOAL == Goal::Breakthrough {
            for owner in [Side::White, Side::Black] {
                if (self.position.pieces(owner) & self.position.kings()).any() {
                    return Outcome::Win(owner, "first to crown a king");
                }
            }
        }
        if self.legal_moves().is_empty() {
            return match R::GOAL {
                Goal::Losing => {
                    Outcome::Win(side, "no move left, and in the losing game that wins")
                }
                _ => Outcome::Win(!side, "the opponent has no move left"),
            };
        }
        if draws.king_beats_lone_man {
            if let Some(side) = king_against_lone_man(&self.position) {
                return Outcome::Win(side, "a king against a lone man");
            }
        }
        let material = self.material();
        if let Some((name, test)) = draws.dead_draw {
            if test(&material) && !crate::movegen::has_capture(&self.position) {
                return Outcome::Draw(name.to_string());
            }
        }
        if draws.repetitions > 0 && self.occurrences() >= draws.repetitions {
            return Outcome::Draw(format!("the same position {} times", draws.repetitions));
        }
        if let Some(limit) = draws.reversible_plies {
            if self.reversible >= limit {
                return Outcome::Draw(format!("{limit} plies without a capture or a man move"));
            }
        }
        for rule in &draws.endgames {
            if (rule.applies)(&material) && self.plies_under(rule) >= rule.plies {
                return Outcome::Draw(format!("{} not won in {} plies", rule.name, rule.plies));
            }
        }
        Outcome::Ongoing
    }
}
