//! Search limits and the clock: what `go` may spend, as a soft bound (do not start an iteration
//! that cannot finish) and a hard bound (stop now). Only the main search thread reads the clock.
//! Depends on nothing but std.

use std::time::{Duration, Instant};

/// What a search may spend. Empty limits mean "search until stopped".
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Stop after completing this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Spend exactly this long on the move.
    pub move_time: Option<Duration>,
    /// Time left on our clock.
    pub time_left: Option<Duration>,
    /// Increment per move.
    pub increment: Duration,
    /// Moves to play before the next time control (None: sudden death or Fischer).
    pub moves_to_go: Option<u32>,
    /// Search until told to stop (analysis, pondering).
    pub infinite: bool,
    /// Analysis: search even a single legal move, to show its score and line.
    pub analysis: bool,
}

/// Time kept back on every move for the protocol round trip.
const MARGIN: Duration = Duration::from_millis(30);

/// The clock of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    /// No iteration starts after this.
    soft: Option<Duration>,
    /// The search stops at this.
    hard: Option<Duration>,
}

impl TimeManager {
    /// Bounds for `limits`, starting now.
    pub fn new(limits: &Limits) -> Self {
        let (soft, hard) = Self::bounds(limits);
        TimeManager { start: Instant::now(), soft, hard }
    }

    fn bounds(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
        if limits.infinite {
            return (None, None);
        }
        if let Some(move_time) = limits.move_time {
            // At most a fifth of the move kept back: with the whole margin a 10 ms move had no
            // time left and searched one ply. The whole move is searched: an iteration the
            // clock stops still gives its best move so far (`Searcher::unfinished`); stopping
            // at 60% left a median 30% of each move unused.
            let budget = move_time.saturating_sub((MARGIN / 3).min(move_time / 5));
            return (Some(budget), Some(budget));
        }
        let Some(left) = limits.time_left else {
            return (None, None);
        };
        let usable = left.saturating_sub(MARGIN);
        let moves = limits.moves_to_go.map_or(30, |m| m.clamp(1, 50));
        let share = usable / moves + limits.increment.mul_f64(0.8);
        let share = share.min(usable.mul_f64(0.4));
        let hard = (share * 3).min(usable.mul_f64(if moves == 1 { 0.9 } else { 0.5 }));
        // An iteration that starts after 60% of the share would likely end beyond it.
        (Some(share.mul_f64(0.6)), Some(hard.max(share)))
    }

    /// Restarts the clock (a ponder hit: the opponent played the expected move).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    /// Time since the search (or the ponder hit) began.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True when no new iteration should start.
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|soft| self.elapsed() >= soft)
    }

    /// True when the search must stop at once.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|hard| self.elapsed() >= hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_respect_the_clock() {
        let limits = Limits { time_left: Some(Duration::from_secs(60)), ..Limits::default() };
        let (soft, hard) = TimeManager::bounds(&limits);
        let (soft, hard) = (soft.unwrap(), hard.unwrap());
        assert!(soft <= hard && hard < Duration::from_secs(30));
        // A fixed move time is searched whole: iterations start until its end.
        let fixed = Limits { move_time: Some(Duration::from_millis(100)), ..Limits::default() };
        let (soft, hard) = TimeManager::bounds(&fixed);
        assert_eq!(soft, hard);
        let last = Limits {
            time_left: Some(Duration::from_secs(1)),
            moves_to_go: Some(1),
            ..Limits::default()
        };
        assert!(TimeManager::bounds(&last).1.unwrap() < Duration::from_secs(1));
        let fixed = Limits { move_time: Some(Duration::from_millis(500)), ..Limits::default() };
        assert!(TimeManager::bounds(&fixed).1.unwrap() <= Duration::from_millis(500));
        // A very short move keeps most of its time (it once kept none and searched one ply).
        let short = Limits { move_time: Some(Duration::from_millis(10)), ..Limits::default() };
        assert_eq!(TimeManager::bounds(&short).0, Some(Duration::from_millis(8)));
        assert_eq!(TimeManager::bounds(&Limits { infinite: true, ..limits }), (None, None));
    }
}
