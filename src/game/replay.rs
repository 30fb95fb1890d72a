//! Playing a list of moves given as text onto a game: the one replay behind every protocol
//! (Hub `pos moves=`, UCI `position ... moves`, text `play`, DXP) and every command (`--moves`,
//! `moves --batch`, PDN games).
//!
//! The policy, the same everywhere:
//! - each move is read in the notation the caller prefers first (Hub clients send
//!   `from-to`/`fromxtoxcaptured`, people and PDN files `from-to`/`fromxto`), then in the
//!   other; PDN move numbers (`1.`, `12...`, alone or glued to the move) are skipped;
//! - a move the move rules do not allow is an error that names the move; the game keeps the
//!   moves before it;
//! - a move that the move rules allow but the game's history forbids (a Frisian king's fourth
//!   non-capturing move in a row) is played, with a warning on the log: the client owns the
//!   game it sends, and clients such as pydraughts do not keep that rule. Refusing would drop
//!   the client's position.
//!
//! Depends on `game` and `notation`; no I/O besides the log.

use super::Game;
use crate::notation::pdn::PdnGame;
use crate::notation::{fen, guess, moves};
use crate::position::Position;
use crate::rules::{Rules, Variant};
use std::fmt;

/// Which notation a move is read in first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// PDN first (`32-28`, `28x19`, the long form when a capture is ambiguous), then Hub.
    PdnFirst,
    /// Hub first (`32-28`, `28x19x23`: origin, destination, then the captured squares), then
    /// PDN.
    HubFirst,
}

/// A move of the list that could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// Its place in the list, from 1 (move numbers not counted).
    pub number: usize,
    /// The move as given.
    pub text: String,
    /// Why it was refused.
    pub reason: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} ({}): {}", self.number, self.text, self.reason)
    }
}

impl std::error::Error for ReplayError {}

/// Plays the moves of `texts` onto `game` by the policy of this module.
///
/// # Errors
/// The first move that the move rules do not allow (or that cannot be read); the moves before
/// it stay played.
pub fn play_moves<'a, R: Rules>(
    game: &mut Game<R>,
    texts: impl IntoIterator<Item = &'a str>,
    notation: Notation,
) -> Result<(), ReplayError> {
    let mut number = 0;
    for word in texts {
        // A PDN move number, alone ("12.") or glued to the move ("12.32-28", "12...19-23").
        let text = word.rfind('.').map_or(word, |dot| &word[dot + 1..]);
        if text.is_empty() {
            continue;
        }
        number += 1;
        let position = game.position();
        let parsed = match notation {
            Notation::PdnFirst => moves::parse(position, text)
                .or_else(|e| moves::parse_hub(position, text).or(Err(e))),
            Notation::HubFirst => moves::parse_hub(position, text)
                .or_else(|e| moves::parse(position, text).or(Err(e))),
        };
        let mv = parsed.map_err(|e| ReplayError {
            number,
            text: text.to_string(),
            reason: e.to_string(),
        })?;
        if game.play(&mv).is_err() {
            log::warn!("move {number} ({text}) breaks a rule of the game's history; played");
            game.play_unchecked(&mv);
        }
    }
    Ok(())
}

/// The start of a PDN game in rule set `R`: its FEN tag, else the start position.
///
/// # Errors
/// A FEN tag that does not read in `R`.
pub fn start_of<R: Rules>(game: &PdnGame) -> Result<Position<R>, String> {
    match game.tag("FEN") {
        Some(text) => fen::parse::<R>(text).map_err(|e| format!("FEN tag: {e}")),
        None => Ok(Position::start()),
    }
}

/// A PDN game played out in rule set `R`.
///
/// # Errors
/// A FEN tag that does not read, or the first move that cannot be played.
pub fn replay_pdn<R: Rules>(game: &PdnGame) -> Result<Game<R>, String> {
    let mut played = Game::new(start_of::<R>(game)?);
    play_moves(&mut played, game.moves.iter().map(String::as_str), Notation::PdnFirst)
        .map_err(|e| e.to_string())?;
    Ok(played)
}

/// The rule set of a PDN game: its `GameType` tag's number where it has one; else the first
/// candidate of the squares' [`guess`] in which the game replays, with the guess in words.
///
/// # Errors
/// A `GameType` that names no rule set damas plays.
pub fn rule_set_of(game: &PdnGame) -> Result<(Variant, Option<String>), String> {
    if let Some(kind) = game.tag("GameType") {
        let number = kind.split(',').next().unwrap_or("").trim();
        let variant =
            number.parse().map_err(|_| format!("GameType \"{kind}\" is not a known rule set"))?;
        return Ok((variant, None));
    }
    let texts = game.moves.iter().map(String::as_str).chain(game.tag("FEN"));
    let guess = guess::from_squares(texts);
    let chosen = guess
        .candidates
        .iter()
        .copied()
        .find(|&variant| crate::with_variant!(variant, R => replay_pdn::<R>(game).is_ok()))
        .unwrap_or_else(|| guess.first());
    Ok((chosen, Some(format!("no GameType tag; {}", guess.said(chosen)))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::position::Position;
    use crate::rules::{English, Frisian};

    #[test]
    fn move_numbers_are_skipped_and_errors_name_the_move() {
        let mut game = Game::new(Position::<English>::start());
        play_moves(&mut game, "1. 11-15 23-19 2.8-11 22x8".split_whitespace(), Notation::PdnFirst)
            .map(|()| panic!("22x8 is not a move here"))
            .unwrap_or_else(|error| {
                assert_eq!((error.number, error.text.as_str()), (4, "22x8"), "{error}");
                assert!(error.to_string().starts_with("move 4 (22x8): "), "{error}");
            });
        // The moves before the bad one stay played.
        assert_eq!(game.moves().count(), 3);
    }

    #[test]
    fn a_move_only_the_history_forbids_is_played() {
        // Frisian: the white king on 46 makes its fourth non-capturing move in a row while White
        // still has a man; the move rules allow it, the game's history does not.
        let start = fen::parse::<Frisian>("W:WK46,35:BK4,17").unwrap_or_else(|e| panic!("{e}"));
        let mut game = Game::new(start);
        let six = "46-41 4-9 41-46 9-4 46-41 4-9";
        assert_eq!(play_moves(&mut game, six.split_whitespace(), Notation::HubFirst), Ok(()));
        let fourth = moves::parse_hub(game.position(), "41-46").unwrap_or_else(|e| panic!("{e}"));
        assert!(game.clone().play(&fourth).is_err(), "the game forbids the fourth king move");
        assert_eq!(play_moves(&mut game, ["41-46"], Notation::HubFirst), Ok(()));
        assert_eq!(game.moves().count(), 7);
    }
}
