//! What the referee asks of a player, whatever its kind: start a game, hear the opponent's
//! moves, answer with a move (and the score it believes) within a patience; and the built-in
//! player, damas's own search in the referee's process.
//!
//! A player reports how it failed ([`Failure`]); the referee decides what that costs. Depends on
//! the game layer and the search; the external players live in `hub_player` and `dxp_player`.

use super::tc::MoveLimit;
use crate::board::types::Side;
use crate::game::Game;
use crate::position::{MoveOf, Position};
use crate::rules::Rules;
use crate::search::{Engine, Limits, Silent};
use std::time::Duration;

/// A player's answer.
#[derive(Clone, Debug)]
pub struct Reply<R: Rules> {
    /// The move, legal in the position asked about (players check what they parse).
    pub mv: MoveOf<R>,
    /// The score the player reported for its side, in men (wins near 100), if any.
    pub score: Option<f64>,
    /// The depth it reported, if any.
    pub depth: Option<u32>,
}

/// How a player failed to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Its process ended or its connection closed.
    Crashed(String),
    /// No answer within the patience.
    Stalled(String),
    /// An answer that is not a legal move in the position.
    IllegalMove(String),
    /// Anything else against the protocol (a handshake not answered, a game refused).
    Protocol(String),
    /// It ended the game itself instead of moving (DXP's GAMEEND): the referee decides
    /// whether the rules bear the claim out.
    Claimed(Claim),
}

/// What a player that ends the game itself claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// It gives the game up.
    Resign,
    /// The game is drawn (DXP engines follow the federation's rules, e.g. FMJD's 25 king
    /// moves).
    Draw,
    /// It has won.
    Win,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crashed(why) => write!(f, "crashed: {why}"),
            Failure::Stalled(why) => write!(f, "stopped answering: {why}"),
            Failure::IllegalMove(why) => write!(f, "illegal move: {why}"),
            Failure::Protocol(why) => write!(f, "protocol error: {why}"),
            Failure::Claimed(Claim::Resign) => write!(f, "resigned"),
            Failure::Claimed(Claim::Draw) => write!(f, "claimed a draw instead of moving"),
            Failure::Claimed(Claim::Win) => write!(f, "claimed a win instead of moving"),
        }
    }
}

/// A participant the referee can play games with.
pub trait Player<R: Rules>: Send {
    /// A game starts from `start`, the player having `side`.
    ///
    /// # Errors
    /// The player cannot start the game.
    fn new_game(&mut self, start: &Position<R>, side: Side) -> Result<(), Failure>;

    /// The opponent played `mv`, which is now the last move of `game`.
    ///
    /// # Errors
    /// The player cannot be told.
    fn opponent_moved(&mut self, _game: &Game<R>, _mv: &MoveOf<R>) -> Result<(), Failure> {
        Ok(())
    }

    /// The player's move in `game`'s position under `limit`; after `patience` without an answer
    /// it has stalled.
    ///
    /// # Errors
    /// See [`Failure`].
    fn go(
        &mut self,
        game: &Game<R>,
        limit: MoveLimit,
        patience: Duration,
    ) -> Result<Reply<R>, Failure>;

    /// The game is over (`result` as PDN writes it); the player may be told.
    fn game_over(&mut self, _game: &Game<R>, _result: &str) {}
}

/// Ends an engine's process after it was asked to quit: a well-behaved engine is gone within
/// 0.1 s; one that is stalled or busy is killed.
pub fn end_process(child: &mut std::process::Child) {
    for _ in 0..50 {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// damas's own search in this process, or its 1-ply greedy player.
pub struct Builtin<R: Rules> {
    engine: Box<Engine<R>>,
    greedy: bool,
}

impl<R: Rules> Builtin<R> {
    /// An engine with `threads`, `hash_mb` and strength `level` (None: full strength).
    pub fn new(greedy: bool, threads: usize, hash_mb: usize, level: Option<u32>) -> Self {
        let mut engine = Engine::new(threads, hash_mb);
        if let Some(level) = level {
            engine.set_level(level);
        }
        Builtin { engine: Box::new(engine), greedy }
    }

    /// A player searching with `engine` (configured by the caller: its evaluation, its table).
    pub fn with_engine(engine: Engine<R>) -> Self {
        Builtin { engine: Box::new(engine), greedy: false }
    }
}

impl<R: Rules> Player<R> for Builtin<R> {
    fn new_game(&mut self, _start: &Position<R>, _side: Side) -> Result<(), Failure> {
        self.engine.new_game();
        Ok(())
    }

    fn go(
        &mut self,
        game: &Game<R>,
        limit: MoveLimit,
        _patience: Duration,
    ) -> Result<Reply<R>, Failure> {
        if self.greedy {
            let position = game.position();
            let engine = &self.engine;
            let best = game.legal_moves().iter().copied().max_by_key(|mv| {
                let mut child = *position;
                child.play(mv);
                -engine.evaluate(&child)
            });
            let mv =
                best.ok_or_else(|| Failure::Protocol("asked to move with no legal move".into()))?;
            return Ok(Reply { mv, score: None, depth: Some(1) });
        }
        let limits = match limit {
            MoveLimit::MoveTime(time) => Limits { move_time: Some(time), ..Limits::default() },
            MoveLimit::Clock { left, increment, moves_to_go } => {
                Limits { time_left: Some(left), increment, moves_to_go, ..Limits::default() }
            }
            MoveLimit::Depth(depth) => Limits { depth: Some(depth), ..Limits::default() },
            MoveLimit::Nodes(nodes) => Limits { nodes: Some(nodes), ..Limits::default() },
        };
        let result = self.engine.go(game, limits, false, &mut Silent);
        let mv = result
            .best
            .ok_or_else(|| Failure::Protocol("asked to move with no legal move".into()))?;
        Ok(Reply { mv, score: Some(result.score.men()), depth: Some(result.depth) })
    }
}
