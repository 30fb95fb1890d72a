//! The endgame database file: one solved slice per file, `V-M-K-m-k.egdb` in the variant's
//! directory. All numbers little-endian.
//!
//! ```text
//! magic            8 bytes  "DAMASEGD"
//! format version   u32      1
//! variant          u8 length, then the variant's name (`english`)
//! slice            4 x u8   mover's men, mover's kings, opponent's men, opponent's kings
//! index scheme     u32      1 (egdb::index: men, men, kings, kings, combinatorial numbers)
//! numbers          u64      the slice's index size, holes included
//! block numbers    u32      numbers per block (the last block may hold fewer)
//! blocks           u32      block count
//! block table      per block: offset u64 (from the start of the data), length u32,
//!                  CRC-32 u32 of its bytes
//! data             the blocks: runs of (value u8, run length LEB128), each value a
//!                  egdb::Value byte
//! file checksum    u32      CRC-32 of every byte before it
//! ```
//!
//! A block decodes on its own, so a reader can hold the compressed blocks and decode one on
//! demand. Depends on `egdb` and std I/O only.

use super::Table;
use super::index::{Slice, SliceIndex};
use crate::rules::Rules;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"DAMASEGD";
const VERSION: u32 = 1;
const INDEX_SCHEME: u32 = 1;
/// Numbers per block.
const BLOCK: u64 = 1 << 16;

/// Why a file was refused.
#[derive(Debug)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for FileError {}

/// The file name of `slice`.
pub fn file_name(slice: Slice) -> String {
    format!("{}.egdb", slice.name())
}

/// The slice a file name stands for, if it is one of ours.
pub fn slice_of_name(name: &str) -> Option<Slice> {
    let stem = name.strip_suffix(".egdb")?;
    let parts: Vec<u8> = stem.split('-').map(str::parse).collect::<Result<_, _>>().ok()?;
    match parts[..] {
        [m0, k0, m1, k1] => Some(Slice::new([m0, m1], [k0, k1])),
        _ => None,
    }
}

fn encode_block(values: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < values.len() {
        let value = values[i];
        let mut run = 1u64;
        while i + (run as usize) < values.len() && values[i + run as usize] == value {
            run += 1;
        }
        out.push(value);
        let mut rest = run;
        loop {
            let byte = (rest & 0x7f) as u8;
            rest >>= 7;
            if rest == 0 {
                out.push(byte);
                break;
            }
            out.push(byte | 0x80);
        }
        i += run as usize;
    }
}

fn decode_block(bytes: &[u8], expected: usize, out: &mut Vec<u8>) -> Result<(), String> {
    let start = out.len();
    let mut at = 0;
    while at < bytes.len() {
        let value = bytes[at];
        at += 1;
        let mut run = 0u64;
        let mut shift = 0;
        loop {
            let byte = *bytes.get(at).ok_or("a run is cut off")?;
            at += 1;
            run |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                break;
            }
            shift += 7;
            if shift > 35 {
                return Err("a run is too long".into());
            }
        }
        let run = usize::try_from(run).map_err(|_| "a run is too long")?;
        if out.len() - start + run > expected {
            return Err("a block holds more values than its numbers".into());
        }
        out.resize(out.len() + run, value);
    }
    if out.len() - start != expected {
        return Err("a block holds fewer values than its numbers".into());
    }
    Ok(())
}

/// Writes `table` of rule set `R` into `dir` (created if needed), through a temporary file
/// renamed at the end, so that an interrupted write never leaves a file that looks whole.
///
/// # Errors
/// The file system's.
pub fn write<R: Rules>(dir: &Path, table: &Table) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let slice = table.index.slice();
    let mut head = Vec::new();
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    let name = R::VARIANT.name().as_bytes();
    head.push(u8::try_from(name.len()).unwrap_or(u8::MAX));
    head.extend_from_slice(&name[..name.len().min(255)]);
    head.extend_from_slice(&[slice.men[0], slice.kings[0], slice.men[1], slice.kings[1]]);
    head.extend_from_slice(&INDEX_SCHEME.to_le_bytes());
    let numbers = table.index.size();
    head.extend_from_slice(&numbers.to_le_bytes());
    head.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    let mut data = Vec::new();
    let mut entries = Vec::new();
    for chunk in table.values.chunks(BLOCK as usize) {
        let start = data.len();
        encode_block(chunk, &mut data);
        let bytes = &data[start..];
        entries.push((start as u64, bytes.len() as u32, crc32fast::hash(bytes)));
    }
    head.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for (offset, length, crc) in &entries {
        head.extend_from_slice(&offset.to_le_bytes());
        head.extend_from_slice(&length.to_le_bytes());
        head.extend_from_slice(&crc.to_le_bytes());
    }
    head.extend_from_slice(&data);
    let crc = crc32fast::hash(&head);
    head.extend_from_slice(&crc.to_le_bytes());
    let path = dir.join(file_name(slice));
    let partial = dir.join(format!("{}.partial", file_name(slice)));
    {
        let mut file = std::fs::File::create(&partial)?;
        file.write_all(&head)?;
        file.sync_all()?;
    }
    std::fs::rename(&partial, &path)?;
    Ok(path)
}

/// A cursor over a file's bytes that names what it failed to read.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&end| end <= self.bytes.len());
        let end = end.ok_or_else(|| format!("the file is truncated (in the {what})"))?;
        let part = &self.bytes[self.at..end];
        self.at = end;
        Ok(part)
    }
    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }
    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self, what: &str) -> Result<u64, String> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}

/// Reads and checks a file of rule set `R` holding `slice` (from its name): every checksum, the
/// variant, the slice, the numbering. The values are decoded whole.
///
/// # Errors
/// A [`FileError`] naming the file and what is wrong: unreadable, truncated, damaged, another
/// variant's or another slice's.
pub fn read<R: Rules>(path: &Path, slice: Slice) -> Result<Table, FileError> {
    let fail = |reason: String| FileError { path: path.to_path_buf(), reason };
    let bytes = std::fs::read(path).map_err(|e| fail(format!("cannot read it: {e}")))?;
    parse::<R>(&bytes, slice).map_err(fail)
}

fn parse<R: Rules>(bytes: &[u8], slice: Slice) -> Result<Table, String> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a damas endgame database file".into());
    }
    if bytes.len() < MAGIC.len() + 8 {
        return Err("the file is truncated".into());
    }
    let (body, tail) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    let mut r = Reader { bytes: body, at: MAGIC.len() };
    let version = r.u32("header")?;
    if version != VERSION {
        return Err(format!("format version {version}, this damas reads {VERSION}"));
    }
    if crc32fast::hash(body) != stored {
        return Err("the file checksum does not match: the file is damaged or truncated".into());
    }
    let length = usize::from(r.u8("header")?);
    let variant = String::from_utf8_lossy(r.take(length, "header")?).into_owned();
    if variant != R::VARIANT.name() {
        return Err(format!("a file of {variant}, not {}", R::VARIANT.name()));
    }
    let s = r.take(4, "header")?;
    let held = Slice::new([s[0], s[2]], [s[1], s[3]]);
    if held != slice {
        return Err(format!("holds slice {held}, its name says {slice}"));
    }
    let scheme = r.u32("header")?;
    if scheme != INDEX_SCHEME {
        return Err(format!("index scheme {scheme}, this damas reads {INDEX_SCHEME}"));
    }
    let index = SliceIndex::new::<R>(slice).ok_or("a slice this damas cannot number")?;
    let numbers = r.u64("header")?;
    if numbers != index.size() {
        return Err(format!("{numbers} numbers where the slice has {}", index.size()));
    }
    let block = u64::from(r.u32("header")?);
    let blocks = u64::from(r.u32("header")?);
    if block == 0 || blocks != numbers.div_ceil(block) {
        return Err("the block table does not fit the slice".into());
    }
    let mut entries = Vec::new();
    for _ in 0..blocks {
        entries.push((r.u64("block table")?, r.u32("block table")?, r.u32("block table")?));
    }
    let data = &body[r.at..];
    let capacity = usize::try_from(numbers).map_err(|_| "too many numbers for this machine")?;
    let mut values = Vec::new();
    values.try_reserve_exact(capacity).map_err(|_| "not enough memory to load it")?;
    for (b, &(offset, length, crc)) in entries.iter().enumerate() {
        let start = usize::try_from(offset).map_err(|_| "a block offset is out of range")?;
        let end = start.checked_add(length as usize).filter(|&end| end <= data.len());
        let end = end.ok_or_else(|| format!("block {b} lies outside the file"))?;
        let part = &data[start..end];
        if crc32fast::hash(part) != crc {
            return Err(format!("block {b} fails its checksum"));
        }
        let expected = block.min(numbers - b as u64 * block) as usize;
        decode_block(part, expected, &mut values).map_err(|e| format!("block {b}: {e}"))?;
    }
    Ok(Table { index, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_round_trip() {
        let values: Vec<u8> = (0..70_000u32).map(|i| if i % 1000 < 990 { 0 } else { 5 }).collect();
        let mut bytes = Vec::new();
        encode_block(&values, &mut bytes);
        let mut back = Vec::new();
        decode_block(&bytes, values.len(), &mut back).expect("decode");
        assert_eq!(back, values);
        assert!(decode_block(&bytes, values.len() - 1, &mut Vec::new()).is_err());
        assert!(decode_block(&bytes[..bytes.len() - 1], values.len(), &mut Vec::new()).is_err());
    }

    #[test]
    fn names_round_trip() {
        let slice = Slice::new([2, 0], [1, 3]);
        assert_eq!(slice_of_name(&file_name(slice)), Some(slice));
        assert_eq!(slice_of_name("2-1-0.egdb"), None);
        assert_eq!(slice_of_name("a-1-0-1.egdb"), None);
    }
}
