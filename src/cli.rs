//! The binary's command line: argument types (clap) and the commands they run, as a client of
//! the library.
//!
//! Every error from the user's input ends as one line on stderr and exit status 2; results go to
//! stdout. This module is the edge where the variant is chosen.

use clap::{Parser, Subcommand};
use damas::game::Game;
use damas::game::replay::{Notation, play_moves};
use damas::game::rules::DrawRuleSet;
use damas::movegen::perft::{Convention, divide, perft_threads};
use damas::notation::squares::SquareStyle;
use damas::notation::{diagram, fen, moves};
use damas::position::{MoveOf, Position};
use damas::rules::{Rules, Variant};
use damas::with_variant;
use std::time::Instant;

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
    Dxp {
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
    },
    /// Counts move paths to a depth (perft), with time and leaves per second.
    Perft {
        /// Depth in plies (a whole capture is one ply).
        depth: u32,
        /// The position.
        #[command(flatten)]
        position: PositionArgs,
        /// Print the count below each legal move.
        #[arg(long)]
        divide: bool,
        /// Count every capture route (the classic English convention) instead of unique moves.
        #[arg(long)]
        paths: bool,
        /// Count every capture route and every square where a flying king could stop between
        /// two pieces taken in one line (the kish crate's convention for its Turkish table).
        #[arg(long, conflicts_with = "paths")]
        every_stop: bool,
        /// Threads splitting the root moves.
        #[arg(long, short = 't', default_value_t = 1)]
        threads: usize,
    },
    /// Lists the legal moves in PDN and Hub notation.
    Moves {
        /// The position.
        #[command(flatten)]
        position: PositionArgs,
        /// How to write squares: standard (the variant's PDN convention), numeric or algebraic.
        #[arg(long, default_value = "standard", value_parser = ["standard", "numeric", "algebraic"])]
        squares: String,
        /// Read one position per line from stdin, `FEN` or `FEN moves M1 M2 ...` (a game from
        /// that FEN, moves in Hub notation), and print for each its legal moves in Hub form,
        /// sorted and space-separated, on one line (or `error: ...`): for testing against other
        /// move generators.
        #[arg(long)]
        batch: bool,
        /// With --batch, write each move as `HUB=PDN`, its PDN text in the --squares style (to
        /// test that other programs read the PDN damas writes).
        #[arg(long, requires = "batch")]
        pdn: bool,
    },
    /// Lists the rule sets with their names and aliases.
    Variants,
    /// Searches the bench positions to a fixed depth on one thread and prints the node count,
    /// the signature of the search ("Bench: N nodes M nps").
    Bench {
        /// Depth of each search.
        #[arg(default_value_t = damas::bench::DEPTH)]
        depth: u32,
        /// Search threads (the signature is defined for one; more threads measure lazy-SMP
        /// speed-up: the time to reach the same depth).
        #[arg(long, short = 't', default_value_t = 1)]
        threads: usize,
        /// The evaluation: default (the signature's) or classic (the hand-set terms: the
        /// trained evaluation's cost, side by side).
        #[arg(long, default_value = "default", value_parser = ["default", "classic"])]
        eval: String,
        /// The search's tunable numbers as `NAME:VALUE,...` (the hidden `search-params`
        /// option's form; unnamed ones keep their defaults): the node count and speed of a
        /// tuner's candidate, or of the search with a pruning turned off.
        #[arg(long, default_value = "")]
        search_params: String,
    },
    /// Plays a match or tournament between engines (Hub or DXP programs, or damas's built-in
    /// players) with clocks, concurrency, a PDN record, Elo with its interval, the pentanomial
    /// counts of game pairs and an optional SPRT. E.g. `damas match --engine cmd="./new hub"
    /// --engine cmd="./old hub" --tc 0.1 --games 200 --concurrency 2 --pdn games.pdn`.
    Match(crate::match_cli::MatchArgs),
    /// Plays seeded self-play games at a fixed node count on all cores and writes their quiet
    /// positions with the search score and the result: training data for `damas train`.
    /// Resumes a file it finds. E.g. `damas datagen --variant english --games 20000 --out
    /// english.data`.
    Datagen(crate::train_cli::DatagenArgs),
    /// Trains pattern evaluation weights on `damas datagen` files and writes a weight file (for
    /// the `eval-file` option). E.g. `damas train --variant english --data english.data --out
    /// english.dmw`.
    Train(crate::train_cli::TrainArgs),
    /// Endgame databases: `build` (retrograde analysis, resumable), `probe`, `stats`, `verify`.
    /// E.g. `damas egdb build --variant english --pieces 4`.
    #[command(subcommand)]
    Egdb(crate::egdb_cli::EgdbCommand),
    /// Opening books: `build` (searches the opening's positions, resumable) and `probe`. E.g.
    /// `damas book build --variant english --out english.book`.
    #[command(subcommand)]
    Book(crate::book_cli::BookCommand),
    /// PDN files: `check` replays every game and reports the first move that does not replay.
    /// E.g. `damas pdn check games.pdn`.
    #[command(subcommand)]
    Pdn(crate::pdn_cli::PdnCommand),
    /// Analyses a position: board, then depth, score, nodes and principal variation per
    /// iteration, and the best move. Without a position, the start of the chosen variant.
    /// `--file` analyses one FEN per line; `--pdn` annotates every move of a PDN game.
    Analyze {
        /// The position.
        #[command(flatten)]
        position: PositionArgs,
        /// A file with one PDN FEN per line, each analysed in turn.
        #[arg(long, conflicts_with_all = ["pdn", "fen", "moves"])]
        file: Option<String>,
        /// A PDN file: every move of every game is analysed and annotated (a game's [GameType]
        /// tag chooses its variant unless --variant is given, else it is guessed from the
        /// notation; [FEN] the start).
        #[arg(long, conflicts_with_all = ["fen", "moves"])]
        pdn: Option<String>,
        /// With --pdn: only this game of the file (from 1).
        #[arg(long, requires = "pdn")]
        game: Option<usize>,
        /// Search to this depth.
        #[arg(long, short = 'd')]
        depth: Option<u32>,
        /// Search for this many seconds (default 3 per position, 1 per move of a PDN game, when
        /// no depth is given).
        #[arg(long, short = 's')]
        time: Option<f64>,
        /// Search threads (default: all cores).
        #[arg(long, short = 't')]
        threads: Option<usize>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Show this many best lines (one position, or each of --file's).
        #[arg(long, default_value_t = 1, conflicts_with = "pdn")]
        multipv: usize,
        /// Write an SVG diagram of the position with the best move as an arrow to this file.
        #[arg(long, conflicts_with_all = ["pdn", "file"])]
        svg: Option<String>,
        /// One JSON object per line instead of text.
        #[arg(long)]
        json: bool,
        /// The evaluation: default (the built-in trained weights, or the classic terms where
        /// the rule set has none) or classic.
        #[arg(long, default_value = "default")]
        eval: String,
        /// A weight file of `damas train` to evaluate with.
        #[arg(long)]
        eval_file: Option<std::path::PathBuf>,
        /// The endgame databases' directory (default: the per-user data directory, where
        /// `damas egdb build` puts them, if there is one; `none`: no databases).
        #[arg(long, default_value = "")]
        egdb_path: String,
        /// Memory for the endgame databases in MiB (beyond it, read from disk through a cache).
        #[arg(long, default_value_t = damas::egdb::DEFAULT_MEMORY_MB)]
        egdb_cache: usize,
    },
    /// Draws the board.
    Show {
        /// The position.
        #[command(flatten)]
        position: PositionArgs,
        /// Draw the board turned 180 degrees, as Black sees it.
        #[arg(long)]
        flip: bool,
    },
}

/// A user error: printed as one line, exit status 2.
#[derive(Debug)]
pub struct UserError(pub String);

impl<E: std::error::Error> From<E> for UserError {
    fn from(error: E) -> Self {
        UserError(error.to_string())
    }
}

/// Runs a parsed command line.
///
/// # Errors
/// A bad variant name, FEN or argument.
pub fn run(cli: Cli) -> Result<(), UserError> {
    let Some(command) = cli.command else {
        damas::protocol::run_auto();
        return Ok(());
    };
    match command {
        Command::Hub => {
            damas::protocol::run::<damas::protocol::hub::Hub>(damas::protocol::Input::stdin());
            Ok(())
        }
        Command::Uci => {
            damas::protocol::run::<damas::protocol::uci::Uci>(damas::protocol::Input::stdin());
            Ok(())
        }
        Command::Text => {
            damas::protocol::run_text();
            Ok(())
        }
        Command::Dxp {
            listen,
            connect,
            initiator,
            games,
            time,
            moves,
            max_move_time,
            variant,
            threads,
            hash,
            draw_rules,
            peer_timeout,
        } => {
            let variant: Variant = variant.parse()?;
            if let Some(seconds) = max_move_time {
                if !(seconds.is_finite() && seconds > 0.0) {
                    return Err(UserError("--max-move-time must be a positive number".into()));
                }
            }
            if !(peer_timeout.is_finite() && (0.1..=86_400.0).contains(&peer_timeout)) {
                return Err(UserError("--peer-timeout must be 0.1 to 86400 seconds".into()));
            }
            let draw_rules = DrawRuleSet::from_name(&draw_rules).ok_or_else(|| {
                UserError(format!(
                    "--draw-rules {draw_rules}: expected one of {}",
                    DrawRuleSet::NAMES.join(", ")
                ))
            })?;
            let settings = damas::protocol::dxp::Settings {
                address: connect.clone().unwrap_or(listen),
                connect: connect.is_some(),
                initiator,
                games,
                minutes: time,
                moves,
                max_move_time,
                threads: threads.unwrap_or_else(default_threads).max(1),
                hash: hash.max(1),
                draw_rules,
                peer_timeout: std::time::Duration::from_secs_f64(peer_timeout),
            };
            with_variant!(variant, R => damas::protocol::dxp::run::<R>(&settings))
                .map_err(UserError)
        }
        Command::Perft { depth, position, divide, paths, every_stop, threads } => {
            let variant: Variant = position.variant()?;
            let convention = match (paths, every_stop) {
                (_, true) => Convention::EveryStop,
                (true, false) => Convention::Paths,
                (false, false) => Convention::Unique,
            };
            if threads == 0 {
                return Err(UserError("--threads must be at least 1".into()));
            }
            with_variant!(variant, R => run_perft::<R>(&position, depth, divide, convention, threads))
        }
        Command::Moves { position, squares, batch, pdn } => {
            let style = match squares.as_str() {
                "numeric" => SquareStyle::Numeric,
                "algebraic" => SquareStyle::Algebraic,
                _ => SquareStyle::Standard,
            };
            let variant: Variant = position.variant()?;
            if batch {
                let pdn = pdn.then_some(style);
                return with_variant!(variant, R => run_moves_batch::<R>(pdn));
            }
            with_variant!(variant, R => run_moves::<R>(&position, style))
        }
        Command::Bench { depth, threads, eval, search_params } => {
            let kind = if eval == "classic" {
                damas::eval::Kind::Classic
            } else {
                damas::eval::Kind::Default
            };
            let params = damas::search::ParamChanges::parse(&search_params).map_err(UserError)?;
            damas::bench::run_with(depth.max(1), threads.max(1), kind, params);
            Ok(())
        }
        Command::Analyze {
            position,
            file,
            pdn,
            game: game_number,
            depth,
            time,
            threads,
            hash,
            multipv,
            svg,
            json,
            eval,
            eval_file,
            egdb_path,
            egdb_cache,
        } => {
            let variant: Variant = position.variant()?;
            if let Some(seconds) = time {
                if !(seconds.is_finite() && seconds > 0.0) {
                    return Err(UserError("--time must be a positive number of seconds".into()));
                }
            }
            if !(1..=damas::protocol::MAX_MULTIPV).contains(&multipv) {
                return Err(UserError(format!(
                    "--multipv must be from 1 to {}",
                    damas::protocol::MAX_MULTIPV
                )));
            }
            let threads = threads.unwrap_or_else(default_threads).max(1);
            let settings = damas::analyze::Settings {
                depth,
                seconds: time,
                threads,
                hash: hash.max(1),
                json,
                multipv,
                svg,
                eval,
                eval_file,
                egdb_path,
                egdb_cache: egdb_cache.max(1),
            };
            if let Some(path) = pdn {
                let bytes = std::fs::read(&path)
                    .map_err(|e| UserError(format!("cannot read {path}: {e}")))?;
                let games = damas::notation::pdn::parse_each(&damas::notation::pdn::decode(&bytes));
                if let Some(n) = game_number {
                    if n == 0 || n > games.len() {
                        return Err(UserError(format!(
                            "--game {n}: {path} has {} games (numbered from 1)",
                            games.len()
                        )));
                    }
                }
                let count = games.len();
                let mut failed = 0;
                for (i, parsed) in games.into_iter().enumerate() {
                    if game_number.is_some_and(|n| n != i + 1) {
                        continue;
                    }
                    if count > 1 && game_number.is_none() && !settings.json {
                        println!("[game {} of {count}]", i + 1);
                    }
                    let analysed = parsed.map_err(|e| e.to_string()).and_then(|game| {
                        let variant = match &position.variant {
                            Some(_) => variant,
                            None => {
                                let (found, guess) = crate::pdn_cli::rule_set_of(&game)?;
                                if let Some(guess) = guess {
                                    eprintln!("{path}: game {}: {guess}", i + 1);
                                }
                                found
                            }
                        };
                        with_variant!(variant, R => damas::analyze::run_pdn::<R>(&game, &settings))
                    });
                    if let Err(error) = analysed {
                        if count == 1 || game_number.is_some() {
                            return Err(UserError(error));
                        }
                        eprintln!("{path}: game {}: {error}", i + 1);
                        failed += 1;
                    }
                }
                return if failed > 0 {
                    Err(UserError(format!(
                        "{failed} of the {count} games of {path} could not be analysed"
                    )))
                } else {
                    Ok(())
                };
            }
            if let Some(path) = file {
                return with_variant!(variant, R => damas::analyze::run_file::<R>(&path, &settings))
                    .map_err(UserError);
            }
            with_variant!(variant, R => {
                let game = load_game::<R>(&position)?;
                damas::analyze::run::<R>(game, &settings).map_err(UserError)
            })
        }
        Command::Match(args) => crate::match_cli::run(&args),
        Command::Datagen(args) => crate::train_cli::run_datagen(&args),
        Command::Train(args) => crate::train_cli::run_train(&args),
        Command::Egdb(command) => crate::egdb_cli::run(&command),
        Command::Pdn(command) => crate::pdn_cli::run(&command),
        Command::Book(command) => crate::book_cli::run(&command),
        Command::Variants => {
            for variant in Variant::ALL {
                let aliases = variant.aliases();
                let also = if aliases.is_empty() {
                    String::new()
                } else {
                    format!(" (also: {})", aliases.join(", "))
                };
                println!("{:<16} {}{also}", variant.name(), variant.description());
            }
            Ok(())
        }
        Command::Show { position, flip } => {
            let variant: Variant = position.variant()?;
            with_variant!(variant, R => run_show::<R>(&position, flip))
        }
    }
}

/// All cores.
fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// The position the arguments describe: the FEN (or the start) and then the moves.
fn load<R: Rules>(args: &PositionArgs) -> Result<Position<R>, UserError> {
    load_game::<R>(args).map(|game| *game.position())
}

/// The position of `--fen` (or the start) with the `--moves` played as a game, so that the
/// rules of the whole game (Frisian's king-move limit) apply to what follows.
fn load_game<R: Rules>(args: &PositionArgs) -> Result<Game<R>, UserError> {
    let start = match &args.fen {
        None => Position::start(),
        Some(text) => fen::parse::<R>(text)?,
    };
    let mut game = Game::new(start);
    let texts = args.moves.iter().flat_map(|m| m.split_whitespace());
    play_moves(&mut game, texts, Notation::PdnFirst)
        .map_err(|e| UserError(format!("move {} of --moves: {}", e.number, e.reason)))?;
    Ok(game)
}

fn run_perft<R: Rules>(
    args: &PositionArgs,
    depth: u32,
    show_divide: bool,
    convention: Convention,
    threads: usize,
) -> Result<(), UserError> {
    let position = load::<R>(args)?;
    let started = Instant::now();
    let total = if show_divide {
        let counts = divide(&position, depth, convention, threads);
        for (mv, count) in &counts {
            println!("{:<12} {count}", moves::to_pdn(&position, mv));
        }
        println!("moves {}", counts.len());
        counts.iter().map(|(_, count)| count).sum()
    } else {
        perft_threads(&position, depth, convention, threads)
    };
    let seconds = started.elapsed().as_secs_f64();
    let rate = if seconds > 0.0 { total as f64 / seconds / 1e6 } else { 0.0 };
    let convention = match convention {
        Convention::Unique => "unique",
        Convention::Paths => "paths",
        Convention::EveryStop => "every stop",
    };
    println!(
        "perft {depth} = {total}  ({}, {convention}, {threads} thread{}: {seconds:.3} s, {rate:.1} M leaves/s)",
        R::VARIANT,
        if threads == 1 { "" } else { "s" }
    );
    Ok(())
}

fn run_moves<R: Rules>(args: &PositionArgs, style: SquareStyle) -> Result<(), UserError> {
    let game = load_game::<R>(args)?;
    let position = *game.position();
    let list = game.legal_moves();
    for mv in &list {
        let pdn = moves::to_pdn_styled(&position, mv, style);
        println!("{pdn:<16} hub {}", moves::to_hub::<R>(mv));
    }
    println!("{} legal move{}", list.len(), if list.len() == 1 { "" } else { "s" });
    Ok(())
}

/// `pdn`: also write each move's PDN text, squares in that style.
fn run_moves_batch<R: Rules>(pdn: Option<SquareStyle>) -> Result<(), UserError> {
    use std::io::{BufRead, Write};
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let reply = match batch_game::<R>(line.trim()) {
            Ok(game) => {
                let position = game.position();
                let text = |mv: &MoveOf<R>| match pdn {
                    None => moves::to_hub::<R>(mv),
                    Some(style) => format!(
                        "{}={}",
                        moves::to_hub::<R>(mv),
                        moves::to_pdn_styled(position, mv, style)
                    ),
                };
                let mut texts: Vec<String> = game.legal_moves().iter().map(text).collect();
                texts.sort();
                texts.join(" ")
            }
            Err(error) => format!("error: {error}"),
        };
        writeln!(out, "{reply}")?;
        out.flush()?;
    }
    Ok(())
}

/// A batch line: `FEN` or `FEN moves M1 M2 ...` (Hub notation). The moves are played as a game,
/// so rules that depend on the history (Frisian's king-move limit) apply.
fn batch_game<R: Rules>(line: &str) -> Result<Game<R>, String> {
    let (fen_text, played) = line.split_once(" moves").unwrap_or((line, ""));
    let start = fen::parse::<R>(fen_text.trim()).map_err(|e| e.to_string())?;
    let mut game = Game::new(start);
    play_moves(&mut game, played.split_whitespace(), Notation::HubFirst)
        .map_err(|e| e.to_string())?;
    Ok(game)
}

fn run_show<R: Rules>(args: &PositionArgs, flip: bool) -> Result<(), UserError> {
    let position = load::<R>(args)?;
    print!("{}", diagram::draw_oriented(&position, flip));
    println!("FEN {}", fen::write(&position));
    Ok(())
}
