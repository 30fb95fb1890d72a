//! Bad input never kills the engine. In process: 100,000+ random and mutated lines through
//! every protocol parser (Hub tokenizer, `level`, options, UCI `go`, DXP messages and the DXP
//! stream reader): no panic. Against the real binary: thousands of random and mutated lines to
//! `damas hub`, `damas uci` and the text mode, and garbage bytes to `damas dxp`; afterwards the
//! engine still answers `ping` (or its mode's equivalent) and exits cleanly.

use crate::common;

use common::Rng;
use damas::protocol::dxp::{Message, Reader};
use damas::protocol::hub::{Level, tokenize};
use damas::protocol::uci::go_limits;
use damas::protocol::{Options, hub::default_options};
use damas::types::Side;
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

/// Feeds `lines` random lines to `damas ARGS`, then `probe`, and expects `answer` back.
fn live(args: &[&str], seed: u64, lines: usize, probe: &str, answer: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start damas");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut rng = Rng(seed);
    let mut text = String::new();
    let lines =
        std::env::var("DAMAS_FUZZ_LINES").ok().and_then(|v| v.parse().ok()).unwrap_or(lines);
    for _ in 0..lines {
        let line = random_line(&mut rng);
        // Quitting would end the test early; huge tables would only measure the machine.
        if line.contains("quit") || line.contains("exit") || line.contains("hash") {
            continue;
        }
        // A deep perft in text mode is a long job by request, not a hang.
        if line.contains("perft") && line.contains('9') {
            continue;
        }
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str("stop\n");
    text.push_str(probe);
    text.push('\n');
    if let Ok(path) = std::env::var("DAMAS_FUZZ_DUMP") {
        let _ = std::fs::write(format!("{path}.{}", args[0]), &text);
    }
    stdin.write_all(text.as_bytes()).expect("write");
    stdin.flush().expect("flush");
    let started = Instant::now();
    loop {
        let line = receiver
            .recv_timeout(Duration::from_secs(120))
            .unwrap_or_else(|_| panic!("{args:?}: no '{answer}' after the random lines"));
        if line == answer {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(300), "{args:?}: too long");
    }
    drop(stdin);
    let status = child.wait().expect("wait");
    let mut err = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = stderr.read_to_string(&mut err);
    }
    assert!(status.success() && !err.contains("panicked"), "{args:?}: {status} {err}");
}

#[test]
fn hub_survives_random_lines() {
    live(&["hub"], 11, 3000, "ping", "pong");
}

#[test]
fn uci_survives_random_lines() {
    live(&["uci"], 12, 3000, "isready", "readyok");
}

#[test]
fn text_mode_survives_random_lines() {
    live(&["text"], 13, 1500, "variant", "variant english");
}

#[test]
fn dxp_listener_survives_garbage() {
    let (_server, address) = common::dxp_listener(&["--max-move-time", "0.01", "--threads", "1"]);
    let mut stream = TcpStream::connect(&address).expect("connect to damas dxp");
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut rng = Rng(14);
    let mut bytes = Vec::new();
    for _ in 0..3000 {
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
