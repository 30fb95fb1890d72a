//! The engine façade: `go(game, limits, sink)`, `stop`, `ponder_hit`, `new_game`, options.
//! Lazy SMP: N threads search the same root, sharing one lock-free transposition table, one
//! stop flag and a node counter; only the main thread reads the clock, and its result is the
//! engine's move. The search reports through an [`InfoSink`]; it never prints.
//!
//! Depends on the rules library, `game` and `eval`; must not depend on protocols or I/O.

pub mod alphabeta;
pub mod config;
mod iterate;
pub mod level;
pub mod params;
pub mod profile;
pub mod score;
mod smp;
pub mod time;
pub mod tt;
mod tt_memory;

pub use alphabeta::{Searcher, verdict_score};
pub use config::EngineConfig;
pub use level::MAX_LEVEL;
pub use params::{ParamChanges, SearchParams};
pub use score::{Band, KNOWN_BOUND, KNOWN_WIN, MAX_PLY, Score, Value, WIN, WIN_BOUND};
pub use time::{Limits, TimeManager};
pub use tt::TranspositionTable;

use crate::board::bitset::BitSet;
use crate::board::moves::MoveList;
use crate::book::{self, Book};
use crate::egdb::{Egdb, Outcome};
use crate::eval::Evaluator;
use crate::game::{Game, Verdict};
use crate::position::Position;
use crate::position::{Bits, MoveOf};
use crate::rules::Rules;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    /// Where the line comes from: a search, or the book or the databases at once.
    pub source: Source,
}

/// Where a reported line or a chosen move comes from, so that a front end can say "book move"
/// rather than "depth 1, 0 nodes".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Source {
    /// The search.
    #[default]
    Search,
    /// The opening book.
    Book,
    /// The endgame databases.
    Databases,
    /// The rules: the game is already over.
    Rules,
}

impl Source {
    /// What a front end prints beside a line from the book or the databases (empty for a
    /// search's).
    pub fn label(self) -> &'static str {
        match self {
            Source::Search => "",
            Source::Book => "book move",
            Source::Databases => "endgame databases",
            Source::Rules => "game over",
        }
    }
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
    /// Set when the game is already over at the root: the rules' verdict (the score is its
    /// score; `best` is still a legal move, if there is one, for a client that plays on).
    pub verdict: Option<Verdict>,
    /// Where the move comes from.
    pub source: Source,
}

/// Stops every thread when dropped.
struct StopOnDrop<'a>(&'a Control);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::Relaxed);
    }
}

/// The answer of the endgame databases at the root of `game`, when they know it is won or lost:
/// the move that keeps the value fastest (the shortest win, the longest loss) among those the
/// game allows, and the line that follows. A drawn root is searched, and the databases' values
/// at the first ply keep the search to the drawing moves; so is a root held without its
/// distance, whose win only the search can convert.
fn known_result<R: Rules>(egdb: &Egdb<R>, game: &Game<R>) -> Option<SearchResult<R>> {
    let root = *game.position();
    if root.occupied().count() > egdb.max_pieces() || !egdb.fits(game.rules()) {
        return None;
    }
    let mut counters = game.counters();
    let value = egdb.probe(&root, &counters.king_streaks)?;
    if value.outcome() == Outcome::Draw || !value.has_distance() {
        return None;
    }
    let legal = game.legal_moves();
    let best = egdb.best_moves(&root, &counters.king_streaks)?;
    let (mv, _) = best.into_iter().find(|(mv, _)| legal.as_slice().contains(mv))?;
    let mut pv = vec![mv];
    let mut position = root;
    let rules = game.rules();
    counters = rules.after(&counters, &position, &mv);
    position.play(&mv);
    while pv.len() < 24 {
        let best = egdb.best_moves(&position, &counters.king_streaks);
        let Some((next, _)) = best.and_then(|b| b.first().copied()) else {
            break;
        };
        pv.push(next);
        counters = rules.after(&counters, &position, &next);
        position.play(&next);
    }
    Some(SearchResult {
        best: Some(mv),
        ponder: pv.get(1).copied(),
        score: Score::new(alphabeta::known_score(value, 0)),
        depth: 1,
        nodes: 0,
        time: Duration::ZERO,
        pv,
        verdict: None,
        source: Source::Databases,
    })
}

/// A searching engine for rule set `R`.
pub struct Engine<R: Rules> {
    /// The evaluation given in the configuration; every search thread has a copy.
    evaluator: Arc<Evaluator<R>>,
    /// The endgame databases given in the configuration, shared by every search thread.
    egdb: Option<Arc<Egdb<R>>>,
    /// The opening book given in the configuration.
    book: Option<Arc<Book<R>>>,
    /// The search's tunable numbers, given to every search thread.
    params: SearchParams,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    searchers: Vec<Mutex<Searcher<R>>>,
    multipv: usize,
    level: u32,
    /// Varies a weakened engine's choices from one move to the next.
    draws: u64,
    /// Varies the book's choices.
    book_draws: u64,
    /// Book moves within this many hundredths of a man of the best are played.
    book_margin: Value,
}

impl<R: Rules> Engine<R> {
    /// An engine with `threads` search threads, a `hash_mb` MiB transposition table and the
    /// rule set's default evaluation.
    pub fn new(threads: usize, hash_mb: usize) -> Self {
        Self::with_config(EngineConfig::new(threads, hash_mb))
    }

    /// The engine `config` describes; a table the machine cannot give is made smaller (see
    /// [`TranspositionTable::new`]).
    pub fn with_config(config: EngineConfig<R>) -> Self {
        let table = TranspositionTable::new(config.hash_mb);
        Self::with_table(config, table)
    }

    /// The engine `config` describes.
    ///
    /// # Errors
    /// The machine cannot give the table's memory.
    pub fn try_with_config(config: EngineConfig<R>) -> Result<Self, String> {
        let table = TranspositionTable::try_new(config.hash_mb)?;
        Ok(Self::with_table(config, table))
    }

    fn with_table(config: EngineConfig<R>, table: TranspositionTable) -> Self {
        let mut engine = Engine {
            evaluator: config.evaluator,
            egdb: config.egdb,
            book: config.book,
            params: config.params,
            tt: Arc::new(table),
            control: Arc::new(Control::default()),
            searchers: Vec::new(),
            multipv: 1,
            level: MAX_LEVEL,
            draws: 0,
            // Seeded at random, so that book choices differ from one engine to the next.
            book_draws: std::collections::hash_map::RandomState::new().hash_one(0u64),
            book_margin: book::DEFAULT_MARGIN,
        };
        engine.set_threads(config.threads);
        engine
    }

    /// The static evaluation the engine's search uses, of `position` for the side to move.
    pub fn evaluate(&self, position: &Position<R>) -> Value {
        self.evaluator.evaluate(position)
    }

    /// Evaluates with `evaluator` from now on. The table is cleared: its scores came from the
    /// old evaluation.
    pub fn set_evaluator(&mut self, evaluator: Evaluator<R>) {
        let threads = self.threads();
        self.evaluator = Arc::new(evaluator);
        self.searchers.clear();
        self.set_threads(threads);
        self.new_game();
    }

    /// Probes `egdb` from now on (None: no databases). The table is cleared: its scores came
    /// without them.
    pub fn set_egdb(&mut self, egdb: Option<Arc<Egdb<R>>>) {
        let threads = self.threads();
        self.egdb = egdb;
        self.searchers.clear();
        self.set_threads(threads);
        self.new_game();
    }

    /// Searches with `params` from now on.
    pub fn set_params(&mut self, params: SearchParams) {
        let threads = self.threads();
        self.params = params;
        self.searchers.clear();
        self.set_threads(threads);
        self.new_game();
    }

    /// Plays from `book` from now on (None: no book).
    pub fn set_book(&mut self, book: Option<Arc<Book<R>>>) {
        self.book = book;
    }

    /// Plays book moves scored within `margin` hundredths of a man of the best one (0: the
    /// best only).
    pub fn set_book_margin(&mut self, margin: Value) {
        self.book_margin = margin.max(0);
    }

    /// The opening book in use.
    pub fn book(&self) -> Option<&Book<R>> {
        self.book.as_deref()
    }

    /// The endgame databases in use.
    pub fn egdb(&self) -> Option<&Egdb<R>> {
        self.egdb.as_deref()
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &Evaluator<R> {
        &self.evaluator
    }

    /// Sets the number of search threads (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        self.searchers.truncate(threads);
        while self.searchers.len() < threads {
            let main = self.searchers.is_empty();
            let evaluator = Evaluator::clone(&self.evaluator);
            let searcher = Searcher::new(main, evaluator)
                .with_egdb(self.egdb.clone())
                .with_params(self.params);
            self.searchers.push(Mutex::new(searcher));
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
    ///
    /// # Errors
    /// The memory cannot be had; the old table is kept.
    pub fn set_hash(&mut self, hash_mb: usize) -> Result<(), String> {
        self.tt = Arc::new(TranspositionTable::try_new(hash_mb)?);
        Ok(())
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

    /// Where the last search's nodes went, every thread's summed (a build with the `profile`
    /// feature; `None` in others, whose search counts nothing).
    pub fn profile(&self) -> Option<profile::Profile> {
        #[cfg(feature = "profile")]
        {
            let mut sum = profile::Profile::default();
            for searcher in &self.searchers {
                if let Ok(searcher) = searcher.lock() {
                    sum.add(&searcher.profile);
                }
            }
            Some(sum)
        }
        #[cfg(not(feature = "profile"))]
        None
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

    /// The opening book's move for `game`'s position, when the book has it and the search is
    /// a game's (not an analysis, a ponder search, a search bounded by depth or nodes, several
    /// lines, or a weakened level): one of the book moves within the book margin of the best,
    /// drawn at random.
    fn book_move(
        &mut self,
        game: &Game<R>,
        legal: &MoveList<Bits<R>>,
        limits: &Limits,
    ) -> Option<SearchResult<R>> {
        let book = self.book.as_deref()?;
        let searching_for_a_game = !limits.analysis
            && !limits.infinite
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && !self.control.ponder.load(Ordering::Relaxed)
            && self.multipv <= 1
            && self.level >= MAX_LEVEL;
        if !searching_for_a_game {
            return None;
        }
        self.book_draws = self.book_draws.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
        let choice =
            book.choose(game.position(), legal, self.book_margin, self.book_draws >> 32)?;
        Some(SearchResult {
            best: Some(choice.mv),
            ponder: None,
            score: Score::new(choice.score),
            depth: 1,
            nodes: 0,
            time: Duration::ZERO,
            pv: vec![choice.mv],
            verdict: None,
            source: Source::Book,
        })
    }

    /// [`Engine::go`] after the caller has prepared the flags with [`Control::prepare`]: a stop
    /// that arrives before the search starts is not lost.
    ///
    /// The root is answered at once where it can be ([`Engine::answer_at_once`]: the game is
    /// over, the book or the databases know the move). Otherwise the helper threads ([`smp`])
    /// and the main thread's iterative deepening ([`iterate`]) search it together
    /// ([`Engine::search_threads`]), and the result is the main thread's line, a deeper
    /// helper's, or, below full strength, one of the best lines ([`Engine::choose_line`]).
    pub fn go_prepared(
        &mut self,
        game: &Game<R>,
        limits: Limits,
        sink: &mut dyn InfoSink<R>,
    ) -> SearchResult<R> {
        let started = Instant::now();
        let legal = game.legal_moves();
        if let Some(answer) = self.answer_at_once(game, &legal, &limits, started, sink) {
            return answer;
        }
        self.tt.new_search();
        let ponder = self.control.ponder.load(Ordering::Relaxed);
        let weakened = self.level < MAX_LEVEL;
        let single_line = self.multipv <= 1 && !weakened;
        let plan = self.plan(legal.len(), &limits, ponder, weakened, started);
        let shared = smp::Shared::new(
            &self.tt,
            &self.control,
            plan.max_depth,
            single_line && !ponder && !limits.infinite,
        );
        let found = self.search_threads(game, &limits, &plan, &shared, sink);
        let nodes =
            self.searchers.iter().filter_map(|s| s.lock().ok().map(|s| s.nodes)).sum::<u64>();
        let deeper_helper = shared.deepest().filter(|_| single_line);
        let iteration =
            self.choose_line(found, deeper_helper, game, &legal, (nodes, started), sink);
        let best_move = iteration.pv.first().copied().or_else(|| legal.as_slice().first().copied());
        SearchResult {
            best: best_move,
            ponder: iteration.pv.get(1).copied(),
            score: Score::new(iteration.score),
            depth: iteration.depth,
            nodes,
            time: started.elapsed(),
            pv: iteration.pv,
            verdict: None,
            source: Source::Search,
        }
    }

    /// The root's answer without a search, where there is one: a game already over gets the
    /// rules' verdict; a book position the book's move ([`Engine::book_move`]); a position the
    /// endgame databases hold their best move ([`known_result`]). The last two are reported to
    /// `sink` as one line.
    fn answer_at_once(
        &mut self,
        game: &Game<R>,
        legal: &MoveList<Bits<R>>,
        limits: &Limits,
        started: Instant,
        sink: &mut dyn InfoSink<R>,
    ) -> Option<SearchResult<R>> {
        if let Some(verdict) = game.verdict() {
            return Some(SearchResult {
                best: legal.as_slice().first().copied(),
                ponder: None,
                score: Score::new(verdict_score(&verdict, game.position(), 0)),
                depth: 0,
                nodes: 0,
                time: started.elapsed(),
                pv: Vec::new(),
                verdict: Some(verdict),
                source: Source::Rules,
            });
        }
        let answer = match self.book_move(game, legal, limits) {
            Some(book_move) => book_move,
            None => self.egdb.as_deref().and_then(|egdb| known_result(egdb, game))?,
        };
        sink.info(&Info {
            depth: 1,
            multipv: 1,
            seldepth: answer.pv.len() as u32,
            mean_depth: 1.0,
            score: answer.score,
            nodes: 0,
            time: started.elapsed(),
            pv: answer.pv.clone(),
            source: answer.source,
        });
        Some(SearchResult { time: started.elapsed(), ..answer })
    }

    /// How far and how wide the main thread searches: the depth limit (a strength level's
    /// below full strength), the lines at each depth (MultiPV, or a level's choice), and
    /// whether one legal move is played at once.
    fn plan(
        &self,
        legal: usize,
        limits: &Limits,
        ponder: bool,
        weakened: bool,
        started: Instant,
    ) -> iterate::Plan {
        let mut max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 8).clamp(1, MAX_PLY as u32 - 8);
        if weakened {
            max_depth = max_depth.min(level::level_depth(self.level));
        }
        iterate::Plan {
            lines: if weakened { self.multipv.max(level::LEVEL_LINES) } else { self.multipv }
                .clamp(1, legal),
            max_depth,
            // One legal move is played at once, unless someone asked for more.
            single_move: legal == 1
                && !limits.infinite
                && !limits.analysis
                && !ponder
                && limits.depth.is_none(),
            started,
        }
    }

    /// The search itself: the helper threads and the main thread on the same root until the
    /// main thread is done; pondering and infinite searches then wait for `stop` (or
    /// `ponder_hit`) before answering.
    fn search_threads(
        &self,
        game: &Game<R>,
        limits: &Limits,
        plan: &iterate::Plan,
        shared: &smp::Shared<'_, R>,
        sink: &mut dyn InfoSink<R>,
    ) -> iterate::Found<R> {
        let control = &*self.control;
        let threads = self.searchers.len() > 1;
        let (main, helpers) = self.searchers.split_at(1);
        std::thread::scope(|scope| {
            // The helpers stop however the main thread ends, a panic included: the scope waits
            // for them before the panic goes on.
            let _stop_helpers = StopOnDrop(control);
            for (index, slot) in helpers.iter().enumerate() {
                scope.spawn(move || smp::help(slot, index + 1, game, limits, threads, shared));
            }
            let outcome = iterate::deepen(&main[0], game, limits, threads, plan, shared, sink);
            while (control.ponder.load(Ordering::Relaxed) || limits.infinite)
                && !control.stop.load(Ordering::Relaxed)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            control.stop.store(true, Ordering::Relaxed);
            outcome
        })
    }

    /// The line the engine answers with: the main thread's, or `deeper_helper`'s where a helper
    /// completed a greater depth (reported to `sink` with the search's `nodes`); below full strength, one of the last
    /// depth's best lines drawn by the level ([`level::pick_line`]).
    fn choose_line(
        &mut self,
        found: iterate::Found<R>,
        deeper_helper: Option<alphabeta::Iteration<R>>,
        game: &Game<R>,
        legal: &MoveList<Bits<R>>,
        (nodes, started): (u64, Instant),
        sink: &mut dyn InfoSink<R>,
    ) -> alphabeta::Iteration<R> {
        let mut best = found.best;
        if let Some(helper) = deeper_helper {
            if best.as_ref().is_none_or(|main| helper.depth > main.depth) {
                sink.info(&Info {
                    depth: helper.depth,
                    multipv: 1,
                    seldepth: helper.pv.len() as u32,
                    mean_depth: f64::from(helper.depth),
                    score: Score::new(helper.score),
                    nodes,
                    time: started.elapsed(),
                    pv: helper.pv.clone(),
                    source: Source::Search,
                });
                best = Some(helper);
            }
        }
        let iteration = best.unwrap_or_else(|| alphabeta::Iteration {
            depth: 0,
            score: 0,
            pv: vec![legal.as_slice()[0]],
        });
        let mut last_lines = found.last_lines;
        if self.level < MAX_LEVEL && !last_lines.is_empty() {
            self.draws = self.draws.wrapping_add(game.position().hash() | 1);
            let pick = level::pick_line(&last_lines, self.level, self.draws);
            return last_lines.swap_remove(pick);
        }
        iteration
    }
}
