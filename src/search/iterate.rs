//! The main thread's iterative deepening: one depth after another, each with MultiPV lines (a
//! line searches the root without the first moves of the lines above it), reporting each
//! completed depth, and stopping on the clock, a decided score, or a single legal move.
//!
//! Depends on the sibling modules and `game`; reports through an [`InfoSink`], never prints.

use super::alphabeta::{Iteration, Searcher, WIN, WIN_BOUND};
use super::smp::Shared;
use super::{Info, InfoSink, Limits, Score, TimeManager, Value};
use crate::game::Game;
use crate::rules::Rules;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// What the main thread is asked for.
pub struct Plan {
    /// Lines to search at each depth (1 unless MultiPV or a strength level asks for more).
    pub lines: usize,
    /// The depth limit.
    pub max_depth: u32,
    /// Only one legal move and nobody asked for analysis: one iteration is enough.
    pub single_move: bool,
    /// When the search began (for the reported times).
    pub started: Instant,
}

/// What the main thread found.
pub struct Found<R: Rules> {
    /// The best line of the deepest completed depth (or the first line of an interrupted one).
    pub best: Option<Iteration<R>>,
    /// Every line of the deepest completed depth, best first (for a strength level's choice).
    pub last_lines: Vec<Iteration<R>>,
}

/// Deepens the main thread's search of the game's position as `plan` says.
pub fn deepen<R: Rules>(
    slot: &Mutex<Searcher<R>>,
    game: &Game<R>,
    limits: &Limits,
    threads: bool,
    plan: &Plan,
    shared: &Shared<'_, R>,
    sink: &mut dyn InfoSink<R>,
) -> Found<R> {
    let control = shared.control;
    let mut found = Found { best: None, last_lines: Vec::new() };
    let Ok(mut main) = slot.lock() else {
        control.stop.store(true, Ordering::Relaxed);
        return found;
    };
    let root = *game.position();
    main.prepare(game, limits, Some(TimeManager::new(limits)), threads);
    let mut previous: Vec<Value> = Vec::new();
    for depth in 1..=plan.max_depth {
        shared.main_at(depth);
        if control.ponder_hit.swap(false, Ordering::Relaxed) {
            main.restart_clock();
        }
        let mut lines: Vec<Iteration<R>> = Vec::with_capacity(plan.lines);
        for line in 0..plan.lines {
            let guess = previous.get(line).copied();
            let Some(iteration) = main.iterate(&root, depth, guess, shared.tt, control) else {
                // Stopped mid-iteration. With one line, a move the unfinished iteration found
                // better than the last one's (a completed search at the new depth) is played:
                // the time spent on it is not thrown away.
                if plan.lines == 1 {
                    if let Some(unfinished) = main.unfinished(depth) {
                        found.best = Some(unfinished);
                    }
                }
                break;
            };
            let Some(&first) = iteration.pv.first() else { break };
            main.excluded.push(first);
            lines.push(iteration);
        }
        main.excluded.clear();
        if lines.len() < plan.lines {
            // Stopped mid-iteration: the first line, if complete, is still the best move.
            if plan.lines > 1 {
                if let Some(first) = lines.into_iter().next() {
                    found.best = Some(first);
                }
            }
            break;
        }
        lines.sort_by_key(|iteration| -iteration.score);
        previous = lines.iter().map(|iteration| iteration.score).collect();
        for (index, iteration) in lines.iter().enumerate() {
            sink.info(&Info {
                depth,
                multipv: index + 1,
                seldepth: main.seldepth as u32,
                mean_depth: main.leaf_plies.0 as f64 / main.leaf_plies.1.max(1) as f64,
                score: Score::new(iteration.score),
                nodes: control.nodes.load(Ordering::Relaxed) + main.unreported_nodes(),
                time: plan.started.elapsed(),
                pv: iteration.pv.clone(),
                source: super::Source::Search,
            });
        }
        let best = lines[0].clone();
        let decisive = best.score.abs() >= WIN_BOUND && WIN - best.score.abs() <= depth as Value;
        found.best = Some(best);
        found.last_lines = lines;
        let thinking = !control.ponder.load(Ordering::Relaxed) && !limits.infinite;
        if thinking && (plan.single_move || decisive || main.clock_soft_expired()) {
            break;
        }
    }
    found
}
