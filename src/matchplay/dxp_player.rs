//! A 10x10 engine that speaks only DXP (DamExchange), as a match player. The referee is the
//! Initiator: it proposes each game with GAMEREQ (the opening as a custom position, the
//! engine's colour, the clock in whole minutes), sends the opponent's moves as MOVE messages,
//! reads the engine's, and ends each game with GAMEEND. It connects to an engine that listens
//! (`address=`), or listens for one that connects (`listen=`; `{address}` in its command is
//! replaced by the address bound, so that `listen=127.0.0.1:0` lets the system pick the port).
//!
//! DXP has no per-move limit and counts time in minutes: the referee's clock decides forfeits,
//! and an engine played at a few tenths of a second a move needs its own cap (damas:
//! `dxp --max-move-time`). Depends on the game layer, notation and the DXP message layer.

use super::player::{Claim, Failure, Player, Reply, end_process};
use super::tc::{MoveLimit, TimeControl};
use crate::board::geometry::Geometry;
use crate::board::types::Side;
use crate::game::Game;
use crate::notation::dxp as board;
use crate::position::{MoveOf, Position};
use crate::protocol::dxp::{Message, Reader, Received};
use crate::rules::Rules;
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A DXP engine and its connection.
pub struct DxpPlayer {
    child: Option<Child>,
    stream: TcpStream,
    messages: Receiver<Received>,
    name: String,
    /// GAMEREQ's thinking time (minutes per player) and number of moves.
    minutes: u32,
    moves: u32,
    /// How long it may take to connect and to answer a game request.
    handshake: Duration,
}

impl DxpPlayer {
    /// Starts `command` (if any) in `dir` and connects to `address`, or listens on it for the
    /// engine (`listen`).
    ///
    /// # Errors
    /// The program cannot be started, or no connection is made within `handshake`.
    pub fn start<R: Rules>(
        name: &str,
        command: &[String],
        dir: Option<&str>,
        address: &str,
        listen: bool,
        control: TimeControl,
        handshake: Duration,
    ) -> Result<Self, Failure> {
        if R::Geo::SQUARES != 50 {
            return Err(Failure::Protocol(format!(
                "DXP is played on 10x10 boards; {} is not one",
                R::VARIANT.name()
            )));
        }
        let listener = if listen {
            Some(
                TcpListener::bind(address)
                    .map_err(|e| Failure::Protocol(format!("cannot listen on {address}: {e}")))?,
            )
        } else {
            None
        };
        // With `listen=HOST:0` the system picks the port; the engine's command learns it from
        // `{address}`.
        let bound = match &listener {
            Some(listener) => listener.local_addr().map_or(address.to_string(), |a| a.to_string()),
            None => address.to_string(),
        };
        let command: Vec<String> =
            command.iter().map(|word| word.replace("{address}", &bound)).collect();
        let mut child = None;
        if let Some((program, arguments)) = command.split_first() {
            let mut process = Command::new(program);
            process
                .args(arguments)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            if let Some(dir) = dir {
                process.current_dir(dir);
            }
            child = Some(process.spawn().map_err(|e| {
                Failure::Crashed(format!("cannot start '{}': {e}", command.join(" ")))
            })?);
        }
        let deadline = Instant::now() + handshake;
        let stream = match listener {
            Some(listener) => accept_until(&listener, deadline)?,
            None => connect_until(address, deadline)?,
        };
        let _ = stream.set_nodelay(true);
        let reading = stream
            .try_clone()
            .map_err(|e| Failure::Crashed(format!("cannot use the connection: {e}")))?;
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = Reader::new(reading);
            loop {
                let received = reader.receive();
                let closed = matches!(received, Received::Closed);
                if sender.send(received).is_err() || closed {
                    break;
                }
            }
        });
        let (minutes, moves) = dxp_clock(control);
        Ok(DxpPlayer { child, stream, messages, name: name.to_string(), minutes, moves, handshake })
    }

    fn send(&mut self, message: &Message) -> Result<(), Failure> {
        let mut bytes = message.write().into_bytes();
        log::trace!("{} < {}", self.name, String::from_utf8_lossy(&bytes));
        bytes.push(0);
        self.stream
            .write_all(&bytes)
            .and_then(|()| self.stream.flush())
            .map_err(|e| Failure::Crashed(format!("the connection broke: {e}")))
    }

    /// The next message that is not chat, within `patience`.
    fn receive(&mut self, patience: Duration) -> Result<Message, Failure> {
        let deadline = Instant::now() + patience;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let text = match self.messages.recv_timeout(wait) {
                Ok(Received::Text(text)) => text,
                Ok(Received::Bad(why)) => {
                    return Err(Failure::Protocol(format!(
                        "sent something that is not DXP: {why}"
                    )));
                }
                // The reading socket has no timeout; a silence is the deadline's to judge.
                Ok(Received::Silent) => continue,
                Ok(Received::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Crashed("the connection closed".into()));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::Stalled(format!(
                        "no message within {:.1} s",
                        patience.as_secs_f64()
                    )));
                }
            };
            log::trace!("{} > {text}", self.name);
            match Message::parse(&text) {
                Ok(Message::Chat(chat)) => log::debug!("{}: {chat}", self.name),
                Ok(message) => return Ok(message),
                Err(why) => return Err(Failure::Protocol(format!("'{text}': {why}"))),
            }
        }
    }
}

/// GAMEREQ's clock: whole minutes per player (at least one), for a game of 150 moves, and no
/// number of moves. DXP's "number of moves" is the game's length (damas, Scan and others end
/// the game themselves when it is reached), not a period that refills the clock, so it is never
/// sent: the referee ends the game by its own rules.
fn dxp_clock(control: TimeControl) -> (u32, u32) {
    const GAME_MOVES: f64 = 150.0;
    let minutes = |seconds: f64| ((seconds / 60.0).ceil() as u32).clamp(1, 999);
    match control {
        TimeControl::Clock { moves, base, increment } => {
            let periods = moves.map_or(1.0, |moves| GAME_MOVES / f64::from(moves));
            let total = base.as_secs_f64() * periods + GAME_MOVES * increment.as_secs_f64();
            (minutes(total), 0)
        }
        TimeControl::PerMove(time) => (minutes(time.as_secs_f64() * GAME_MOVES), 0),
        TimeControl::Depth(_) | TimeControl::Nodes(_) => (0, 0),
    }
}

fn accept_until(listener: &TcpListener, deadline: Instant) -> Result<TcpStream, Failure> {
    listener.set_nonblocking(true).map_err(|e| Failure::Protocol(format!("cannot listen: {e}")))?;
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                let _ = stream.set_nonblocking(false);
                return Ok(stream);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(Failure::Crashed(format!("the engine never connected: {e}"))),
        }
    }
}

fn connect_until(address: &str, deadline: Instant) -> Result<TcpStream, Failure> {
    loop {
        match TcpStream::connect(address) {
            Ok(stream) => return Ok(stream),
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(Failure::Crashed(format!("cannot connect to {address}: {e}"))),
        }
    }
}

impl<R: Rules> Player<R> for DxpPlayer {
    fn new_game(&mut self, start: &Position<R>, side: Side) -> Result<(), Failure> {
        let request = Message::GameRequest {
            version: 1,
            name: "damas match".to_string(),
            follower: side,
            minutes: self.minutes,
            moves: self.moves,
            position: Some((start.side_to_move(), board::write(start))),
        };
        self.send(&request)?;
        loop {
            match self.receive(self.handshake)? {
                Message::GameAccept { code: 0, .. } => return Ok(()),
                Message::GameAccept { code, .. } => {
                    return Err(Failure::Protocol(format!("refused the game (code {code})")));
                }
                // The acknowledgement of the previous game's end, if late; or a move of that
                // game the engine sent before it read our GAMEEND (the referee ended the game by
                // a rule or adjudication the engine does not apply, while it was thinking).
                Message::GameEnd { .. } | Message::Move { .. } => {}
                other => {
                    return Err(Failure::Protocol(format!("answered GAMEREQ with {other:?}")));
                }
            }
        }
    }

    fn opponent_moved(&mut self, _game: &Game<R>, mv: &MoveOf<R>) -> Result<(), Failure> {
        let squares = board::move_squares::<R>(mv);
        self.send(&Message::Move {
            seconds: 0,
            from: squares.from,
            to: squares.to,
            captured: squares.captured,
        })
    }

    fn go(
        &mut self,
        game: &Game<R>,
        _limit: MoveLimit,
        patience: Duration,
    ) -> Result<Reply<R>, Failure> {
        let deadline = Instant::now() + patience;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.receive(wait)? {
                Message::Move { from, to, captured, .. } => {
                    let wanted = board::MoveSquares { from, to, captured };
                    let legal = game.legal_moves();
                    return board::find_move::<R>(legal.as_slice(), &wanted)
                        .map(|mv| Reply { mv, score: None, depth: None })
                        .ok_or_else(|| {
                            Failure::IllegalMove(format!(
                                "{}-{} capturing {:?}",
                                wanted.from, wanted.to, wanted.captured
                            ))
                        });
                }
                Message::BackRequest { .. } => self.send(&Message::BackAccept { code: 1 })?,
                // DXP's reasons: 1 I lose, 2 draw, 3 I win; 0 gives none.
                Message::GameEnd { reason: 1, .. } => return Err(Failure::Claimed(Claim::Resign)),
                Message::GameEnd { reason: 2, .. } => return Err(Failure::Claimed(Claim::Draw)),
                Message::GameEnd { reason: 3, .. } => return Err(Failure::Claimed(Claim::Win)),
                Message::GameEnd { reason, .. } => {
                    return Err(Failure::Protocol(format!(
                        "ended the game (GAMEEND reason {reason}) instead of moving"
                    )));
                }
                other => {
                    return Err(Failure::Protocol(format!("sent {other:?} instead of a move")));
                }
            }
        }
    }

    fn game_over(&mut self, _game: &Game<R>, _result: &str) {
        let _ = self.send(&Message::GameEnd { reason: 0, stop: 0 });
    }
}

impl Drop for DxpPlayer {
    fn drop(&mut self) {
        let _ = self.send(&Message::GameEnd { reason: 0, stop: 1 });
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        if let Some(child) = &mut self.child {
            end_process(child);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_given_in_whole_minutes() {
        // 60 s for 40 moves, for 150 moves: 225 s, and 75 s of increments.
        assert_eq!(dxp_clock("40/60+0.5".parse().unwrap()), (5, 0));
        assert_eq!(dxp_clock("600+0".parse().unwrap()), (10, 0));
        assert_eq!(dxp_clock("0.1".parse().unwrap()), (1, 0));
        assert_eq!(dxp_clock("depth=5".parse().unwrap()), (0, 0));
    }
}
