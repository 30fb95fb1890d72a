//! Bad input never kills the engine. In process: 100,000+ random and mutated lines through
//! every protocol parser (Hub tokenizer, `level`, options, UCI `go`, DXP messages and the DXP
//! stream reader): no panic. Against the real binary: thousands of random and mutated lines to
//! `damas hub`, `damas uci` and the text mode, in bursts mixed with hostile lines (invalid
//! UTF-8, control characters, NUL bytes, megabyte lines, numbers beyond every range): after each
//! burst the engine answers `ping` (or its mode's equivalent), every line it wrote is one
//! well-formed line of its protocol, and it exits cleanly at the end; garbage bytes to `damas
//! dxp`.

use crate::common;

use common::Rng;
use damas::board::types::Side;
use damas::protocol::dxp::{Message, Reader};
use damas::protocol::hub::{Level, tokenize};
use damas::protocol::uci::go_limits;
use damas::protocol::{Options, hub::default_options};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SAMPLES: &[&str] = &[
    "hub",
    "init",
    "new-game",
    "set-param name=variant value=normal",
    "set-param name=threads value=1",
    "set-param name=ponder value=true",
    "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23 28x19x23\"",
    "pos pos=W:W31-50:B1-20",
    "pos start",
    "level depth=2",
    "level nodes=3000",
    "level move-time=0.01",
    "level moves=40 time=0.5 inc=0.01",
    "level time=-1.5 inc=0.2",
    "go think",
    "go analyze",
    "ping",
    "stop",
    "ponder-hit",
    "uci",
    "isready",
    "setoption name MultiPV value 2",
    "position startpos moves 11-15 23-19",
    "position fen B:W21-32:B1-12",
    "go depth 2",
    "go wtime 100 btime 100 winc 1 binc 1 movestogo 3",
    "go nodes 2000",
    "ucinewgame",
    "R01DXP Client                      Z005075BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
    "M001205250422122320",
    "E01",
    "B005Z",
    "K0",
    "Chello",
    "play 11-15",
    "show",
    "moves",
    "eval",
    "undo",
    "fen W:W31-50:B1-20",
    "perft 2",
];

const NOISE: &[char] =
    &['=', '"', ' ', '\t', 'x', '-', ':', 'W', 'B', 'e', '0', '9', '\u{0}', '\u{7f}', 'é', '∞'];

/// A random line: a sample, a mutation of one, or noise.
fn random_line(rng: &mut Rng) -> String {
    let mut chars: Vec<char> = SAMPLES[rng.below(SAMPLES.len())].chars().collect();
    match rng.below(4) {
        0 => {}
        1 => {
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(chars.len() + 1);
                match rng.below(3) {
                    0 if at < chars.len() => {
                        chars.remove(at);
                    }
                    1 if at < chars.len() => chars[at] = NOISE[rng.below(NOISE.len())],
                    _ => chars.insert(at, NOISE[rng.below(NOISE.len())]),
                }
            }
        }
        2 => chars.truncate(rng.below(chars.len() + 1)),
        _ => {
            chars = (0..rng.below(60)).map(|_| NOISE[rng.below(NOISE.len())]).collect();
        }
    }
    chars.into_iter().collect()
}

#[test]
fn parsers_survive_100000_random_lines() {
    let mut rng = Rng(0x5eed_0005);
    let mut parsed = 0;
    for _ in 0..100_000 {
        let line = random_line(&mut rng);
        if let Ok(hub_line) = tokenize(&line) {
            parsed += 1;
            let _ = Level::default().add(&hub_line);
            let mut options: Options = default_options();
            if let (Some(name), Some(value)) = (hub_line.value("name"), hub_line.value("value")) {
                let _ = options.set(name, value);
            }
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let _ = go_limits(&words, Side::White);
        if let Ok(message) = Message::parse(&line) {
            // What parses writes back to a valid message that writes the same again.
            let written = message.write();
            let again = Message::parse(&written).map(|m| m.write());
            assert_eq!(again.as_ref(), Ok(&written), "{line:?}");
        }
        let mut bytes = line.clone().into_bytes();
        bytes.push(0);
        let _ = Reader::new(&bytes[..]).receive();
    }
    assert!(parsed > 10_000, "the generator should produce readable lines too: {parsed}");
}

/// Lines no client should send, each of which once ended or hung a mode: invalid UTF-8, control
/// characters and NUL bytes, a carriage return meant to forge a reply, megabyte lines, and
/// numbers far beyond every range (tables, threads, depths, clocks).
fn hostile_lines() -> Vec<Vec<u8>> {
    let mut lines: Vec<Vec<u8>> = vec![
        b"\xff\xfe\xe9 not utf-8".to_vec(),
        b"set-param name=x value=\xe9".to_vec(),
        b"pos pos=\x00\x01\x02\x1b[2J".to_vec(),
        b"set-param name=variant value=\"x\rdone move=32-28\"".to_vec(),
        b"ping\x00pong".to_vec(),
        b"\x1b[2J\x1b[H\x07\x08\x7f".to_vec(),
        b"level depth=18446744073709551616".to_vec(),
        b"level nodes=99999999999999999999999999".to_vec(),
        b"level move-time=1e308".to_vec(),
        b"level time=NaN inc=-inf moves=-1".to_vec(),
        b"set-param name=threads value=18446744073709551615".to_vec(),
        b"set-param name=hash value=18446744073709551615".to_vec(),
        b"set-param name=hash value=99999999999".to_vec(),
        b"set-param name=multipv value=-99999999999999999999".to_vec(),
        b"setoption name Hash value 99999999999999".to_vec(),
        b"setoption name Threads value 4294967296".to_vec(),
        b"setoption name MultiPV value 340282366920938463463374607431768211456".to_vec(),
        b"go wtime 99999999999999999999 btime -5 winc 1e300 movestogo 0".to_vec(),
        b"go nodes 18446744073709551615 depth 4294967295".to_vec(),
        b"go 1e308".to_vec(),
        b"go depth 4294967296".to_vec(),
        b"perft 4294967296".to_vec(),
        b"hash 99999999999999".to_vec(),
        b"threads 18446744073709551616".to_vec(),
        b"egdb-cache 18446744073709551615".to_vec(),
        b"fen W:W99999999999999999999:B1".to_vec(),
        b"position fen B:W1-999999999999:B1".to_vec(),
    ];
    // A megabyte of one word, and a megabyte of moves.
    lines.push(vec![b'x'; 1 << 20]);
    let mut moves = b"pos start moves=\"".to_vec();
    while moves.len() < 1 << 20 {
        moves.extend_from_slice(b"32-28 19-23 ");
    }
    moves.push(b'"');
    lines.push(moves);
    let mut play = b"play ".to_vec();
    play.extend(std::iter::repeat_n(b"11-15 ".iter().copied(), 1 << 17).flatten());
    lines.push(play);
    lines
}

/// A mode of `damas` on stdin/stdout: how to start it, how to ask whether it is alive, and
/// what every line it writes must look like.
struct Mode {
    args: &'static [&'static str],
    probe: &'static str,
    answer: &'static str,
    /// The first words a line may start with (empty: any text).
    first_words: &'static [&'static str],
}

/// A line is one well-formed line of `mode`: UTF-8, no control character, at most 4 KiB, and
/// a first word the protocol knows.
fn check_line(mode: &Mode, bytes: &[u8]) -> Result<(), String> {
    let line = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8 ({e})"))?;
    if line.chars().any(char::is_control) {
        return Err(format!("a control character in {line:?}"));
    }
    if line.len() > damas::protocol::MAX_LINE {
        return Err(format!("{} bytes long", line.len()));
    }
    let first = line.split_whitespace().next().unwrap_or("");
    if !mode.first_words.is_empty() && !mode.first_words.contains(&first) {
        return Err(format!("{line:?} is not a {} line", mode.args[0]));
    }
    Ok(())
}

/// Feeds `damas` in `mode` bursts of random lines mixed with [`hostile_lines`]; after each
/// burst it must answer the mode's probe, and every line it wrote must pass [`check_line`].
/// At the end it exits cleanly on end of input.
fn live(mode: &Mode, seed: u64, lines: usize) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(mode.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start damas");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (sender, receiver) = std::sync::mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut line = Vec::new();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if line.last() == Some(&b'\n') {
                line.pop();
            }
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut rng = Rng(seed);
    let lines =
        std::env::var("DAMAS_FUZZ_LINES").ok().and_then(|v| v.parse().ok()).unwrap_or(lines);
    let hostile = hostile_lines();
    let bursts = 6;
    let mut written = 0;
    for burst in 0..bursts {
        let mut text: Vec<u8> = Vec::new();
        for i in 0..lines / bursts {
            let line = random_line(&mut rng);
            // Quitting would end the test early; real tables would only measure the machine.
            if line.contains("quit") || line.contains("exit") || line.contains("hash") {
                continue;
            }
            // A deep perft in text mode is a long job by request, not a hang.
            if line.contains("perft") && line.contains('9') {
                continue;
            }
            text.extend_from_slice(line.as_bytes());
            text.push(b'\n');
            // The hostile lines, spread over the bursts.
            if i % 20 == 0 {
                let pick = &hostile[(burst * 7 + i / 20) % hostile.len()];
                text.extend_from_slice(pick);
                text.push(if rng.below(4) == 0 { b'\r' } else { b'\n' });
                text.push(b'\n');
            }
        }
        text.extend_from_slice(b"stop\n");
        text.extend_from_slice(mode.probe.as_bytes());
        text.push(b'\n');
        if let Ok(path) = std::env::var("DAMAS_FUZZ_DUMP") {
            let _ = std::fs::write(format!("{path}.{}.{burst}", mode.args[0]), &text);
        }
        stdin.write_all(&text).expect("write");
        stdin.flush().expect("flush");
        let started = Instant::now();
        loop {
            let line = receiver.recv_timeout(Duration::from_secs(120)).unwrap_or_else(|_| {
                panic!("{:?} burst {burst}: no '{}' after the lines", mode.args, mode.answer)
            });
            written += 1;
            if let Err(why) = check_line(mode, &line) {
                panic!("{:?} burst {burst}: a malformed line: {why}", mode.args);
            }
            if line == mode.answer.as_bytes() {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(300), "{:?}: too long", mode.args);
        }
    }
    assert!(written > bursts, "{:?}: the probes alone were answered", mode.args);
    drop(stdin);
    let status = child.wait().expect("wait");
    let mut err = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = stderr.read_to_string(&mut err);
    }
    assert!(status.success() && !err.contains("panicked"), "{:?}: {status} {err}", mode.args);
}

const HUB: Mode = Mode {
    args: &["hub"],
    probe: "ping",
    answer: "pong",
    first_words: &["id", "param", "wait", "ready", "info", "done", "pong", "error"],
};

const UCI: Mode = Mode {
    args: &["uci"],
    probe: "isready",
    answer: "readyok",
    first_words: &["id", "option", "uciok", "readyok", "info", "bestmove"],
};

const TEXT: Mode =
    Mode { args: &["text"], probe: "variant", answer: "variant english", first_words: &[] };

#[test]
fn hub_survives_random_and_hostile_lines() {
    live(&HUB, 11, 3000);
}

#[test]
fn uci_survives_random_and_hostile_lines() {
    live(&UCI, 12, 3000);
}

#[test]
fn text_mode_survives_random_and_hostile_lines() {
    live(&TEXT, 13, 1500);
}

#[test]
fn dxp_listener_survives_garbage() {
    let (_server, address) = common::dxp_listener(&["--max-move-time", "0.01", "--threads", "1"]);
    let mut stream = TcpStream::connect(&address).expect("connect to damas dxp");
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut rng = Rng(14);
    let mut bytes = Vec::new();
    let lines = std::env::var("DAMAS_FUZZ_LINES").ok().and_then(|v| v.parse().ok()).unwrap_or(3000);
    for _ in 0..lines {
        let line = random_line(&mut rng);
        // Malformed, oversized, NUL-less (glued to the next) and wrong-length messages.
        match rng.below(5) {
            0 => bytes.extend(std::iter::repeat_n(b'M', 200 + rng.below(5000))),
            1 => bytes.extend_from_slice(line.as_bytes()),
            _ => bytes.extend_from_slice(line.as_bytes()),
        }
        if rng.below(4) != 0 {
            bytes.push(0);
        }
    }
    for line in hostile_lines() {
        bytes.extend_from_slice(&line);
        bytes.push(0);
    }
    bytes.extend_from_slice(b"\0E01\0");
    // Read while writing, so that neither side blocks on a full socket buffer.
    let mut reader = Reader::new(stream.try_clone().unwrap());
    let writer = std::thread::spawn(move || {
        let _ = stream.write_all(&bytes);
        stream
    });
    let mut chats = 0;
    // What came first and how the exchange ended, to explain a failure.
    let mut first = Vec::new();
    let ending = loop {
        match reader.receive() {
            damas::protocol::dxp::Received::Text(text) => {
                if first.len() < 4 {
                    first.push(text.chars().take(40).collect::<String>());
                }
                if text.starts_with("Cerror") {
                    chats += 1;
                }
                if text == "E01" {
                    break "E01";
                }
            }
            damas::protocol::dxp::Received::Bad(_) | damas::protocol::dxp::Received::Silent => {}
            damas::protocol::dxp::Received::Closed => break "closed",
        }
    };
    let _ = writer.join();
    assert!(
        chats > 100,
        "garbage should be answered by CHAT errors: {chats} (ended by {ending}; first {first:?})"
    );
    // Still alive and listening: a new connection gets a game.
    common::dxp_ask_until_accepted(&address, Duration::from_secs(10));
}
