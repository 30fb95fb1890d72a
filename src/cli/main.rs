//! The `damas` binary: the command line (clap) and the commands it runs, as a client of the
//! library. It lives here, not in the library, so that users of the library do not build clap;
//! the library exports none of it.
//!
//! One module per command family; each takes its arguments and returns [`error::UserError`],
//! which ends as one line on stderr and exit status 2. Results go to stdout. This is the edge
//! where the variant is chosen (`with_variant!`). The modules depend on the library, on
//! [`error`], [`args`] and [`progress`], never on this file.

mod analyze;
mod args;
mod bench;
mod book;
mod egdb;
mod error;
mod matches;
mod pdn;
mod progress;
mod protocols;
mod rules;
mod train;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use error::UserError;
use std::process::ExitCode;

/// damas: a checkers and draughts engine for every major rule set.
#[derive(Debug, Parser)]
#[command(name = "damas", version, about)]
#[command(after_help = "With no command, damas reads stdin: a first line `hub` starts the Hub \
protocol, `uci` the UCI-style dialect, anything else the text mode (type `help`).")]
pub struct Cli {
    /// What to do (default: protocol or text mode on stdin, chosen by the first line).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Speaks the Hub protocol on stdin/stdout (Scan's; for the Hub GUI, pydraughts and
    /// lidraughts-bot). The variant is the `variant` param (default normal, 10x10).
    Hub,
    /// Speaks a UCI-style dialect on stdin/stdout (PDN FENs and moves; English by default).
    Uci,
    /// Text mode for people: type `help`.
    Text,
    /// Plays DXP (DamExchange) matches over TCP: listens as the Follower by default.
    Dxp(protocols::DxpArgs),
    /// Counts move paths to a depth (perft), with time and leaves per second.
    Perft(rules::PerftArgs),
    /// Lists the legal moves in PDN and Hub notation.
    Moves(rules::MovesArgs),
    /// Lists the rule sets with their names and aliases.
    Variants,
    /// Searches the bench positions to a fixed depth on one thread and prints the node count,
    /// the signature of the search ("Bench: N nodes M nps").
    Bench(bench::BenchArgs),
    /// Plays a match or tournament between engines (Hub or DXP programs, or damas's built-in
    /// players) with clocks, concurrency, a PDN record, Elo with its interval, the pentanomial
    /// counts of game pairs and an optional SPRT. E.g. `damas match --engine cmd="./new hub"
    /// --engine cmd="./old hub" --tc 0.1 --games 200 --concurrency 2 --pdn games.pdn`.
    Match(matches::MatchArgs),
    /// Plays seeded self-play games at a fixed node count on all cores and writes their quiet
    /// positions with the search score and the result: training data for `damas train`.
    /// Resumes a file it finds. E.g. `damas datagen --variant english --games 20000 --out
    /// english.data`.
    Datagen(train::DatagenArgs),
    /// Trains pattern evaluation weights on `damas datagen` files and writes a weight file (for
    /// the `eval-file` option). E.g. `damas train --variant english --data english.data --out
    /// english.dmw`.
    Train(train::TrainArgs),
    /// Endgame databases: `build` (retrograde analysis, resumable), `probe`, `stats`, `verify`.
    /// E.g. `damas egdb build --variant english --pieces 4`.
    #[command(subcommand)]
    Egdb(egdb::EgdbCommand),
    /// Opening books: `build` (searches the opening's positions, resumable) and `probe`. E.g.
    /// `damas book build --variant english --out english.book`.
    #[command(subcommand)]
    Book(book::BookCommand),
    /// PDN files: `check` replays every game and reports the first move that does not replay.
    /// E.g. `damas pdn check games.pdn`.
    #[command(subcommand)]
    Pdn(pdn::PdnCommand),
    /// Analyses a position: board, then depth, score, nodes and principal variation per
    /// iteration, and the best move. Without a position, the start of the chosen variant.
    /// `--file` analyses one FEN per line; `--pdn` annotates every move of a PDN game.
    Analyze(analyze::AnalyzeArgs),
    /// Draws the board.
    Show(rules::ShowArgs),
}

fn main() -> ExitCode {
    // A reader that goes away early (`damas moves | head -1`) makes printing fail; that is the
    // reader's choice, not an error of ours: leave quietly, as Unix tools do.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("failed printing to stdout") {
            std::process::exit(0);
        }
        default_hook(info);
    }));
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    if let (Some(Command::Match(args)), Some(("match", sub))) =
        (&mut cli.command, matches.subcommand())
    {
        args.group_engines(sub);
    }
    // In the stdin protocols stderr must stay silent unless asked for: pydraughts reads the
    // engine's stderr as protocol lines.
    let quiet = matches!(cli.command, None | Some(Command::Hub | Command::Uci | Command::Text));
    let default_level = if quiet { "off" } else { "warn" };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(default_level))
        .init();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("damas: error: {}", error.0);
            ExitCode::from(2)
        }
    }
}

/// Runs a parsed command line.
///
/// # Errors
/// A bad variant name, FEN or argument.
fn run(cli: Cli) -> Result<(), UserError> {
    let Some(command) = cli.command else {
        return protocols::auto();
    };
    match command {
        Command::Hub => protocols::hub(),
        Command::Uci => protocols::uci(),
        Command::Text => protocols::text(),
        Command::Dxp(args) => protocols::dxp(&args),
        Command::Perft(args) => rules::perft(&args),
        Command::Moves(args) => rules::moves(&args),
        Command::Variants => rules::variants(),
        Command::Show(args) => rules::show(&args),
        Command::Bench(args) => bench::command(&args),
        Command::Analyze(args) => analyze::command(args),
        Command::Match(args) => matches::run(&args),
        Command::Datagen(args) => train::run_datagen(&args),
        Command::Train(args) => train::run_train(&args),
        Command::Egdb(command) => egdb::run(&command),
        Command::Book(command) => book::run(&command),
        Command::Pdn(command) => pdn::run(&command),
    }
}
