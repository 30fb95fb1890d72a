//! The Hub protocol (Scan's `protocol.txt`, version 2) on stdin/stdout, as the Hub GUI,
//! pydraughts and lidraughts-bot speak it: `hub` / `id` / `param` / `wait`, `set-param`, `init` /
//! `ready`, `new-game`, `pos`, `level`, `go think|ponder|analyze`, `ponder-hit`, `stop`, `ping`,
//! `quit`; replies `info`, `done`, `pong`, `error`. Details and client quirks:
//! Scan's `protocol.txt` and pydraughts' `engines/hub.py` (the client our tests mimic).
//!
//! Positions arrive as Scan's string (pydraughts' square order on 8x8 boards) or as a PDN FEN;
//! moves in Hub notation (`from-to`, `fromxtoxcaptured...`) in the variant's own numbering.
//! Nothing is ever written to stderr in this mode: pydraughts reads it as protocol.

use super::options::{Kind, OPTIONS, variant_names};
use super::session::{Exit, Protocol, Session};
use super::{Options, Urgent, emit};
use crate::game::replay::Notation;
use crate::notation::{fen, hub as hub_position, moves};
use crate::position::{MoveOf, Position};
use crate::rules::{Rules, Variant};
use crate::search::{Info, InfoSink, Limits, Score, Source};
use std::time::Duration;

/// One argument of a Hub line: `name=value`, `name="a value"` or a bare flag `name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The argument's name.
    pub name: String,
    /// Its value, if it has one.
    pub value: Option<String>,
}

/// A Hub line split into its command and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The command (first word).
    pub command: String,
    /// The arguments in order.
    pub args: Vec<Arg>,
}

impl Line {
    /// The value of argument `name`.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.args.iter().find(|arg| arg.name == name).and_then(|arg| arg.value.as_deref())
    }

    /// True when the line has argument `name` (flag or not).
    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|arg| arg.name == name)
    }
}

fn is_name_char(c: char) -> bool {
    !c.is_control() && !c.is_whitespace() && c != '=' && c != '"'
}

/// Splits a Hub line as Scan's tokenizer does: names are runs of characters other than control
/// characters, blanks, `=` and `"`; blanks may surround `=`; a value is a name or a quoted string.
///
/// # Errors
/// An empty line, a stray `=` or `"`, or an unterminated quote.
pub fn tokenize(text: &str) -> Result<Line, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut at = 0;
    let skip_blanks = |at: &mut usize| {
        while *at < chars.len() && chars[*at].is_whitespace() {
            *at += 1;
        }
    };
    let name_at = |at: &mut usize| -> String {
        let start = *at;
        while *at < chars.len() && is_name_char(chars[*at]) {
            *at += 1;
        }
        chars[start..*at].iter().collect()
    };
    skip_blanks(&mut at);
    let command = name_at(&mut at);
    if command.is_empty() {
        return Err(if at >= chars.len() {
            "missing command".to_string()
        } else {
            format!("unexpected character '{}'", chars[at].escape_default())
        });
    }
    let mut args = Vec::new();
    loop {
        skip_blanks(&mut at);
        if at >= chars.len() {
            break;
        }
        let name = name_at(&mut at);
        if name.is_empty() {
            return Err(format!("unexpected character '{}'", chars[at].escape_default()));
        }
        skip_blanks(&mut at);
        let value = if at < chars.len() && chars[at] == '=' {
            at += 1;
            skip_blanks(&mut at);
            if at < chars.len() && chars[at] == '"' {
                let start = at + 1;
                let Some(length) = chars[start..].iter().position(|&c| c == '"') else {
                    return Err(format!("unterminated quote in the value of {name}"));
                };
                at = start + length + 1;
                Some(chars[start..start + length].iter().collect())
            } else {
                let value = name_at(&mut at);
                if value.is_empty() {
                    return Err(format!("missing value for {name}"));
                }
                Some(value)
            }
        } else {
            None
        };
        args.push(Arg { name, value });
    }
    Ok(Line { command, args })
}

/// A value as Scan writes it: bare when it is a name, else in double quotes. Quotes inside a
/// value cannot be written (the protocol has no escape), so they become single quotes.
pub fn quote(value: &str) -> String {
    if !value.is_empty() && value.chars().all(is_name_char) {
        value.to_string()
    } else {
        format!("\"{}\"", value.replace('"', "'"))
    }
}

/// Longest message an `error` line quotes, in bytes (it may echo a megabyte of input).
const MAX_MESSAGE: usize = 400;

/// An `error` line: the message cut to [`MAX_MESSAGE`] bytes (with `...`), then quoted, so
/// that the line stays whole and its quotes closed.
fn error(message: &str) -> String {
    let mut end = message.len().min(MAX_MESSAGE);
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    let cut = if end < message.len() { "..." } else { "" };
    format!("error message={}", quote(&format!("{}{cut}", &message[..end])))
}

/// A score in men, as Hub clients read it: a win in `n` plies is `100 - n/100` (Scan's
/// encoding, 99.xx), a loss its negative.
pub fn score_text(score: Score) -> String {
    format!("{:.2}", score.men())
}

/// The Hub name of a variant (Scan's names where Scan has one).
pub fn hub_name(variant: Variant) -> &'static str {
    match variant {
        Variant::International => "normal",
        other => other.name(),
    }
}

/// The options Hub mode starts with.
pub fn default_options() -> Options {
    Options::with_variant(<Hub as Protocol>::DEFAULT_VARIANT)
}

/// The `id`, `param` and `wait` lines answering `hub`: a `param` for each option the table
/// declares to Hub.
pub fn handshake(options: &Options) -> Vec<String> {
    let mut lines = vec![format!(
        "id name=damas version={} author={} country=none",
        env!("CARGO_PKG_VERSION"),
        quote("the damas developers")
    )];
    for spec in OPTIONS.iter().filter(|spec| spec.hub) {
        let name = spec.name;
        lines.push(match spec.kind {
            Kind::Variant => format!(
                "param name={name} value={} type=enum values={}",
                hub_name(options.variant),
                quote(&variant_names().join(" "))
            ),
            Kind::Int { min, max } => format!(
                "param name={name} value={} type=int min={min} max={max}",
                options.value(spec)
            ),
            Kind::Bool => format!("param name={name} value={} type=bool", options.value(spec)),
            Kind::Choice(words) => format!(
                "param name={name} value={} type=enum values={}",
                options.value(spec),
                quote(&words.join(" "))
            ),
            Kind::Text => {
                format!("param name={name} value={} type=string", quote(&options.value(spec)))
            }
        });
    }
    lines.push("wait".to_string());
    lines
}

/// Reads a Hub number of seconds: a decimal real, negative allowed (clamped to zero).
fn seconds(name: &str, value: Option<&str>) -> Result<Duration, String> {
    let text = value.ok_or_else(|| format!("level {name} needs a value"))?;
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() => Ok(Duration::from_secs_f64(s.clamp(0.0, 1e9))),
        _ => Err(format!("level {name}={text} is not a number of seconds")),
    }
}

/// The search limits of the `level` lines seen since the last `pos` or `go`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Level {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<Duration>,
    moves: Option<u32>,
    time: Option<Duration>,
    inc: Duration,
    infinite: bool,
}

impl Level {
    /// Adds the arguments of one `level` line, all or none of them. Unknown arguments
    /// (`handicap`) are ignored.
    ///
    /// # Errors
    /// A value that is not a number, or a count out of its range.
    pub fn add(&mut self, line: &Line) -> Result<(), String> {
        let mut next = *self;
        next.add_each(line)?;
        *self = next;
        Ok(())
    }

    fn add_each(&mut self, line: &Line) -> Result<(), String> {
        for arg in &line.args {
            let value = arg.value.as_deref();
            // A count in `min..=max` (written as a whole number or as 1e6); a value outside is
            // refused rather than clamped, so that `depth=-1` is not silently a depth of 1.
            let whole = |name: &str, min: u64, max: u64| -> Result<u64, String> {
                let text = value.ok_or_else(|| format!("level {name} needs a value"))?;
                let number = text
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("level {name}={text} is not a number"))?;
                if number < min as f64 || number > max as f64 {
                    return Err(format!("level {name}={text} is out of range ({min} to {max})"));
                }
                Ok(number as u64)
            };
            match arg.name.as_str() {
                "depth" => self.depth = Some(whole("depth", 1, 1000)? as u32),
                "nodes" => self.nodes = Some(whole("nodes", 1, 1e18 as u64)?),
                "move-time" => self.move_time = Some(seconds("move-time", value)?),
                "moves" => self.moves = Some(whole("moves", 0, 10_000)? as u32).filter(|&m| m > 0),
                "time" => self.time = Some(seconds("time", value)?),
                "inc" => self.inc = seconds("inc", value)?,
                "infinite" => self.infinite = true,
                _ => {}
            }
        }
        Ok(())
    }

    /// The search limits. The increment counts as added before the move (Scan's reading, which
    /// pydraughts compensates by sending `time - inc`).
    pub fn limits(&self, analysis: bool) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            move_time: self.move_time,
            time_left: self.time.map(|time| time + self.inc),
            increment: self.inc,
            moves_to_go: self.moves,
            infinite: self.infinite,
            analysis,
        }
    }
}

/// Reports iterations as `info` lines.
struct HubInfo;

impl<R: Rules> InfoSink<R> for HubInfo {
    fn info(&mut self, info: &Info<R>) {
        let pv: Vec<String> = info.pv.iter().map(moves::to_hub::<R>).collect();
        let seconds = info.time.as_secs_f64();
        let nps = if seconds > 0.0 { info.nodes as f64 / seconds / 1e6 } else { 0.0 };
        // A move from the book or the databases says so (a key clients that do not know it
        // skip), rather than passing for a search of depth 1 and 0 nodes.
        let source = match info.source {
            Source::Search => String::new(),
            other => format!(" source={}", quote(other.label())),
        };
        emit(&format!(
            "info depth={} mean-depth={:.1} score={} nodes={} time={seconds:.3} nps={nps:.2} pv=\"{}\"{source}",
            info.depth,
            info.mean_depth,
            score_text(info.score),
            info.nodes,
            pv.join(" ")
        ));
    }
}

/// The Hub protocol's state between lines: the `level` lines since the last `pos` or `go`.
#[derive(Default)]
pub struct Hub {
    level: Level,
}

impl Protocol for Hub {
    /// The Hub protocol is defined on 10x10 and the Hub GUI never sends a param's default
    /// value, so Scan's default variant keeps damas a drop-in replacement.
    const DEFAULT_VARIANT: Variant = Variant::International;

    fn refuse(&self, message: &str) {
        emit(&error(message));
    }

    fn handle<R: Rules>(&mut self, session: &mut Session<R>, text: &str) -> Option<Exit> {
        let line = match tokenize(text) {
            Ok(line) => line,
            Err(message) if message == "missing command" => return None,
            Err(message) => {
                emit(&error(&message));
                return None;
            }
        };
        match line.command.as_str() {
            "hub" => handshake(&session.options).iter().for_each(|l| emit(l)),
            "set-param" => {
                let (Some(name), Some(value)) = (line.value("name"), line.value("value")) else {
                    emit(&error("set-param needs name=... value=..."));
                    return None;
                };
                match session.set_option(name, value) {
                    Ok(exit) => return exit,
                    Err(message) => emit(&error(&message)),
                }
            }
            "init" => {
                session.ready();
                emit("ready");
            }
            "new-game" => session.new_game(),
            "pos" => {
                if let Err(message) = set_position(session, &line) {
                    emit(&error(&message));
                }
                self.level = Level::default();
            }
            "level" => {
                if let Err(message) = self.level.add(&line) {
                    emit(&error(&message));
                }
            }
            "go" => {
                // Searches in the background while ping, stop and ponder-hit are answered at
                // once; any other line stops the search and is handled after `done`.
                let limits = self.level.limits(line.has("analyze"));
                self.level = Level::default();
                let result =
                    session.search(limits, line.has("ponder"), HubInfo, |text| {
                        match text.split_whitespace().next().unwrap_or("") {
                            "stop" => Urgent::Stop,
                            "ponder-hit" => Urgent::PonderHit,
                            "ping" => Urgent::Reply("pong"),
                            "" => Urgent::Ignore,
                            _ => Urgent::StopAndLater,
                        }
                    });
                emit(&done::<R>(result.best, result.ponder));
            }
            "ping" => emit("pong"),
            "stop" | "ponder-hit" => {}
            "quit" => return Some(Exit::Quit),
            other => emit(&error(&format!("unknown command {other}"))),
        }
        None
    }
}

/// Sets the game a `pos` line describes: `pos=` (Hub string or PDN FEN) or `start`, then
/// `moves=` in Hub notation. On an error the game stays as it was.
fn set_position<R: Rules>(session: &mut Session<R>, line: &Line) -> Result<(), String> {
    let start = match line.value("pos") {
        Some(text) if text.contains(':') => fen::parse::<R>(text).map_err(|e| e.to_string())?,
        Some(text) => hub_position::parse::<R>(text).map_err(|e| e.to_string())?,
        None if line.has("start") => Position::start(),
        None => return Err("pos needs pos=... or start".to_string()),
    };
    let moves = line.value("moves").unwrap_or("").split_whitespace();
    session.set_game(start, moves, Notation::HubFirst).map_err(|e| format!("illegal {e}"))
}

/// The `done` line: `move=` first (pydraughts takes the first argument as the move).
fn done<R: Rules>(best: Option<MoveOf<R>>, ponder: Option<MoveOf<R>>) -> String {
    match (best, ponder) {
        (Some(best), Some(ponder)) => {
            format!(
                "done move={} ponder={}",
                moves::to_hub::<R>(&best),
                moves::to_hub::<R>(&ponder)
            )
        }
        (Some(best), None) => format!("done move={}", moves::to_hub::<R>(&best)),
        _ => "done".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizer_follows_scan() {
        let line = tokenize("pos pos=Wbbe moves=\"32-28 19-23\" start").unwrap();
        assert_eq!(line.command, "pos");
        assert_eq!(line.value("pos"), Some("Wbbe"));
        assert_eq!(line.value("moves"), Some("32-28 19-23"));
        assert!(line.has("start") && line.value("start").is_none());
        let spaced = tokenize("  set-param  name = variant value= \"\"  ").unwrap();
        assert_eq!(spaced.value("name"), Some("variant"));
        assert_eq!(spaced.value("value"), Some(""));
        assert!(tokenize("").is_err());
        assert!(tokenize("go x=\"open").is_err());
        assert!(tokenize("go =3").is_err());
        assert!(tokenize("level time=").is_err());
    }

    #[test]
    fn quoting_and_scores() {
        assert_eq!(quote("abc"), "abc");
        assert_eq!(quote("a b"), "\"a b\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("x=y"), "\"x=y\"");
        assert_eq!(score_text(Score::new(25)), "0.25");
        assert_eq!(score_text(Score::new(-300)), "-3.00");
        assert_eq!(score_text(Score::new(crate::search::WIN - 5)), "99.95");
        assert_eq!(score_text(Score::new(-(crate::search::WIN - 12))), "-99.88");
    }

    #[test]
    fn level_forms() {
        let mut level = Level::default();
        level.add(&tokenize("level moves=40 time=-2.5 inc=2").unwrap()).unwrap();
        let limits = level.limits(false);
        assert_eq!(limits.moves_to_go, Some(40));
        assert_eq!(limits.time_left, Some(Duration::from_secs(2)));
        assert_eq!(limits.increment, Duration::from_secs(2));
        let mut level = Level::default();
        level.add(&tokenize("level move-time=0.25").unwrap()).unwrap();
        level.add(&tokenize("level depth=7 nodes=1e6 infinite handicap=3").unwrap()).unwrap();
        let limits = level.limits(true);
        assert_eq!(limits.move_time, Some(Duration::from_millis(250)));
        assert_eq!((limits.depth, limits.nodes), (Some(7), Some(1_000_000)));
        assert!(limits.infinite && limits.analysis);
        assert!(Level::default().add(&tokenize("level time=abc").unwrap()).is_err());
        for bad in ["depth=-1", "depth=0", "depth=1001", "nodes=-1", "nodes=0", "moves=-3"] {
            let mut level = Level::default();
            level.add(&tokenize("level depth=5").unwrap()).unwrap();
            let error = level.add(&tokenize(&format!("level nodes=9 {bad}")).unwrap());
            assert!(error.expect_err(bad).contains("out of range"), "{bad}");
            // Nothing of a refused line is kept.
            assert_eq!((level.depth, level.nodes), (Some(5), None), "{bad}");
        }
    }

    #[test]
    fn params() {
        let mut options = default_options();
        options.set("variant", "bt").unwrap();
        assert_eq!(options.variant, Variant::Breakthrough);
        options.set("tt-size", "22").unwrap();
        assert_eq!(options.hash, 64);
        assert!(options.set("threads", "0").is_err());
        assert!(options.set("variant", "chess").is_err());
        options.set("initial-time", "300").unwrap();
        let names = variant_names();
        for name in ["normal", "bt", "losing", "frisian", "russian", "brazilian", "english"] {
            assert!(names.contains(&name), "{name}");
            assert!(name.parse::<Variant>().is_ok());
        }
    }
}
