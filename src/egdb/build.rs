//! Retrograde analysis: solving slices from the smallest up.
//!
//! A slice and its swap (the same material, the other side to move) are solved together: the
//! quiet moves of one lead into the other. Captures and promotions lead into smaller slices,
//! solved before (fewer pieces, or as many with a man fewer), whose values are read from the
//! database being built and count as settled at distance 0.
//!
//! Level 0 holds the positions the rules decide at once (no move left, the rule set's instant
//! wins and dead draws). A first forward pass counts each other position's successors in the
//! pair and settles those that its moves into smaller slices decide (level 1). Level n then
//! goes backwards from the positions settled at level n - 1, through un-moves checked against
//! the move generator: their predecessors are won if they were lost, and lose one open
//! successor if they were won, lost in n plies when none is left. So a position at level n is
//! won or lost in exactly n plies before the material changes; what no level reaches is
//! drawn.
//!
//! Under Frisian's limit on king moves in a row, a position is solved once per pair of king
//! streaks ([`Streaks`]): a move carries the streaks on as the game does
//! ([`GameRules::after`]), and an un-move finds every streak of the mover before it that the move
//! turns into the one after it.
//!
//! Depends on the rules library, `game::rules` and rayon; must not depend on search or I/O
//! (the caller saves each solved slice and shows progress).

use super::index::{
    NO_STREAKS, Slice, SliceIndex, Streaks, canonical_with, counted_streak, flipped_with,
};
use super::{
    Egdb, Encoding, MAX_DISTANCE, Outcome, Table, Value, counters_of, position_rules,
    stored_in_files, streaks_after,
};
use crate::board::bitset::BitSet;
use crate::board::geometry::{Geometry, MAX_DIRECTIONS, step};
use crate::board::moves::MoveList;
use crate::board::types::Side;
use crate::game::draws::king_move_limit;
use crate::game::rules::{GameRules, Judgement, KingStreak};
use crate::movegen;
use crate::position::{Bits, MoveOf, Position};
use crate::rules::Rules;
use rayon::prelude::*;
use std::fmt;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
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
    /// The longest distance to conversion, in plies (of the values that hold one).
    pub longest: u32,
    /// Positions whose value could not be found (a smaller slice missing).
    pub unknown: u64,
}

impl Counts {
    /// The counts of a table's values, holes left out; the positions it does not hold (see
    /// [`Table::captures_stored`]) are probed in `egdb` (which must hold the smaller slices).
    pub fn of<R: Rules>(egdb: &Egdb<R>, table: &Table) -> Counts {
        let rules = position_rules::<R>();
        (0..table.index.size() as usize)
            .into_par_iter()
            .with_min_len(4096)
            .fold(Counts::default, |mut counts, i| {
                let i = i as u64;
                if let Some((position, streaks)) = table.index.entry::<R>(i) {
                    let value =
                        if table.captures_stored || stored_in_files(&rules, &position, &streaks) {
                            table.value(i)
                        } else {
                            egdb.probe(&position, &streaks)
                        };
                    match value {
                        Some(value) => counts.add(value),
                        None => counts.unknown += 1,
                    }
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
        if value.has_distance() {
            self.longest = self.longest.max(value.distance());
        }
    }

    /// Both together.
    pub fn plus(&self, other: &Counts) -> Counts {
        Counts {
            positions: self.positions + other.positions,
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
            longest: self.longest.max(other.longest),
            unknown: self.unknown + other.unknown,
        }
    }
}

/// A slice solved by [`build`].
#[derive(Clone, Debug)]
pub struct Report {
    /// The slice.
    pub slice: Slice,
    /// How it is to be stored.
    pub encoding: Encoding,
    /// What it holds.
    pub counts: Counts,
    /// Levels of the backward search (the longest distance plus one).
    pub levels: u32,
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
    /// Not enough memory to solve the slice (two bytes for each of its numbers, and those of
    /// its swap).
    Memory(Slice, u64),
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
            BuildError::Memory(slice, numbers) => write!(
                f,
                "not enough memory to solve slice {slice}: it has {numbers} numbers, and the \
                 build needs two bytes for each, and as much for the other side to move"
            ),
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

/// The slices one move of `slice`'s side to move can lead into, other than `slice`'s pair
/// (a quiet move that promotes nothing): the mover's material as it was or with a man
/// promoted, the opponent's as it was or with any of its pieces captured. A superset of what
/// the rules allow (a capture of many pieces may be impossible), which is all a schedule needs:
/// each of them has fewer pieces or fewer men, so it is built before.
pub fn successors(slice: Slice) -> Vec<Slice> {
    let [men, opponent_men] = slice.men;
    let [kings, opponent_kings] = slice.kings;
    let mut movers = vec![(men, kings)];
    if men > 0 {
        movers.push((men - 1, kings + 1));
    }
    let mut out = Vec::new();
    for &(m, k) in &movers {
        for om in 0..=opponent_men {
            for ok in 0..=opponent_kings {
                let after = Slice::new([om, m], [ok, k]);
                let same = after == slice.swapped();
                if om + ok > 0 && !same && !out.contains(&after) {
                    out.push(after);
                }
            }
        }
    }
    out
}

/// A part of a build that one process can do apart from the others: a pair of slices (see
/// [`pairs`]), and the units it reads, which must be built first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The slice and its swap (or one slice that is its own swap).
    pub pair: Vec<Slice>,
    /// Positions in [`Unit::needs`] of the units its captures and promotions lead into.
    pub needs: Vec<usize>,
}

impl Unit {
    /// The unit's name: its first slice's (`2-1-1-0`), as `damas egdb build --unit` takes it.
    pub fn name(&self) -> String {
        self.pair.first().map_or_else(String::new, |slice| slice.name())
    }
}

/// The build of every slice of up to `pieces` pieces as units, in build order (each unit's
/// needs come before it).
pub fn units(pieces: u32) -> Vec<Unit> {
    let all = pairs(pieces);
    let unit_of = |slice: Slice| all.iter().position(|pair| pair.contains(&slice));
    all.iter()
        .map(|pair| {
            let mut needs: Vec<usize> = pair
                .iter()
                .flat_map(|&slice| successors(slice))
                .filter(|after| !pair.contains(after))
                .filter_map(unit_of)
                .collect();
            needs.sort_unstable();
            needs.dedup();
            Unit { pair: pair.clone(), needs }
        })
        .collect()
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
    distance_pieces: u32,
    keep: impl FnMut(&Table, &Report) -> Result<(), String>,
    progress: impl FnMut(usize, usize, &str),
) -> Result<(), BuildError> {
    build_pairs(egdb, &pairs(pieces), distance_pieces, keep, progress)
}

/// Solves the slices of `all` (pairs, in build order) that `egdb` lacks, as [`build`] does; the
/// slices their moves lead into outside `all` must be in `egdb` ([`BuildError::Missing`]).
///
/// # Errors
/// As [`build`].
pub fn build_pairs<R: Rules>(
    egdb: &mut Egdb<R>,
    all: &[Vec<Slice>],
    distance_pieces: u32,
    mut keep: impl FnMut(&Table, &Report) -> Result<(), String>,
    mut progress: impl FnMut(usize, usize, &str),
) -> Result<(), BuildError> {
    for (done, pair) in all.iter().enumerate() {
        let name = pair.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" / ");
        progress(done, all.len(), &name);
        if pair.iter().all(|&slice| egdb.has(slice)) {
            continue;
        }
        let started = Instant::now();
        let (tables, levels) = solve_pair(egdb, pair)?;
        let seconds = started.elapsed().as_secs_f64();
        for (mut table, counts) in tables {
            let slice = table.index.slice();
            let encoding =
                if slice.pieces() <= distance_pieces { Encoding::Distances } else { Encoding::Wdl };
            let report = Report { slice, encoding, counts, levels, seconds };
            keep(&table, &report).map_err(BuildError::Keep)?;
            table.held = None;
            // The later slices read only its outcomes: kept in memory as they are stored (the
            // English 6-piece tables: 0.6 GB instead of 2.4).
            egdb.insert(match encoding {
                Encoding::Distances => table,
                Encoding::Wdl => table.without_distances(),
            });
        }
    }
    progress(all.len(), all.len(), "done");
    Ok(())
}

/// Numbers the first pass takes together, and the grain of the marks that tell the backward
/// search where a level's positions lie (a multiple of 64: whole words of the bitmaps).
const CHUNK: usize = 4096;

/// `open` of a settled position.
const SETTLED: u8 = u8::MAX - 1;

/// `open` of a position with a drawn successor: the count of successors not known to be won for
/// the opponent can no longer reach zero, though a lost successor still wins it.
const CANNOT_LOSE: u8 = u8::MAX;

/// A slice of the pair while it is solved: two bytes a number (the build's memory: the Frisian
/// 5-piece pairs hold 5.8 G numbers) and a few bitmaps.
struct Solving {
    index: SliceIndex,
    /// Each number's [`Value`] byte once settled; a draw's is 0, like an open position's.
    values: Vec<AtomicU8>,
    /// Successors not yet known to be won for the opponent, [`CANNOT_LOSE`] or [`SETTLED`].
    open: Vec<AtomicU8>,
    /// A bit per number: a hole of the numbering.
    holes: Vec<AtomicU64>,
    /// A bit per number: a position the files hold (see [`stored_in_files`]).
    held: Vec<AtomicU64>,
    /// A bit per [`CHUNK`] that holds a position settled at a level of this parity: the next
    /// level reads those chunks only, instead of a list of positions (8 bytes each: too many in
    /// the largest slices).
    marks: [Vec<AtomicU64>; 2],
}

/// What the first pass finds for one number.
struct FirstLook {
    value: Value,
    open: u8,
    /// The level it was settled at (0 or 1), if settled with a win or a loss.
    level: Option<u32>,
    kind: Kind,
}

impl Solving {
    /// A slice's state with every number open, or None when the memory cannot be had.
    fn new(index: SliceIndex) -> Option<Solving> {
        let numbers = usize::try_from(index.size()).ok()?;
        let words = numbers.div_ceil(64);
        let chunk_words = numbers.div_ceil(CHUNK).div_ceil(64);
        Some(Solving {
            values: zeroed(numbers)?,
            open: zeroed(numbers)?,
            holes: zeroed(words)?,
            held: zeroed(words)?,
            marks: [zeroed(chunk_words)?, zeroed(chunk_words)?],
            index,
        })
    }

    fn numbers(&self) -> usize {
        self.values.len()
    }

    /// Settles number `i` with `value` at `level` unless it is settled already; true if this
    /// call did.
    fn settle(&self, i: usize, value: Value, level: u32) -> bool {
        let open = &self.open[i];
        if open.load(Ordering::Acquire) == SETTLED
            || open
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                    (n != SETTLED).then_some(SETTLED)
                })
                .is_err()
        {
            return false;
        }
        self.values[i].store(value.0, Ordering::Release);
        self.mark(i, level);
        true
    }

    /// One more successor of number `i` is won for the opponent: `i` is lost at `level` if it
    /// was the last one open. True if this call settled it.
    fn close_successor(&self, i: usize, level: u32) -> bool {
        let left = self.open[i].fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| match n {
            SETTLED | CANNOT_LOSE | 0 => None,
            1 => Some(SETTLED),
            n => Some(n - 1),
        });
        if left != Ok(1) {
            return false;
        }
        self.values[i].store(Value::loss(level).0, Ordering::Release);
        self.mark(i, level);
        true
    }

    fn mark(&self, i: usize, level: u32) {
        let chunk = i / CHUNK;
        let word = &self.marks[level as usize % 2][chunk / 64];
        let bit = 1 << (chunk % 64);
        if word.load(Ordering::Relaxed) & bit == 0 {
            word.fetch_or(bit, Ordering::Relaxed);
        }
    }

    /// The chunks marked at levels of `parity`.
    fn marked(&self, parity: usize) -> impl Iterator<Item = usize> + '_ {
        self.marks[parity].iter().enumerate().flat_map(|(w, word)| {
            word.load(Ordering::Relaxed).iter().map(move |bit| w * 64 + bit as usize)
        })
    }

    fn clear_marks(&self, parity: usize) {
        for word in &self.marks[parity] {
            word.store(0, Ordering::Relaxed);
        }
    }

    /// The solved table and its counts (the open counts are dropped first: the values and the
    /// held bits keep their memory).
    fn into_table(self) -> (Table, Counts) {
        let Solving { index, values, open, holes, held, .. } = self;
        drop(open);
        let values: Vec<u8> = values.into_iter().map(AtomicU8::into_inner).collect();
        let holes: Vec<u64> = holes.into_iter().map(AtomicU64::into_inner).collect();
        let held: Vec<u64> = held.into_iter().map(AtomicU64::into_inner).collect();
        let counts = values
            .par_chunks(CHUNK)
            .enumerate()
            .fold(Counts::default, |mut counts, (c, chunk)| {
                for (k, &value) in chunk.iter().enumerate() {
                    let i = c * CHUNK + k;
                    if holes[i / 64] >> (i % 64) & 1 == 0 {
                        counts.add(Value(value));
                    }
                }
                counts
            })
            .reduce(Counts::default, |a, b| a.plus(&b));
        let table = Table {
            index,
            encoding: Encoding::Distances,
            captures_stored: true,
            values,
            held: Some(held),
        };
        (table, counts)
    }
}

/// `n` zeroed atomics, or None when the memory cannot be had.
fn zeroed<T: Default>(n: usize) -> Option<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).ok()?;
    v.resize_with(n, T::default);
    Some(v)
}

/// A solved pair: each table (which knows what its file holds) with its counts, and the levels
/// the backward search took.
type SolvedPair = (Vec<(Table, Counts)>, u32);

/// Solves the slices of `pair` (a slice and its swap, or one slice that is its own swap).
fn solve_pair<R: Rules>(egdb: &Egdb<R>, pair: &[Slice]) -> Result<SolvedPair, BuildError> {
    let mut solving = Vec::new();
    for &slice in pair {
        let index = SliceIndex::new::<R>(slice).ok_or(BuildError::Unindexable(slice))?;
        let numbers = index.size();
        solving.push(Solving::new(index).ok_or(BuildError::Memory(slice, numbers))?);
    }
    let rules = position_rules::<R>();
    let in_pair = |position: &Position<R>, streaks: &Streaks| -> Option<(usize, usize)> {
        let slice = Slice::of(position);
        let k = pair.iter().position(|&s| s == slice)?;
        Some((k, solving[k].index.index_with(position, streaks) as usize))
    };

    // Level 0: what the rules decide at once; level 1 also gets the positions settled by
    // their moves into smaller slices alone. Every other position counts its successors.
    let first_look = |index: &SliceIndex, moves: &mut MoveList<Bits<R>>, i: u64| {
        let look = |value: Value, open: u8, level: Option<u32>, kind: Kind| {
            Ok(FirstLook { value, open, level, kind })
        };
        let Some((position, streaks)) = index.entry::<R>(i) else {
            return look(Value::DRAW, SETTLED, None, Kind::Hole);
        };
        if let Some(value) = settled_at_once(&rules, &position, &streaks) {
            let level = (value.outcome() != Outcome::Draw).then_some(0);
            return look(value, SETTLED, level, Kind::Held);
        }
        let kind = if movegen::has_capture(&position) { Kind::LeftOut } else { Kind::Held };
        let counters = counters_of(&streaks);
        rules.legal_moves_into(&position, &counters, moves);
        let (mut open, mut cannot_lose) = (0u32, false);
        for mv in moves.iter() {
            let mut after = position;
            after.play_unhashed(mv);
            let next = streaks_after(&rules, &streaks, &position, mv);
            let (turned, _) = canonical_with(&after, &next);
            if pair.contains(&Slice::of(&turned)) {
                open += 1;
                continue;
            }
            let reply = egdb.probe(&after, &next).ok_or(BuildError::Missing(Slice::of(&turned)))?;
            match reply.outcome() {
                Outcome::Loss => return look(Value::win(1), SETTLED, Some(1), kind),
                Outcome::Draw => cannot_lose = true,
                Outcome::Win => {}
            }
        }
        if cannot_lose {
            return look(Value::DRAW, CANNOT_LOSE, None, kind);
        }
        if open == 0 {
            return look(Value::loss(1), SETTLED, Some(1), kind);
        }
        let open = u8::try_from(open).ok().filter(|&n| n < SETTLED);
        let open = open.ok_or(BuildError::Unindexable(index.slice()))?;
        look(Value::DRAW, open, None, kind)
    };
    for this in &solving {
        // A chunk at a time, its bitmap words gathered before they are stored.
        (0..this.numbers().div_ceil(CHUNK)).into_par_iter().try_for_each_init(
            MoveList::new,
            |moves, c| -> Result<(), BuildError> {
                let mut holes = [0u64; CHUNK / 64];
                let mut held = [0u64; CHUNK / 64];
                let start = c * CHUNK;
                for i in start..(start + CHUNK).min(this.numbers()) {
                    let look = first_look(&this.index, moves, i as u64)?;
                    this.values[i].store(look.value.0, Ordering::Relaxed);
                    this.open[i].store(look.open, Ordering::Relaxed);
                    let bit = 1 << (i % 64);
                    match look.kind {
                        Kind::Hole => holes[(i - start) / 64] |= bit,
                        Kind::Held => held[(i - start) / 64] |= bit,
                        Kind::LeftOut => {}
                    }
                    if let Some(level) = look.level {
                        this.mark(i, level);
                    }
                }
                for (w, (&hole, &held)) in holes.iter().zip(&held).enumerate() {
                    if let Some(word) = this.holes.get(start / 64 + w) {
                        word.store(hole, Ordering::Relaxed);
                        this.held[start / 64 + w].store(held, Ordering::Relaxed);
                    }
                }
                Ok(())
            },
        )?;
    }

    // Level n: the predecessors of the positions settled at level n - 1 (found in the chunks
    // marked then). A predecessor of a lost position is won; one whose last open successor was
    // won for the opponent is lost.
    let mut level = 0u32;
    while solving
        .iter()
        .any(|this| this.marked(0).next().is_some() || this.marked(1).next().is_some())
    {
        level += 1;
        if level > MAX_DISTANCE {
            return Err(BuildError::TooLong(pair[0]));
        }
        let parity = (level - 1) as usize % 2;
        let reached = [Value::win(level - 1).0, Value::loss(level - 1).0];
        let chunks: Vec<(usize, usize)> = solving
            .iter()
            .enumerate()
            .flat_map(|(k, this)| this.marked(parity).map(move |c| (k, c)))
            .collect();
        chunks.par_iter().for_each(|&(k, c)| {
            let this = &solving[k];
            for i in c * CHUNK..((c + 1) * CHUNK).min(this.numbers()) {
                let value = this.values[i].load(Ordering::Acquire);
                if !reached.contains(&value) {
                    continue;
                }
                let Some((position, streaks)) = this.index.entry::<R>(i as u64) else { continue };
                for_each_predecessor(&rules, &position, &streaks, |before, streaks| {
                    let Some((pk, pi)) = in_pair(&before, &streaks) else { return };
                    let pred = &solving[pk];
                    match Value(value).outcome() {
                        Outcome::Loss => pred.settle(pi, Value::win(level), level),
                        Outcome::Win => pred.close_successor(pi, level),
                        Outcome::Draw => false,
                    };
                });
            }
        });
        for this in &solving {
            this.clear_marks(parity);
        }
    }
    Ok((solving.into_iter().map(Solving::into_table).collect(), level))
}

/// What a number of a slice is: a hole of the numbering, a position whose value the files
/// leave out (see [`stored_in_files`]), or one they hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Hole,
    LeftOut,
    Held,
}

/// Calls `visit` with every position (White to move) and its streaks from which a quiet move
/// that crowns nothing leads to `position` (White to move, as the opponent sees it after the
/// move) with `streaks`. The candidates are the squares behind each of the mover's pieces along
/// every line; each is kept only if the rules make that move legal there (capture obligation
/// and all).
fn for_each_predecessor<R: Rules>(
    rules: &GameRules,
    position: &Position<R>,
    streaks: &Streaks,
    mut visit: impl FnMut(Position<R>, Streaks),
) {
    // The position before the reply: the mover of `position` is Black there, and White has
    // just moved.
    let (after, after_streaks) = flipped_with(position, streaks);
    let white = after.pieces(Side::White);
    let black = after.pieces(Side::Black);
    let empty = after.empty();
    for to in white.iter() {
        let king = after.kings().contains(to);
        for dir in 0..MAX_DIRECTIONS {
            if R::Geo::SOURCE[dir].is_empty() {
                continue;
            }
            let mut from = Bits::<R>::single(to);
            loop {
                from = step::<R::Geo>(from, dir);
                if (from & empty).is_empty() {
                    break;
                }
                let moved = Bits::<R>::single(to) | from;
                let kings = if king { after.kings() ^ moved } else { after.kings() };
                if let Ok(before) =
                    Position::<R>::from_parts(white ^ moved, black, kings, Side::White)
                {
                    let from = from.lowest();
                    if const { king_move_limit(R::VARIANT).is_none() }
                        || rules.draws.king_move_limit.is_none()
                    {
                        if rules.is_legal_quiet_move(&before, &counters_of(&NO_STREAKS), from, to) {
                            visit(before, NO_STREAKS);
                        }
                    } else {
                        for_each_streak_before(
                            rules,
                            &before,
                            &after,
                            &after_streaks,
                            [from, to],
                            |streak| {
                                let streaks = [streak, after_streaks[1]];
                                if rules.is_legal_quiet_move(
                                    &before,
                                    &counters_of(&streaks),
                                    from,
                                    to,
                                ) {
                                    visit(before, streaks);
                                }
                            },
                        );
                    }
                }
                if !(king && R::FLYING_KINGS) {
                    break;
                }
            }
        }
    }
}

/// Calls `visit` with each of White's streaks in `before` (White to move) from which the quiet
/// move `from`-`to` leaves White's streak as `after_streaks` numbers it in `after` (the position
/// after the move): none, or each of White's kings with each count, kept when the move turns it
/// into that one ([`KingStreak::after`], as the game counts).
fn for_each_streak_before<R: Rules>(
    rules: &GameRules,
    before: &Position<R>,
    after: &Position<R>,
    after_streaks: &Streaks,
    [from, to]: [u32; 2],
    mut visit: impl FnMut(KingStreak),
) {
    let limit = rules.draws.king_move_limit;
    let wanted = counted_streak(after, Side::White, after_streaks[0], limit);
    let mv = MoveOf::<R>::new(from, to, Bits::<R>::EMPTY, false);
    let mut consider = |streak: KingStreak| {
        if counted_streak(after, Side::White, streak.after(before, &mv), limit) == wanted {
            visit(streak);
        }
    };
    consider(KingStreak::default());
    let white = before.pieces(Side::White);
    if (white & !before.kings()).any() {
        for king in (white & before.kings()).iter() {
            for moves in 1..=u8::try_from(limit.unwrap_or(0)).unwrap_or(0) {
                consider(KingStreak { moves, square: king as u8 });
            }
        }
    }
}

/// The value of `position` (White to move) with `streaks` when the rules decide it without
/// looking at successors.
pub(crate) fn settled_at_once<R: Rules>(
    rules: &GameRules,
    position: &Position<R>,
    streaks: &Streaks,
) -> Option<Value> {
    let counters = counters_of(streaks);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{English, Frisian, International, Russian, Turkish};

    /// Every move of positions of up to four pieces (about 3,000 numbers a slice, spread over
    /// it, to keep it quick) leads into its own pair or into a slice [`successors`] lists, and that slice's
    /// unit comes first in [`units`] and is among the unit's needs.
    fn moves_lead_into_the_needs<R: Rules>() {
        let units = units(4);
        let rules = position_rules::<R>();
        let mut moves = MoveList::new();
        let mut checked = 0u64;
        for (u, unit) in units.iter().enumerate() {
            assert!(unit.needs.iter().all(|&n| n < u), "{}: needs a later unit", unit.name());
            for &slice in &unit.pair {
                let index = SliceIndex::new::<R>(slice).expect("numbered");
                let after_slices = successors(slice);
                let step = usize::try_from(index.size() / 3000).unwrap_or(1).max(1);
                for i in (0..index.size()).step_by(step) {
                    let Some((position, streaks)) = index.entry::<R>(i) else { continue };
                    rules.legal_moves_into(&position, &counters_of(&streaks), &mut moves);
                    for mv in moves.iter() {
                        let mut after = position;
                        after.play_unhashed(mv);
                        let turned = Slice::of(&after);
                        if turned.men[0] + turned.kings[0] == 0 || unit.pair.contains(&turned) {
                            continue;
                        }
                        assert!(after_slices.contains(&turned), "{slice} -> {turned}");
                        let owner = units.iter().position(|o| o.pair.contains(&turned));
                        assert!(
                            owner.is_some_and(|o| unit.needs.contains(&o)),
                            "{slice} -> {turned}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "only {checked} moves checked");
    }

    #[test]
    fn units_need_every_slice_their_moves_lead_into() {
        moves_lead_into_the_needs::<English>();
        moves_lead_into_the_needs::<Russian>();
        moves_lead_into_the_needs::<Turkish>();
    }

    #[test]
    fn units_of_ten_by_ten_rule_sets_need_their_successors() {
        moves_lead_into_the_needs::<International>();
        moves_lead_into_the_needs::<Frisian>();
    }

    #[test]
    fn the_units_are_the_pairs_in_build_order() {
        let units = units(5);
        let pairs = pairs(5);
        assert_eq!(units.iter().map(|u| u.pair.clone()).collect::<Vec<_>>(), pairs);
        // The first unit, a king each, leads into nothing; a man each into a king against a
        // man.
        let first = &units[0];
        assert_eq!(first.name(), "0-1-0-1");
        assert!(first.needs.is_empty());
        let unit_of = |slice: Slice| units.iter().position(|u| u.pair.contains(&slice));
        let men = unit_of(Slice::new([1, 1], [0, 0])).expect("a man each");
        let promoted = unit_of(Slice::new([1, 0], [0, 1])).expect("a man against a king");
        assert_eq!(units[men].name(), "1-0-1-0");
        assert!(units[men].needs.contains(&promoted));
        assert!(units[promoted].needs.iter().all(|&n| n < promoted));
    }
}
