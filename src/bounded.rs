//! Reading with a limit: every file the engine reads (weights, books, FEN lists, PDN, openings,
//! training data, endgame database files) and every line it reads from a pipe goes through here,
//! so that `/dev/zero`, a FIFO, a folder or a file far larger than its kind can be is a clear
//! error instead of a process that blocks or eats all memory.
//!
//! Depends on nothing in the crate.

use std::io::{BufRead, ErrorKind, Read};
use std::path::{Path, PathBuf};

/// A file that was not read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The file.
    pub path: PathBuf,
    /// Why it was not read.
    pub reason: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read {}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for ReadError {}

impl From<ReadError> for String {
    fn from(error: ReadError) -> String {
        error.to_string()
    }
}

/// A kind of file and the most bytes one of its kind may hold.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    /// What the file is, as an error names it ("weight file").
    pub what: &'static str,
    /// Its largest size, in bytes.
    pub bytes: u64,
}

const MIB: u64 = 1 << 20;
const GIB: u64 = 1 << 30;

/// Evaluation weights: the largest built-in file is 0.7 MB.
pub const WEIGHTS: Limit = Limit { what: "weight file", bytes: 64 * MIB };
/// An opening book (text, a line a position): the English book is 25 KB.
pub const BOOK: Limit = Limit { what: "book", bytes: 256 * MIB };
/// A PDN file: the largest public collections are some hundreds of MB.
pub const PDN: Limit = Limit { what: "PDN file", bytes: 2 * GIB };
/// A list of positions, a FEN a line.
pub const FENS: Limit = Limit { what: "position list", bytes: 256 * MIB };
/// A match's openings (FENs, move lines or ballots).
pub const OPENINGS: Limit = Limit { what: "openings file", bytes: 256 * MIB };
/// A match's results file (`damas match --results`): a line of some 30 bytes a game.
pub const RESULTS: Limit = Limit { what: "match results file", bytes: 256 * MIB };
/// Self-play training data: tens of bytes a position, a hundred million positions at most.
pub const TRAINING_DATA: Limit = Limit { what: "training data file", bytes: 16 * GIB };
/// One endgame database file (a slice): the largest 8-piece English slices are some GB.
pub const EGDB_FILE: Limit = Limit { what: "endgame database file", bytes: 16 * GIB };

/// The longest line read from stdin, an engine's stdout or a protocol stream. A Hub `pos` line
/// with a whole game is a few KB.
pub const MAX_INPUT_LINE: usize = 1 << 16;

/// The size of the file at `path`, if it is a regular file of at most `limit.bytes`. A device,
/// a FIFO or a folder is refused without being opened (opening a FIFO blocks until something
/// writes to it).
///
/// # Errors
/// A [`ReadError`]: it cannot be read, is not a regular file, or is too large.
pub fn check(path: &Path, limit: Limit) -> Result<u64, ReadError> {
    let metadata = std::fs::metadata(path).map_err(|e| in_file(path, e))?;
    if !metadata.is_file() {
        let kind = if metadata.is_dir() { "a folder" } else { "a device or a pipe" };
        return Err(in_file(path, format!("{kind}, not {}", with_article(limit.what))));
    }
    if metadata.len() > limit.bytes {
        return Err(too_large(path, limit, metadata.len()));
    }
    Ok(metadata.len())
}

fn in_file(path: &Path, reason: impl std::fmt::Display) -> ReadError {
    ReadError { path: path.to_path_buf(), reason: reason.to_string() }
}

/// "a weight file", "an endgame database file".
fn with_article(what: &str) -> String {
    let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {what}")
}

fn too_large(path: &Path, limit: Limit, size: u64) -> ReadError {
    let what = with_article(limit.what);
    let reason = format!("{size} bytes is too large for {what} (at most {} bytes)", limit.bytes);
    in_file(path, reason)
}

/// The bytes of the file at `path`, once [`check`] passes it. The memory is reserved before
/// reading, so that too little of it is an error rather than an abort.
///
/// # Errors
/// As [`check`], or the file cannot be read, or there is not enough memory for it.
pub fn read(path: &Path, limit: Limit) -> Result<Vec<u8>, ReadError> {
    let size = check(path, limit)?;
    let file = std::fs::File::open(path).map_err(|e| in_file(path, e))?;
    let mut bytes = Vec::new();
    let expected = usize::try_from(size).map_err(|_| too_large(path, limit, size))?;
    bytes
        .try_reserve_exact(expected)
        .map_err(|_| in_file(path, format!("not enough memory to read its {size} bytes")))?;
    // The file may grow while it is read: never more than the limit and one byte.
    file.take(limit.bytes + 1).read_to_end(&mut bytes).map_err(|e| in_file(path, e))?;
    if bytes.len() as u64 > limit.bytes {
        return Err(too_large(path, limit, bytes.len() as u64));
    }
    Ok(bytes)
}

/// The text of the file at `path`, read as [`read`] does.
///
/// # Errors
/// As [`read`], or the file is not UTF-8 text.
pub fn read_text(path: &Path, limit: Limit) -> Result<String, ReadError> {
    String::from_utf8(read(path, limit)?).map_err(|e| {
        in_file(path, format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
    })
}

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line (in the buffer, with its line feed if it had one).
    Read,
    /// A line longer than the limit: skipped up to its line feed, the buffer left empty.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line of at most `limit` bytes into `line` (cleared first), as `read_until(b'\n')`
/// does, but never holding more than `limit` bytes of it: a longer line is read to its end and
/// dropped. A read interrupted by a signal is tried again.
///
/// # Errors
/// The reader's error.
pub fn read_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Line> {
    line.clear();
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let chunk = match reader.fill_buf() {
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            Ok(chunk) => chunk,
        };
        if chunk.is_empty() {
            return Ok(match (read_any, too_long) {
                (false, _) => Line::End,
                (true, true) => Line::TooLong,
                (true, false) => Line::Read,
            });
        }
        read_any = true;
        let (used, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long && line.len() + used <= limit {
            line.extend_from_slice(&chunk[..used]);
        } else {
            too_long = true;
            line.clear();
        }
        reader.consume(used);
        if ended {
            return Ok(if too_long { Line::TooLong } else { Line::Read });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Limit = Limit { what: "test file", bytes: 10 };

    #[test]
    fn a_file_within_its_limit_is_read_whole() {
        let dir = std::env::temp_dir().join(format!("damas-bounded-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("ten");
        std::fs::write(&path, b"0123456789").expect("write");
        assert_eq!(read(&path, SMALL).expect("ten bytes"), b"0123456789");
        std::fs::write(&path, b"0123456789A").expect("write");
        let error = read(&path, SMALL).expect_err("eleven bytes");
        assert!(
            error.to_string().contains("11 bytes is too large for a test file (at most 10 bytes)"),
            "{error}"
        );
        let error = read(&dir, SMALL).expect_err("a folder");
        assert!(error.to_string().contains("a folder, not a test file"), "{error}");
        std::fs::write(&path, [0xff, 0xfe]).expect("write");
        assert!(read_text(&path, SMALL).expect_err("not UTF-8").reason.contains("not UTF-8"));
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_refused_without_reading() {
        let error = read(Path::new("/dev/zero"), WEIGHTS).expect_err("/dev/zero");
        assert!(error.to_string().contains("a device or a pipe, not a weight file"), "{error}");
    }

    #[test]
    fn long_lines_are_dropped_and_the_next_line_read() {
        let text = format!("short\n{}\nafter\nlast", "x".repeat(100));
        // A reader with a small buffer, so that the long line spans many chunks.
        let mut reader = std::io::BufReader::with_capacity(7, text.as_bytes());
        let mut line = Vec::new();
        let mut seen = Vec::new();
        loop {
            let found = read_line(&mut reader, &mut line, 20).expect("read");
            if found == Line::End {
                break;
            }
            seen.push((found, String::from_utf8_lossy(&line).to_string()));
        }
        let expected = [
            (Line::Read, "short\n"),
            (Line::TooLong, ""),
            (Line::Read, "after\n"),
            (Line::Read, "last"),
        ];
        let expected: Vec<_> = expected.iter().map(|(l, s)| (*l, s.to_string())).collect();
        assert_eq!(seen, expected);
    }
}
