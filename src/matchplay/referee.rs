//! The referee of one game: it asks each player for its moves in turn, keeps their clocks,
//! checks every move with the game layer (legality under the whole game's rules, results,
//! draws), adjudicates by the match's rules, and records the game. A player that crashes, stops
//! answering, overruns its clock or plays an illegal move loses the game, with the reason; one
//! that ends the game itself (DXP) loses by resigning, draws where the game's rules or the
//! federation's (which DXP engines follow) give the draw it claims, and else loses.
//!
//! Depends on the game layer and the players' common interface; nothing here knows whether a
//! player is a process, a connection or this program.

use super::player::{Claim, Failure, Player};
use super::tc::{Clock, TimeControl};
use crate::board::bitset::BitSet;
use crate::board::types::Side;
use crate::egdb::{Egdb, Outcome};
use crate::game::{Game, GameRules, Verdict};
use crate::position::{MoveOf, Position};
use crate::rules::Rules;
use std::time::{Duration, Instant};

/// Draw by agreement of the scores: from move `after` on, both engines have reported a score
/// within `score` of zero for `moves` moves each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawAdjudication {
    /// First move number at which it applies.
    pub after: u32,
    /// Moves of each side in a row.
    pub moves: u32,
    /// Bound in men.
    pub score: f64,
}

/// Win by agreement of the scores: for `moves` moves each, one engine has reported at least
/// `score` and the other at most `-score`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResignAdjudication {
    /// Moves of each side in a row.
    pub moves: u32,
    /// Bound in men.
    pub score: f64,
}

/// How games are decided beyond the rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adjudication {
    /// Draw by the engines' scores.
    pub draw: Option<DrawAdjudication>,
    /// Win by the engines' scores.
    pub resign: Option<ResignAdjudication>,
    /// A draw after this many moves of each side.
    pub max_moves: Option<u32>,
    /// Time an engine may overrun its clock before it loses.
    pub margin: Duration,
    /// With no clock (depth or node limits), how long a move may take before the engine is
    /// taken to have stopped answering.
    pub no_clock_patience: Duration,
}

/// Why a game ended, in the words of PDN's `Termination` tag (the PGN standard's, as
/// cutechess-cli writes them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// By the rules: a win, or a draw the rules declare.
    Normal,
    /// By the referee: scores, the length limit.
    Adjudication,
    /// A player overran its clock.
    TimeForfeit,
    /// A player sent an illegal or unreadable move, or broke the protocol.
    RulesInfraction,
    /// A player's process ended or its connection closed.
    Abandoned,
    /// A player stopped answering.
    StalledConnection,
}

impl Termination {
    /// Every termination, in the order reports list them.
    pub const ALL: [Termination; 6] = [
        Termination::Normal,
        Termination::Adjudication,
        Termination::TimeForfeit,
        Termination::RulesInfraction,
        Termination::Abandoned,
        Termination::StalledConnection,
    ];

    /// The tag's value.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
            Termination::StalledConnection => "stalled connection",
        }
    }
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// This side won.
    Win(Side),
    /// Drawn.
    Draw,
}

/// One move as played.
#[derive(Clone, Debug)]
pub struct PlayedMove<R: Rules> {
    /// The move.
    pub mv: MoveOf<R>,
    /// Time it took, by the referee's watch.
    pub took: Duration,
    /// The mover's score in men, as it reported it.
    pub score: Option<f64>,
    /// Depth it reported.
    pub depth: Option<u32>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord<R: Rules> {
    /// The opening position.
    pub start: Position<R>,
    /// The moves.
    pub moves: Vec<PlayedMove<R>>,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// The same in words (`white has no legal move`, `black: crashed: ...`).
    pub reason: String,
    /// The side whose player failed (it must be restarted before its next game).
    pub failed: Option<Side>,
}

/// A side of the board: its player, its time control and its name.
pub struct Seat<'a, R: Rules> {
    /// The player.
    pub player: &'a mut dyn Player<R>,
    /// Its time control.
    pub control: TimeControl,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// Scores of the last plies for the adjudication rules: the mover's score, per ply.
struct ScoreRuns {
    /// Plies in a row with both scores within the draw bound.
    quiet: u32,
    /// Plies in a row where the scores agree that this side wins (Side as index), by the bound.
    winning: [u32; 2],
}

impl ScoreRuns {
    fn record(&mut self, mover: Side, score: Option<f64>, rules: &Adjudication) {
        let draw_bound = rules.draw.map_or(0.0, |draw| draw.score);
        let win_bound = rules.resign.map_or(f64::INFINITY, |resign| resign.score);
        match score {
            Some(score) if score.abs() <= draw_bound => self.quiet += 1,
            _ => self.quiet = 0,
        }
        let winner = match score {
            Some(score) if score >= win_bound => Some(mover),
            Some(score) if score <= -win_bound => Some(!mover),
            _ => None,
        };
        for side in [Side::White, Side::Black] {
            let run = &mut self.winning[side as usize];
            *run = if winner == Some(side) { *run + 1 } else { 0 };
        }
    }
}

/// The endgame databases' verdict on `position`, as a result and its reason, when they hold it.
/// A database value is the position's under the move rules (see [`crate::egdb`]): a won
/// position is adjudicated won even where a move-count rule might have drawn it first, as
/// tournament managers do with databases.
pub fn database_verdict<R: Rules>(egdb: &Egdb<R>, game: &Game<R>) -> Option<(GameResult, String)> {
    let position = game.position();
    if position.occupied().count() > egdb.max_pieces() || !egdb.fits(game.rules()) {
        return None;
    }
    let value = egdb.probe(position, &game.counters().king_streaks)?;
    let mover = position.side_to_move();
    let result = match value.outcome() {
        Outcome::Win => GameResult::Win(mover),
        Outcome::Loss => GameResult::Win(!mover),
        Outcome::Draw => GameResult::Draw,
    };
    Some((result, format!("endgame database: {value} for {}", side_name(mover))))
}

/// Plays one game from `start`, `white` against `black`, under the `rules` of the whole game;
/// with `egdb`, a position the databases hold ends the game with their verdict.
pub fn play<'a, R: Rules>(
    start: Position<R>,
    rules: GameRules,
    white: Seat<'a, R>,
    black: Seat<'a, R>,
    adjudication: &Adjudication,
    egdb: Option<&Egdb<R>>,
) -> GameRecord<R> {
    let mut game = Game::with_rules(start, rules.clone());
    let mut seats = [white, black];
    let mut clocks = [Clock::new(seats[0].control), Clock::new(seats[1].control)];
    let mut moves: Vec<PlayedMove<R>> = Vec::new();
    let mut runs = ScoreRuns { quiet: 0, winning: [0, 0] };
    let end = |moves: Vec<PlayedMove<R>>, result, termination, reason: String, failed| GameRecord {
        start,
        moves,
        result,
        termination,
        reason,
        failed,
    };
    let forfeit = |side: Side, termination, why: String, moves| {
        let reason = format!("{} {why}", side_name(side));
        end(moves, GameResult::Win(!side), termination, reason, Some(side))
    };
    for side in [Side::White, Side::Black] {
        if let Err(failure) = seats[side as usize].player.new_game(&start, side) {
            return forfeit(side, termination_of(&failure), failure.to_string(), moves);
        }
    }
    let record = loop {
        if let Some(verdict) = game.verdict() {
            let (result, reason) = match verdict {
                Verdict::Win(side, why) => (GameResult::Win(side), why.as_str().to_string()),
                Verdict::Draw(why) => (GameResult::Draw, why.to_string()),
            };
            break end(moves, result, Termination::Normal, reason, None);
        }
        if let Some((result, why)) = egdb.and_then(|egdb| database_verdict(egdb, &game)) {
            break end(moves, result, Termination::Adjudication, why, None);
        }
        let plies = moves.len() as u32;
        if let Some(max) = adjudication.max_moves {
            if plies >= 2 * max {
                break end(
                    moves,
                    GameResult::Draw,
                    Termination::Adjudication,
                    format!("{max} moves each"),
                    None,
                );
            }
        }
        if let Some(draw) = adjudication.draw {
            if plies / 2 + 1 >= draw.after && runs.quiet >= 2 * draw.moves {
                let why = format!("both scores within {} for {} moves", draw.score, draw.moves);
                break end(moves, GameResult::Draw, Termination::Adjudication, why, None);
            }
        }
        if let Some(resign) = adjudication.resign {
            if let Some(side) = [Side::White, Side::Black]
                .into_iter()
                .find(|&side| runs.winning[side as usize] >= 2 * resign.moves)
            {
                let why = format!(
                    "both scores agree {} wins by {} for {} moves",
                    side_name(side),
                    resign.score,
                    resign.moves
                );
                break end(moves, GameResult::Win(side), Termination::Adjudication, why, None);
            }
        }
        let mover = game.position().side_to_move();
        let index = mover as usize;
        let clock = &mut clocks[index];
        let patience = match clock.allowed() {
            // Past its time and the margin it has lost; a little more tells a late answer (a
            // time forfeit) from none at all.
            Some(allowed) => allowed + adjudication.margin + Duration::from_secs(1) + allowed / 4,
            None => adjudication.no_clock_patience,
        };
        let started = Instant::now();
        let reply = seats[index].player.go(&game, clock.limit(), patience);
        let took = started.elapsed();
        let reply = match reply {
            Ok(reply) => reply,
            // No answer while a clock runs: the engine has lost on time (its connection may be
            // alive; only under depth or node limits is silence a stalled connection).
            Err(Failure::Stalled(_)) if clock.allowed().is_some() => {
                let allowed = clock.allowed().unwrap_or_default();
                let why = format!(
                    "no move in {:.3} s with {:.3} s on its clock",
                    took.as_secs_f64(),
                    allowed.as_secs_f64()
                );
                break forfeit(mover, Termination::TimeForfeit, why, moves);
            }
            Err(Failure::Claimed(Claim::Resign)) => {
                let why = format!("{} resigned", side_name(mover));
                break end(moves, GameResult::Win(!mover), Termination::Normal, why, None);
            }
            // A win claim falls to the last arm: an infraction, like any other failure.
            Err(Failure::Claimed(Claim::Draw)) => {
                break match federation_draw(start, &rules, &moves) {
                    Some(rule) => {
                        let why = format!("{} claimed a draw: {rule}", side_name(mover));
                        end(moves, GameResult::Draw, Termination::Adjudication, why, None)
                    }
                    None => {
                        let why = "claimed a draw that the federation's rules do not give";
                        forfeit(mover, Termination::RulesInfraction, why.to_string(), moves)
                    }
                };
            }
            Err(failure) => {
                break forfeit(mover, termination_of(&failure), failure.to_string(), moves);
            }
        };
        if let Err(over) = clock.charge(took, adjudication.margin) {
            let why = format!(
                "took {:.3} s with {:.3} s on its clock",
                over.took.as_secs_f64(),
                over.allowed.as_secs_f64()
            );
            break forfeit(mover, Termination::TimeForfeit, why, moves);
        }
        if game.play(&reply.mv).is_err() {
            let why = format!(
                "played a move the game's history forbids ({})",
                crate::notation::moves::to_pdn(game.position(), &reply.mv)
            );
            break forfeit(mover, Termination::RulesInfraction, why, moves);
        }
        runs.record(mover, reply.score, adjudication);
        moves.push(PlayedMove { mv: reply.mv, took, score: reply.score, depth: reply.depth });
        let opponent = !mover;
        if let Err(failure) = seats[opponent as usize].player.opponent_moved(&game, &reply.mv) {
            break forfeit(opponent, termination_of(&failure), failure.to_string(), moves);
        }
    };
    let result = result_text::<R>(record.result);
    for seat in &mut seats {
        seat.player.game_over(&game, result);
    }
    record
}

fn termination_of(failure: &Failure) -> Termination {
    match failure {
        Failure::Crashed(_) => Termination::Abandoned,
        Failure::Stalled(_) => Termination::StalledConnection,
        Failure::IllegalMove(_) | Failure::Protocol(_) | Failure::Claimed(_) => {
            Termination::RulesInfraction
        }
    }
}

/// The draw rule that ends the game of `moves` from `start` under the federation's draw
/// rules (FMJD's 25 king moves and small-ending counts, which DXP engines follow); None where
/// they do not. The game's own rules need no asking: a draw they give has already ended the
/// game before the engine was asked to move.
fn federation_draw<R: Rules>(
    start: Position<R>,
    rules: &GameRules,
    moves: &[PlayedMove<R>],
) -> Option<String> {
    let federation = GameRules {
        draws: crate::game::DrawRules::federation(R::VARIANT),
        mandatory_capture: rules.mandatory_capture,
    };
    let mut game = Game::with_rules(start, federation);
    for played in moves {
        game.play(&played.mv).ok()?;
    }
    match game.verdict()? {
        Verdict::Draw(why) => Some(why.to_string()),
        Verdict::Win(..) => None,
    }
}

/// The PDN result ([`crate::game::Outcome::pdn_result`]).
pub fn result_text<R: Rules>(result: GameResult) -> &'static str {
    match result {
        GameResult::Draw => crate::game::Outcome::Draw(String::new()).pdn_result::<R>(),
        GameResult::Win(side) => crate::game::Outcome::Win(side, "").pdn_result::<R>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchplay::player::Reply;
    use crate::matchplay::tc::MoveLimit;
    use crate::rules::International;

    /// A player that never brings back a position it has played into (so no game repeats) nor
    /// leaves its piece to be taken, and from the game's ply `claim`'s first on ends the game
    /// with its second.
    struct Claimant {
        claim: Option<(u32, Claim)>,
        seen: Vec<u64>,
    }

    impl Player<International> for Claimant {
        fn new_game(&mut self, _: &Position<International>, _: Side) -> Result<(), Failure> {
            Ok(())
        }

        fn go(
            &mut self,
            game: &Game<International>,
            _: MoveLimit,
            _: Duration,
        ) -> Result<Reply<International>, Failure> {
            if let Some((ply, claim)) = self.claim {
                if game.moves().count() as u32 >= ply {
                    return Err(Failure::Claimed(claim));
                }
            }
            let legal = game.legal_moves();
            let fresh = legal.as_slice().iter().find(|mv| {
                let mut child = *game.position();
                child.play(mv);
                !self.seen.contains(&child.hash()) && !crate::movegen::has_capture(&child)
            });
            let mv = *fresh.ok_or_else(|| Failure::Protocol("no fresh move".into()))?;
            let mut child = *game.position();
            child.play(&mv);
            self.seen.push(child.hash());
            Ok(Reply { mv, score: None, depth: None })
        }
    }

    /// A king against a king: White plays on, Black ends the game at its ply `ply` with
    /// `claim`; under the sites' rules (120 plies) nothing ends it before.
    fn claimed(ply: u32, claim: Claim) -> GameRecord<International> {
        let start = crate::notation::fen::parse::<International>("W:WK46:BK45").unwrap();
        let mut white = Claimant { claim: None, seen: Vec::new() };
        let mut black = Claimant { claim: Some((ply, claim)), seen: Vec::new() };
        let control = TimeControl::Depth(1);
        let adjudication = Adjudication {
            draw: None,
            resign: None,
            max_moves: None,
            margin: Duration::from_millis(50),
            no_clock_patience: Duration::from_secs(5),
        };
        play(
            start,
            GameRules::chosen::<International>(crate::game::rules::DrawRuleSet::Default, true),
            Seat { player: &mut white, control },
            Seat { player: &mut black, control },
            &adjudication,
            None,
        )
    }

    /// FMJD's 5 moves for a king against a king (10 plies) bear out a draw claimed at ply 11;
    /// one claimed at ply 3 is borne out by nothing and loses; a resignation loses.
    #[test]
    fn a_claim_stands_where_the_federation_rules_give_it() {
        let drawn = claimed(11, Claim::Draw);
        assert_eq!(drawn.result, GameResult::Draw, "{}", drawn.reason);
        assert_eq!(drawn.termination, Termination::Adjudication);
        assert_eq!(drawn.moves.len(), 11);
        assert!(drawn.reason.contains("black claimed a draw: ") && drawn.reason.contains("FMJD"));
        let early = claimed(3, Claim::Draw);
        assert_eq!(early.result, GameResult::Win(Side::White), "{}", early.reason);
        assert_eq!(early.termination, Termination::RulesInfraction);
        assert_eq!(early.failed, Some(Side::Black));
        let resigned = claimed(5, Claim::Resign);
        assert_eq!(resigned.result, GameResult::Win(Side::White));
        assert_eq!(resigned.termination, Termination::Normal);
        assert_eq!(resigned.reason, "black resigned");
        let won = claimed(13, Claim::Win);
        assert_eq!(won.result, GameResult::Win(Side::White));
        assert_eq!(won.termination, Termination::RulesInfraction);
    }
}
