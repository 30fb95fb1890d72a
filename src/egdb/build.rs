//! Retrograde analysis: solving slices from the smallest up.
//!
//! A slice and its swap (the same material, the other side to move) are solved together: the
//! quiet moves of one lead into the other. Captures and promotions lead into smaller slices,
//! solved before (fewer pieces, or as many with a man fewer), whose values are read from the
//! database being built. Pass 0 settles the positions the rules decide at once (no move left,
//! the rule set's instant wins and dead draws); pass n then settles every position whose value
//! its successors settled by pass n - 1: a win when one successor is lost for the opponent, a
//! loss when all are won for the opponent. A successor in a smaller slice counts as settled
//! with distance 0, so a position settled in pass n is won or lost in exactly n plies before
//! the material changes. When a pass settles nothing, what is left is drawn.
//!
//! Depends on the rules library, `game::rules` and rayon; must not depend on search or I/O
//! (the caller saves each solved slice and shows progress).

use super::index::{Slice, SliceIndex, canonical};
use super::{Egdb, MAX_DISTANCE, Outcome, Table, Value, position_rules};
use crate::game::rules::{Counters, GameRules, Judgement};
use crate::moves::MoveList;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Side;
use rayon::prelude::*;
use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Instant;

/// What one solved slice holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions (holes of the numbering left out).
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// The longest distance to conversion, in plies.
    pub longest: u32,
}

impl Counts {
    /// The counts of a table's values, holes left out.
    pub fn of<R: Rules>(table: &Table) -> Counts {
        table
            .values
            .par_iter()
            .enumerate()
            .with_min_len(4096)
            .fold(Counts::default, |mut counts, (i, &byte)| {
                if table.index.position::<R>(i as u64).is_some() {
                    let value = Value(byte);
                    counts.add(value);
                }
                counts
            })
            .reduce(Counts::default, |a, b| a.plus(&b))
    }

    fn add(&mut self, value: Value) {
        self.positions += 1;
        match value.outcome() {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
        self.longest = self.longest.max(value.distance());
    }

    /// Both together.
    pub fn plus(&self, other: &Counts) -> Counts {
        Counts {
            positions: self.positions + other.positions,
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
            longest: self.longest.max(other.longest),
        }
    }
}

/// A slice solved by [`build`].
#[derive(Clone, Debug)]
pub struct Report {
    /// The slice.
    pub slice: Slice,
    /// What it holds.
    pub counts: Counts,
    /// Passes over the slice.
    pub passes: u32,
    /// Seconds its pair took.
    pub seconds: f64,
}

/// Why a build stopped.
#[derive(Debug)]
pub enum BuildError {
    /// The slice cannot be numbered (too many pieces of one kind for the index).
    Unindexable(Slice),
    /// A win or loss longer than a value holds.
    TooLong(Slice),
    /// A successor's slice was neither solved before nor in the pair (a bug).
    Missing(Slice),
    /// The caller could not keep a solved slice (saving it failed).
    Keep(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Unindexable(slice) => write!(f, "slice {slice} cannot be numbered"),
            BuildError::TooLong(slice) => {
                write!(f, "slice {slice} has a result more than {MAX_DISTANCE} plies away")
            }
            BuildError::Missing(slice) => write!(f, "slice {slice} was needed before it was built"),
            BuildError::Keep(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for BuildError {}

/// The slices of up to `pieces` pieces, each pair (a slice and its swap) once, in build order.
pub fn pairs(pieces: u32) -> Vec<Vec<Slice>> {
    let mut pairs = Vec::new();
    for count in 2..=pieces {
        for slice in Slice::all_of(count) {
            let swapped = slice.swapped();
            if slice < swapped {
                pairs.push(vec![slice, swapped]);
            } else if slice == swapped {
                pairs.push(vec![slice]);
            }
        }
    }
    pairs
}

/// Solves every slice of at most `pieces` pieces that `egdb` lacks, adding each to it. After
/// each pair, `keep` is called with its tables (to save them: a build that stops can resume
/// from what was kept) and `progress` is told the pairs done and the pairs in all.
///
/// # Errors
/// [`BuildError`]: a slice the index cannot number, a result too far away to store, or `keep`
/// failing.
pub fn build<R: Rules>(
    egdb: &mut Egdb<R>,
    pieces: u32,
    mut keep: impl FnMut(&Table, &Report) -> Result<(), String>,
    mut progress: impl FnMut(usize, usize, &str),
) -> Result<(), BuildError> {
    let all = pairs(pieces);
    for (done, pair) in all.iter().enumerate() {
        let name = pair.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" / ");
        progress(done, all.len(), &name);
        if pair.iter().all(|&slice| egdb.has(slice)) {
            continue;
        }
        let started = Instant::now();
        let (tables, passes) = solve_pair(egdb, pair)?;
        let seconds = started.elapsed().as_secs_f64();
        for table in tables {
            let report = Report {
                slice: table.index.slice(),
                counts: Counts::of::<R>(&table),
                passes,
                seconds,
            };
            keep(&table, &report).map_err(BuildError::Keep)?;
            egdb.insert(table);
        }
    }
    progress(all.len(), all.len(), "done");
    Ok(())
}

/// A position's state during the build: 0 open, else a settled [`Value`] byte with the fact
/// that it is settled kept apart for draws (0 is also a draw's byte).
struct Slot {
    value: AtomicU8,
    settled: AtomicU8,
}

fn solve_pair<R: Rules>(egdb: &Egdb<R>, pair: &[Slice]) -> Result<(Vec<Table>, u32), BuildError> {
    let indexes: Vec<SliceIndex> = pair
        .iter()
        .map(|&slice| SliceIndex::new::<R>(slice).ok_or(BuildError::Unindexable(slice)))
        .collect::<Result<_, _>>()?;
    let rules = position_rules::<R>();
    let slots: Vec<Vec<Slot>> = indexes
        .iter()
        .map(|index| {
            (0..index.size())
                .map(|_| Slot { value: AtomicU8::new(0), settled: AtomicU8::new(0) })
                .collect()
        })
        .collect();

    // Pass 0: what the rules decide at once.
    for (index, slots) in indexes.iter().zip(&slots) {
        slots.par_iter().enumerate().with_min_len(4096).for_each(|(i, slot)| {
            match index.position::<R>(i as u64) {
                None => slot.settled.store(1, Ordering::Relaxed),
                Some(position) => {
                    if let Some(value) = settled_at_once(&rules, &position) {
                        slot.value.store(value.0, Ordering::Relaxed);
                        slot.settled.store(1, Ordering::Relaxed);
                    }
                }
            }
        });
    }

    // A successor (the opponent to move), as settled before pass `pass`: Some(value) or None
    // while open. Values of smaller slices count as distance 0.
    let successor = |after: &Position<R>, pass: u32| -> Result<Option<Value>, BuildError> {
        let turned = canonical(after);
        let slice = Slice::of(&turned);
        match pair.iter().position(|&s| s == slice) {
            Some(k) => {
                let slot = &slots[k][indexes[k].index(&turned) as usize];
                if slot.settled.load(Ordering::Relaxed) == 0 {
                    return Ok(None);
                }
                let value = Value(slot.value.load(Ordering::Relaxed));
                // Settled in this very pass: not yet, for the distances to be exact.
                let fresh = value.outcome() != Outcome::Draw && value.distance() >= pass;
                Ok(if fresh { None } else { Some(value) })
            }
            None => match egdb.probe(after) {
                Some(value) => Ok(Some(match value.outcome() {
                    Outcome::Win => Value::win(0),
                    Outcome::Loss => Value::loss(0),
                    Outcome::Draw => Value::DRAW,
                })),
                None => Err(BuildError::Missing(slice)),
            },
        }
    };

    let mut pass = 0;
    loop {
        pass += 1;
        let mut settled_now = 0u64;
        for (k, index) in indexes.iter().enumerate() {
            settled_now += slots[k]
                .par_iter()
                .enumerate()
                .with_min_len(1024)
                .map(|(i, slot)| -> Result<u64, BuildError> {
                    if slot.settled.load(Ordering::Relaxed) != 0 {
                        return Ok(0);
                    }
                    let Some(position) = index.position::<R>(i as u64) else { return Ok(0) };
                    let mut moves = MoveList::new();
                    rules.legal_moves_into(&position, &Counters::default(), &mut moves);
                    let mut all_won_for_them = true;
                    for mv in moves.iter() {
                        let mut after = position;
                        after.play_unhashed(mv);
                        match successor(&after, pass)?.map(Value::outcome) {
                            Some(Outcome::Loss) => {
                                if pass > MAX_DISTANCE {
                                    return Err(BuildError::TooLong(index.slice()));
                                }
                                slot.value.store(Value::win(pass).0, Ordering::Relaxed);
                                slot.settled.store(1, Ordering::Relaxed);
                                return Ok(1);
                            }
                            Some(Outcome::Win) => {}
                            Some(Outcome::Draw) | None => all_won_for_them = false,
                        }
                    }
                    if all_won_for_them {
                        if pass > MAX_DISTANCE {
                            return Err(BuildError::TooLong(index.slice()));
                        }
                        slot.value.store(Value::loss(pass).0, Ordering::Relaxed);
                        slot.settled.store(1, Ordering::Relaxed);
                        return Ok(1);
                    }
                    Ok(0)
                })
                .try_reduce(|| 0, |a, b| Ok(a + b))?;
        }
        if settled_now == 0 {
            break;
        }
    }
    let tables = indexes
        .into_iter()
        .zip(slots)
        .map(|(index, slots)| Table {
            index,
            values: slots.into_iter().map(|slot| slot.value.into_inner()).collect(),
        })
        .collect();
    Ok((tables, pass))
}

/// The value of `position` (White to move) when the rules decide it without looking at
/// successors.
pub(crate) fn settled_at_once<R: Rules>(
    rules: &GameRules,
    position: &Position<R>,
) -> Option<Value> {
    let counters = Counters::default();
    let has_moves = || rules.has_legal_move(position, &counters);
    let no_move = || GameRules::no_move::<R>(Side::White);
    let verdict = match rules.judge_in_tree(position, &counters, false) {
        Judgement::Over(verdict) => verdict,
        Judgement::OverIfMoves(verdict) => {
            if has_moves() {
                verdict
            } else {
                no_move()
            }
        }
        Judgement::Open => {
            if has_moves() {
                return None;
            }
            no_move()
        }
    };
    Some(Value::of_verdict(verdict, Side::White))
}
