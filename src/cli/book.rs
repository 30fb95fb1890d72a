//! `damas book`: growing an opening book by searching the positions of the opening, and asking a
//! book for a position's moves, with progress on stderr.
//!
//! The build walks the opening breadth-first from the start position: every position is
//! searched to a fixed depth with several lines (MultiPV), the moves within a margin of the
//! best one become its book moves, and the positions they lead to are searched in turn, up to
//! a number of plies. A position with a single legal move is passed through without an entry
//! (the engine plays a forced move at once anyway). The book is written every few positions
//! (under a temporary name, then renamed), and a build that stops goes on from the positions
//! already in the file when started again with the same arguments.

use crate::error::UserError;
use crate::progress::Progress;
use damas::book::{self, Book, BookMove};
use damas::game::Game;
use damas::notation::moves;
use damas::position::{MoveOf, Position};
use damas::rules::{Rules, Variant};
use damas::search::{Engine, EngineConfig, Info, InfoSink, Limits};
use damas::with_variant;
use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};

/// The `book` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum BookCommand {
    /// Grows a book from the start position: each position searched to --depth with --lines
    /// lines, the moves within --margin of the best kept, their positions searched in turn up
    /// to --plies plies. Resumes from the positions already in --out.
    Build {
        /// Rule set.
        #[arg(long, short = 'v', default_value = "english")]
        variant: String,
        /// The book file to write (and resume from).
        #[arg(long)]
        out: PathBuf,
        /// Plies of the opening the book covers.
        #[arg(long, default_value_t = 8)]
        plies: u32,
        /// Search depth per position.
        #[arg(long, default_value_t = 16)]
        depth: u32,
        /// Lines searched per position (the most book moves a position gets).
        #[arg(long, default_value_t = 3)]
        lines: usize,
        /// Moves scored within this many hundredths of a man of the best one are kept.
        #[arg(long, default_value_t = 6)]
        margin: i32,
        /// Search threads.
        #[arg(long, short = 't', default_value_t = 1)]
        threads: usize,
        /// Transposition table in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// The book moves of a position with their scores (the built-in book, or --book).
    Probe {
        /// Rule set (default: the one the position is written for; English).
        #[arg(long, short = 'v')]
        variant: Option<String>,
        /// The position (PDN FEN or Hub position string; default: the start).
        #[arg(long)]
        fen: Option<String>,
        /// A book file (default: the one built in).
        #[arg(long)]
        book: Option<PathBuf>,
    },
}

/// Runs a `book` subcommand.
pub fn run(command: &BookCommand) -> Result<(), UserError> {
    match command {
        BookCommand::Build { variant, out, plies, depth, lines, margin, threads, hash } => {
            let settings = BuildSettings {
                plies: *plies,
                depth: (*depth).max(1),
                lines: (*lines).max(1),
                margin: (*margin).max(0),
                threads: (*threads).max(1),
                hash: (*hash).max(1),
            };
            with_variant!(parse_variant(variant)?, R => build::<R>(out, &settings))
        }
        BookCommand::Probe { variant, fen, book } => {
            let variant = crate::args::choose_variant(variant.as_deref(), fen.as_deref())?;
            with_variant!(variant, R => probe::<R>(fen.as_deref(), book.as_deref()))
        }
    }
}

fn parse_variant(name: &str) -> Result<Variant, UserError> {
    name.parse().map_err(|e| UserError(format!("{e}")))
}

struct BuildSettings {
    plies: u32,
    depth: u32,
    lines: usize,
    margin: i32,
    threads: usize,
    hash: usize,
}

/// Keeps the last reported line of each MultiPV slot.
struct Lines<R: Rules>(Vec<Option<(u32, i32, MoveOf<R>)>>);

impl<R: Rules> InfoSink<R> for Lines<R> {
    fn info(&mut self, info: &Info<R>) {
        if let (Some(slot), Some(first)) = (self.0.get_mut(info.multipv - 1), info.pv.first()) {
            *slot = Some((info.depth, info.score.value(), *first));
        }
    }
}

fn build<R: Rules>(out: &Path, settings: &BuildSettings) -> Result<(), UserError> {
    let mut book = if out.exists() {
        let book = Book::<R>::load(out).map_err(UserError)?;
        eprintln!("book: resuming {}: {} positions already there", out.display(), book.len());
        book
    } else {
        Book::new()
    };
    let config = EngineConfig::<R>::new(settings.threads, settings.hash);
    let mut engine = Engine::try_with_config(config).map_err(UserError)?;
    let mut progress = Progress::new(1, "positions")?;
    let mut queue = VecDeque::from([(Position::<R>::start(), 0u32)]);
    let mut seen = HashSet::new();
    let (mut done, mut searched) = (0u64, 0u64);
    while let Some((position, ply)) = queue.pop_front() {
        if ply >= settings.plies || !seen.insert(position.hash()) {
            continue;
        }
        let game = Game::new(position);
        let legal = game.legal_moves();
        if game.verdict().is_some() {
            continue;
        }
        let book_moves: Vec<BookMove<R>> = if legal.len() == 1 {
            // Forced: no entry, but the line goes on through it.
            let mut next = position;
            next.play(&legal.as_slice()[0]);
            queue.push_back((next, ply + 1));
            continue;
        } else if let Some(known) = book.moves(&position) {
            known.to_vec()
        } else {
            searched += 1;
            let found = search_lines(&mut engine, &game, legal.len(), settings);
            book.insert(position, found.clone());
            if searched % 8 == 0 {
                save(&book, out, settings)?;
            }
            found
        };
        for m in &book_moves {
            let mut next = position;
            next.play(&m.mv);
            queue.push_back((next, ply + 1));
        }
        done += 1;
        progress.set_total(done + queue.len() as u64);
        progress.update(done, &format!("{searched} searched, ply {ply}"), false);
    }
    save(&book, out, settings)?;
    progress.finish();
    eprintln!("book: {} positions in {} ({searched} searched now)", book.len(), out.display());
    Ok(())
}

/// The book moves of `game`'s position: its best lines at the build's depth, those within the
/// margin of the best.
fn search_lines<R: Rules>(
    engine: &mut Engine<R>,
    game: &Game<R>,
    legal_moves: usize,
    settings: &BuildSettings,
) -> Vec<BookMove<R>> {
    let lines = settings.lines.min(legal_moves);
    engine.new_game();
    engine.set_multipv(lines);
    let mut sink = Lines::<R>(vec![None; lines]);
    let limits = Limits { depth: Some(settings.depth), analysis: true, ..Limits::default() };
    let result = engine.go(game, limits, false, &mut sink);
    let mut found: Vec<BookMove<R>> = sink
        .0
        .iter()
        .flatten()
        .filter(|(depth, _, _)| *depth == result.depth)
        .map(|&(_, score, mv)| BookMove { mv, score: score.clamp(-100_000, 100_000) })
        .collect();
    found.sort_by_key(|m| std::cmp::Reverse(m.score));
    found.dedup_by_key(|m| m.mv);
    let best = found.first().map_or(0, |m| m.score);
    found.retain(|m| m.score >= best - settings.margin);
    if found.is_empty() {
        // Never without a move: the search's own choice.
        found.extend(result.best.map(|mv| BookMove { mv, score: result.score.value() }));
    }
    found
}

fn save<R: Rules>(book: &Book<R>, out: &Path, settings: &BuildSettings) -> Result<(), UserError> {
    let comment = vec![
        format!("damas opening book for {}: {} positions.", R::VARIANT.name(), book.len()),
        format!(
            "Made with: damas book build --variant {} --plies {} --depth {} --lines {} --margin {}",
            R::VARIANT.name(),
            settings.plies,
            settings.depth,
            settings.lines,
            settings.margin
        ),
        "Each line: a position (PDN FEN), then its book moves with their scores (hundredths \
         of a man, side to move)."
            .to_string(),
    ];
    let temporary = out.with_extension("book.part");
    std::fs::write(&temporary, book.write(&comment))
        .and_then(|()| std::fs::rename(&temporary, out))
        .map_err(|e| UserError(format!("{}: {e}", out.display())))
}

fn probe<R: Rules>(fen_text: Option<&str>, path: Option<&Path>) -> Result<(), UserError> {
    let book = match path {
        Some(path) => Book::<R>::load(path).map_err(UserError)?,
        None => book::builtin::<R>().ok_or_else(|| {
            UserError(format!("damas has no built-in book for {}", R::VARIANT.name()))
        })?,
    };
    let position = match fen_text {
        Some(text) => damas::notation::position::<R>(text).map_err(|e| UserError(e.to_string()))?,
        None => Position::start(),
    };
    match book.moves(&position) {
        Some(book_moves) => {
            for m in book_moves {
                println!("{} {:+.2}", moves::to_pdn(&position, &m.mv), f64::from(m.score) / 100.0);
            }
        }
        None => println!("not in the book ({} positions)", book.len()),
    }
    Ok(())
}
