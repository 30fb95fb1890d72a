//! `damas pdn check`: replays every game of PDN files as they are found in collections and
//! reports, per game, the first move that cannot be read or played and why.

use crate::error::UserError;
use damas::game::Game;
use damas::game::replay::{Notation, play_moves};
use damas::notation::fen;
use damas::notation::pdn::{self, PdnGame};
use damas::position::Position;
use damas::rules::{Rules, Variant};
use damas::with_variant;
use std::path::PathBuf;

/// The `pdn` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum PdnCommand {
    /// Replays every game of each file and reports each game's first unreadable or illegal move
    /// (exit status 1 when a game does not replay). The rule set is --variant, else the game's
    /// GameType tag, else guessed from its notation (and said).
    Check {
        /// The rule set of every game (default: each game's GameType tag, or a guess).
        #[arg(long, short = 'v')]
        variant: Option<String>,
        /// Print only the games that do not replay, and the totals.
        #[arg(long, short = 'q')]
        quiet: bool,
        /// PDN files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// The rule set of `game`: the GameType tag's number where it has one; else guessed from its
/// notation (algebraic squares: Russian, then Czech; numbers: English, then International,
/// first where a square is above 32), the first candidate in which the game replays, with the
/// guess in words.
pub fn rule_set_of(game: &PdnGame) -> Result<(Variant, Option<String>), String> {
    if let Some(kind) = game.tag("GameType") {
        let number = kind.split(',').next().unwrap_or("").trim();
        let variant =
            number.parse().map_err(|_| format!("GameType \"{kind}\" is not a known rule set"))?;
        return Ok((variant, None));
    }
    let texts = game.moves.iter().map(String::as_str).chain(game.tag("FEN"));
    let mut algebraic = false;
    let mut highest = 0u32;
    for text in texts {
        for part in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            let part = part.trim_start_matches(['K', 'W', 'B']);
            if part.as_bytes().first().is_some_and(u8::is_ascii_lowercase) {
                algebraic = true;
            } else if let Ok(square) = part.parse::<u32>() {
                highest = highest.max(square);
            }
        }
    }
    let (candidates, why) = if algebraic {
        ([Variant::Russian, Variant::Czech], "algebraic squares")
    } else if highest > 32 {
        ([Variant::International, Variant::Brazilian], "squares above 32")
    } else {
        ([Variant::English, Variant::International], "square numbers up to 32")
    };
    let chosen = candidates
        .iter()
        .copied()
        .find(|&variant| with_variant!(variant, R => replay::<R>(game)).is_ok())
        .unwrap_or(candidates[0]);
    let guess = format!("no GameType tag; {why}: {} assumed", chosen.name());
    Ok((chosen, Some(guess)))
}

/// A line naming a game: its number, event and players.
fn title(number: usize, game: &PdnGame) -> String {
    let tag = |name| game.tag(name).filter(|v| !v.is_empty() && *v != "?");
    let mut words = vec![format!("game {number}")];
    if let Some(event) = tag("Event") {
        words.push(format!("\"{event}\""));
    }
    if let (Some(white), Some(black)) = (tag("White"), tag("Black")) {
        words.push(format!("{white} - {black}"));
    }
    words.join(" ")
}

/// Replays `game` in rule set `R`: the moves played, or the reason it stops.
fn replay<R: Rules>(game: &PdnGame) -> Result<usize, String> {
    let start = match game.tag("FEN") {
        Some(text) => fen::parse::<R>(text).map_err(|e| format!("[FEN]: {e}"))?,
        None => Position::start(),
    };
    let mut played = Game::new(start);
    play_moves(&mut played, game.moves.iter().map(String::as_str), Notation::PdnFirst)
        .map_err(|e| e.to_string())?;
    Ok(game.moves.len())
}

/// Runs a `pdn` subcommand.
pub fn run(command: &PdnCommand) -> Result<(), UserError> {
    let PdnCommand::Check { variant, quiet, files } = command;
    let forced: Option<Variant> = variant.as_deref().map(str::parse).transpose()?;
    let (mut games, mut wrong) = (0usize, 0usize);
    for path in files {
        let bytes = damas::bounded::read(path, damas::bounded::PDN)?;
        let text = pdn::decode(&bytes);
        for (i, parsed) in pdn::parse_each(&text).into_iter().enumerate() {
            games += 1;
            let outcome =
                parsed.map_err(|e| (format!("game {}", i + 1), e.to_string())).and_then(|game| {
                    let name = title(i + 1, &game);
                    let (variant, guess) = match forced {
                        Some(variant) => (variant, None),
                        None => rule_set_of(&game).map_err(|e| (name.clone(), e))?,
                    };
                    let name = match &guess {
                        Some(guess) => format!("{name} ({guess})"),
                        None => name,
                    };
                    let moves = with_variant!(variant, R => replay::<R>(&game))
                        .map_err(|e| (name.clone(), e))?;
                    Ok((name, variant, moves))
                });
            match outcome {
                Ok((name, variant, moves)) => {
                    if !quiet {
                        println!(
                            "{}: {name}: {moves} moves of {} replayed",
                            path.display(),
                            variant.name()
                        );
                    }
                }
                Err((name, why)) => {
                    wrong += 1;
                    println!("{}: {name}: {why}", path.display());
                }
            }
        }
    }
    println!("{games} games: {} replayed, {wrong} with an error", games - wrong);
    if wrong > 0 {
        std::process::exit(1);
    }
    Ok(())
}
