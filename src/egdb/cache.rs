//! The probes' cache of decoded blocks: a bounded number of bytes, shared by every search
//! thread, split into shards that each have their own lock (threads probing different blocks
//! rarely wait on each other), each shard evicting by the clock algorithm (a block used since
//! the hand last passed gets a second chance), which approximates least-recently-used without
//! reordering anything on a hit.
//!
//! Depends on std only.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

/// Most shards: enough that 16 or so threads rarely meet on one lock.
const MAX_SHARDS: usize = 64;
/// Fewest blocks a shard holds, which makes a small cache have fewer shards.
const SHARD_BLOCKS: usize = 8;

/// A block's key: the slice's number among the open files and the block's number in it.
pub type Key = (u32, u64);

struct Entry {
    values: Arc<[u8]>,
    used: bool,
}

#[derive(Default)]
struct Shard {
    entries: HashMap<Key, Entry>,
    /// The clock: keys in the order the hand meets them.
    clock: VecDeque<Key>,
    bytes: usize,
}

/// Decoded blocks up to a number of bytes.
pub struct BlockCache {
    shards: Vec<Mutex<Shard>>,
    /// Bytes each shard may hold.
    shard_bytes: usize,
}

impl std::fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BlockCache({} x {} bytes)", self.shards.len(), self.shard_bytes)
    }
}

impl BlockCache {
    /// A cache of at most `bytes`, for blocks of about `block_bytes` (a block larger than a
    /// shard is decoded each time, never kept).
    pub fn new(bytes: usize, block_bytes: usize) -> BlockCache {
        let shards = (bytes / block_bytes.max(1) / SHARD_BLOCKS).clamp(1, MAX_SHARDS);
        BlockCache {
            shards: (0..shards).map(|_| Mutex::new(Shard::default())).collect(),
            shard_bytes: bytes / shards,
        }
    }

    fn shard(&self, key: Key) -> MutexGuard<'_, Shard> {
        // Blocks of one slice spread over the shards; slices start at different shards.
        let i =
            (key.1 as usize).wrapping_add((key.0 as usize).wrapping_mul(31)) % self.shards.len();
        // A thread that panicked holding the lock left whole entries (each change is one
        // statement), so the shard is still sound.
        self.shards[i].lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The byte at `offset` of block `key`, decoding the block with `load` (outside the lock)
    /// when it is not held; None when `load` fails or `offset` is past the block.
    pub fn value<E>(
        &self,
        key: Key,
        offset: usize,
        load: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Option<u8>, E> {
        {
            let mut shard = self.shard(key);
            if let Some(entry) = shard.entries.get_mut(&key) {
                entry.used = true;
                return Ok(entry.values.get(offset).copied());
            }
        }
        let values: Arc<[u8]> = load()?.into();
        let value = values.get(offset).copied();
        let mut shard = self.shard(key);
        if shard.entries.contains_key(&key) || values.len() > self.shard_bytes {
            // Another thread decoded it meanwhile, or it can never fit.
            return Ok(value);
        }
        while shard.bytes + values.len() > self.shard_bytes {
            let Some(oldest) = shard.clock.pop_front() else { break };
            let second_chance = match shard.entries.get_mut(&oldest) {
                Some(entry) if entry.used => {
                    entry.used = false;
                    true
                }
                _ => false,
            };
            if second_chance {
                shard.clock.push_back(oldest);
            } else if let Some(gone) = shard.entries.remove(&oldest) {
                shard.bytes -= gone.values.len();
            }
        }
        shard.bytes += values.len();
        shard.clock.push_back(key);
        shard.entries.insert(key, Entry { values, used: false });
        Ok(value)
    }

    /// Bytes held now.
    pub fn held(&self) -> usize {
        self.shards.iter().map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn holds_at_most_its_size_and_keeps_what_is_used() {
        let cache = BlockCache::new(300, 100);
        assert_eq!(cache.shards.len(), 1);
        let loads = Cell::new(0);
        let load = |fill: u8| {
            loads.set(loads.get() + 1);
            Ok::<_, ()>(vec![fill; 100])
        };
        let key = |n: u64| (0u32, n);
        assert_eq!(cache.value(key(1), 5, || load(1)), Ok(Some(1)));
        assert_eq!(cache.value(key(1), 7, || load(9)), Ok(Some(1)));
        assert_eq!(loads.get(), 1);
        assert_eq!(cache.value(key(2), 0, || load(2)), Ok(Some(2)));
        assert_eq!(cache.value(key(3), 0, || load(3)), Ok(Some(3)));
        // Block 1 was used again (second chance): block 4 evicts block 2.
        assert_eq!(cache.value(key(1), 0, || load(9)), Ok(Some(1)));
        assert_eq!(cache.value(key(4), 0, || load(4)), Ok(Some(4)));
        assert!(cache.held() <= 300);
        let before = loads.get();
        assert_eq!(cache.value(key(1), 0, || load(9)), Ok(Some(1)));
        assert_eq!(loads.get(), before, "block 1 kept");
        assert_eq!(cache.value(key(2), 0, || load(2)), Ok(Some(2)));
        assert_eq!(loads.get(), before + 1, "block 2 was evicted");
        assert_eq!(cache.value(key(5), 100, || load(5)), Ok(None));
        assert_eq!(cache.value(key(6), 0, || Err::<Vec<u8>, _>(())), Err(()));
        // A block larger than the cache is read, not kept.
        assert_eq!(cache.value(key(7), 350, || Ok::<_, ()>(vec![7; 400])), Ok(Some(7)));
        assert!(cache.held() <= 300);
        let big = BlockCache::new(64 << 20, 4096);
        assert_eq!((big.shards.len(), big.shard_bytes), (64, 1 << 20));
    }
}
