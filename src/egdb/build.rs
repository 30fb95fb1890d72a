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
use crate::bitset::BitSet;
use crate::game::draws::king_move_limit;
use crate::game::rules::{GameRules, Judgement, KingStreak};
use crate::geometry::{Geometry, MAX_DIRECTIONS, step};
use crate::movegen;
use crate::moves::MoveList;
use crate::position::{Bits, MoveOf, Position};
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
    distance_pieces: u32,
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

/// No successor is known to be drawn yet: the count of successors not known to be won for the
/// opponent can still reach zero. `CANNOT_LOSE` marks a position with a drawn successor.
const CANNOT_LOSE: u8 = u8::MAX;

/// A position's state during the build.
struct Slot {
    /// Its [`Value`] byte once settled.
    value: AtomicU8,
    /// 1 once settled (a draw's byte is 0, like an open position's).
    settled: AtomicU8,
    /// Successors not yet known to be won for the opponent, or [`CANNOT_LOSE`].
    open_successors: AtomicU8,
}

impl Slot {
    /// Settles the slot with `value` unless it is settled already; true if this call did.
    fn settle(&self, value: Value) -> bool {
        if self.settled.compare_exchange(0, 1, Ordering::AcqRel, Ordering::Acquire).is_ok() {
            self.value.store(value.0, Ordering::Release);
            true
        } else {
            false
        }
    }
}

/// A position of the pair: which slice, which number.
type Node = (u8, u32);

/// A solved pair: each table (which knows what its file holds) with its counts, and the levels
/// the backward search took.
type SolvedPair = (Vec<(Table, Counts)>, u32);

/// Solves the slices of `pair` (a slice and its swap, or one slice that is its own swap).
fn solve_pair<R: Rules>(egdb: &Egdb<R>, pair: &[Slice]) -> Result<SolvedPair, BuildError> {
    let indexes: Vec<SliceIndex> = pair
        .iter()
        .map(|&slice| SliceIndex::new::<R>(slice).ok_or(BuildError::Unindexable(slice)))
        .collect::<Result<_, _>>()?;
    for index in &indexes {
        if u32::try_from(index.size()).is_err() {
            return Err(BuildError::Unindexable(index.slice()));
        }
    }
    let rules = position_rules::<R>();
    let in_pair = |position: &Position<R>, streaks: &Streaks| -> Option<(usize, u64)> {
        let slice = Slice::of(position);
        let k = pair.iter().position(|&s| s == slice)?;
        Some((k, indexes[k].index_with(position, streaks)))
    };

    // Level 0: what the rules decide at once; level 1 also gets the positions settled by
    // their moves into smaller slices alone. Every other position counts its successors.
    let mut first: Vec<Vec<Node>> = vec![Vec::new(), Vec::new()];
    let mut slots: Vec<Vec<Slot>> = Vec::new();
    let mut all_kinds: Vec<Kinds> = Vec::new();
    for (k, index) in indexes.iter().enumerate() {
        // Each worker generates into one list of its own instead of allocating one per
        // position.
        // Each position also says whether it is a hole and whether the file will hold it (see
        // `stored_in_files`), so that counting and writing need not number it back again.
        let settled: Vec<(Slot, Option<u8>, Kind)> = (0..index.size())
            .into_par_iter()
            .map_init(MoveList::new, |moves, i| -> Result<(Slot, Option<u8>, Kind), BuildError> {
                let slot = |value: Value, settled: bool, open: u8| Slot {
                    value: AtomicU8::new(value.0),
                    settled: AtomicU8::new(u8::from(settled)),
                    open_successors: AtomicU8::new(open),
                };
                let Some((position, streaks)) = index.entry::<R>(i) else {
                    return Ok((slot(Value::DRAW, true, CANNOT_LOSE), None, Kind::Hole));
                };
                if let Some(value) = settled_at_once(&rules, &position, &streaks) {
                    let level = (value.outcome() != Outcome::Draw).then_some(0);
                    return Ok((slot(value, true, CANNOT_LOSE), level, Kind::Held));
                }
                let kind = if movegen::has_capture(&position) { Kind::LeftOut } else { Kind::Held };
                let counters = counters_of(&streaks);
                rules.legal_moves_into(&position, &counters, moves);
                let (mut open, mut cannot_lose) = (0u32, false);
                for mv in moves.iter() {
                    let mut after = position;
                    after.play_unhashed(mv);
                    let next = streaks_after(&rules, &streaks, &position, mv);
                    let (turned, turned_streaks) = canonical_with(&after, &next);
                    if in_pair(&turned, &turned_streaks).is_some() {
                        open += 1;
                        continue;
                    }
                    let reply =
                        egdb.probe(&after, &next).ok_or(BuildError::Missing(Slice::of(&turned)))?;
                    match reply.outcome() {
                        Outcome::Loss => return Ok((slot(Value::win(1), true, 0), Some(1), kind)),
                        Outcome::Draw => cannot_lose = true,
                        Outcome::Win => {}
                    }
                }
                if cannot_lose {
                    return Ok((slot(Value::DRAW, false, CANNOT_LOSE), None, kind));
                }
                if open == 0 {
                    return Ok((slot(Value::loss(1), true, 0), Some(1), kind));
                }
                let open = u8::try_from(open).ok().filter(|&n| n < CANNOT_LOSE);
                let open = open.ok_or(BuildError::Unindexable(index.slice()))?;
                Ok((slot(Value::DRAW, false, open), None, kind))
            })
            .collect::<Result<_, _>>()?;
        let mut these = Vec::with_capacity(settled.len());
        let mut kinds = Kinds::new(settled.len());
        for (i, (slot, level, kind)) in settled.into_iter().enumerate() {
            kinds.set(i, kind);
            if let Some(level) = level {
                first[usize::from(level)].push((k as u8, i as u32));
            }
            these.push(slot);
        }
        slots.push(these);
        all_kinds.push(kinds);
    }

    // Level n: the predecessors of the positions settled at level n - 1. A predecessor of a
    // lost position is won; one whose last open successor was won for the opponent is lost.
    let mut frontier = std::mem::take(&mut first[0]);
    let mut next_first = std::mem::take(&mut first[1]);
    let mut level = 0u32;
    while !frontier.is_empty() || !next_first.is_empty() {
        level += 1;
        if level > MAX_DISTANCE {
            return Err(BuildError::TooLong(pair[0]));
        }
        // Each worker gathers what it settles in one vector instead of allocating one per
        // frontier position.
        let found: Vec<Node> = frontier
            .par_iter()
            .with_min_len(64)
            .fold(Vec::new, |mut settled, &(k, i)| {
                let slot = &slots[usize::from(k)][i as usize];
                let value = Value(slot.value.load(Ordering::Acquire));
                let entry = indexes[usize::from(k)].entry::<R>(u64::from(i));
                if let Some((position, streaks)) = entry {
                    for_each_predecessor(&rules, &position, &streaks, |before, streaks| {
                        let Some((pk, pi)) = in_pair(&before, &streaks) else { return };
                        let pred = &slots[pk][pi as usize];
                        if pred.settled.load(Ordering::Acquire) != 0 {
                            return;
                        }
                        let settles = match value.outcome() {
                            Outcome::Loss => pred.settle(Value::win(level)),
                            Outcome::Win => {
                                let left = pred.open_successors.fetch_update(
                                    Ordering::AcqRel,
                                    Ordering::Acquire,
                                    |n| (n != CANNOT_LOSE && n > 0).then(|| n - 1),
                                );
                                left == Ok(1) && pred.settle(Value::loss(level))
                            }
                            Outcome::Draw => false,
                        };
                        if settles {
                            settled.push((pk as u8, pi as u32));
                        }
                    });
                }
                settled
            })
            .reduce(Vec::new, |mut gathered, mut more| {
                if gathered.len() < more.len() {
                    std::mem::swap(&mut gathered, &mut more);
                }
                gathered.append(&mut more);
                gathered
            });
        frontier = found;
        frontier.append(&mut next_first);
    }
    let tables = indexes
        .into_iter()
        .zip(slots)
        .zip(all_kinds)
        .map(|((index, slots), kinds)| {
            let values: Vec<u8> = slots.into_iter().map(|slot| slot.value.into_inner()).collect();
            let mut counts = Counts::default();
            for (i, &value) in values.iter().enumerate() {
                if !kinds.is_hole(i) {
                    counts.add(Value(value));
                }
            }
            let table = Table {
                index,
                encoding: Encoding::Distances,
                captures_stored: true,
                values,
                held: Some(kinds.held),
            };
            (table, counts)
        })
        .collect();
    Ok((tables, level))
}

/// What a number of a slice is: a hole of the numbering, a position whose value the files
/// leave out (see [`stored_in_files`]), or one they hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Hole,
    LeftOut,
    Held,
}

/// A [`Kind`] per number, in two bitmaps.
struct Kinds {
    holes: Vec<u64>,
    held: Vec<u64>,
}

impl Kinds {
    fn new(numbers: usize) -> Kinds {
        Kinds { holes: vec![0; numbers.div_ceil(64)], held: vec![0; numbers.div_ceil(64)] }
    }

    fn set(&mut self, i: usize, kind: Kind) {
        match kind {
            Kind::Hole => self.holes[i / 64] |= 1 << (i % 64),
            Kind::Held => self.held[i / 64] |= 1 << (i % 64),
            Kind::LeftOut => {}
        }
    }

    /// Whether number `i` is a hole of the numbering (held and left-out positions are told
    /// apart by `held` alone, which goes to the writer).
    fn is_hole(&self, i: usize) -> bool {
        self.holes[i / 64] >> (i % 64) & 1 != 0
    }
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
