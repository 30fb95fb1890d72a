//! Helpers shared by the tests: read a FEN, list the legal moves as PDN or Hub text with a
//! duplicate check, play a move by its text, a seeded random generator, and a `damas dxp`
//! listener on a port of its own choosing. Each test file uses a subset.
#![allow(dead_code)]

use damas::movegen::legal_moves;
use damas::notation::{fen, moves};
use damas::position::Position;
use damas::rules::Rules;

/// Parses a FEN of variant `R`, panicking with the variant and text on failure.
pub fn position<R: Rules>(text: &str) -> Position<R> {
    fen::parse::<R>(text)
        .unwrap_or_else(|e| panic!("{:?}: cannot read FEN {text}: {e}", R::VARIANT))
}

/// The sorted PDN texts of the legal moves of `text`, after asserting that no move is listed
/// twice (same from, to and captured set).
pub fn pdn_moves<R: Rules>(text: &str) -> Vec<String> {
    let pos = position::<R>(text);
    let list = legal_moves(&pos);
    let all = list.as_slice();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert!(a != b, "{:?} {text}: move {a:?} listed twice", R::VARIANT);
        }
    }
    let mut got: Vec<String> = all.iter().map(|mv| moves::to_pdn(&pos, mv)).collect();
    got.sort();
    got
}

/// Asserts that the legal moves of `text` hold no duplicate (same from, to and captured set)
/// and that their sorted PDN texts equal the sorted `expected` list. Returns the position.
pub fn assert_moves<R: Rules>(text: &str, expected: &[&str]) -> Position<R> {
    let got = pdn_moves::<R>(text);
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(got, want, "{:?} {text}: legal moves", R::VARIANT);
    position::<R>(text)
}

/// The sorted Hub texts of the legal moves of `text`.
pub fn hub_moves<R: Rules>(text: &str) -> Vec<String> {
    let pos = position::<R>(text);
    let mut hubs: Vec<String> = legal_moves(&pos).iter().map(|mv| moves::to_hub::<R>(mv)).collect();
    hubs.sort();
    hubs
}

/// Plays the legal move whose PDN text is `pdn` and returns the FEN of the result.
pub fn fen_after<R: Rules>(text: &str, pdn: &str) -> String {
    let pos = position::<R>(text);
    let list = legal_moves(&pos);
    let mv = list
        .iter()
        .find(|mv| moves::to_pdn(&pos, mv) == pdn)
        .unwrap_or_else(|| panic!("{:?} {text}: {pdn} is not legal", R::VARIANT));
    let mut after = pos;
    after.play(mv);
    fen::write(&after)
}

/// Asserts that variant `A` (a derived rule set) generates exactly the moves of its base `B`
/// on `text`, in PDN and in Hub form (so the captured sets agree too).
pub fn assert_same_moves<A: Rules, B: Rules>(text: &str) {
    assert_eq!(
        pdn_moves::<A>(text),
        pdn_moves::<B>(text),
        "{:?} vs {:?} {text}: PDN moves",
        A::VARIANT,
        B::VARIANT
    );
    assert_eq!(
        hub_moves::<A>(text),
        hub_moves::<B>(text),
        "{:?} vs {:?} {text}: Hub moves",
        A::VARIANT,
        B::VARIANT
    );
}

/// SplitMix64: a small seeded generator, so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A `damas dxp` process, killed when dropped.
pub struct DxpServer(pub std::process::Child);

impl Drop for DxpServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `damas dxp --listen 127.0.0.1:0` with `extra` arguments and returns it with the
/// address it bound.
///
/// Port 0: the engine binds a free port itself and logs which. Finding one here by binding port
/// 0 and dropping the listener races with the other tests: a child they spawn at that moment
/// holds a copy of the listening socket until its exec, and a connect in that window lands in
/// the copy's queue and is reset when the copy closes.
pub fn dxp_listener(extra: &[&str]) -> (DxpServer, String) {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["dxp", "--listen", "127.0.0.1:0"])
        .args(extra)
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start damas dxp");
    let stderr = child.stderr.take().expect("stderr");
    let server = DxpServer(child);
    let (sender, receiver) = std::sync::mpsc::channel();
    // Read stderr to the end: a warning per bad message would otherwise fill the pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(address) = line.split("DXP: listening on ").nth(1) {
                let _ = sender.send(address.to_string());
            }
        }
    });
    let address = receiver
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("damas dxp did not listen");
    (server, address)
}

/// A DXP GAMEREQ in which damas (the Follower) plays `follower` with `minutes` on its clock,
/// from `position` if given.
pub fn dxp_request(
    follower: damas::board::types::Side,
    minutes: u32,
    position: Option<&Position<damas::rules::International>>,
) -> String {
    damas::protocol::dxp::Message::GameRequest {
        version: 1,
        name: "tester".into(),
        follower,
        minutes,
        moves: 0,
        position: position.map(|p| (p.side_to_move(), damas::notation::dxp::write(p))),
    }
    .write()
}

/// Connects to the `damas dxp` at `address` and asks for a game; the answer: GAMEACC's code,
/// after any CHAT, with the connection.
pub fn dxp_ask(
    address: &str,
    follower: damas::board::types::Side,
    minutes: u32,
) -> (u32, std::net::TcpStream, damas::protocol::dxp::Reader<std::net::TcpStream>) {
    use damas::protocol::dxp::{Message, Reader, Received};
    use std::io::Write;
    let mut stream = std::net::TcpStream::connect(address).expect("connect to damas dxp");
    stream.set_read_timeout(Some(std::time::Duration::from_secs(30))).expect("read timeout");
    let mut reader = Reader::new(stream.try_clone().expect("clone the connection"));
    let request = format!("{}\0", dxp_request(follower, minutes, None));
    stream.write_all(request.as_bytes()).expect("send GAMEREQ");
    loop {
        let text = match reader.receive() {
            Received::Text(text) => text,
            other => panic!("expected GAMEACC, got {other:?}"),
        };
        match Message::parse(&text) {
            Ok(Message::Chat(_)) => continue,
            Ok(Message::GameAccept { code, .. }) => return (code, stream, reader),
            other => panic!("expected GAMEACC, got {other:?}"),
        }
    }
}

/// Asks the `damas dxp` at `address` for a game until it accepts one (it refuses while it
/// serves another connection), for at most `limit`; returns how long that took.
pub fn dxp_ask_until_accepted(address: &str, limit: std::time::Duration) -> std::time::Duration {
    let started = std::time::Instant::now();
    loop {
        let (code, _stream, _reader) = dxp_ask(address, damas::board::types::Side::Black, 0);
        if code == 0 {
            return started.elapsed();
        }
        assert_eq!(code, 2, "a busy engine refuses this game only");
        assert!(started.elapsed() < limit, "damas still busy after {limit:?}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}
