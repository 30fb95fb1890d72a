//! `damas datagen` and `damas train`: the command lines that make training data and trained
//! weight files, with their progress on stderr.

use crate::error::UserError;
use crate::progress::Progress;
use damas::eval::Evaluator;
use damas::rules::{Rules, Variant};
use damas::search::EngineConfig;
use damas::train::datagen::{self, Header, Settings, Shard};
use damas::with_variant;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `damas datagen`: a run (or one shard of it), or `merge`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct DatagenArgs {
    /// `merge`: data files (the shards of a run) as one.
    #[command(subcommand)]
    pub command: Option<DatagenCommand>,
    /// Rule set.
    #[arg(long, short = 'v', default_value = "english")]
    pub variant: String,
    /// Games to play (a file that has some of them already is completed, not started over).
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// Play only shard K of N of the games (game g when g mod N = K - 1), e.g. 3/8: one
    /// machine's or one process's part. The shards' files merge with `damas datagen merge`
    /// into the file a single run writes.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// The data file, created or resumed.
    #[arg(long, required = true)]
    pub out: Option<PathBuf>,
    /// Nodes each side searches per move.
    #[arg(long, default_value_t = 4000)]
    pub nodes: u64,
    /// Random plies from the start before the engines play.
    #[arg(long, default_value_t = 6)]
    pub random_plies: u8,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: all cores).
    #[arg(long, short = 't')]
    pub threads: Option<usize>,
    /// Transposition table per engine, MiB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
    /// The evaluation the games are played with: default (the built-in trained weights, or
    /// the classic terms where there are none) or classic.
    #[arg(long, default_value = "default")]
    pub eval: String,
    /// A weight file to play with instead.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// Endgame databases to play with (a directory, as `damas egdb build` writes): both
    /// engines probe them, and a game ends at the first position they hold, which is written
    /// with its exact score. Default: none.
    #[arg(long, value_name = "DIR")]
    pub egdb_path: Option<PathBuf>,
    /// Memory for the databases' values, MiB (beyond it they are read through a cache).
    #[arg(long, default_value_t = damas::egdb::DEFAULT_MEMORY_MB)]
    pub egdb_cache: usize,
    /// With --egdb-path: plies played on past the position the databases end a game at, each
    /// position written with its exact score, so that the data has the endings too (what the
    /// search needs to convert the wins of databases held without distances).
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    pub play_on: u8,
}

/// The subcommands of `damas datagen`.
#[derive(Debug, clap::Subcommand)]
pub enum DatagenCommand {
    /// Merges data files made with the same settings (the shards of a run, or parts of it) into
    /// one: each game once, in game order; the merge of all of a run's shards is the file one
    /// run on one thread writes, byte for byte. E.g. `damas datagen merge --out all.data
    /// part-*.data`.
    Merge {
        /// The merged file (written beside, then renamed into place).
        #[arg(long)]
        out: PathBuf,
        /// The data files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Arguments of `damas train`.
#[derive(Debug, clap::Args)]
pub struct TrainArgs {
    /// Rule set.
    #[arg(long, short = 'v', default_value = "english")]
    pub variant: String,
    /// Data files of `damas datagen` (all of the same rule set).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The weight file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = damas::train::trainer::Settings::default().epochs)]
    pub epochs: u32,
    /// Weight of the game result in the target; the rest is the search score's.
    #[arg(long, default_value_t = damas::train::trainer::Settings::default().lambda)]
    pub lambda: f64,
    /// Positions per step.
    #[arg(long, default_value_t = damas::train::trainer::Settings::default().batch)]
    pub batch: usize,
    /// Adam's step size in the first epoch, in hundredths of a man.
    #[arg(long, default_value_t = damas::train::trainer::Settings::default().learning_rate)]
    pub learning_rate: f64,
    /// Factor of the step size from one epoch to the next.
    #[arg(long, default_value_t = damas::train::trainer::Settings::default().decay)]
    pub decay: f64,
    /// Weight decay of the pattern weights.
    #[arg(long, default_value_t = damas::train::trainer::Settings::default().weight_decay)]
    pub weight_decay: f64,
    /// Seed of the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A weight file to compare with (the previous generation's): its loss on the same
    /// held-out positions is reported beside the new weights' and the classic evaluation's.
    #[arg(long)]
    pub compare: Option<PathBuf>,
    /// Dense terms not to learn (kept at zero), by name with dashes for spaces
    /// (`first-king,balance,king-safe,king-exposed`), `drawish` for no division of the
    /// score for drawish material, `king-squares` for no king square table and `flanks` for
    /// no flank regions: to measure what a term is worth.
    #[arg(long, value_delimiter = ',', value_name = "TERMS")]
    pub without: Vec<String>,
}

/// Turns an error about the file `path` into the user's error naming it.
fn in_file<E: std::fmt::Display>(path: &Path) -> impl Fn(E) -> UserError + '_ {
    move |error| UserError(format!("{}: {error}", path.display()))
}

fn threads(requested: Option<usize>) -> usize {
    requested.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1)
}

fn datagen<R: Rules>(args: &DatagenArgs, path: &Path) -> Result<(), UserError> {
    let evaluator =
        Evaluator::<R>::chosen(&args.eval, args.eval_file.as_deref()).map_err(UserError)?;
    eprintln!("datagen: {} with the {} evaluation", R::VARIANT.name(), evaluator.describe());
    if args.play_on > 0 && args.egdb_path.is_none() {
        return Err(UserError(
            "--play-on plays on past the databases: it needs --egdb-path".into(),
        ));
    }
    let egdb = match &args.egdb_path {
        None => None,
        Some(dir) => {
            let text = dir.to_string_lossy();
            let egdb = damas::egdb::open_option::<R>(&text, args.egdb_cache.max(1), 0)
                .map_err(UserError)?
                .ok_or_else(|| {
                    UserError(format!(
                        "--egdb-path {text}: no {} database files",
                        R::VARIANT.name()
                    ))
                })?;
            eprintln!("datagen: endgame databases up to {} pieces", egdb.max_pieces());
            Some(std::sync::Arc::new(egdb))
        }
    };
    let egdb_pieces = egdb.as_ref().map_or(0, |egdb| egdb.max_pieces().min(255) as u8);
    let config = EngineConfig::new(1, args.hash.max(1)).with_evaluator(evaluator).with_egdb(egdb);
    let settings = Settings {
        games: args.games,
        shard: args.shard.unwrap_or(Shard::ALL),
        nodes: args.nodes.max(1),
        seed: args.seed,
        random_plies: args.random_plies,
        threads: threads(args.threads),
        play_on: args.play_on,
    };
    let header = Header {
        variant: R::VARIANT,
        nodes: settings.nodes,
        seed: settings.seed,
        random_plies: settings.random_plies,
        egdb_pieces,
        play_on: settings.play_on,
    };
    let mut done = HashSet::new();
    let mut file = if path.exists() {
        let bytes = damas::bounded::read(path, damas::bounded::TRAINING_DATA)?;
        let contents = datagen::read::<R>(&bytes).map_err(in_file(path))?;
        if contents.header != header {
            return Err(UserError(format!(
                "{} was made with other settings ({}): resume it with those or write another file",
                path.display(),
                contents.header.settings()
            )));
        }
        let file = std::fs::OpenOptions::new().write(true).open(path).map_err(in_file(path))?;
        // A block cut short when the last run stopped is dropped; its game is played again.
        file.set_len(contents.complete as u64).map_err(in_file(path))?;
        eprintln!(
            "datagen: resuming {}: {} games and {} positions already there",
            path.display(),
            contents.games.len(),
            contents.samples.len()
        );
        done = contents.games;
        std::fs::OpenOptions::new().append(true).open(path).map_err(in_file(path))?
    } else {
        let mut file = std::fs::File::create(path).map_err(in_file(path))?;
        file.write_all(&datagen::write_header::<R>(&header)).map_err(in_file(path))?;
        file
    };
    let mut progress = Progress::new(u64::from(settings.shard_games()), "games")?;
    let resumed = done.iter().filter(|&&game| game < settings.games && settings.shard.has(game));
    progress.start_at(resumed.count() as u64);
    let started = std::time::Instant::now();
    let write = |block: &[u8]| {
        file.write_all(block)
            .and_then(|()| file.flush())
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    let end = datagen::run::<R>(&config, &settings, &done, write, |state| {
        let rate = state.positions as f64 / started.elapsed().as_secs_f64().max(1e-3);
        let message = format!("{} positions, {rate:.0}/s", state.positions);
        progress.update(u64::from(state.games), &message, false);
    })
    .map_err(UserError)?;
    progress.finish();
    eprintln!(
        "datagen: {} games in {}, {} new positions in {:.0} s",
        end.games,
        path.display(),
        end.positions,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Runs `damas datagen`.
///
/// # Errors
/// Bad arguments, a file that cannot be read or written or was made with other settings.
pub fn run_datagen(args: &DatagenArgs) -> Result<(), UserError> {
    if let Some(DatagenCommand::Merge { out, files }) = &args.command {
        return merge(out, files);
    }
    let variant: Variant = args.variant.parse()?;
    let path = args.out.as_deref().ok_or_else(|| UserError("--out is required".into()))?;
    with_variant!(variant, R => datagen::<R>(args, path))
}

/// `damas datagen merge`.
fn merge(out: &Path, paths: &[PathBuf]) -> Result<(), UserError> {
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        let bytes = damas::bounded::read(path, damas::bounded::TRAINING_DATA)?;
        files.push((path.display().to_string(), bytes));
    }
    let first = files.first().ok_or_else(|| UserError("nothing to merge".into()))?;
    let (header, _, _) = datagen::read_header(&first.1).map_err(in_file(&paths[0]))?;
    let (merged, games, positions) = with_variant!(header.variant, R => {
        let merged = datagen::merge::<R>(&files).map_err(UserError)?;
        let contents = datagen::read::<R>(&merged).map_err(UserError)?;
        (merged, contents.games.len(), contents.samples.len())
    });
    write_file(out, &merged)?;
    eprintln!(
        "datagen merge: {games} games, {positions} positions from {} files into {}",
        files.len(),
        out.display()
    );
    Ok(())
}

fn read_data<R: Rules>(paths: &[PathBuf]) -> Result<Vec<datagen::Sample<R>>, UserError> {
    let mut samples = Vec::new();
    for (index, path) in paths.iter().enumerate() {
        let bytes = damas::bounded::read(path, damas::bounded::TRAINING_DATA)?;
        let contents = datagen::read::<R>(&bytes).map_err(in_file(path))?;
        eprintln!(
            "train: {}: {} games, {} positions",
            path.display(),
            contents.games.len(),
            contents.samples.len()
        );
        // Game numbers restart in every file: keep them apart for the held-out split.
        let offset = (index as u32) << 24;
        samples.extend(contents.samples.into_iter().map(|mut sample| {
            sample.game = sample.game.wrapping_add(offset);
            sample
        }));
    }
    Ok(samples)
}

/// The name `--without` takes for the division of drawish material.
const DRAWISH: &str = "drawish";
/// The name `--without` takes for the king square table.
const KING_SQUARES: &str = "king-squares";
/// The name `--without` takes for the flank regions.
const FLANKS: &str = "flanks";

/// What to learn: the dense terms, the drawish division, the king square table.
#[derive(Debug)]
struct Learned {
    terms: [bool; damas::eval::pattern::DENSE],
    drawish: bool,
    king_squares: bool,
    flanks: bool,
}

/// Everything but what `without` names: dense terms, [`DRAWISH`], [`KING_SQUARES`], [`FLANKS`].
fn learned_terms(without: &[String]) -> Result<Learned, UserError> {
    let names = damas::eval::pattern::DENSE_NAMES;
    let mut learned = Learned {
        terms: [true; damas::eval::pattern::DENSE],
        drawish: true,
        king_squares: true,
        flanks: true,
    };
    for name in without {
        if name == DRAWISH {
            learned.drawish = false;
            continue;
        }
        if name == KING_SQUARES {
            learned.king_squares = false;
            continue;
        }
        if name == FLANKS {
            learned.flanks = false;
            continue;
        }
        let index = names.iter().position(|known| known.replace(' ', "-") == *name);
        let index = index.ok_or_else(|| {
            let known: Vec<String> = names.iter().map(|n| n.replace(' ', "-")).collect();
            UserError(format!(
                "no dense term `{name}`; the terms: {}, and {DRAWISH}, {KING_SQUARES}, {FLANKS}",
                known.join(", ")
            ))
        })?;
        learned.terms[index] = false;
    }
    Ok(learned)
}

fn train<R: Rules>(args: &TrainArgs) -> Result<(), UserError> {
    let samples = read_data::<R>(&args.data)?;
    if samples.is_empty() {
        return Err(UserError("no positions to train on".into()));
    }
    let classic = damas::eval::params::weights::<R>();
    let Learned { terms, drawish, king_squares, flanks } = learned_terms(&args.without)?;
    let settings = damas::train::trainer::Settings {
        epochs: args.epochs,
        lambda: args.lambda.clamp(0.0, 1.0),
        batch: args.batch.max(1),
        learning_rate: args.learning_rate,
        decay: args.decay,
        weight_decay: args.weight_decay,
        seed: args.seed,
        start_material: (classic.man, classic.king),
        terms,
        drawish,
        king_squares,
        flanks,
    };
    let compare = match &args.compare {
        Some(path) => {
            let bytes = damas::bounded::read(path, damas::bounded::WEIGHTS)?;
            let weights = damas::eval::file::read(&bytes).map_err(in_file(path))?;
            damas::eval::Pattern::<R>::new(weights.clone())
                .map_err(|mismatch| in_file(path)(mismatch.0))?;
            Some(weights)
        }
        None => None,
    };
    let started = std::time::Instant::now();
    let mut progress = Progress::new(u64::from(settings.epochs), "epochs")?;
    let report_epoch = |report: &damas::train::trainer::EpochReport| {
        let compared = report
            .compare_loss
            .map(|loss| format!(", the compared weights: {loss:.5}"))
            .unwrap_or_default();
        progress.println(&format!(
            "epoch {:>3}: training loss {:.5}, validation loss {:.5} (the classic \
             evaluation: {:.5}{compared}), {:.0} s",
            report.epoch,
            report.train_loss,
            report.validation_loss,
            report.baseline_loss,
            started.elapsed().as_secs_f64()
        ));
        progress.update(u64::from(report.epoch), "", true);
    };
    let trained = damas::train::trainer::train::<R>;
    let (weights, scale) = trained(&samples, &settings, compare.as_ref(), report_epoch);
    progress.finish();
    let bytes = damas::eval::file::write(&weights);
    write_file(&args.out, &bytes)?;
    let names = damas::eval::pattern::DENSE_NAMES;
    let dense: Vec<String> = names
        .iter()
        .zip(&weights.dense)
        .map(|(name, [opening, endgame])| format!("{name} {opening}/{endgame}"))
        .collect();
    eprintln!(
        "train: {} positions, scale K = {scale:.1}; {}; wrote {} ({} bytes) in {:.0} s",
        samples.len(),
        dense.join(", "),
        args.out.display(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), UserError> {
    // Written beside and renamed, so a stopped run never leaves half a file.
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes)
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(in_file(path))
}

/// Runs `damas train`.
///
/// # Errors
/// Bad arguments, unreadable or foreign data files, an unwritable output.
pub fn run_train(args: &TrainArgs) -> Result<(), UserError> {
    let variant: Variant = args.variant.parse()?;
    with_variant!(variant, R => train::<R>(args))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_names_dense_terms_and_the_drawish_division() {
        let names = |list: &[&str]| list.iter().map(|name| name.to_string()).collect::<Vec<_>>();
        let all = learned_terms(&[]).unwrap();
        assert!(all.terms.iter().all(|&learned| learned) && all.drawish && all.king_squares);
        let some = learned_terms(&names(&["balance", "drawish"])).unwrap();
        let balance = damas::eval::pattern::DENSE_NAMES.iter().position(|n| *n == "balance");
        assert_eq!(some.terms.iter().filter(|&&learned| !learned).count(), 1);
        assert!(!some.terms[balance.unwrap()] && !some.drawish && some.king_squares);
        let plain = learned_terms(&names(&["king-squares", "flanks"])).unwrap();
        assert!(!plain.king_squares && !plain.flanks && plain.drawish);
        let error = learned_terms(&names(&["king-exposed", "mobility"])).unwrap_err();
        assert!(error.0.contains("`mobility`") && error.0.contains("king-squares"), "{}", error.0);
    }
}
