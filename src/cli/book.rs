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
        /// One unit of the build: search only the positions first met at this ply (from the
        /// book of the plies before it, --book), and write only their entries to --out; the
        /// units of a ply merge with `damas book merge`.
        #[arg(long, requires = "book")]
        ply: Option<u32>,
        /// With --ply: only shard K of N of the ply's positions (the i-th met when i mod N =
        /// K - 1).
        #[arg(long, value_name = "K/N", requires = "ply")]
        shard: Option<damas::shard::Shard>,
        /// With --ply: the book of the plies before it (the previous merge; none for ply 0).
        #[arg(long)]
        book: Option<PathBuf>,
    },
    /// Merges books (the units of a build, `book build --ply`, with the book before them) into
    /// one, each position in the order a whole build adds it: the book one `book build`
    /// writes, byte for byte. A position given different moves in two files is refused.
    Merge {
        /// Rule set.
        #[arg(long, short = 'v', default_value = "english")]
        variant: String,
        /// The merged book (written beside, then renamed into place).
        #[arg(long)]
        out: PathBuf,
        /// The books.
        #[arg(required = true)]
        files: Vec<PathBuf>,
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
        BookCommand::Build {
            variant,
            out,
            plies,
            depth,
            lines,
            margin,
            threads,
            hash,
            ply,
            shard,
            book,
        } => {
            let settings = BuildSettings {
                plies: *plies,
                depth: (*depth).max(1),
                lines: (*lines).max(1),
                margin: (*margin).max(0),
                threads: (*threads).max(1),
                hash: (*hash).max(1),
            };
            let unit = match (ply, book) {
                (Some(ply), Some(before)) => Some(Unit {
                    ply: *ply,
                    shard: shard.unwrap_or(damas::shard::Shard::ALL),
                    before: before.clone(),
                }),
                _ => None,
            };
            with_variant!(parse_variant(variant)?, R => build::<R>(out, &settings, unit.as_ref()))
        }
        BookCommand::Merge { variant, out, files } => {
            with_variant!(parse_variant(variant)?, R => merge::<R>(out, files))
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

/// One unit of a build (`book build --ply P [--shard K/N] --book BEFORE`).
struct Unit {
    ply: u32,
    shard: damas::shard::Shard,
    before: PathBuf,
}

/// The opening as a build walks it: breadth-first from the start position through the book's
/// moves (a forced move followed without an entry), each position once, up to ply `last`.
/// `meet` gets each position that is neither forced nor decided, with its ply and whether the
/// book has it; the walk goes on only through those it has.
fn walk<R: Rules>(book: &Book<R>, last: u32, mut meet: impl FnMut(&Position<R>, u32, bool)) {
    let mut queue = VecDeque::from([(Position::<R>::start(), 0u32)]);
    let mut seen = HashSet::new();
    while let Some((position, ply)) = queue.pop_front() {
        if ply > last || !seen.insert(position.hash()) {
            continue;
        }
        let game = Game::new(position);
        if game.verdict().is_some() {
            continue;
        }
        let legal = game.legal_moves();
        let next: Vec<MoveOf<R>> = if legal.len() == 1 {
            legal.as_slice().to_vec()
        } else if let Some(known) = book.moves(&position) {
            meet(&position, ply, true);
            known.iter().map(|m| m.mv).collect()
        } else {
            meet(&position, ply, false);
            Vec::new()
        };
        for mv in &next {
            let mut after = position;
            after.play(mv);
            queue.push_back((after, ply + 1));
        }
    }
}

/// The positions a build searches at `ply`, in the order it meets them: those first met at
/// that ply that `book` lacks. Refused when the book lacks a position of an earlier ply (that
/// ply is not built yet).
fn frontier<R: Rules>(book: &Book<R>, ply: u32) -> Result<Vec<Position<R>>, UserError> {
    let (mut found, mut missing) = (Vec::new(), None);
    walk(book, ply, |position, at, known| {
        if !known && at == ply {
            found.push(*position);
        } else if !known {
            missing = missing.or(Some(at));
        }
    });
    match missing {
        Some(at) => Err(UserError(format!(
            "the book lacks positions of ply {at}: build ply {at} (and merge it) before ply {ply}"
        ))),
        None => Ok(found),
    }
}

/// `book` in the order a whole build adds its positions (the order of [`walk`]), then any
/// position the walk does not reach, as they were.
fn in_build_order<R: Rules>(book: &Book<R>) -> Book<R> {
    let mut ordered = Book::new();
    walk(book, u32::MAX, |position, _, known| {
        if let (true, Some(moves)) = (known, book.moves(position)) {
            ordered.insert(*position, moves.to_vec());
        }
    });
    for (position, moves) in book.entries() {
        if ordered.moves(position).is_none() {
            ordered.insert(*position, moves.to_vec());
        }
    }
    ordered
}

fn load_or_new<R: Rules>(path: &Path) -> Result<Book<R>, UserError> {
    if path.exists() { Book::<R>::load(path).map_err(UserError) } else { Ok(Book::new()) }
}

fn build<R: Rules>(
    out: &Path,
    settings: &BuildSettings,
    unit: Option<&Unit>,
) -> Result<(), UserError> {
    // The book the positions to search come from, and the one the entries go to: the same
    // file for a whole build; the plies before and this unit's part for a unit.
    let mut book = load_or_new::<R>(out)?;
    if !book.is_empty() {
        eprintln!("book: resuming {}: {} positions already there", out.display(), book.len());
    }
    let before = match unit {
        Some(unit) => Some(load_or_new::<R>(&unit.before)?),
        None => None,
    };
    let config = EngineConfig::<R>::new(settings.threads, settings.hash);
    let mut engine = Engine::try_with_config(config).map_err(UserError)?;
    let mut progress = Progress::new(1, "positions")?;
    let plies = match unit {
        Some(unit) => unit.ply..unit.ply + 1,
        None => 0..settings.plies,
    };
    let (mut done, mut searched) = (0u64, 0u64);
    for ply in plies {
        let positions = frontier(before.as_ref().unwrap_or(&book), ply)?;
        let shard = unit.map_or(damas::shard::Shard::ALL, |unit| unit.shard);
        let mine: Vec<&Position<R>> = positions
            .iter()
            .enumerate()
            .filter(|&(i, _)| shard.has(u32::try_from(i).unwrap_or(u32::MAX)))
            .map(|(_, position)| position)
            .collect();
        progress.set_total(done + mine.len() as u64);
        for position in mine {
            if book.moves(position).is_none() {
                let game = Game::new(*position);
                let found = search_lines(&mut engine, &game, game.legal_moves().len(), settings);
                book.insert(*position, found);
                searched += 1;
                if searched % 8 == 0 {
                    save(&book, out, settings)?;
                }
            }
            done += 1;
            progress.update(done, &format!("{searched} searched, ply {ply}"), false);
        }
    }
    save(&book, out, settings)?;
    progress.finish();
    eprintln!("book: {} positions in {} ({searched} searched now)", book.len(), out.display());
    Ok(())
}

fn same_moves<R: Rules>(a: &[BookMove<R>], b: &[BookMove<R>]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.mv == y.mv && x.score == y.score)
}

/// `damas book merge`.
fn merge<R: Rules>(out: &Path, files: &[PathBuf]) -> Result<(), UserError> {
    let mut merged = Book::<R>::new();
    let mut made_with = None;
    for path in files {
        let text = damas::bounded::read_text(path, damas::bounded::BOOK)
            .map_err(|e| UserError(e.to_string()))?;
        let book =
            Book::<R>::parse(&text).map_err(|e| UserError(format!("{}: {e}", path.display())))?;
        made_with = made_with.or_else(|| {
            text.lines().find_map(|line| line.strip_prefix("# Made with: ").map(str::to_string))
        });
        for (position, moves) in book.entries() {
            match merged.moves(position) {
                Some(known) if !same_moves(known, moves) => {
                    return Err(UserError(format!(
                        "{}: {} has other moves than in the files before it",
                        path.display(),
                        damas::notation::fen::write(position)
                    )));
                }
                Some(_) => {}
                None => merged.insert(*position, moves.to_vec()),
            }
        }
    }
    write_book(&merged, out, made_with.as_deref())?;
    eprintln!(
        "book merge: {} positions from {} files into {}",
        merged.len(),
        files.len(),
        out.display()
    );
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
    let made_with = format!(
        "damas book build --variant {} --plies {} --depth {} --lines {} --margin {}",
        R::VARIANT.name(),
        settings.plies,
        settings.depth,
        settings.lines,
        settings.margin
    );
    write_book(book, out, Some(&made_with))
}

/// Writes `book` in build order (see [`in_build_order`]) with its comment, under a temporary
/// name renamed into place.
fn write_book<R: Rules>(
    book: &Book<R>,
    out: &Path,
    made_with: Option<&str>,
) -> Result<(), UserError> {
    let ordered = in_build_order(book);
    let mut comment =
        vec![format!("damas opening book for {}: {} positions.", R::VARIANT.name(), book.len())];
    comment.extend(made_with.map(|command| format!("Made with: {command}")));
    comment.push(
        "Each line: a position (PDN FEN), then its book moves with their scores (hundredths \
         of a man, side to move)."
            .to_string(),
    );
    let temporary = out.with_extension("book.part");
    std::fs::write(&temporary, ordered.write(&comment))
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
