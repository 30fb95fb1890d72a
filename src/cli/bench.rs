//! `damas bench`: a fixed list of positions from several variants searched to a fixed depth on
//! one thread with a fresh 16 MiB table each; the total node count is the project's signature
//! for search changes (it must not change in a commit that says "No functional change").

use crate::error::UserError;
use damas::eval::{Evaluator, Kind};
use damas::game::Game;
use damas::notation::{fen, moves};
use damas::rules::{Rules, Variant};
use damas::search::profile::Profile;
use damas::search::{Engine, EngineConfig, Limits, ParamChanges, Silent};
use damas::with_variant;
use std::time::{Duration, Instant};

/// The bench positions: (variant, FEN, description).
pub const POSITIONS: &[(Variant, &str, &str)] = &[
    (Variant::English, "B:W21-32:B1-12", "english start"),
    (
        Variant::English,
        "B:W17,19,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15",
        "english opening",
    ),
    (Variant::English, "B:WK27,K26,21,19:BK5,K10,8,12", "english kings"),
    (Variant::International, "W:W31-50:B1-20", "international start"),
    (
        Variant::International,
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        "woldouby",
    ),
    (
        Variant::International,
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        "random178",
    ),
    (
        Variant::Russian,
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        "russian start",
    ),
    (
        Variant::Brazilian,
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        "brazilian start",
    ),
    (
        Variant::Turkish,
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
        "turkish start",
    ),
    (Variant::Italian, "W:W21-32:B1-12", "italian start"),
    (Variant::Spanish, "W:W1-12:B21-32", "spanish start"),
    (Variant::Frisian, "W:W31-50:B1-20", "frisian start"),
];

/// Default bench depth.
pub const DEPTH: u32 = 12;

/// `damas bench`'s arguments.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Depth of each search.
    #[arg(default_value_t = DEPTH)]
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
    /// Print the tree profile: per iteration, where the nodes went (main search, capture
    /// search, table, cutoffs, re-searches, prunings). Needs a build with `--features profile`
    /// (tools/tree-profile.sh).
    #[arg(long)]
    profile: bool,
    /// Positions to search instead of the bench's: a file of FENs, one a line, in --variant.
    #[arg(long, requires = "variant")]
    file: Option<std::path::PathBuf>,
    /// The rule set of --file's positions.
    #[arg(long, short = 'v')]
    variant: Option<String>,
}

/// `damas bench`.
pub fn command(args: &BenchArgs) -> Result<(), UserError> {
    let kind = if args.eval == "classic" { Kind::Classic } else { Kind::Default };
    let params = ParamChanges::parse(&args.search_params).map_err(UserError)?;
    if args.profile && !cfg!(feature = "profile") {
        return Err(UserError(
            "this damas counts no tree profile: build it with `cargo build --release --features \
             profile` (tools/tree-profile.sh does)"
                .into(),
        ));
    }
    let positions: Vec<(Variant, String, String)> = match (&args.file, &args.variant) {
        (Some(path), Some(name)) => {
            let variant: Variant = name.parse()?;
            let text = damas::bounded::read_text(path, damas::bounded::FENS)?;
            let lines =
                text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
            lines.map(|line| (variant, line.to_string(), line.to_string())).collect()
        }
        _ => {
            POSITIONS.iter().map(|(v, fen, name)| (*v, fen.to_string(), name.to_string())).collect()
        }
    };
    let settings =
        Settings { depth: args.depth.max(1), threads: args.threads.max(1), kind, params };
    run(&positions, &settings, args.profile);
    Ok(())
}

/// How each bench position is searched.
struct Settings {
    depth: u32,
    threads: usize,
    kind: Kind,
    params: ParamChanges,
}

/// Runs the bench on `threads` threads with the evaluation `kind` (the signature is defined for
/// the default one; `classic` shows the trained evaluation's cost in nodes per second, side by
/// side) and the search's tunable numbers `params` (the signature's are the defaults), printing
/// one line per position and the signature line last, after the tree profile of all of them
/// with `profile`. Returns the total node count (deterministic with one thread).
fn run(positions: &[(Variant, String, String)], settings: &Settings, profile: bool) -> u64 {
    let Settings { depth, threads, .. } = *settings;
    let started = Instant::now();
    let mut total = 0;
    let mut searching = Duration::ZERO;
    let mut tree = Profile::default();
    for (variant, text, name) in positions {
        let (nodes, time, line, counted) = with_variant!(*variant, R => one::<R>(text, settings));
        println!("{name:<22} {line}");
        total += nodes;
        searching += time;
        tree.add(&counted);
    }
    if profile {
        println!("\ntree profile, every position together (per iteration depth):");
        print!("{}", tree.table());
        println!("{PROFILE_KEY}");
    }
    let seconds = searching.as_secs_f64().max(1e-9);
    eprintln!(
        "bench: {} positions, depth {depth}, {threads} thread{}, {:.3} s searching, {:.2} s in all",
        positions.len(),
        if threads == 1 { "" } else { "s" },
        searching.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    println!("Bench: {total} nodes {} nps", (total as f64 / seconds) as u64);
    total
}

/// What the profile's columns mean.
const PROFILE_KEY: &str = "\
nodes: all nodes of the iteration; ebf: nodes over the previous iteration's; main%/qs%: shares
of the main search (depth left) and of the capture search below the horizon (the rest are quiet
leaves); capt%: main-search nodes with a capture due; tt-hit/tt-cut: table probes that found
the position / that ended the node; fh-1st: fail-highs on the first move searched; moves/node:
moves searched per main-search node; lmr: moves searched reduced; lmr-re: reduced searches
searched again; pvs-re: null-window searches searched again on the window; asp: aspiration
re-searches; static(d) / probcut(d): nodes cut by the static cut / ProbCut cuts per try, and
the mean depth they cut at; exch: exchanges and crowning moves searched at quiet leaves, per
hundred leaves (`qs-exchanges`).";

fn one<R: Rules>(text: &str, settings: &Settings) -> (u64, Duration, String, Profile) {
    let Settings { depth, threads, kind, params } = *settings;
    let Ok(position) = fen::parse::<R>(text) else {
        return (0, Duration::ZERO, format!("bad bench FEN {text}"), Profile::default());
    };
    let game = Game::new(position);
    let config = EngineConfig::new(threads, 16)
        .with_evaluator(Evaluator::of_kind(kind))
        .with_params(params.over(R::VARIANT));
    let mut engine = Engine::<R>::with_config(config);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let result = engine.go(&game, limits, false, &mut Silent);
    let best = result.best.map_or("none".to_string(), |mv| moves::to_pdn(&position, &mv));
    let line = format!("nodes {:>10}  score {:>6}  best {best}", result.nodes, result.score);
    (result.nodes, result.time, line, engine.profile().unwrap_or_default())
}
