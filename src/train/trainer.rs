//! Training the pattern evaluation: logistic regression of the evaluation against the
//! positions of `damas datagen` files.
//!
//! **Target.** Each position has the game's result `r` (1, ½, 0 for the side to move) and the
//! search's score `s`. The target is `λ r + (1 - λ) σ(s / K)`, where σ is the logistic function
//! and `K` the scale (hundredths of a man) that makes `σ(s / K)` predict the results best (fitted
//! first, by golden-section search, as Texel tuning does): the result says who won, the score
//! says what the position was worth when it was reached, and mixing them is less noisy than
//! either alone.
//!
//! **Model.** The evaluation of [`crate::eval::pattern`] with real-valued weights: the
//! prediction is `σ(eval / K)`, so the trained weights come out in hundredths of a man on the
//! search's own scale, divided for drawish material where the weights will be
//! ([`Settings::drawish`], written into them as `PatternWeights::drawish`), so the division is
//! learned through. The loss is the
//! cross-entropy with the target; every position is also
//! learned colour-flipped (board turned, colours swapped, target mirrored), which doubles the
//! data and keeps the weights symmetric.
//!
//! **Optimiser.** Adam (Kingma and Ba, 2015) on shuffled mini-batches, with decoupled weight
//! decay on the pattern weights (AdamW, Loshchilov and Hutter, 2019) so that rare patterns stay
//! near zero, and the learning rate falling by a constant factor per epoch. One game in twenty
//! (by game number) is held out, and the loss on it is reported after every epoch. The
//! predictions of a batch are computed on all cores (rayon); the gradient is summed in a fixed
//! order, so a run is reproducible from its seed whatever the number of cores.
//!
//! Depends on the evaluation and the data format; no I/O (the caller reads and writes files).

use super::datagen::Sample;
use crate::board::types::Side;
use crate::eval::pattern::{
    DENSE, FLANK_PATTERNS, Layout, MAX_FLANKS, MAX_REGIONS, PATTERNS, PatternWeights,
};
use crate::matchplay::openings::{next_random, shuffle};
use crate::rules::Rules;
use rayon::prelude::*;

/// How to train.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Passes over the training data.
    pub epochs: u32,
    /// Weight of the game result in the target (the rest is the search score's).
    pub lambda: f64,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size in the first epoch, hundredths of a man.
    pub learning_rate: f64,
    /// Factor of the learning rate from one epoch to the next.
    pub decay: f64,
    /// Weight decay of the pattern weights, per step, relative to the learning rate.
    pub weight_decay: f64,
    /// The seed of the shuffles.
    pub seed: u64,
    /// Material values to start from (man, king), hundredths of a man.
    pub start_material: (i32, i32),
    /// The dense terms learned (in the order of [`crate::eval::pattern::DENSE_NAMES`]); the others keep weight zero, for
    /// measuring what a term is worth.
    pub terms: [bool; DENSE],
    /// Whether the score is divided for drawish material (where kings fly), in training and
    /// by the engine with the weights made.
    pub drawish: bool,
    /// Whether to learn a king square table (Scan 2.0's king position term).
    pub king_squares: bool,
    /// Whether to learn the flank regions ([`Layout::with_flanks`]) where the board has them.
    pub flanks: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            epochs: 12,
            lambda: 0.5,
            batch: 16_384,
            learning_rate: 2.0,
            decay: 0.8,
            weight_decay: 0.002,
            seed: 1,
            start_material: (100, 150),
            terms: [true; DENSE],
            drawish: true,
            king_squares: true,
            flanks: true,
        }
    }
}

/// What one epoch did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// Epoch number, from 1.
    pub epoch: u32,
    /// Mean cross-entropy on the training positions during the epoch.
    pub train_loss: f64,
    /// Mean cross-entropy on the held-out positions after it.
    pub validation_loss: f64,
    /// The same, of the hand-set (classic) evaluation, for comparison: what the trained
    /// weights must beat. Constant over epochs.
    pub baseline_loss: f64,
    /// The same, of the weights given to compare with (the previous generation's), if any.
    /// Constant over epochs.
    pub compare_loss: Option<f64>,
}

/// The data, as features and targets, from White's side.
struct Items {
    /// Pattern indices an item has (the first ones are the regions', which every model reads;
    /// a model with flank regions reads the rest).
    stride: usize,
    patterns: Vec<u16>,
    dense: Vec<[i16; DENSE]>,
    /// The king square table's slots and signs of every item's kings, item after item: item
    /// `i`'s are `kings[king_ends[i - 1]..king_ends[i]]`.
    kings: Vec<(u16, i8)>,
    king_ends: Vec<u32>,
    /// What the evaluation divides a score favouring White, and Black, by (drawish material).
    divisors: Vec<[u8; 2]>,
    /// The opening share of the blend: pieces / start pieces.
    phase: Vec<f32>,
    target: Vec<f32>,
    /// σ(classic evaluation / K) from White's side, for the baseline.
    classic: Vec<f32>,
}

impl Items {
    fn len(&self) -> usize {
        self.target.len()
    }

    /// Item `i`'s king square slots and signs.
    fn kings(&self, i: usize) -> &[(u16, i8)] {
        let start = if i == 0 { 0 } else { self.king_ends[i - 1] as usize };
        &self.kings[start..self.king_ends[i] as usize]
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn cross_entropy(target: f64, prediction: f64) -> f64 {
    let p = prediction.clamp(1e-7, 1.0 - 1e-7);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

/// The result of a sample for the side to move: 1, ½ or 0.
fn result_for_mover<R: Rules>(sample: &Sample<R>) -> f64 {
    let white = f64::from(sample.result) / 2.0;
    if sample.position.side_to_move() == Side::White { white } else { 1.0 - white }
}

/// The scale `K` (hundredths of a man) for which σ(score / K) predicts the results best (mean
/// squared error), by golden-section search between 20 and 2000.
pub fn fit_scale<R: Rules>(samples: &[Sample<R>]) -> f64 {
    let error = |k: f64| -> f64 {
        samples
            .par_iter()
            .map(|s| (result_for_mover(s) - sigmoid(f64::from(s.score) / k)).powi(2))
            .sum::<f64>()
    };
    let (mut low, mut high) = (20.0f64, 2000.0f64);
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = high - golden * (high - low);
        let b = low + golden * (high - low);
        if error(a) < error(b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

fn items<R: Rules>(
    layout: &Layout<R>,
    samples: &[&Sample<R>],
    scale: f64,
    settings: &Settings,
) -> Items {
    let lambda = settings.lambda;
    let slots = layout.slots();
    let mut out = Items {
        stride: slots,
        patterns: Vec::with_capacity(samples.len() * 2 * slots),
        dense: Vec::with_capacity(samples.len() * 2),
        kings: Vec::new(),
        king_ends: Vec::with_capacity(samples.len() * 2),
        divisors: Vec::with_capacity(samples.len() * 2),
        phase: Vec::with_capacity(samples.len() * 2),
        target: Vec::with_capacity(samples.len() * 2),
        classic: Vec::with_capacity(samples.len() * 2),
    };
    let classic = crate::eval::Classic::<R>::new();
    let start = f64::from(layout.start_pieces());
    for sample in samples {
        let searched = sigmoid(f64::from(sample.score) / scale);
        let target = lambda * result_for_mover(sample) + (1.0 - lambda) * searched;
        let mover_is_white = sample.position.side_to_move() == Side::White;
        let target = if mover_is_white { target } else { 1.0 - target };
        for (position, flip) in [(sample.position, false), (sample.position.color_flipped(), true)]
        {
            let features = layout.features(&position);
            out.patterns.extend_from_slice(&features.patterns[..slots]);
            let mut dense = features.dense;
            for (value, &learned) in dense.iter_mut().zip(&settings.terms) {
                *value = if learned { *value } else { 0 };
            }
            out.dense.push(dense);
            // Recorded whether or not this run learns a king table: the compared weights may
            // read one (their held-out loss needs it), and positions with kings are few.
            out.kings.extend(layout.king_entries(&position));
            out.king_ends.push(out.kings.len() as u32);
            out.divisors.push(features.divisors);
            out.phase.push((f64::from(features.pieces) / start).min(1.0) as f32);
            out.target.push(if flip { 1.0 - target } else { target } as f32);
            let hand = f64::from(classic.evaluate(&position));
            let hand_white = if position.side_to_move() == Side::White { hand } else { -hand };
            out.classic.push(sigmoid(hand_white / scale) as f32);
        }
    }
    out
}

/// Real-valued weights: per region and pattern, per flank region and pattern, then per king
/// square slot, then per dense term, an opening and an endgame value (in that order,
/// interleaved).
struct Model {
    regions: usize,
    flanks: usize,
    /// Slots of the king square table (none where it is not learned).
    king_squares: usize,
    values: Vec<f64>,
    /// Whether the score is scaled for drawish material, as the engine does with these
    /// weights (`PatternWeights::drawish`).
    drawish: bool,
}

impl Model {
    /// The model of finished (integer) weights, to measure their loss.
    fn of(weights: &PatternWeights) -> Self {
        let mut values =
            Vec::with_capacity((weights.table.len() + weights.king_squares.len() + DENSE) * 2);
        for [opening, endgame] in weights.table.iter().chain(&weights.king_squares) {
            values.extend([f64::from(*opening), f64::from(*endgame)]);
        }
        for [opening, endgame] in &weights.dense {
            values.extend([f64::from(*opening), f64::from(*endgame)]);
        }
        let (regions, flanks) = (weights.regions, weights.flanks);
        let king_squares = weights.king_squares.len();
        Model { regions, flanks, king_squares, values, drawish: weights.drawish }
    }

    /// Pattern indices an item has.
    fn slots(&self) -> usize {
        self.regions + self.flanks
    }

    /// Where the weights of slot `slot`'s patterns start (in pairs).
    #[inline(always)]
    fn table_offset(&self, slot: usize) -> usize {
        if slot < self.regions {
            slot * PATTERNS
        } else {
            self.regions * PATTERNS + (slot - self.regions) * FLANK_PATTERNS
        }
    }

    fn king_offset(&self) -> usize {
        self.table_offset(self.slots()) * 2
    }

    fn dense_offset(&self) -> usize {
        self.king_offset() + self.king_squares * 2
    }

    /// The evaluation of item `i` from White's side, hundredths of a man, and what it was
    /// multiplied by for drawish material (the factor of its gradient).
    fn eval(&self, items: &Items, i: usize) -> (f64, f64) {
        let phase = f64::from(items.phase[i]);
        let (mut opening, mut endgame) = (0.0, 0.0);
        let at = i * items.stride;
        let patterns = &items.patterns[at..at + self.slots()];
        for (slot, &pattern) in patterns.iter().enumerate() {
            let at = (self.table_offset(slot) + pattern as usize) * 2;
            opening += self.values[at];
            endgame += self.values[at + 1];
        }
        if self.king_squares > 0 {
            for &(slot, sign) in items.kings(i) {
                let at = self.king_offset() + 2 * slot as usize;
                opening += f64::from(sign) * self.values[at];
                endgame += f64::from(sign) * self.values[at + 1];
            }
        }
        let dense = self.dense_offset();
        for (term, &value) in items.dense[i].iter().enumerate() {
            opening += self.values[dense + 2 * term] * f64::from(value);
            endgame += self.values[dense + 2 * term + 1] * f64::from(value);
        }
        let blend = opening * phase + endgame * (1.0 - phase);
        let divisor = if self.drawish { items.divisors[i][usize::from(blend < 0.0)] } else { 1 };
        let factor = 1.0 / f64::from(divisor);
        (blend * factor, factor)
    }

    fn loss(&self, items: &Items, scale: f64) -> f64 {
        if items.len() == 0 {
            return 0.0;
        }
        let total: f64 = (0..items.len())
            .into_par_iter()
            .map(|i| {
                cross_entropy(f64::from(items.target[i]), sigmoid(self.eval(items, i).0 / scale))
            })
            .sum();
        total / items.len() as f64
    }
}

fn baseline_loss(items: &Items) -> f64 {
    let total: f64 = (0..items.len())
        .map(|i| cross_entropy(f64::from(items.target[i]), f64::from(items.classic[i])))
        .sum();
    total / items.len().max(1) as f64
}

/// Trains weights for `R` on `samples`, reporting each epoch to `report` with, beside the
/// classic evaluation's, the held-out loss of `compare` (the previous generation's weights,
/// for `R`'s layout). Returns the weights and the scale `K` used.
pub fn train<R: Rules>(
    samples: &[Sample<R>],
    settings: &Settings,
    compare: Option<&PatternWeights>,
    mut report: impl FnMut(&EpochReport),
) -> (PatternWeights, f64) {
    let layout = if settings.flanks { Layout::<R>::with_flanks() } else { Layout::<R>::new() };
    // The items carry the flank regions' indices where the compared weights read them too.
    let item_layout = if settings.flanks || compare.is_some_and(|weights| weights.flanks > 0) {
        Layout::<R>::with_flanks()
    } else {
        Layout::<R>::new()
    };
    let scale = fit_scale(samples);
    let held_out = |game: u32| next_random(u64::from(game) ^ 0xD1B5_4A32_D192_ED03) % 20 == 0;
    let (validation, training): (Vec<&Sample<R>>, Vec<&Sample<R>>) =
        samples.iter().partition(|sample| held_out(sample.game));
    let train_items = items(&item_layout, &training, scale, settings);
    let validation_items = items(&item_layout, &validation, scale, settings);
    let baseline = baseline_loss(&validation_items);
    let compare_loss = compare.map(|weights| Model::of(weights).loss(&validation_items, scale));
    let (regions, flanks, slots) = (layout.regions(), layout.flanks(), layout.slots());
    debug_assert!(regions <= MAX_REGIONS && flanks <= MAX_FLANKS);
    let king_squares = if settings.king_squares { layout.king_squares() } else { 0 };
    let values = vec![0.0; (layout.table_len() + king_squares + DENSE) * 2];
    let mut model = Model { regions, flanks, king_squares, values, drawish: settings.drawish };
    let (kings, dense) = (model.king_offset(), model.dense_offset());
    let (man, king) = settings.start_material;
    for (term, value) in [(0, man), (1, king)] {
        model.values[dense + 2 * term] = f64::from(value);
        model.values[dense + 2 * term + 1] = f64::from(value);
    }
    let parameters = model.values.len();
    let (mut first, mut second) = (vec![0.0f64; parameters], vec![0.0f64; parameters]);
    let mut gradient = vec![0.0f64; parameters];
    let (beta1, beta2, epsilon) = (0.9f64, 0.999f64, 1e-8f64);
    let mut step = 0i32;
    let mut order: Vec<u32> = (0..train_items.len() as u32).collect();
    let mut learning_rate = settings.learning_rate;
    let mut seed = settings.seed;
    for epoch in 1..=settings.epochs {
        seed = next_random(seed);
        shuffle(&mut order, seed);
        let mut train_loss = 0.0;
        for batch in order.chunks(settings.batch.max(1)) {
            // Predictions in parallel; the gradient summed in the batch's order.
            let errors: Vec<(f64, f64)> = batch
                .par_iter()
                .map(|&i| {
                    let i = i as usize;
                    let (eval, factor) = model.eval(&train_items, i);
                    let prediction = sigmoid(eval / scale);
                    let target = f64::from(train_items.target[i]);
                    ((prediction - target) * factor, cross_entropy(target, prediction))
                })
                .collect();
            gradient.iter_mut().for_each(|g| *g = 0.0);
            for (&i, &(error, loss)) in batch.iter().zip(&errors) {
                let i = i as usize;
                train_loss += loss;
                let d = error / scale / batch.len() as f64;
                let phase = f64::from(train_items.phase[i]);
                let (to_opening, to_endgame) = (d * phase, d * (1.0 - phase));
                let at = i * train_items.stride;
                let patterns = &train_items.patterns[at..at + slots];
                for (slot, &pattern) in patterns.iter().enumerate() {
                    let at = (model.table_offset(slot) + pattern as usize) * 2;
                    gradient[at] += to_opening;
                    gradient[at + 1] += to_endgame;
                }
                let kings_learned = if king_squares > 0 { train_items.kings(i) } else { &[] };
                for &(slot, sign) in kings_learned {
                    let at = kings + 2 * slot as usize;
                    gradient[at] += to_opening * f64::from(sign);
                    gradient[at + 1] += to_endgame * f64::from(sign);
                }
                for (term, &value) in train_items.dense[i].iter().enumerate() {
                    gradient[dense + 2 * term] += to_opening * f64::from(value);
                    gradient[dense + 2 * term + 1] += to_endgame * f64::from(value);
                }
            }
            step += 1;
            let correction1 = 1.0 - beta1.powi(step);
            let correction2 = 1.0 - beta2.powi(step);
            for k in 0..parameters {
                let g = gradient[k];
                first[k] = beta1 * first[k] + (1.0 - beta1) * g;
                second[k] = beta2 * second[k] + (1.0 - beta2) * g * g;
                let update = first[k] / correction1 / ((second[k] / correction2).sqrt() + epsilon);
                let decay = if k < dense { settings.weight_decay * model.values[k] } else { 0.0 };
                model.values[k] -= learning_rate * (update + decay);
            }
        }
        let validation_loss = model.loss(&validation_items, scale);
        report(&EpochReport {
            epoch,
            train_loss: train_loss / train_items.len().max(1) as f64,
            validation_loss,
            baseline_loss: baseline,
            compare_loss,
        });
        learning_rate *= settings.decay;
    }
    let round16 = |v: f64| v.round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
    let table = (0..layout.table_len())
        .map(|k| [round16(model.values[2 * k]), round16(model.values[2 * k + 1])])
        .collect();
    let king_table = (0..king_squares)
        .map(|slot| {
            let at = kings + 2 * slot;
            [round16(model.values[at]), round16(model.values[at + 1])]
        })
        .collect();
    let mut dense_weights = [[0i32; 2]; DENSE];
    for (term, pair) in dense_weights.iter_mut().enumerate() {
        *pair = [
            model.values[dense + 2 * term].round() as i32,
            model.values[dense + 2 * term + 1].round() as i32,
        ];
    }
    let weights = PatternWeights {
        variant: R::VARIANT,
        feature_set: layout.feature_set(),
        regions,
        flanks,
        table,
        dense: dense_weights,
        dense_terms: DENSE,
        drawish: model.drawish,
        king_squares: king_table,
    };
    (weights, scale)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitset::BitSet;
    use crate::eval::Pattern;
    use crate::position::Position;
    use crate::rules::English;

    /// Positions where White is a man up win for White, level ones are drawn: training learns
    /// that a man is worth something, the same from a seed, and the integer evaluation agrees
    /// with the model's.
    #[test]
    fn training_learns_material_reproducibly() {
        let start = Position::<English>::start();
        let mut samples = Vec::new();
        let mut state = 3u64;
        for game in 0..400u32 {
            let mut position = start;
            for _ in 0..(6 + game % 9) {
                let list = crate::movegen::legal_moves(&position);
                if list.is_empty() {
                    break;
                }
                state = next_random(state);
                position.play(&list.as_slice()[(state >> 33) as usize % list.len()]);
            }
            if crate::movegen::has_capture(&position) {
                continue;
            }
            let material = position.pieces(Side::White).count() as i32
                - position.pieces(Side::Black).count() as i32;
            let result = (1 + material.signum()) as u8;
            let mover = if position.side_to_move() == Side::White { 1 } else { -1 };
            let score = (material * 100 * mover) as i16;
            samples.push(Sample { position, score, result, game });
        }
        let settings = Settings { epochs: 3, batch: 64, ..Settings::default() };
        let mut last = None;
        let (weights, scale) = train(&samples, &settings, None, |report| last = Some(*report));
        let first = last.expect("an epoch");
        assert_eq!(first.compare_loss, None);
        // Trained again, compared with the first run's weights: the same weights, and their
        // held-out loss is the last epoch's but for the rounding to whole hundredths.
        let (again, _) = train(&samples, &settings, Some(&weights), |report| last = Some(*report));
        assert_eq!(weights, again);
        // Without the drawish division the weights say so; English kings do not fly, so
        // nothing else changes.
        let plain = Settings { drawish: false, ..settings };
        let (undivided, _) = train(&samples, &plain, None, |_| {});
        assert!(weights.drawish && !undivided.drawish);
        assert_eq!(PatternWeights { drawish: true, ..undivided }, weights);
        // The flank regions and the king square table are learned by default, and left out
        // on request (the held-out loss of weights without them, compared, reads the same
        // items).
        assert_eq!((weights.flanks, weights.king_squares.len()), (4, 32));
        let bare = Settings { flanks: false, king_squares: false, ..settings };
        let (without, _) = train(&samples, &bare, Some(&weights), |_| {});
        assert_eq!((without.flanks, without.king_squares.len()), (0, 0));
        assert_eq!(without.table.len(), weights.regions * PATTERNS);
        assert!(Pattern::<English>::new(without).is_ok());
        let compared = last.and_then(|report| report.compare_loss).expect("a compared loss");
        assert!((compared - first.validation_loss).abs() < 0.01, "{compared} {first:?}");
        assert!(scale > 20.0 && scale < 2000.0);
        assert!(weights.dense[0][0] > 50, "{:?}", weights.dense);
        let pattern = Pattern::<English>::new(weights).unwrap();
        let up = crate::notation::fen::parse::<English>("W:W18,22:B5").unwrap();
        assert!(pattern.evaluate(&up) > 0);
    }
}
