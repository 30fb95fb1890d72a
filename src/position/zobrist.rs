//! Zobrist keys: one random 64-bit key per (side, piece kind, bit) and one for the side to move.
//!
//! Built at compile time from a fixed-seed SplitMix64 sequence, so hashes are identical on every
//! run and every machine. Depends on nothing.

/// Largest bit index any geometry uses, plus one.
const MAX_BITS: usize = 128;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn build() -> ([[u64; MAX_BITS]; 4], u64) {
    let mut keys = [[0u64; MAX_BITS]; 4];
    let mut state = 0x0da3_a5d4_a115_u64;
    let mut kind = 0;
    while kind < 4 {
        let mut bit = 0;
        while bit < MAX_BITS {
            let (next, key) = splitmix(state);
            state = next;
            keys[kind][bit] = key;
            bit += 1;
        }
        kind += 1;
    }
    let (_, side) = splitmix(state);
    (keys, side)
}

const TABLES: ([[u64; MAX_BITS]; 4], u64) = build();

/// Keys indexed by `side * 2 + is_king`, then bit index.
pub static PIECE_KEYS: [[u64; MAX_BITS]; 4] = TABLES.0;

/// Key toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = TABLES.1;

/// The key of one piece.
#[inline(always)]
pub fn piece_key(side: usize, king: bool, bit: u32) -> u64 {
    PIECE_KEYS[side * 2 + usize::from(king)][bit as usize]
}
