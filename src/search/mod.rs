//! The engine façade: `go(game, limits, sink)`, `stop`, `ponder_hit`, `new_game`, options.
//! Lazy SMP: N threads search the same root, sharing one lock-free transposition table, one
//! stop flag and a node counter; only the main thread reads the clock, and its result is the
//! engine's move. The search reports through an [`InfoSink`]; it never prints.
//!
//! Depends on the rules library, `game` and `eval`; must not depend on protocols or I/O.

pub mod alphabeta;
pub mod time;
pub mod tt;
mod tt_memory;

pub use alphabeta::{History, MAX_PLY, Searcher, WIN, WIN_BOUND};
pub use time::{Limits, TimeManager};
pub use tt::TranspositionTable;

use crate::game::Game;
use crate::position::MoveOf;
use crate::rules::Rules;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A score in hundredths of a man, from the side to move's point of view.
pub type Score = i32;

/// Flags shared by the searching threads and whoever controls them.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to stop every thread at once.
    pub stop: AtomicBool,
    /// Set while pondering: the clock does not run.
    pub ponder: AtomicBool,
    /// Set by `ponder_hit`; the main thread restarts its clock.
    pub ponder_hit: AtomicBool,
    /// Nodes searched by all threads (updated every 1024 nodes per thread).
    pub nodes: AtomicU64,
    /// Positions some thread is searching right now.
    pub busy: Busy,
}

/// A small lossy set of the positions (hashes) threads are searching now: a slot per hash
/// bucket, overwritten freely. A false answer costs a little duplicated work, nothing more.
#[derive(Debug)]
pub struct Busy(Box<[AtomicU64]>);

impl Default for Busy {
    fn default() -> Self {
        Busy((0..1 << 14).map(|_| AtomicU64::new(0)).collect())
    }
}

impl Busy {
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.0[(key as usize) & (self.0.len() - 1)]
    }

    /// True when some thread has entered `key` and not left it.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` as being searched.
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Unmarks `key` (if no other position took its slot meanwhile).
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

impl Control {
    /// Clears the flags for a new search (`ponder`: the clock waits for a ponder hit).
    pub fn prepare(&self, ponder: bool) {
        self.stop.store(false, Ordering::Relaxed);
        self.ponder.store(ponder, Ordering::Relaxed);
        self.ponder_hit.store(false, Ordering::Relaxed);
        self.nodes.store(0, Ordering::Relaxed);
    }

    /// Stops every searching thread; the search still returns its best move so far.
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the expected move: the ponder search goes on with the clock running.
    pub fn hit(&self) {
        if self.ponder.swap(false, Ordering::Relaxed) {
            self.ponder_hit.store(true, Ordering::Relaxed);
        }
    }
}

/// Progress of a search, reported after each completed iteration.
#[derive(Clone, Debug)]
pub struct Info<R: Rules> {
    /// Depth completed.
    pub depth: u32,
    /// Which line this is (1 = the best) when several are searched.
    pub multipv: usize,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Mean ply of the evaluated leaves (the main thread's).
    pub mean_depth: f64,
    /// Score for the side to move.
    pub score: Score,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search began.
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<MoveOf<R>>,
}

/// Receives the search's reports.
pub trait InfoSink<R: Rules> {
    /// A completed iteration.
    fn info(&mut self, info: &Info<R>);
}

/// A sink that drops everything.
pub struct Silent;

impl<R: Rules> InfoSink<R> for Silent {
    fn info(&mut self, _info: &Info<R>) {}
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<R: Rules> {
    /// The move to play (None when there is no legal move).
    pub best: Option<MoveOf<R>>,
    /// The expected reply, for pondering.
    pub ponder: Option<MoveOf<R>>,
    /// Score for the side to move.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<MoveOf<R>>,
}

/// A searching engine for rule set `R`.
pub struct Engine<R: Rules> {
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    searchers: Vec<Mutex<Searcher<R>>>,
    multipv: usize,
    level: u32,
    /// Varies a weakened engine's choices from one move to the next.
    draws: u64,
}

impl<R: Rules> Engine<R> {
    /// An engine with `threads` search threads and a `hash_mb` MiB transposition table.
    pub fn new(threads: usize, hash_mb: usize) -> Self {
        let mut engine = Engine {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            control: Arc::new(Control::default()),
            searchers: Vec::new(),
            multipv: 1,
            level: MAX_LEVEL,
            draws: 0,
        };
        engine.set_threads(threads);
        engine
    }

    /// Sets the number of search threads (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        self.searchers.truncate(threads);
        while self.searchers.len() < threads {
            let main = self.searchers.is_empty();
            self.searchers.push(Mutex::new(Searcher::new(main)));
        }
    }

    /// Sets how many principal variations the main thread searches and reports (the best move
    /// is the first line's).
    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.max(1);
    }

    /// Sets the playing strength, 1 (weakest) to [`MAX_LEVEL`] (full strength, the default).
    /// Below it the engine searches no deeper than `1 + level/2` plies and picks among its best
    /// four lines, preferring better ones, with a tolerance that grows as the level drops.
    pub fn set_level(&mut self, level: u32) {
        self.level = level.clamp(1, MAX_LEVEL);
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.searchers.len()
    }

    /// Resizes the transposition table (its contents are lost).
    pub fn set_hash(&mut self, hash_mb: usize) {
        self.tt = Arc::new(TranspositionTable::new(hash_mb));
    }

    /// Forgets everything learnt: a new game.
    pub fn new_game(&mut self) {
        self.tt.clear();
        for searcher in &self.searchers {
            if let Ok(mut searcher) = searcher.lock() {
                searcher.new_game();
            }
        }
    }

    /// The shared flags, for stopping a search from another thread.
    pub fn control(&self) -> Arc<Control> {
        Arc::clone(&self.control)
    }

    /// Stops the running search; `go` returns its best move so far.
    pub fn stop(&self) {
        self.control.request_stop();
    }

    /// The opponent played the expected move: the ponder search goes on as a normal search
    /// with the clock starting now.
    pub fn ponder_hit(&self) {
        self.control.hit();
    }

    /// Searches the game's current position within `limits`, reporting to `sink`. With `ponder`
    /// the clock does not run until [`Engine::ponder_hit`].
    pub fn go(
        &mut self,
        game: &Game<R>,
        limits: Limits,
        ponder: bool,
        sink: &mut dyn InfoSink<R>,
    ) -> SearchResult<R> {
        self.control.prepare(ponder);
        self.go_prepared(game, limits, sink)
    }

    /// [`Engine::go`] after the caller has prepared the flags with [`Control::prepare`]: a stop
    /// that arrives before the search starts is not lost.
    pub fn go_prepared(
        &mut self,
        game: &Game<R>,
        limits: Limits,
        sink: &mut dyn InfoSink<R>,
    ) -> SearchResult<R> {
        let started = Instant::now();
        let root = *game.position();
        let legal = game.legal_moves();
        let control = &*self.control;
        let ponder = control.ponder.load(Ordering::Relaxed);
        if legal.is_empty() {
            return SearchResult {
                best: None,
                ponder: None,
                score: -WIN,
                depth: 0,
                nodes: 0,
                time: started.elapsed(),
                pv: Vec::new(),
            };
        }
        self.tt.new_search();
        let history = History {
            hashes: game.repetition_candidates().collect(),
            reversible: game.reversible_plies(),
            reversible_limit: game.rules().draws.reversible_plies,
            repetitions: game.rules().draws.repetitions,
            mandatory_capture: game.rules().mandatory_capture,
            dead_draw: game.rules().draws.dead_draw.map(|(_, test)| test),
            king_beats_lone_man: game.rules().draws.king_beats_lone_man,
            king_move_limit: game.rules().draws.king_move_limit,
            king_streaks: game.king_streaks(),
        };
        let weakened = self.level < MAX_LEVEL;
        let mut max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 8).clamp(1, MAX_PLY as u32 - 8);
        if weakened {
            max_depth = max_depth.min(level_depth(self.level));
        }
        let clock = TimeManager::new(&limits);
        let tt = &*self.tt;
        let single_move = legal.len() == 1
            && !limits.infinite
            && !limits.analysis
            && !ponder
            && limits.depth.is_none();
        let mut best: Option<alphabeta::Iteration<R>> = None;
        let mut last_lines: Vec<alphabeta::Iteration<R>> = Vec::new();
        // The deepest iteration a helper completed: when it is deeper than the main thread's,
        // its move is played (a single-line search only), and a helper that completes the
        // depth limit first ends the search.
        let deepest_slot: Mutex<Option<alphabeta::Iteration<R>>> = Mutex::new(None);
        let deepest = &deepest_slot;
        let main_depth_slot = AtomicU32::new(1);
        let main_depth = &main_depth_slot;
        let single_line = self.multipv <= 1 && !weakened;
        let helper_may_finish = single_line && !ponder && !limits.infinite;
        let shared = self.searchers.len() > 1;
        std::thread::scope(|scope| {
            for (index, slot) in self.searchers.iter().enumerate().skip(1) {
                let history = history.clone();
                scope.spawn(move || {
                    let Ok(mut searcher) = slot.lock() else { return };
                    searcher.prepare(history, &limits, None, shared);
                    // Helpers start one ply deeper every other thread, to spread the work.
                    let mut depth = 1 + (index as u32 % 2);
                    let mut previous = None;
                    while depth <= max_depth && !control.stop.load(Ordering::Relaxed) {
                        match searcher.iterate(&root, depth, previous, tt, control) {
                            Some(iteration) => {
                                previous = Some(iteration.score);
                                if let Ok(mut deepest) = deepest.lock() {
                                    if deepest.as_ref().is_none_or(|d| iteration.depth > d.depth) {
                                        *deepest = Some(iteration);
                                    }
                                }
                                if depth == max_depth && helper_may_finish {
                                    control.stop.store(true, Ordering::Relaxed);
                                }
                            }
                            None => break,
                        }
                        // Keep ahead of the main thread: odd helpers one ply deeper than it,
                        // even ones at its depth (its table entries guide them).
                        let lead = main_depth.load(Ordering::Relaxed) + (index as u32 % 2);
                        let next = (depth + 1).max(lead).min(max_depth);
                        if next <= depth {
                            break;
                        }
                        depth = next;
                    }
                });
            }
            let Ok(mut main) = self.searchers[0].lock() else {
                control.stop.store(true, Ordering::Relaxed);
                return;
            };
            main.prepare(history.clone(), &limits, Some(clock), shared);
            let wanted = if weakened { self.multipv.max(LEVEL_LINES) } else { self.multipv };
            let lines = wanted.clamp(1, legal.len());
            let mut previous: Vec<Score> = Vec::new();
            for depth in 1..=max_depth {
                main_depth.store(depth, Ordering::Relaxed);
                if control.ponder_hit.swap(false, Ordering::Relaxed) {
                    main.restart_clock();
                }
                // Each further line searches the root without the moves of the lines above it.
                let mut found: Vec<alphabeta::Iteration<R>> = Vec::with_capacity(lines);
                for line in 0..lines {
                    let guess = previous.get(line).copied();
                    let Some(iteration) = main.iterate(&root, depth, guess, tt, control) else {
                        break;
                    };
                    let Some(&first) = iteration.pv.first() else { break };
                    main.excluded.push(first);
                    found.push(iteration);
                }
                main.excluded.clear();
                if found.len() < lines {
                    // Stopped mid-iteration: the first line, if complete, is still the best move.
                    if lines > 1 {
                        if let Some(first) = found.into_iter().next() {
                            best = Some(first);
                        }
                    }
                    break;
                }
                found.sort_by_key(|iteration| -iteration.score);
                if weakened {
                    last_lines.clone_from(&found);
                }
                previous = found.iter().map(|iteration| iteration.score).collect();
                for (index, iteration) in found.iter().enumerate() {
                    sink.info(&Info {
                        depth,
                        multipv: index + 1,
                        seldepth: main.seldepth as u32,
                        mean_depth: main.leaf_plies.0 as f64 / main.leaf_plies.1.max(1) as f64,
                        score: iteration.score,
                        nodes: control.nodes.load(Ordering::Relaxed) + main.unreported_nodes(),
                        time: started.elapsed(),
                        pv: iteration.pv.clone(),
                    });
                }
                let iteration = found.swap_remove(0);
                let decisive = iteration.score.abs() >= WIN_BOUND
                    && WIN - iteration.score.abs() <= depth as Score;
                best = Some(iteration);
                let thinking = !control.ponder.load(Ordering::Relaxed) && !limits.infinite;
                if thinking && (single_move || decisive || clock_soft(&main)) {
                    break;
                }
            }
            // Pondering and infinite searches wait for stop (or ponder_hit) before answering.
            while (control.ponder.load(Ordering::Relaxed) || limits.infinite)
                && !control.stop.load(Ordering::Relaxed)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            control.stop.store(true, Ordering::Relaxed);
        });
        let nodes =
            self.searchers.iter().filter_map(|s| s.lock().ok().map(|s| s.nodes)).sum::<u64>();
        let helper = deepest_slot.into_inner().ok().flatten();
        if let Some(helper) = helper.filter(|_| single_line) {
            if best.as_ref().is_none_or(|main| helper.depth > main.depth) {
                sink.info(&Info {
                    depth: helper.depth,
                    multipv: 1,
                    seldepth: helper.pv.len() as u32,
                    mean_depth: f64::from(helper.depth),
                    score: helper.score,
                    nodes: control.nodes.load(Ordering::Relaxed),
                    time: started.elapsed(),
                    pv: helper.pv.clone(),
                });
                best = Some(helper);
            }
        }
        let mut iteration = best.unwrap_or_else(|| alphabeta::Iteration {
            depth: 0,
            score: 0,
            pv: vec![legal.as_slice()[0]],
        });
        if weakened && !last_lines.is_empty() {
            self.draws = self.draws.wrapping_add(root.hash() | 1);
            let pick = pick_line(&last_lines, self.level, self.draws);
            iteration = last_lines.swap_remove(pick);
        }
        let best_move = iteration.pv.first().copied().or_else(|| legal.as_slice().first().copied());
        SearchResult {
            best: best_move,
            ponder: iteration.pv.get(1).copied(),
            score: iteration.score,
            depth: iteration.depth,
            nodes,
            time: started.elapsed(),
            pv: iteration.pv,
        }
    }
}

/// Full strength; lower levels play weaker (see [`Engine::set_level`]).
pub const MAX_LEVEL: u32 = 20;

/// Lines a weakened engine chooses from.
const LEVEL_LINES: usize = 4;

/// Depth a level searches to: 1 at level 1, 10 at level 19.
fn level_depth(level: u32) -> u32 {
    1 + level / 2
}

/// Chooses among the lines (best first) of a weakened search: lines within a margin of the best
/// that widens as the level drops, each drawn with a weight that falls with its score gap, so
/// the engine errs like a person does (a plausible second-best move), not at random.
fn pick_line<R: Rules>(lines: &[alphabeta::Iteration<R>], level: u32, seed: u64) -> usize {
    let weakness = f64::from(MAX_LEVEL.saturating_sub(level));
    let margin = weakness * 12.0;
    let temperature = (weakness * 6.0).max(1.0);
    let best = f64::from(lines[0].score);
    let weights: Vec<f64> = lines
        .iter()
        .map(|line| {
            let gap = best - f64::from(line.score);
            let decisive = line.score.abs() >= WIN_BOUND || lines[0].score >= WIN_BOUND;
            if gap > margin || (decisive && gap > 0.0) { 0.0 } else { (-gap / temperature).exp() }
        })
        .collect();
    // A splitmix64 draw from the seed.
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    let total: f64 = weights.iter().sum();
    let mut target = (z >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (index, weight) in weights.iter().enumerate() {
        if target < *weight {
            return index;
        }
        target -= weight;
    }
    0
}

fn clock_soft<R: Rules>(main: &Searcher<R>) -> bool {
    main.clock_soft_expired()
}
