//! A UCI-style dialect for tools written against chess-engine conventions: `uci` / `id` /
//! `option` / `uciok`, `isready` / `readyok`, `setoption name X value Y`, `ucinewgame`,
//! `position startpos|fen F [moves ...]`, `go` with `wtime btime winc binc movestogo depth nodes
//! movetime infinite ponder`, `stop`, `ponderhit`, `quit`; replies `info ...` and
//! `bestmove M [ponder M]`.
//!
//! Draughts has no UCI standard, so the choices are ours: positions are PDN FENs, moves are
//! written in PDN notation (`32-28`, `28x19`, the long form only when a capture is ambiguous)
//! and read in PDN or Hub notation; times are in milliseconds as in UCI.

use super::{Background, Event, Input, MAX_HASH, MAX_MULTIPV, MAX_THREADS, Options, Urgent};
use super::{configure, emit, supervise, variant_names};
use crate::analyze::line as pdn_line;
use crate::game::Game;
use crate::notation::{fen, moves};
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::search::{Engine, Info, InfoSink, Limits, MAX_LEVEL, Score, WIN, WIN_BOUND};
use crate::types::Side;
use crate::with_variant;
use std::time::Duration;

/// A score as UCI writes it: `cp N` or `mate N` (moves, negative when losing).
pub fn score_text(score: Score) -> String {
    if score >= WIN_BOUND {
        format!("mate {}", (WIN - score + 1) / 2)
    } else if score <= -WIN_BOUND {
        format!("mate -{}", (WIN + score + 1) / 2)
    } else {
        format!("cp {score}")
    }
}

/// The `id`, `option` and `uciok` lines answering `uci`.
pub fn handshake(options: &Options) -> Vec<String> {
    let mut lines = vec![
        format!("id name damas {}", env!("CARGO_PKG_VERSION")),
        "id author the damas developers".to_string(),
        format!(
            "option name Variant type combo default {} {}",
            options.variant.name(),
            variant_names().iter().map(|name| format!("var {name}")).collect::<Vec<_>>().join(" ")
        ),
        format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            options.threads
        ),
        format!("option name Hash type spin default {} min 1 max {MAX_HASH}", options.hash),
        format!("option name Ponder type check default {}", options.ponder),
        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        format!("option name Level type spin default {} min 1 max {MAX_LEVEL}", options.level),
    ];
    lines.push("uciok".to_string());
    lines
}

/// Reports iterations as UCI `info` lines with the PV in PDN notation.
struct UciInfo<R: Rules> {
    root: Position<R>,
}

impl<R: Rules> InfoSink<R> for UciInfo<R> {
    fn info(&mut self, info: &Info<R>) {
        let millis = info.time.as_millis();
        let nps = (u128::from(info.nodes) * 1000).checked_div(millis).unwrap_or(0);
        emit(&format!(
            "info depth {} seldepth {} multipv {} score {} nodes {} nps {nps} time {millis} pv {}",
            info.depth,
            info.seldepth,
            info.multipv,
            score_text(info.score),
            info.nodes,
            pdn_line(&self.root, &info.pv).join(" ")
        ));
    }
}

/// Reads the `go` arguments into limits for the side to move. Returns the limits and whether
/// this is a ponder search.
///
/// # Errors
/// A keyword without a number after it.
pub fn go_limits(words: &[&str], side: Side) -> Result<(Limits, bool), String> {
    let mut limits = Limits::default();
    let mut ponder = false;
    let mut at = 0;
    let number = |at: usize, name: &str| -> Result<i64, String> {
        words
            .get(at + 1)
            .and_then(|text| text.parse::<i64>().ok())
            .ok_or_else(|| format!("go {name} needs a whole number"))
    };
    let millis = |value: i64| Duration::from_millis(value.max(0) as u64);
    let mine = |white: &str, black: &str, word: &str| match side {
        Side::White => word == white,
        Side::Black => word == black,
    };
    while at < words.len() {
        let word = words[at];
        match word {
            "infinite" => limits.infinite = true,
            "ponder" => ponder = true,
            "depth" | "nodes" | "movetime" | "movestogo" | "wtime" | "btime" | "winc" | "binc" => {
                let value = number(at, word)?;
                at += 1;
                match word {
                    "depth" => limits.depth = Some(value.clamp(1, 1000) as u32),
                    "nodes" => limits.nodes = Some(value.max(1) as u64),
                    "movetime" => limits.move_time = Some(millis(value)),
                    "movestogo" => limits.moves_to_go = Some(value.clamp(1, 10_000) as u32),
                    _ if mine("wtime", "btime", word) => limits.time_left = Some(millis(value)),
                    _ if mine("winc", "binc", word) => limits.increment = millis(value),
                    _ => {}
                }
            }
            _ => {}
        }
        at += 1;
    }
    Ok((limits, ponder))
}

enum Exit {
    Quit,
    Switch,
}

struct Session<R: Rules> {
    options: Options,
    engine: Option<Engine<R>>,
    game: Game<R>,
}

impl<R: Rules> Session<R> {
    fn engine(&mut self) -> Engine<R> {
        configure(self.engine.take(), &self.options)
    }

    fn handle(&mut self, text: &str, input: &mut Input) -> Option<Exit> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let &command = words.first()?;
        match command {
            "uci" => handshake(&self.options).iter().for_each(|line| emit(line)),
            "isready" => {
                let engine = self.engine();
                self.engine = Some(engine);
                emit("readyok");
            }
            "setoption" => return self.set_option(&words),
            "ucinewgame" => {
                let mut engine = self.engine();
                engine.new_game();
                self.engine = Some(engine);
                self.game = Game::new(Position::start());
            }
            "position" => match self.position(&words) {
                Ok(game) => self.game = game,
                Err(message) => emit(&format!("info string error: {message}")),
            },
            "go" => return self.go(&words, input),
            "stop" | "ponderhit" => {}
            "quit" => return Some(Exit::Quit),
            other => emit(&format!("info string error: unknown command {other}")),
        }
        None
    }

    /// `setoption name <name words> value <value words>`.
    fn set_option(&mut self, words: &[&str]) -> Option<Exit> {
        let name_at = words.iter().position(|&w| w == "name");
        let value_at = words.iter().position(|&w| w == "value");
        let Some(name_at) = name_at else {
            emit("info string error: setoption needs name <option> value <value>");
            return None;
        };
        let name_end = value_at.unwrap_or(words.len());
        let name = words.get(name_at + 1..name_end).map(|w| w.join(" ")).unwrap_or_default();
        let value = value_at.map(|at| words[at + 1..].join(" ")).unwrap_or_default();
        let before = self.options.clone();
        if let Err(message) = self.options.set(&name, &value) {
            emit(&format!("info string error: {message}"));
            return None;
        }
        if self.options.variant != before.variant {
            return Some(Exit::Switch);
        }
        if let Some(engine) = &mut self.engine {
            if self.options.threads != before.threads {
                engine.set_threads(self.options.threads);
            }
            if self.options.hash != before.hash {
                engine.set_hash(self.options.hash);
            }
        }
        None
    }

    /// `position startpos|fen F [moves M...]`.
    fn position(&self, words: &[&str]) -> Result<Game<R>, String> {
        let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
        let start = match words.get(1) {
            Some(&"startpos") => Position::start(),
            Some(&"fen") => {
                let text = words[2..moves_at].join("");
                fen::parse::<R>(&text).map_err(|e| e.to_string())?
            }
            _ => return Err("position needs startpos or fen <FEN>".to_string()),
        };
        let mut game = Game::new(start);
        for (index, text) in words.iter().skip(moves_at + 1).enumerate() {
            let mv = moves::parse(game.position(), text)
                .or_else(|_| moves::parse_hub(game.position(), text))
                .map_err(|e| format!("move {} ({text}): {e}", index + 1))?;
            game.play(&mv).map_err(|e| format!("move {} ({text}): {e}", index + 1))?;
        }
        Ok(game)
    }

    fn go(&mut self, words: &[&str], input: &mut Input) -> Option<Exit> {
        let (limits, ponder) = match go_limits(&words[1..], self.game.position().side_to_move()) {
            Ok(both) => both,
            Err(message) => {
                emit(&format!("info string error: {message}"));
                return None;
            }
        };
        let engine = self.engine();
        let root = *self.game.position();
        let sink = UciInfo { root };
        let search = Background::start(engine, self.game.clone(), limits, ponder, sink, input);
        let (engine, result) =
            supervise(search, input, |text| match text.split_whitespace().next().unwrap_or("") {
                "stop" => Urgent::Stop,
                "ponderhit" => Urgent::PonderHit,
                "isready" => Urgent::Reply("readyok"),
                "" => Urgent::Ignore,
                _ => Urgent::StopAndLater,
            });
        self.engine = Some(engine);
        let line = match result.best {
            None => "bestmove (none)".to_string(),
            Some(best) => {
                let mut text = format!("bestmove {}", moves::to_pdn(&root, &best));
                if let Some(reply) = result.ponder {
                    let mut after = root;
                    after.play(&best);
                    text.push_str(&format!(" ponder {}", moves::to_pdn(&after, &reply)));
                }
                text
            }
        };
        emit(&line);
        None
    }
}

fn session<R: Rules>(options: &mut Options, input: &mut Input) -> Exit {
    let mut session =
        Session::<R> { options: options.clone(), engine: None, game: Game::new(Position::start()) };
    loop {
        let exit = match input.next_event() {
            Event::Line(line) => session.handle(&line, input),
            Event::Eof => Some(Exit::Quit),
            Event::SearchDone => None,
        };
        if let Some(exit) = exit {
            *options = session.options;
            return exit;
        }
    }
}

/// Runs the UCI-style dialect on `input` until `quit` or the end of input. English checkers is
/// the default rule set, as everywhere outside Hub mode.
pub fn run(mut input: Input) {
    let mut options = Options::with_variant(Variant::English);
    loop {
        let variant = options.variant;
        if let Exit::Quit = with_variant!(variant, R => session::<R>(&mut options, &mut input)) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_arguments() {
        let words = ["wtime", "60000", "btime", "1000", "winc", "500", "movestogo", "20"];
        let (limits, ponder) = go_limits(&words, Side::Black).unwrap();
        assert!(!ponder);
        assert_eq!(limits.time_left, Some(Duration::from_secs(1)));
        assert_eq!(limits.increment, Duration::ZERO);
        assert_eq!(limits.moves_to_go, Some(20));
        let (limits, ponder) = go_limits(&["ponder", "depth", "5"], Side::White).unwrap();
        assert!(ponder);
        assert_eq!(limits.depth, Some(5));
        assert!(go_limits(&["depth"], Side::White).is_err());
        assert!(go_limits(&["nodes", "x"], Side::White).is_err());
        assert_eq!(score_text(WIN - 3), "mate 2");
        assert_eq!(score_text(-(WIN - 4)), "mate -2");
    }
}
