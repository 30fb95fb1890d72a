//! `damas match` on the command line: its arguments, in the habits of cutechess-cli and
//! fastchess (`--engine` and `--each` take `key=value` words up to the next flag), turned into
//! the library's [`MatchSettings`], and the progress bar on stderr.
//!
//! The tournament itself is the library's (`damas::matchplay`); this module only reads
//! arguments and draws.

use crate::error::UserError;
use damas::matchplay::engine::EngineSpec;
use damas::matchplay::referee::{Adjudication, DrawAdjudication, ResignAdjudication};
use damas::matchplay::stats::{EloModel, Sprt};
use damas::matchplay::{DrawRuleSet, GameReport, MatchSettings, Observer, Pairing};
use damas::rules::Variant;
use damas::with_variant;
use std::time::Duration;

/// The arguments of `damas match`: a match (or one shard of it), or `merge`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    /// `merge`: the results files of a match's shards as one report.
    #[command(subcommand)]
    command: Option<MatchCommand>,
    /// Rule set (see `damas variants`).
    #[arg(long, short = 'v', default_value = "english")]
    variant: String,
    /// An engine, as KEY=VALUE words up to the next flag: cmd="PROGRAM ARGS" (a Hub engine;
    /// without cmd= the built-in damas), name=NAME, dir=DIR, option.NAME=VALUE (Hub
    /// set-param), tc=SPEC (its own time control), depth=N, nodes=N, level=N, greedy,
    /// proto=dxp with address=HOST:PORT (connect) or listen=HOST:PORT (`{address}` in cmd= is
    /// replaced by the address listened on). Give it twice or more.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    engine: Vec<String>,
    /// The `--engine` words, one list per `--engine` (clap's derive flattens them; `main` fills
    /// this from the matches with [`MatchArgs::group_engines`]).
    #[arg(skip)]
    engine_groups: Vec<Vec<String>>,
    /// Words every engine gets before its own (which win), e.g. `--each option.hash=64`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// Games per pair of engines (rounded up to pairs: each opening twice, colours reversed).
    #[arg(long, short = 'n', default_value_t = 100)]
    games: u32,
    /// Time control: seconds a move (0.1), moves/seconds+increment (40/60+0.5), seconds+increment
    /// for the game (60+0.5), depth=N or nodes=N.
    #[arg(long, default_value = "0.1")]
    tc: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Append every game to this PDN file.
    #[arg(long)]
    pdn: Option<String>,
    /// Openings: a file of FENs (one a line, or tab-separated with the FEN last, as the English
    /// ballot table) or a PDN file (each game's position after its moves). Default: random
    /// two-ply openings.
    #[arg(long)]
    openings: Option<String>,
    /// Play the openings in a random order (from --seed) instead of as listed.
    #[arg(long)]
    shuffle: bool,
    /// Seed of the random openings and the shuffle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Sequential test: elo0=A elo1=B [alpha=0.05] [beta=0.05] [model=normalized|logistic]; the
    /// match stops when it decides. Two engines only.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Draw adjudication: movenumber=N movecount=M score=S (from move N, both scores within S
    /// men for M moves each).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    draw: Option<Vec<String>>,
    /// Win adjudication: movecount=M score=S (one engine at least +S, the other at most -S, for
    /// M moves each).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    resign: Option<Vec<String>>,
    /// Adjudicate from the endgame databases in this directory (as `damas egdb build` makes
    /// them): a game ends as soon as they hold its position, with their verdict.
    #[arg(long = "egdb-path")]
    egdb_path: Option<std::path::PathBuf>,
    /// A draw after this many moves of each side (0: no limit).
    #[arg(long, default_value_t = 150)]
    max_moves: u32,
    /// The draw rules of the games: the variant's default ones, the federation's, or repetition
    /// only.
    #[arg(long, default_value = "default", value_parser = ["default", "federation", "repetition"])]
    draw_rules: String,
    /// Seconds an engine may overrun its clock before it loses on time.
    #[arg(long, default_value_t = 0.05)]
    margin: f64,
    /// Seconds a move may take under depth= or nodes= before the engine counts as stalled.
    #[arg(long, default_value_t = 120.0)]
    patience: f64,
    /// Seconds an engine may take to start and answer the handshake (Hub `hub`/`init`, `ping`
    /// before each game; DXP connection and GAMEACC) before it counts as stalled.
    #[arg(long, default_value_t = 30.0)]
    handshake: f64,
    /// round-robin (everyone against everyone) or gauntlet (the first engine against the rest).
    #[arg(long, default_value = "round-robin", value_parser = ["round-robin", "gauntlet"])]
    tournament: String,
    /// The PDN Event tag.
    #[arg(long, default_value = "damas match")]
    event: String,
    /// A line per game on stderr.
    #[arg(long)]
    verbose: bool,
    /// Play only shard K of N of the game pairs (pair p when p mod N = K - 1), e.g. 2/4: one
    /// machine's or one process's part, with its --results file; `damas match merge` adds the
    /// shards up. The other settings must be the same in every shard.
    #[arg(long, value_name = "K/N")]
    shard: Option<damas::shard::Shard>,
    /// Write each game's result to this file (FILE.partial until the match ends), for `damas
    /// match merge`.
    #[arg(long, value_name = "FILE")]
    results: Option<String>,
}

/// The subcommands of `damas match`.
#[derive(Debug, clap::Subcommand)]
pub enum MatchCommand {
    /// Adds up the results files of a match's shards (`--shard K/N --results FILE`) into the
    /// match's report, with its SPRT decided as the whole match on one thread would have
    /// (games in round order). E.g. `damas match merge part-*.txt --sprt elo0=0 elo1=10`.
    Merge {
        /// Sequential test: elo0=A elo1=B [alpha=0.05] [beta=0.05] [model=normalized|logistic].
        #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
        sprt: Option<Vec<String>>,
        /// The results files.
        #[arg(required = true)]
        files: Vec<String>,
    },
}

impl MatchArgs {
    /// Takes each `--engine`'s words, as one list, from the parsed `match` command line.
    pub fn group_engines(&mut self, matches: &clap::ArgMatches) {
        self.engine_groups = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
    }
}

/// `key=value` words into pairs, each key one of `known`.
fn key_values<'a>(
    words: &'a [String],
    flag: &str,
    known: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, UserError> {
    words
        .iter()
        .map(|word| {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| UserError(format!("{flag} {word}: use KEY=VALUE")))?;
            if known.contains(&key) {
                Ok((key, value))
            } else {
                Err(UserError(format!("{flag}: unknown key '{key}' (known: {})", known.join(", "))))
            }
        })
        .collect()
}

fn number<T: std::str::FromStr>(flag: &str, key: &str, value: &str) -> Result<T, UserError> {
    value.parse().map_err(|_| UserError(format!("{flag} {key}={value}: not a valid number")))
}

fn positive_seconds(flag: &str, value: f64) -> Result<Duration, UserError> {
    if value.is_finite() && (0.0..1.0e6).contains(&value) {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(UserError(format!("{flag} {value}: give seconds from 0 to 1000000")))
    }
}

fn sprt(words: &[String]) -> Result<Sprt, UserError> {
    let mut sprt = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Normalized,
    };
    for (key, value) in key_values(words, "--sprt", &["elo0", "elo1", "alpha", "beta", "model"])? {
        match key {
            "elo0" => sprt.elo0 = number("--sprt", key, value)?,
            "elo1" => sprt.elo1 = number("--sprt", key, value)?,
            "alpha" => sprt.alpha = number("--sprt", key, value)?,
            "beta" => sprt.beta = number("--sprt", key, value)?,
            _ => {
                sprt.model = match value {
                    "normalized" => EloModel::Normalized,
                    "logistic" => EloModel::Logistic,
                    _ => {
                        return Err(UserError(format!(
                            "--sprt model={value}: normalized or logistic"
                        )));
                    }
                }
            }
        }
    }
    if !(sprt.elo0.is_finite() && sprt.elo1.is_finite() && sprt.elo0 < sprt.elo1) {
        return Err(UserError("--sprt needs elo0=A elo1=B with A < B".into()));
    }
    if !(0.0 < sprt.alpha && sprt.alpha < 0.5 && 0.0 < sprt.beta && sprt.beta < 0.5) {
        return Err(UserError("--sprt alpha and beta must lie between 0 and 0.5".into()));
    }
    Ok(sprt)
}

fn adjudication(args: &MatchArgs) -> Result<Adjudication, UserError> {
    let draw = match &args.draw {
        None => None,
        Some(words) => {
            let mut draw = DrawAdjudication { after: 40, moves: 8, score: 0.1 };
            for (key, value) in key_values(words, "--draw", &["movenumber", "movecount", "score"])?
            {
                match key {
                    "movenumber" => draw.after = number("--draw", key, value)?,
                    "movecount" => draw.moves = number("--draw", key, value)?,
                    _ => draw.score = number("--draw", key, value)?,
                }
            }
            Some(draw)
        }
    };
    let resign = match &args.resign {
        None => None,
        Some(words) => {
            let mut resign = ResignAdjudication { moves: 4, score: 5.0 };
            for (key, value) in key_values(words, "--resign", &["movecount", "score"])? {
                match key {
                    "movecount" => resign.moves = number("--resign", key, value)?,
                    _ => resign.score = number("--resign", key, value)?,
                }
            }
            if resign.score.is_nan() || resign.score <= 0.0 || resign.moves == 0 {
                return Err(UserError("--resign needs movecount above 0 and score above 0".into()));
            }
            Some(resign)
        }
    };
    Ok(Adjudication {
        draw,
        resign,
        max_moves: (args.max_moves > 0).then_some(args.max_moves),
        margin: positive_seconds("--margin", args.margin)?,
        no_clock_patience: positive_seconds("--patience", args.patience)?,
    })
}

/// The match's settings from its arguments.
fn settings(args: &MatchArgs) -> Result<MatchSettings, UserError> {
    // `--each` words come first, so that an engine's own words override them.
    let engines = args
        .engine_groups
        .iter()
        .map(|words| {
            let all: Vec<String> = args.each.iter().chain(words).cloned().collect();
            EngineSpec::parse(&all)
                .map_err(|e| UserError(format!("--engine {}: {e}", words.join(" "))))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut engines = engines;
    // Two engines of the same name would be one column: number the later ones.
    for index in 1..engines.len() {
        let name = engines[index].name.clone();
        let same = engines[..index].iter().filter(|other| other.name == name).count();
        if same > 0 {
            engines[index].name = format!("{name}#{}", same + 1);
        }
    }
    let openings = match &args.openings {
        None => None,
        Some(path) => Some((
            damas::bounded::read_text(std::path::Path::new(path), damas::bounded::OPENINGS)?,
            path.clone(),
        )),
    };
    Ok(MatchSettings {
        engines,
        tc: args.tc.parse().map_err(UserError)?,
        games: args.games.max(1),
        concurrency: args.concurrency.max(1),
        openings,
        shuffle: args.shuffle,
        seed: args.seed,
        pdn: args.pdn.clone(),
        sprt: args.sprt.as_deref().map(sprt).transpose()?,
        adjudication: adjudication(args)?,
        handshake: positive_seconds("--handshake", args.handshake)?,
        egdb_path: args.egdb_path.clone(),
        draw_rules: match args.draw_rules.as_str() {
            "federation" => DrawRuleSet::Federation,
            "repetition" => DrawRuleSet::RepetitionOnly,
            _ => DrawRuleSet::Default,
        },
        pairing: if args.tournament == "gauntlet" {
            Pairing::Gauntlet
        } else {
            Pairing::RoundRobin
        },
        event: args.event.clone(),
        shard: args.shard.unwrap_or(damas::shard::Shard::ALL),
        results: args.results.clone(),
    })
}

/// The progress bar with the games played, the score and the time left, and with `--verbose`
/// a line per game.
struct Bar {
    progress: crate::progress::Progress,
    verbose: bool,
}

impl Observer for Bar {
    fn started(&mut self, total: u32) {
        self.progress.set_total(u64::from(total));
    }

    fn finished(&mut self, report: &GameReport) {
        if self.verbose {
            self.progress.println(&report.line);
        }
        self.progress.update(u64::from(report.finished), &report.standing, self.verbose);
    }
}

/// Runs `damas match`.
///
/// # Errors
/// Bad arguments, an unreadable openings file, an engine that cannot be started, a PDN file
/// that cannot be written.
pub fn run(args: &MatchArgs) -> Result<(), UserError> {
    if let Some(MatchCommand::Merge { sprt: words, files }) = &args.command {
        return merge(words.as_deref(), files);
    }
    let variant: Variant = args.variant.parse()?;
    let settings = settings(args)?;
    let progress = crate::progress::Progress::new(0, "games")?;
    let mut observer = Bar { progress, verbose: args.verbose };
    let report = with_variant!(variant, R => damas::matchplay::run::<R>(&settings, &mut observer))
        .map_err(UserError)?;
    observer.progress.finish();
    print!("{report}");
    Ok(())
}

/// Runs `damas match merge`: the report of the shards' games, what the files held on stderr.
fn merge(sprt_words: Option<&[String]>, files: &[String]) -> Result<(), UserError> {
    let test = sprt_words.map(sprt).transpose()?;
    let mut texts = Vec::with_capacity(files.len());
    for file in files {
        let text = damas::bounded::read_text(std::path::Path::new(file), damas::bounded::RESULTS)?;
        texts.push((file.clone(), text));
    }
    let merged = damas::matchplay::results::merge(&texts, test).map_err(UserError)?;
    let shards: Vec<String> = merged.shards.iter().map(ToString::to_string).collect();
    eprintln!(
        "merged {} files (shards {}): {} of the match's {} games{}",
        files.len(),
        shards.join(" "),
        merged.found,
        merged.games,
        if merged.report.played < merged.found {
            format!(", {} counted before the SPRT decided", merged.report.played)
        } else {
            String::new()
        }
    );
    print!("{}", merged.report);
    Ok(())
}
