//! An engine in another process, spoken to through the Hub protocol, as a match player: how
//! `damas match` plays another build of damas, Scan, or any Hub engine. It speaks the client
//! side of Hub (Scan's `protocol.txt`): `hub`/`wait`, `set-param`, `init`/`ready`, `new-game`,
//! `pos` with the moves since the opening (so the engine sees repetitions), `level`, `go think`,
//! `info`, `done`.
//!
//! Each failure is told apart: the process ending (crash), no `done` within the patience
//! (stalled), a `done` whose move is not legal here. Depends on the game layer and notation.

use super::player::{Failure, Player, Reply, end_process};
use super::tc::MoveLimit;
use crate::board::types::Side;
use crate::bounded::{Line, MAX_INPUT_LINE, read_line};
use crate::game::Game;
use crate::notation::{hub, moves};
use crate::position::{MoveOf, Position};
use crate::protocol::hub::{hub_name, tokenize};
use crate::rules::{Rules, Variant};
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A running Hub engine.
pub struct HubPlayer {
    child: Child,
    input: ChildStdin,
    output: Receiver<String>,
    name: String,
    /// How long it may take to answer the handshake and `ping`.
    handshake: Duration,
}

impl HubPlayer {
    /// Starts `command` (program and arguments; a damas build enters Hub mode on the first line
    /// `hub`) in `dir`, sets the variant and `options`, and waits for `ready`.
    ///
    /// # Errors
    /// The program cannot be started, does not answer the handshake, or answers a setting
    /// with `error`.
    pub fn start(
        name: &str,
        command: &[String],
        dir: Option<&str>,
        options: &[(String, String)],
        variant: Variant,
        handshake: Duration,
    ) -> Result<Self, Failure> {
        let (program, arguments) =
            command.split_first().ok_or_else(|| Failure::Protocol("no command".into()))?;
        let mut process = Command::new(program);
        process.args(arguments).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = dir {
            process.current_dir(dir);
        }
        let mut child = process
            .spawn()
            .map_err(|e| Failure::Crashed(format!("cannot start '{}': {e}", command.join(" "))))?;
        let input = child.stdin.take().ok_or_else(|| Failure::Crashed("no stdin".into()))?;
        let stdout = child.stdout.take().ok_or_else(|| Failure::Crashed("no stdout".into()))?;
        let (sender, output) = channel();
        let engine = name.to_string();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                match read_line(&mut reader, &mut bytes, MAX_INPUT_LINE) {
                    Ok(Line::End) | Err(_) => break,
                    Ok(Line::TooLong) => {
                        log::warn!("{engine}: a line longer than {MAX_INPUT_LINE} bytes, ignored");
                        continue;
                    }
                    Ok(Line::Read) => {}
                }
                let line =
                    String::from_utf8_lossy(&bytes).trim_end_matches(['\r', '\n']).to_string();
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut player = HubPlayer { child, input, output, name: name.to_string(), handshake };
        player.send("hub")?;
        player.expect("wait", handshake, |_| {})?;
        player.send(&format!("set-param name=variant value={}", variant_name(variant)))?;
        for (option, value) in options {
            player.send(&format!("set-param name={option} value={value}"))?;
        }
        player.send("init")?;
        // Engines tolerate the params they do not know (pydraughts sends some), so an `error`
        // here is a value refused (a weight file for another rule set, a path that is not
        // there): a match played without it would measure something else.
        let mut refused = Vec::new();
        player.expect("ready", handshake, |line| {
            if line.starts_with("error") {
                refused.push(line.to_string());
            }
        })?;
        if !refused.is_empty() {
            return Err(Failure::Protocol(format!(
                "it refused its settings: {}",
                refused.join("; ")
            )));
        }
        Ok(player)
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        log::trace!("{} < {line}", self.name);
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| self.crashed(&format!("cannot write to it: {e}")))
    }

    /// Why the engine is gone: its exit status if it has one.
    fn crashed(&mut self, what: &str) -> Failure {
        // The pipe closes a moment before the process is reaped.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Failure::Crashed(format!("{what} ({status})"));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Failure::Crashed(what.to_string())
    }

    /// Reads lines until one starts with `word` and returns it; every other line goes to
    /// `other` (the `info` lines of a search).
    fn expect(
        &mut self,
        word: &str,
        patience: Duration,
        mut other: impl FnMut(&str),
    ) -> Result<String, Failure> {
        let deadline = Instant::now() + patience;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(wait) {
                Ok(line) => {
                    log::trace!("{} > {line}", self.name);
                    if line.split_whitespace().next() == Some(word) {
                        return Ok(line);
                    }
                    if line.starts_with("error") {
                        log::warn!("{}: {line}", self.name);
                    }
                    other(&line);
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::Stalled(format!(
                        "no '{word}' within {:.1} s",
                        patience.as_secs_f64()
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crashed(&format!("its output ended before '{word}'")));
                }
            }
        }
    }
}

/// The variant's name in `set-param`: Scan's names where Scan plays the variant (`normal`,
/// `killer`, `bt`, `frisian`, `losing`, from its `variant` param), damas's elsewhere; damas
/// reads both.
fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Breakthrough => "bt",
        Variant::Antidraughts => "losing",
        other => hub_name(other),
    }
}

/// The `level` line for a move's limit. The clock form follows pydraughts, which sends the time
/// left less the increment: Scan counts the increment of this move as already usable.
fn level_line(limit: MoveLimit) -> String {
    match limit {
        MoveLimit::MoveTime(time) => format!("level move-time={:.3}", time.as_secs_f64()),
        MoveLimit::Clock { left, increment, moves_to_go } => {
            let time = left.saturating_sub(increment).max(left / 2);
            let moves = moves_to_go.map(|moves| format!("moves={moves} ")).unwrap_or_default();
            format!(
                "level {moves}time={:.3} inc={:.3}",
                time.as_secs_f64(),
                increment.as_secs_f64()
            )
        }
        MoveLimit::Depth(depth) => format!("level depth={depth}"),
        MoveLimit::Nodes(nodes) => format!("level nodes={nodes}"),
    }
}

impl<R: Rules> Player<R> for HubPlayer {
    /// `new-game`, then `ping` until `pong`: an engine clears its tables when told of a new game
    /// (zeroing a large hash table takes tens of milliseconds), and that work is done before
    /// the first move's clock starts, not charged to it.
    fn new_game(&mut self, _start: &Position<R>, _side: Side) -> Result<(), Failure> {
        self.send("new-game")?;
        self.send("ping")?;
        self.expect("pong", self.handshake, |_| {}).map(drop)
    }

    fn go(
        &mut self,
        game: &Game<R>,
        limit: MoveLimit,
        patience: Duration,
    ) -> Result<Reply<R>, Failure> {
        let played: Vec<String> = game.moves().map(moves::to_hub::<R>).collect();
        let position = hub::write(game.start());
        if played.is_empty() {
            self.send(&format!("pos pos={position}"))?;
        } else {
            self.send(&format!("pos pos={position} moves=\"{}\"", played.join(" ")))?;
        }
        self.send(&level_line(limit))?;
        self.send("go think")?;
        let (mut score, mut depth) = (None, None);
        let done = self.expect("done", patience, |line| {
            let Ok(info) = tokenize(line) else { return };
            if info.command == "info" {
                if let Some(text) = info.value("score") {
                    score = text.parse::<f64>().ok().filter(|s| s.is_finite()).or(score);
                }
                if let Some(text) = info.value("depth") {
                    depth = text.parse().ok().or(depth);
                }
            }
        })?;
        let answer = tokenize(&done).ok();
        let text = answer
            .as_ref()
            .and_then(|answer| answer.value("move"))
            .ok_or_else(|| Failure::IllegalMove(format!("no move in '{done}'")))?;
        let mv: MoveOf<R> = moves::parse_hub(game.position(), text)
            .map_err(|e| Failure::IllegalMove(format!("'{text}': {e}")))?;
        Ok(Reply { mv, score, depth })
    }
}

impl Drop for HubPlayer {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit").and_then(|()| self.input.flush());
        end_process(&mut self.child);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_become_level_lines() {
        let secs = Duration::from_secs_f64;
        assert_eq!(level_line(MoveLimit::MoveTime(secs(0.1))), "level move-time=0.100");
        assert_eq!(
            level_line(MoveLimit::Clock {
                left: secs(30.0),
                increment: secs(0.5),
                moves_to_go: Some(12)
            }),
            "level moves=12 time=29.500 inc=0.500"
        );
        assert_eq!(
            level_line(MoveLimit::Clock {
                left: secs(0.6),
                increment: secs(0.5),
                moves_to_go: None
            }),
            "level time=0.300 inc=0.500"
        );
        assert_eq!(level_line(MoveLimit::Depth(9)), "level depth=9");
        for variant in Variant::ALL {
            assert_eq!(variant_name(*variant).parse::<Variant>(), Ok(*variant), "damas reads it");
        }
        let info = tokenize("info depth=7 score=-0.25 pv=\"a b\"").unwrap();
        assert_eq!(info.value("score"), Some("-0.25"));
        let done = tokenize("done move=32-28 ponder=17-22").unwrap();
        assert_eq!(done.value("move"), Some("32-28"));
    }
}
