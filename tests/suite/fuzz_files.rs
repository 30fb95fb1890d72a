//! Files a user hands damas never kill it. Every loader (weight files, books, endgame database
//! files, training data, PDN, FEN lists, opening suites, match results files) reads mutated
//! copies of a real file of its kind: cut short, bits flipped, bytes inserted, deleted or
//! repeated, numbers made huge, lines doubled or swapped, and hostile text (NUL, invalid UTF-8,
//! long numbers). Where a file carries a checksum, it is recomputed after the mutation so that
//! the mutation reaches the reader behind it.
//!
//! - In process: each reader returns a value or an error, never a panic.
//! - Through the real binary, as a user runs it: under a 4 GiB address-space limit (so that a
//!   reader that believes a huge length aborts on allocation instead of passing) and a time
//!   limit, every command ends with status 0, 1 or 2: never a signal, an abort, a panic or a
//!   hang.
//!
//! `DAMAS_FUZZ_FILES=N` sets the mutations per loader in process (default 300; a tenth of them
//! go through the binary) and `DAMAS_FUZZ_SEED=S` the seed. The longer run of `docs/development.md`:
//! `DAMAS_FUZZ_FILES=20000 cargo test --release --test suite fuzz_files`.

use crate::common::Rng;
use damas::book::Book;
use damas::eval::Evaluator;
use damas::notation::pdn;
use damas::rules::{English, International, Rules};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn rounds() -> usize {
    std::env::var("DAMAS_FUZZ_FILES").ok().and_then(|v| v.parse().ok()).unwrap_or(300)
}

fn seed() -> u64 {
    std::env::var("DAMAS_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(7)
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Numbers a reader may take for a length or a count.
const HUGE: [u64; 5] = [u64::MAX, 1 << 63, u32::MAX as u64, 1 << 31, 0x7fff];

/// Text a line-based reader may choke on.
const HOSTILE: [&[u8]; 7] = [
    b"\0",
    b"\xff\xfe\xc3",
    b"99999999999999999999999999",
    b"-1",
    b"W:W99999999999:B1",
    b"[FEN \"",
    b"\t\t\t",
];

/// One mutation of `bytes`: binary edits for every file, line edits for text.
fn mutate(rng: &mut Rng, bytes: &[u8], text: bool) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for _ in 0..=rng.below(3) {
        let len = out.len();
        let at = rng.below(len + 1);
        match rng.below(if text { 10 } else { 8 }) {
            0 => out.truncate(at),
            1 if len > 0 => out[at.min(len - 1)] ^= 1 << rng.below(8),
            2 if len > 0 => out[at.min(len - 1)] = [0, 0xff, 0x7f, 0x80][rng.below(4)],
            3 => {
                let insert: Vec<u8> = (0..=rng.below(16)).map(|_| rng.next() as u8).collect();
                out.splice(at..at, insert);
            }
            4 => {
                let end = (at + rng.below(64)).min(len);
                out.drain(at..end);
            }
            5 => {
                let end = (at + rng.below(256)).min(len);
                let copy = out[at..end].to_vec();
                out.splice(at..at, copy);
            }
            6 | 7 => {
                // A length or count field made huge: 4 or 8 bytes anywhere in the first KiB.
                let number = HUGE[rng.below(HUGE.len())].to_le_bytes();
                let width = if rng.below(2) == 0 { 4 } else { 8 };
                let at = rng.below(len.min(1024) + 1);
                let end = (at + width).min(len);
                out[at..end].copy_from_slice(&number[..end - at]);
            }
            8 => {
                let mut lines: Vec<&[u8]> = out.split(|&b| b == b'\n').collect();
                let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                match rng.below(3) {
                    0 => lines.swap(a, b),
                    1 => lines.insert(a, lines[b]),
                    _ => {
                        lines.remove(a);
                    }
                }
                out = lines.join(&b'\n');
            }
            _ => {
                let hostile = HOSTILE[rng.below(HOSTILE.len())];
                out.splice(at..at, hostile.iter().copied());
            }
        }
    }
    out
}

/// A weight file's trailing FNV-1a checksum, recomputed.
fn fix_weights(bytes: &mut [u8]) {
    if bytes.len() >= 8 {
        let (body, tail) = bytes.split_at_mut(bytes.len() - 8);
        let mut hash = damas::checksum::Fnv::new();
        hash.add(body);
        tail.copy_from_slice(&hash.value().to_le_bytes());
    }
}

/// A book's checksum line, written again for the bytes before it (a new one where the mutation
/// broke it), so that most mutated books reach the parser's checks of their lines.
fn fix_book(bytes: &mut Vec<u8>) {
    let cut = bytes.windows(10).rposition(|w| w == b"\nchecksum ").map_or(bytes.len(), |at| at + 1);
    bytes.truncate(cut);
    if bytes.last().is_some_and(|&b| b != b'\n') {
        bytes.push(b'\n');
    }
    let checksum = damas::checksum::Fnv::of(bytes);
    bytes.extend_from_slice(format!("checksum {checksum:016x}\n").as_bytes());
}

/// An endgame file's trailing CRC-32, recomputed.
fn fix_egdb(bytes: &mut [u8]) {
    if bytes.len() >= 4 {
        let (body, tail) = bytes.split_at_mut(bytes.len() - 4);
        tail.copy_from_slice(&crc32fast::hash(body).to_le_bytes());
    }
}

/// A file of each kind, made by the binary or taken from the repository, in `dir`.
struct Seeds {
    dir: tempdir::Dir,
    weights: Vec<u8>,
    book: Vec<u8>,
    egdb: PathBuf,
    data: Vec<u8>,
    pdn: Vec<u8>,
    fens: Vec<u8>,
    openings: Vec<u8>,
    results: Vec<u8>,
}

mod tempdir {
    /// A folder removed when dropped.
    pub struct Dir(pub std::path::PathBuf);

    impl Dir {
        pub fn new(name: &str) -> Dir {
            let path = std::env::temp_dir().join(format!("damas-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).expect("temp folder");
            Dir(path)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn damas() -> Command {
    Command::new(env!("CARGO_BIN_EXE_damas"))
}

fn seeds(name: &str) -> Seeds {
    let dir = tempdir::Dir::new(name);
    let egdb = dir.0.join("egdb");
    let built = damas()
        .args(["egdb", "build", "--variant", "english", "--pieces", "3", "--egdb-path"])
        .arg(&egdb)
        .output()
        .expect("egdb build");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let data = dir.0.join("seed.data");
    let made = damas()
        .args(["datagen", "--games", "3", "--nodes", "200", "--out"])
        .arg(&data)
        .output()
        .expect("datagen");
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let fens = b"# positions\nB:W21-32:B1-12\nW:W18,K30:B9,K3\n\nB:W14,23:B9\n".to_vec();
    let mut pdn = read(&repo("tests/data/random-english.pdn"));
    pdn.truncate(6000);
    pdn.extend_from_slice(
        b"\n[Event \"x\"]\n[FEN \"W:W31-50:B1-20\"]\n1. 32-28 {c} (1. 33-29 17-21) 17-21 $1 2. 37-32 1-0\n",
    );
    let results = dir.0.join("seed.results");
    let played = damas()
        .args(["match", "--engine", "depth=2", "--engine", "greedy", "-n", "6", "--results"])
        .arg(&results)
        .output()
        .expect("match");
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    let mut openings = read(&repo("book/openings/english-3move-ballots.tsv"));
    openings.truncate(3000);
    Seeds {
        weights: read(&repo("src/eval/weights/english.dmw")),
        book: read(&repo("book/english.book")),
        data: read(&data),
        egdb,
        pdn,
        fens,
        openings,
        results: read(&results),
        dir,
    }
}

/// Readers in process: a value or an error, never a panic.
#[test]
fn loaders_read_mutated_files_without_a_panic() {
    let seeds = seeds("fuzz-in-process");
    let egdb_files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&seeds.egdb)
        .expect("egdb folder")
        .map(|entry| entry.expect("entry").path())
        .map(|path| {
            let bytes = read(&path);
            (path, bytes)
        })
        .collect();
    let scratch = seeds.dir.0.join("scratch");
    std::fs::create_dir_all(&scratch).expect("scratch");
    let mut rng = Rng(seed());
    let mut accepted = [0usize; 8];
    for _ in 0..rounds() {
        let mut weights = mutate(&mut rng, &seeds.weights, false);
        if rng.below(4) > 0 {
            fix_weights(&mut weights);
        }
        accepted[0] += usize::from(Evaluator::<English>::from_file_bytes(&weights).is_ok());

        let mut book = mutate(&mut rng, &seeds.book, true);
        if rng.below(4) > 0 {
            fix_book(&mut book);
        }
        let book = String::from_utf8_lossy(&book).into_owned();
        accepted[1] += usize::from(Book::<English>::parse(&book).is_ok());

        let (path, bytes) = &egdb_files[rng.below(egdb_files.len())];
        let mut egdb = mutate(&mut rng, bytes, false);
        if rng.below(4) > 0 {
            fix_egdb(&mut egdb);
        }
        let name = path.file_name().and_then(|n| n.to_str()).expect("name");
        let slice = damas::egdb::file::slice_of_name(name).expect("a slice's name");
        let copy = scratch.join(name);
        std::fs::write(&copy, &egdb).expect("write");
        accepted[2] += usize::from(damas::egdb::file::read::<English>(&copy, slice).is_ok());

        let data = mutate(&mut rng, &seeds.data, false);
        accepted[3] += usize::from(damas::train::datagen::read::<English>(&data).is_ok());
        let _ = damas::train::datagen::read::<International>(&data);
        let files = [("a".to_string(), data.clone()), ("b".to_string(), seeds.data.clone())];
        let _ = damas::train::datagen::merge::<English>(&files);

        let text = pdn::decode(&mutate(&mut rng, &seeds.pdn, true));
        for game in pdn::parse_each(&text).into_iter().flatten() {
            if let Ok((variant, _)) = damas::game::replay::rule_set_of(&game) {
                accepted[4] += 1;
                damas::with_variant!(variant, R => {
                    let _ = damas::game::replay::replay_pdn::<R>(&game);
                });
            }
        }

        let fens = String::from_utf8_lossy(&mutate(&mut rng, &seeds.fens, true)).into_owned();
        for line in fens.lines() {
            accepted[5] += usize::from(damas::notation::position::<English>(line).is_ok());
            let _ = damas::notation::position::<International>(line);
        }

        let openings =
            String::from_utf8_lossy(&mutate(&mut rng, &seeds.openings, true)).into_owned();
        accepted[6] += usize::from(read_openings::<English>(&openings));

        let results = String::from_utf8_lossy(&mutate(&mut rng, &seeds.results, true)).into_owned();
        let whole = String::from_utf8_lossy(&seeds.results).into_owned();
        let merge = damas::matchplay::results::merge;
        accepted[7] += usize::from(merge(&[("a".into(), results.clone())], None).is_ok());
        let sprt = damas::matchplay::stats::Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: damas::matchplay::stats::EloModel::Normalized,
        };
        let _ = merge(&[("a".into(), results), ("b".into(), whole)], Some(sprt));
    }
    // Some mutations stay readable (a flipped bit in a weight, a swapped line): both paths of
    // each reader ran. The egdb files hold block checksums the mutation does not fix, so a
    // readable mutated egdb file is rare; it is not required.
    for (kind, count) in
        ["weights", "book", "", "data", "pdn", "fens", "openings", "results"].iter().zip(accepted)
    {
        assert!(kind.is_empty() || count > 0, "no mutated {kind} file was readable");
    }
}

fn read_openings<R: Rules>(text: &str) -> bool {
    damas::matchplay::openings::read::<R>(text, "openings.tsv").is_ok()
}

/// How a run of the binary ended.
fn run_limited(args: &[&std::ffi::OsStr], stdin: &[u8]) -> Result<i32, String> {
    // The address-space limit makes a huge allocation fail; the engine must say so, not abort.
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 4194304 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_damas"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("spawn: {e}"))?;
    if let Some(mut input) = child.stdin.take() {
        use std::io::Write;
        let _ = input.write_all(stdin);
    }
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            let mut err = String::new();
            if let Some(mut pipe) = child.stderr.take() {
                use std::io::Read;
                let _ = pipe.read_to_string(&mut err);
            }
            return match status.code() {
                Some(code @ 0..=2) if !err.contains("panicked") => Ok(code),
                _ => Err(format!("{status}: {err}")),
            };
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            return Err("no end after 60 s".to_string());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Each loader through the binary, as a user runs it.
#[test]
fn the_binary_reads_mutated_files_to_a_clean_end() {
    let seeds = seeds("fuzz-binary");
    let dir = seeds.dir.0.clone();
    let egdb_names: Vec<std::ffi::OsString> = std::fs::read_dir(&seeds.egdb)
        .expect("egdb folder")
        .map(|entry| entry.expect("entry").file_name())
        .collect();
    let mut rng = Rng(seed() ^ 0x5eed);
    let file = dir.join("mutated");
    let os = |text: &'static str| std::ffi::OsStr::new(text);
    let mut failures = Vec::new();
    let mut check = |what: &str, bytes: &[u8], args: &[&std::ffi::OsStr], stdin: &[u8]| {
        if let Err(why) = run_limited(args, stdin) {
            let kept = dir.join(format!("failed-{}", failures.len()));
            let _ = std::fs::write(&kept, bytes);
            failures.push(format!("{what} {args:?}: {why}"));
        }
    };
    let runs = (rounds() / 10).max(3);
    for round in 0..runs {
        let mut weights = mutate(&mut rng, &seeds.weights, false);
        if round % 4 > 0 {
            fix_weights(&mut weights);
        }
        std::fs::write(&file, &weights).expect("write");
        let f = file.as_os_str();
        check(
            "weights",
            &weights,
            &[os("analyze"), os("--eval-file"), f, os("--depth"), os("2")],
            b"",
        );

        let mut book = mutate(&mut rng, &seeds.book, true);
        if round % 4 > 0 {
            fix_book(&mut book);
        }
        std::fs::write(&file, &book).expect("write");
        check("book", &book, &[os("book"), os("probe"), os("--book"), f], b"");

        // One file of the databases damaged; the rest whole.
        let egdb = dir.join("egdb-mutated");
        let _ = std::fs::remove_dir_all(&egdb);
        std::fs::create_dir_all(&egdb).expect("egdb copy");
        for name in &egdb_names {
            std::fs::copy(seeds.egdb.join(name), egdb.join(name)).expect("copy");
        }
        let name = &egdb_names[rng.below(egdb_names.len())];
        let mut bytes = mutate(&mut rng, &read(&egdb.join(name)), false);
        if round % 4 > 0 {
            fix_egdb(&mut bytes);
        }
        std::fs::write(egdb.join(name), &bytes).expect("write");
        let e = egdb.as_os_str();
        check("egdb", &bytes, &[os("egdb"), os("stats"), os("--egdb-path"), e], b"");
        let fen = os("W:WK18:BK3,K30");
        check(
            "egdb",
            &bytes,
            &[os("egdb"), os("probe"), os("--fen"), fen, os("--egdb-path"), e],
            b"",
        );
        let args = [os("analyze"), os("--fen"), fen, os("--depth"), os("3"), os("--egdb-path"), e];
        check("egdb", &bytes, &args, b"");

        let data = mutate(&mut rng, &seeds.data, false);
        std::fs::write(&file, &data).expect("write");
        let out = dir.join("out.dmw");
        let o = out.as_os_str();
        check(
            "data",
            &data,
            &[os("train"), os("--data"), f, os("--epochs"), os("1"), os("--out"), o],
            b"",
        );
        let args =
            [os("datagen"), os("--games"), os("4"), os("--nodes"), os("100"), os("--out"), f];
        check("data", &data, &args, b"");

        let text = mutate(&mut rng, &seeds.pdn, true);
        std::fs::write(&file, &text).expect("write");
        check("pdn", &text, &[os("pdn"), os("check"), f], b"");
        check("pdn", &text, &[os("analyze"), os("--pdn"), f, os("--depth"), os("1")], b"");
        let load = format!("load {}\nshow\nquit\n", file.display());
        check("pdn", &text, &[os("text")], load.as_bytes());

        let fens = mutate(&mut rng, &seeds.fens, true);
        std::fs::write(&file, &fens).expect("write");
        check("fens", &fens, &[os("analyze"), os("--file"), f, os("--depth"), os("1")], b"");

        let results = mutate(&mut rng, &seeds.results, true);
        std::fs::write(&file, &results).expect("write");
        check("results", &results, &[os("match"), os("merge"), f], b"");
    }
    assert!(failures.is_empty(), "{} runs failed:\n{}", failures.len(), failures.join("\n"));
}
