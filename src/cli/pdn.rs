//! `damas pdn check`: replays every game of PDN files as they are found in collections and
//! reports, per game, the first move that cannot be read or played and why.

use crate::error::UserError;
use damas::game::replay;
use damas::notation::pdn::{self, PdnGame};
use damas::rules::Variant;
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
                        None => replay::rule_set_of(&game).map_err(|e| (name.clone(), e))?,
                    };
                    let name = match &guess {
                        Some(guess) => format!("{name} ({guess})"),
                        None => name,
                    };
                    let moves = with_variant!(variant, R => replay::replay_pdn::<R>(&game).map(|_| game.moves.len()))
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
