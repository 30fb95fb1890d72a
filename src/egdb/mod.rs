//! Endgame databases: every position up to a few pieces solved to win, draw or loss for the
//! side to move, with the distance to the result in plies, built by retrograde analysis
//! ([`build`]), stored in checksummed files ([`file`]) and probed through [`Egdb`].
//!
//! The value of a position is its game-theoretic value under the move rules and the rules of
//! the whole game that the position alone decides (no move left, breakthrough's first king,
//! Turkish king against a lone man, a rule set's dead draws). Rules that count moves
//! (repetition, move counters, endgame counts) are the search's business, not the database's;
//! a won position is won in the number of plies stored, which the search keeps within those
//! counters by always taking the shortest win ([`Egdb::best_moves`]). Frisian's limit on king
//! moves in a row is the exception: it changes which moves are legal, so the databases hold a
//! value per position and pair of king streaks ([`index::Streaks`]), and every probe passes the
//! game's streaks.
//!
//! The distance counts plies until the material changes (a capture or a promotion into a
//! smaller slice whose value is the same) or the game ends: a distance to conversion. Playing
//! the move that keeps the value and shortens the distance converts every won position, slice
//! by slice. The largest slices may be stored without it ([`Encoding::Wdl`], a quarter of a
//! byte a position): their wins are then converted by the search, which scores them in their
//! own band with the evaluation and sees the conversions into the slices with distances.
//!
//! Files leave out the values of positions with a capture (see [`file`]): a probe answers them
//! from their captures' values, as the build found them.
//!
//! Depends on the rules library and `game::rules`; must not depend on search or protocols.

pub mod build;
pub mod cache;
pub mod file;
pub mod index;
pub mod verify;

use crate::board::types::Side;
use crate::game::rules::{Counters, GameRules, Verdict};
use crate::movegen;
use crate::position::{MoveOf, Position};
use crate::rules::Rules;
use cache::BlockCache;
use index::{Slice, SliceIndex, Streaks, canonical_with};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Win, draw or loss, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        })
    }
}

/// A stored value: one byte. 0 is a draw, 1..=126 a win in `v - 1` plies, 128..=253 a loss in
/// `v - 128` plies; 127 and 255 are a win and a loss whose distance is not stored
/// ([`Encoding::Wdl`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value(pub u8);

/// How a table holds its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// A [`Value`] byte a position: win, draw or loss with the distance to conversion.
    Distances,
    /// Two bits a position, four to a byte from the low bits up: 0 draw, 1 win, 2 loss.
    Wdl,
}

impl Encoding {
    /// Bytes that `numbers` values take.
    pub fn bytes(self, numbers: u64) -> u64 {
        match self {
            Encoding::Distances => numbers,
            Encoding::Wdl => numbers.div_ceil(4),
        }
    }

    /// The value of number `i` in `bytes`, encoded this way.
    #[inline]
    pub fn value_in(self, bytes: &[u8], i: usize) -> Option<Value> {
        match self {
            Encoding::Distances => bytes.get(i).map(|&byte| Value(byte)),
            Encoding::Wdl => {
                bytes.get(i / 4).map(|&byte| Value::of_wdl_code((byte >> (2 * (i % 4))) & 3))
            }
        }
    }

    /// Values a byte holds.
    fn per_byte(self) -> usize {
        match self {
            Encoding::Distances => 1,
            Encoding::Wdl => 4,
        }
    }

    /// `values` (a [`Value`] byte each) in this encoding.
    pub fn encode(self, values: &[u8]) -> Vec<u8> {
        match self {
            Encoding::Distances => values.to_vec(),
            Encoding::Wdl => values
                .chunks(4)
                .map(|four| {
                    four.iter()
                        .enumerate()
                        .fold(0, |byte, (k, &v)| byte | (Value(v).wdl_code() << (2 * k)))
                })
                .collect(),
        }
    }
}

/// Memory for the databases' values by default, MiB: English up to 5 pieces (146 M values)
/// fits whole; beyond it, files are read through a cache of this size.
pub const DEFAULT_MEMORY_MB: usize = 256;

/// The longest distance a value holds (a longer one fails the build, not silently).
pub const MAX_DISTANCE: u32 = 125;

impl Value {
    /// A draw.
    pub const DRAW: Value = Value(0);

    /// A win whose distance is not stored.
    pub const WIN: Value = Value(127);

    /// A loss whose distance is not stored.
    pub const LOSS: Value = Value(255);

    /// Whether the distance is known (a draw's is 0).
    pub fn has_distance(self) -> bool {
        self != Value::WIN && self != Value::LOSS
    }

    /// The value without its distance.
    pub fn without_distance(self) -> Value {
        match self.outcome() {
            Outcome::Win => Value::WIN,
            Outcome::Draw => Value::DRAW,
            Outcome::Loss => Value::LOSS,
        }
    }

    /// Its two-bit code in [`Encoding::Wdl`].
    fn wdl_code(self) -> u8 {
        match self.outcome() {
            Outcome::Draw => 0,
            Outcome::Win => 1,
            Outcome::Loss => 2,
        }
    }

    fn of_wdl_code(code: u8) -> Value {
        match code {
            1 => Value::WIN,
            2 => Value::LOSS,
            _ => Value::DRAW,
        }
    }

    /// A win in `plies` (at most [`MAX_DISTANCE`]).
    pub fn win(plies: u32) -> Value {
        Value(u8::try_from(plies.min(MAX_DISTANCE) + 1).unwrap_or(127))
    }

    /// A loss in `plies` (at most [`MAX_DISTANCE`]).
    pub fn loss(plies: u32) -> Value {
        Value(u8::try_from(plies.min(MAX_DISTANCE) + 128).unwrap_or(255))
    }

    /// Win, draw or loss.
    pub fn outcome(self) -> Outcome {
        match self.0 {
            0 => Outcome::Draw,
            1..=127 => Outcome::Win,
            _ => Outcome::Loss,
        }
    }

    /// Plies to the result (0 for a draw; more than [`MAX_DISTANCE`] when not stored).
    pub fn distance(self) -> u32 {
        match self.0 {
            0 => 0,
            v @ 1..=127 => u32::from(v) - 1,
            v => u32::from(v) - 128,
        }
    }

    /// The value of a game that has ended with `verdict`, for `side_to_move`.
    pub fn of_verdict(verdict: Verdict, side_to_move: Side) -> Value {
        match verdict {
            Verdict::Win(side, _) if side == side_to_move => Value::win(0),
            Verdict::Win(..) => Value::loss(0),
            Verdict::Draw(_) => Value::DRAW,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outcome() {
            Outcome::Draw => f.write_str("draw"),
            outcome if !self.has_distance() => write!(f, "{outcome}"),
            outcome => {
                let plies = self.distance();
                write!(f, "{outcome} in {plies} {}", if plies == 1 { "ply" } else { "plies" })
            }
        }
    }
}

/// The default directory of a rule set's files: `damas/egdb/VARIANT` in the per-user data
/// directory (`$XDG_DATA_HOME` or `~/.local/share` on Linux, `~/Library/Application Support`
/// on macOS, `%APPDATA%` on Windows); None without a home directory.
pub fn default_dir(variant: crate::rules::Variant) -> Option<std::path::PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "damas")?;
    Some(dirs.data_dir().join("egdb").join(variant.name()))
}

/// The directory of `variant`'s files under `path`: `path/VARIANT` when there is one (a
/// directory of several rule sets' databases), else `path` itself.
pub fn variant_dir(path: &Path, variant: crate::rules::Variant) -> std::path::PathBuf {
    let inner = path.join(variant.name());
    if inner.is_dir() { inner } else { path.to_path_buf() }
}

/// The databases an `egdb-path` option's text leads to, opened for probing in `memory_mb` MiB
/// and up to `max_pieces` pieces (0: all): empty text is the per-user data directory when it
/// exists, `none` is none, else a directory (of this rule set's files, or holding a directory
/// per rule set). None where there are no files; files that fail their checks are left out,
/// each with a warning.
///
/// # Errors
/// A directory given by name that is not there or cannot be read.
pub fn open_option<R: Rules>(
    given: &str,
    memory_mb: usize,
    max_pieces: u32,
) -> Result<Option<Egdb<R>>, String> {
    let given = given.trim();
    if given.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let dir = if given.is_empty() {
        match default_dir(R::VARIANT) {
            Some(dir) if dir.is_dir() => dir,
            _ => return Ok(None),
        }
    } else {
        let path = Path::new(given);
        if !path.is_dir() {
            return Err(format!("egdb-path: {given} is not a directory"));
        }
        variant_dir(path, R::VARIANT)
    };
    let memory = memory_mb.saturating_mul(1 << 20);
    let pieces = (max_pieces > 0).then_some(max_pieces);
    let (egdb, refused) =
        Egdb::<R>::open(&dir, memory, pieces).map_err(|e| format!("egdb-path: {e}"))?;
    for error in refused {
        log::warn!("endgame database refused: {error}");
    }
    if egdb.max_pieces() == 0 {
        return Ok(None);
    }
    log::info!(
        "endgame databases: {} up to {} pieces{}",
        dir.display(),
        egdb.max_pieces(),
        if egdb.is_cached() { ", read through the cache" } else { "" }
    );
    Ok(Some(egdb))
}

/// The rules a database solves under: the rule set's own, without those that count moves (see
/// the module comment); a king-move limit stays, with the streaks in the numbering.
pub fn position_rules<R: Rules>() -> GameRules {
    let mut rules = GameRules::of::<R>();
    rules.draws.repetitions = 0;
    rules.draws.reversible_plies = None;
    rules.draws.endgames.clear();
    rules
}

/// The streaks after `mv` is played in `position` reached with `streaks`, as the game counts
/// them ([`GameRules::after`]); none at all without a king-move limit.
#[inline]
pub fn streaks_after<R: Rules>(
    rules: &GameRules,
    streaks: &Streaks,
    position: &Position<R>,
    mv: &MoveOf<R>,
) -> Streaks {
    if const { crate::game::draws::king_move_limit(R::VARIANT).is_none() }
        || rules.draws.king_move_limit.is_none()
    {
        return index::NO_STREAKS;
    }
    rules.after(&counters_of(streaks), position, mv).king_streaks
}

/// Counters that carry `streaks` and nothing else, for the rules' move generation and verdicts
/// (the databases' rules read no other counter).
#[inline]
pub fn counters_of(streaks: &Streaks) -> Counters {
    let mut counters = Counters::default();
    counters.king_streaks = *streaks;
    counters
}

/// One solved slice: its numbering and a value per number.
#[derive(Clone, Debug)]
pub struct Table {
    /// The numbering.
    pub index: SliceIndex,
    /// How `values` holds them.
    pub encoding: Encoding,
    /// Whether the positions with a capture hold their values (a table the build has just
    /// solved does; one read from a file does not, see [`stored_in_files`]).
    pub captures_stored: bool,
    /// The values, encoded (holes hold anything).
    pub values: Vec<u8>,
    /// Bit `i` set: the files hold number `i`'s value (a position, not left out by
    /// [`stored_in_files`]). The build knows it from its first pass; None: found by numbering
    /// the position back when needed.
    pub held: Option<Vec<u64>>,
}

impl Table {
    /// The same values without their distances ([`Encoding::Wdl`]).
    pub fn without_distances(&self) -> Table {
        let values = match self.encoding {
            Encoding::Distances => Encoding::Wdl.encode(&self.values),
            Encoding::Wdl => self.values.clone(),
        };
        Table {
            index: self.index.clone(),
            encoding: Encoding::Wdl,
            captures_stored: self.captures_stored,
            values,
            held: self.held.clone(),
        }
    }

    /// The stored value of number `i` (for a position with a capture, meaningful only when
    /// `captures_stored`).
    #[inline]
    pub fn value(&self, i: u64) -> Option<Value> {
        self.encoding.value_in(&self.values, usize::try_from(i).ok()?)
    }
}

/// Whether a file holds the value of `position` (White to move) with `streaks`: it does unless
/// the position has a capture the rules do not decide at once. Those (a quarter to two fifths
/// of a slice) take any value in the files, whatever compresses best, and a probe answers them
/// from their captures: half the size of the 6-piece English files. `rules` are
/// [`position_rules`].
pub fn stored_in_files<R: Rules>(
    rules: &GameRules,
    position: &Position<R>,
    streaks: &Streaks,
) -> bool {
    !movegen::has_capture(position) || build::settled_at_once(rules, position, streaks).is_some()
}

/// A set of solved slices of rule set `R`: decoded whole in memory ([`Egdb::load`], the
/// build's and the checks' form), or opened for probing ([`Egdb::open`]) within a memory bound:
/// whole when they fit in it, else read a block at a time through a [`BlockCache`] of that size.
#[derive(Debug)]
pub struct Egdb<R: Rules> {
    tables: BTreeMap<Slice, Table>,
    /// Files probed through the cache, each with its number in the cache's keys.
    stored: BTreeMap<Slice, (u32, file::Stored)>,
    cache: Option<BlockCache>,
    /// Whether a block could not be read (it is reported once).
    failed: AtomicBool,
    max_pieces: u32,
    /// The rules a position alone decides ([`position_rules`]), for the positions the files
    /// leave out.
    rules: GameRules,
    variant: std::marker::PhantomData<R>,
}

impl<R: Rules> Default for Egdb<R> {
    fn default() -> Self {
        Egdb {
            tables: BTreeMap::new(),
            stored: BTreeMap::new(),
            cache: None,
            failed: AtomicBool::new(false),
            max_pieces: 0,
            rules: position_rules::<R>(),
            variant: std::marker::PhantomData,
        }
    }
}

/// The database files in `dir` and the slice each holds (by its name), in slice order.
///
/// # Errors
/// The directory cannot be read.
pub fn files_in(dir: &Path) -> Result<Vec<(Slice, std::path::PathBuf)>, file::FileError> {
    let fail = |reason: String| file::FileError { path: dir.to_path_buf(), reason };
    let entries = std::fs::read_dir(dir).map_err(|e| fail(format!("cannot read it: {e}")))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| fail(format!("cannot read it: {e}")))?;
        let name = entry.file_name();
        if let Some(slice) = name.to_str().and_then(file::slice_of_name) {
            names.push((slice, entry.path()));
        }
    }
    names.sort();
    Ok(names)
}

impl<R: Rules> Egdb<R> {
    /// No slices.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a solved slice.
    pub fn insert(&mut self, table: Table) {
        let slice = table.index.slice();
        self.max_pieces = self.max_pieces.max(slice.pieces());
        self.tables.insert(slice, table);
    }

    /// The slices held decoded (all of them, but for those [`Egdb::open`] left in their files).
    pub fn slices(&self) -> impl Iterator<Item = (&Slice, &Table)> {
        self.tables.iter()
    }

    /// Whether `slice` is held.
    pub fn has(&self, slice: Slice) -> bool {
        self.tables.contains_key(&slice) || self.stored.contains_key(&slice)
    }

    /// Slices held, decoded or not.
    pub fn slice_count(&self) -> usize {
        self.tables.len() + self.stored.len()
    }

    /// Loads every database file of `R` in `dir`, checking and decoding each whole. A file that
    /// fails its checks is left out and reported; the others are kept.
    ///
    /// # Errors
    /// The directory cannot be read.
    pub fn load(dir: &Path) -> Result<(Egdb<R>, Vec<file::FileError>), file::FileError> {
        let mut egdb = Egdb::new();
        let mut refused = Vec::new();
        for (slice, path) in files_in(dir)? {
            match file::read::<R>(&path, slice) {
                Ok(table) => egdb.insert(table),
                Err(error) => refused.push(error),
            }
        }
        Ok((egdb, refused))
    }

    /// Opens the database files of `R` in `dir` of at most `max_pieces` pieces (None: all) for
    /// probing in at most `memory` bytes of decoded values: decoded whole when they all fit,
    /// else left in their files and decoded a block at a time into a cache of that size. Every
    /// file is checked whole here (its checksum), never while probing; a file that fails is
    /// left out and reported, the others are kept.
    ///
    /// # Errors
    /// The directory cannot be read.
    pub fn open(
        dir: &Path,
        memory: usize,
        max_pieces: Option<u32>,
    ) -> Result<(Egdb<R>, Vec<file::FileError>), file::FileError> {
        let mut opened = Vec::new();
        let mut refused = Vec::new();
        for (slice, path) in files_in(dir)? {
            if max_pieces.is_some_and(|most| slice.pieces() > most) {
                continue;
            }
            match file::Stored::open::<R>(&path, slice) {
                Ok(stored) => opened.push((slice, stored)),
                Err(error) => refused.push(error),
            }
        }
        let decoded: u64 = opened.iter().map(|(_, stored)| stored.decoded_size()).sum();
        let mut egdb = Egdb::new();
        if decoded <= memory as u64 {
            for (_, stored) in opened {
                match stored.table() {
                    Ok(table) => egdb.insert(table),
                    Err(error) => refused.push(error),
                }
            }
        } else {
            let block = opened
                .iter()
                .map(|(_, stored)| stored.encoding().bytes(stored.block_numbers()))
                .max()
                .unwrap_or(1);
            egdb.cache = Some(BlockCache::new(memory, block as usize));
            for (id, (slice, stored)) in opened.into_iter().enumerate() {
                egdb.max_pieces = egdb.max_pieces.max(slice.pieces());
                egdb.stored.insert(slice, (id as u32, stored));
            }
        }
        Ok((egdb, refused))
    }

    /// Whether the values answer for a game played under `rules`: they assume the rule set's
    /// own king-move limit (Frisian's), which a game under other draw rules may lift.
    pub fn fits(&self, rules: &GameRules) -> bool {
        rules.draws.king_move_limit == self.rules.draws.king_move_limit
    }

    /// Most pieces of a held slice.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Whether the slices are probed through the block cache (they did not fit in memory).
    pub fn is_cached(&self) -> bool {
        self.cache.is_some()
    }

    /// The value of `position` for its side to move, reached with each side's king `streaks`
    /// ([`index::NO_STREAKS`] where the game has no king-move limit, or no king has moved in a
    /// row), or None when its slice is not held (or a block of its file could not be read:
    /// reported once). A side without pieces is answered without a table.
    pub fn probe(&self, position: &Position<R>, streaks: &Streaks) -> Option<Value> {
        let (turned, streaks) = canonical_with(position, streaks);
        let slice = Slice::of(&turned);
        if slice.men[0] + slice.kings[0] == 0 {
            return Some(Value::of_verdict(GameRules::no_move::<R>(Side::White), Side::White));
        }
        if let Some(table) = self.tables.get(&slice) {
            if !table.captures_stored && !stored_in_files(&self.rules, &turned, &streaks) {
                return self.by_captures(&turned, &streaks);
            }
            return table.value(table.index.index_with(&turned, &streaks));
        }
        let (id, stored) = self.stored.get(&slice)?;
        if !stored_in_files(&self.rules, &turned, &streaks) {
            return self.by_captures(&turned, &streaks);
        }
        let cache = self.cache.as_ref()?;
        let i = stored.index().index_with(&turned, &streaks);
        let (block, offset) = (i / stored.block_numbers(), i % stored.block_numbers());
        let block = usize::try_from(block).ok()?;
        let encoding = stored.encoding();
        let per_byte = encoding.per_byte();
        let offset = offset as usize;
        let byte = cache.value((*id, block as u64), offset / per_byte, || stored.block(block));
        match byte {
            Ok(byte) => encoding.value_in(&[byte?], offset % per_byte),
            Err(error) => {
                if !self.failed.swap(true, Ordering::Relaxed) {
                    log::warn!("endgame database: {error}");
                }
                None
            }
        }
    }

    /// The value of `position` (White to move, with a capture) from its captures' values, as
    /// the build settles it: won in 1 ply when a capture leaves the opponent lost, else drawn
    /// when one leaves them drawn, else lost in 1. Captures always lead into smaller slices.
    fn by_captures(&self, position: &Position<R>, streaks: &Streaks) -> Option<Value> {
        if let Some(value) = build::settled_at_once(&self.rules, position, streaks) {
            return Some(value);
        }
        let mut moves = crate::board::moves::MoveList::new();
        let counters = counters_of(streaks);
        self.rules.legal_moves_into(position, &counters, &mut moves);
        let mut value = Value::loss(1);
        for mv in moves.iter() {
            let mut after = *position;
            after.play_unhashed(mv);
            let next = streaks_after(&self.rules, streaks, position, mv);
            match self.probe(&after, &next)?.outcome() {
                Outcome::Loss => return Some(Value::win(1)),
                Outcome::Draw => value = Value::DRAW,
                Outcome::Win => {}
            }
        }
        Some(value)
    }

    /// The moves of `position`, reached with `streaks`, that keep its value, the fastest first
    /// (a win: the shortest win; a loss: the longest); None when a successor's slice is not
    /// held.
    pub fn best_moves(
        &self,
        position: &Position<R>,
        streaks: &Streaks,
    ) -> Option<Vec<(MoveOf<R>, Value)>> {
        let value = self.probe(position, streaks)?;
        let counters = counters_of(streaks);
        let mut moves = crate::board::moves::MoveList::new();
        self.rules.legal_moves_into(position, &counters, &mut moves);
        let mut keeping = Vec::new();
        for mv in moves.iter() {
            let mut after = *position;
            after.play(mv);
            let reply = self.probe(&after, &streaks_after(&self.rules, streaks, position, mv))?;
            // A capture or a promotion leaves the slice: a won smaller slice is progress
            // whatever its distance. Inside the slice the distance must come down by one.
            let converts = mv.is_capture() || mv.promotes() || !value.has_distance();
            let keeps = match value.outcome() {
                Outcome::Win => {
                    reply.outcome() == Outcome::Loss
                        && (converts || reply.distance() + 1 == value.distance())
                }
                Outcome::Draw => reply.outcome() == Outcome::Draw,
                Outcome::Loss => true,
            };
            if keeps {
                keeping.push((*mv, reply));
            }
        }
        // Fastest first: a win's shortest reply-loss, a loss's longest reply-win.
        match value.outcome() {
            Outcome::Win => keeping
                .sort_by_key(|(mv, reply)| (!(mv.is_capture() || mv.promotes()), reply.distance())),
            Outcome::Loss => keeping.sort_by_key(|(_, reply)| std::cmp::Reverse(reply.distance())),
            Outcome::Draw => {}
        }
        Some(keeping)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitset::BitSet;
    use crate::game::rules::KingStreak;
    use crate::notation::fen;
    use crate::rules::{English, Frisian, International};
    use index::NO_STREAKS;

    fn solved<R: Rules>(pieces: u32) -> Egdb<R> {
        let mut egdb = Egdb::new();
        build::build(&mut egdb, pieces, pieces, |_, _| Ok(()), |_, _, _| {}).expect("build");
        egdb
    }

    fn value<R: Rules>(egdb: &Egdb<R>, text: &str) -> Value {
        let position = fen::parse::<R>(text).expect("fen");
        egdb.probe(&position, &NO_STREAKS).expect("held")
    }

    #[test]
    fn english_three_pieces_hold_the_known_facts_and_verify() {
        let egdb = solved::<English>(3);
        let mut counts = [build::Counts::default(); 4];
        for (slice, table) in egdb.slices() {
            let c = build::Counts::of(&egdb, table);
            counts[slice.pieces() as usize] = counts[slice.pieces() as usize].plus(&c);
            let (positions, checked, wrong) = verify::verify_table(&egdb, table);
            assert_eq!((positions, checked), (c.positions, c.positions));
            assert!(wrong.is_empty(), "{slice}: {wrong:?}");
        }
        assert_eq!(counts[2].positions, 3_488);
        assert_eq!(counts[3].positions, 196_032);
        // A king against a king is not always a draw: a king in its single corner (29, one
        // neighbour: 25) with the enemy king on 22 must step to 25 and is taken (22x29).
        let kk = egdb.tables.get(&Slice::new([0, 0], [1, 1])).expect("1K v 1K");
        let kk = build::Counts::of(&egdb, kk);
        assert!(kk.losses > 0 && kk.draws > 0, "{kk:?}");
        assert_eq!(value(&egdb, "W:WK29:BK22").outcome(), Outcome::Loss);
        assert_eq!(value(&egdb, "W:WK1:BK32"), Value::DRAW);
        // Two kings against one win nearly always, not always.
        let two = egdb.tables.get(&Slice::new([0, 0], [2, 1])).expect("2K v 1K");
        let two = build::Counts::of(&egdb, two);
        assert!(two.draws > 0 && two.wins > 100 * two.draws, "{two:?}");
        // The lone king in the double corner lasts longest; each best move shortens the win.
        let mut position = fen::parse::<English>("B:WK18,K14:BK27").expect("fen");
        let mut last = egdb.probe(&position, &NO_STREAKS).expect("held");
        assert_eq!(last.outcome(), Outcome::Loss);
        for _ in 0..60 {
            let Some(best) = egdb.best_moves(&position, &NO_STREAKS) else { break };
            let Some((mv, reply)) = best.first().copied() else { break };
            assert_ne!(reply.outcome(), Outcome::Draw);
            assert!(mv.is_capture() || reply.distance() + 1 == last.distance());
            position.play(&mv);
            last = reply;
            if mv.is_capture() {
                break;
            }
        }
        assert!(position.pieces(crate::board::types::Side::Black).is_empty());
    }

    #[test]
    fn opened_files_probe_as_loaded_ones_whole_or_through_a_small_cache() {
        let egdb = solved::<English>(3);
        let dir = std::env::temp_dir().join(format!("damas-egdb-open-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Two pieces with distances, three without.
        let encoding_of =
            |slice: &Slice| if slice.pieces() <= 2 { Encoding::Distances } else { Encoding::Wdl };
        for (slice, table) in egdb.slices() {
            file::write::<English>(&dir, table, encoding_of(slice)).expect("write");
        }
        let (whole, refused) = Egdb::<English>::open(&dir, 1 << 30, None).expect("open");
        assert!(refused.is_empty() && !whole.is_cached());
        assert_eq!((whole.max_pieces(), whole.slice_count()), (3, egdb.slice_count()));
        let (two, _) = Egdb::<English>::open(&dir, 1 << 30, Some(2)).expect("open");
        assert_eq!(two.max_pieces(), 2);
        assert!(
            two.probe(&fen::parse::<English>("W:WK18,K14:BK27").expect("fen"), &NO_STREAKS)
                .is_none()
        );
        // 53 KB decoded (200 k values, those of 3 pieces in two bits) in 16 KiB: the cache
        // keeps two blocks and reads the rest again.
        let memory = 16 << 10;
        let (cached, _) = Egdb::<English>::open(&dir, memory, None).expect("open");
        assert!(cached.is_cached() && cached.slices().count() == 0);
        // The files answer as the build: capture positions (left out of the files) by their
        // captures, with the same values; the others as stored, without distances in the
        // files without them.
        let rules = position_rules::<English>();
        let (mut probed, mut captures) = (0, 0);
        for (slice, table) in egdb.slices() {
            for i in (0..table.index.size()).step_by(7) {
                if let Some(position) = table.index.position::<English>(i) {
                    let built = table.value(i).expect("a value");
                    let wanted = if !stored_in_files(&rules, &position, &NO_STREAKS) {
                        captures += 1;
                        built
                    } else if encoding_of(slice) == Encoding::Wdl {
                        built.without_distance()
                    } else {
                        built
                    };
                    assert_eq!(cached.probe(&position, &NO_STREAKS), Some(wanted));
                    assert_eq!(whole.probe(&position, &NO_STREAKS), Some(wanted));
                    probed += 1;
                }
            }
        }
        assert!(probed > 25_000 && captures > 3_000, "{probed} {captures}");
        // The files verify: capture positions are not checked, the others against successors
        // found partly by captures.
        let (mut positions, mut checked) = (0, 0);
        for (slice, table) in whole.slices() {
            let (n, c, wrong) = verify::verify_table(&whole, table);
            assert!(wrong.is_empty(), "{slice}: {wrong:?}");
            positions += n;
            checked += c;
        }
        assert_eq!(positions, 199_520);
        assert!(checked > 100_000 && checked < positions, "{checked}");
        let held = cached.cache.as_ref().map_or(0, |cache| cache.held());
        assert!(held <= memory, "{held} bytes held");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_changed_value_fails_verification() {
        let mut egdb = solved::<English>(2);
        let slice = Slice::new([0, 0], [1, 1]);
        let mut table = egdb.tables.get(&slice).expect("held").clone();
        let i = (0..table.values.len())
            .find(|&i| table.values[i] == 0 && table.index.position::<English>(i as u64).is_some())
            .expect("a draw");
        table.values[i] = Value::win(3).0;
        egdb.insert(table.clone());
        let (_, _, wrong) = verify::verify_table(&egdb, &table);
        assert_eq!(wrong.len(), 1);
        assert_eq!(wrong[0].index, i as u64);
    }

    #[test]
    fn frisian_values_hold_the_king_streaks_and_verify() {
        let egdb = solved::<Frisian>(3);
        for (slice, table) in egdb.slices() {
            let (_, _, wrong) = verify::verify_table(&egdb, table);
            assert!(wrong.is_empty(), "{slice}: {wrong:?}");
        }
        // A side with a king and a man has 1 + 3 streak states (none, or its king has made 1,
        // 2 or 3 moves in a row): 45 squares for the man, 49 and 48 for the kings. Kings
        // against a man have none.
        let table = &egdb.tables[&Slice::new([1, 0], [1, 1])];
        assert_eq!(table.index.size(), 45 * 49 * 48 * 4);
        assert_eq!(egdb.tables[&Slice::new([0, 1], [2, 0])].index.size(), 45 * 49 * 48 / 2);
        // White's man on 6 is blocked by its own king on 1. Fresh, White wins; when that king
        // has just made its third move in a row, White has no move left and has lost.
        let game_after = |moves: &[&str]| {
            let start = fen::parse::<Frisian>("W:WK1,6:BK46").expect("fen");
            let mut game = crate::game::Game::new(start);
            for text in moves {
                let mv = crate::notation::moves::parse(game.position(), text).expect("move");
                game.play(&mv).expect("legal");
            }
            game
        };
        let fresh = game_after(&[]);
        assert_eq!(
            egdb.probe(fresh.position(), &NO_STREAKS).map(Value::outcome),
            Some(Outcome::Win)
        );
        let moves = ["1-12", "46-41", "12-7", "41-46", "7-1", "46-41"];
        let game = game_after(&moves);
        assert_eq!(game.position().pieces(Side::White), fresh.position().pieces(Side::White));
        let streaks = game.counters().king_streaks;
        assert_eq!(streaks[0].moves, 3);
        assert_eq!(egdb.probe(game.position(), &streaks), Some(Value::loss(0)));
        assert_eq!(
            egdb.probe(game.position(), &NO_STREAKS).map(Value::outcome),
            Some(Outcome::Win)
        );
        // The same seen from Black's side: the streaks turn with the board.
        let turned = fen::parse::<Frisian>("B:WK10:BK50,45").expect("fen");
        assert_eq!(turned, game.position().color_flipped());
        let king = (turned.pieces(Side::Black) & turned.kings()).lowest();
        let turned_streaks = [streaks[1], KingStreak { moves: 3, square: king as u8 }];
        assert_eq!(egdb.probe(&turned, &turned_streaks), Some(Value::loss(0)));
        // Two moves in a row leave one: the same king goes back and White wins as fresh.
        let two = game_after(&moves[..4]);
        let value = egdb.probe(two.position(), &two.counters().king_streaks);
        assert_eq!(value.map(Value::outcome), Some(Outcome::Win));
        // A streak only takes moves away from its side: over both slices, no position is
        // better for a side with its king's streak than fresh, and some are worse.
        let rank = |value: Value| match value.outcome() {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Win => 2,
        };
        for (slice, side) in [(Slice::new([1, 0], [1, 1]), 0), (Slice::new([0, 1], [1, 1]), 1)] {
            let table = &egdb.tables[&slice];
            let positions = table.index.size() / 4;
            let mut worse = 0;
            for i in 0..positions {
                let Some(fresh) = table.value(i) else { continue };
                for state in 1..4 {
                    let with_streak = table.value(i + state * positions).expect("a value");
                    // The mover's own streak can only lower its value, the opponent's raise it.
                    let (own, fresh) = if side == 0 {
                        (rank(with_streak), rank(fresh))
                    } else {
                        (2 - rank(with_streak), 2 - rank(fresh))
                    };
                    assert!(own <= fresh, "{slice} {i} {state}");
                    worse += u32::from(own < fresh);
                }
            }
            assert!(worse > 1000, "{slice}: {worse}");
        }
    }

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let egdb = solved::<International>(2);
        let dir = std::env::temp_dir().join(format!("damas-egdb-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut positions = 0;
        for (_, table) in egdb.slices() {
            file::write::<International>(&dir, table, Encoding::Distances).expect("write");
            positions += build::Counts::of(&egdb, table).positions;
        }
        assert_eq!(positions, 8_845);
        let (back, refused) = Egdb::<International>::load(&dir).expect("load");
        assert!(refused.is_empty());
        for (slice, table) in egdb.slices() {
            assert!(back.has(*slice));
            for i in 0..table.index.size() {
                if let Some(position) = table.index.position::<International>(i) {
                    assert_eq!(back.probe(&position, &NO_STREAKS), table.value(i), "{slice} {i}");
                }
            }
            assert_eq!(
                build::Counts::of(&back, &back.tables[slice]),
                build::Counts::of(&egdb, table)
            );
        }
        // A table read back writes the same file again (the writer decides from the positions
        // which values the file holds, as the build's first pass does).
        let again = dir.join("again");
        for (slice, table) in back.slices() {
            let path = file::write::<International>(&again, table, Encoding::Distances);
            let first = std::fs::read(dir.join(file::file_name(*slice))).expect("read");
            assert_eq!(std::fs::read(path.expect("write")).expect("read"), first, "{slice}");
        }
        let _ = std::fs::remove_dir_all(&again);
        // Another variant's reader refuses the files; a flipped byte and a cut file are refused.
        let (_, foreign) = Egdb::<English>::load(&dir).expect("load");
        assert!(foreign.iter().all(|e| e.reason.contains("a file of international")));
        let path = dir.join(file::file_name(Slice::new([0, 0], [1, 1])));
        let mut bytes = std::fs::read(&path).expect("read");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x10;
        std::fs::write(&path, &bytes).expect("write");
        let (_, refused) = Egdb::<International>::load(&dir).expect("load");
        assert_eq!(refused.len(), 1);
        assert!(refused[0].reason.contains("checksum"), "{}", refused[0]);
        bytes[middle] ^= 0x10;
        std::fs::write(&path, &bytes[..bytes.len() - 9]).expect("write");
        let (_, refused) = Egdb::<International>::load(&dir).expect("load");
        assert!(refused[0].reason.contains("damaged or truncated"), "{}", refused[0]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
