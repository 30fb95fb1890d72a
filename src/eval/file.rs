//! The weight file: trained pattern weights on disk and embedded in the binary.
//!
//! Layout, all integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `DAMASEVW` |
//! | 4 | format version, 2 |
//! | 1 + n | the rule set's name (`english`): its length, then its bytes |
//! | 4 | feature set: the layout's identity ([`Layout::feature_set`](super::pattern::Layout::feature_set)) |
//! | 4 | regions `r` |
//! | 4 | patterns per region (6561) |
//! | 4 | dense terms `d` |
//! | 4 | flags: bit 0, the score is divided for drawish material; bit 1, a king square table follows the dense terms; bit 2, flank regions; no other bit is set |
//! | 8 | with flag bit 2: flank regions `f`, patterns per flank region (19683) |
//! | `r` × 6561 × 4 | per region, per pattern: opening weight (i16), endgame weight (i16) |
//! | `f` × 19683 × 4 | per flank region, per pattern: the same |
//! | `d` × 8 | per dense term: opening weight (i32), endgame weight (i32) |
//! | 4 + `s` × 4 | with flag bit 1: squares `s`, then per square opening and endgame weights (i16) |
//! | 8 | checksum: 64-bit FNV-1a of every byte before it |
//!
//! A file with fewer dense terms than this build has (3, the first files' man, king and tempo)
//! reads with the others at zero, which evaluates as the build that wrote it did. Format 1 is
//! the same without the flags; its files divide for drawish material when they have more than
//! the first three terms, as the builds that wrote them did.
//!
//! Weights are hundredths of a man. A file that is cut short, has a flipped byte (the checksum),
//! another format or is made for another rule set or layout is refused with the reason.
//!
//! Depends on `pattern` and the rule-set names; reads and writes bytes only (the callers do the
//! file I/O).

use super::pattern::{
    DENSE, FIRST_DENSE, FLANK_PATTERNS, Fnv, MAX_FLANKS, PATTERNS, PatternWeights,
};
use crate::rules::Variant;

/// The first bytes of a weight file.
pub const MAGIC: &[u8; 8] = b"DAMASEVW";
/// The format version this build writes (it reads 1 too).
pub const VERSION: u32 = 2;
/// The flag of weights whose score is divided for drawish material.
const DRAWISH: u32 = 1;
/// The flag of weights with a king square table.
const KING_SQUARES: u32 = 2;
/// The flag of weights with flank regions.
const FLANKS: u32 = 4;
/// The most squares of any board (12x12's 72), with room.
const MAX_SQUARES: usize = 128;

/// The bytes of a weight file holding `weights`.
pub fn write(weights: &PatternWeights) -> Vec<u8> {
    let mut out = Vec::with_capacity(weights.table.len() * 4 + 64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let name = weights.variant.name().as_bytes();
    out.push(name.len() as u8);
    out.extend_from_slice(name);
    out.extend_from_slice(&weights.feature_set.to_le_bytes());
    out.extend_from_slice(&(weights.regions as u32).to_le_bytes());
    out.extend_from_slice(&(PATTERNS as u32).to_le_bytes());
    out.extend_from_slice(&(weights.dense_terms as u32).to_le_bytes());
    let flags = if weights.drawish { DRAWISH } else { 0 }
        | if weights.king_squares.is_empty() { 0 } else { KING_SQUARES }
        | if weights.flanks == 0 { 0 } else { FLANKS };
    out.extend_from_slice(&flags.to_le_bytes());
    if weights.flanks > 0 {
        out.extend_from_slice(&(weights.flanks as u32).to_le_bytes());
        out.extend_from_slice(&(FLANK_PATTERNS as u32).to_le_bytes());
    }
    for pair in &weights.table {
        out.extend_from_slice(&pair[0].to_le_bytes());
        out.extend_from_slice(&pair[1].to_le_bytes());
    }
    for pair in &weights.dense[..weights.dense_terms] {
        out.extend_from_slice(&pair[0].to_le_bytes());
        out.extend_from_slice(&pair[1].to_le_bytes());
    }
    if !weights.king_squares.is_empty() {
        out.extend_from_slice(&(weights.king_squares.len() as u32).to_le_bytes());
        for pair in &weights.king_squares {
            out.extend_from_slice(&pair[0].to_le_bytes());
            out.extend_from_slice(&pair[1].to_le_bytes());
        }
    }
    let mut hash = Fnv::new();
    hash.add(&out);
    out.extend_from_slice(&hash.value().to_le_bytes());
    out
}

/// Reads the bytes of a weight file.
///
/// # Errors
/// A message saying what is wrong with the file.
pub fn read(bytes: &[u8]) -> Result<PatternWeights, String> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a damas weight file (no DAMASEVW header)".into());
    }
    if bytes.len() < MAGIC.len() + 8 + 4 {
        return Err("the weight file is cut short".into());
    }
    let (body, checksum) = bytes.split_at(bytes.len() - 8);
    let mut hash = Fnv::new();
    hash.add(body);
    let mut reader = Reader { bytes: body, at: MAGIC.len() };
    let version = reader.u32()?;
    if !(1..=VERSION).contains(&version) {
        return Err(format!("weight file format {version}, this build reads 1 to {VERSION}"));
    }
    if checksum != hash.value().to_le_bytes() {
        return Err("the weight file is corrupt (its checksum does not match)".into());
    }
    let name_length = reader.take(1)?[0] as usize;
    let name = String::from_utf8_lossy(reader.take(name_length)?).into_owned();
    let variant: Variant =
        name.parse().map_err(|_| format!("weights for an unknown rule set `{name}`"))?;
    let feature_set = reader.u32()?;
    let regions = reader.u32()? as usize;
    let patterns = reader.u32()? as usize;
    let dense = reader.u32()? as usize;
    let flags = if version >= 2 {
        reader.u32()?
    } else if dense > FIRST_DENSE {
        DRAWISH
    } else {
        0
    };
    if flags & !(DRAWISH | KING_SQUARES | FLANKS) != 0 {
        return Err(format!("the weight file has flags {flags:#x} this build does not know"));
    }
    if patterns != PATTERNS
        || !(FIRST_DENSE..=DENSE).contains(&dense)
        || regions > super::pattern::MAX_REGIONS
    {
        return Err(format!(
            "the weight file has {regions} regions of {patterns} patterns and {dense} other \
             terms; this build reads up to {} regions of {PATTERNS} and {FIRST_DENSE} to \
             {DENSE}",
            super::pattern::MAX_REGIONS
        ));
    }
    let flanks = if flags & FLANKS != 0 {
        let (flanks, patterns) = (reader.u32()? as usize, reader.u32()? as usize);
        if flanks == 0 || flanks > MAX_FLANKS || patterns != FLANK_PATTERNS {
            return Err(format!(
                "the weight file has {flanks} flank regions of {patterns} patterns; this build \
                 reads 1 to {MAX_FLANKS} of {FLANK_PATTERNS}"
            ));
        }
        flanks
    } else {
        0
    };
    let entries = regions * PATTERNS + flanks * FLANK_PATTERNS;
    let mut table = Vec::new();
    table.try_reserve_exact(entries).map_err(|e| e.to_string())?;
    for _ in 0..entries {
        table.push(reader.i16_pair()?);
    }
    let mut dense_weights = [[0; 2]; DENSE];
    for pair in &mut dense_weights[..dense] {
        *pair = [reader.u32()? as i32, reader.u32()? as i32];
    }
    let mut king_squares = Vec::new();
    if flags & KING_SQUARES != 0 {
        let squares = reader.u32()? as usize;
        if squares == 0 || squares > MAX_SQUARES {
            return Err(format!("the weight file has a king square table of {squares} squares"));
        }
        for _ in 0..squares {
            king_squares.push(reader.i16_pair()?);
        }
    }
    if reader.at != body.len() {
        return Err("the weight file has bytes past its weights".into());
    }
    Ok(PatternWeights {
        variant,
        feature_set,
        regions,
        flanks,
        table,
        dense: dense_weights,
        dense_terms: dense,
        drawish: flags & DRAWISH != 0,
        king_squares,
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, count: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(count).filter(|&end| end <= self.bytes.len());
        let end = end.ok_or_else(|| "the weight file is cut short".to_string())?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn i16_pair(&mut self) -> Result<[i16; 2], String> {
        let pair = self.take(4)?;
        Ok([i16::from_le_bytes([pair[0], pair[1]]), i16::from_le_bytes([pair[2], pair[3]])])
    }

    fn u32(&mut self) -> Result<u32, String> {
        let bytes = self.take(4)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::English;

    fn sample() -> PatternWeights {
        let mut weights = PatternWeights::material_only::<English>(100, 150);
        for (index, pair) in weights.table.iter_mut().enumerate() {
            *pair = [(index % 201) as i16 - 100, -((index % 77) as i16)];
        }
        weights.dense[2] = [3, -4];
        weights.dense[5] = [6, 8];
        weights
    }

    #[test]
    fn a_written_file_reads_back_identical() {
        for drawish in [true, false] {
            let weights = PatternWeights { drawish, ..sample() };
            let bytes = write(&weights);
            assert_eq!(read(&bytes).unwrap(), weights);
            let king_squares = (0..32).map(|square| [square * 3 - 40, 7 - square]).collect();
            let with_kings = PatternWeights { king_squares, ..weights };
            let bytes_with_kings = write(&with_kings);
            assert_eq!(bytes_with_kings.len(), bytes.len() + 4 + 32 * 4);
            assert_eq!(read(&bytes_with_kings).unwrap(), with_kings);
            let mut with_flanks = PatternWeights { flanks: 4, ..with_kings };
            with_flanks.table.extend((0..4 * FLANK_PATTERNS).map(|i| [(i % 999) as i16, -3]));
            let bytes_with_flanks = write(&with_flanks);
            let added = 8 + 4 * FLANK_PATTERNS * 4;
            assert_eq!(bytes_with_flanks.len(), bytes_with_kings.len() + added);
            assert_eq!(read(&bytes_with_flanks).unwrap(), with_flanks);
        }
    }

    /// The checksum written after `body`.
    fn sealed(mut body: Vec<u8>) -> Vec<u8> {
        let mut hash = Fnv::new();
        hash.add(&body);
        body.extend_from_slice(&hash.value().to_le_bytes());
        body
    }

    /// The format 1 file of `weights` with its first `terms` dense terms: no flags word.
    fn format_1(weights: &PatternWeights, terms: usize) -> Vec<u8> {
        let mut bytes = write(weights);
        bytes.truncate(bytes.len() - 8);
        let dense_at = bytes.len() - DENSE * 8;
        bytes.truncate(dense_at + terms * 8);
        let flags_at = dense_at - weights.table.len() * 4 - 4;
        bytes.drain(flags_at..flags_at + 4);
        bytes[flags_at - 4..flags_at].copy_from_slice(&(terms as u32).to_le_bytes());
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        sealed(bytes)
    }

    /// A format 1 file of the first three dense terms reads with the others at zero and no
    /// drawish division; one of all the terms divides, as the builds that wrote them did.
    #[test]
    fn format_1_files_evaluate_as_they_were_written() {
        let weights = sample();
        let mut expected = weights.clone();
        expected.dense[FIRST_DENSE..].iter_mut().for_each(|pair| *pair = [0, 0]);
        expected.dense_terms = FIRST_DENSE;
        expected.drawish = false;
        assert_eq!(read(&format_1(&weights, FIRST_DENSE)).unwrap(), expected);
        let all = PatternWeights { drawish: false, ..weights.clone() };
        assert_eq!(read(&format_1(&all, DENSE)).unwrap(), weights);
    }

    #[test]
    fn unknown_flags_are_refused() {
        let weights = sample();
        let mut body = write(&weights);
        body.truncate(body.len() - 8);
        let flags_at = body.len() - DENSE * 8 - weights.table.len() * 4 - 4;
        body[flags_at] |= 8;
        let error = read(&sealed(body)).unwrap_err();
        assert!(error.contains("flags 0x9"), "{error}");
    }

    #[test]
    fn a_flipped_byte_is_refused() {
        let bytes = write(&sample());
        for at in [20, bytes.len() / 2, bytes.len() - 20, bytes.len() - 1] {
            let mut broken = bytes.clone();
            broken[at] ^= 0x10;
            let error = read(&broken).unwrap_err();
            assert!(error.contains("corrupt"), "byte {at}: {error}");
        }
    }

    #[test]
    fn other_files_are_refused_with_the_reason() {
        let bytes = write(&sample());
        assert!(read(b"W:W21-32:B1-12").unwrap_err().contains("not a damas weight file"));
        assert!(read(&bytes[..bytes.len() / 2]).unwrap_err().contains("corrupt"));
        assert!(read(&bytes[..10]).unwrap_err().contains("cut short"));
        let mut future = bytes.clone();
        future[8] = 9;
        assert!(read(&future).unwrap_err().contains("format 9"));
    }
}
