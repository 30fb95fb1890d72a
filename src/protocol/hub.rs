//! The Hub protocol (Scan's `protocol.txt`, version 2) on stdin/stdout, as the Hub GUI,
//! pydraughts and lidraughts-bot speak it: `hub` / `id` / `param` / `wait`, `set-param`, `init` /
//! `ready`, `new-game`, `pos`, `level`, `go think|ponder|analyze`, `ponder-hit`, `stop`, `ping`,
//! `quit`; replies `info`, `done`, `pong`, `error`. Details and client quirks:
//! ../shared/reference/protocols.md sections 1 and 3.
//!
//! Positions arrive as Scan's string (pydraughts' square order on 8x8 boards) or as a PDN FEN;
//! moves in Hub notation (`from-to`, `fromxtoxcaptured...`) in the variant's own numbering.
//! Nothing is ever written to stderr in this mode: pydraughts reads it as protocol.

use super::{
    Background, Event, Input, MAX_HASH, MAX_THREADS, Options, Urgent, configure, emit, supervise,
    variant_names,
};
use crate::game::Game;
use crate::notation::{fen, hub as hub_position, moves};
use crate::position::{MoveOf, Position};
use crate::rules::{Rules, Variant};
use crate::search::{Engine, Info, InfoSink, Limits, MAX_LEVEL, Score, WIN, WIN_BOUND};
use crate::with_variant;
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

/// An `error` line.
fn error(message: &str) -> String {
    format!("error message={}", quote(message))
}

/// A score in men, as Hub clients read it: a win in `n` plies is `100 - n/100` (Scan's
/// encoding, 99.xx), a loss its negative.
pub fn score_text(score: Score) -> String {
    let value = if score >= WIN_BOUND {
        100.0 - f64::from(WIN - score) / 100.0
    } else if score <= -WIN_BOUND {
        -100.0 + f64::from(WIN + score) / 100.0
    } else {
        f64::from(score) / 100.0
    };
    format!("{value:.2}")
}

/// The Hub name of a variant (Scan's names where Scan has one).
fn hub_name(variant: Variant) -> &'static str {
    match variant {
        Variant::International => "normal",
        other => other.name(),
    }
}

/// The options Hub mode starts with. The Hub protocol is defined on 10x10 and the Hub GUI never
/// sends a param's default value, so Scan's default variant keeps damas a drop-in replacement.
pub fn default_options() -> Options {
    Options::with_variant(Variant::International)
}

/// The `id`, `param` and `wait` lines answering `hub`.
pub fn handshake(options: &Options) -> Vec<String> {
    vec![
        format!(
            "id name=damas version={} author={} country=none",
            env!("CARGO_PKG_VERSION"),
            quote("the damas developers")
        ),
        format!(
            "param name=variant value={} type=enum values={}",
            hub_name(options.variant),
            quote(&variant_names().join(" "))
        ),
        format!("param name=threads value={} type=int min=1 max={MAX_THREADS}", options.threads),
        format!("param name=hash value={} type=int min=1 max={MAX_HASH}", options.hash),
        format!("param name=ponder value={} type=bool", options.ponder),
        format!("param name=level value={} type=int min=1 max={MAX_LEVEL}", options.level),
        "wait".to_string(),
    ]
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
    /// Adds the arguments of one `level` line. Unknown arguments (`handicap`) are ignored.
    ///
    /// # Errors
    /// A value that is not a number.
    pub fn add(&mut self, line: &Line) -> Result<(), String> {
        for arg in &line.args {
            let value = arg.value.as_deref();
            let whole = |name: &str| -> Result<u64, String> {
                let text = value.ok_or_else(|| format!("level {name} needs a value"))?;
                text.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .map(|v| v.clamp(0.0, 1e18) as u64)
                    .ok_or_else(|| format!("level {name}={text} is not a number"))
            };
            match arg.name.as_str() {
                "depth" => self.depth = Some(whole("depth")?.clamp(1, 1000) as u32),
                "nodes" => self.nodes = Some(whole("nodes")?.max(1)),
                "move-time" => self.move_time = Some(seconds("move-time", value)?),
                "moves" => self.moves = Some(whole("moves")?.min(10_000) as u32).filter(|&m| m > 0),
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
        emit(&format!(
            "info depth={} mean-depth={:.1} score={} nodes={} time={seconds:.3} nps={nps:.2} pv=\"{}\"",
            info.depth,
            info.mean_depth,
            score_text(info.score),
            info.nodes,
            pv.join(" ")
        ));
    }
}

/// How the session ends.
enum Exit {
    /// `quit` or the end of input.
    Quit,
    /// `set-param name=variant` chose another rule set.
    Switch,
}

/// A session on rule set `R`.
struct Session<R: Rules> {
    options: Options,
    engine: Option<Engine<R>>,
    game: Game<R>,
    level: Level,
}

impl<R: Rules> Session<R> {
    fn new(options: Options) -> Self {
        Session {
            options,
            engine: None,
            game: Game::new(Position::start()),
            level: Level::default(),
        }
    }

    fn engine(&mut self) -> Engine<R> {
        configure(self.engine.take(), &self.options)
    }

    /// Handles one line while no search runs.
    fn handle(&mut self, text: &str, input: &mut Input) -> Option<Exit> {
        let line = match tokenize(text) {
            Ok(line) => line,
            Err(message) if message == "missing command" => return None,
            Err(message) => {
                emit(&error(&message));
                return None;
            }
        };
        match line.command.as_str() {
            "hub" => handshake(&self.options).iter().for_each(|l| emit(l)),
            "set-param" => {
                let (Some(name), Some(value)) = (line.value("name"), line.value("value")) else {
                    emit(&error("set-param needs name=... value=..."));
                    return None;
                };
                let before = self.options.clone();
                match self.options.set(name, value) {
                    Err(message) => emit(&error(&message)),
                    Ok(()) if self.options.variant != before.variant => return Some(Exit::Switch),
                    Ok(()) => {
                        if let Some(engine) = &mut self.engine {
                            if self.options.threads != before.threads {
                                engine.set_threads(self.options.threads);
                            }
                            if self.options.hash != before.hash {
                                engine.set_hash(self.options.hash);
                            }
                        }
                    }
                }
            }
            "init" => {
                let engine = self.engine();
                self.engine = Some(engine);
                emit("ready");
            }
            "new-game" => {
                let mut engine = self.engine();
                engine.new_game();
                self.engine = Some(engine);
                self.game = Game::new(Position::start());
            }
            "pos" => {
                match self.position(&line) {
                    Ok(game) => self.game = game,
                    Err(message) => emit(&error(&message)),
                }
                self.level = Level::default();
            }
            "level" => {
                if let Err(message) = self.level.add(&line) {
                    emit(&error(&message));
                }
            }
            "go" => return self.go(&line, input),
            "ping" => emit("pong"),
            "stop" | "ponder-hit" => {}
            "quit" => return Some(Exit::Quit),
            other => emit(&error(&format!("unknown command {other}"))),
        }
        None
    }

    /// The game a `pos` line describes: `pos=` (Hub string or PDN FEN) or `start`, then `moves=`.
    fn position(&self, line: &Line) -> Result<Game<R>, String> {
        let start = match line.value("pos") {
            Some(text) if text.contains(':') => fen::parse::<R>(text).map_err(|e| e.to_string())?,
            Some(text) => hub_position::parse::<R>(text).map_err(|e| e.to_string())?,
            None if line.has("start") => Position::start(),
            None => return Err("pos needs pos=... or start".to_string()),
        };
        let mut game = Game::new(start);
        for (index, text) in line.value("moves").unwrap_or("").split_whitespace().enumerate() {
            let mv = moves::parse_hub(game.position(), text)
                .or_else(|_| moves::parse(game.position(), text))
                .map_err(|e| format!("illegal move {} ({text}): {e}", index + 1))?;
            if game.play(&mv).is_err() {
                // The move rules allow it (it parsed) but the game's history forbids it: a
                // king's fourth move in a row in Frisian, which pydraughts does not check. The
                // GUI keeps the game; the engine follows it rather than drop the position.
                log::warn!(
                    "move {} ({text}) breaks a rule of the game's history; accepted",
                    index + 1
                );
                game.play_unchecked(&mv);
            }
        }
        Ok(game)
    }

    /// `go think|ponder|analyze`: searches in the background while ping, stop and ponder-hit are
    /// answered at once; any other line stops the search and is handled after `done`.
    fn go(&mut self, line: &Line, input: &mut Input) -> Option<Exit> {
        let ponder = line.has("ponder");
        let limits = self.level.limits(line.has("analyze"));
        self.level = Level::default();
        let engine = self.engine();
        let search = Background::start(engine, self.game.clone(), limits, ponder, HubInfo, input);
        let (engine, result) =
            supervise(search, input, |text| match text.split_whitespace().next().unwrap_or("") {
                "stop" => Urgent::Stop,
                "ponder-hit" => Urgent::PonderHit,
                "ping" => Urgent::Reply("pong"),
                "" => Urgent::Ignore,
                _ => Urgent::StopAndLater,
            });
        self.engine = Some(engine);
        emit(&done::<R>(result.best, result.ponder));
        None
    }
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

fn session<R: Rules>(options: &mut Options, input: &mut Input) -> Exit {
    let mut session = Session::<R>::new(options.clone());
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

/// Runs the Hub protocol on `input` until `quit` or the end of input.
pub fn run(mut input: Input) {
    let mut options = default_options();
    loop {
        let variant = options.variant;
        let exit = with_variant!(variant, R => session::<R>(&mut options, &mut input));
        if let Exit::Quit = exit {
            return;
        }
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
        assert_eq!(score_text(25), "0.25");
        assert_eq!(score_text(-300), "-3.00");
        assert_eq!(score_text(WIN - 5), "99.95");
        assert_eq!(score_text(-(WIN - 12)), "-99.88");
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
