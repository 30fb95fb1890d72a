//! An engine in another process, driven through the Hub protocol, as a match player: how
//! `damas match` measures one build of damas against another (or against Scan). It speaks the
//! client side of Hub: `hub`/`wait`, `set-param`, `init`/`ready`, `new-game`, `pos` with the
//! moves since the opening (so the engine sees repetitions), `level`, `go think`, `done`.
//!
//! Depends on the game layer and notation; no search.

use crate::game::Game;
use crate::notation::{hub, moves};
use crate::position::MoveOf;
use crate::rules::Rules;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// What the external engine is asked to search per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HubLimit {
    /// `level depth=N`.
    Depth(u32),
    /// `level nodes=N`.
    Nodes(u64),
    /// `level move-time=S`.
    MoveTime(Duration),
}

impl HubLimit {
    fn command(self) -> String {
        match self {
            HubLimit::Depth(depth) => format!("level depth={depth}"),
            HubLimit::Nodes(nodes) => format!("level nodes={nodes}"),
            HubLimit::MoveTime(time) => format!("level move-time={:.3}", time.as_secs_f64()),
        }
    }

    fn patience(self) -> Duration {
        match self {
            HubLimit::MoveTime(time) => time * 4 + Duration::from_secs(10),
            _ => Duration::from_secs(600),
        }
    }
}

/// A running Hub engine.
pub struct HubPlayer {
    child: Child,
    input: ChildStdin,
    output: Receiver<String>,
    limit: HubLimit,
    name: String,
}

impl HubPlayer {
    /// Starts `command` (a path to an executable; `damas` builds start in Hub mode on the
    /// first line `hub`), sets the variant and one thread, and waits for `ready`.
    ///
    /// # Errors
    /// The program cannot be started, or does not answer the handshake.
    pub fn start(command: &str, limit: HubLimit, variant: &str) -> Result<Self, String> {
        let mut child = Command::new(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{command}': {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (sender, output) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut player = HubPlayer { child, input, output, limit, name: command.to_string() };
        player.send("hub")?;
        player.expect("wait", Duration::from_secs(10))?;
        player.send(&format!("set-param name=variant value={variant}"))?;
        player.send("set-param name=threads value=1")?;
        player.send("set-param name=hash value=16")?;
        player.send("init")?;
        player.expect("ready", Duration::from_secs(30))?;
        Ok(player)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("{}: cannot write: {e}", self.name))
    }

    /// Reads lines until one starts with `word`; returns it.
    fn expect(&mut self, word: &str, patience: Duration) -> Result<String, String> {
        loop {
            match self.output.recv_timeout(patience) {
                Ok(line) => {
                    if line.split_whitespace().next() == Some(word) {
                        return Ok(line);
                    }
                    if line.starts_with("error") {
                        log::warn!("{}: {line}", self.name);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{}: no '{word}' within {patience:?}", self.name));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: exited before '{word}'", self.name));
                }
            }
        }
    }

    /// Tells the engine a new game starts.
    ///
    /// # Errors
    /// The engine's pipe is closed.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.send("new-game")
    }

    /// The engine's move in `game`'s current position.
    ///
    /// # Errors
    /// The engine does not answer, or answers with a move that is not legal.
    pub fn choose<R: Rules>(&mut self, game: &Game<R>) -> Result<MoveOf<R>, String> {
        let played: Vec<String> = game.moves().map(moves::to_hub::<R>).collect();
        let position = hub::write(game.start());
        if played.is_empty() {
            self.send(&format!("pos pos={position}"))?;
        } else {
            self.send(&format!("pos pos={position} moves=\"{}\"", played.join(" ")))?;
        }
        self.send(&self.limit.command())?;
        self.send("go think")?;
        let done = self.expect("done", self.limit.patience())?;
        let text = done
            .split_whitespace()
            .find_map(|word| word.strip_prefix("move="))
            .ok_or_else(|| format!("{}: no move in '{done}'", self.name))?;
        moves::parse_hub(game.position(), text)
            .map_err(|e| format!("{}: move '{text}': {e}", self.name))
    }
}

impl Drop for HubPlayer {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}
