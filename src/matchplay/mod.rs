//! `damas match`: a tournament manager in the manner of cutechess-cli and fastchess, for every
//! rule set. Engines are Hub programs (another damas build, Scan, any Hub engine), DXP programs
//! for 10x10, or damas's built-in players; they meet in a round robin or a gauntlet, each
//! opening played twice with colours reversed, several games at a time. The referee is the
//! game layer; every game goes to a PDN file; the report gives the Elo with its interval, the
//! pentanomial counts of game pairs and, with `--sprt`, the generalized SPRT, which can end the
//! match early.
//!
//! Submodules: `tc` (time controls, clocks), `engine` (engine words), `player` (what a player
//! is; the built-in one), `hub_player` and `dxp_player` (engines in other processes), `referee`
//! (one game), `openings`, `stats` (Elo, pentanomial, SPRT), `results` (the results file of a
//! match or of one shard of it, and their merge). Progress goes to an [`Observer`]; drawing it
//! is the command line's business.

pub mod dxp_player;
pub mod engine;
pub mod hub_player;
pub mod openings;
pub mod player;
pub mod referee;
pub mod results;
pub mod stats;
pub mod tc;

use crate::board::types::Side;
use crate::egdb::Egdb;
use crate::game::GameRules;
use crate::notation::{fen, moves, pdn};
use crate::position::Position;
use crate::rules::Rules;
use crate::shard::Shard;
use engine::{EngineSpec, Kind};
use player::{Builtin, Failure, Player};
use referee::{Adjudication, GameRecord, GameResult, Seat, Termination};
use stats::{Pentanomial, Sprt, SprtState, Trinomial};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::{Duration, Instant};
use tc::TimeControl;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// The draw rules the referee applies.
pub use crate::game::rules::DrawRuleSet;

/// Everything about a match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The engines, two or more.
    pub engines: Vec<EngineSpec>,
    /// The time control of engines without their own.
    pub tc: TimeControl,
    /// Games per pairing of two engines (rounded up to pairs).
    pub games: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// The openings file's contents and name (random two-ply openings without one).
    pub openings: Option<(String, String)>,
    /// Play the openings in a random order (from `seed`) rather than as listed.
    pub shuffle: bool,
    /// Seed of the random openings and of the shuffle.
    pub seed: u64,
    /// Where to write the games, PDN.
    pub pdn: Option<String>,
    /// The sequential test, for a match of two engines.
    pub sprt: Option<Sprt>,
    /// How games are adjudicated.
    pub adjudication: Adjudication,
    /// How long an engine may take to start, answer the handshake and accept a game.
    pub handshake: Duration,
    /// Endgame databases to adjudicate from: a game ends as soon as they hold its position.
    pub egdb_path: Option<std::path::PathBuf>,
    /// The draw rules of the games.
    pub draw_rules: DrawRuleSet,
    /// Who plays whom.
    pub pairing: Pairing,
    /// PDN's Event tag.
    pub event: String,
    /// The part of the match's game pairs this process plays (`--shard K/N`); the shards'
    /// results files merge into the whole match's report ([`results::merge`]).
    pub shard: Shard,
    /// Where to write each game's result for [`results::merge`] (written beside, then renamed
    /// into place when the match ends, so that a file there is a finished one).
    pub results: Option<String>,
}

impl MatchSettings {
    /// Game pairs each pairing plays: the games asked for, rounded up to pairs.
    pub fn pairs_per_pairing(&self) -> u32 {
        self.games.max(1).div_ceil(2)
    }
}

/// A game has ended: what the observer of a match is told.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Games finished so far.
    pub finished: u32,
    /// Games in the match (the most that will be played).
    pub total: u32,
    /// A line about the game: `game 12: a - b 1-0 (normal: ...)`.
    pub line: String,
    /// The score so far of the first pairing, from its first engine's side: `+3 =10 -2`,
    /// Elo, and the SPRT's log-likelihood ratio.
    pub standing: String,
}

/// Receives a match's progress.
pub trait Observer {
    /// The match starts with `total` games at most.
    fn started(&mut self, total: u32);
    /// A game ended.
    fn finished(&mut self, report: &GameReport);
}

/// An observer that ignores everything.
pub struct Quiet;

impl Observer for Quiet {
    fn started(&mut self, _total: u32) {}
    fn finished(&mut self, _report: &GameReport) {}
}

/// The results between two engines, from the first one's side.
#[derive(Clone, Debug, Default)]
pub struct PairingResult {
    /// Indexes of the two engines.
    pub engines: (usize, usize),
    /// Wins, draws, losses of the first.
    pub games: Trinomial,
    /// Game pairs by the first's points.
    pub pairs: Pentanomial,
    /// The SPRT's log-likelihood ratio and state, when one is run (at the decision, if made).
    pub sprt: Option<(f64, SprtState)>,
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Engine names, in the order given.
    pub names: Vec<String>,
    /// One entry per pairing.
    pub pairings: Vec<PairingResult>,
    /// Games ended by each cause.
    pub terminations: BTreeMap<Termination, u32>,
    /// Wins, draws and losses of the side to move in the opening position, whoever played it:
    /// how balanced the openings are when an engine plays itself.
    pub opener: Trinomial,
    /// The SPRT settings, if any.
    pub sprt: Option<Sprt>,
    /// Wall time of the match.
    pub elapsed: Duration,
    /// Games played.
    pub played: u32,
}

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Job {
    /// Index into the pairings.
    pairing: usize,
    /// Which pair of games of the pairing (and which opening).
    pair: u32,
    /// The pairing's first engine plays the opening's side to move.
    first_moves_first: bool,
    /// Game number in the match, from 1.
    round: u32,
}

/// What the tally keeps of a game: which it was, the points of its pairing's first engine and
/// how it ended (what a results file holds, [`results`]).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Outcome {
    job: Job,
    points: f64,
    termination: Termination,
}

/// A game played, as the workers hand it back.
struct Played<R: Rules> {
    job: Job,
    /// Engine indexes of the two sides.
    white: usize,
    black: usize,
    record: GameRecord<R>,
}

/// Starts the player `spec` describes.
fn start_player<R: Rules>(
    spec: &EngineSpec,
    control: TimeControl,
    handshake: Duration,
) -> Result<Box<dyn Player<R>>, Failure> {
    let option =
        |name: &str| spec.options.iter().find(|(key, _)| key == name).map(|(_, v)| v.as_str());
    let number = |name: &str, default: usize| -> Result<usize, Failure> {
        option(name).map_or(Ok(default), |text| {
            text.parse()
                .map_err(|_| Failure::Protocol(format!("option.{name}={text} is not a number")))
        })
    };
    match &spec.kind {
        Kind::Builtin { greedy } => {
            let level = option("level").and_then(|text| text.parse().ok());
            Ok(Box::new(Builtin::<R>::new(
                *greedy,
                number("threads", 1)?.max(1),
                number("hash", 16)?.max(1),
                level,
            )))
        }
        Kind::Hub { command } => Ok(Box::new(hub_player::HubPlayer::start(
            &spec.name,
            command,
            spec.dir.as_deref(),
            &spec.options,
            R::VARIANT,
            handshake,
        )?)),
        Kind::Dxp { command, address, listen } => Ok(Box::new(dxp_player::DxpPlayer::start::<R>(
            &spec.name,
            command,
            spec.dir.as_deref(),
            address,
            *listen,
            control,
            handshake,
        )?)),
    }
}

/// The pairings of `engines` engines.
fn pairings(engines: usize, pairing: Pairing) -> Vec<(usize, usize)> {
    match pairing {
        Pairing::Gauntlet => (1..engines).map(|other| (0, other)).collect(),
        Pairing::RoundRobin => {
            (0..engines).flat_map(|a| (a + 1..engines).map(move |b| (a, b))).collect()
        }
    }
}

/// Today's date as PDN writes it, `YYYY.MM.DD` (UTC).
fn pdn_date() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs() / 86_400) as i64;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The PDN text of a game: the tags, each move with its time and the score its engine
/// reported (`{+0.35/7 0.101s}`), and a comment saying why the game ended.
fn game_pdn<R: Rules>(
    settings: &MatchSettings,
    played: &Played<R>,
    controls: &[TimeControl],
) -> String {
    let record = &played.record;
    let result = referee::result_text::<R>(record.result);
    let names = |index: usize| settings.engines[index].name.clone();
    let control = if controls[played.white] == controls[played.black] {
        controls[played.white].to_string()
    } else {
        format!("{} / {}", controls[played.white], controls[played.black])
    };
    let mut tags = vec![
        ("Event".to_string(), settings.event.clone()),
        ("Site".to_string(), "damas match".to_string()),
        ("Date".to_string(), pdn_date()),
        ("Round".to_string(), played.job.round.to_string()),
        ("White".to_string(), names(played.white)),
        ("Black".to_string(), names(played.black)),
        ("Result".to_string(), result.to_string()),
    ];
    if let Some(number) = R::VARIANT.pdn_game_type() {
        tags.push(("GameType".to_string(), number.to_string()));
    }
    tags.push(("FEN".to_string(), fen::write(&record.start)));
    tags.push(("TimeControl".to_string(), control));
    tags.push(("Termination".to_string(), record.termination.as_str().to_string()));
    let mut position = record.start;
    let mut written: Vec<(String, Option<String>)> = Vec::with_capacity(record.moves.len() + 1);
    for played_move in &record.moves {
        let text = moves::to_pdn(&position, &played_move.mv);
        let mut comment = String::new();
        if let Some(score) = played_move.score {
            let _ = write!(comment, "{score:+.2}/{} ", played_move.depth.unwrap_or(0));
        }
        let _ = write!(comment, "{:.3}s", played_move.took.as_secs_f64());
        written.push((text, Some(comment)));
        position.play(&played_move.mv);
    }
    let mut text = pdn::write(&tags, &written, result);
    // The reason, as a comment before the result: insert it after the last move.
    if let Some(at) = text.rfind(result) {
        text.insert_str(at, &format!("{{{}}} ", record.reason.replace('}', ")")));
    }
    text
}

/// A line about a finished game, for the observer: `game 3: a (white) - b (black): b wins,
/// 1-0 (normal: ..., 43 plies)`.
fn game_line<R: Rules>(settings: &MatchSettings, played: &Played<R>) -> String {
    let record = &played.record;
    let name = |index: usize| &settings.engines[index].name;
    let outcome = match record.result {
        GameResult::Draw => "draw".to_string(),
        GameResult::Win(Side::White) => format!("{} wins", name(played.white)),
        GameResult::Win(Side::Black) => format!("{} wins", name(played.black)),
    };
    format!(
        "game {}: {} (white) - {} (black): {outcome}, {} ({}: {}, {} plies)",
        played.job.round,
        name(played.white),
        name(played.black),
        referee::result_text::<R>(record.result),
        record.termination.as_str(),
        record.reason,
        record.moves.len()
    )
}

/// What the tally keeps of a game played by the engines of `pairing`.
fn outcome_of<R: Rules>(pairing: (usize, usize), played: &Played<R>) -> Outcome {
    let points = match played.record.result {
        GameResult::Draw => 0.5,
        GameResult::Win(side) => {
            let winner = if side == Side::White { played.white } else { played.black };
            if winner == pairing.0 { 1.0 } else { 0.0 }
        }
    };
    Outcome { job: played.job, points, termination: played.record.termination }
}

/// Plays the match `settings` describes, reporting each game to `observer` as it ends.
///
/// Its parts: the settings checked ([`check`]) and every engine started once
/// ([`check_players`]); the games laid out as jobs ([`schedule`]), each opening twice with
/// colours reversed; `concurrency` workers playing them ([`play_jobs`]) while this thread adds
/// up their results ([`Tally`]), writes each game's PDN and stops early when the SPRT decides.
///
/// # Errors
/// Settings that cannot make a match, an engine that cannot start, openings or databases
/// that cannot be read, a PDN file that cannot be written.
pub fn run<R: Rules>(
    settings: &MatchSettings,
    observer: &mut dyn Observer,
) -> Result<MatchReport, String> {
    check(settings)?;
    let controls: Vec<TimeControl> =
        settings.engines.iter().map(|spec| spec.tc.unwrap_or(settings.tc)).collect();
    let pairs_per_pairing = settings.pairs_per_pairing();
    let opening_list = openings_of::<R>(settings, pairs_per_pairing as usize)?;
    check_players::<R>(settings, &controls)?;
    let egdb = match &settings.egdb_path {
        Some(dir) => Some(adjudicating_egdb::<R>(dir)?),
        None => None,
    };
    let mut pdn_file = match &settings.pdn {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot write {path}: {e}"))?,
        ),
        None => None,
    };
    let pairing_list = pairings(settings.engines.len(), settings.pairing);
    let mut results_file = match &settings.results {
        Some(path) => Some(results::Writer::create(path, &results::header::<R>(settings))?),
        None => None,
    };
    let jobs = schedule(pairs_per_pairing, pairing_list.len(), settings.shard);
    let total = jobs.len() as u32;
    let work = Work {
        settings,
        jobs: Mutex::new(jobs),
        stop: AtomicBool::new(false),
        controls: &controls,
        pairing_list: &pairing_list,
        opening_list: &opening_list,
        rules: GameRules::chosen::<R>(settings.draw_rules, true),
        egdb: egdb.as_ref(),
    };
    let mut tally = Tally::new(&pairing_list);
    let started = Instant::now();
    observer.started(total);
    let mut write_error = None;
    std::thread::scope(|scope| {
        let (sender, receiver) = channel::<Played<R>>();
        for _ in 0..settings.concurrency.max(1) {
            let (work, sender) = (&work, sender.clone());
            scope.spawn(move || play_jobs(work, &sender));
        }
        drop(sender);
        for played in receiver {
            let outcome = outcome_of(pairing_list[played.job.pairing], &played);
            match tally.add(outcome, settings.sprt.as_ref()) {
                None => continue,
                Some(true) => work.stop.store(true, Ordering::Relaxed),
                Some(false) => {}
            }
            if let Some(file) = &mut results_file {
                if let Err(e) = file.game(&outcome) {
                    write_error.get_or_insert(e);
                    work.stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(file) = &mut pdn_file {
                let text = game_pdn(settings, &played, &controls);
                if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                    write_error.get_or_insert(format!("cannot write the PDN file: {e}"));
                    work.stop.store(true, Ordering::Relaxed);
                }
            }
            observer.finished(&GameReport {
                finished: tally.played,
                total,
                line: game_line(settings, &played),
                standing: standing(&tally.results[0], settings.sprt.as_ref()),
            });
        }
    });
    if let Some(error) = write_error {
        return Err(error);
    }
    if let Some(file) = results_file {
        file.finish(started.elapsed())?;
    }
    Ok(MatchReport {
        names: settings.engines.iter().map(|spec| spec.name.clone()).collect(),
        pairings: tally.results,
        terminations: tally.terminations,
        opener: tally.opener,
        sprt: settings.sprt,
        elapsed: started.elapsed(),
        played: tally.played,
    })
}

/// The settings that cannot make a match.
fn check(settings: &MatchSettings) -> Result<(), String> {
    let engines = settings.engines.len();
    if engines < 2 {
        return Err("a match needs two engines or more (--engine ... --engine ...)".into());
    }
    if settings.sprt.is_some() && engines != 2 {
        return Err("--sprt tests one engine against another: give exactly two".into());
    }
    if settings.sprt.is_some() && settings.shard.count > 1 {
        return Err("a shard plays all its pairs: the SPRT of a sharded match is decided by \
             `damas match merge --sprt ...` over the shards' results files"
            .into());
    }
    // Games played at once each start their own engine; one that connects to a fixed address,
    // or listens on a fixed port, would be one engine (or one port) shared by two games. With
    // `listen=HOST:0` every game's player binds a port of its own and tells the engine it.
    let shared_address = settings.engines.iter().any(|spec| match &spec.kind {
        Kind::Dxp { address, listen, .. } => !(*listen && address.ends_with(":0")),
        Kind::Hub { .. } | Kind::Builtin { .. } => false,
    });
    if shared_address && settings.concurrency > 1 {
        return Err("a DXP engine reached at one address plays one game at a time: use \
             --concurrency 1, or let each game's engine connect to a port of its own with \
             listen=127.0.0.1:0 and {address} in its cmd="
            .into());
    }
    Ok(())
}

/// The match's start positions: the openings file's, or `pairs` random ones; shuffled if
/// asked.
fn openings_of<R: Rules>(
    settings: &MatchSettings,
    pairs: usize,
) -> Result<Vec<Position<R>>, String> {
    let mut list = match &settings.openings {
        Some((text, name)) => openings::read::<R>(text, name)?,
        None => openings::random::<R>(pairs, settings.seed),
    };
    if settings.shuffle {
        openings::shuffle(&mut list, settings.seed);
    }
    Ok(list)
}

/// Every engine started once, before any game: a wrong path is one clear error, not a match
/// of forfeits. (A DXP engine is reached when its first game starts.)
fn check_players<R: Rules>(
    settings: &MatchSettings,
    controls: &[TimeControl],
) -> Result<(), String> {
    for (spec, control) in settings.engines.iter().zip(controls) {
        if !matches!(spec.kind, Kind::Dxp { .. }) {
            start_player::<R>(spec, *control, settings.handshake)
                .map_err(|e| format!("engine {}: {e}", spec.name))?;
        }
    }
    Ok(())
}

/// The match's games in the order they are handed out: game pair by game pair, each pairing's
/// pair in turn, each opening with one engine first and then the other; only `shard`'s pairs,
/// numbered as in the whole match.
fn schedule(pairs_per_pairing: u32, pairings: usize, shard: Shard) -> VecDeque<Job> {
    let mut jobs = VecDeque::new();
    let mut round = 0;
    for pair in 0..pairs_per_pairing {
        for pairing in 0..pairings {
            for first_moves_first in [true, false] {
                round += 1;
                if shard.has(pair) {
                    jobs.push_back(Job { pairing, pair, first_moves_first, round });
                }
            }
        }
    }
    jobs
}

/// What the workers share: the jobs left, the stop flag, and what every game needs.
struct Work<'a, R: Rules> {
    settings: &'a MatchSettings,
    jobs: Mutex<VecDeque<Job>>,
    stop: AtomicBool,
    controls: &'a [TimeControl],
    pairing_list: &'a [(usize, usize)],
    opening_list: &'a [Position<R>],
    rules: GameRules,
    egdb: Option<&'a Egdb<R>>,
}

/// One worker: takes jobs until there are none or the match stops, plays each with the
/// players it keeps running between games, and sends each game back.
fn play_jobs<R: Rules>(work: &Work<'_, R>, sender: &Sender<Played<R>>) {
    let mut live: HashMap<usize, Box<dyn Player<R>>> = HashMap::new();
    while !work.stop.load(Ordering::Relaxed) {
        let Some(job) = work.jobs.lock().ok().and_then(|mut queue| queue.pop_front()) else {
            break;
        };
        let (a, b) = work.pairing_list[job.pairing];
        let start = work.opening_list[job.pair as usize % work.opening_list.len()];
        let a_side =
            if job.first_moves_first { start.side_to_move() } else { !start.side_to_move() };
        let (white, black) = if a_side == Side::White { (a, b) } else { (b, a) };
        let record = play_one(
            work.settings,
            start,
            work.rules.clone(),
            (white, black),
            work.controls,
            &mut live,
            work.egdb,
        );
        if sender.send(Played { job, white, black, record }).is_err() {
            break;
        }
    }
}

/// The match's results so far: per pairing the games and the game pairs (and the SPRT's
/// state), the ways games ended, and the first game of each pair still waiting for its twin.
struct Tally {
    results: Vec<PairingResult>,
    terminations: BTreeMap<Termination, u32>,
    opener: Trinomial,
    first_of_pair: HashMap<(usize, u32), f64>,
    played: u32,
}

impl Tally {
    fn new(pairing_list: &[(usize, usize)]) -> Self {
        Tally {
            results: pairing_list
                .iter()
                .map(|&engines| PairingResult { engines, ..PairingResult::default() })
                .collect(),
            terminations: BTreeMap::new(),
            opener: Trinomial::default(),
            first_of_pair: HashMap::new(),
            played: 0,
        }
    }

    /// Adds a game and says whether `sprt` has just decided (the match should stop); `None`
    /// for a game that ends after the decision, which is not counted: the report is the same
    /// however many games were still being played when it came ([`results::merge`] relies on
    /// it).
    fn add(&mut self, outcome: Outcome, sprt: Option<&Sprt>) -> Option<bool> {
        let decided = |result: &PairingResult| {
            matches!(result.sprt, Some((_, SprtState::AcceptH0 | SprtState::AcceptH1)))
        };
        if sprt.is_some() && decided(&self.results[outcome.job.pairing]) {
            return None;
        }
        self.played += 1;
        *self.terminations.entry(outcome.termination).or_insert(0) += 1;
        let pairing = &mut self.results[outcome.job.pairing];
        let points = outcome.points;
        pairing.games.add(points);
        self.opener.add(if outcome.job.first_moves_first { points } else { 1.0 - points });
        let key = (outcome.job.pairing, outcome.job.pair);
        let Some(first) = self.first_of_pair.remove(&key) else {
            self.first_of_pair.insert(key, points);
            return Some(false);
        };
        pairing.pairs.add_pair(first, points);
        let Some(sprt) = sprt else {
            return Some(false);
        };
        let (llr, state) = sprt.state(&pairing.pairs);
        pairing.sprt = Some((llr, state));
        Some(state != SprtState::Continue)
    }
}

/// Plays one game between engines `white` and `black`, starting them if they are not running
/// in this worker, and drops a player that failed so that its next game starts it afresh.
fn play_one<R: Rules>(
    settings: &MatchSettings,
    start: Position<R>,
    rules: GameRules,
    (white, black): (usize, usize),
    controls: &[TimeControl],
    live: &mut HashMap<usize, Box<dyn Player<R>>>,
    egdb: Option<&Egdb<R>>,
) -> GameRecord<R> {
    for (side, index) in [(Side::White, white), (Side::Black, black)] {
        if live.contains_key(&index) {
            continue;
        }
        match start_player::<R>(&settings.engines[index], controls[index], settings.handshake) {
            Ok(player) => {
                live.insert(index, player);
            }
            Err(failure) => {
                let termination = match failure {
                    Failure::Stalled(_) => Termination::StalledConnection,
                    _ => Termination::Abandoned,
                };
                return GameRecord {
                    start,
                    moves: Vec::new(),
                    result: GameResult::Win(!side),
                    termination,
                    reason: format!(
                        "{} could not be started: {failure}",
                        settings.engines[index].name
                    ),
                    failed: Some(side),
                };
            }
        }
    }
    let (Some(mut white_player), Some(mut black_player)) =
        (live.remove(&white), live.remove(&black))
    else {
        unreachable!("both players were started above");
    };
    let record = referee::play(
        start,
        rules,
        Seat { player: white_player.as_mut(), control: controls[white] },
        Seat { player: black_player.as_mut(), control: controls[black] },
        &settings.adjudication,
        egdb,
    );
    let failed = record.failed.map(|side| if side == Side::White { white } else { black });
    if failed != Some(white) {
        live.insert(white, white_player);
    }
    if failed != Some(black) {
        live.insert(black, black_player);
    }
    record
}

/// The databases in `dir` (or its directory of this rule set), for adjudication: every file
/// must pass its checks, and there must be some.
fn adjudicating_egdb<R: Rules>(dir: &std::path::Path) -> Result<Egdb<R>, String> {
    let dir = crate::egdb::variant_dir(dir, R::VARIANT);
    let memory = crate::egdb::DEFAULT_MEMORY_MB << 20;
    let (egdb, refused) =
        Egdb::<R>::open(&dir, memory, None).map_err(|e| format!("--egdb-path: {e}"))?;
    if let Some(error) = refused.first() {
        return Err(format!("--egdb-path: {error}"));
    }
    if egdb.max_pieces() == 0 {
        return Err(format!(
            "--egdb-path: no {} endgame databases in {}",
            R::VARIANT.name(),
            dir.display()
        ));
    }
    Ok(egdb)
}

/// `+3 =10 -2, Elo +23 ± 40, LLR 0.41`: the first pairing so far.
fn standing(result: &PairingResult, sprt: Option<&Sprt>) -> String {
    let games = &result.games;
    let mut text = format!("+{} ={} -{}", games.wins, games.draws, games.losses);
    if let Some(elo) = games.elo() {
        if elo.value.is_finite() {
            let _ = write!(text, ", Elo {:+.1} ± {:.1}", elo.value, elo.margin());
        }
    }
    if sprt.is_some() {
        if let Some((llr, _)) = result.sprt {
            let _ = write!(text, ", LLR {llr:.2}");
        }
    }
    text
}

fn estimate_text(estimate: Option<stats::Estimate>) -> String {
    match estimate {
        Some(estimate) if estimate.value.is_finite() && estimate.margin().is_finite() => {
            format!("{:+.1} ± {:.1}", estimate.value + 0.0, estimate.margin())
        }
        Some(estimate) if estimate.value > 0.0 => "+inf (every game won)".to_string(),
        Some(_) => "-inf (every game lost)".to_string(),
        None => "-".to_string(),
    }
}

impl std::fmt::Display for MatchReport {
    /// The table of engines, then each pairing with its pentanomial counts and the SPRT, then
    /// how the games ended.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{} games in {:.1} s", self.played, self.elapsed.as_secs_f64())?;
        writeln!(
            f,
            "{:<4} {:<24} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7}  Elo (95%)",
            "rank", "engine", "games", "won", "drawn", "lost", "score", "draws"
        )?;
        let mut totals: Vec<(usize, Trinomial)> =
            (0..self.names.len()).map(|index| (index, Trinomial::default())).collect();
        for pairing in &self.pairings {
            let (a, b) = pairing.engines;
            let games = pairing.games;
            let first = &mut totals[a].1;
            first.wins += games.wins;
            first.draws += games.draws;
            first.losses += games.losses;
            let second = &mut totals[b].1;
            second.wins += games.losses;
            second.draws += games.draws;
            second.losses += games.wins;
        }
        totals.sort_by(|x, y| {
            y.1.score().partial_cmp(&x.1.score()).unwrap_or(std::cmp::Ordering::Equal)
        });
        for (rank, (index, games)) in totals.iter().enumerate() {
            let score = if games.games() > 0 {
                format!("{:.1}%", 100.0 * games.score())
            } else {
                "-".into()
            };
            let draws = if games.games() > 0 {
                format!("{:.1}%", 100.0 * games.draw_ratio())
            } else {
                "-".into()
            };
            writeln!(
                f,
                "{:<4} {:<24} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7}  {}",
                rank + 1,
                self.names[*index],
                games.games(),
                games.wins,
                games.draws,
                games.losses,
                score,
                draws,
                estimate_text(games.elo())
            )?;
        }
        for pairing in &self.pairings {
            let (a, b) = pairing.engines;
            let games = pairing.games;
            writeln!(f)?;
            writeln!(
                f,
                "{} vs {}: +{} ={} -{}, Elo {}, normalized Elo {}",
                self.names[a],
                self.names[b],
                games.wins,
                games.draws,
                games.losses,
                estimate_text(pairing.pairs.elo()),
                estimate_text(pairing.pairs.normalized_elo())
            )?;
            let counts = pairing.pairs.counts;
            writeln!(
                f,
                "  game pairs by {}'s points (0, 0.5, 1, 1.5, 2): {} {} {} {} {}",
                self.names[a], counts[0], counts[1], counts[2], counts[3], counts[4]
            )?;
            if let (Some(sprt), Some((llr, state))) = (&self.sprt, pairing.sprt) {
                let (lower, upper) = sprt.bounds();
                let verdict = match state {
                    SprtState::Continue => "no decision yet".to_string(),
                    SprtState::AcceptH0 => {
                        format!("H0 accepted: {} is not {} Elo stronger", self.names[a], sprt.elo1)
                    }
                    SprtState::AcceptH1 => format!(
                        "H1 accepted: {} is stronger by {} Elo or more",
                        self.names[a], sprt.elo0
                    ),
                };
                writeln!(
                    f,
                    "  SPRT elo0={} elo1={} ({}) alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}): {}",
                    sprt.elo0,
                    sprt.elo1,
                    match sprt.model {
                        stats::EloModel::Logistic => "logistic",
                        stats::EloModel::Normalized => "normalized",
                    },
                    sprt.alpha,
                    sprt.beta,
                    llr,
                    lower,
                    upper,
                    verdict
                )?;
            }
        }
        writeln!(f)?;
        let ends: Vec<String> = Termination::ALL
            .iter()
            .filter_map(|t| self.terminations.get(t).map(|count| format!("{} {count}", t.as_str())))
            .collect();
        writeln!(f, "terminations: {}", ends.join(", "))?;
        let opener = self.opener;
        writeln!(
            f,
            "the openings' side to move: +{} ={} -{}, {:.1}%",
            opener.wins,
            opener.draws,
            opener.losses,
            100.0 * opener.score()
        )
    }
}
