//! The endgame database file: one solved slice per file, `V-M-K-m-k.egdb` in the variant's
//! directory. All numbers little-endian.
//!
//! ```text
//! magic            8 bytes  "DAMASEGD"
//! format version   u32      3
//! variant          u8 length, then the variant's name (`english`)
//! slice            4 x u8   mover's men, mover's kings, opponent's men, opponent's kings
//! index scheme     u32      1 (egdb::index: men, men, kings, kings, combinatorial numbers;
//!                           under a king-move limit, Frisian, each side's king streak state
//!                           before them, White's the most significant)
//! encoding         u8       1: an egdb::Value byte a number (with distances);
//!                           2: two bits a number, four to a byte (0 draw, 1 win, 2 loss)
//! numbers          u64      the slice's index size, holes included
//! block numbers    u32      numbers per block (the last block may hold fewer): 8,192 with
//!                           distances, 32,768 without (8 KiB decoded either way)
//! blocks           u32      block count
//! block table      per block: offset u64 (from the start of the data), length u32,
//!                  CRC-32 u32 of its bytes
//! data             the blocks: each block's encoded values compressed with raw DEFLATE
//!                  (RFC 1951)
//! file checksum    u32      CRC-32 of every byte before it
//! ```
//!
//! Positions with a capture that the rules do not decide at once, and the holes of the
//! numbering, hold no value of their own: the writer repeats the last value before them, which
//! lengthens DEFLATE's runs (the English 6-piece files: 3.9 times smaller with this and two-bit
//! values than with distance bytes stored everywhere). Readers answer those positions from
//! their captures ([`super::stored_in_files`]).
//!
//! A block decodes on its own, so a reader can hold the compressed blocks and decode one on
//! demand. Depends on `egdb`, rayon (blocks are prepared and compressed in parallel) and std
//! I/O.

use super::index::{Slice, SliceIndex};
use super::{Encoding, Table, Value, position_rules, stored_in_files};
use crate::rules::Rules;
use rayon::prelude::*;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"DAMASEGD";
/// 1 stored run lengths (value, LEB128 length); 2 stores DEFLATE blocks, 4 times smaller; 3
/// leaves out capture positions and may store values without distances.
const VERSION: u32 = 3;
const INDEX_SCHEME: u32 = 1;
/// Decoded bytes per block: a probe that misses the cache reads and decompresses one block, so
/// blocks are small; DEFLATE compresses larger ones a little better (English 2-4 pieces: 988 kB
/// in 4 Ki blocks, 903 kB in 16 Ki), and the block table costs 16 bytes each.
const BLOCK_BYTES: u64 = 1 << 13;

/// Numbers per block in `encoding`.
fn block_numbers(encoding: Encoding) -> u64 {
    BLOCK_BYTES * (BLOCK_BYTES / encoding.bytes(BLOCK_BYTES))
}

fn encoding_code(encoding: Encoding) -> u8 {
    match encoding {
        Encoding::Distances => 1,
        Encoding::Wdl => 2,
    }
}

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

/// Compresses a block's values (raw DEFLATE, RFC 1951, at its strongest level).
fn encode_block(values: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(&miniz_oxide::deflate::compress_to_vec(values, 9));
}

/// Decompresses a block that must hold `expected` values, appending them to `out`.
fn decode_block(bytes: &[u8], expected: usize, out: &mut Vec<u8>) -> Result<(), String> {
    let values = miniz_oxide::inflate::decompress_to_vec_with_limit(bytes, expected)
        .map_err(|e| format!("cannot be decompressed ({:?})", e.status))?;
    if values.len() != expected {
        return Err(format!("holds {} values where it should hold {expected}", values.len()));
    }
    out.extend_from_slice(&values);
    Ok(())
}

/// Writes `table` of rule set `R` into `dir` (created if needed) in `encoding`, through a
/// temporary file renamed at the end, so that an interrupted write never leaves a file that
/// looks whole. The table must hold its capture positions' values if it has distances and
/// `encoding` keeps them (those of a table read from a file are left out whatever they are).
///
/// # Errors
/// The file system's.
pub fn write<R: Rules>(dir: &Path, table: &Table, encoding: Encoding) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    if table.encoding == Encoding::Wdl && encoding == Encoding::Distances {
        return Err(std::io::Error::other("a table without distances cannot be written with them"));
    }
    let slice = table.index.slice();
    let mut head = Vec::new();
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    let name = R::VARIANT.name().as_bytes();
    head.push(u8::try_from(name.len()).unwrap_or(u8::MAX));
    head.extend_from_slice(&name[..name.len().min(255)]);
    head.extend_from_slice(&[slice.men[0], slice.kings[0], slice.men[1], slice.kings[1]]);
    head.extend_from_slice(&INDEX_SCHEME.to_le_bytes());
    head.push(encoding_code(encoding));
    let numbers = table.index.size();
    head.extend_from_slice(&numbers.to_le_bytes());
    let block = block_numbers(encoding);
    head.extend_from_slice(&(block as u32).to_le_bytes());
    let rules = position_rules::<R>();
    // Each block on its own: the values the file holds, each left-out one repeating the last
    // value before it; then encoded and compressed.
    let blocks: Vec<Vec<u8>> = (0..numbers.div_ceil(block))
        .into_par_iter()
        .map(|b| {
            let numbers = b * block..(b * block + block).min(numbers);
            let mut values = Vec::with_capacity(numbers.end.saturating_sub(numbers.start) as usize);
            let mut last = Value::DRAW;
            for i in numbers {
                let held = match &table.held {
                    Some(bits) => bits[(i / 64) as usize] >> (i % 64) & 1 != 0,
                    // A table read from a file: its capture positions that the rules settle at
                    // once hold their values whatever the file's format, the others are left
                    // out, as the build leaves them out.
                    None => table.index.entry::<R>(i).is_some_and(|(position, streaks)| {
                        stored_in_files(&rules, &position, &streaks)
                    }),
                };
                if held {
                    let value = table.value(i).unwrap_or(Value::DRAW);
                    last = match encoding {
                        Encoding::Distances => value,
                        Encoding::Wdl => value.without_distance(),
                    };
                }
                values.push(last.0);
            }
            let mut bytes = Vec::new();
            encode_block(&encoding.encode(&values), &mut bytes);
            bytes
        })
        .collect();
    let mut data = Vec::new();
    let mut entries = Vec::new();
    for bytes in blocks {
        entries.push((data.len() as u64, bytes.len() as u32, crc32fast::hash(&bytes)));
        data.extend_from_slice(&bytes);
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
    let bytes = crate::bounded::read(path, crate::bounded::EGDB_FILE)
        .map_err(|e| fail(format!("cannot read it: {}", e.reason)))?;
    parse::<R>(&bytes, slice).map_err(fail)
}

/// Where a file's blocks are, from its header: the slice's numbering, the numbers per block and
/// each block's place (from the start of the data), length and CRC-32.
#[derive(Debug)]
struct Layout {
    index: SliceIndex,
    encoding: Encoding,
    block: u64,
    entries: Vec<(u64, u32, u32)>,
    /// Where the data starts in the file.
    data_start: u64,
}

impl Layout {
    /// The bytes block `b` holds decoded.
    fn block_len(&self, b: usize) -> usize {
        let numbers = self.block.min(self.index.size() - b as u64 * self.block);
        self.encoding.bytes(numbers) as usize
    }

    /// Checks block `b`'s bytes and decodes them, appending to `out`.
    fn decode(&self, b: usize, part: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
        if crc32fast::hash(part) != self.entries[b].2 {
            return Err(format!("block {b} fails its checksum"));
        }
        decode_block(part, self.block_len(b), out).map_err(|e| format!("block {b}: {e}"))
    }
}

/// The file's format version, before anything else is read (files of another version are
/// refused by it, not by a checksum).
fn check_start(bytes: &[u8]) -> Result<(), String> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a damas endgame database file".into());
    }
    if bytes.len() < MAGIC.len() + 8 {
        return Err("the file is truncated".into());
    }
    let mut r = Reader { bytes, at: MAGIC.len() };
    let version = r.u32("header")?;
    if version != VERSION {
        return Err(format!(
            "format version {version}, this damas reads {VERSION} (build it again with `damas \
             egdb build`)"
        ));
    }
    Ok(())
}

/// Reads the header and the block table from `bytes` (the file's start, at least the header
/// and the table); `Ok(Err(n))` when the table needs the first `n` bytes.
fn parse_layout<R: Rules>(bytes: &[u8], slice: Slice) -> Result<Result<Layout, usize>, String> {
    let mut r = Reader { bytes, at: MAGIC.len() + 4 };
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
    let encoding = match r.u8("header")? {
        1 => Encoding::Distances,
        2 => Encoding::Wdl,
        other => return Err(format!("value encoding {other}, this damas reads 1 and 2")),
    };
    let numbers = r.u64("header")?;
    if numbers != index.size() {
        return Err(format!("{numbers} numbers where the slice has {}", index.size()));
    }
    let block = u64::from(r.u32("header")?);
    let blocks = u64::from(r.u32("header")?);
    if block == 0 || block % 4 != 0 || blocks != numbers.div_ceil(block) {
        return Err("the block table does not fit the slice".into());
    }
    let table_end = usize::try_from(blocks)
        .ok()
        .and_then(|b| b.checked_mul(16))
        .and_then(|t| t.checked_add(r.at))
        .ok_or("the block table does not fit the slice")?;
    if table_end > bytes.len() {
        return Ok(Err(table_end));
    }
    let mut entries = Vec::new();
    entries.try_reserve_exact(blocks as usize).map_err(|_| "not enough memory to load it")?;
    for _ in 0..blocks {
        entries.push((r.u64("block table")?, r.u32("block table")?, r.u32("block table")?));
    }
    Ok(Ok(Layout { index, encoding, block, entries, data_start: r.at as u64 }))
}

/// The bytes of block `b` within `data` (the file's bytes from the data's start).
fn block_bytes<'a>(layout: &Layout, b: usize, data: &'a [u8]) -> Result<&'a [u8], String> {
    let (offset, length, _) = layout.entries[b];
    let start = usize::try_from(offset).map_err(|_| "a block offset is out of range")?;
    let end = start.checked_add(length as usize).filter(|&end| end <= data.len());
    let end = end.ok_or_else(|| format!("block {b} lies outside the file"))?;
    Ok(&data[start..end])
}

fn parse<R: Rules>(bytes: &[u8], slice: Slice) -> Result<Table, String> {
    check_start(bytes)?;
    let (body, tail) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    if crc32fast::hash(body) != stored {
        return Err("the file checksum does not match: the file is damaged or truncated".into());
    }
    let layout = parse_layout::<R>(body, slice)?
        .map_err(|_| "the file is truncated (in the block table)".to_string())?;
    let data = &body[layout.data_start as usize..];
    let bytes = layout.encoding.bytes(layout.index.size());
    let capacity = usize::try_from(bytes).map_err(|_| "too many numbers for this machine")?;
    let mut values = Vec::new();
    values.try_reserve_exact(capacity).map_err(|_| "not enough memory to load it")?;
    for b in 0..layout.entries.len() {
        layout.decode(b, block_bytes(&layout, b, data)?, &mut values)?;
    }
    Ok(Table {
        index: layout.index,
        encoding: layout.encoding,
        captures_stored: false,
        values,
        held: None,
    })
}

/// A file opened for probing without decoding it: its header and block table in memory, its
/// blocks read from the file and decoded one at a time ([`Stored::block`]), so that memory is
/// what the probes' cache holds, not the slice.
#[derive(Debug)]
pub struct Stored {
    path: PathBuf,
    file: std::fs::File,
    layout: Layout,
}

impl Stored {
    /// Opens and checks a file of rule set `R` holding `slice`: the file checksum over every
    /// byte (read once, in pieces), the variant, the slice and the numbering. Each block's own
    /// checksum is checked when the block is read.
    ///
    /// # Errors
    /// A [`FileError`], as [`read`].
    pub fn open<R: Rules>(path: &Path, slice: Slice) -> Result<Stored, FileError> {
        let fail = |reason: String| FileError { path: path.to_path_buf(), reason };
        let io = |e: std::io::Error| fail(format!("cannot read it: {e}"));
        crate::bounded::check(path, crate::bounded::EGDB_FILE)
            .map_err(|e| fail(format!("cannot read it: {}", e.reason)))?;
        let file = std::fs::File::open(path).map_err(io)?;
        let length = file.metadata().map_err(io)?.len();
        let head = read_at(&file, 0, length.min(HEAD_GUESS)).map_err(io)?;
        check_start(&head).map_err(fail)?;
        // The file checksum, read through once in pieces (never the whole file in memory).
        let body = length - 4;
        let mut crc = crc32fast::Hasher::new();
        let mut at = 0;
        while at < body {
            let piece = read_at(&file, at, (body - at).min(1 << 20)).map_err(io)?;
            crc.update(&piece);
            at += piece.len() as u64;
        }
        let tail = read_at(&file, body, 4).map_err(io)?;
        if crc.finalize() != u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]) {
            return Err(fail(
                "the file checksum does not match: the file is damaged or truncated".into(),
            ));
        }
        let layout = match parse_layout::<R>(&head, slice).map_err(fail)? {
            Ok(layout) => layout,
            Err(needed) => {
                if needed as u64 > body {
                    return Err(fail("the file is truncated (in the block table)".into()));
                }
                let head = read_at(&file, 0, needed as u64).map_err(io)?;
                parse_layout::<R>(&head, slice)
                    .map_err(fail)?
                    .map_err(|_| fail("the block table does not fit the slice".into()))?
            }
        };
        let data = body - layout.data_start;
        for (b, &(offset, length, _)) in layout.entries.iter().enumerate() {
            if offset.checked_add(u64::from(length)).is_none_or(|end| end > data) {
                return Err(fail(format!("block {b} lies outside the file")));
            }
        }
        Ok(Stored { path: path.to_path_buf(), file, layout })
    }

    /// The slice's numbering.
    pub fn index(&self) -> &SliceIndex {
        &self.layout.index
    }

    /// Numbers per block.
    pub fn block_numbers(&self) -> u64 {
        self.layout.block
    }

    /// How the values are encoded.
    pub fn encoding(&self) -> Encoding {
        self.layout.encoding
    }

    /// Blocks in the file.
    pub fn blocks(&self) -> usize {
        self.layout.entries.len()
    }

    /// Bytes the decoded slice takes.
    pub fn decoded_size(&self) -> u64 {
        self.layout.encoding.bytes(self.layout.index.size())
    }

    /// Reads, checks and decodes block `b`.
    ///
    /// # Errors
    /// A [`FileError`]: the file cannot be read, or the block fails its checksum (the file
    /// changed since it was opened).
    pub fn block(&self, b: usize) -> Result<Vec<u8>, FileError> {
        let fail = |reason: String| FileError { path: self.path.clone(), reason };
        let &(offset, length, _) =
            self.layout.entries.get(b).ok_or_else(|| fail(format!("no block {b}")))?;
        let part = read_at(&self.file, self.layout.data_start + offset, u64::from(length))
            .map_err(|e| fail(format!("cannot read block {b}: {e}")))?;
        let mut values = Vec::with_capacity(self.layout.block_len(b));
        self.layout.decode(b, &part, &mut values).map_err(fail)?;
        Ok(values)
    }

    /// The whole slice, decoded.
    ///
    /// # Errors
    /// As [`Stored::block`].
    pub fn table(&self) -> Result<Table, FileError> {
        let mut values = Vec::new();
        let size = usize::try_from(self.decoded_size()).unwrap_or(usize::MAX);
        values.try_reserve_exact(size).map_err(|_| FileError {
            path: self.path.clone(),
            reason: "not enough memory to load it".into(),
        })?;
        for b in 0..self.blocks() {
            values.extend_from_slice(&self.block(b)?);
        }
        Ok(Table {
            index: self.layout.index.clone(),
            encoding: self.layout.encoding,
            captures_stored: false,
            values,
            held: None,
        })
    }
}

/// The most a header takes before its block table (magic, version, a 255-byte variant name,
/// slice, scheme, numbers, block numbers, blocks).
const HEAD_GUESS: u64 = 8 + 4 + 1 + 255 + 4 + 4 + 1 + 8 + 4 + 4;

/// `length` bytes of `file` from `offset`, without moving a shared cursor (so that threads can
/// read one file at once).
fn read_at(file: &std::fs::File, offset: u64, length: u64) -> std::io::Result<Vec<u8>> {
    let length = usize::try_from(length).map_err(|_| std::io::ErrorKind::OutOfMemory)?;
    let mut buffer = vec![0; length];
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(&mut buffer, offset)?;
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::FileExt;
        let mut done = 0;
        while done < buffer.len() {
            match file.seek_read(&mut buffer[done..], offset + done as u64) {
                Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (file, offset);
        return Err(std::io::ErrorKind::Unsupported.into());
    }
    Ok(buffer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_trip() {
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
