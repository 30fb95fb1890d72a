//! Lazy SMP: the helper threads. Each searches the same root with its own [`Searcher`], sharing
//! the transposition table, the stop flag and the node count with the main thread; odd helpers
//! keep one ply ahead of the main thread, even ones at its depth, so that their table entries
//! guide it. The deepest iteration a helper completes is kept: it is played when it is deeper
//! than the main thread's (single-line searches), and a helper that completes the depth limit
//! ends the search.
//!
//! Depends on the sibling modules and `game`; never prints.

use super::alphabeta::{Iteration, Searcher};
use super::{Control, Limits, TranspositionTable};
use crate::game::Game;
use crate::rules::Rules;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

/// What the threads of one search share besides the table's contents.
pub struct Shared<'a, R: Rules> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Stop flag, ponder flags, node count.
    pub control: &'a Control,
    /// The depth limit.
    pub max_depth: u32,
    /// Whether a helper that completes `max_depth` ends the search.
    helper_may_finish: bool,
    /// The depth the main thread is searching.
    main_depth: AtomicU32,
    /// The deepest iteration a helper completed.
    deepest: Mutex<Option<Iteration<R>>>,
}

impl<'a, R: Rules> Shared<'a, R> {
    /// The shared state of a search to `max_depth`.
    pub fn new(
        tt: &'a TranspositionTable,
        control: &'a Control,
        max_depth: u32,
        helper_may_finish: bool,
    ) -> Self {
        Shared {
            tt,
            control,
            max_depth,
            helper_may_finish,
            main_depth: AtomicU32::new(1),
            deepest: Mutex::new(None),
        }
    }

    /// The main thread starts `depth`.
    pub fn main_at(&self, depth: u32) {
        self.main_depth.store(depth, Ordering::Relaxed);
    }

    /// The deepest iteration a helper completed, taken out.
    pub fn deepest(&self) -> Option<Iteration<R>> {
        self.deepest.lock().ok().and_then(|mut deepest| deepest.take())
    }

    fn offer(&self, iteration: Iteration<R>) {
        if let Ok(mut deepest) = self.deepest.lock() {
            if deepest.as_ref().is_none_or(|d| iteration.depth > d.depth) {
                *deepest = Some(iteration);
            }
        }
    }
}

/// Helper thread number `index` (from 1): searches the game's position until the search stops
/// or the depth limit is reached.
pub fn help<R: Rules>(
    slot: &Mutex<Searcher<R>>,
    index: usize,
    game: &Game<R>,
    limits: &Limits,
    threads: bool,
    shared: &Shared<'_, R>,
) {
    let Ok(mut searcher) = slot.lock() else { return };
    let control = shared.control;
    let root = *game.position();
    searcher.prepare(game, limits, None, threads);
    // Helpers start one ply deeper every other thread, to spread the work.
    let odd = index as u32 % 2;
    let mut depth = 1 + odd;
    let mut previous = None;
    while depth <= shared.max_depth && !control.stop.load(Ordering::Relaxed) {
        let Some(iteration) = searcher.iterate(&root, depth, previous, shared.tt, control) else {
            break;
        };
        previous = Some(iteration.score);
        shared.offer(iteration);
        if depth == shared.max_depth && shared.helper_may_finish {
            control.stop.store(true, Ordering::Relaxed);
        }
        // Keep ahead of the main thread: odd helpers one ply deeper than it, even ones at its
        // depth.
        let lead = shared.main_depth.load(Ordering::Relaxed) + odd;
        let next = (depth + 1).max(lead).min(shared.max_depth);
        if next <= depth {
            break;
        }
        depth = next;
    }
}
