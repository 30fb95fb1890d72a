//! DXP against the real binary over TCP: `damas dxp --listen` accepts a GAMEREQ, plays legal
//! moves, answers BACKREQ and GAMEEND, and survives malformed, oversized, NUL-less and
//! wrong-length messages with a CHAT error, still playing afterwards.

use damas::bitset::BitSet;
use damas::movegen::legal_moves;
use damas::notation::squares;
use damas::position::Position;
use damas::protocol::dxp::{Message, Reader, Received};
use damas::rules::{International, Numbering};
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::Duration;

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

type Intl = International;

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
            assert_eq!(follower, damas::types::Side::Black);
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
