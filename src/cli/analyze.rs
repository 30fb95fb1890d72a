//! `damas analyze`: the engine's main job for a person at a terminal or a program reading JSON.
//! Prints the board, one line per completed iteration (per line with MultiPV) and the best move,
//! optionally an SVG diagram; also a file of positions, or a whole PDN game annotated move by move.

use crate::args::{PositionArgs, default_threads};
use crate::error::UserError;
use damas::game::Game;
use damas::game::replay::{Notation, play_moves};
use damas::notation::pdn::{self, PdnGame};
use damas::notation::{diagram, fen, moves, svg};
use damas::position::Position;
use damas::rules::{Rules, Variant};
use damas::search::{Engine, Info, InfoSink, Limits, Score, Silent, Value};
use damas::with_variant;
use std::path::Path;
use std::time::Duration;

/// `damas analyze`'s arguments.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The position.
    #[command(flatten)]
    position: PositionArgs,
    /// A file with one PDN FEN per line, each analysed in turn.
    #[arg(long, conflicts_with_all = ["pdn", "fen", "moves"])]
    file: Option<String>,
    /// A PDN file: every move of every game is analysed and annotated, the game's own tags,
    /// comments and variations kept (a game's [GameType] tag chooses its variant unless
    /// --variant is given, else it is guessed from the notation; [FEN] the start).
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
}

/// `damas analyze`: one position (the arguments' or the start), each position of `--file`, or
/// every move of the games of `--pdn`.
pub fn command(args: AnalyzeArgs) -> Result<(), UserError> {
    let variant: Variant = args.position.variant()?;
    if let Some(seconds) = args.time {
        if !(seconds.is_finite() && seconds > 0.0) {
            return Err(UserError("--time must be a positive number of seconds".into()));
        }
    }
    if !(1..=damas::protocol::MAX_MULTIPV).contains(&args.multipv) {
        return Err(UserError(format!(
            "--multipv must be from 1 to {}",
            damas::protocol::MAX_MULTIPV
        )));
    }
    let settings = Settings {
        depth: args.depth,
        seconds: args.time,
        threads: args.threads.unwrap_or_else(default_threads).max(1),
        hash: args.hash.max(1),
        json: args.json,
        multipv: args.multipv,
        svg: args.svg,
        eval: args.eval,
        eval_file: args.eval_file,
        egdb_path: args.egdb_path,
        egdb_cache: args.egdb_cache.max(1),
    };
    if let Some(path) = &args.pdn {
        let given = args.position.variant.is_some().then_some(variant);
        return pdn_file(path, args.game, given, &settings);
    }
    if let Some(path) = &args.file {
        return with_variant!(variant, R => run_file::<R>(path, &settings)).map_err(UserError);
    }
    with_variant!(variant, R => {
        let game = args.position.game::<R>()?;
        run::<R>(game, &settings).map_err(UserError)
    })
}

/// `--pdn`: every game of the file (or game `only`), each in the rule set `given`, else its
/// own (tag or guess, see [`damas::game::replay::rule_set_of`]). A file of several games goes on past a
/// game that cannot be analysed and fails at the end.
fn pdn_file(
    path: &str,
    only: Option<usize>,
    given: Option<Variant>,
    settings: &Settings,
) -> Result<(), UserError> {
    let bytes = damas::bounded::read(Path::new(path), damas::bounded::PDN)?;
    let games = damas::notation::pdn::parse_each(&damas::notation::pdn::decode(&bytes));
    if let Some(n) = only {
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
        if only.is_some_and(|n| n != i + 1) {
            continue;
        }
        if count > 1 && only.is_none() && !settings.json {
            println!("[game {} of {count}]", i + 1);
        }
        let analysed = parsed.map_err(|e| e.to_string()).and_then(|game| {
            let variant = match given {
                Some(variant) => variant,
                None => {
                    let (found, guess) = damas::game::replay::rule_set_of(&game)?;
                    if let Some(guess) = guess {
                        eprintln!("{path}: game {}: {guess}", i + 1);
                    }
                    found
                }
            };
            with_variant!(variant, R => run_pdn::<R>(&game, settings))
        });
        if let Err(error) = analysed {
            if count == 1 || only.is_some() {
                return Err(UserError(error));
            }
            eprintln!("{path}: game {}: {error}", i + 1);
            failed += 1;
        }
    }
    if failed > 0 {
        Err(UserError(format!("{failed} of the {count} games of {path} could not be analysed")))
    } else {
        Ok(())
    }
}

/// What to search and how.
#[derive(Clone, Debug, Default)]
struct Settings {
    /// Depth limit.
    pub depth: Option<u32>,
    /// Time limit in seconds.
    pub seconds: Option<f64>,
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB.
    pub hash: usize,
    /// JSON lines instead of text.
    pub json: bool,
    /// Lines (principal variations) to show.
    pub multipv: usize,
    /// Write an SVG diagram with the best move to this file.
    pub svg: Option<String>,
    /// The evaluation: `default` or `classic`.
    pub eval: String,
    /// A weight file to evaluate with instead.
    pub eval_file: Option<std::path::PathBuf>,
    /// The endgame databases, as the `egdb-path` option takes them (empty: the per-user data
    /// directory where there is one; `none`: none).
    pub egdb_path: String,
    /// Memory for the databases, MiB.
    pub egdb_cache: usize,
}

use damas::notation::moves::line_to_pdn as line;

fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

struct Printer<R: Rules> {
    root: Position<R>,
    json: bool,
    multipv: bool,
}

impl<R: Rules> InfoSink<R> for Printer<R> {
    fn info(&mut self, info: &Info<R>) {
        let pv = line(&self.root, &info.pv);
        let millis = info.time.as_millis().max(1);
        let nps = u128::from(info.nodes) * 1000 / millis;
        if self.json {
            let pv: Vec<String> = pv.iter().map(|m| json_string(m)).collect();
            println!(
                "{{\"type\":\"info\",\"depth\":{},\"multipv\":{},\"seldepth\":{},\"score\":{},\"score_text\":{},\"nodes\":{},\"time_ms\":{},\"nps\":{},\"pv\":[{}]}}",
                info.depth,
                info.multipv,
                info.seldepth,
                info.score.value(),
                json_string(&info.score.to_string()),
                info.nodes,
                info.time.as_millis(),
                nps,
                pv.join(",")
            );
        } else {
            let line = if self.multipv { format!("line {} ", info.multipv) } else { String::new() };
            println!(
                "{line}depth {:>2}/{:<2} score {:>8}  nodes {:>11}  nps {:>9}  time {:>6.2}  pv {}",
                info.depth,
                info.seldepth,
                info.score,
                info.nodes,
                nps,
                info.time.as_secs_f64(),
                pv.join(" ")
            );
        }
    }
}

fn limits(settings: &Settings, default_seconds: f64) -> Limits {
    let seconds =
        settings.seconds.or(if settings.depth.is_none() { Some(default_seconds) } else { None });
    Limits {
        depth: settings.depth,
        move_time: seconds.map(Duration::from_secs_f64),
        analysis: true,
        ..Limits::default()
    }
}

fn engine<R: Rules>(settings: &Settings) -> Result<Engine<R>, String> {
    let evaluator =
        damas::eval::Evaluator::<R>::chosen(&settings.eval, settings.eval_file.as_deref())?;
    let egdb = damas::egdb::open_option::<R>(&settings.egdb_path, settings.egdb_cache, 0)?;
    let config = damas::search::EngineConfig::new(settings.threads, settings.hash)
        .with_evaluator(evaluator)
        .with_egdb(egdb.map(std::sync::Arc::new));
    let mut engine = Engine::<R>::try_with_config(config)?;
    engine.set_multipv(settings.multipv.max(1));
    Ok(engine)
}

/// Analyses `start` and prints the result.
///
/// # Errors
/// The SVG file cannot be written.
fn run<R: Rules>(game: Game<R>, settings: &Settings) -> Result<(), String> {
    let mut engine = engine::<R>(settings)?;
    analyse_one(&mut engine, &game, settings)
}

/// Analyses the current position of `game` (its history counts: repetitions, move counters,
/// Frisian's king-move limit).
fn analyse_one<R: Rules>(
    engine: &mut Engine<R>,
    game: &Game<R>,
    settings: &Settings,
) -> Result<(), String> {
    let start = *game.position();
    if settings.json {
        println!(
            "{{\"type\":\"position\",\"variant\":{},\"fen\":{}}}",
            json_string(R::VARIANT.name()),
            json_string(&fen::write(&start))
        );
    } else {
        print!("{}", diagram::draw(&start));
        println!("FEN {}", fen::write(&start));
    }
    let mut printer = Printer { root: start, json: settings.json, multipv: settings.multipv > 1 };
    let result = engine.go(game, limits(settings, 3.0), false, &mut printer);
    let best = result.best.map(|mv| moves::to_pdn(&start, &mv));
    let pv = line(&start, &result.pv);
    if settings.json {
        let best = best.as_deref().map_or("null".to_string(), json_string);
        let pv: Vec<String> = pv.iter().map(|m| json_string(m)).collect();
        println!(
            "{{\"type\":\"bestmove\",\"move\":{best},\"score\":{},\"score_text\":{},\"depth\":{},\"nodes\":{},\"time_ms\":{},\"pv\":[{}]}}",
            result.score.value(),
            json_string(&result.score.to_string()),
            result.depth,
            result.nodes,
            result.time.as_millis(),
            pv.join(",")
        );
    } else {
        match best {
            Some(best) => println!(
                "best move {best}  ({} for {}, depth {}, {} nodes in {:.2} s)",
                result.score,
                start.side_to_move(),
                result.depth,
                result.nodes,
                result.time.as_secs_f64()
            ),
            None => println!("no legal move: {}", game.outcome()),
        }
    }
    if let Some(path) = &settings.svg {
        let picture = svg::draw(&start, result.best.as_ref());
        std::fs::write(path, picture).map_err(|e| format!("cannot write {path}: {e}"))?;
        if !settings.json {
            println!("diagram written to {path}");
        }
    }
    Ok(())
}

/// Analyses every position of a file: one PDN FEN per line (`#` lines and blank lines skipped).
/// A line that is not a FEN is reported on stderr and skipped.
///
/// # Errors
/// The file cannot be read, or some lines were not positions (after analysing the others).
fn run_file<R: Rules>(path: &str, settings: &Settings) -> Result<(), String> {
    let text = damas::bounded::read_text(Path::new(path), damas::bounded::FENS)?;
    let mut engine = engine::<R>(settings)?;
    let mut bad = 0;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match damas::notation::position::<R>(line) {
            Ok(start) => {
                if !settings.json {
                    println!("\n# {path}:{}", number + 1);
                }
                engine.new_game();
                analyse_one(&mut engine, &Game::new(start), settings)?;
            }
            Err(error) => {
                eprintln!("damas: error: {path}:{}: {error}", number + 1);
                bad += 1;
            }
        }
    }
    if bad > 0 {
        return Err(format!("{bad} line(s) of {path} were not positions"));
    }
    Ok(())
}

/// How much worse than the best move a played move may be before it is marked (hundredths of a
/// man): `?!` dubious, `?` mistake, `??` blunder.
const MARKS: [(Value, &str); 3] = [(200, "??"), (80, "?"), (40, "?!")];

/// Analyses every position of a PDN game and annotates each move with the engine's score, its
/// best move, and a mark when the move played was much worse; prints one line per move, then
/// the annotated game as PDN (or one JSON object per move). The annotated game keeps all that
/// the game had: every tag in its order (an `Annotator` of its own too; damas names itself only
/// where there is none), its comment before the first move, and after each move its strength
/// mark, NAGs, comments and variations as written, damas's comment coming after them.
///
/// # Errors
/// An unreadable FEN tag or an illegal move in the game.
fn run_pdn<R: Rules>(game_text: &PdnGame, settings: &Settings) -> Result<(), String> {
    let start = damas::game::replay::start_of::<R>(game_text)?;
    let mut game = Game::new(start);
    let texts = game_text.moves.iter().map(String::as_str);
    play_moves(&mut game, texts, Notation::PdnFirst).map_err(|e| format!("{e} of the game"))?;
    let played: Vec<_> = game.moves().copied().collect();
    let mut engine = engine::<R>(&Settings { multipv: 1, ..settings.clone() })?;
    let limits = limits(settings, 1.0);
    if settings.json {
        let tags: Vec<String> = game_text
            .tags
            .iter()
            .map(|(key, value)| format!("{}:{}", json_string(key), json_string(value)))
            .collect();
        println!("{{\"type\":\"game\",\"tags\":{{{}}}}}", tags.join(","));
    }
    // Score and best move of every position, the final one included, for the side to move.
    let mut replay = Game::new(start);
    let mut searched = Vec::with_capacity(played.len() + 1);
    for index in 0..=played.len() {
        let result = if replay.legal_moves().is_empty() {
            None
        } else {
            Some(engine.go(&replay, limits, false, &mut Silent))
        };
        searched.push(result);
        if let Some(mv) = played.get(index) {
            replay.play_unchecked(mv);
        }
    }
    // A position without moves (a problem collection's): its best line is the answer.
    if let (true, Some(Some(result))) = (played.is_empty(), searched.first()) {
        let best = result.best.map(|b| moves::to_pdn(&start, &b)).unwrap_or_default();
        let pv = line(&start, &result.pv);
        if settings.json {
            let pv: Vec<String> = pv.iter().map(|m| json_string(m)).collect();
            println!(
                "{{\"type\":\"position\",\"fen\":{},\"best\":{},\"score\":{},\"score_text\":{},\"pv\":[{}]}}",
                json_string(&fen::write(&start)),
                json_string(&best),
                result.score.value(),
                json_string(&result.score.to_string()),
                pv.join(",")
            );
        } else {
            println!("no moves: best {best}  ({})  line {}", result.score, pv.join(" "));
        }
    }
    let mut position = start;
    let mut annotated = Vec::with_capacity(played.len());
    // Move numbers count the rule set's first mover's moves: a game that starts with the other
    // side to move begins `1...`.
    let first_mover = Position::<R>::start().side_to_move();
    let offset = usize::from(start.side_to_move() != first_mover);
    for (index, mv) in played.iter().enumerate() {
        let text = moves::to_pdn(&position, mv);
        let Some(result) = &searched[index] else { break };
        let best_score = result.score.value();
        // The move's own score: the position's when it is the engine's choice too (one move,
        // one score), else the next position's, turned round.
        let after = match &searched[index + 1] {
            _ if result.best == Some(*mv) => best_score,
            Some(next) => -next.score.value(),
            None => best_score,
        };
        let loss = (best_score - after).max(0);
        let mark = MARKS.iter().find(|(limit, _)| loss >= *limit).map_or("", |(_, m)| *m);
        let best = result.best.map(|b| moves::to_pdn(&position, &b)).unwrap_or_default();
        let number = (index + offset) / 2 + 1;
        let first = position.side_to_move() == first_mover;
        if settings.json {
            println!(
                "{{\"type\":\"move\",\"ply\":{},\"move\":{},\"score\":{after},\"best\":{},\"best_score\":{best_score},\"mark\":{}}}",
                index + 1,
                json_string(&text),
                json_string(&best),
                json_string(mark)
            );
        } else {
            let prefix = if first { format!("{number}.") } else { format!("{number}...") };
            println!(
                "{prefix:<6} {:<10} {:>10}   best {:<10} {:>10}",
                format!("{text}{mark}"),
                Score::new(after),
                best,
                Score::new(best_score)
            );
        }
        let mut comment = Score::new(after).to_string();
        if !mark.is_empty() {
            comment.push_str(&format!(", best {best} {}", Score::new(best_score)));
        }
        // The game's own notes first; damas's mark goes on the move unless the game gave it
        // one (`!`, `?`), then at the head of damas's comment.
        let own = game_text.notes.get(index).map_or(&[][..], Vec::as_slice);
        let own_mark = own.first().is_some_and(|note| pdn::is_mark(note));
        let mut notes = Vec::with_capacity(own.len() + 2);
        if !mark.is_empty() {
            if own_mark {
                comment = format!("{mark} {comment}");
            } else {
                notes.push(mark.to_string());
            }
        }
        notes.extend(own.iter().cloned());
        notes.push(format!("{{{comment}}}"));
        annotated.push((text, notes));
        position.play(mv);
    }
    if !settings.json {
        // The game's own tags, with damas as the annotator where the game names none.
        let mut tags = game_text.tags.clone();
        if game_text.tag("Annotator").is_none() {
            tags.push(("Annotator".into(), format!("damas {}", env!("CARGO_PKG_VERSION"))));
        }
        let result = game_text.result.as_deref().unwrap_or("*");
        println!();
        let written = pdn::write_game(&tags, &game_text.intro, &annotated, result, offset == 1);
        print!("{written}");
        println!("final position: {}", game.outcome());
    }
    Ok(())
}
