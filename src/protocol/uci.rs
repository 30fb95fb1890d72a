//! A UCI-style dialect for tools written against chess-engine conventions: `uci` / `id` /
//! `option` / `uciok`, `isready` / `readyok`, `setoption name X value Y`, `ucinewgame`,
//! `position startpos|fen F [moves ...]`, `go` with `wtime btime winc binc movestogo depth nodes
//! movetime infinite ponder`, `stop`, `ponderhit`, `quit`; replies `info ...` and
//! `bestmove M [ponder M]`.
//!
//! Draughts has no UCI standard, so the choices are ours: positions are PDN FENs, moves are
//! written in PDN notation (`32-28`, `28x19`, the long form only when a capture is ambiguous)
//! and read in PDN or Hub notation; times are in milliseconds as in UCI.

use super::options::{Kind, OPTIONS, variant_names};
use super::session::{Exit, Protocol, Session, words};
use super::{Options, Urgent, emit};
use crate::board::types::Side;
use crate::game::replay::Notation;
use crate::notation::{fen, moves};
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::search::{Band, Info, InfoSink, Limits, Score, Source};
use std::num::IntErrorKind;
use std::time::Duration;

/// A score as UCI writes it: `cp N` or `mate N` (moves, negative when losing).
pub fn score_text(score: Score) -> String {
    match score.band() {
        Band::Win { plies } => format!("mate {}", plies.div_ceil(2)),
        Band::Loss { plies } => format!("mate -{}", plies.div_ceil(2)),
        // Not a mate: UCI has no band for it, so centipawns beyond any evaluation.
        Band::KnownWin { plies } => format!("cp {}", 9_000 - plies.min(999) as i32),
        Band::KnownLoss { plies } => format!("cp -{}", 9_000 - plies.min(999) as i32),
        Band::Eval(hundredths) => format!("cp {hundredths}"),
    }
}

/// The `id`, `option` and `uciok` lines answering `uci`: an `option` for each option the table
/// names for UCI.
pub fn handshake(options: &Options) -> Vec<String> {
    let mut lines = vec![
        format!("id name damas {}", env!("CARGO_PKG_VERSION")),
        "id author the damas developers".to_string(),
    ];
    for spec in OPTIONS {
        let Some(name) = spec.uci else { continue };
        let value = options.value(spec);
        lines.push(match spec.kind {
            Kind::Variant => format!(
                "option name {name} type combo default {value} {}",
                variant_names().iter().map(|v| format!("var {v}")).collect::<Vec<_>>().join(" ")
            ),
            Kind::Int { min, max } => {
                format!("option name {name} type spin default {value} min {min} max {max}")
            }
            Kind::Bool => format!("option name {name} type check default {value}"),
            Kind::Choice(words) => format!(
                "option name {name} type combo default {value} {}",
                words.iter().map(|w| format!("var {w}")).collect::<Vec<_>>().join(" ")
            ),
            Kind::Text => {
                let shown = if value.is_empty() { "<empty>" } else { value.as_str() };
                format!("option name {name} type string default {shown}")
            }
        });
    }
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
            moves::line_to_pdn(&self.root, &info.pv).join(" ")
        ));
        if info.source != Source::Search {
            emit(&format!("info string {}", info.source.label()));
        }
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
        let text = words.get(at + 1).ok_or_else(|| format!("go {name} needs a whole number"))?;
        text.parse::<i64>().map_err(|e| match e.kind() {
            IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                format!("go {name} {text} is too large")
            }
            _ => format!("go {name} needs a whole number, not {text}"),
        })
    };
    // A count out of its range is refused rather than clamped (`depth -1` is not depth 1).
    let within = |name: &str, value: i64, min: i64, max: i64| -> Result<i64, String> {
        if (min..=max).contains(&value) {
            Ok(value)
        } else {
            Err(format!("go {name} {value} is out of range ({min} to {max})"))
        }
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
                    "depth" => limits.depth = Some(within(word, value, 1, 1000)? as u32),
                    "nodes" => limits.nodes = Some(within(word, value, 1, i64::MAX)? as u64),
                    "movetime" => limits.move_time = Some(millis(value)),
                    "movestogo" => {
                        let moves = within(word, value, 0, 10_000)? as u32;
                        limits.moves_to_go = Some(moves).filter(|&m| m > 0);
                    }
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

/// The UCI-style dialect. Like UCI engines, it keeps nothing between lines: each `position`
/// and `go` carries all it needs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Uci;

impl Protocol for Uci {
    const DEFAULT_VARIANT: Variant = Variant::English;

    fn refuse(&self, message: &str) {
        emit(&format!("info string error: {message}"));
    }

    fn handle<R: Rules>(&mut self, session: &mut Session<R>, text: &str) -> Option<Exit> {
        let (command, args) = words(text)?;
        match command {
            "uci" => handshake(&session.options).iter().for_each(|line| emit(line)),
            "isready" => {
                session.ready();
                emit("readyok");
            }
            "setoption" => return set_option(session, &args),
            "ucinewgame" => session.new_game(),
            "position" => {
                if let Err(message) = set_position(session, &args) {
                    emit(&format!("info string error: {message}"));
                }
            }
            "go" => go(session, &args),
            "stop" | "ponderhit" => {}
            "quit" => return Some(Exit::Quit),
            other => emit(&format!("info string error: unknown command {other}")),
        }
        None
    }
}

/// `setoption name <name words> value <value words>`.
fn set_option<R: Rules>(session: &mut Session<R>, words: &[&str]) -> Option<Exit> {
    let name_at = words.iter().position(|&w| w == "name");
    let value_at = words.iter().position(|&w| w == "value");
    let Some(name_at) = name_at else {
        emit("info string error: setoption needs name <option> value <value>");
        return None;
    };
    let name_end = value_at.unwrap_or(words.len());
    let name = words.get(name_at + 1..name_end).map(|w| w.join(" ")).unwrap_or_default();
    let value = value_at.map(|at| words[at + 1..].join(" ")).unwrap_or_default();
    match session.set_option(&name, &value) {
        Ok(exit) => exit,
        Err(message) => {
            emit(&format!("info string error: {message}"));
            None
        }
    }
}

/// `position startpos|fen F [moves M...]` (the words after `position`); on an error the game
/// stays as it was.
fn set_position<R: Rules>(session: &mut Session<R>, words: &[&str]) -> Result<(), String> {
    let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let start = match words.first() {
        Some(&"startpos") => Position::start(),
        Some(&"fen") => {
            let text = words[1..moves_at.max(1)].join("");
            fen::parse::<R>(&text).map_err(|e| e.to_string())?
        }
        _ => return Err("position needs startpos or fen <FEN>".to_string()),
    };
    let moves = words.iter().skip(moves_at + 1).copied();
    session.set_game(start, moves, Notation::PdnFirst).map_err(|e| e.to_string())
}

/// `go` with its arguments (the words after it).
fn go<R: Rules>(session: &mut Session<R>, words: &[&str]) {
    let (limits, ponder) = match go_limits(words, session.game.position().side_to_move()) {
        Ok(both) => both,
        Err(message) => {
            emit(&format!("info string error: {message}"));
            return;
        }
    };
    let root = *session.game.position();
    let result = session.search(limits, ponder, UciInfo { root }, |text| {
        match text.split_whitespace().next().unwrap_or("") {
            "stop" => Urgent::Stop,
            "ponderhit" => Urgent::PonderHit,
            "isready" => Urgent::Reply("readyok"),
            "" => Urgent::Ignore,
            _ => Urgent::StopAndLater,
        }
    });
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
        let error = |words: &[&str]| go_limits(words, Side::White).expect_err("refused");
        assert_eq!(
            error(&["depth", "99999999999999999999"]),
            "go depth 99999999999999999999 is too large"
        );
        assert_eq!(error(&["nodes", "x"]), "go nodes needs a whole number, not x");
        assert_eq!(error(&["depth", "-1"]), "go depth -1 is out of range (1 to 1000)");
        assert_eq!(error(&["nodes", "0"]), "go nodes 0 is out of range (1 to 9223372036854775807)");
        assert_eq!(score_text(Score::new(crate::search::WIN - 3)), "mate 2");
        assert_eq!(score_text(Score::new(-(crate::search::WIN - 4))), "mate -2");
    }
}
