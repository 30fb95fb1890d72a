//! `damas match`: games between two players, each this engine (fixed depth, fixed nodes, move
//! time, a strength level, or a 1-ply greedy player) or another program spoken to through the Hub
//! protocol (another build of damas, Scan), in pairs with colours swapped from the same opening. Every
//! move is checked legal by the game layer; a move over the time allowed is reported. Prints
//! wins, draws and losses, the score and an Elo difference with a 95% error bar.

use crate::game::{Game, Outcome};
use crate::movegen::legal_moves;
use crate::notation::{fen, moves};
use crate::position::{MoveOf, Position};
use crate::rules::Rules;
use crate::search::{Engine, Limits, MAX_LEVEL, Silent};
use crate::types::Side;
use std::time::Duration;

mod hub_player;
pub use hub_player::{HubLimit, HubPlayer};

/// How a player chooses its moves.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// The move with the best static evaluation one ply ahead.
    Greedy,
    /// Search to a fixed depth.
    Depth(u32),
    /// Search a fixed number of nodes.
    Nodes(u64),
    /// Search for a fixed time per move.
    MoveTime(Duration),
    /// Play at a strength level, 1 to 20 (20: full strength at depth 11).
    Level(u32),
    /// Another program, through the Hub protocol: its path and its limit per move.
    Hub(String, HubLimit),
}

impl std::str::FromStr for PlayerSpec {
    type Err = String;

    /// `greedy`, `depth=N`, `nodes=N`, `time=MS`, `level=N`, or `hub:PATH:LIMIT` with LIMIT one
    /// of `depth=N`, `nodes=N`, `time=MS`.
    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "player '{text}': use greedy, depth=N, nodes=N, time=MS, level=1..20 or \
                 hub:PATH:depth=N (or :nodes=N, :time=MS)"
            )
        };
        if text == "greedy" {
            return Ok(PlayerSpec::Greedy);
        }
        if let Some(rest) = text.strip_prefix("hub:") {
            let (path, limit) = rest.rsplit_once(':').ok_or_else(bad)?;
            let limit = match limit.parse::<PlayerSpec>().map_err(|_| bad())? {
                PlayerSpec::Depth(depth) => HubLimit::Depth(depth),
                PlayerSpec::Nodes(nodes) => HubLimit::Nodes(nodes),
                PlayerSpec::MoveTime(time) => HubLimit::MoveTime(time),
                _ => return Err(bad()),
            };
            if path.is_empty() {
                return Err(bad());
            }
            return Ok(PlayerSpec::Hub(path.to_string(), limit));
        }
        let (kind, value) = text.split_once('=').ok_or_else(bad)?;
        let number: u64 = value.parse().map_err(|_| bad())?;
        match kind {
            "depth" if number > 0 => Ok(PlayerSpec::Depth(number as u32)),
            "nodes" if number > 0 => Ok(PlayerSpec::Nodes(number)),
            "time" if number > 0 => Ok(PlayerSpec::MoveTime(Duration::from_millis(number))),
            "level" if (1..=u64::from(MAX_LEVEL)).contains(&number) => {
                Ok(PlayerSpec::Level(number as u32))
            }
            _ => Err(bad()),
        }
    }
}

/// Settings of a match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Player A (its score is reported).
    pub a: PlayerSpec,
    /// Player B.
    pub b: PlayerSpec,
    /// Games to play (rounded up to pairs).
    pub games: u32,
    /// Start positions (FENs); random two-ply openings from the start when empty.
    pub openings: Vec<String>,
    /// Seed for the random openings.
    pub seed: u64,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: u32,
    /// Print one line per game.
    pub verbose: bool,
}

/// Totals of a match, from A's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Games A won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
    /// Illegal moves played (must be zero).
    pub illegal: u32,
    /// Moves that took longer than their time allowance.
    pub over_time: u32,
}

impl MatchResult {
    /// A's score as a fraction.
    pub fn score(&self) -> f64 {
        let games = f64::from(self.wins + self.draws + self.losses);
        if games == 0.0 {
            0.5
        } else {
            (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / games
        }
    }

    /// Elo difference and its 95% error bar (trinomial model, delta method). At a score of
    /// 0% or 100% the difference is unbounded: it is reported at ±1200 with no bar.
    pub fn elo(&self) -> (f64, f64) {
        let n = f64::from(self.wins + self.draws + self.losses);
        let p = self.score();
        if n == 0.0 {
            return (0.0, 0.0);
        }
        if p <= 0.0 || p >= 1.0 {
            return (if p >= 1.0 { 1200.0 } else { -1200.0 }, 0.0);
        }
        let elo = -400.0 * (1.0 / p - 1.0).log10();
        let variance = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        let margin = 1.96 * (variance / n).sqrt();
        // d(Elo)/dp = 400 / (ln 10 * p * (1 - p)).
        (elo, margin * 400.0 / (std::f64::consts::LN_10 * p * (1.0 - p)))
    }
}

enum Brain<R: Rules> {
    Internal(Box<Engine<R>>),
    External(HubPlayer),
}

struct Player<R: Rules> {
    spec: PlayerSpec,
    brain: Brain<R>,
}

impl<R: Rules> Player<R> {
    fn new(spec: &PlayerSpec) -> Result<Self, String> {
        let brain = match spec {
            PlayerSpec::Hub(path, limit) => {
                Brain::External(HubPlayer::start(path, *limit, R::VARIANT.name())?)
            }
            _ => {
                let mut engine = Engine::new(1, 16);
                if let PlayerSpec::Level(level) = spec {
                    engine.set_level(*level);
                }
                Brain::Internal(Box::new(engine))
            }
        };
        Ok(Player { spec: spec.clone(), brain })
    }

    fn new_game(&mut self) -> Result<(), String> {
        match &mut self.brain {
            Brain::Internal(engine) => {
                engine.new_game();
                Ok(())
            }
            Brain::External(player) => player.new_game(),
        }
    }

    /// The player's move and the time it took.
    fn choose(&mut self, game: &Game<R>) -> Result<Option<(MoveOf<R>, Duration)>, String> {
        let started = std::time::Instant::now();
        let engine = match &mut self.brain {
            Brain::Internal(engine) => engine,
            Brain::External(player) => {
                if game.legal_moves().is_empty() {
                    return Ok(None);
                }
                return player.choose(game).map(|mv| Some((mv, started.elapsed())));
            }
        };
        let limits = match self.spec {
            PlayerSpec::Greedy => {
                let position = game.position();
                let best = game.legal_moves().iter().copied().max_by_key(|mv| {
                    let mut child = *position;
                    child.play(mv);
                    -engine.evaluate(&child)
                });
                return Ok(best.map(|mv| (mv, started.elapsed())));
            }
            PlayerSpec::Depth(depth) => Limits { depth: Some(depth), ..Limits::default() },
            PlayerSpec::Nodes(nodes) => Limits { nodes: Some(nodes), ..Limits::default() },
            PlayerSpec::MoveTime(time) => Limits { move_time: Some(time), ..Limits::default() },
            PlayerSpec::Level(level) => Limits { depth: Some(1 + level / 2), ..Limits::default() },
            PlayerSpec::Hub(..) => unreachable!("external players answered above"),
        };
        let result = engine.go(game, limits, false, &mut Silent);
        Ok(result.best.map(|mv| (mv, started.elapsed())))
    }
}

/// A deterministic random two-ply opening from the start position.
fn random_opening<R: Rules>(state: &mut u64) -> Position<R> {
    let mut position = Position::<R>::start();
    for _ in 0..2 {
        let list = legal_moves(&position);
        if list.is_empty() {
            break;
        }
        *state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let index = ((*state >> 33) % list.len() as u64) as usize;
        position.play(&list.as_slice()[index]);
    }
    position
}

/// Plays the match and prints its progress and totals.
///
/// # Errors
/// An opening FEN that cannot be read.
pub fn run<R: Rules>(settings: &MatchSettings) -> Result<MatchResult, String> {
    let mut a = Player::<R>::new(&settings.a)?;
    let mut b = Player::<R>::new(&settings.b)?;
    let mut result = MatchResult::default();
    let mut state = settings.seed;
    let pairs = settings.games.div_ceil(2);
    for pair in 0..pairs {
        let opening = if settings.openings.is_empty() {
            random_opening::<R>(&mut state)
        } else {
            let text = &settings.openings[pair as usize % settings.openings.len()];
            fen::parse::<R>(text).map_err(|e| e.to_string())?
        };
        for a_moves_first in [true, false] {
            a.new_game()?;
            b.new_game()?;
            let mut game = Game::new(opening);
            let a_side =
                if a_moves_first { opening.side_to_move() } else { !opening.side_to_move() };
            let outcome = loop {
                let outcome = game.outcome();
                if outcome != Outcome::Ongoing {
                    break outcome;
                }
                if game.moves().count() as u32 >= settings.max_plies {
                    break Outcome::Draw("adjudicated at the ply limit".into());
                }
                let a_to_move = game.position().side_to_move() == a_side;
                let player = if a_to_move { &mut a } else { &mut b };
                let Some((mv, took)) = player.choose(&game)? else {
                    break game.outcome();
                };
                let allowed = match player.spec {
                    PlayerSpec::MoveTime(allowed)
                    | PlayerSpec::Hub(_, HubLimit::MoveTime(allowed)) => Some(allowed),
                    _ => None,
                };
                if let Some(allowed) = allowed {
                    if took > allowed + Duration::from_millis(5) {
                        result.over_time += 1;
                    }
                }
                if game.play(&mv).is_err() {
                    result.illegal += 1;
                    let text = moves::to_pdn(game.position(), &mv);
                    eprintln!("illegal move {text} in {}", fen::write(game.position()));
                    let loser = game.position().side_to_move();
                    break Outcome::Win(!loser, "illegal move");
                }
            };
            match &outcome {
                Outcome::Win(side, _) if *side == a_side => result.wins += 1,
                Outcome::Win(_, _) => result.losses += 1,
                _ => result.draws += 1,
            }
            if settings.verbose {
                let colour = if a_side == Side::White { "white" } else { "black" };
                println!(
                    "game {:>4}: A {colour:<5} {} after {} plies, from {}",
                    2 * pair + u32::from(!a_moves_first) + 1,
                    outcome,
                    game.moves().count(),
                    fen::write(&opening)
                );
            }
        }
    }
    let (elo, error) = result.elo();
    println!(
        "A {:?} vs B {:?} ({}): +{} ={} -{}  score {:.1}%  Elo {:+.0} ± {:.0}  illegal moves {}  over time {}",
        settings.a,
        settings.b,
        R::VARIANT,
        result.wins,
        result.draws,
        result.losses,
        100.0 * result.score(),
        elo,
        error,
        result.illegal,
        result.over_time
    );
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_error_bars() {
        let even = MatchResult { wins: 10, draws: 20, losses: 10, ..MatchResult::default() };
        assert_eq!(even.elo().0, 0.0);
        let strong = MatchResult { wins: 36, draws: 2, losses: 2, ..MatchResult::default() };
        let (elo, error) = strong.elo();
        assert!((elo - 436.0).abs() < 2.0 && error > 100.0 && error < 300.0, "{elo} {error}");
        assert!(
            "depth=6".parse::<PlayerSpec>().is_ok() && "depth=x".parse::<PlayerSpec>().is_err()
        );
    }
}
