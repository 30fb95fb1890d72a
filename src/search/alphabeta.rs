//! The search of one thread: iterative deepening, aspiration windows, principal variation search
//! with a transposition table, killer and history move ordering, late-move reductions, a static
//! cut near the horizon and ProbCut further from it (in some rule sets, see `params`), and a
//! quiescence search that plays out forced captures (a capture is never cut in the middle: a
//! whole sequence is one move). Every ending of the game is seen in the tree through the game's
//! own rules (`game::rules`: one [`Counters`] per ply, [`GameRules::judge_in_tree`] at every
//! node, the no-move rule at the leaves too); win scores count plies so that the engine converts
//! wins fast.
//!
//! Depends on the rules library, `eval`, `egdb` and the sibling modules; it never prints.

use super::params::{ProbCutNodes, SearchParams};
pub use super::score::{
    KNOWN_BOUND, KNOWN_DISTANCE_SPAN, KNOWN_EVAL_SPREAD, KNOWN_WIN, KNOWN_WIN_NO_DISTANCE, MAX_PLY,
    Value, WIN, WIN_BOUND,
};
use super::time::{Limits, TimeManager};
use super::tt::{Bound, Entry, TranspositionTable, TtMove};
use super::{Control, params};
use crate::board::bitset::BitSet;
use crate::board::moves::MoveList;
use crate::egdb::{self, Egdb, Outcome};
use crate::eval::{Evaluator, Patterns};
use crate::game::{Calm, Counters, Game, GameRules, Judgement, Verdict};
use crate::movegen::has_capture;
use crate::position::{Bits, MoveOf, Position};
use crate::rules::Rules;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// Remaining depth from which moves busy in another thread are deferred.
const DEFER_DEPTH: i32 = 3;

const INFINITY: Value = WIN + 1;

/// Counts into the tree profile (`super::profile`) in a build with the `profile` feature;
/// nothing otherwise.
macro_rules! count {
    ($searcher:expr, $($field:ident += $value:expr),+ $(,)?) => {
        #[cfg(feature = "profile")]
        {
            let now = $searcher.profile.now();
            $(now.$field += $value as u64;)+
        }
    };
}

/// Per-thread search state, kept across searches so tables stay warm.
pub struct Searcher<R: Rules> {
    evaluator: Evaluator<R>,
    /// The tunable numbers.
    params: SearchParams,
    /// Endgame databases, and the most pieces they hold (0 without).
    egdb: Option<Arc<Egdb<R>>>,
    egdb_pieces: u32,
    /// Whether the root is in the databases: a position they hold without its distance is
    /// then searched on (in its band) so that its win is converted; from a larger root it is
    /// a leaf.
    search_known: bool,
    /// Per ply: the evaluation's incremental state of the node's position (pattern indices,
    /// updated move by move instead of read from the board at every leaf).
    patterns: Vec<Patterns>,
    lists: Vec<MoveList<Bits<R>>>,
    orders: Vec<Vec<(i32, usize)>>,
    /// The moves each node of the current line has deferred (list indices; another thread was
    /// busy with them), each node's above its parent's: one stack instead of a vector per ply.
    deferred: Vec<usize>,
    /// Likewise the quiet moves each node of the line has searched so far, which lose history
    /// when a later quiet move cuts off.
    quiets: Vec<usize>,
    /// Other threads search the same tree (moves they are busy with may be deferred).
    shared: bool,
    killers: Vec<[Option<(u8, u8)>; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<MoveOf<R>>>,
    /// Hashes of the positions before the current one since the game's last irreversible move
    /// (the game's, then the tree's): where repetitions are looked for.
    path: Vec<u64>,
    /// The rules of the game being searched, and their counters at the root (each node gets
    /// its own by value: cheaper than a table indexed by ply).
    rules: GameRules,
    /// Where `rules` can neither end the game nor count anything (kept with them).
    calm: Calm,
    root_counters: Counters,
    /// Nodes searched in the current search.
    pub nodes: u64,
    /// Where the current search's nodes went (a `profile` build only).
    #[cfg(feature = "profile")]
    pub profile: super::profile::Profile,
    /// Of those, the nodes already added to the shared count.
    reported: u64,
    /// Deepest ply reached in the current search.
    pub seldepth: usize,
    /// Root moves left out of the search (the lines already found by a multi-PV search).
    pub excluded: Vec<MoveOf<R>>,
    /// Sum of the plies of the evaluated leaves, and their number: the mean depth reached.
    pub leaf_plies: (u64, u64),
    main: bool,
    clock: Option<TimeManager>,
    node_limit: Option<u64>,
    /// True inside ProbCut's shallow search (which is not nested).
    probing: bool,
    /// The score of the root's line in `pv[0]` (set with it: the line of a search that was
    /// stopped before its iteration completed, see [`Searcher::unfinished`]).
    root_score: Value,
}

/// What step 1 ([`Searcher::arrive`]) finds at a node below the root.
enum Arrival {
    /// The node's value: the game ends here, the databases know it, or the window closed.
    Ends(Value),
    /// The search goes on, its evaluations moved into this band: 0, or plus or minus
    /// [`KNOWN_WIN_NO_DISTANCE`] at a win or loss the databases hold without its distance.
    Open(Value),
}

/// What step 4 ([`Searcher::probe_table`]) finds in the table.
enum TableProbe {
    /// The node's value: the entry settles the window.
    Cut(Value),
    /// The search goes on, with the entry's move first where it has one (its index).
    Move(Option<usize>),
}

/// Where a node's move loop is in its moves (see [`Searcher::next_move`]).
struct MovePicker {
    /// Moves picked from the list so far.
    pick: usize,
    /// The table's move (its index), searched first.
    table_move: Option<usize>,
    /// The order keys with list indices, computed only once a move after the table's is
    /// needed (`ordered`).
    order: Vec<(i32, usize)>,
    ordered: bool,
    /// This node's part of the deferred stack starts here; the next deferred move to search.
    deferred_from: usize,
    next_deferred: usize,
}

impl MovePicker {
    fn new(table_move: Option<usize>, deferred_from: usize) -> Self {
        MovePicker {
            pick: 0,
            table_move,
            order: Vec::new(),
            ordered: false,
            deferred_from,
            next_deferred: deferred_from,
        }
    }
}

/// One completed iteration.
#[derive(Clone, Debug)]
pub struct Iteration<R: Rules> {
    /// Depth completed.
    pub depth: u32,
    /// Value for the side to move at the root.
    pub score: Value,
    /// Principal variation.
    pub pv: Vec<MoveOf<R>>,
}

impl<R: Rules> Searcher<R> {
    /// A searcher that scores leaves with `evaluator`; `main` is the thread that reads the
    /// clock and the node limit.
    pub fn new(main: bool, evaluator: Evaluator<R>) -> Self {
        let rules = GameRules::of::<R>();
        let calm = rules.calm::<R>();
        Searcher {
            evaluator,
            params: SearchParams::of::<R>(),
            egdb: None,
            egdb_pieces: 0,
            search_known: false,
            patterns: vec![Patterns::default(); MAX_PLY + 1],
            lists: (0..MAX_PLY + 1).map(|_| MoveList::new()).collect(),
            orders: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            deferred: Vec::with_capacity(1024),
            quiets: Vec::with_capacity(1024),
            shared: false,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; (<Bits<R> as BitSet>::WIDTH as usize).pow(2)],
            pv: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            path: Vec::with_capacity(256),
            rules,
            calm,
            root_counters: Counters::default(),
            nodes: 0,
            #[cfg(feature = "profile")]
            profile: super::profile::Profile::default(),
            reported: 0,
            seldepth: 0,
            leaf_plies: (0, 0),
            excluded: Vec::new(),
            main,
            clock: None,
            node_limit: None,
            probing: false,
            root_score: 0,
        }
    }

    /// The same searcher probing `egdb` in the tree.
    pub fn with_egdb(self, egdb: Option<Arc<Egdb<R>>>) -> Self {
        let egdb_pieces = egdb.as_ref().map_or(0, |egdb| egdb.max_pieces());
        Searcher { egdb, egdb_pieces, ..self }
    }

    /// The same searcher with other tunable numbers.
    pub fn with_params(self, params: SearchParams) -> Self {
        Searcher { params, ..self }
    }

    /// Forgets what was learnt in earlier games.
    pub fn new_game(&mut self) {
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// Prepares a search of the game's current position; `shared` when other threads search it
    /// too.
    pub fn prepare(
        &mut self,
        game: &Game<R>,
        limits: &Limits,
        clock: Option<TimeManager>,
        shared: bool,
    ) {
        self.shared = shared;
        self.nodes = 0;
        #[cfg(feature = "profile")]
        {
            self.profile = super::profile::Profile::default();
        }
        self.reported = 0;
        self.seldepth = 0;
        self.leaf_plies = (0, 0);
        self.excluded.clear();
        self.node_limit = if self.main { limits.nodes } else { None };
        self.clock = if self.main { clock } else { None };
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        for h in &mut self.history {
            *h /= 2;
        }
        self.path.clear();
        self.path.extend(game.repetition_candidates());
        self.rules.clone_from(game.rules());
        self.calm = self.rules.calm::<R>();
        self.root_counters = game.counters();
        self.egdb_pieces = match &self.egdb {
            Some(egdb) if egdb.fits(&self.rules) => egdb.max_pieces(),
            _ => 0,
        };
    }

    /// True when the main thread's clock says no new iteration should start.
    pub fn clock_soft_expired(&self) -> bool {
        self.clock.as_ref().is_some_and(TimeManager::soft_expired)
    }

    /// Restarts the main thread's clock (ponder hit).
    pub fn restart_clock(&mut self) {
        if let Some(clock) = &mut self.clock {
            clock.restart();
        }
    }

    /// The static evaluation of a position.
    pub fn evaluate(&self, position: &Position<R>) -> Value {
        self.evaluator.evaluate(position)
    }

    /// The static evaluation of the node at `ply`, `position`, from its incremental state,
    /// moved into `band` (see [`Arrival::Open`]). Always inlined, like [`Searcher::enter`]:
    /// with the classic evaluation both fold to the direct call (out of line they cost 27
    /// instructions a node on `damas bench 9`).
    #[inline(always)]
    fn evaluate_at(&self, position: &Position<R>, ply: usize, band: Value) -> Value {
        let eval = self.evaluator.evaluate_with(position, &self.patterns[ply]);
        match band {
            0 => eval,
            band => band + eval.clamp(-KNOWN_EVAL_SPREAD, KNOWN_EVAL_SPREAD),
        }
    }

    /// The evaluation's incremental state of `child`, one move below `position` at `ply`.
    #[inline(always)]
    fn enter(&mut self, position: &Position<R>, child: &Position<R>, ply: usize) {
        // The classic terms keep no state: nothing to copy.
        if let Evaluator::Pattern(pattern) = &self.evaluator {
            self.patterns[ply + 1] = self.patterns[ply];
            pattern.update(&mut self.patterns[ply + 1], position, child);
        }
    }

    /// One iteration at `depth` with an aspiration window around `previous`. Returns `None` when
    /// the search was stopped before the iteration completed.
    pub fn iterate(
        &mut self,
        root: &Position<R>,
        depth: u32,
        previous: Option<Value>,
        tt: &TranspositionTable,
        control: &Control,
    ) -> Option<Iteration<R>> {
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) = match previous {
            Some(score) if depth >= 4 && score.abs() < WIN_BOUND => (score - delta, score + delta),
            _ => (-INFINITY, INFINITY),
        };
        #[cfg(feature = "profile")]
        {
            self.profile.depth = depth as usize;
        }
        loop {
            let counters = self.root_counters;
            let score =
                self.search(root, counters, depth as i32, alpha, beta, 0, true, tt, control);
            if control.stop.load(Ordering::Relaxed) {
                return None;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return Some(Iteration { depth, score, pv: self.pv[0].clone() });
            }
            count!(self, aspiration_researches += 1);
            delta *= 3;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The root's best line so far in an iteration at `depth` that was stopped before it
    /// completed: a move whose search at that depth finished and beat every move searched
    /// before it (the root's line is only replaced by a completed search). `None` when not even
    /// the first move's search finished. Reported at the depth completed before it.
    pub fn unfinished(&self, depth: u32) -> Option<Iteration<R>> {
        (!self.pv[0].is_empty()).then(|| Iteration {
            depth: depth.saturating_sub(1),
            score: self.root_score,
            pv: self.pv[0].clone(),
        })
    }

    /// Nodes searched but not yet added to the shared count.
    pub fn unreported_nodes(&self) -> u64 {
        self.nodes - self.reported
    }

    /// Adds the nodes searched to the shared count and, on the main thread, checks the clock
    /// and the node limit, once at least 1024 nodes have passed since the last time. (Leaves
    /// count nodes without polling, so the test is on the difference: a test for a multiple
    /// of 1024 missed about half of them, and the reported node counts were half the truth.)
    #[inline]
    fn poll(&mut self, control: &Control) -> bool {
        let unreported = self.nodes - self.reported;
        if unreported >= 1024 {
            control.nodes.fetch_add(unreported, Ordering::Relaxed);
            self.reported = self.nodes;
            if self.main {
                if control.ponder_hit.swap(false, Ordering::Relaxed) {
                    self.restart_clock();
                }
                let out_of_time = !control.ponder.load(Ordering::Relaxed)
                    && self.clock.as_ref().is_some_and(TimeManager::hard_expired);
                let out_of_nodes = self.node_limit.is_some_and(|n| self.nodes >= n);
                if out_of_time || out_of_nodes {
                    control.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        control.stop.load(Ordering::Relaxed)
    }

    /// True when the position at `ply` repeats an earlier one since the last irreversible move.
    fn is_repetition(&self, hash: u64, counters: &Counters) -> bool {
        if self.rules.draws.repetitions == 0 {
            return false;
        }
        let window = counters.reversible as usize;
        let len = self.path.len();
        // Same side to move: every second position back.
        (2..=window.min(len)).step_by(2).any(|back| self.path[len - back] == hash)
    }

    /// Value of a position without moves for the side to move.
    fn no_moves(position: &Position<R>, ply: usize) -> Value {
        verdict_score(&GameRules::no_move::<R>(position.side_to_move()), position, ply)
    }

    /// Step 1 at every node below the root: the ends of the game seen in the tree (the game's
    /// own rules, with the first repetition taken as a draw: the game would reach the full count
    /// by repeating again), the endgame databases, and mate-distance pruning, which narrows
    /// `alpha` and `beta`. Brings `counters` up to `position`.
    #[inline(always)]
    fn arrive(
        &mut self,
        position: &Position<R>,
        counters: &mut Counters,
        alpha: &mut Value,
        beta: &mut Value,
        ply: usize,
    ) -> Arrival {
        let pieces = position.occupied().count();
        if !self.calm.holds(pieces, counters) {
            self.rules.arrive(position, counters);
            let repeated = self.is_repetition(position.hash(), counters);
            match self.rules.judge_in_tree(position, counters, repeated) {
                Judgement::Open => {}
                Judgement::Over(verdict) => {
                    return Arrival::Ends(verdict_score(&verdict, position, ply));
                }
                Judgement::OverIfMoves(verdict) => {
                    return Arrival::Ends(if self.rules.has_legal_move(position, counters) {
                        verdict_score(&verdict, position, ply)
                    } else {
                        Self::no_moves(position, ply)
                    });
                }
            }
        }
        // The endgame databases: the value whatever the depth (they answer capture
        // positions too). Only the game's history rules are left out of it (see `egdb`).
        // A win or loss held without its distance is scored in its band with the
        // evaluation: a leaf from a larger root; searched on from a root in the databases,
        // where only the search can find the way to a conversion.
        let mut band = 0;
        if pieces <= self.egdb_pieces {
            if let Some(value) =
                self.egdb.as_deref().and_then(|egdb| egdb.probe(position, &counters.king_streaks))
            {
                if value.has_distance() {
                    return Arrival::Ends(known_score(value, ply));
                }
                band = match value.outcome() {
                    Outcome::Loss => -KNOWN_WIN_NO_DISTANCE,
                    _ => KNOWN_WIN_NO_DISTANCE,
                };
                if !self.search_known {
                    return Arrival::Ends(self.evaluate_at(position, ply, band));
                }
            }
        }
        *alpha = (*alpha).max(-WIN + ply as Value);
        *beta = (*beta).min(WIN - ply as Value - 1);
        if *alpha >= *beta {
            return Arrival::Ends(*alpha);
        }
        Arrival::Open(band)
    }

    /// A node below the root whose depth is spent: the evaluation if nothing must be captured,
    /// else the forced captures are played out. Most nodes are these: out of [`Searcher::search`]
    /// they do not pay for its frame and its set-up.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn leaf(
        &mut self,
        position: &Position<R>,
        mut counters: Counters,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
        tt: &TranspositionTable,
        control: &Control,
    ) -> Value {
        self.pv[ply].clear();
        let band = match self.arrive(position, &mut counters, &mut alpha, &mut beta, ply) {
            Arrival::Ends(value) => return value,
            Arrival::Open(band) => band,
        };
        if ply >= MAX_PLY - 1 {
            return self.evaluate_at(position, ply, band);
        }
        let capture = has_capture(position);
        if !capture && !self.rules.has_quiet_legal_move(position, &counters) {
            return Self::no_moves(position, ply);
        }
        if !self.rules.mandatory_capture || !capture {
            count!(self, leaves += 1);
            self.nodes += 1;
            self.seldepth = self.seldepth.max(ply);
            self.leaf_plies.0 += ply as u64;
            self.leaf_plies.1 += 1;
            let eval = self.evaluate_at(position, ply, band);
            if self.params.qs_exchanges == 0
                || capture
                || eval >= beta
                || !position.kings().is_empty()
            {
                return eval;
            }
            return self.exchanges(position, &counters, eval, alpha, beta, ply, tt, control);
        }
        self.quiesce(position, &counters, alpha, beta, ply, tt, control)
    }

    /// The search of a node `depth` plies from the horizon (a leaf at 0 or less, handed to
    /// [`Searcher::leaf`]) on the window (`alpha`, `beta`), reached with `counters`. Its steps:
    /// 1. arrival (the root's set-up; below it the game's end, the databases, the mate
    ///    distance: [`Searcher::arrive`]);
    /// 2. the node counted, the ply limit, the clock;
    /// 3. the legal moves (none: the game is lost or drawn here);
    /// 4. the transposition table ([`Searcher::probe_table`]);
    /// 5. the static cut near the horizon ([`Searcher::static_cut`]);
    /// 6. ProbCut far from it ([`Searcher::probcut`]);
    /// 7. the moves, by principal variation search ([`Searcher::search_moves`]);
    /// 8. the result stored in the table ([`Searcher::store`]).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        position: &Position<R>,
        mut counters: Counters,
        depth: i32,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
        pv_node: bool,
        tt: &TranspositionTable,
        control: &Control,
    ) -> Value {
        if depth <= 0 && ply > 0 {
            return self.leaf(position, counters, alpha, beta, ply, tt, control);
        }
        // Step 1. Arrival. The table's bucket is asked for first: the probe of step 4 would wait
        // on memory.
        self.pv[ply].clear();
        if ply == 0 {
            self.patterns[0] = self.evaluator.patterns(position);
            self.search_known = position.occupied().count() <= self.egdb_pieces;
        }
        tt.prefetch(position.hash());
        // The counters as the parent handed them (ProbCut searches this node again with them).
        let entry_counters = counters;
        let mut band = 0;
        if ply > 0 {
            match self.arrive(position, &mut counters, &mut alpha, &mut beta, ply) {
                Arrival::Ends(value) => return value,
                Arrival::Open(known) => band = known,
            }
        }
        // Step 2. The node counted; the ply limit, the clock and the node limit.
        if ply >= MAX_PLY - 1 {
            return self.evaluate_at(position, ply, band);
        }
        self.nodes += 1;
        count!(self, interior += 1);
        self.seldepth = self.seldepth.max(ply);
        if self.poll(control) {
            return 0;
        }
        let depth = depth.max(1);
        // Step 3. Moves, generated before the table is read: the bucket's load, started in step
        // 1, arrives meanwhile (measured: 4.8 -> 5.5 M nodes/s with a 64 MiB table).
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.rules.legal_moves_into(position, &counters, &mut list);
        if list.is_empty() {
            self.lists[ply] = list;
            return Self::no_moves(position, ply);
        }
        count!(self, interior_capture += list.as_slice()[0].is_capture());
        // Step 4. Transposition table.
        let key = position.hash();
        count!(self, tt_probes += 1, tt_hits += tt.probe(key).is_some());
        let mut table_move =
            match Self::probe_table(tt, key, &list, depth, alpha, beta, ply, pv_node) {
                TableProbe::Cut(score) => {
                    count!(self, tt_cuts += 1);
                    self.lists[ply] = list;
                    return score;
                }
                TableProbe::Move(index) => index,
            };
        // Every child with depth left will probe the table: their buckets are asked for now,
        // each a sibling's subtree or more ahead of its probe, which would otherwise wait on
        // memory.
        if depth >= 2 {
            for mv in list.as_slice() {
                tt.prefetch(position.hash_after(mv));
            }
        }
        // Step 5. Static cut.
        if let Some(score) = self.static_cut(position, &list, depth, beta, ply, band, pv_node) {
            count!(self, static_cuts += 1, static_cut_depth += depth);
            self.lists[ply] = list;
            return score;
        }
        // Step 6. ProbCut. Its shallow search is this node's, at this ply: the list goes back
        // to its slot meanwhile, and the table's move is read again after it.
        if self.probcut_applies(position, &list, depth, beta, ply, pv_node) {
            self.lists[ply] = list;
            count!(self, probcut_tries += 1);
            if let Some(score) =
                self.probcut(position, entry_counters, depth, beta, ply, tt, control)
            {
                count!(self, probcut_cuts += 1, probcut_cut_depth += depth);
                return score;
            }
            list = std::mem::take(&mut self.lists[ply]);
            table_move =
                tt.probe(key).and_then(|entry| entry.mv).and_then(|mv| table_move_index(&list, mv));
            self.pv[ply].clear();
        }
        // Step 7. The moves.
        let searched = self.search_moves(
            position, key, &counters, &list, table_move, depth, alpha, beta, ply, pv_node, tt,
            control,
        );
        let Some((best, best_index)) = searched else {
            self.lists[ply] = list;
            return 0;
        };
        let best_move = list.as_slice()[best_index];
        self.lists[ply] = list;
        if ply == 0 && !self.excluded.is_empty() {
            // A root searched without some moves is not the position's true value.
            return best;
        }
        // Step 8. Store.
        Self::store(tt, key, (best_index, best_move), best, depth, alpha, beta, ply);
        best
    }

    /// Step 4: the table's entry for the node: a cut where its score, searched deep enough,
    /// settles the window (never at PV nodes), else the index in `list` of its move, if any.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn probe_table(
        tt: &TranspositionTable,
        key: u64,
        list: &MoveList<Bits<R>>,
        depth: i32,
        alpha: Value,
        beta: Value,
        ply: usize,
        pv_node: bool,
    ) -> TableProbe {
        let Some(entry) = tt.probe(key) else {
            return TableProbe::Move(None);
        };
        if !pv_node && entry.depth >= depth {
            let score = score_from_tt(entry.score, ply);
            let cut = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return TableProbe::Cut(score);
            }
        }
        TableProbe::Move(entry.mv.and_then(|mv| table_move_index(list, mv)))
    }

    /// Step 5: a quiet position far above beta near the horizon is cut on its evaluation, when
    /// neither side has a capture (one would change the material the evaluation counts).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn static_cut(
        &self,
        position: &Position<R>,
        list: &MoveList<Bits<R>>,
        depth: i32,
        beta: Value,
        ply: usize,
        band: Value,
        pv_node: bool,
    ) -> Option<Value> {
        if pv_node
            || ply == 0
            || depth > self.params.static_cut_depth
            || beta.abs() >= WIN_BOUND
            || list.as_slice()[0].is_capture()
        {
            return None;
        }
        // The opponent's captures (a pass and a move generation) are looked for only when the
        // evaluation would cut.
        let eval = self.evaluate_at(position, ply, band);
        (eval - self.params.static_cut_margin * depth >= beta && nobody_can_capture(position, list))
            .then_some(eval)
    }

    /// Step 6, where it applies (at the nodes `SearchParams::probcut_nodes` names): a node far
    /// from the horizon, not a PV node, not inside another ProbCut search. The 8x8 rule sets
    /// cut only where nobody can capture: where a capture is due the shallow search counts the
    /// man a sacrifice gives and not the shot behind it. International measured the other way
    /// round.
    #[inline(always)]
    fn probcut_applies(
        &self,
        position: &Position<R>,
        list: &MoveList<Bits<R>>,
        depth: i32,
        beta: Value,
        ply: usize,
        pv_node: bool,
    ) -> bool {
        let probcut = self.params.probcut_nodes();
        probcut != ProbCutNodes::None
            && !pv_node
            && !self.probing
            && ply > 0
            && depth >= self.params.probcut_depth
            && beta.abs() < WIN_BOUND
            && position.occupied().count() as i32 > self.params.probcut_min_pieces
            && match probcut {
                ProbCutNodes::Quiet => nobody_can_capture(position, list),
                ProbCutNodes::Captures => list.as_slice()[0].is_capture(),
                ProbCutNodes::All => true,
                ProbCutNodes::None => false,
            }
    }

    /// Step 6: ProbCut's shallow search (Scan's form: depth x 0.4, 0.1 man a ply above beta,
    /// not nested). A node whose shallow search is well above beta is taken as a cut. `Some`
    /// ends the node with that value: the cut, or 0 when the search was stopped.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        position: &Position<R>,
        counters: Counters,
        depth: i32,
        beta: Value,
        ply: usize,
        tt: &TranspositionTable,
        control: &Control,
    ) -> Option<Value> {
        let margin = self.params.probcut_margin * depth;
        let probe_beta = beta + margin;
        self.probing = true;
        let shallow = depth * self.params.probcut_depth_percent / 100;
        let score = self.search(
            position,
            counters,
            shallow,
            probe_beta - 1,
            probe_beta,
            ply,
            false,
            tt,
            control,
        );
        self.probing = false;
        if control.stop.load(Ordering::Relaxed) {
            return Some(0);
        }
        (score >= probe_beta).then_some(score - margin)
    }

    /// Step 7: the node's moves searched in turn ([`Searcher::next_move`] gives the order), each
    /// by [`Searcher::search_move`], until one reaches `beta`. Moves another thread is
    /// searching right now wait until the others are done (ABDADA's idea): by then that
    /// thread's result is likely in the table. Returns the best score and its move's index in
    /// `list` (the first move's when none beat `alpha`), or `None` when the search was stopped.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        position: &Position<R>,
        key: u64,
        counters: &Counters,
        list: &MoveList<Bits<R>>,
        table_move: Option<usize>,
        depth: i32,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        pv_node: bool,
        tt: &TranspositionTable,
        control: &Control,
    ) -> Option<(Value, usize)> {
        let mut best = -INFINITY;
        let mut best_index = usize::MAX;
        // A forced move costs no depth.
        let extension = i32::from(list.len() == 1 && ply < MAX_PLY / 2);
        count!(self, searched += 1, single_reply_extensions += extension);
        let mut count = 0;
        let quiets_from = self.quiets.len();
        let may_defer = self.shared && depth >= DEFER_DEPTH;
        let mut picker = MovePicker::new(table_move, self.deferred.len());
        let mut stopped = false;
        while let Some((index, second_pass)) = self.next_move(&mut picker, list, ply) {
            if best_index == usize::MAX {
                best_index = index;
            }
            let mv = list.as_slice()[index];
            if ply == 0 && self.excluded.contains(&mv) {
                continue;
            }
            let mut child = *position;
            child.play(&mv);
            self.enter(position, &child, ply);
            let busy = may_defer.then(|| child.hash());
            if let Some(child_key) = busy {
                if count > 0 && !second_pass && control.busy.contains(child_key) {
                    self.deferred.push(index);
                    continue;
                }
                control.busy.enter(child_key);
            }
            let next = self.rules.after(counters, position, &mv);
            self.path.push(key);
            let new_depth = depth - 1 + extension;
            let window = (alpha, beta);
            let score = self.search_move(
                &child, next, &mv, new_depth, depth, count, window, ply, pv_node, tt, control,
            );
            self.path.pop();
            if let Some(child_key) = busy {
                control.busy.leave(child_key);
            }
            count += 1;
            count!(self, moves_searched += 1);
            if control.stop.load(Ordering::Relaxed) {
                stopped = true;
                break;
            }
            if score > best {
                best = score;
                best_index = index;
                if score > alpha {
                    alpha = score;
                    self.extend_pv(ply, mv);
                    if ply == 0 {
                        self.root_score = score;
                    }
                    if score >= beta {
                        count!(self, cutoffs += 1, first_move_cutoffs += count == 1);
                        if !mv.is_capture() {
                            self.reward_cutoff(&mv, list, depth, ply, quiets_from);
                        }
                        break;
                    }
                }
            }
            if !mv.is_capture() {
                self.quiets.push(index);
            }
        }
        if picker.ordered {
            self.orders[ply] = picker.order;
        }
        self.deferred.truncate(picker.deferred_from);
        self.quiets.truncate(quiets_from);
        (!stopped).then_some((best, best_index))
    }

    /// The next move to search at a node (its index in `list`, and whether it is one deferred
    /// earlier): the table's move first, before the other moves' order keys are computed (most
    /// nodes where it is known cut off with it and need no keys), then the others by their
    /// keys, then the deferred ones.
    #[inline(always)]
    fn next_move(
        &mut self,
        picker: &mut MovePicker,
        list: &MoveList<Bits<R>>,
        ply: usize,
    ) -> Option<(usize, bool)> {
        if picker.pick < list.len() {
            let index = match picker.table_move {
                Some(index) if picker.pick == 0 => index,
                _ => {
                    if !picker.ordered {
                        picker.ordered = true;
                        picker.order = std::mem::take(&mut self.orders[ply]);
                        self.order(list, ply, &mut picker.order);
                        if let Some(index) = picker.table_move {
                            // Taken out of the pick order, where it comes first.
                            picker.order[index].0 = i32::MAX;
                            select(&mut picker.order, 0);
                        }
                    }
                    select(&mut picker.order, picker.pick)
                }
            };
            picker.pick += 1;
            Some((index, false))
        } else if picker.next_deferred < self.deferred.len() {
            picker.next_deferred += 1;
            Some((self.deferred[picker.next_deferred - 1], true))
        } else {
            None
        }
    }

    /// One move's search at a node searched to `depth` on `window`, the `count`th searched
    /// there: the first on the whole window; a later one on a null window first, one or two
    /// plies shallower when it is a late quiet move at a non-PV node (late-move reduction,
    /// captures never), again at full depth when a reduced search beats alpha, and on the
    /// whole window when the score lands inside it (principal variation search). The score
    /// from the node's side.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        child: &Position<R>,
        next: Counters,
        mv: &MoveOf<R>,
        new_depth: i32,
        depth: i32,
        count: i32,
        (alpha, beta): (Value, Value),
        ply: usize,
        pv_node: bool,
        tt: &TranspositionTable,
        control: &Control,
    ) -> Value {
        if count == 0 {
            return self
                .search_child(child, next, new_depth, alpha, beta, ply, pv_node, tt, control);
        }
        let late = &self.params;
        let reduce =
            if depth >= late.lmr_depth && count >= late.lmr_count && !mv.is_capture() && !pv_node {
                1 + i32::from(count >= late.lmr_late_count)
            } else {
                0
            };
        count!(self, reduced += reduce > 0);
        let mut score = self.search_child(
            child,
            next,
            new_depth - reduce,
            alpha,
            alpha + 1,
            ply,
            false,
            tt,
            control,
        );
        if score > alpha && reduce > 0 {
            count!(self, reduced_researches += 1);
            score = self.search_child(
                child,
                next,
                new_depth,
                alpha,
                alpha + 1,
                ply,
                false,
                tt,
                control,
            );
        }
        if score > alpha && score < beta {
            count!(self, pvs_researches += 1);
            score = self.search_child(child, next, new_depth, alpha, beta, ply, true, tt, control);
        }
        score
    }

    /// The search of `child`, one ply below `ply`, to `depth` on the window (`low`, `high`) of
    /// its parent: the score from the parent's side.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        child: &Position<R>,
        next: Counters,
        depth: i32,
        low: Value,
        high: Value,
        ply: usize,
        pv: bool,
        tt: &TranspositionTable,
        control: &Control,
    ) -> Value {
        if depth <= 0 {
            -self.leaf(child, next, -high, -low, ply + 1, tt, control)
        } else {
            -self.search(child, next, depth, -high, -low, ply + 1, pv, tt, control)
        }
    }

    /// A quiet move that cut off: its killer and history reward, and a history penalty for the
    /// quiet moves searched before it at the node.
    fn reward_cutoff(
        &mut self,
        mv: &MoveOf<R>,
        list: &MoveList<Bits<R>>,
        depth: i32,
        ply: usize,
        quiets_from: usize,
    ) {
        self.reward(mv, depth, ply);
        for at in quiets_from..self.quiets.len() {
            let tried = list.as_slice()[self.quiets[at]];
            self.update_history(&tried, -history_bonus(depth));
        }
    }

    /// Step 8: the node's result in the table: its best move (`best`: index in the list and
    /// move), and its score as a bound of the window (`alpha`, `beta`) it was searched on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn store(
        tt: &TranspositionTable,
        key: u64,
        (best_index, best_move): (usize, MoveOf<R>),
        best: Value,
        depth: i32,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        tt.store(
            key,
            Entry {
                mv: Some(TtMove {
                    index: best_index as u8,
                    from: best_move.from() as u8,
                    to: best_move.to() as u8,
                }),
                score: score_to_tt(best, ply),
                depth,
                bound,
            },
        );
    }

    /// The line at `ply` becomes `mv` followed by the line found below it.
    fn extend_pv(&mut self, ply: usize, mv: MoveOf<R>) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Plays out the captures the side to move must make (full window, no table: these nodes are
    /// many and short-lived, and a table probe here costs a cache miss for little gain). Every
    /// capture is irreversible, so no repetition or move-count draw can arise inside.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        position: &Position<R>,
        counters: &Counters,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        tt: &TranspositionTable,
        control: &Control,
    ) -> Value {
        self.nodes += 1;
        count!(self, quiescence += 1);
        self.seldepth = self.seldepth.max(ply);
        if self.poll(control) {
            return 0;
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        crate::movegen::generate(position, &mut list);
        let mut order = std::mem::take(&mut self.orders[ply]);
        self.order(&list, ply, &mut order);
        let mut best = -INFINITY;
        for pick in 0..order.len() {
            let index = select(&mut order, pick);
            let mv = list.as_slice()[index];
            let mut child = *position;
            child.play(&mv);
            let score =
                self.leaf_child(position, &child, counters, &mv, alpha, beta, ply, tt, control);
            if self.take_score(score, mv, &mut best, &mut alpha, beta, ply, control) {
                break;
            }
        }
        self.lists[ply] = list;
        self.orders[ply] = order;
        best
    }

    /// `child`, `mv` played from `position` at `ply`, searched by [`Searcher::leaf`] on the
    /// window (`alpha`, `beta`): the score from the side to move at `ply`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn leaf_child(
        &mut self,
        position: &Position<R>,
        child: &Position<R>,
        counters: &Counters,
        mv: &MoveOf<R>,
        alpha: Value,
        beta: Value,
        ply: usize,
        tt: &TranspositionTable,
        control: &Control,
    ) -> Value {
        self.enter(position, child, ply);
        let next = self.rules.after(counters, position, mv);
        self.path.push(position.hash());
        let score = -self.leaf(child, next, -beta, -alpha, ply + 1, tt, control);
        self.path.pop();
        score
    }

    /// A capture-search node's move `mv` scored `score`: `best`, `alpha` and the line raised
    /// where it beats them. True when the node is done: the move reached `beta`, or the search
    /// was stopped (`best` is then 0).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn take_score(
        &mut self,
        score: Value,
        mv: MoveOf<R>,
        best: &mut Value,
        alpha: &mut Value,
        beta: Value,
        ply: usize,
        control: &Control,
    ) -> bool {
        if control.stop.load(Ordering::Relaxed) {
            *best = 0;
            return true;
        }
        if score > *best {
            *best = score;
            if score > *alpha {
                *alpha = score;
                self.extend_pv(ply, mv);
                return score >= beta;
            }
        }
        false
    }

    /// A quiet leaf without kings whose evaluation, `stand_pat`, is below `beta`: the moves that
    /// offer the opponent a capture (most are exchanges, a man for a man, which the evaluation
    /// cannot see coming) and the moves that crown, each searched by [`Searcher::leaf`] (the
    /// capture search plays the exchange out). The best of them and `stand_pat`.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn exchanges(
        &mut self,
        position: &Position<R>,
        counters: &Counters,
        stand_pat: Value,
        alpha: Value,
        beta: Value,
        ply: usize,
        tt: &TranspositionTable,
        control: &Control,
    ) -> Value {
        let mut best = stand_pat;
        let mut alpha = alpha.max(stand_pat);
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.rules.legal_moves_into(position, counters, &mut list);
        let mut replies = std::mem::take(&mut self.lists[ply + 1]);
        for &mv in list.as_slice() {
            let mut child = *position;
            child.play(&mv);
            if !mv.promotes() && !offers_exchange(&child, &mut replies) {
                continue;
            }
            count!(self, exchanges += 1);
            let score =
                self.leaf_child(position, &child, counters, &mv, alpha, beta, ply, tt, control);
            if self.take_score(score, mv, &mut best, &mut alpha, beta, ply, control) {
                break;
            }
        }
        self.lists[ply + 1] = replies;
        self.lists[ply] = list;
        best
    }

    /// Order keys, one per move in list order: captures (longest first), killers, then quiet
    /// moves by history. The table's move, searched before them, is taken out by the caller.
    fn order(&self, list: &MoveList<Bits<R>>, ply: usize, keyed: &mut Vec<(i32, usize)>) {
        keyed.clear();
        for (index, mv) in list.as_slice().iter().enumerate() {
            let from_to = (mv.from() as u8, mv.to() as u8);
            let key = if mv.is_capture() {
                (1 << 28) + mv.captured().count() as i32
            } else if self.killers[ply][0] == Some(from_to) {
                1 << 27
            } else if self.killers[ply][1] == Some(from_to) {
                (1 << 27) - 1
            } else {
                self.history[history_index::<R>(mv.from(), mv.to())]
                    + i32::from(mv.promotes()) * (1 << 20)
            };
            keyed.push((key, index));
        }
        // Not sorted here: `select` picks the moves one by one, and most nodes that cut off
        // need only the first (a full sort cost 19% of the search's time).
    }

    fn reward(&mut self, mv: &MoveOf<R>, depth: i32, ply: usize) {
        let from_to = (mv.from() as u8, mv.to() as u8);
        if self.killers[ply][0] != Some(from_to) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(from_to);
        }
        self.update_history(mv, history_bonus(depth));
    }

    /// Moves a history entry by `bonus` (negative: a malus), less as it nears its bound
    /// ("gravity": an entry that is often confirmed stays high without growing for ever, and one
    /// that starts failing comes down quickly).
    fn update_history(&mut self, mv: &MoveOf<R>, bonus: i32) {
        let slot = &mut self.history[history_index::<R>(mv.from(), mv.to())];
        *slot += bonus - *slot * bonus.abs() / params::HISTORY_MAX;
    }
}

/// Whether `child`, just after a move, holds its side to move to captures that each take one
/// piece and each leave the mover a capture back: a man offered for a man (`replies`: scratch
/// space for the captures).
fn offers_exchange<R: Rules>(child: &Position<R>, replies: &mut MoveList<Bits<R>>) -> bool {
    if !has_capture(child) {
        return false;
    }
    crate::movegen::generate(child, replies);
    replies.as_slice().iter().all(|reply| {
        let mut after = *child;
        after.play(reply);
        reply.captured().count() == 1 && has_capture(&after)
    })
}

/// The history reward of a cutoff at `depth` plies.
/// Whether neither side has a capture: the side to move's legal moves (`list`, not empty) are
/// not captures (captures are compulsory, so a list holds only captures or none), and the
/// opponent would have none if it were its turn. The evaluation cuts stay off other nodes,
/// where the material the evaluation counts is about to change.
#[inline(always)]
fn nobody_can_capture<R: Rules>(position: &Position<R>, list: &MoveList<Bits<R>>) -> bool {
    if list.as_slice()[0].is_capture() {
        return false;
    }
    let mut passed = *position;
    passed.pass();
    !has_capture(&passed)
}

fn history_bonus(depth: i32) -> i32 {
    (depth * depth).min(params::HISTORY_MAX / 4)
}

/// The index in `list` of the table's move, if it is there (the index and squares must match:
/// the entry may come from another position with the same bucket).
fn table_move_index<B: BitSet>(list: &MoveList<B>, tt_move: TtMove) -> Option<usize> {
    let index = usize::from(tt_move.index);
    let mv = list.as_slice().get(index)?;
    ((mv.from() as u8, mv.to() as u8) == (tt_move.from, tt_move.to)).then_some(index)
}

/// The move index to search `pick`-th: the order of a stable sort by descending key (equal keys
/// keep generation order, so the search is deterministic). The first pick is a linear scan for
/// the maximum, since most nodes that cut off need no other; the second sorts the rest.
#[inline]
fn select(order: &mut [(i32, usize)], pick: usize) -> usize {
    match pick {
        0 => {
            let mut best = 0;
            for candidate in 1..order.len() {
                if order[candidate].0 > order[best].0 {
                    best = candidate;
                }
            }
            order[..=best].rotate_right(1);
        }
        1 => order[1..].sort_by_key(|entry| std::cmp::Reverse(entry.0)),
        _ => {}
    }
    order[pick].1
}

/// The history slot of a move: one per origin and destination bit, sized to the board's bit
/// set (64 x 64 on boards up to 10x10, 16 KiB, which stays in the first-level cache).
fn history_index<R: Rules>(from: u32, to: u32) -> usize {
    let width = <Bits<R> as BitSet>::WIDTH as usize;
    (from as usize % width) * width + (to as usize % width)
}

/// The score of a finished game `ply` plies below the root, for the side to move in `position`.
pub fn verdict_score<R: Rules>(verdict: &Verdict, position: &Position<R>, ply: usize) -> Value {
    match verdict {
        Verdict::Win(winner, _) if *winner == position.side_to_move() => WIN - ply as Value,
        Verdict::Win(..) => -WIN + ply as Value,
        Verdict::Draw(_) => 0,
    }
}

/// The search value of an endgame database's `value` at `ply`: a known win comes down by one
/// per ply, in the tree and to the conversion. (A value without distance is scored by the
/// search in its own band, below these.)
pub fn known_score(value: egdb::Value, ply: usize) -> Value {
    let plies = (ply as Value + value.distance() as Value).min(KNOWN_DISTANCE_SPAN);
    match value.outcome() {
        Outcome::Win => KNOWN_WIN - plies,
        Outcome::Loss => -(KNOWN_WIN - plies),
        Outcome::Draw => 0,
    }
}

/// Win scores are stored relative to the node, so that a win found through a transposition
/// keeps its true distance.
fn score_to_tt(score: Value, ply: usize) -> Value {
    if score >= WIN_BOUND {
        score + ply as Value
    } else if score <= -WIN_BOUND {
        score - ply as Value
    } else {
        score
    }
}

fn score_from_tt(score: Value, ply: usize) -> Value {
    if score >= WIN_BOUND {
        score - ply as Value
    } else if score <= -WIN_BOUND {
        score + ply as Value
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{fen, moves};
    use crate::rules::English;

    /// The position after `played` (PDN) from `start`, and whether it offers an exchange.
    fn offers_after(start: &str, played: &str) -> bool {
        let position = fen::parse::<English>(start).unwrap();
        let mut list = MoveList::new();
        crate::movegen::generate(&position, &mut list);
        let mv = list.as_slice().iter().find(|mv| moves::to_pdn(&position, mv) == played);
        let mut child = position;
        child.play(mv.unwrap_or_else(|| panic!("{played} is not legal in {start}")));
        offers_exchange(&child, &mut MoveList::new())
    }

    #[test]
    fn an_exchange_is_a_man_offered_with_a_capture_back() {
        // 22-18 15x22 26x17: a man for a man (31 stops the capture at 22).
        assert!(offers_after("W:W22,26,31:B15", "22-18"));
        // Nothing takes back: the man is given.
        assert!(!offers_after("W:W22,31:B15", "22-18"));
        // 15x22x31 takes two men.
        assert!(!offers_after("W:W22,26:B15", "22-18"));
        // Out of reach of the black man: nothing offered.
        assert!(!offers_after("W:W22,26,31:B15", "22-17"));
    }
}
