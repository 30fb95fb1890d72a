//! Playing strength below full: a depth cap and a choice among the best lines that errs the
//! way a person does (a plausible second-best move), never throwing a win away.
//!
//! Depends on the sibling `alphabeta` (its iterations); nothing else.

use super::alphabeta::{Iteration, WIN_BOUND};
use crate::rules::Rules;

/// Full strength; lower levels play weaker (see [`super::Engine::set_level`]).
pub const MAX_LEVEL: u32 = 20;

/// Lines a weakened engine chooses from.
pub const LEVEL_LINES: usize = 4;

/// Depth a level searches to: 1 at level 1, 10 at level 19.
pub fn level_depth(level: u32) -> u32 {
    1 + level / 2
}

/// Chooses among the lines (best first) of a weakened search: lines within a margin of the best
/// that widens as the level drops, each drawn with a weight that falls with its score gap, so
/// the engine errs like a person does (a plausible second-best move), not at random.
pub fn pick_line<R: Rules>(lines: &[Iteration<R>], level: u32, seed: u64) -> usize {
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
