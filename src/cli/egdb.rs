//! `damas egdb`: building, probing, counting and verifying endgame databases from the command
//! line, with progress on stderr.

use crate::error::UserError;
use crate::progress::Progress;
use damas::board::bitset::BitSet;
use damas::egdb::build::{self, Counts};
use damas::egdb::index::{NO_STREAKS, Slice, SliceIndex};
use damas::egdb::{Egdb, Encoding, Outcome, file, verify};
use damas::game::GameRules;
use damas::notation::{fen, moves, squares};
use damas::position::Position;
use damas::rules::{Rules, Variant};
use damas::with_variant;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The `egdb` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum EgdbCommand {
    /// Solves every position of up to --pieces pieces by retrograde analysis and writes one
    /// file per slice. Resumes: slices already on disk (and whole) are kept.
    Build {
        /// Rule set.
        #[arg(long, short = 'v', default_value = "english")]
        variant: String,
        /// Most pieces on the board.
        #[arg(long, default_value_t = 4)]
        pieces: u32,
        /// Directory of the files (default: the per-user data directory, see `egdb stats`).
        #[arg(long = "egdb-path", alias = "out")]
        egdb_path: Option<PathBuf>,
        /// Threads (default: all cores).
        #[arg(long, short = 't')]
        threads: Option<usize>,
        /// Slices of up to this many pieces keep the distance to conversion (the engine plays
        /// their wins from the files); larger ones store win, draw or loss only, a quarter of a
        /// byte a position, and the search converts their wins.
        #[arg(long, default_value_t = 5)]
        distance_pieces: u32,
        /// Build only this unit (a slice and its swap, named as `damas egdb units` lists
        /// them, e.g. 2-1-1-0; repeatable): one part of a build run apart from the others. The
        /// units it needs must be in the directory already.
        #[arg(long = "unit", value_name = "NAME")]
        units: Vec<String>,
    },
    /// Lists the units of a build (a slice and its swap each) in build order, one a line,
    /// tab-separated: name, slices, numbers, the memory its build takes in MiB (its two bytes
    /// a number and the smaller slices it reads), whether --egdb-path holds it (yes/no) and the
    /// units it needs first (comma-separated, `-` for none).
    Units {
        /// Rule set.
        #[arg(long, short = 'v', default_value = "english")]
        variant: String,
        /// Most pieces on the board.
        #[arg(long, default_value_t = 4)]
        pieces: u32,
        /// Directory of the files (default: the per-user data directory).
        #[arg(long = "egdb-path")]
        egdb_path: Option<PathBuf>,
        /// As `egdb build --distance-pieces` (the smaller slices are read with distances up to
        /// this many pieces: a byte a number instead of a quarter).
        #[arg(long, default_value_t = 5)]
        distance_pieces: u32,
    },
    /// Win, draw or loss for the side to move, and the moves that keep the value.
    Probe {
        /// Rule set (default: the one the position is written for; English).
        #[arg(long, short = 'v')]
        variant: Option<String>,
        /// The position (PDN FEN or Hub position string).
        #[arg(long)]
        fen: String,
        /// Directory of the files.
        #[arg(long = "egdb-path")]
        egdb_path: Option<PathBuf>,
    },
    /// Positions, wins, draws and losses per slice and per piece count.
    Stats {
        /// Rule set.
        #[arg(long, short = 'v', default_value = "english")]
        variant: String,
        /// Directory of the files.
        #[arg(long = "egdb-path")]
        egdb_path: Option<PathBuf>,
    },
    /// Probes per second: random positions of the held slices, probed once with the cache
    /// empty (every probe of a block not read yet reads and decompresses it) and once more
    /// (cached).
    Bench {
        /// Rule set.
        #[arg(long, short = 'v', default_value = "english")]
        variant: String,
        /// Directory of the files.
        #[arg(long = "egdb-path")]
        egdb_path: Option<PathBuf>,
        /// Memory for the values in MiB, as the egdb-cache option (beyond it, read from the
        /// files through a cache of this size).
        #[arg(long, default_value_t = damas::egdb::DEFAULT_MEMORY_MB)]
        egdb_cache: usize,
        /// Positions probed.
        #[arg(long, default_value_t = 1_000_000)]
        probes: usize,
    },
    /// Checks every file (checksums) and every position (its value follows from its
    /// successors'); exits with status 1 when anything is wrong.
    Verify {
        /// Rule set.
        #[arg(long, short = 'v', default_value = "english")]
        variant: String,
        /// Directory of the files.
        #[arg(long = "egdb-path")]
        egdb_path: Option<PathBuf>,
    },
}

/// The default directory of a variant's files ([`damas::egdb::default_dir`]).
pub fn default_dir(variant: Variant) -> Result<PathBuf, UserError> {
    damas::egdb::default_dir(variant).ok_or_else(|| {
        UserError("no home directory to keep the databases in: give --egdb-path".into())
    })
}

fn dir_of(variant: Variant, given: &Option<PathBuf>) -> Result<PathBuf, UserError> {
    match given {
        Some(dir) => Ok(dir.clone()),
        None => default_dir(variant),
    }
}

/// Runs an `egdb` subcommand.
pub fn run(command: &EgdbCommand) -> Result<(), UserError> {
    match command {
        EgdbCommand::Build { variant, pieces, egdb_path, threads, distance_pieces, units } => {
            let variant: Variant = variant.parse()?;
            if let Some(threads) = threads {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(*threads)
                    .build_global()
                    .map_err(|e| UserError(format!("threads: {e}")))?;
            }
            let dir = dir_of(variant, egdb_path)?;
            with_variant!(variant, R => run_build::<R>(&dir, *pieces, *distance_pieces, units))
        }
        EgdbCommand::Units { variant, pieces, egdb_path, distance_pieces } => {
            let variant: Variant = variant.parse()?;
            let dir = dir_of(variant, egdb_path)?;
            with_variant!(variant, R => run_units::<R>(&dir, *pieces, *distance_pieces))
        }
        EgdbCommand::Probe { variant, fen, egdb_path } => {
            let variant = crate::args::choose_variant(variant.as_deref(), Some(fen))?;
            let dir = dir_of(variant, egdb_path)?;
            with_variant!(variant, R => run_probe::<R>(&dir, fen))
        }
        EgdbCommand::Stats { variant, egdb_path } => {
            let variant: Variant = variant.parse()?;
            let dir = dir_of(variant, egdb_path)?;
            with_variant!(variant, R => run_stats::<R>(&dir))
        }
        EgdbCommand::Bench { variant, egdb_path, egdb_cache, probes } => {
            let variant: Variant = variant.parse()?;
            let dir = dir_of(variant, egdb_path)?;
            let memory = egdb_cache.saturating_mul(1 << 20);
            with_variant!(variant, R => run_bench::<R>(&dir, memory, *probes))
        }
        EgdbCommand::Verify { variant, egdb_path } => {
            let variant: Variant = variant.parse()?;
            let dir = dir_of(variant, egdb_path)?;
            with_variant!(variant, R => run_verify::<R>(&dir))
        }
    }
}

/// Loads `dir`, reporting refused files on stderr (and returning them); a missing directory is
/// an error unless `missing_ok`.
fn load<R: Rules>(
    dir: &Path,
    missing_ok: bool,
) -> Result<(Egdb<R>, Vec<file::FileError>), UserError> {
    if !dir.is_dir() {
        if missing_ok {
            return Ok((Egdb::new(), Vec::new()));
        }
        return Err(UserError(format!(
            "{}: no such directory (build one with `damas egdb build --variant {}`)",
            dir.display(),
            R::VARIANT.name()
        )));
    }
    let (egdb, refused) = Egdb::<R>::load(dir)?;
    for error in &refused {
        eprintln!("refused {error}");
    }
    Ok((egdb, refused))
}

/// The pairs of the units named (all of them when none is), in build order.
fn chosen_pairs(pieces: u32, names: &[String]) -> Result<Vec<Vec<Slice>>, UserError> {
    let units = build::units(pieces);
    if names.is_empty() {
        return Ok(units.into_iter().map(|unit| unit.pair).collect());
    }
    for name in names {
        if !units.iter().any(|unit| unit.name() == *name) {
            return Err(UserError(format!(
                "--unit {name}: no such unit of up to {pieces} pieces (`damas egdb units \
                 --pieces {pieces}` lists them)"
            )));
        }
    }
    Ok(units
        .into_iter()
        .filter(|unit| names.contains(&unit.name()))
        .map(|unit| unit.pair)
        .collect())
}

fn run_build<R: Rules>(
    dir: &Path,
    pieces: u32,
    distance_pieces: u32,
    units: &[String],
) -> Result<(), UserError> {
    let chosen = chosen_pairs(pieces, units)?;
    let (mut egdb, _) = load::<R>(dir, true)?;
    let kept = egdb.slices().count();
    let pairs = chosen.len() as u64;
    let bar = std::cell::RefCell::new(Progress::new(pairs, "slice pairs")?);
    if kept > 0 {
        bar.borrow().println(&format!("{}: {kept} slices already built, kept", dir.display()));
        // A resumed build: the pairs already on disk (the first ones: pairs go smallest first)
        // are passed over at once, so the time left is reckoned from the pairs solved from here.
        let held =
            chosen.iter().take_while(|pair| pair.iter().all(|&slice| egdb.has(slice))).count();
        bar.borrow_mut().start_at(held as u64);
    }
    let started = std::time::Instant::now();
    let mut total = Counts::default();
    let result = build::build_pairs(
        &mut egdb,
        &chosen,
        distance_pieces,
        |table, report| {
            let path = file::write::<R>(dir, table, report.encoding)
                .map_err(|e| format!("{}: {e}", dir.display()))?;
            let c = &report.counts;
            bar.borrow().println(&format!(
                "{:<14} {:>12} positions {:>12} wins {:>12} draws {:>12} losses, longest {:>3} plies, {} levels, {:.1} s  {}",
                report.slice.to_string(),
                c.positions,
                c.wins,
                c.draws,
                c.losses,
                c.longest,
                report.levels,
                report.seconds,
                path.display()
            ));
            total = total.plus(c);
            Ok(())
        },
        |done, _all, name| bar.borrow_mut().update(done as u64, name, true),
    );
    bar.borrow().finish();
    result.map_err(|e| match e {
        build::BuildError::Missing(_) if !units.is_empty() => {
            UserError(format!("{e}: build the units --unit needs first (`damas egdb units`)"))
        }
        e => UserError(e.to_string()),
    })?;
    eprintln!(
        "built {} positions in {:.1} s into {}",
        total.positions,
        started.elapsed().as_secs_f64(),
        dir.display()
    );
    Ok(())
}

/// Bytes a number of the pair being solved takes (its value and open count, and the bitmaps).
const SOLVING_BYTES: f64 = 2.25;

fn run_units<R: Rules>(dir: &Path, pieces: u32, distance_pieces: u32) -> Result<(), UserError> {
    let units = build::units(pieces);
    let built: Vec<Slice> = if dir.is_dir() {
        damas::egdb::files_in(dir)?.into_iter().map(|(slice, _)| slice).collect()
    } else {
        Vec::new()
    };
    let numbers = |slice: Slice| SliceIndex::new::<R>(slice).map_or(0, |index| index.size());
    let held_bytes = |slice: Slice| {
        let per_number = if slice.pieces() <= distance_pieces { 1.0 } else { 0.25 };
        numbers(slice) as f64 * per_number
    };
    println!("# unit\tslices\tnumbers\tmemory_mib\tbuilt\tneeds");
    for unit in &units {
        // What its build reads: the units it needs, theirs, and so on.
        let mut read = vec![false; units.len()];
        let mut stack = unit.needs.clone();
        while let Some(n) = stack.pop() {
            if !std::mem::replace(&mut read[n], true) {
                stack.extend(units[n].needs.iter().copied());
            }
        }
        let own: u64 = unit.pair.iter().map(|&slice| numbers(slice)).sum();
        let reads: f64 = (0..units.len())
            .filter(|&n| read[n])
            .flat_map(|n| units[n].pair.iter().map(|&slice| held_bytes(slice)))
            .sum();
        let memory = (own as f64 * SOLVING_BYTES + reads) / f64::from(1 << 20);
        let slices: Vec<String> = unit.pair.iter().map(|slice| slice.name()).collect();
        let needs: Vec<String> = unit.needs.iter().map(|&n| units[n].name()).collect();
        let done = unit.pair.iter().all(|slice| built.contains(slice));
        println!(
            "{}\t{}\t{own}\t{:.1}\t{}\t{}",
            unit.name(),
            slices.join(","),
            memory,
            if done { "yes" } else { "no" },
            if needs.is_empty() { "-".to_string() } else { needs.join(",") }
        );
    }
    Ok(())
}

fn run_probe<R: Rules>(dir: &Path, text: &str) -> Result<(), UserError> {
    let position = damas::notation::position::<R>(text)?;
    let (egdb, refused) = load::<R>(dir, false)?;
    // A FEN says nothing of the moves before it: under a king-move limit, no king has moved in
    // a row.
    let streaks = NO_STREAKS;
    let value =
        egdb.probe(&position, &streaks).ok_or_else(|| not_held(dir, &egdb, &position, &refused))?;
    let fresh = if GameRules::of::<R>().draws.king_move_limit.is_some() {
        " (no king has moved in a row)"
    } else {
        ""
    };
    println!("{value} for {}{fresh}", position.side_to_move());
    if let Some(best) = egdb.best_moves(&position, &streaks) {
        let texts: Vec<String> = best
            .iter()
            .map(|(mv, reply)| {
                format!("{} ({reply} for the opponent)", moves::to_pdn(&position, mv))
            })
            .collect();
        let label = match value.outcome() {
            Outcome::Win => "winning moves, fastest first",
            Outcome::Draw => "drawing moves",
            Outcome::Loss => "moves, longest resistance first",
        };
        println!("{label}: {}", if texts.is_empty() { "none".into() } else { texts.join(", ") });
    }
    Ok(())
}

/// Why `dir`'s databases do not hold `position`: its own file was refused (the line above says
/// why), a file it leads to was, or no database of its size was built.
fn not_held<R: Rules>(
    dir: &Path,
    egdb: &Egdb<R>,
    position: &Position<R>,
    refused: &[file::FileError],
) -> UserError {
    let pieces = position.occupied().count();
    let slice = Slice::of(position);
    let own = refused.iter().find(|error| {
        let name = error.path.file_name().and_then(|name| name.to_str()).unwrap_or("");
        file::slice_of_name(name)
            .is_some_and(|refused| refused == slice || refused == slice.swapped())
    });
    UserError(match own {
        Some(error) => format!(
            "this position's database file {} was refused ({}), so it cannot be probed; \
             build it again with `damas egdb build --variant {} --pieces {pieces}`",
            error.path.display(),
            error.reason,
            R::VARIANT.name()
        ),
        None if !refused.is_empty() && pieces <= egdb.max_pieces() => format!(
            "{pieces} pieces: not held, {} file(s) of {} refused (above): a capture from this \
             position leads into one of them",
            refused.len(),
            dir.display()
        ),
        None => format!(
            "{pieces} pieces: not in the databases of {} (up to {} pieces)",
            dir.display(),
            egdb.max_pieces()
        ),
    })
}

fn run_bench<R: Rules>(dir: &Path, memory: usize, probes: usize) -> Result<(), UserError> {
    if !dir.is_dir() {
        return Err(UserError(format!("{}: no such directory", dir.display())));
    }
    let started = std::time::Instant::now();
    let (egdb, refused) = Egdb::<R>::open(dir, memory, None)?;
    for error in &refused {
        eprintln!("refused {error}");
    }
    let opened = started.elapsed().as_secs_f64();
    // The positions first (numbering them back is not what is timed), a seeded generator.
    let slices: Vec<SliceIndex> = damas::egdb::files_in(dir)?
        .into_iter()
        .map(|(slice, _)| slice)
        .filter(|slice| egdb.has(*slice))
        .filter_map(SliceIndex::new::<R>)
        .collect();
    if slices.is_empty() {
        return Err(UserError(format!("{}: no databases of {}", dir.display(), R::VARIANT.name())));
    }
    let total: u64 = slices.iter().map(SliceIndex::size).sum();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut positions = Vec::with_capacity(probes);
    while positions.len() < probes {
        // A slice in proportion to its size, then a number in it.
        let mut at = next() % total;
        let index = slices
            .iter()
            .find(|index| {
                let inside = at < index.size();
                if !inside {
                    at -= index.size();
                }
                inside
            })
            .unwrap_or(&slices[0]);
        if let Some(entry) = index.entry::<R>(at.min(index.size() - 1)) {
            positions.push(entry);
        }
    }
    println!(
        "{} slices opened in {opened:.2} s, {} in {} MiB",
        egdb.slice_count(),
        if egdb.is_cached() { "read through the cache" } else { "decoded whole" },
        memory >> 20
    );
    for pass in ["first pass (cache empty)", "second pass"] {
        let started = std::time::Instant::now();
        let mut held = 0;
        for (position, streaks) in &positions {
            held += usize::from(egdb.probe(position, streaks).is_some());
        }
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "{pass}: {} probes in {seconds:.2} s, {:.0} probes/s ({held} answered)",
            positions.len(),
            positions.len() as f64 / seconds.max(1e-9)
        );
    }
    Ok(())
}

fn run_stats<R: Rules>(dir: &Path) -> Result<(), UserError> {
    let (egdb, _) = load::<R>(dir, false)?;
    println!("{} ({})", dir.display(), R::VARIANT.name());
    let mut by_pieces: BTreeMap<u32, Counts> = BTreeMap::new();
    for (slice, table) in egdb.slices() {
        let c = Counts::of(&egdb, table);
        let distances = match table.encoding {
            Encoding::Distances => format!("longest {} plies", c.longest),
            Encoding::Wdl => "no distances".to_string(),
        };
        println!(
            "{:<14} {:>14} positions {:>14} wins {:>14} draws {:>14} losses  {distances}",
            slice.to_string(),
            c.positions,
            c.wins,
            c.draws,
            c.losses,
        );
        let entry = by_pieces.entry(slice.pieces()).or_default();
        *entry = entry.plus(&c);
    }
    for (pieces, c) in &by_pieces {
        println!(
            "{pieces} pieces: {} positions, {} wins, {} draws, {} losses",
            c.positions, c.wins, c.draws, c.losses
        );
    }
    Ok(())
}

fn run_verify<R: Rules>(dir: &Path) -> Result<(), UserError> {
    let (egdb, refused) = load::<R>(dir, false)?;
    let mut bad = refused.len();
    let (mut positions, mut checked) = (0, 0);
    for (slice, table) in egdb.slices() {
        let (n, c, wrong) = verify::verify_table(&egdb, table);
        positions += n;
        checked += c;
        for w in &wrong {
            let entry = table.index.entry::<R>(w.index);
            let text = entry.map_or(String::new(), |(position, streaks)| {
                let mut text = fen::write(&position);
                for (side, streak) in ["white", "black"].iter().zip(streaks) {
                    if streak.moves > 0 {
                        let square = squares::name::<R>(u32::from(streak.square));
                        let moves = streak.moves;
                        text.push_str(&format!(" ({side} king on {square}: {moves} in a row)"));
                    }
                }
                text
            });
            let expected = w.expected.map_or("a missing slice".into(), |v| v.to_string());
            println!("{slice}: {text}: stored {}, its successors say {expected}", w.stored);
        }
        bad += wrong.len();
    }
    if bad > 0 {
        println!("{positions} positions, {checked} checked, {bad} problems");
        std::process::exit(1);
    }
    println!(
        "{positions} positions in {} slices: {checked} checked against their successors, {} \
         with a capture answered from their captures; all consistent",
        egdb.slices().count(),
        positions - checked
    );
    Ok(())
}
