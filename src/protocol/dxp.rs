//! DXP (DamExchange), the TCP protocol of 10x10 engine-against-engine matches: NUL-terminated
//! messages GAMEREQ `R`, GAMEACC `A`, MOVE `M`, GAMEEND `E`, BACKREQ `B`, BACKACC `K`, CHAT `C`
//! (layouts in Frank Mesander's DamExchange specification, mesander.nl/damexchange). damas
//! listens as the Follower by default (pydraughts' `DXPEngine` connects and initiates), or
//! connects and initiates.
//!
//! Bad input never ends the program: a malformed, oversized or unexpected message gets a CHAT
//! `error: ...` and the session goes on; an illegal move also ends that game with `E00`.
//!
//! Nobody can hold the engine: one connection is served at a time and a second one gets a CHAT
//! and a refusal (`A...2`) at once; a peer that says nothing for `peer_timeout` (beyond its
//! own clock, during a game) is dropped, and one that disconnects while damas thinks stops the
//! search within a tenth of a second. Then damas listens again.

use crate::board::geometry::Geometry;
use crate::board::types::Side;
use crate::game::rules::{DrawRuleSet, GameRules};
use crate::game::{Game, Outcome};
use crate::notation::dxp as dxp_position;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::{Band, Control, Engine, Limits, Silent};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Longest message body the protocol allows (127 characters before the NUL).
pub const MAX_MESSAGE: usize = 127;

/// A DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `C`: free text.
    Chat(String),
    /// `R`: the Initiator proposes a game.
    GameRequest {
        /// Protocol version (1).
        version: u32,
        /// The Initiator's name.
        name: String,
        /// The colour the Follower plays.
        follower: Side,
        /// Thinking time per player for the whole game, minutes.
        minutes: u32,
        /// Moves to play in that time (0: no limit).
        moves: u32,
        /// A start position other than the usual one: side to move and 50 squares
        /// (`e`, `w`, `z`, `W`, `Z`).
        position: Option<(Side, String)>,
    },
    /// `A`: the Follower answers a request (0 accepts).
    GameAccept {
        /// The Follower's name.
        name: String,
        /// 0 accept, 1 version refused, 2 this game refused, 3 every game refused.
        code: u32,
    },
    /// `M`: a move with the captured squares.
    Move {
        /// Seconds used on the move.
        seconds: u32,
        /// Origin square, 1..50.
        from: u32,
        /// Destination square.
        to: u32,
        /// Captured squares, any order.
        captured: Vec<u32>,
    },
    /// `E`: the game ends (reason 0 none, 1 I lose, 2 draw, 3 I win; stop 1: no more games).
    GameEnd {
        /// Why.
        reason: u32,
        /// 0: another game may follow; 1: stop.
        stop: u32,
    },
    /// `B`: go back to a move number with the given side to move.
    BackRequest {
        /// Move number, 1 = the first move.
        number: u32,
        /// The side to move there.
        side: Side,
    },
    /// `K`: the answer to `B` (0 accept, 1 not supported, 2 refused).
    BackAccept {
        /// The code.
        code: u32,
    },
}

fn colour(letter: char) -> Option<Side> {
    match letter {
        'W' => Some(Side::White),
        'Z' => Some(Side::Black),
        _ => None,
    }
}

fn colour_letter(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'Z',
    }
}

/// A 32-character name field: spaces on the right, never starting with a space.
fn name_field(name: &str) -> String {
    let clean: String =
        name.trim().chars().filter(|c| c.is_ascii_graphic() || *c == ' ').take(32).collect();
    format!("{clean:<32}")
}

impl Message {
    /// Reads a message body (without its NUL).
    ///
    /// # Errors
    /// A wrong length, an unknown type or a field that is not a number.
    pub fn parse(text: &str) -> Result<Message, String> {
        if !text.is_ascii() || text.contains('\0') {
            return Err("a DXP message is ASCII characters 1 to 127".to_string());
        }
        if text.len() > MAX_MESSAGE {
            return Err(format!("message of {} characters (at most {MAX_MESSAGE})", text.len()));
        }
        let field = |from: usize, to: usize| -> Result<u32, String> {
            text.get(from..to)
                .filter(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|digits| digits.parse().ok())
                .ok_or_else(|| format!("'{text}': characters {from}..{to} must be digits"))
        };
        let length = |expected: usize| -> Result<(), String> {
            if text.len() == expected {
                Ok(())
            } else {
                Err(format!("'{text}': {} characters, expected {expected}", text.len()))
            }
        };
        let letter = |at: usize| text[at..].chars().next();
        match text.chars().next() {
            Some('C') => Ok(Message::Chat(text[1..].to_string())),
            Some('R') => {
                if text.len() != 43 && text.len() != 94 {
                    return Err(format!(
                        "GAMEREQ '{text}': {} characters, expected 43 or 94",
                        text.len()
                    ));
                }
                let follower = colour(text.as_bytes()[35] as char)
                    .ok_or_else(|| "GAMEREQ: the follower's colour must be W or Z".to_string())?;
                let position = match (text.as_bytes()[42], text.len()) {
                    (b'A', 43) => None,
                    (b'B', 94) => {
                        let side = colour(text.as_bytes()[43] as char).ok_or_else(|| {
                            "GAMEREQ: the side to move must be W or Z".to_string()
                        })?;
                        Some((side, text[44..94].to_string()))
                    }
                    _ => return Err("GAMEREQ: start flag must be A (43 chars) or B (94)".into()),
                };
                Ok(Message::GameRequest {
                    version: field(1, 3)?,
                    name: text[3..35].trim_end().to_string(),
                    follower,
                    minutes: field(36, 39)?,
                    moves: field(39, 42)?,
                    position,
                })
            }
            Some('A') => {
                length(34)?;
                Ok(Message::GameAccept {
                    name: text[1..33].trim_end().to_string(),
                    code: field(33, 34)?,
                })
            }
            Some('M') => {
                if text.len() < 11 {
                    return Err(format!("MOVE '{text}' is too short"));
                }
                let count = field(9, 11)? as usize;
                length(11 + 2 * count)?;
                let captured =
                    (0..count).map(|i| field(11 + 2 * i, 13 + 2 * i)).collect::<Result<_, _>>()?;
                Ok(Message::Move {
                    seconds: field(1, 5)?,
                    from: field(5, 7)?,
                    to: field(7, 9)?,
                    captured,
                })
            }
            Some('E') => {
                length(3)?;
                Ok(Message::GameEnd { reason: field(1, 2)?, stop: field(2, 3)? })
            }
            Some('B') => {
                length(5)?;
                let side = letter(4)
                    .and_then(colour)
                    .ok_or_else(|| "BACKREQ: the colour must be W or Z".to_string())?;
                Ok(Message::BackRequest { number: field(1, 4)?, side })
            }
            Some('K') => {
                length(2)?;
                Ok(Message::BackAccept { code: field(1, 2)? })
            }
            Some(other) => Err(format!("unknown message type '{}'", other.escape_default())),
            None => Err("empty message".to_string()),
        }
    }

    /// The message body as sent (without the NUL).
    pub fn write(&self) -> String {
        match self {
            Message::Chat(text) => {
                let clean: String = text
                    .chars()
                    .map(|c| if c.is_ascii() && c != '\0' { c } else { '?' })
                    .take(MAX_MESSAGE - 1)
                    .collect();
                format!("C{clean}")
            }
            Message::GameRequest { version, name, follower, minutes, moves, position } => {
                let mut text = format!(
                    "R{:02}{}{}{:03}{:03}",
                    version.min(&99),
                    name_field(name),
                    colour_letter(*follower),
                    minutes.min(&999),
                    moves.min(&999)
                );
                match position {
                    None => text.push('A'),
                    Some((side, squares)) => {
                        text.push('B');
                        text.push(colour_letter(*side));
                        text.push_str(squares);
                    }
                }
                text
            }
            Message::GameAccept { name, code } => format!("A{}{}", name_field(name), code % 10),
            Message::Move { seconds, from, to, captured } => {
                let mut text =
                    format!("M{:04}{:02}{:02}{:02}", seconds.min(&9999), from, to, captured.len());
                for square in captured {
                    text.push_str(&format!("{square:02}"));
                }
                text
            }
            Message::GameEnd { reason, stop } => format!("E{}{}", reason % 10, stop % 10),
            Message::BackRequest { number, side } => {
                format!("B{:03}{}", number.min(&999), colour_letter(*side))
            }
            Message::BackAccept { code } => format!("K{}", code % 10),
        }
    }
}

/// One message read from a stream: a body, a body that broke the rules, or the end.
#[derive(Debug)]
pub enum Received {
    /// A complete message body.
    Text(String),
    /// Something that is not a message (too long, not ASCII); the reader skipped to the next NUL.
    Bad(String),
    /// Nothing came within the stream's read timeout.
    Silent,
    /// The connection is closed.
    Closed,
}

/// Reads NUL-terminated messages from a stream.
pub struct Reader<T: Read> {
    inner: BufReader<T>,
}

impl<T: Read> Reader<T> {
    /// Wraps a stream.
    pub fn new(stream: T) -> Self {
        Reader { inner: BufReader::new(stream) }
    }

    /// The next message. A body longer than the protocol allows is reported and skipped, but only
    /// 4 KiB of it is ever held; data after the last NUL at the end of the stream is dropped.
    pub fn receive(&mut self) -> Received {
        let mut body = Vec::new();
        let mut oversized = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                // A signal, not the end: with a read timeout set, Linux does not restart a socket
                // read that a signal interrupted, even one nobody handles (SIGCHLD, when a
                // process that another thread started ends).
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return Received::Silent;
                }
                Ok([]) | Err(_) => return Received::Closed,
                Ok(chunk) => chunk,
            };
            let (used, ended) = match chunk.iter().position(|&b| b == 0) {
                Some(at) => (at + 1, true),
                None => (chunk.len(), false),
            };
            let data = &chunk[..if ended { used - 1 } else { used }];
            if body.len() + data.len() > 4096 {
                oversized = true;
            } else {
                body.extend_from_slice(data);
            }
            self.inner.consume(used);
            if ended {
                break;
            }
        }
        let body = String::from_utf8_lossy(&body).trim_matches(['\r', '\n']).to_string();
        if oversized || body.len() > MAX_MESSAGE {
            return Received::Bad(format!("message longer than {MAX_MESSAGE} characters ignored"));
        }
        Received::Text(body)
    }
}

/// How damas plays DXP.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Address to listen on (Follower) or to connect to (`connect`).
    pub address: String,
    /// Connect instead of listening.
    pub connect: bool,
    /// Propose the games (Initiator) instead of answering requests.
    pub initiator: bool,
    /// Games to play before exiting (0: as many as the other side wants).
    pub games: u32,
    /// Minutes per player per game, as Initiator.
    pub minutes: u32,
    /// Moves in that time (0: no limit), as Initiator.
    pub moves: u32,
    /// Most seconds to spend on one move, whatever the clock allows.
    pub max_move_time: Option<f64>,
    /// Search threads.
    pub threads: usize,
    /// Table size, MiB.
    pub hash: usize,
    /// The games' draw rules (capture is always compulsory in DXP matches).
    pub draw_rules: DrawRuleSet,
    /// How long a peer may say nothing: before a game, or beyond its own clock in one.
    pub peer_timeout: Duration,
}

/// Runs DXP until the games are played (or forever as a listening Follower with `games` 0).
///
/// # Errors
/// The address cannot be listened on or connected to.
pub fn run<R: Rules>(settings: &Settings) -> Result<(), String> {
    if R::Geo::SQUARES != 50 {
        return Err(format!("DXP is played on 10x10 boards; {} is not one", R::VARIANT.name()));
    }
    let mut engine = Engine::<R>::new(settings.threads, settings.hash);
    let mut played = 0;
    if settings.connect {
        let stream = TcpStream::connect(&settings.address)
            .map_err(|e| format!("cannot connect to {}: {e}", settings.address))?;
        Connection::new(stream, settings, &mut engine)?.serve(&mut played);
        return Ok(());
    }
    let listener = TcpListener::bind(&settings.address)
        .map_err(|e| format!("cannot listen on {}: {e}", settings.address))?;
    // The address actually bound: with port 0 the system picks a free port, and this line is how
    // the other side (the tests among them) learns which.
    let bound = listener.local_addr().map_or_else(|_| settings.address.clone(), |a| a.to_string());
    log::info!("DXP: listening on {bound}");
    // The listener has a thread of its own, so that a connection that comes while another is
    // served is answered (refused) at once instead of waiting unseen in the backlog. `busy` is
    // set while a peer is served and cleared as soon as its exchange ends, before our side of
    // the connection is closed (which may wait for the peer).
    let busy = Arc::new(AtomicBool::new(false));
    let (sender, connections) = mpsc::channel::<TcpStream>();
    let listening = Arc::clone(&busy);
    let refusal_wait = settings.peer_timeout.min(Duration::from_secs(5));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            if still_busy(&listening) {
                std::thread::spawn(move || refuse(stream, refusal_wait));
            } else if sender.send(stream).is_err() {
                return;
            }
        }
    });
    for stream in connections {
        match Connection::new(stream, settings, &mut engine) {
            Ok(mut connection) => {
                connection.exchange(&mut played);
                busy.store(false, Ordering::SeqCst);
                connection.close();
            }
            Err(error) => {
                log::warn!("DXP: {error}");
                busy.store(false, Ordering::SeqCst);
            }
        }
        if settings.games > 0 && played >= settings.games {
            break;
        }
    }
    Ok(())
}

/// The time a move without a clock (a request for 000 minutes) when `--max-move-time` sets none.
const NO_CLOCK_MOVE_TIME: Duration = Duration::from_secs(1);

/// How long a new connection waits for the one before it to end before it is refused: a client
/// that closes and connects again at once (the next game of a match) must not find damas busy
/// in the moment between its leaving and damas seeing it.
const LEAVING_GRACE: Duration = Duration::from_millis(500);

/// Whether a peer is still served after [`LEAVING_GRACE`]; if not, `busy` is set for the new
/// connection.
fn still_busy(busy: &AtomicBool) -> bool {
    let deadline = Instant::now() + LEAVING_GRACE;
    while busy.swap(true, Ordering::SeqCst) {
        if Instant::now() >= deadline {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

/// Our name in GAMEREQ and GAMEACC.
fn our_name() -> String {
    format!("damas {}", env!("CARGO_PKG_VERSION"))
}

/// Sends one message on `stream`, NUL-terminated.
fn send_on(mut stream: &TcpStream, message: &Message) -> bool {
    let mut bytes = message.write().into_bytes();
    log::debug!("DXP send {}", String::from_utf8_lossy(&bytes));
    bytes.push(0);
    stream.write_all(&bytes).and_then(|()| stream.flush()).is_ok()
}

/// Answers a connection that came while another is served: a CHAT saying so, and a refusal of
/// its game request (waiting at most `wait` for it), then closes it.
fn refuse(stream: TcpStream, wait: Duration) {
    log::warn!("DXP: a second connection refused: another game is in progress");
    let busy = Message::Chat("busy: damas is playing another connection; try again later".into());
    if send_on(&stream, &busy) && stream.set_read_timeout(Some(wait)).is_ok() {
        if let Ok(copy) = stream.try_clone() {
            if let Received::Text(text) = Reader::new(copy).receive() {
                if let Ok(Message::GameRequest { .. }) = Message::parse(&text) {
                    send_on(&stream, &Message::GameAccept { name: our_name(), code: 2 });
                }
            }
        }
    }
    close_gracefully(&stream);
}

/// Closes our side of `stream`, then reads what the peer still sends until it closes too (at
/// most two seconds). Closing a socket with unread data in it makes TCP reset the connection,
/// and a reset throws away what the peer had not yet read: our last messages, the GAMEEND reply
/// among them.
fn close_gracefully(mut stream: &TcpStream) {
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let deadline = Instant::now() + Duration::from_secs(2);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut sink = [0u8; 4096];
    while Instant::now() < deadline {
        match stream.read(&mut sink) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
    }
}

/// Watches `peer` while we think, until `done`: if it closes or fails, stops the search and
/// returns true.
fn watch(peer: &TcpStream, done: &AtomicBool, control: &Control) -> bool {
    let _ = peer.set_read_timeout(Some(Duration::from_millis(100)));
    let mut byte = [0u8; 1];
    while !done.load(Ordering::Relaxed) {
        match peer.peek(&mut byte) {
            Ok(0) => {
                control.request_stop();
                return true;
            }
            // Something to read after our move: peeking again would return at once.
            Ok(_) => std::thread::sleep(Duration::from_millis(100)),
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) => {}
            Err(_) => {
                control.request_stop();
                return true;
            }
        }
    }
    false
}

/// One game in progress.
struct Match<R: Rules> {
    game: Game<R>,
    ours: Side,
    /// Our remaining clock (None: no limit agreed).
    clock: Option<Duration>,
    /// Moves agreed for the game (0: no limit).
    moves: u32,
    /// Plies played before the first move number of the game (a custom start with Black to move
    /// still numbers moves from 1).
    first_side: Side,
    /// The peer's remaining clock, as far as we can tell (None: no limit agreed).
    their_clock: Option<Duration>,
    /// When the peer's turn began (None: it is ours).
    their_turn_since: Option<Instant>,
}

impl<R: Rules> Match<R> {
    fn new(game: Game<R>, ours: Side, minutes: u32, moves: u32) -> Self {
        let clock = (minutes > 0).then(|| Duration::from_secs(u64::from(minutes) * 60));
        let first_side = game.position().side_to_move();
        Match {
            game,
            ours,
            clock,
            moves,
            first_side,
            their_clock: clock,
            their_turn_since: (first_side != ours).then(Instant::now),
        }
    }
}

/// A TCP connection with its role.
struct Connection<'a, R: Rules> {
    writer: TcpStream,
    reader: Reader<TcpStream>,
    settings: &'a Settings,
    engine: &'a mut Engine<R>,
    current: Option<Match<R>>,
    /// Colour the Follower gets in our next request (Initiator only).
    next_follower: Side,
    /// The last score we found, for adjudication at the move limit.
    last_score: i32,
}

impl<'a, R: Rules> Connection<'a, R> {
    fn new(
        stream: TcpStream,
        settings: &'a Settings,
        engine: &'a mut Engine<R>,
    ) -> Result<Self, String> {
        let _ = stream.set_nodelay(true);
        let reader = stream.try_clone().map_err(|e| format!("cannot use the connection: {e}"))?;
        Ok(Connection {
            writer: stream,
            reader: Reader::new(reader),
            settings,
            engine,
            current: None,
            next_follower: Side::Black,
            last_score: 0,
        })
    }

    fn send(&mut self, message: &Message) -> bool {
        send_on(&self.writer, message)
    }

    fn chat_error(&mut self, text: &str) -> bool {
        log::warn!("DXP: {text}");
        self.send(&Message::Chat(format!("error: {text}")))
    }

    /// Serves the connection until it closes, or until the games are played, then closes it
    /// gracefully.
    fn serve(&mut self, played: &mut u32) {
        self.exchange(played);
        self.close();
    }

    fn close(&mut self) {
        close_gracefully(&self.writer);
    }

    /// How long the peer may stay silent from now: `peer_timeout`, plus what is left of its
    /// clock when it is its turn in a game.
    fn patience(&self) -> Duration {
        let their_time = self.current.as_ref().and_then(|current| {
            let since = current.their_turn_since?;
            Some(current.their_clock?.saturating_sub(since.elapsed()))
        });
        self.settings.peer_timeout + their_time.unwrap_or_default()
    }

    fn exchange(&mut self, played: &mut u32) {
        if self.settings.initiator && !self.request() {
            return;
        }
        loop {
            let patience = self.patience();
            if self.writer.set_read_timeout(Some(patience)).is_err() {
                return;
            }
            let text = match self.reader.receive() {
                Received::Closed => return,
                Received::Silent => {
                    log::warn!("DXP: nothing from the peer in {} s: closing", patience.as_secs());
                    if self.current.take().is_some() {
                        let text = format!("no message in {} s; game ended", patience.as_secs());
                        let _ = self.chat_error(&text)
                            && self.send(&Message::GameEnd { reason: 0, stop: 1 });
                    }
                    return;
                }
                Received::Bad(why) => {
                    if !self.chat_error(&why) {
                        return;
                    }
                    continue;
                }
                Received::Text(text) => text,
            };
            log::debug!("DXP recv {text}");
            let message = match Message::parse(&text) {
                Ok(message) => message,
                Err(why) => {
                    if !self.chat_error(&why) {
                        return;
                    }
                    continue;
                }
            };
            match self.handle(message, played) {
                Flow::Go => {}
                Flow::Close => return,
            }
        }
    }

    /// Sends our next game request (Initiator).
    fn request(&mut self) -> bool {
        let follower = self.next_follower;
        self.next_follower = !follower;
        let message = Message::GameRequest {
            version: 1,
            name: our_name(),
            follower,
            minutes: self.settings.minutes,
            moves: self.settings.moves,
            position: None,
        };
        self.current = Some(self.new_match(Position::start(), !follower));
        self.send(&message)
    }

    /// A game from `start` under the draw rules asked for (every DXP game starts here).
    fn game_from(&self, start: Position<R>) -> Game<R> {
        Game::with_rules(start, GameRules::chosen::<R>(self.settings.draw_rules, true))
    }

    fn new_match(&self, start: Position<R>, ours: Side) -> Match<R> {
        let game = self.game_from(start);
        Match::new(game, ours, self.settings.minutes, self.settings.moves)
    }

    fn handle(&mut self, message: Message, played: &mut u32) -> Flow {
        match message {
            Message::Chat(text) => {
                log::info!("DXP chat: {text}");
                Flow::Go
            }
            Message::GameRequest { version, follower, minutes, moves, position, .. } => {
                self.game_request(version, follower, minutes, moves, position)
            }
            Message::GameAccept { code, .. } => {
                if !self.settings.initiator || self.current.is_none() {
                    return flow(self.chat_error("GAMEACC without a request"));
                }
                if code != 0 {
                    log::warn!("DXP: game refused (code {code})");
                    self.current = None;
                    return Flow::Close;
                }
                self.play_if_our_turn()
            }
            Message::Move { from, to, captured, .. } => self.their_move(from, to, captured),
            Message::GameEnd { stop, .. } => {
                let ok = self.send(&Message::GameEnd { reason: 0, stop });
                if self.current.take().is_some() {
                    *played += 1;
                }
                let done = self.settings.games > 0 && *played >= self.settings.games;
                if !ok || stop == 1 || done {
                    return Flow::Close;
                }
                if self.settings.initiator {
                    return flow(self.request());
                }
                Flow::Go
            }
            Message::BackRequest { number, side } => self.back(number, side),
            Message::BackAccept { .. } => Flow::Go,
        }
    }

    fn game_request(
        &mut self,
        version: u32,
        follower: Side,
        minutes: u32,
        moves: u32,
        position: Option<(Side, String)>,
    ) -> Flow {
        let name = our_name();
        if self.settings.initiator {
            return flow(self.chat_error("GAMEREQ sent to the Initiator"));
        }
        if version != 1 {
            return flow(self.send(&Message::GameAccept { name, code: 1 }));
        }
        let start = match &position {
            None => Ok(Position::start()),
            Some((side, squares)) => {
                dxp_position::parse::<R>(*side, squares).map_err(|e| e.to_string())
            }
        };
        let start = match start {
            Ok(start) => start,
            Err(why) => {
                self.chat_error(&why);
                return flow(self.send(&Message::GameAccept { name, code: 2 }));
            }
        };
        let game = self.game_from(start);
        if game.legal_moves().is_empty() {
            self.chat_error("no legal move in the requested position");
            return flow(self.send(&Message::GameAccept { name, code: 2 }));
        }
        self.current = Some(Match::new(game, follower, minutes, moves));
        self.engine.new_game();
        if !self.send(&Message::GameAccept { name, code: 0 }) {
            return Flow::Close;
        }
        // A request without a thinking time is accepted (pydraughts asks for 000 minutes for
        // any game under a minute), and the peer is told what damas makes of it.
        if minutes == 0 {
            let seconds = self.settings.max_move_time.unwrap_or(NO_CLOCK_MOVE_TIME.as_secs_f64());
            let moves =
                if moves == 0 { "no move limit".to_string() } else { format!("{moves} moves") };
            let text = format!(
                "no thinking time asked (000 minutes, {moves}): damas plays without a clock, {seconds} s a move"
            );
            log::info!("DXP: {text}");
            if !self.send(&Message::Chat(text)) {
                return Flow::Close;
            }
        }
        self.play_if_our_turn()
    }

    fn their_move(&mut self, from: u32, to: u32, captured: Vec<u32>) -> Flow {
        let Some(current) = &mut self.current else {
            return flow(self.chat_error("MOVE outside a game"));
        };
        if current.game.position().side_to_move() == current.ours {
            return flow(self.chat_error("MOVE received when it is our turn"));
        }
        let wanted = dxp_position::MoveSquares { from, to, captured };
        let found = dxp_position::find_move::<R>(current.game.legal_moves().as_slice(), &wanted);
        let Some(mv) = found else {
            let text = format!(
                "illegal move {}-{} capturing {:?}; game ended",
                wanted.from, wanted.to, wanted.captured
            );
            self.current = None;
            let ok = self.chat_error(&text) && self.send(&Message::GameEnd { reason: 0, stop: 0 });
            return flow(ok);
        };
        current.game.play_unchecked(&mv);
        if let (Some(clock), Some(since)) = (&mut current.their_clock, current.their_turn_since) {
            *clock = clock.saturating_sub(since.elapsed());
        }
        current.their_turn_since = None;
        self.play_if_our_turn()
    }

    /// When it is our turn: ends the game if it is over, else searches and sends our move.
    fn play_if_our_turn(&mut self) -> Flow {
        let Some(current) = &mut self.current else { return Flow::Go };
        if current.game.position().side_to_move() != current.ours {
            return Flow::Go;
        }
        let ours = current.ours;
        let reason = match current.game.outcome() {
            Outcome::Ongoing => None,
            Outcome::Win(side, _) if side == ours => Some(3),
            Outcome::Win(..) => Some(1),
            Outcome::Draw(_) => Some(2),
        };
        let ply_limit = current.moves.saturating_mul(2);
        let plies = current.game.moves().count() as u32;
        let reason = reason.or_else(|| {
            (ply_limit > 0 && plies >= ply_limit).then_some(match self.last_score {
                s if s >= 300 => 3,
                s if s <= -300 => 1,
                _ => 2,
            })
        });
        if let Some(reason) = reason {
            if ply_limit > 0 && plies >= ply_limit {
                let _ = self.send(&Message::Chat("move limit reached: adjudicated".to_string()));
            }
            return flow(self.send(&Message::GameEnd { reason, stop: 0 }));
        }
        let Some(current) = &mut self.current else { return Flow::Go };
        let moves_left = if current.moves > 0 {
            let ours_played = plies / 2;
            Some(current.moves.saturating_sub(ours_played).max(1))
        } else {
            None
        };
        let mut limits =
            Limits { time_left: current.clock, moves_to_go: moves_left, ..Limits::default() };
        let cap = self.settings.max_move_time.map(Duration::from_secs_f64);
        if current.clock.is_none() {
            // No clock agreed (pydraughts sends 000 minutes for games under a minute).
            limits.move_time = Some(cap.unwrap_or(NO_CLOCK_MOVE_TIME));
        } else if let Some(cap) = cap {
            limits.move_time = Some(cap.min(current.clock.unwrap_or(cap) / 2));
            limits.time_left = None;
        }
        let started = Instant::now();
        let control = self.engine.control();
        // Prepared before the watcher starts: a stop it requests at once is not lost.
        control.prepare(false);
        let done = AtomicBool::new(false);
        let engine = &mut *self.engine;
        let peer = &self.writer;
        let (result, vanished) = std::thread::scope(|scope| {
            let watcher = scope.spawn(|| watch(peer, &done, &control));
            let result = engine.go_prepared(&current.game, limits, &mut Silent);
            done.store(true, Ordering::Relaxed);
            (result, watcher.join().unwrap_or(true))
        });
        if vanished {
            log::warn!("DXP: the peer left during our move");
            self.current = None;
            return Flow::Close;
        }
        let used = started.elapsed();
        if let Some(clock) = &mut current.clock {
            *clock = clock.saturating_sub(used);
        }
        let Some(best) = result.best else { return Flow::Go };
        self.last_score = match result.score.band() {
            Band::Win { .. } => 10_000,
            Band::Loss { .. } => -10_000,
            Band::KnownWin { .. } => 9_000,
            Band::KnownLoss { .. } => -9_000,
            Band::Eval(hundredths) => hundredths,
        };
        current.game.play_unchecked(&best);
        current.their_turn_since = Some(Instant::now());
        let squares = dxp_position::move_squares::<R>(&best);
        let message = Message::Move {
            seconds: used.as_secs() as u32,
            from: squares.from,
            to: squares.to,
            captured: squares.captured,
        };
        flow(self.send(&message))
    }

    /// BACKREQ: go back to move `number` with `side` to move, if the game got that far.
    fn back(&mut self, number: u32, side: Side) -> Flow {
        let Some(current) = &mut self.current else {
            return flow(self.send(&Message::BackAccept { code: 2 }));
        };
        let offset = u32::from(side != current.first_side);
        let target = (number.max(1) - 1) * 2 + offset;
        let plies = current.game.moves().count() as u32;
        if number == 0 || target > plies {
            return flow(self.send(&Message::BackAccept { code: 2 }));
        }
        for _ in target..plies {
            current.game.undo();
        }
        let theirs = current.game.position().side_to_move() != current.ours;
        current.their_turn_since = theirs.then(Instant::now);
        if !self.send(&Message::BackAccept { code: 0 }) {
            return Flow::Close;
        }
        self.play_if_our_turn()
    }
}

enum Flow {
    Go,
    Close,
}

/// Go on when the last send worked, else close.
fn flow(ok: bool) -> Flow {
    if ok { Flow::Go } else { Flow::Close }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::International;

    #[test]
    fn messages_round_trip() {
        let samples = [
            "R01DXP Client                      Z005075BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
            "R01Scan 3.1                        W003075A",
            "ATornado voor Windows 4.0        0",
            "M0012061100",
            "M001205250422122320",
            "E00",
            "E21",
            "B005Z",
            "K0",
            "Chello there",
        ];
        for text in samples {
            let message = Message::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(message.write(), text);
        }
        assert_eq!(
            Message::parse("M001205250422122320").unwrap(),
            Message::Move { seconds: 12, from: 5, to: 25, captured: vec![22, 12, 23, 20] }
        );
        for bad in ["", "X", "M00120611", "M0012061101", "E0", "Rxx", "K", "B05Z", "A short0"] {
            assert!(Message::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn positions_and_stream() {
        let start = "zzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
        let position = dxp_position::parse::<International>(Side::White, start).unwrap();
        assert_eq!(position, Position::<International>::start());
        assert!(dxp_position::parse::<International>(Side::White, &start[1..]).is_err());
        assert!(
            dxp_position::parse::<International>(Side::White, &start.replace('e', "x")).is_err()
        );
        let mut data = b"E00\0".to_vec();
        data.extend(std::iter::repeat_n(b'C', 5000));
        data.extend(b"\0K1\0tail");
        let mut reader = Reader::new(&data[..]);
        assert!(matches!(reader.receive(), Received::Text(t) if t == "E00"));
        assert!(matches!(reader.receive(), Received::Bad(_)));
        assert!(matches!(reader.receive(), Received::Text(t) if t == "K1"));
        assert!(matches!(reader.receive(), Received::Closed));
    }

    #[test]
    fn an_interrupted_read_is_not_the_end() {
        /// Fails its first read with EINTR, as a socket with a read timeout does on a signal.
        struct Interrupted<'a>(bool, &'a [u8]);
        impl Read for Interrupted<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if std::mem::replace(&mut self.0, false) {
                    return Err(std::io::ErrorKind::Interrupted.into());
                }
                self.1.read(buf)
            }
        }
        let mut reader = Reader::new(Interrupted(true, b"E00\0"));
        assert!(matches!(reader.receive(), Received::Text(t) if t == "E00"));
        assert!(matches!(reader.receive(), Received::Closed));
    }
}
