//! Match statistics: the Elo difference of an engine-vs-engine match from its trinomial
//! (win/draw/loss) and pentanomial (game-pair) results, with 95% intervals; normalized Elo; and
//! the generalized sequential probability ratio test (GSPRT) on pentanomial game pairs.
//!
//! This module is pure arithmetic on counts. It depends on nothing else in the crate, only on
//! `std`, so that it can be tested, and reasoned about, on its own; keep it that way.
//!
//! The numbers are those of fishtest, Stockfish's testing framework
//! (<https://github.com/official-stockfish/fishtest>): `get_elo` in
//! `server/fishtest/stats/stat_util.py` for the logistic Elo and its interval, the pentanomial
//! nElo shown by `server/fishtest/http/template_helpers.py`, and `LLR_logistic` /
//! `LLR_normalized` in `server/fishtest/stats/LLRcalc.py` for the log-likelihood ratio, with
//! the stopping rule of `update_SPRT`. The theory is Michel Van den Bergh's:
//!
//! - "Comments on maximum likelihood estimation for multinomial distributions"
//!   (<https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf>, Proposition 1.1): the
//!   distribution closest to the observed one with a given expected score solves a secular
//!   equation in one Lagrange multiplier;
//! - "Normalized Elo, practical considerations"
//!   (<https://www.cantate.be/Fishtest/normalized_elo_practical.pdf>, sections 4.1 and 4.2):
//!   normalized Elo as a scaled t-value, its standard error, and the distribution with a given
//!   t-value found by iterating that secular equation;
//! - "GSPRT approximation" (<https://www.cantate.be/Fishtest/GSPRT_approximation.pdf>), which
//!   justifies using those maximum-likelihood distributions in a sequential test.
//!
//! Where fishtest makes a choice (a zero count replaced by 1e-3 before anything is computed,
//! scores clamped to [0.001, 0.999] when turned into Elo, a symmetric Elo interval, ten
//! iterations for the t-value estimate) this module makes the same one, so that its numbers
//! can be compared with a fishtest run's.

use std::f64::consts::{LN_10, SQRT_2};

/// The 97.5% quantile of the standard normal law: a two-sided 95% interval is ±this many
/// standard errors.
const Z_975: f64 = 1.959_963_984_540_054;

/// What fishtest puts in place of a zero count: it keeps every outcome possible, so that
/// logarithms and variances stay finite, while hardly moving any estimate.
const ZERO_COUNT_PRIOR: f64 = 1e-3;

/// fishtest turns scores into Elo only after clamping them to [this, 1 - this]: an interval
/// end past 0 or 1 then still gives a finite (if meaningless) Elo.
const SCORE_CLAMP: f64 = 1e-3;

/// Normalized Elo per unit of normalized t-value, 800 / ln 10: chosen so that a small
/// logistic Elo difference and a normalized one agree when the per-game standard deviation is
/// 1/2 (no draws, even match).
const NELO_PER_T: f64 = 800.0 / LN_10;

/// fishtest searches the Lagrange multiplier this far inside the poles of the secular
/// equation, where the equation itself is infinite.
const POLE_MARGIN: f64 = 1e-9;

/// The fixed-point iteration for a given t-value: fishtest's cap and its convergence test on
/// the largest change of a probability.
const T_VALUE_ITERATIONS: usize = 10;
const T_VALUE_TOLERANCE: f64 = 1e-9;

/// Bisection for the Lagrange multiplier stops once the bracket is this narrow relative to the
/// multiplier (well below fishtest's Brent tolerance of 2e-12), or after so many halvings.
const MULTIPLIER_TOLERANCE: f64 = 1e-15;
const MAX_BISECTIONS: usize = 200;

/// Wins, draws, losses of one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games the engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the engine lost.
    pub losses: u32,
}

/// Counts of game pairs (same opening, colours reversed) by the pair's score for the first
/// engine: `counts[i]` is the number of pairs in which it scored `i / 2` points, from 0 (two
/// losses) to 2 (two wins). This is fishtest's order LL, LD+DL, LW+DD+WL, DW+WD, WW.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs scoring 0, 0.5, 1, 1.5 and 2 points.
    pub counts: [u32; 5],
}

/// An estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The point estimate.
    pub value: f64,
    /// The lower end of the 95% interval.
    pub low: f64,
    /// The upper end of the 95% interval.
    pub high: f64,
}

/// Which Elo scale the SPRT bounds are given in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo: the expected score is `score_of_elo(elo)` (fishtest's "logistic").
    Logistic,
    /// Normalized Elo: the expected score measured in standard deviations of the per-game
    /// score, times 800 / ln 10 (fishtest's "normalized"). It does not depend on the draw
    /// rate the way logistic Elo does.
    Normalized,
}

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The largest chance of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// The largest chance of accepting H0 when H1 holds (false negative).
    pub beta: f64,
    /// The scale `elo0` and `elo1` are given in.
    pub model: EloModel,
}

/// Where a sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// The log-likelihood ratio is between the bounds: play more pairs.
    Continue,
    /// The log-likelihood ratio fell below the lower bound: H0 (fishtest: "rejected").
    AcceptH0,
    /// The log-likelihood ratio rose above the upper bound: H1 (fishtest: "accepted").
    AcceptH1,
}

/// The logistic Elo difference that gives an expected score `score`: -400 log10(1/s - 1).
/// A score of 0 gives -∞ and a score of 1 gives +∞.
pub fn logistic_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of a logistic Elo difference `elo`: 1 / (1 + 10^(-elo/400)).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Estimate {
    /// Half the interval's width: the "±" of "value ± margin".
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// What is reported when every game (or pair) went the same way, a score of 0 or 1: the
    /// Elo difference is infinite and the data bound nothing, so the interval is the whole
    /// line. (fishtest would report a finite value here, an artefact of its regularization
    /// and clamping.)
    fn unbounded(value: f64) -> Self {
        Estimate { value, low: f64::NEG_INFINITY, high: f64::INFINITY }
    }

    /// `value` with a symmetric interval of half-width `margin`.
    fn around(value: f64, margin: f64) -> Self {
        Estimate { value, low: value - margin, high: value + margin }
    }
}

impl Trinomial {
    /// Counts a game the engine scored `points` in (1, 0.5 or 0).
    pub fn add(&mut self, points: f64) {
        match points {
            1.0 => self.wins += 1,
            0.0 => self.losses += 1,
            _ => self.draws += 1,
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The engine's score as a fraction of the points played for; NaN when no game was played.
    pub fn score(&self) -> f64 {
        let games = f64::from(self.games());
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / games
    }

    /// The fraction of games drawn; NaN when no game was played.
    pub fn draw_ratio(&self) -> f64 {
        f64::from(self.draws) / f64::from(self.games())
    }

    /// The logistic Elo difference with its 95% interval, as fishtest's `get_elo` computes it
    /// for trinomial results: the interval is that of the mean score, normal approximation,
    /// mapped to Elo, and made symmetric about the estimate by taking half its Elo width.
    /// `None` when no game was played; at a score of 0 or 1, a value of ∓∞ with an interval of
    /// the whole line.
    pub fn elo(&self) -> Option<Estimate> {
        logistic_estimate([self.losses, self.draws, self.wins])
    }
}

impl Pentanomial {
    /// Counts one game pair, given the first engine's score in each of its two games (0, 0.5
    /// or 1).
    ///
    /// # Panics
    ///
    /// If a score is not 0, 0.5 or 1.
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = game_half_points(first) + game_half_points(second);
        self.counts[half_points] += 1;
    }

    /// Game pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The first engine's score per game, as a fraction; NaN when no pair was played.
    pub fn score(&self) -> f64 {
        let half_points: f64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(index, &count)| index as f64 * f64::from(count))
            .sum();
        // Each pair is worth 2 points, that is 4 half points.
        half_points / (4.0 * f64::from(self.pairs()))
    }

    /// The logistic Elo difference with its 95% interval, as fishtest's `get_elo` computes it
    /// for pentanomial results: the standard error of the score comes from the variance of the
    /// pair scores, so the correlation of the two games of a pair (same opening) is accounted
    /// for. The interval is symmetric (half the Elo width of the score's interval), as in
    /// fishtest. `None` when no pair was played; at a score of 0 or 1, ∓∞ with an interval of
    /// the whole line.
    pub fn elo(&self) -> Option<Estimate> {
        logistic_estimate(self.counts)
    }

    /// Normalized Elo with its 95% interval, as fishtest shows it for pentanomial results
    /// ("nElo"): with the pair score halved to [0, 1], mean μ and standard deviation σ,
    /// t = (μ - 1/2) / σ and nElo = 800 / ln 10 · t / √2 (the √2 turns the per-pair t-value into
    /// a per-game one). The interval is t ± 1.96 √(v / N), scaled alike, with N the pairs and
    /// v = 1 - t·skewness + t² (excess kurtosis + 2) / 4 the asymptotic variance of the sample
    /// t-value (Van den Bergh). `None` when no pair was played; at a score of 0 or 1, ∓∞ with
    /// an interval of the whole line.
    pub fn normalized_elo(&self) -> Option<Estimate> {
        if let Some(early) = empty_or_one_sided(self.counts) {
            return early;
        }
        let empirical = Empirical::of(self.counts);
        let moments = empirical.moments();
        let t = (moments.mean - 0.5) / moments.variance.sqrt();
        // Rounding can push the variance of t slightly below zero; fishtest clamps it too.
        let t_variance =
            (1.0 - t * moments.skewness + 0.25 * t * t * (moments.excess_kurtosis + 2.0)).max(0.0);
        let nelo_per_pair_t = NELO_PER_T / SQRT_2;
        Some(Estimate::around(
            nelo_per_pair_t * t,
            nelo_per_pair_t * Z_975 * (t_variance / empirical.total).sqrt(),
        ))
    }

    /// The generalized log-likelihood ratio of H1: Elo = `elo1` against H0: Elo = `elo0`, in
    /// the scale `model`, as fishtest's `LLR_logistic` / `LLR_normalized` compute it: each
    /// hypothesis is represented by the maximum-likelihood pentanomial distribution that
    /// satisfies it (expected score `score_of_elo(elo)` for logistic Elo; t-value
    /// `elo / (800 / ln 10) · √2` for normalized Elo), and the ratio is that of the observed
    /// counts' likelihoods under the two. Zero counts are first replaced by 1e-3. NaN if a
    /// hypothesis cannot be met by any distribution on the pair scores (an infinite Elo bound).
    pub fn llr(&self, elo0: f64, elo1: f64, model: EloModel) -> f64 {
        let empirical = Empirical::of(self.counts);
        let fitted = |elo: f64| match model {
            EloModel::Logistic => empirical.closest_with_mean(score_of_elo(elo)),
            EloModel::Normalized => empirical.closest_with_t_value(0.5, elo / NELO_PER_T * SQRT_2),
        };
        match (fitted(elo0), fitted(elo1)) {
            (Some(under_h0), Some(under_h1)) => {
                let per_pair: f64 = empirical
                    .probabilities
                    .iter()
                    .zip(under_h0.iter().zip(&under_h1))
                    .map(|(observed, (p0, p1))| observed * (p1.ln() - p0.ln()))
                    .sum();
                empirical.total * per_pair
            }
            _ => f64::NAN,
        }
    }
}

impl Sprt {
    /// The log-likelihood ratio bounds (lower, upper): ln(β / (1 - α)) and ln((1 - β) / α),
    /// Wald's bounds as fishtest uses them.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of `results` and what it decides: H0 once it is below the
    /// lower bound, H1 once it is above the upper one, as fishtest's `update_SPRT`. fishtest
    /// also moves the bounds inward by an overshoot estimate gathered from the ratio's history
    /// across updates; this function sees only the current counts, so it uses the plain bounds.
    /// A NaN ratio (an infinite Elo bound) decides nothing: `Continue`.
    pub fn state(&self, results: &Pentanomial) -> (f64, SprtState) {
        let llr = results.llr(self.elo0, self.elo1, self.model);
        let (lower, upper) = self.bounds();
        let state = if llr < lower {
            SprtState::AcceptH0
        } else if llr > upper {
            SprtState::AcceptH1
        } else {
            SprtState::Continue
        };
        (llr, state)
    }
}

/// A game's score in half points, 0 to 2.
fn game_half_points(score: f64) -> usize {
    let half_points = score * 2.0;
    assert!(
        half_points.fract() == 0.0 && (0.0..=2.0).contains(&half_points),
        "a game scores 0, 0.5 or 1, not {score}"
    );
    half_points as usize
}

/// The estimate for `counts` (indexed by score, low to high) when it needs no computing:
/// `Some(None)` when there are no results, `Some(Some(unbounded))` when every result is the
/// lowest or every one the highest; `None` when there is something to compute.
fn empty_or_one_sided<const K: usize>(counts: [u32; K]) -> Option<Option<Estimate>> {
    let total: u64 = counts.iter().map(|&count| u64::from(count)).sum();
    if total == 0 {
        Some(None)
    } else if total == u64::from(counts[0]) {
        Some(Some(Estimate::unbounded(f64::NEG_INFINITY)))
    } else if total == u64::from(counts[K - 1]) {
        Some(Some(Estimate::unbounded(f64::INFINITY)))
    } else {
        None
    }
}

/// fishtest's `get_elo` for counts indexed by points in half points (K = 3: losses, draws,
/// wins; K = 5: the pentanomial), after the checks of `empty_or_one_sided`.
fn logistic_estimate<const K: usize>(counts: [u32; K]) -> Option<Estimate> {
    if let Some(early) = empty_or_one_sided(counts) {
        return early;
    }
    let weights = regularized(counts);
    let total: f64 = weights.iter().sum();
    let games_per_result = (K - 1) as f64 / 2.0;
    let games = total * games_per_result;
    let mean_score: f64 =
        weights.iter().enumerate().map(|(index, weight)| weight * index as f64 / 2.0).sum::<f64>()
            / games;
    // The variance of one result's points, shared out over its games: for pairs this is half
    // the pair variance, which is what makes var / games the variance of the mean score.
    let mean_points = games_per_result * mean_score;
    let variance: f64 = weights
        .iter()
        .enumerate()
        .map(|(index, weight)| weight * (index as f64 / 2.0 - mean_points).powi(2))
        .sum::<f64>()
        / games;
    let score_margin = Z_975 * (variance / games).sqrt();
    let elo_margin =
        (clamped_elo(mean_score + score_margin) - clamped_elo(mean_score - score_margin)) / 2.0;
    Some(Estimate::around(clamped_elo(mean_score), elo_margin))
}

/// fishtest's `elo`: the logistic Elo of a score clamped to [0.001, 0.999].
fn clamped_elo(score: f64) -> f64 {
    logistic_elo(score.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP))
}

/// The counts as reals, a zero replaced by fishtest's small prior.
fn regularized<const K: usize>(counts: [u32; K]) -> [f64; K] {
    counts.map(|count| if count == 0 { ZERO_COUNT_PRIOR } else { f64::from(count) })
}

/// The observed distribution of results on the scores 0, 1/(K-1), ..., 1, from regularized
/// counts (fishtest's `results_to_pdf`).
struct Empirical<const K: usize> {
    /// The regularized number of results, zero counts' priors included (fishtest's N).
    total: f64,
    /// The score of each outcome, 0 to 1.
    scores: [f64; K],
    /// The observed frequency of each outcome.
    probabilities: [f64; K],
}

/// Mean, variance, skewness and excess kurtosis of a distribution.
struct Moments {
    mean: f64,
    variance: f64,
    skewness: f64,
    excess_kurtosis: f64,
}

impl<const K: usize> Empirical<K> {
    fn of(counts: [u32; K]) -> Self {
        let weights = regularized(counts);
        let total: f64 = weights.iter().sum();
        let mut scores = [0.0; K];
        for (index, score) in scores.iter_mut().enumerate() {
            *score = index as f64 / (K - 1) as f64;
        }
        Empirical { total, scores, probabilities: weights.map(|weight| weight / total) }
    }

    fn moments(&self) -> Moments {
        let (mean, variance) = mean_and_variance(&self.scores, &self.probabilities);
        let central_moment = |power: i32| -> f64 {
            self.scores
                .iter()
                .zip(&self.probabilities)
                .map(|(score, probability)| probability * (score - mean).powi(power))
                .sum()
        };
        Moments {
            mean,
            variance,
            skewness: central_moment(3) / variance.powf(1.5),
            excess_kurtosis: central_moment(4) / (variance * variance) - 3.0,
        }
    }

    /// The distribution on the same scores with expected score `mean` that is most likely to
    /// have produced the observed one (fishtest's `MLE_expected`). By Lagrange, its
    /// probabilities are p̂ᵢ / (1 + x (aᵢ - mean)) with x the root of the secular equation.
    fn closest_with_mean(&self, mean: f64) -> Option<[f64; K]> {
        let shifted = self.scores.map(|score| score - mean);
        let multiplier = solve_secular(&shifted, &self.probabilities)?;
        Some(self.reweighted(&shifted, multiplier))
    }

    /// The distribution on the same scores with t-value (μ - `reference`) / σ equal to
    /// `t_value` that is most likely to have produced the observed one (fishtest's
    /// `MLE_t_value`). The constraint is not linear in the probabilities; linearized around
    /// the current guess (μ, σ) it becomes a mean constraint on shifted scores
    /// aᵢ - reference - t σ (1 + ((μ - aᵢ) / σ)²) / 2, solved as in `closest_with_mean`, and
    /// the guess is iterated from the uniform distribution, as fishtest does (at most ten
    /// times, until no probability moves by 1e-9).
    fn closest_with_t_value(&self, reference: f64, t_value: f64) -> Option<[f64; K]> {
        let mut fitted = [1.0 / K as f64; K];
        for _ in 0..T_VALUE_ITERATIONS {
            let (mean, variance) = mean_and_variance(&self.scores, &fitted);
            let sigma = variance.sqrt();
            let shifted = self.scores.map(|score| {
                let deviation = (mean - score) / sigma;
                score - reference - t_value * sigma * (1.0 + deviation * deviation) / 2.0
            });
            let multiplier = solve_secular(&shifted, &self.probabilities)?;
            let next = self.reweighted(&shifted, multiplier);
            let largest_change = fitted
                .iter()
                .zip(&next)
                .map(|(before, after)| (before - after).abs())
                .fold(0.0, f64::max);
            fitted = next;
            if largest_change < T_VALUE_TOLERANCE {
                break;
            }
        }
        Some(fitted)
    }

    /// p̂ᵢ / (1 + x aᵢ): a distribution again (it sums to 1) when x solves the secular equation
    /// for the shifted scores aᵢ.
    fn reweighted(&self, shifted: &[f64; K], multiplier: f64) -> [f64; K] {
        let mut reweighted = self.probabilities;
        for (probability, shift) in reweighted.iter_mut().zip(shifted) {
            *probability /= 1.0 + multiplier * shift;
        }
        reweighted
    }
}

fn mean_and_variance<const K: usize>(scores: &[f64; K], probabilities: &[f64; K]) -> (f64, f64) {
    let mean: f64 = scores.iter().zip(probabilities).map(|(score, p)| p * score).sum();
    let variance: f64 =
        scores.iter().zip(probabilities).map(|(score, p)| p * (score - mean).powi(2)).sum();
    (mean, variance)
}

/// The root x of the secular equation Σ pᵢ aᵢ / (1 + x aᵢ) = 0 between its poles -1/max(a)
/// and -1/min(a) (fishtest's `secular`, there with Brent's method). The left side falls
/// strictly from +∞ to -∞ on that interval, so bisection finds the one root; `None` if the
/// aᵢ do not straddle zero, when no root exists (the constraint is out of reach).
fn solve_secular<const K: usize>(shifted: &[f64; K], probabilities: &[f64; K]) -> Option<f64> {
    let lowest = shifted.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = shifted.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lowest < 0.0 && highest > 0.0) {
        return None;
    }
    let secular = |x: f64| -> f64 {
        shifted.iter().zip(probabilities).map(|(a, p)| p * a / (1.0 + x * a)).sum()
    };
    // The left end has the positive side, the right end the negative one.
    let mut positive_side = -1.0 / highest + POLE_MARGIN;
    let mut negative_side = -1.0 / lowest - POLE_MARGIN;
    for _ in 0..MAX_BISECTIONS {
        let middle = 0.5 * (positive_side + negative_side);
        if negative_side - positive_side <= MULTIPLIER_TOLERANCE * (1.0 + middle.abs()) {
            break;
        }
        if secular(middle) > 0.0 {
            positive_side = middle;
        } else {
            negative_side = middle;
        }
    }
    Some(0.5 * (positive_side + negative_side))
}

#[cfg(test)]
mod tests {
    use super::*;

    // The reference numbers below marked "fishtest" were computed by a standalone Python
    // script (standard library only) that re-implements fishtest's get_elo, the pentanomial
    // nElo of template_helpers.py, LLR_logistic and LLR_normalized (regularization, the secular
    // equation, the t-value iteration); the same numbers came out of fishtest's own
    // LLRcalc.py and stat_util.py run with SciPy, to within 1e-11.

    fn assert_close(actual: f64, expected: f64, tolerance: f64, what: &str) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{what}: {actual} differs from {expected} by more than {tolerance}"
        );
    }

    fn assert_estimate(estimate: Estimate, value: f64, margin: f64, tolerance: f64) {
        assert_close(estimate.value, value, tolerance, "value");
        assert_close(estimate.low, value - margin, tolerance, "low");
        assert_close(estimate.high, value + margin, tolerance, "high");
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert_eq!(logistic_elo(0.5), 0.0);
        assert_close(score_of_elo(0.0), 0.5, 1e-15, "score of 0 Elo");
        // 3:1 odds are 400 log10 3 Elo.
        assert_close(logistic_elo(0.75), 400.0 * 3f64.log10(), 1e-12, "Elo of 75%");
        for elo in [-600.0, -35.5, 1.0, 250.0] {
            assert_close(logistic_elo(score_of_elo(elo)), elo, 1e-9, "round trip");
        }
        assert_eq!(logistic_elo(1.0), f64::INFINITY);
        assert_eq!(logistic_elo(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn trinomial_elo_by_hand() {
        let result = Trinomial { wins: 60, draws: 30, losses: 10 };
        assert_eq!(result.games(), 100);
        // score = (60 + 30 / 2) / 100 = 0.75
        assert_eq!(result.score(), 0.75);
        assert_eq!(result.draw_ratio(), 0.3);
        // Elo = -400 log10(1 / 0.75 - 1) = 400 log10 3 = 190.8485
        // per-game variance = (60 (1 - 0.75)² + 30 (0.5 - 0.75)² + 10 (0 - 0.75)²) / 100
        //                   = (3.75 + 1.875 + 5.625) / 100 = 0.1125
        // standard error    = √(0.1125 / 100) = 0.0335410; × 1.959964 = 0.0657392
        // score interval    = [0.6842608, 0.8157392]
        // Elo at its ends   = 400 log10(0.8157392 / 0.1842608) = 400 × 0.6461184 = 258.4473
        //                     400 log10(0.6842608 / 0.3157392) = 400 × 0.3358932 = 134.3573
        // half-width        = (258.4473 - 134.3573) / 2 = 62.0450
        let estimate = result.elo().expect("games were played");
        assert_estimate(estimate, 190.8485, 62.0450, 1e-3);
        // fishtest's get_elo([10, 30, 60]) = (190.848501887865, 62.04503547151819)
        assert_estimate(estimate, 190.848501887865, 62.04503547151819, 1e-9);
        assert_close(estimate.margin(), 62.04503547151819, 1e-9, "margin");
        // A 200-game English match of damas against its level 16 (session 8, 4 games at a time
        // at 0.02 s a move), through fishtest's get_elo([L, D, W]) and get_elo on its pairs.
        let games = Trinomial { wins: 139, draws: 57, losses: 4 };
        assert_estimate(games.elo().unwrap(), 284.852580157596, 45.662628054349824, 1e-9);
        let pairs = Pentanomial { counts: [0, 2, 14, 31, 53] };
        assert_estimate(pairs.elo().unwrap(), 284.84189016080694, 50.37015746089732, 1e-9);
    }

    #[test]
    fn no_games_no_estimate_and_one_sided_results_are_unbounded() {
        assert_eq!(Trinomial::default().elo(), None);
        assert!(Trinomial::default().score().is_nan());
        assert_eq!(Pentanomial::default().elo(), None);
        assert_eq!(Pentanomial::default().normalized_elo(), None);

        let all_won = Trinomial { wins: 7, draws: 0, losses: 0 }.elo().expect("games");
        assert_eq!(all_won, Estimate::unbounded(f64::INFINITY));
        let all_lost = Trinomial { wins: 0, draws: 0, losses: 3 }.elo().expect("games");
        assert_eq!(all_lost.value, f64::NEG_INFINITY);
        assert_eq!((all_lost.low, all_lost.high), (f64::NEG_INFINITY, f64::INFINITY));

        let pairs_all_won = Pentanomial { counts: [0, 0, 0, 0, 4] };
        assert_eq!(pairs_all_won.elo().expect("pairs").value, f64::INFINITY);
        assert_eq!(pairs_all_won.normalized_elo().expect("pairs").value, f64::INFINITY);

        // All draws: score 1/2 (up to rounding), and a finite (narrow) interval from regularization.
        let all_drawn = Trinomial { wins: 0, draws: 20, losses: 0 }.elo().expect("games");
        assert_close(all_drawn.value, 0.0, 1e-9, "all drawn");
        assert!(all_drawn.margin() > 0.0 && all_drawn.margin() < 10.0, "{all_drawn:?}");
    }

    #[test]
    fn pairs_are_counted_by_their_score() {
        let mut results = Pentanomial::default();
        results.add_pair(0.0, 0.0);
        results.add_pair(1.0, 0.0);
        results.add_pair(0.5, 0.5);
        results.add_pair(0.0, 1.0);
        results.add_pair(1.0, 0.5);
        results.add_pair(1.0, 1.0);
        assert_eq!(results.counts, [1, 0, 3, 1, 1]);
        assert_eq!(results.pairs(), 6);
        // (0 + 3 × 1 + 1.5 + 2) / 12 games
        assert_close(results.score(), 6.5 / 12.0, 1e-15, "score");
    }

    #[test]
    #[should_panic(expected = "a game scores 0, 0.5 or 1")]
    fn a_game_cannot_score_more_than_one() {
        Pentanomial::default().add_pair(1.5, 0.0);
    }

    #[test]
    fn pentanomial_elo_and_normalized_elo_match_fishtest() {
        // (counts, get_elo value, get_elo margin, nElo, nElo margin), from fishtest.
        let cases = [
            (
                [3, 20, 50, 22, 5],
                10.426196175570936,
                29.313787131023396,
                17.177250967021962,
                48.08670958785135,
            ),
            // A zero count: 1e-3 pairs stand in for it.
            (
                [0, 18, 52, 25, 5],
                29.599660578513593,
                26.643755959091703,
                53.85978058777266,
                46.86445477700359,
            ),
            // A real fishtest test (from stat_util.py's own examples).
            (
                [10789, 19328, 33806, 19402, 10543],
                -0.7735773359165423,
                1.2775798957280218,
                -0.9516290044726476,
                1.5716226767743604,
            ),
            (
                [39, 2226, 31451, 2412, 40],
                0.902981048809024,
                0.6625314859816553,
                3.450799606946096,
                2.5312396032638773,
            ),
        ];
        for (counts, elo, elo_margin, nelo, nelo_margin) in cases {
            let results = Pentanomial { counts };
            assert_estimate(results.elo().expect("pairs"), elo, elo_margin, 1e-9);
            assert_estimate(results.normalized_elo().expect("pairs"), nelo, nelo_margin, 1e-9);
        }
    }

    #[test]
    fn llr_matches_fishtest_under_both_models() {
        // (counts, logistic bounds, LLR_logistic, normalized bounds, LLR_normalized), from
        // fishtest.
        let cases = [
            (
                [10789, 19328, 33806, 19402, 10543],
                (-3.0, 1.0),
                2.131067811785043,
                (0.0, 2.0),
                -6.070429067586407,
            ),
            (
                [39, 2226, 31451, 2412, 40],
                (0.2, 0.9),
                2.1625425800490787,
                (0.764, 3.439),
                2.162940869585147,
            ),
            // A zero count, regularized.
            ([0, 18, 52, 25, 5], (0.0, 5.0), 0.7782004002680263, (0.0, 5.0), 0.4361113252394621),
            // A 200-game English match of damas against its level 18 (session 8), through
            // fishtest's own LLR_logistic and LLR_normalized.
            ([0, 2, 21, 46, 31], (0.0, 10.0), 2.836742336618116, (0.0, 10.0), 2.886080999409545),
            ([3, 20, 50, 22, 5], (0.0, 5.0), 0.17838022438187504, (0.0, 5.0), 0.12162384964970863),
            (
                [40, 800, 2500, 1000, 60],
                (0.0, 5.0),
                10.190310499608875,
                (0.0, 5.0),
                5.99748672443751,
            ),
            (
                [60, 1000, 2500, 800, 40],
                (0.0, 5.0),
                -17.37212424102512,
                (0.0, 5.0),
                -7.814268153339022,
            ),
        ];
        for (counts, (elo0, elo1), logistic, (nelo0, nelo1), normalized) in cases {
            let results = Pentanomial { counts };
            assert_close(results.llr(elo0, elo1, EloModel::Logistic), logistic, 1e-8, "logistic");
            assert_close(
                results.llr(nelo0, nelo1, EloModel::Normalized),
                normalized,
                1e-8,
                "normalized",
            );
        }
        // No pairs at all: only the five priors of 1e-3 remain, and fishtest still gives a
        // (tiny) number for them.
        let nothing = Pentanomial::default();
        assert_close(
            nothing.llr(0.0, 5.0, EloModel::Logistic),
            -1.0354483502281707e-06,
            1e-15,
            "empty",
        );
        assert_close(
            nothing.llr(0.0, 5.0, EloModel::Normalized),
            -1.0353876017317118e-06,
            1e-15,
            "empty",
        );
    }

    #[test]
    fn llr_of_an_impossible_hypothesis_is_nan() {
        let results = Pentanomial { counts: [3, 20, 50, 22, 5] };
        assert!(results.llr(0.0, f64::INFINITY, EloModel::Logistic).is_nan());
    }

    #[test]
    fn sprt_bounds_for_five_percent_errors_are_ln_19() {
        let test =
            Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05, model: EloModel::Logistic };
        let (lower, upper) = test.bounds();
        // ln(0.05 / 0.95) = -ln 19 and ln(0.95 / 0.05) = ln 19 = 2.9444389791664403
        assert_close(lower, -2.9444389791664403, 1e-12, "lower");
        assert_close(upper, 2.9444389791664403, 1e-12, "upper");
        assert_close(upper, 19f64.ln(), 1e-12, "ln 19");
    }

    #[test]
    fn sprt_accepts_h1_accepts_h0_or_continues() {
        // The LLRs of these cases are checked against fishtest above; fishtest's update_SPRT
        // gives "accepted", "rejected" and "" for them under both models.
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let test = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05, model };
            let stronger = Pentanomial { counts: [40, 800, 2500, 1000, 60] };
            let weaker = Pentanomial { counts: [60, 1000, 2500, 800, 40] };
            let too_few = Pentanomial { counts: [3, 20, 50, 22, 5] };
            let (llr, state) = test.state(&stronger);
            assert_eq!(state, SprtState::AcceptH1, "{model:?} {llr}");
            assert_eq!(llr, stronger.llr(0.0, 5.0, model));
            assert_eq!(test.state(&weaker).1, SprtState::AcceptH0, "{model:?}");
            assert_eq!(test.state(&too_few).1, SprtState::Continue, "{model:?}");
        }
    }
}
