//! The rules library's commands: `perft` (move-path counts), `moves` (legal moves, one position
//! or a batch on stdin), `variants` (the rule sets) and `show` (the board).

use crate::args::PositionArgs;
use crate::error::UserError;
use damas::game::Game;
use damas::game::replay::{Notation, play_moves};
use damas::movegen::perft::{Convention, divide, perft_threads};
use damas::notation::squares::SquareStyle;
use damas::notation::{diagram, fen, moves};
use damas::position::MoveOf;
use damas::rules::{Rules, Variant};
use damas::with_variant;
use std::time::Instant;

/// `damas perft`'s arguments.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
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
}

/// `damas moves`'s arguments.
#[derive(Debug, clap::Args)]
pub struct MovesArgs {
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
}

/// `damas show`'s arguments.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The position.
    #[command(flatten)]
    position: PositionArgs,
    /// Draw the board turned 180 degrees, as Black sees it.
    #[arg(long)]
    flip: bool,
}

/// `damas perft`.
pub fn perft(args: &PerftArgs) -> Result<(), UserError> {
    let variant: Variant = args.position.variant()?;
    let convention = match (args.paths, args.every_stop) {
        (_, true) => Convention::EveryStop,
        (true, false) => Convention::Paths,
        (false, false) => Convention::Unique,
    };
    if args.threads == 0 {
        return Err(UserError("--threads must be at least 1".into()));
    }
    with_variant!(variant, R => run_perft::<R>(args, convention))
}

fn run_perft<R: Rules>(args: &PerftArgs, convention: Convention) -> Result<(), UserError> {
    let position = args.position.position::<R>()?;
    let (depth, threads) = (args.depth, args.threads);
    let started = Instant::now();
    let total = if args.divide {
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

/// `damas moves`.
pub fn moves(args: &MovesArgs) -> Result<(), UserError> {
    let style = match args.squares.as_str() {
        "numeric" => SquareStyle::Numeric,
        "algebraic" => SquareStyle::Algebraic,
        _ => SquareStyle::Standard,
    };
    let variant: Variant = args.position.variant()?;
    if args.batch {
        let pdn = args.pdn.then_some(style);
        return with_variant!(variant, R => run_moves_batch::<R>(pdn));
    }
    with_variant!(variant, R => run_moves::<R>(&args.position, style))
}

fn run_moves<R: Rules>(args: &PositionArgs, style: SquareStyle) -> Result<(), UserError> {
    let game = args.game::<R>()?;
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

/// `damas variants`.
pub fn variants() -> Result<(), UserError> {
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

/// `damas show`.
pub fn show(args: &ShowArgs) -> Result<(), UserError> {
    let variant: Variant = args.position.variant()?;
    with_variant!(variant, R => {
        let position = args.position.position::<R>()?;
        print!("{}", diagram::draw_oriented(&position, args.flip));
        println!("FEN {}", fen::write(&position));
        Ok(())
    })
}
