//! The memory under the transposition table: one zeroed block of buckets, on Linux mapped
//! directly and marked for transparent huge pages.
//!
//! Why: every search node probes a random bucket of a table far larger than the caches, and with
//! 4 KiB pages each probe also misses the TLB. On this project's 2-core Xeon (a VM, where a TLB
//! miss walks two page tables) a 64 MiB table searched at 1.95 M nodes/s with 4 KiB pages and
//! 2.64 M nodes/s with 2 MiB pages (International start, one thread). The kernel only backs
//! memory with huge pages when asked (`madvise` mode, the common default) *before* the pages are
//! first touched, which `Vec` cannot do: hence the mapping by hand. Elsewhere, or when the
//! mapping fails, a plain zeroed `Vec` is used. Depends on std and libc only.
//!
//! The only module besides the table's `Zeroable` impl allowed `unsafe` (the crate denies it).
#![allow(unsafe_code)]

use std::ops::Deref;

/// A fixed-size, zero-initialised slice of `T` where all-zero bytes are a valid `T`.
pub struct Block<T: Zeroable> {
    #[cfg(target_os = "linux")]
    mapping: Option<(std::ptr::NonNull<T>, usize)>,
    fallback: Vec<T>,
}

/// Types whose all-zero bit pattern is a valid value (atomics, integers, arrays of them).
///
/// # Safety
/// Implementors must be valid when every byte is zero and must not need dropping.
pub unsafe trait Zeroable: Sized {
    /// The zero value.
    fn zero() -> Self;
}

// SAFETY: the mapping is owned by the block and only read through `&[T]`; `T` is `Sync`
// (atomics), so sharing the block between threads is as safe as sharing a `Vec<T>`.
unsafe impl<T: Zeroable + Sync> Sync for Block<T> {}
// SAFETY: as above; the mapping has no thread affinity.
unsafe impl<T: Zeroable + Send> Send for Block<T> {}

impl<T: Zeroable> Block<T> {
    /// `count` zeroed values (at least one), or None when the memory cannot be had: a table
    /// size too large for the machine is the user's error to hear about, not an abort.
    pub fn try_zeroed(count: usize) -> Option<Self> {
        let count = count.max(1);
        #[cfg(target_os = "linux")]
        if let Some(mapping) = map(count) {
            return Some(Block { mapping: Some((mapping, count)), fallback: Vec::new() });
        }
        let mut fallback = Vec::new();
        fallback.try_reserve_exact(count).ok()?;
        fallback.extend((0..count).map(|_| T::zero()));
        Some(Block {
            #[cfg(target_os = "linux")]
            mapping: None,
            fallback,
        })
    }
}

#[cfg(target_os = "linux")]
fn map<T>(count: usize) -> Option<std::ptr::NonNull<T>> {
    let bytes = count.checked_mul(std::mem::size_of::<T>())?;
    // SAFETY: an anonymous private mapping with no address hint; the kernel returns fresh,
    // zero-filled, page-aligned memory (page alignment exceeds `T`'s, at most 64) or MAP_FAILED.
    let address = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if address == libc::MAP_FAILED {
        return None;
    }
    // SAFETY: `address..address + bytes` is the mapping just made. A refusal (no THP support)
    // is harmless: the memory is then backed by ordinary pages.
    unsafe {
        libc::madvise(address, bytes, libc::MADV_HUGEPAGE);
    }
    std::ptr::NonNull::new(address.cast::<T>())
}

/// Asks the CPU to start loading the cache line of `value`, so that a read soon after does not
/// wait for memory.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it never faults, reads nothing into the program and writes
    // nothing; the pointer comes from a live reference. SSE is part of the x86-64 baseline.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

impl<T: Zeroable> Deref for Block<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        #[cfg(target_os = "linux")]
        if let Some((pointer, count)) = self.mapping {
            // SAFETY: the mapping holds `count` values of `T`, zero-filled by the kernel, which
            // `Zeroable` guarantees is valid; it lives until `drop`, and is only handed out
            // shared.
            return unsafe { std::slice::from_raw_parts(pointer.as_ptr(), count) };
        }
        &self.fallback
    }
}

impl<T: Zeroable> Drop for Block<T> {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some((pointer, count)) = self.mapping.take() {
            // SAFETY: unmapping exactly the region `map` created, once; no reference into it
            // outlives `self`. `T` needs no drop (a `Zeroable` requirement).
            unsafe {
                libc::munmap(pointer.as_ptr().cast(), count * std::mem::size_of::<T>());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    struct Word(AtomicU64);
    // SAFETY: an atomic integer is valid as zero bytes and needs no drop.
    unsafe impl Zeroable for Word {
        fn zero() -> Self {
            Word(AtomicU64::new(0))
        }
    }

    #[test]
    fn blocks_are_zeroed_and_writable() {
        for count in [1, 1000, 3 << 18] {
            let block = Block::<Word>::try_zeroed(count).expect("a small block");
            assert_eq!(block.len(), count);
            assert!(block.iter().all(|w| w.0.load(Ordering::Relaxed) == 0));
            block[count - 1].0.store(7, Ordering::Relaxed);
            assert_eq!(block[count - 1].0.load(Ordering::Relaxed), 7);
        }
    }
}
