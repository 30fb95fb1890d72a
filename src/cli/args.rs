//! What several commands take alike: a position (`--variant`, `--fen`, `--moves`) and the
//! number of threads when none is given.

use crate::error::UserError;
use damas::game::Game;
use damas::game::replay::{Notation, play_moves};
use damas::notation::{self, guess};
use damas::position::Position;
use damas::rules::{Rules, Variant};
use damas::with_variant;

/// Position arguments shared by several commands.
#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    /// Rule set (see `damas variants`): english (default), international, brazilian, russian,
    /// spanish, turkish, italian, portuguese, czech, pool, thai, canadian, frisian, frysk,
    /// killer, antidraughts, breakthrough, english-losing.
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// Position as a PDN FEN, e.g. "W:W31-50:B1-20", or a Hub position string (default: the
    /// start position). Without --variant, its squares choose the board: above 32, 10x10.
    #[arg(long, short = 'f')]
    pub fen: Option<String>,
    /// Moves to play from that position first, e.g. "11-15 23-19" (PDN or Hub notation).
    #[arg(long, short = 'm')]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The rule set given; else the one `--fen` is written for (see [`choose_variant`]).
    ///
    /// # Errors
    /// A name no rule set has.
    pub fn variant(&self) -> Result<Variant, UserError> {
        choose_variant(self.variant.as_deref(), self.fen.as_deref())
    }

    /// The position the arguments describe: the FEN (or the start) and then the moves.
    pub fn position<R: Rules>(&self) -> Result<Position<R>, UserError> {
        self.game::<R>().map(|game| *game.position())
    }

    /// The position of `--fen` (or the start) with the `--moves` played as a game, so that the
    /// rules of the whole game (Frisian's king-move limit) apply to what follows.
    pub fn game<R: Rules>(&self) -> Result<Game<R>, UserError> {
        let start = match &self.fen {
            None => Position::start(),
            Some(text) => notation::position::<R>(text)?,
        };
        let mut game = Game::new(start);
        let texts = self.moves.iter().flat_map(|m| m.split_whitespace());
        play_moves(&mut game, texts, Notation::PdnFirst)
            .map_err(|e| UserError(format!("move {} of --moves: {}", e.number, e.reason)))?;
        Ok(game)
    }
}

/// The rule set `given` by name; without one, the rule set a pasted position is written for
/// (squares above 32: International, and so on, as [`guess`] reads them), said on stderr when
/// it is not English; else English.
///
/// # Errors
/// A name no rule set has.
pub fn choose_variant(given: Option<&str>, position: Option<&str>) -> Result<Variant, UserError> {
    if let Some(name) = given {
        return Ok(name.parse()?);
    }
    let Some(text) = position else { return Ok(Variant::English) };
    let guess = guess::of_position(text);
    let reads =
        |variant: Variant| with_variant!(variant, R => notation::position::<R>(text).is_ok());
    let chosen =
        guess.candidates.iter().copied().find(|&v| reads(v)).unwrap_or_else(|| guess.first());
    if chosen != Variant::English {
        eprintln!("no --variant given; {}", guess.said(chosen));
    }
    Ok(chosen)
}

/// All cores.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}
