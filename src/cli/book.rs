//! `damas book`: growing an opening book by drop-out expansion, merging the parts of a build,
//! and reading a book (its size and shape, a position's moves), with progress on stderr.
//!
//! A build goes in rounds. Each round takes the next `--batch` positions to expand: first the
//! positions of the games of `--pdn` (their first `--pdn-plies` plies) that the book lacks,
//! then the leaves of least drop-out priority (`damas::book::tree`); every move of each is
//! scored by a search of the position it leads to, to `--depth`, from a cleared table (so a
//! score does not depend on what was searched before it, nor on which worker or machine
//! searched it); then the book is minimaxed and written (under a temporary name, then
//! renamed). A build that stops goes on from its file. One round splits into units:
//! `--book CURRENT --shard K/N --out PART` expands the K-th of N shares of the round that
//! starts from CURRENT, and `damas book merge --out NEXT CURRENT PART...` gives the book the
//! whole build writes after that round, byte for byte.

use crate::error::UserError;
use crate::progress::Progress;
use damas::book::{self, Book, BookMove};
use damas::game::Game;
use damas::game::replay::{Notation, play_moves, rule_set_of, start_of};
use damas::notation::{fen, moves};
use damas::position::Position;
use damas::rules::{Rules, Variant};
use damas::search::{Engine, EngineConfig, Limits, Silent};
use damas::shard::Shard;
use damas::with_variant;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The `book` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum BookCommand {
    /// Grows a book by drop-out expansion (seeded from --pdn games, if given) until it has
    /// --positions positions; resumes from --out. With --shard: one unit of one round.
    Build {
        /// Rule set.
        #[arg(long, short = 'v', default_value = "english")]
        variant: String,
        /// The book file to write (and resume from); with --shard, this unit's part.
        #[arg(long)]
        out: PathBuf,
        /// Positions the book grows to.
        #[arg(long, default_value_t = 1000)]
        positions: usize,
        /// Search depth of each move's score.
        #[arg(long, default_value_t = 12)]
        depth: u32,
        /// Positions expanded a round (the searches of a round can run at once).
        #[arg(long, default_value_t = 16)]
        batch: usize,
        /// The cost of a ply in drop-out priority, in hundredths of a man: higher grows the
        /// book wider and shallower.
        #[arg(long, default_value_t = 5)]
        ply_cost: i32,
        /// Games whose first --pdn-plies plies are expanded before any other position.
        #[arg(long)]
        pdn: Option<PathBuf>,
        /// See --pdn.
        #[arg(long, default_value_t = 10)]
        pdn_plies: usize,
        /// Searches at once (each one thread with its own table).
        #[arg(long, short = 't', default_value_t = 1)]
        threads: usize,
        /// Each search's transposition table in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// One unit of a round: expand only shard K of N of the round's positions, and write
        /// only their entries to --out (merge with `damas book merge`).
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
        /// With --shard: the book the round starts from (none for the first round).
        #[arg(long, requires = "shard")]
        book: Option<PathBuf>,
    },
    /// Merges books (a round's start and its units' parts) into one, minimaxed: the book the
    /// whole build writes after that round, byte for byte. A position given other moves in
    /// two files is refused.
    Merge {
        /// The merged book (written beside, then renamed into place).
        #[arg(long)]
        out: PathBuf,
        /// The books.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// A book's size and shape: positions, moves, positions per ply, the main line. Exits
    /// with status 2 on a damaged or foreign file.
    Stats {
        /// The book file (default: the built-in book of --variant).
        file: Option<PathBuf>,
        /// Rule set (default: the file's; English).
        #[arg(long, short = 'v')]
        variant: Option<String>,
    },
    /// Balanced openings for `damas match --openings`: the positions --plies plies deep in the
    /// book, reached by moves within --playable of the best, scored within --balanced of a draw;
    /// one a line (the moves, the score, the FEN last, tab-separated), most balanced first.
    Openings {
        /// The book file.
        file: PathBuf,
        /// Plies from the start.
        #[arg(long, default_value_t = 6)]
        plies: usize,
        /// Moves scored within this many hundredths of a man of the best are followed.
        #[arg(long, default_value_t = 20)]
        playable: i32,
        /// Openings scored within this many hundredths of a man of a draw are kept.
        #[arg(long, default_value_t = 15)]
        balanced: i32,
        /// The most openings written.
        #[arg(long, default_value_t = 200)]
        count: usize,
        /// The file written (default: stdout).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// A position's book moves with their scores (the built-in book, or FILE).
    #[command(alias = "probe")]
    Show {
        /// The book file (default: the built-in book).
        file: Option<PathBuf>,
        /// The book file, as an option.
        #[arg(long = "book", hide = true, conflicts_with = "file")]
        book: Option<PathBuf>,
        /// Rule set (default: the file's, or the one the position is written for; English).
        #[arg(long, short = 'v')]
        variant: Option<String>,
        /// The position (PDN FEN or Hub position string; default: the start).
        #[arg(long)]
        fen: Option<String>,
    },
}

/// Runs a `book` subcommand.
pub fn run(command: &BookCommand) -> Result<(), UserError> {
    match command {
        BookCommand::Build {
            variant,
            out,
            positions,
            depth,
            batch,
            ply_cost,
            pdn,
            pdn_plies,
            threads,
            hash,
            shard,
            book,
        } => {
            let settings = BuildSettings {
                positions: *positions,
                depth: (*depth).max(1),
                batch: (*batch).max(1),
                ply_cost: (*ply_cost).max(0),
                pdn: pdn.clone(),
                pdn_plies: *pdn_plies,
                threads: (*threads).max(1),
                hash: (*hash).max(1),
            };
            let unit = shard.map(|shard| (shard, book.clone()));
            with_variant!(parse_variant(variant)?, R => build::<R>(out, &settings, unit))
        }
        BookCommand::Merge { out, files } => {
            let variant = variant_of_file(&files[0])?;
            with_variant!(variant, R => merge::<R>(out, files))
        }
        BookCommand::Stats { file, variant } => {
            let variant = match (file, variant) {
                (Some(path), _) => variant_of_file(path)?,
                (None, given) => crate::args::choose_variant(given.as_deref(), None)?,
            };
            with_variant!(variant, R => stats::<R>(file.as_deref()))
        }
        BookCommand::Openings { file, plies, playable, balanced, count, out } => {
            let settings = OpeningSettings {
                plies: *plies,
                playable: *playable,
                balanced: *balanced,
                count: *count,
            };
            let variant = variant_of_file(file)?;
            with_variant!(variant, R => openings::<R>(file, &settings, out.as_deref()))
        }
        BookCommand::Show { file, book, variant, fen } => {
            let file = file.as_ref().or(book.as_ref());
            let variant = match (file, variant) {
                (Some(path), None) => variant_of_file(path)?,
                (_, given) => crate::args::choose_variant(given.as_deref(), fen.as_deref())?,
            };
            with_variant!(variant, R => show::<R>(file.map(PathBuf::as_path), fen.as_deref()))
        }
    }
}

fn parse_variant(name: &str) -> Result<Variant, UserError> {
    name.parse().map_err(|e| UserError(format!("{e}")))
}

/// The text of the book file at `path`.
fn read_book_text(path: &Path) -> Result<String, UserError> {
    damas::bounded::read_text(path, damas::bounded::BOOK).map_err(|e| UserError(e.to_string()))
}

/// The rule set of the book file at `path` (its header's).
fn variant_of_file(path: &Path) -> Result<Variant, UserError> {
    book::variant_of(&read_book_text(path)?)
        .map_err(|e| UserError(format!("{}: {e}", path.display())))
}

/// The book file at `path`, or the built-in book.
fn load_book<R: Rules>(path: Option<&Path>) -> Result<Book<R>, UserError> {
    match path {
        Some(path) => Book::<R>::load(path).map_err(UserError),
        None => book::builtin::<R>().ok_or_else(|| {
            UserError(format!("damas has no built-in book for {}", R::VARIANT.name()))
        }),
    }
}

struct BuildSettings {
    positions: usize,
    depth: u32,
    batch: usize,
    ply_cost: i32,
    pdn: Option<PathBuf>,
    pdn_plies: usize,
    threads: usize,
    hash: usize,
}

impl BuildSettings {
    /// The command that builds the book with these settings (what decides its content; not
    /// the number of threads), written in its first lines.
    fn made_with(&self, variant: Variant) -> String {
        let mut command = format!(
            "damas book build --variant {} --positions {} --depth {} --batch {} --ply-cost {} \
             --hash {}",
            variant.name(),
            self.positions,
            self.depth,
            self.batch,
            self.ply_cost,
            self.hash
        );
        if let Some(pdn) = &self.pdn {
            command.push_str(&format!(" --pdn {} --pdn-plies {}", pdn.display(), self.pdn_plies));
        }
        command
    }
}

/// The positions of the first `plies` plies of the games of `path` that replay in `R` (where
/// a move is to be chosen), each once, in the order met; and how many games were left out.
fn seeds<R: Rules>(path: &Path, plies: usize) -> Result<(Vec<Position<R>>, usize), UserError> {
    let bytes = damas::bounded::read(path, damas::bounded::PDN)?;
    let games = damas::notation::pdn::parse_each(&damas::notation::pdn::decode(&bytes));
    let (mut found, mut seen, mut skipped) = (Vec::new(), HashSet::new(), 0);
    for parsed in games {
        let Ok(pdn) = parsed else {
            skipped += 1;
            continue;
        };
        let other_rules = pdn.tag("GameType").is_some()
            && rule_set_of(&pdn).map_or(true, |(variant, _)| variant != R::VARIANT);
        let Some(start) = start_of::<R>(&pdn).ok().filter(|_| !other_rules) else {
            skipped += 1;
            continue;
        };
        let mut game = Game::new(start);
        let texts = pdn.moves.iter().take(plies).map(String::as_str);
        if play_moves(&mut game, texts, Notation::PdnFirst).is_err() {
            skipped += 1;
            continue;
        }
        let mut position = start;
        for mv in game.moves() {
            if Game::new(position).verdict().is_none() && seen.insert(position.hash()) {
                found.push(position);
            }
            position.play(mv);
        }
    }
    Ok((found, skipped))
}

/// The positions the next round of a build expands, most wanted first (empty: the book is
/// grown): the seeds the book lacks, then the leaves of least drop-out priority.
fn next_round<R: Rules>(
    book: &Book<R>,
    settings: &BuildSettings,
    seeds: &[Position<R>],
) -> Vec<Position<R>> {
    let room = settings.batch.min(settings.positions.saturating_sub(book.len()));
    let mut chosen: Vec<Position<R>> = Vec::new();
    let mut taken = HashSet::new();
    for seed in seeds {
        if chosen.len() < room && !book.contains(seed) && taken.insert(seed.hash()) {
            chosen.push(*seed);
        }
    }
    if chosen.len() < room {
        let more = book.frontier(&Position::start(), settings.ply_cost, room);
        for position in more {
            if chosen.len() < room && taken.insert(position.hash()) {
                chosen.push(position);
            }
        }
    }
    chosen
}

/// The moves of each of `positions`, each scored by a search of the position it leads to,
/// with `settings.threads` searches at once.
fn expand<R: Rules>(
    positions: &[Position<R>],
    settings: &BuildSettings,
) -> Result<Vec<Vec<BookMove<R>>>, UserError> {
    // One job a move: (position's index, the move).
    let jobs: Vec<(usize, damas::position::MoveOf<R>)> = positions
        .iter()
        .enumerate()
        .flat_map(|(index, position)| {
            let legal = Game::new(*position).legal_moves();
            legal.as_slice().iter().map(move |mv| (index, *mv)).collect::<Vec<_>>()
        })
        .collect();
    let next = AtomicUsize::new(0);
    let scores = Mutex::new(vec![0i32; jobs.len()]);
    let limits = Limits { depth: Some(settings.depth), analysis: true, ..Limits::default() };
    let workers = settings.threads.min(jobs.len()).max(1);
    std::thread::scope(|scope| -> Result<(), UserError> {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| -> Result<(), UserError> {
                    let config = EngineConfig::<R>::new(1, settings.hash);
                    let mut engine = Engine::try_with_config(config).map_err(UserError)?;
                    loop {
                        let at = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(index, mv)) = jobs.get(at) else { return Ok(()) };
                        let mut game = Game::new(positions[index]);
                        game.play_unchecked(&mv);
                        engine.new_game();
                        let result = engine.go(&game, limits, false, &mut Silent);
                        let score = -result.score.value();
                        if let Ok(mut scores) = scores.lock() {
                            scores[at] = score;
                        }
                    }
                })
            })
            .collect();
        for handle in handles {
            handle.join().map_err(|_| UserError("a book search failed".into()))??;
        }
        Ok(())
    })?;
    let scores = scores.into_inner().map_err(|_| UserError("a book search failed".into()))?;
    let mut found = vec![Vec::new(); positions.len()];
    for (&(index, mv), &score) in jobs.iter().zip(&scores) {
        found[index].push(BookMove { mv, score });
    }
    Ok(found)
}

fn build<R: Rules>(
    out: &Path,
    settings: &BuildSettings,
    unit: Option<(Shard, Option<PathBuf>)>,
) -> Result<(), UserError> {
    let seeds = match &settings.pdn {
        Some(path) => {
            let (found, skipped) = seeds::<R>(path, settings.pdn_plies)?;
            if skipped > 0 {
                eprintln!(
                    "book: {skipped} games of {} left out (not {})",
                    path.display(),
                    R::VARIANT.name()
                );
            }
            found
        }
        None => Vec::new(),
    };
    let made_with = settings.made_with(R::VARIANT);
    if let Some((shard, before)) = unit {
        // One unit: the round that starts from `before`, this shard's share of it.
        let book = match &before {
            Some(path) => Book::<R>::load(path).map_err(UserError)?,
            None => Book::new(),
        };
        let round = next_round(&book, settings, &seeds);
        let mine: Vec<Position<R>> = round
            .iter()
            .enumerate()
            .filter(|&(i, _)| shard.has(u32::try_from(i).unwrap_or(u32::MAX)))
            .map(|(_, position)| *position)
            .collect();
        let mut part = Book::<R>::new();
        for (position, moves) in mine.iter().zip(expand(&mine, settings)?) {
            part.insert(*position, moves);
        }
        write_book(&part, out, &made_with)?;
        eprintln!(
            "book: {} of the round's {} positions expanded into {}",
            part.len(),
            round.len(),
            out.display()
        );
        return Ok(());
    }
    let mut book =
        if out.exists() { Book::<R>::load(out).map_err(UserError)? } else { Book::new() };
    if !book.is_empty() {
        eprintln!("book: resuming {}: {} positions already there", out.display(), book.len());
    }
    let start = book.len() as u64;
    let mut progress =
        Progress::new(settings.positions.saturating_sub(book.len()) as u64, "positions")?;
    loop {
        let round = next_round(&book, settings, &seeds);
        if round.is_empty() {
            break;
        }
        for (position, moves) in round.iter().zip(expand(&round, settings)?) {
            book.insert(*position, moves);
        }
        book.minimax();
        write_book(&book, out, &made_with)?;
        let score = book.moves(&Position::start()).and_then(|m| m.first()).map_or(0, |m| m.score);
        progress.update(
            book.len() as u64 - start,
            &format!("{} in the book, start {:+.2}", book.len(), f64::from(score) / 100.0),
            false,
        );
    }
    write_book(&book, out, &made_with)?;
    progress.finish();
    eprintln!("book: {} positions in {}", book.len(), out.display());
    Ok(())
}

/// `damas book merge`.
fn merge<R: Rules>(out: &Path, files: &[PathBuf]) -> Result<(), UserError> {
    let mut merged = Book::<R>::new();
    let mut made_with = None;
    for path in files {
        let text = read_book_text(path)?;
        let book =
            Book::<R>::parse(&text).map_err(|e| UserError(format!("{}: {e}", path.display())))?;
        made_with = made_with.or_else(|| {
            text.lines().find_map(|line| line.strip_prefix("# Made with: ").map(str::to_string))
        });
        merged.merge(&book).map_err(|e| UserError(format!("{}: {e}", path.display())))?;
    }
    merged.minimax();
    write_book(&merged, out, made_with.as_deref().unwrap_or("damas book merge"))?;
    eprintln!(
        "book merge: {} positions from {} files into {}",
        merged.len(),
        files.len(),
        out.display()
    );
    Ok(())
}

/// Writes `book` with its comment, under a temporary name renamed into place.
fn write_book<R: Rules>(book: &Book<R>, out: &Path, made_with: &str) -> Result<(), UserError> {
    let comment = vec![
        format!("damas opening book for {}: {} positions.", R::VARIANT.name(), book.len()),
        format!("Made with: {made_with}"),
        "Each line: a position (PDN FEN), then its moves with their scores (hundredths of a \
         man, side to move), best first; the last line is the checksum of the lines before it."
            .to_string(),
    ];
    let temporary = out.with_extension("book.part");
    std::fs::write(&temporary, book.write(&comment))
        .and_then(|()| std::fs::rename(&temporary, out))
        .map_err(|e| UserError(format!("{}: {e}", out.display())))
}

/// A line of moves in PDN from `position`.
fn line_text<R: Rules>(position: &Position<R>, line: &[BookMove<R>]) -> String {
    let mut at = *position;
    let mut words = Vec::new();
    for m in line {
        words.push(moves::to_pdn(&at, &m.mv));
        at.play(&m.mv);
    }
    words.join(" ")
}

/// `damas book stats`.
fn stats<R: Rules>(path: Option<&Path>) -> Result<(), UserError> {
    let book = load_book::<R>(path)?;
    let stats = book.stats();
    match path {
        Some(path) => println!("book: {}", path.display()),
        None => println!("book: built in"),
    }
    println!("rule set: {}", R::VARIANT.name());
    println!("positions: {}", stats.positions);
    println!("moves: {} ({} leave the book)", stats.moves, stats.leaves);
    let per_ply: Vec<String> = stats.per_ply.iter().map(usize::to_string).collect();
    println!(
        "plies: {} (positions a ply from the start: {})",
        stats.per_ply.len(),
        per_ply.join(" ")
    );
    if stats.unreached > 0 {
        println!("not reached from the start: {}", stats.unreached);
    }
    let start = Position::<R>::start();
    if let Some(best) = book.moves(&start).and_then(|m| m.first()) {
        println!("start: {:+.2}", f64::from(best.score) / 100.0);
        println!("main line: {}", line_text(&start, &book.main_line(&start, 40)));
    }
    Ok(())
}

struct OpeningSettings {
    plies: usize,
    playable: i32,
    balanced: i32,
    count: usize,
}

/// `damas book openings`.
fn openings<R: Rules>(
    path: &Path,
    settings: &OpeningSettings,
    out: Option<&Path>,
) -> Result<(), UserError> {
    let book = Book::<R>::load(path).map_err(UserError)?;
    let mut found = book.balanced_openings(settings.plies, settings.playable, settings.balanced);
    let all = found.len();
    found.truncate(settings.count);
    let mut text = format!(
        "# {} balanced openings of {} from {}: {} plies, moves within {} of the best, scored \
         within {} of a draw (damas book openings; hundredths of a man).\n\
         # Tab-separated: the moves, the score for the side to move, the FEN after them.\n",
        found.len(),
        R::VARIANT.name(),
        path.file_name().map_or(path.display().to_string(), |n| n.to_string_lossy().into_owned()),
        settings.plies,
        settings.playable,
        settings.balanced
    );
    for (line, position, score) in &found {
        let moves = line_text(&Position::<R>::start(), line);
        text.push_str(&format!("{moves}\t{score:+}\t{}\n", fen::write(position)));
    }
    match out {
        Some(out) => {
            std::fs::write(out, text).map_err(|e| UserError(format!("{}: {e}", out.display())))?;
            eprintln!("book openings: {} of {all} written to {}", found.len(), out.display());
        }
        None => print!("{text}"),
    }
    Ok(())
}

/// `damas book show`.
fn show<R: Rules>(path: Option<&Path>, fen_text: Option<&str>) -> Result<(), UserError> {
    let book = load_book::<R>(path)?;
    let position = match fen_text {
        Some(text) => damas::notation::position::<R>(text).map_err(|e| UserError(e.to_string()))?,
        None => Position::start(),
    };
    let Some(book_moves) = book.moves(&position) else {
        println!("not in the book ({} positions)", book.len());
        return Ok(());
    };
    let best = book_moves.first().map_or(0, |m| m.score);
    for m in book_moves {
        let mut child = position;
        child.play(&m.mv);
        let plays = if m.score >= best - book::DEFAULT_MARGIN { "  book move" } else { "" };
        let goes_on = if book.contains(&child) { "  (in the book)" } else { "" };
        println!(
            "{} {:+.2}{plays}{goes_on}",
            moves::to_pdn(&position, &m.mv),
            f64::from(m.score) / 100.0
        );
    }
    println!("main line: {}", line_text(&position, &book.main_line(&position, 40)));
    println!("position: {}", fen::write(&position));
    Ok(())
}
