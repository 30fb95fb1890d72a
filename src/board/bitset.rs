//! Bit sets over board squares: the one vocabulary type every other module builds on.
//!
//! A board is a set of bit indices in an unsigned word (`u64` for 8x8 and 10x10 boards, `u128`
//! for 12x12). This module knows nothing about boards, rules or positions; it only gives the word
//! types a common interface so that geometry and move generation can be generic over them.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// An unsigned machine word used as a set of square bits.
pub trait BitSet:
    Copy
    + Eq
    + Default
    + Debug
    + Hash
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const EMPTY: Self;
    /// Number of bits in the word.
    const WIDTH: u32;

    /// The set holding only bit `index`.
    fn single(index: u32) -> Self;
    /// Number of members.
    fn count(self) -> u32;
    /// Index of the lowest member; `WIDTH` when empty.
    fn lowest(self) -> u32;
    /// The set without its lowest member.
    fn without_lowest(self) -> Self;
    /// Its lowest 64 bits, as a number.
    fn low_u64(self) -> u64;

    /// True when the set has no member.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }

    /// True when the set has at least one member.
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::EMPTY
    }

    /// True when bit `index` is a member.
    #[inline(always)]
    fn contains(self, index: u32) -> bool {
        (self & Self::single(index)).any()
    }

    /// Iterates over member indices, lowest first.
    #[inline(always)]
    fn iter(self) -> Bits<Self> {
        Bits(self)
    }
}

macro_rules! impl_bitset {
    ($t:ty, |$index:ident| $single:expr) => {
        impl BitSet for $t {
            const EMPTY: Self = 0;
            const WIDTH: u32 = <$t>::BITS;

            #[inline(always)]
            fn single($index: u32) -> Self {
                $single
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn low_u64(self) -> u64 {
                self as u64
            }
        }
    };
}

/// `1 << i` for every bit of a `u128`. A variable shift of a `u128` takes two shifts and a
/// select on x86-64 (the index may cross the word halves); a load is cheaper, and playing a
/// move needs two such sets (12x12 perft: 6% fewer instructions).
static U128_SINGLES: [u128; 128] = {
    let mut singles = [0; 128];
    let mut index = 0;
    while index < 128 {
        singles[index] = 1 << index;
        index += 1;
    }
    singles
};

impl_bitset!(u64, |index| 1 << index);
impl_bitset!(u128, |index| U128_SINGLES[(index & 127) as usize]);

/// Iterator over the member indices of a [`BitSet`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits<B>(B);

impl<B: BitSet> Iterator for Bits<B> {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            None
        } else {
            let index = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(index)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: BitSet> ExactSizeIterator for Bits<B> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_yields_members_in_order() {
        let set: u64 = (1 << 3) | (1 << 17) | (1 << 63);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![3, 17, 63]);
        let wide: u128 = (1 << 100) | 1;
        assert_eq!(wide.iter().collect::<Vec<_>>(), vec![0, 100]);
        assert_eq!(wide.count(), 2);
        assert!(0u64.is_empty());
    }
}
