//! What several commands take alike: a position (`--variant`, `--fen`, `--moves`) and the
//! number of threads when none is given.

use crate::error::UserError;
use damas::game::Game;
use damas::game::replay::{Notation, play_moves};
use damas::notation::fen;
use damas::position::Position;
use damas::rules::{Rules, Variant};

/// Position arguments shared by several commands.
#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    /// Rule set (see `damas variants`): english (default), international, brazilian, russian,
    /// spanish, turkish, italian, portuguese, czech, pool, thai, canadian, frisian, frysk,
    /// killer, antidraughts, breakthrough, english-losing.
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// Position as a PDN FEN, e.g. "W:W31-50:B1-20" (default: the start position).
    #[arg(long, short = 'f')]
    pub fen: Option<String>,
    /// Moves to play from that position first, e.g. "11-15 23-19" (PDN or Hub notation).
    #[arg(long, short = 'm')]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The rule set given, English by default.
    ///
    /// # Errors
    /// A name no rule set has.
    pub fn variant(&self) -> Result<Variant, damas::rules::UnknownVariant> {
        self.variant.as_deref().unwrap_or("english").parse()
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
            Some(text) => fen::parse::<R>(text)?,
        };
        let mut game = Game::new(start);
        let texts = self.moves.iter().flat_map(|m| m.split_whitespace());
        play_moves(&mut game, texts, Notation::PdnFirst)
            .map_err(|e| UserError(format!("move {} of --moves: {}", e.number, e.reason)))?;
        Ok(game)
    }
}

/// All cores.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}
