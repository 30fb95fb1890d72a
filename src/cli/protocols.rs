//! The commands that hand stdin/stdout or a socket to one of the engine's protocols: `hub`,
//! `uci`, `text`, no command at all (chosen by the first line), and `dxp` over TCP.

use crate::args::default_threads;
use crate::error::UserError;
use damas::game::rules::DrawRuleSet;
use damas::protocol::{self, Input};
use damas::rules::Variant;
use damas::with_variant;

/// `damas dxp`'s arguments.
#[derive(Debug, clap::Args)]
pub struct DxpArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:27531", conflicts_with = "connect")]
    listen: String,
    /// Connect to this address instead of listening.
    #[arg(long)]
    connect: Option<String>,
    /// Propose the games (Initiator) instead of answering requests.
    #[arg(long)]
    initiator: bool,
    /// Games to play, then exit (0: keep serving).
    #[arg(long, default_value_t = 0)]
    games: u32,
    /// Minutes per player per game, as Initiator.
    #[arg(long, default_value_t = 3)]
    time: u32,
    /// Moves per game in that time (0: no limit), as Initiator.
    #[arg(long, default_value_t = 75)]
    moves: u32,
    /// Most seconds to think about one move, whatever the clock allows.
    #[arg(long)]
    max_move_time: Option<f64>,
    /// Rule set (a 10x10 one).
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Search threads (default: all cores).
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Draw rules: default (the sites'), federation (with the endgame counts), repetition.
    #[arg(long, default_value = "default")]
    draw_rules: String,
    /// Seconds a peer may say nothing (before a game, or beyond its own clock in one)
    /// before damas drops it and listens again.
    #[arg(long, default_value_t = 60.0)]
    peer_timeout: f64,
}

/// No command: the first line on stdin chooses the protocol (`hub`, `uci`, else text mode).
pub fn auto() -> Result<(), UserError> {
    protocol::run_auto();
    Ok(())
}

/// `damas hub`.
pub fn hub() -> Result<(), UserError> {
    protocol::run::<protocol::hub::Hub>(Input::stdin());
    Ok(())
}

/// `damas uci`.
pub fn uci() -> Result<(), UserError> {
    protocol::run::<protocol::uci::Uci>(Input::stdin());
    Ok(())
}

/// `damas text`.
pub fn text() -> Result<(), UserError> {
    protocol::run_text();
    Ok(())
}

/// `damas dxp`.
pub fn dxp(args: &DxpArgs) -> Result<(), UserError> {
    let variant: Variant = args.variant.parse()?;
    if let Some(seconds) = args.max_move_time {
        if !(seconds.is_finite() && seconds > 0.0) {
            return Err(UserError("--max-move-time must be a positive number".into()));
        }
    }
    let peer_timeout = args.peer_timeout;
    if !(peer_timeout.is_finite() && (0.1..=86_400.0).contains(&peer_timeout)) {
        return Err(UserError("--peer-timeout must be 0.1 to 86400 seconds".into()));
    }
    let draw_rules = DrawRuleSet::from_name(&args.draw_rules).ok_or_else(|| {
        UserError(format!(
            "--draw-rules {}: expected one of {}",
            args.draw_rules,
            DrawRuleSet::NAMES.join(", ")
        ))
    })?;
    let settings = protocol::dxp::Settings {
        address: args.connect.clone().unwrap_or_else(|| args.listen.clone()),
        connect: args.connect.is_some(),
        initiator: args.initiator,
        games: args.games,
        minutes: args.time,
        moves: args.moves,
        max_move_time: args.max_move_time,
        threads: args.threads.unwrap_or_else(default_threads).max(1),
        hash: args.hash.max(1),
        draw_rules,
        peer_timeout: std::time::Duration::from_secs_f64(peer_timeout),
    };
    with_variant!(variant, R => protocol::dxp::run::<R>(&settings)).map_err(UserError)
}
