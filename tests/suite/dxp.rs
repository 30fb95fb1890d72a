//! DXP against the real binary over TCP: `damas dxp --listen` accepts a GAMEREQ, plays legal
//! moves, answers BACKREQ and GAMEEND, and survives malformed, oversized, NUL-less and
//! wrong-length messages with a CHAT error, still playing afterwards.

use damas::board::bitset::BitSet;
use damas::board::types::Side;
use damas::movegen::legal_moves;
use damas::notation::squares;
use damas::position::Position;
use damas::protocol::dxp::{Message, Reader, Received};
use damas::rules::{International, Numbering};
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::DxpServer;

/// Starts `damas dxp` on a free port and connects to it.
fn connect(extra: &[&str]) -> (DxpServer, TcpStream) {
    let mut args = vec!["--max-move-time", "0.05", "--threads", "1"];
    args.extend_from_slice(extra);
    let (server, address) = common::dxp_listener(&args);
    let stream = TcpStream::connect(&address).expect("connect to damas dxp");
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    (server, stream)
}

fn send_raw(stream: &mut TcpStream, bytes: &[u8]) {
    stream.write_all(bytes).unwrap();
}

fn send(stream: &mut TcpStream, text: &str) {
    send_raw(stream, format!("{text}\0").as_bytes());
}

fn receive(reader: &mut Reader<TcpStream>) -> Message {
    match reader.receive() {
        Received::Text(text) => Message::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}")),
        other => panic!("expected a message, got {other:?}"),
    }
}

/// damas's CHAT after accepting a game asked for with 000 minutes: how it plays without a clock.
fn expect_no_clock_notice(reader: &mut Reader<TcpStream>) {
    let message = receive(reader);
    assert!(
        matches!(&message, Message::Chat(t) if t.starts_with("no thinking time asked (000 minutes")),
        "{message:?}"
    );
}

type Intl = International;
type IntlMove = damas::board::moves::Move<damas::position::Bits<Intl>>;

fn number(bit: u32) -> u32 {
    squares::number::<Intl>(bit, Numbering::TopLeft)
}

/// Plays the engine's MOVE on `position` after checking it is legal.
fn apply(position: &mut Position<Intl>, message: &Message) {
    let Message::Move { from, to, captured, .. } = message else {
        panic!("expected a move, got {message:?}");
    };
    let mut captured = captured.clone();
    captured.sort_unstable();
    let mv = legal_moves(position)
        .iter()
        .copied()
        .find(|mv| {
            let mut taken: Vec<u32> = mv.captured().iter().map(number).collect();
            taken.sort_unstable();
            number(mv.from()) == *from && number(mv.to()) == *to && taken == captured
        })
        .unwrap_or_else(|| panic!("illegal engine move {message:?}"));
    position.play(&mv);
}

/// Our reply: the first legal move.
fn reply(position: &mut Position<Intl>) -> Option<Message> {
    let list = legal_moves(position);
    let mv = *list.iter().next()?;
    position.play(&mv);
    Some(Message::Move {
        seconds: 0,
        from: number(mv.from()),
        to: number(mv.to()),
        captured: mv.captured().iter().map(number).collect(),
    })
}

#[test]
fn follower_plays_a_game_and_survives_garbage() {
    let (_server, mut stream) = connect(&[]);
    let mut reader = Reader::new(stream.try_clone().unwrap());
    // pydraughts' request: B form, the follower (damas) is Black, White has moved first.
    send(
        &mut stream,
        "R01DXP Client                      Z000000BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
    );
    match receive(&mut reader) {
        Message::GameAccept { code: 0, name } => assert!(name.starts_with("damas")),
        other => panic!("expected GAMEACC 0, got {other:?}"),
    }
    expect_no_clock_notice(&mut reader);
    let mut position = Position::<Intl>::start();
    // Garbage of every kind, each answered by a CHAT error; the game goes on afterwards.
    for bad in ["Mgarbage", "M00003227", "Q", "E0", "B1Z", "R01short"] {
        send(&mut stream, bad);
        assert!(
            matches!(receive(&mut reader), Message::Chat(t) if t.starts_with("error")),
            "{bad}"
        );
    }
    send_raw(&mut stream, &[b'C'; 300]);
    send_raw(&mut stream, b"\0");
    assert!(matches!(receive(&mut reader), Message::Chat(t) if t.contains("longer")));
    // A move made when it is not legal ends the game with a CHAT and E00; ask again afterwards.
    send(&mut stream, "M0000010600");
    assert!(matches!(receive(&mut reader), Message::Chat(t) if t.contains("illegal")));
    assert_eq!(receive(&mut reader), Message::GameEnd { reason: 0, stop: 0 });
    send(
        &mut stream,
        "R01DXP Client                      Z000000BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
    );
    assert!(matches!(receive(&mut reader), Message::GameAccept { code: 0, .. }));
    expect_no_clock_notice(&mut reader);
    // Ten moves each, then take back to Black's 3rd move (the engine is to move there) and
    // check its new move is legal in that position.
    let mut history = vec![position];
    for ply in 0..20 {
        if ply % 2 == 0 {
            let message = reply(&mut position).expect("a legal move for White");
            send(&mut stream, &message.write());
        } else {
            let message = receive(&mut reader);
            apply(&mut position, &message);
        }
        history.push(position);
    }
    send(&mut stream, "B003Z");
    assert_eq!(receive(&mut reader), Message::BackAccept { code: 0 });
    let mut rewound = history[5];
    apply(&mut rewound, &receive(&mut reader));
    send(&mut stream, "E10");
    assert_eq!(receive(&mut reader), Message::GameEnd { reason: 0, stop: 0 });
    send(&mut stream, "Cstill there?");
    send(&mut stream, "E01");
    // The engine acknowledges a stop code 1 and closes the connection.
    let last = reader.receive();
    assert!(matches!(&last, Received::Text(t) if t == "E01") || matches!(last, Received::Closed));
}

#[test]
fn initiator_proposes_and_plays_white() {
    // damas connects to us and proposes a game in which we (the Follower) play Black.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["dxp", "--connect", &address, "--initiator", "--games", "1", "--time", "1"])
        .args(["--moves", "5", "--max-move-time", "0.05", "--threads", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start damas dxp");
    let _server = DxpServer(child);
    let (mut stream, _) = listener.accept().unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut reader = Reader::new(stream.try_clone().unwrap());
    match receive(&mut reader) {
        Message::GameRequest {
            version: 1, follower, minutes: 1, moves: 5, position: None, ..
        } => {
            assert_eq!(follower, damas::board::types::Side::Black);
        }
        other => panic!("expected GAMEREQ, got {other:?}"),
    }
    send(&mut stream, &Message::GameAccept { name: "tester".into(), code: 0 }.write());
    let mut position = Position::<Intl>::start();
    // Five moves each, then the engine adjudicates at the move limit with a GAMEEND.
    loop {
        let message = receive(&mut reader);
        match message {
            Message::Chat(_) => continue,
            Message::GameEnd { stop: 0, .. } => break,
            Message::Move { .. } => apply(&mut position, &message),
            other => panic!("unexpected {other:?}"),
        }
        let answer = reply(&mut position).expect("a legal reply");
        send(&mut stream, &answer.write());
    }
    send(&mut stream, "E00");
}

/// A GAMEREQ in which damas (the Follower) plays `follower`, from `position` if given.
fn request(follower: Side, minutes: u32, position: Option<&Position<Intl>>) -> String {
    common::dxp_request(follower, minutes, position)
}

#[test]
fn a_second_client_is_refused_and_a_silent_one_dropped() {
    let (_server, address) =
        common::dxp_listener(&["--peer-timeout", "1", "--threads", "1", "--max-move-time", "0.05"]);
    // The first client connects and says nothing.
    let silent = TcpStream::connect(&address).expect("connect");
    silent.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    // A second one is told at once that damas is busy, and its game is refused.
    let started = Instant::now();
    let mut second = TcpStream::connect(&address).expect("connect");
    second.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut reader = Reader::new(second.try_clone().unwrap());
    assert!(matches!(receive(&mut reader), Message::Chat(t) if t.starts_with("busy")));
    send(&mut second, &request(Side::Black, 0, None));
    assert!(matches!(receive(&mut reader), Message::GameAccept { code: 2, .. }));
    assert!(matches!(reader.receive(), Received::Closed));
    assert!(started.elapsed() < Duration::from_secs(3), "refused in {:?}", started.elapsed());
    // The silent one is dropped after its second of silence, and damas serves again.
    let mut silent_reader = Reader::new(silent.try_clone().unwrap());
    assert!(matches!(silent_reader.receive(), Received::Closed));
    drop(silent);
    let waited = common::dxp_ask_until_accepted(&address, Duration::from_secs(10));
    assert!(waited < Duration::from_secs(5), "served again after {waited:?}");
}

#[test]
fn a_peer_that_leaves_while_damas_thinks_frees_it_at_once() {
    // A 10-minute game with up to 30 s a move: damas, White, thinks 30 s on its first move.
    let (_server, address) =
        common::dxp_listener(&["--threads", "1", "--max-move-time", "30", "--peer-timeout", "60"]);
    let (code, stream, reader) = common::dxp_ask(&address, Side::White, 10);
    assert_eq!(code, 0);
    drop((stream, reader));
    let waited = common::dxp_ask_until_accepted(&address, Duration::from_secs(20));
    assert!(waited < Duration::from_secs(5), "served again after {waited:?}");
}

#[test]
fn a_peer_silent_in_a_game_is_dropped_with_a_game_end() {
    let (_server, address) =
        common::dxp_listener(&["--threads", "1", "--max-move-time", "0.05", "--peer-timeout", "1"]);
    // No clock (0 minutes): a second of silence after damas's move ends the game.
    let (code, _stream, mut reader) = common::dxp_ask(&address, Side::White, 0);
    assert_eq!(code, 0);
    expect_no_clock_notice(&mut reader);
    assert!(matches!(receive(&mut reader), Message::Move { .. }));
    let started = Instant::now();
    assert!(matches!(receive(&mut reader), Message::Chat(t) if t.contains("no message")));
    assert!(matches!(receive(&mut reader), Message::GameEnd { reason: 0, .. }));
    assert!(matches!(reader.receive(), Received::Closed));
    let waited = started.elapsed();
    assert!(waited > Duration::from_millis(800) && waited < Duration::from_secs(4), "{waited:?}");
}

/// How a game of damas's two kings against our lone king went.
#[derive(Debug, PartialEq)]
struct LoneKingGame {
    /// The ply at which damas ended the game with a draw, if it did.
    drawn_at: Option<usize>,
    /// The ply at which the last material change happened (0: none): where an endgame count
    /// starts again. Every position is a draw either way, so damas may give a king away.
    ending_arose_at: usize,
}

/// Plays damas's two kings against our lone king (never left where it can be taken, and never
/// back to a position it left, so that no repetition ends the game) for up to `plies` plies.
fn two_kings_against_one(draw_rules: &str, plies: usize) -> LoneKingGame {
    let (_server, address) = common::dxp_listener(&[
        "--threads",
        "1",
        "--max-move-time",
        "0.02",
        "--draw-rules",
        draw_rules,
    ]);
    // Our king holds the long diagonal (5-46), where two kings cannot catch it.
    let mut position = common::position::<Intl>("W:WK1,K50:BK46");
    let mut seen = vec![position];
    let mut ending_arose_at = 0;
    let mut stream = TcpStream::connect(&address).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut reader = Reader::new(stream.try_clone().unwrap());
    send(&mut stream, &request(Side::White, 0, Some(&position)));
    assert!(matches!(receive(&mut reader), Message::GameAccept { code: 0, .. }));
    expect_no_clock_notice(&mut reader);
    for ply in 0..plies {
        if ply % 2 == 1 {
            // Our king moves where no capture waits for it, to a position not met before, on
            // the long diagonal if it can; a capture is compulsory and comes first.
            let list = legal_moves(&position);
            let after = |mv: &IntlMove| {
                let mut after = position;
                after.play(mv);
                after
            };
            let safe: Vec<_> = list
                .iter()
                .copied()
                .filter(|mv| {
                    legal_moves(&after(mv)).iter().all(|reply| reply.captured().is_empty())
                })
                .collect();
            let long_diagonal = [5, 10, 14, 19, 23, 28, 32, 37, 41, 46];
            let preferred = |mv: &&IntlMove| {
                !mv.captured().is_empty() || long_diagonal.contains(&number(mv.to()))
            };
            let new = |mv: &&IntlMove| !seen.contains(&after(mv));
            let mv = *safe
                .iter()
                .find(|mv| preferred(mv) && new(mv))
                .or(safe.iter().find(new))
                .or(safe.first())
                .expect("a safe square for the lone king");
            position.play(&mv);
            if !mv.captured().is_empty() {
                ending_arose_at = ply + 1;
            }
            seen.push(position);
            let message = Message::Move {
                seconds: 0,
                from: number(mv.from()),
                to: number(mv.to()),
                captured: mv.captured().iter().map(number).collect(),
            };
            send(&mut stream, &message.write());
            continue;
        }
        match receive(&mut reader) {
            Message::GameEnd { reason: 2, .. } => {
                return LoneKingGame { drawn_at: Some(ply), ending_arose_at };
            }
            message => {
                let material = position.occupied().count();
                apply(&mut position, &message);
                if position.occupied().count() != material {
                    ending_arose_at = ply + 1;
                }
                seen.push(position);
            }
        }
    }
    LoneKingGame { drawn_at: None, ending_arose_at }
}

#[test]
fn dxp_games_follow_the_draw_rules_asked_for() {
    // FMJD 6.4: two pieces with a king against a lone king are a draw after five moves each,
    // counted from the moment the ending arises; the sites' default rules have no such count.
    let federation = two_kings_against_one("federation", 30);
    assert_eq!(federation.drawn_at, Some(federation.ending_arose_at + 10), "{federation:?}");
    let default = two_kings_against_one("default", 30);
    assert_eq!(default.drawn_at, None, "{default:?}");
}

/// A client that leaves while damas thinks and asks again at once (the next game of a match) is
/// served, not told that damas is busy with the connection it has just left.
#[test]
fn a_client_that_leaves_and_asks_again_at_once_is_served() {
    let (_server, address) =
        common::dxp_listener(&["--threads", "1", "--max-move-time", "0.3", "--peer-timeout", "60"]);
    for attempt in 0..5 {
        // damas plays White with a clock: it is thinking about its first move when we leave.
        let (code, stream, reader) = common::dxp_ask(&address, Side::White, 10);
        assert_eq!(code, 0, "attempt {attempt}: refused right after the last client left");
        drop((stream, reader));
    }
}
