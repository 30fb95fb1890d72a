//! The transposition table shared by all search threads, without locks.
//!
//! Each entry is two `AtomicU64`s: the data word and the key XOR the data, so a torn write (one
//! word from one thread, one from another) fails the key check and reads as a miss. Buckets of
//! four entries share a cache line; replacement prefers stale (older search) and shallow entries.
//! The move is kept as its index in the generated move list plus its origin and destination,
//! which the reader checks against the list before trusting it. Depends on nothing but std.

use super::tt_memory::{Block, Zeroable};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

/// What a stored score is: exact, a lower bound (fail high) or an upper bound (fail low).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact = 0,
    /// The score is at least this.
    Lower = 1,
    /// The score is at most this.
    Upper = 2,
}

/// A move as the table keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TtMove {
    /// Index in the generated move list.
    pub index: u8,
    /// Origin bit.
    pub from: u8,
    /// Destination bit.
    pub to: u8,
}

/// A table entry as read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best or refuting move, if any.
    pub mv: Option<TtMove>,
    /// Score, relative to the node (win distances counted from it).
    pub score: i32,
    /// Depth searched.
    pub depth: i32,
    /// Kind of bound.
    pub bound: Bound,
}

const BUCKET: usize = 4;

#[repr(align(64))]
struct Bucket {
    words: [(AtomicU64, AtomicU64); BUCKET],
}

// SAFETY: a bucket is atomics only: all-zero bytes are empty entries, and nothing needs dropping.
#[allow(unsafe_code)]
unsafe impl Zeroable for Bucket {
    fn zero() -> Self {
        Bucket { words: std::array::from_fn(|_| (AtomicU64::new(0), AtomicU64::new(0))) }
    }
}

/// The transposition table.
pub struct TranspositionTable {
    buckets: Block<Bucket>,
    generation: AtomicU8,
    /// Set when a search starts: the table may hold entries. A table nobody searched with is
    /// still all zeros, and clearing it would only fault its pages in.
    written: AtomicBool,
}

/// Tables up to this size are touched when made, so that the first searches do not pay for
/// faulting the pages in (measured: a 64 MiB table held a fresh engine's 50 ms search to depth
/// 3). Larger ones fault in as the search reaches them rather than holding up the protocol's
/// `init` (touching 4096 MiB took 18.7 s on this project's 2-core machine).
const TOUCH_LIMIT_MB: usize = 64;

// data word layout: score 20 bits (offset), depth 8, bound 2, generation 6, has_move 1,
// index 8, from 8, to 8.
fn pack(entry: &Entry, generation: u8) -> u64 {
    let score = (entry.score + (1 << 19)) as u64 & 0xF_FFFF;
    let depth = (entry.depth.clamp(-1, 254) + 1) as u64 & 0xFF;
    let mv = entry.mv.unwrap_or_default();
    score
        | depth << 20
        | (entry.bound as u64) << 28
        | u64::from(generation & 0x3F) << 30
        | u64::from(entry.mv.is_some()) << 36
        | u64::from(mv.index) << 37
        | u64::from(mv.from) << 45
        | u64::from(mv.to) << 53
}

fn unpack(data: u64) -> (Entry, u8) {
    let score = (data & 0xF_FFFF) as i32 - (1 << 19);
    let depth = ((data >> 20) & 0xFF) as i32 - 1;
    let bound = match (data >> 28) & 3 {
        0 => Bound::Exact,
        1 => Bound::Lower,
        _ => Bound::Upper,
    };
    let generation = ((data >> 30) & 0x3F) as u8;
    let mv = ((data >> 36) & 1 == 1).then_some(TtMove {
        index: (data >> 37) as u8,
        from: (data >> 45) as u8,
        to: (data >> 53) as u8,
    });
    (Entry { mv, score, depth, bound }, generation)
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket).
    ///
    /// # Errors
    /// The memory cannot be had; the message says how much was asked for.
    pub fn try_new(megabytes: usize) -> Result<Self, String> {
        let megabytes = megabytes.max(1);
        let refused = || format!("could not allocate {megabytes} MiB for the hash table");
        let bytes = megabytes.checked_mul(1 << 20).ok_or_else(refused)?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets = Block::try_zeroed(count).ok_or_else(refused)?;
        let table = TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
            written: AtomicBool::new(false),
        };
        if megabytes <= TOUCH_LIMIT_MB {
            table.zero();
        }
        Ok(table)
    }

    /// The largest table up to `megabytes` MiB that the machine gives, halving the size while
    /// it is refused (with a warning on the log).
    pub fn new(megabytes: usize) -> Self {
        let mut megabytes = megabytes.max(1);
        loop {
            match Self::try_new(megabytes) {
                Ok(table) => return table,
                Err(error) if megabytes > 1 => {
                    megabytes /= 2;
                    log::warn!("{error}; using {megabytes} MiB");
                }
                // Not even a mebibyte: allocate as Rust does, which aborts on failure.
                Err(_) => {
                    let buckets = Block::try_zeroed(1).unwrap_or_else(|| {
                        std::alloc::handle_alloc_error(std::alloc::Layout::new::<Bucket>())
                    });
                    let generation = AtomicU8::new(0);
                    return TranspositionTable { buckets, generation, written: false.into() };
                }
            }
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        if self.written.swap(false, Ordering::Relaxed) {
            self.zero();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Zeroes every bucket, on all cores.
    fn zero(&self) {
        self.buckets.par_iter().for_each(|bucket| {
            for (check, data) in &bucket.words {
                check.store(0, Ordering::Relaxed);
                data.store(0, Ordering::Relaxed);
            }
        });
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become the first to be replaced. (Entries are
    /// stored only during a search, after this call: [`TranspositionTable::clear`] relies on
    /// it.)
    pub fn new_search(&self) {
        self.written.store(true, Ordering::Relaxed);
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading the bucket of `key` into the cache (a probe follows soon).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        super::tt_memory::prefetch(self.bucket(key));
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for (check, data) in &self.bucket(key).words {
            let word = data.load(Ordering::Relaxed);
            if word != 0 && check.load(Ordering::Relaxed) ^ word == key {
                return Some(unpack(word).0);
            }
        }
        None
    }

    /// Stores an entry for `key`.
    pub fn store(&self, key: u64, entry: Entry) {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3F;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (slot, (check, data)) in bucket.words.iter().enumerate() {
            let word = data.load(Ordering::Relaxed);
            if word == 0 || check.load(Ordering::Relaxed) ^ word == key {
                victim = slot;
                let mut entry = entry;
                if word != 0 {
                    let (old, _) = unpack(word);
                    // A deeper entry of the same position stays (only its age is renewed): a
                    // shallower search of it, ProbCut's or one that reached it nearer the
                    // horizon by another path, knows less.
                    if old.depth > entry.depth {
                        return Self::write(bucket, victim, key, &old, generation);
                    }
                    // Keep the old move when the new entry has none.
                    if entry.mv.is_none() {
                        entry.mv = old.mv;
                    }
                }
                return Self::write(bucket, victim, key, &entry, generation);
            }
            let (old, old_generation) = unpack(word);
            let age = i32::from(generation.wrapping_sub(old_generation) & 0x3F);
            let value = old.depth - 8 * age;
            if value < worst {
                worst = value;
                victim = slot;
            }
        }
        Self::write(bucket, victim, key, &entry, generation);
    }

    fn write(bucket: &Bucket, slot: usize, key: u64, entry: &Entry, generation: u8) {
        let word = pack(entry, generation);
        bucket.words[slot].1.store(word, Ordering::Relaxed);
        bucket.words[slot].0.store(key ^ word, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries used in the current search (for `hashfull`).
    pub fn fill_permille(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3F;
        let mut used: u32 = 0;
        let mut seen = 0;
        for bucket in self.buckets.iter().take(250) {
            for (_, data) in &bucket.words {
                let word = data.load(Ordering::Relaxed);
                seen += 1;
                if word != 0 && unpack(word).1 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let table = TranspositionTable::new(1);
        table.new_search();
        let entry = Entry {
            mv: Some(TtMove { index: 7, from: 31, to: 26 }),
            score: -29_990,
            depth: 17,
            bound: Bound::Lower,
        };
        table.store(0xdead_beef, entry);
        assert_eq!(table.probe(0xdead_beef), Some(entry));
        assert_eq!(table.probe(0xdead_bef0), None);
        table.clear();
        assert_eq!(table.probe(0xdead_beef), None);
    }

    #[test]
    fn a_shallower_search_keeps_the_deeper_entry_and_a_deeper_one_replaces_it() {
        let table = TranspositionTable::new(1);
        table.new_search();
        let deep = Entry {
            mv: Some(TtMove { index: 2, from: 9, to: 13 }),
            score: 40,
            depth: 9,
            bound: Bound::Exact,
        };
        table.store(77, deep);
        let shallow = Entry { mv: None, score: -5, depth: 3, bound: Bound::Upper };
        table.store(77, shallow);
        assert_eq!(table.probe(77), Some(deep));
        let deeper = Entry { mv: None, score: 12, depth: 10, bound: Bound::Lower };
        table.store(77, deeper);
        // The new entry, with the old move where it has none.
        assert_eq!(table.probe(77), Some(Entry { mv: deep.mv, ..deeper }));
    }

    #[test]
    fn a_table_the_machine_cannot_give_is_an_error() {
        let error = TranspositionTable::try_new(usize::MAX).err().expect("refused");
        assert!(error.contains("could not allocate"), "{error}");
        // Larger than any address space: refused, and `new` settles for less.
        assert!(TranspositionTable::try_new(1 << 40).is_err());
        assert!(TranspositionTable::new(1).buckets.len() > 1);
    }
}
