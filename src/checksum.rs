//! The 64-bit FNV-1a hash (Fowler, Noll, Vo): the identities of feature sets and the checksums
//! of the files damas writes (weights, books), so that a damaged file is refused rather than
//! read wrong.
//!
//! Depends on nothing but std.

/// The FNV-1a hash of the bytes added so far.
#[derive(Clone, Copy, Debug)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self::new()
    }
}

impl Fnv {
    /// The hash of nothing.
    pub fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    /// Adds `bytes`.
    pub fn add(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// The hash so far.
    pub fn value(&self) -> u64 {
        self.0
    }

    /// The hash of `bytes`.
    pub fn of(bytes: &[u8]) -> u64 {
        let mut hash = Fnv::new();
        hash.add(bytes);
        hash.value()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_1a_gives_the_published_values() {
        // The reference values of FNV-1a 64 (the test vectors of its authors' page).
        assert_eq!(Fnv::of(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(Fnv::of(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(Fnv::of(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
