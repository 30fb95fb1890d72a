//! The text mode for people at a terminal: the binary started with no arguments and no
//! protocol handshake. Commands: `help`, `variant`, `fen`, `new`, `show`, `moves`, `play`,
//! `undo`, `go`, `analyze`, `stop`, `perft`, `eval`, `quit`. Errors are one readable line; the
//! session goes on.

use super::options::{Kind, OPTIONS};
use super::session::{Exit, Protocol, Session, words};
use super::{Urgent, emit};
use crate::game::replay::Notation;
use crate::game::{Game, Outcome};
use crate::movegen::perft::{Convention, perft_threads};
use crate::notation::{diagram, fen, moves};
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::search::{Info, InfoSink, Limits, Score, Source};
use std::time::{Duration, Instant};

/// The commands, before the options (which come from the option table).
const HELP: &str = "\
commands:
  help                 this list
  variant [NAME]       show or change the rule set (see `damas variants`); starts a new game
  fen [FEN]            show the position as a PDN FEN, or set it
  new                  the start position
  show                 draw the board
  board on|off         draw it after every move too (on at a terminal)
  moves                the legal moves
  play MOVE...         play moves (PDN like 11-15 or 22x15, or Hub like 22x15x18)
  undo                 take back the last move
  go [SECONDS|depth N] the engine searches (default 2 s) and plays its move
  analyze [SECONDS]    search without playing, until `stop` (or for SECONDS)
  stop                 stop the search
  perft N              count the positions N plies ahead (N up to 10)
  eval                 the static evaluation, for the side to move
  quit                 leave
options (type NAME VALUE):";

/// The last line of the help.
const MODES: &str = "protocol modes: start with `damas hub` (Hub, for GUIs and pydraughts), \
`damas uci`, `damas dxp`.";

/// The help: the commands, one line per option of the table (the variant has its own
/// command), and the protocol modes.
fn help(session_options: &super::Options) -> String {
    let mut text = HELP.to_string();
    for spec in OPTIONS.iter().filter(|spec| spec.kind != Kind::Variant) {
        let range = match spec.kind {
            Kind::Int { min, max } => format!("{min}-{max}"),
            Kind::Bool => "true|false".to_string(),
            Kind::Choice(words) => words.join("|"),
            Kind::Text if spec.name == "search-params" => "NAME:VALUE,...".to_string(),
            Kind::Text => "FILE".to_string(),
            Kind::Variant => String::new(),
        };
        let usage = format!("{} {range}", spec.name);
        text.push_str(&format!(
            "\n  {usage:<20} {} (now {})",
            spec.help,
            session_options.value(spec)
        ));
    }
    text.push('\n');
    text.push_str(MODES);
    text
}

/// Deepest perft the text mode runs (it blocks the session; `damas perft` has no limit).
const MAX_PERFT: u32 = 10;

/// Prints each completed iteration as a readable line.
struct TextInfo<R: Rules> {
    root: Position<R>,
}

impl<R: Rules> InfoSink<R> for TextInfo<R> {
    fn info(&mut self, info: &Info<R>) {
        if info.source != Source::Search {
            emit(&format!(
                "{}  score {:>10}  pv {}",
                info.source.label(),
                info.score.to_string(),
                moves::line_to_pdn(&self.root, &info.pv).join(" ")
            ));
            return;
        }
        emit(&format!(
            "depth {:>2}  score {:>10}  nodes {:>11}  time {:>6.2}s  pv {}",
            info.depth,
            info.score.to_string(),
            info.nodes,
            info.time.as_secs_f64(),
            moves::line_to_pdn(&self.root, &info.pv).join(" ")
        ));
    }
}

/// The text mode. For a person at a terminal it greets, prompts and draws the board after every
/// move; for a script (input not a terminal) it writes only the answers, unless `board on`.
pub struct Text {
    /// The input is a terminal: a person types.
    interactive: bool,
    /// Draw the board after each command that changes the position.
    board: bool,
}

impl Default for Text {
    fn default() -> Self {
        use std::io::IsTerminal;
        let interactive = std::io::stdin().is_terminal();
        Text { interactive, board: interactive }
    }
}

/// What the text mode says first to a person at a terminal.
pub fn greeting() -> String {
    format!(
        "damas {}: draughts and checkers engine, English checkers to start with (`variant` \
         changes it); type help for the commands, quit to leave.",
        env!("CARGO_PKG_VERSION")
    )
}

impl Protocol for Text {
    /// English checkers, the default everywhere outside Hub mode; the `variant` command starts
    /// a game of another rule set.
    const DEFAULT_VARIANT: Variant = Variant::English;

    fn refuse(&self, message: &str) {
        emit(&format!("error: {message}"));
    }

    fn prompt(&self) {
        if self.interactive {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = write!(out, "> ");
            let _ = out.flush();
        }
    }

    fn handle<R: Rules>(&mut self, session: &mut Session<R>, text: &str) -> Option<Exit> {
        let (command, rest) = words(text)?;
        let rest = rest.as_slice();
        let before = (*session.game.position(), session.game.moves().count());
        let exit = self.command(session, command, rest);
        let after = (*session.game.position(), session.game.moves().count());
        // Only commands that play, take back or set up change the position or the move count.
        if self.board && before != after {
            show(&session.game);
        }
        exit
    }
}

impl Text {
    /// Runs one command. `Some` leaves the session (`quit`) or starts it again in another
    /// rule set (`variant NAME`); an error is one line, and the session goes on.
    fn command<R: Rules>(
        &mut self,
        session: &mut Session<R>,
        command: &str,
        rest: &[&str],
    ) -> Option<Exit> {
        let result = match command {
            "help" | "?" => {
                emit(&help(&session.options));
                Ok(())
            }
            "quit" | "exit" => return Some(Exit::Quit),
            "variant" => match variant(session, rest) {
                Ok(Some(exit)) => return Some(exit),
                other => other.map(|_| ()),
            },
            "fen" => fen_command(session, rest),
            "new" => {
                session.game = session.fresh_game(Position::start());
                Ok(())
            }
            "show" | "d" => {
                show(&session.game);
                Ok(())
            }
            "board" => self.board_command(rest),
            "moves" => {
                list_moves(&session.game);
                Ok(())
            }
            "play" | "move" => play(session, rest),
            "undo" | "back" => undo(session),
            "go" | "analyze" | "analyse" => {
                search(session, command == "go", rest);
                Ok(())
            }
            "stop" => Ok(()),
            "perft" => perft(&session.game, rest),
            "eval" => {
                let score = Score::new(session.evaluate());
                emit(&format!("eval {score} (for the side to move)"));
                Ok(())
            }
            name if OPTIONS.iter().any(|spec| spec.name == name && spec.kind != Kind::Variant) => {
                let value = rest.first().copied().unwrap_or("");
                session.set_option(name, value).map(|_| ())
            }
            other => Err(format!("unknown command '{other}' (type help)")),
        };
        if let Err(message) = result {
            emit(&format!("error: {message}"));
        }
        None
    }

    /// `board on|off`.
    fn board_command(&mut self, rest: &[&str]) -> Result<(), String> {
        match rest {
            ["on"] => self.board = true,
            ["off"] => self.board = false,
            _ => return Err("board on|off".to_string()),
        }
        Ok(())
    }
}

/// `variant`: the rule set's name; `variant NAME`: a new game in that rule set.
fn variant<R: Rules>(session: &mut Session<R>, rest: &[&str]) -> Result<Option<Exit>, String> {
    let Some(name) = rest.first() else {
        emit(&format!("variant {}", R::VARIANT.name()));
        return Ok(None);
    };
    let variant = name.parse::<Variant>().map_err(|e| e.to_string())?;
    session.options.variant = variant;
    emit(&format!("variant {}", variant.name()));
    Ok(Some(Exit::Switch))
}

/// `fen`: the position as a PDN FEN; `fen FEN`: a new game from that position.
fn fen_command<R: Rules>(session: &mut Session<R>, rest: &[&str]) -> Result<(), String> {
    if rest.is_empty() {
        emit(&fen::write(session.game.position()));
        return Ok(());
    }
    let start = fen::parse::<R>(&rest.join("")).map_err(|e| e.to_string())?;
    session.game = session.fresh_game(start);
    Ok(())
}

/// `moves`: the legal moves in PDN.
fn list_moves<R: Rules>(game: &Game<R>) {
    let position = *game.position();
    let texts: Vec<String> =
        game.legal_moves().iter().map(|mv| moves::to_pdn(&position, mv)).collect();
    emit(&format!("{} legal: {}", texts.len(), texts.join(" ")));
}

/// `play MOVE...`: plays the moves in turn and says, in PDN, those that were played, even
/// when a later one is refused.
fn play<R: Rules>(session: &mut Session<R>, rest: &[&str]) -> Result<(), String> {
    if rest.is_empty() {
        return Err("play needs a move, e.g. play 11-15".to_string());
    }
    let before = session.game.moves().count();
    let played = session.play(rest.iter().copied(), Notation::PdnFirst);
    let mut replay = Game::new(*session.game.start());
    let mut texts = Vec::new();
    for (i, mv) in session.game.moves().enumerate() {
        if i >= before {
            texts.push(moves::to_pdn(replay.position(), mv));
        }
        replay.play_unchecked(mv);
    }
    if !texts.is_empty() {
        emit(&format!(
            "played {}; {} to move",
            texts.join(" "),
            session.game.position().side_to_move()
        ));
    }
    played.map(|()| report_outcome(&session.game)).map_err(|e| format!("{}: {}", e.text, e.reason))
}

/// `undo`: takes back the last move.
fn undo<R: Rules>(session: &mut Session<R>) -> Result<(), String> {
    let last = session.game.moves().last().copied();
    if !session.game.undo() {
        return Err("no move to take back".to_string());
    }
    let text = last.map(|mv| moves::to_pdn(session.game.position(), &mv));
    emit(&format!(
        "took back {}; {} to move",
        text.unwrap_or_default(),
        session.game.position().side_to_move()
    ));
    Ok(())
}

/// `perft N`, up to [`MAX_PERFT`] (it blocks the session).
fn perft<R: Rules>(game: &Game<R>, rest: &[&str]) -> Result<(), String> {
    match rest.first().and_then(|d| d.parse::<u32>().ok()) {
        Some(depth) if depth <= MAX_PERFT => {
            let started = Instant::now();
            let count = perft_threads(game.position(), depth, Convention::Unique, 1);
            emit(&format!("perft {depth} = {count} ({:.3} s)", started.elapsed().as_secs_f64()));
            Ok(())
        }
        _ => Err(format!(
            "perft needs a depth from 0 to {MAX_PERFT} here (`damas perft` goes deeper)"
        )),
    }
}

fn show<R: Rules>(game: &Game<R>) {
    let position = game.position();
    let board = diagram::draw(position);
    emit(board.trim_end());
    emit(&format!("{} to move   FEN {}", position.side_to_move(), fen::write(position)));
}

fn report_outcome<R: Rules>(game: &Game<R>) {
    if let outcome @ (Outcome::Win(..) | Outcome::Draw(_)) = game.outcome() {
        emit(&format!("game over: {outcome}"));
    }
}

/// `go` (search and play) or `analyze` (search until stopped or for the given seconds).
/// During a search with a limit: `stop` stops it; every other line, `quit` and the end of input
/// included, waits for it to reach its limit.
fn classify_bounded(text: &str) -> Urgent {
    match text.split_whitespace().next().unwrap_or("") {
        "stop" | "" => Urgent::Stop,
        _ => Urgent::Later,
    }
}

/// During an open-ended analysis: any command ends it first, then runs.
fn classify_open(text: &str) -> Urgent {
    match text.split_whitespace().next().unwrap_or("") {
        "stop" | "" => Urgent::Stop,
        _ => Urgent::StopAndLater,
    }
}

fn search<R: Rules>(session: &mut Session<R>, play: bool, words: &[&str]) {
    let mut limits = Limits { analysis: !play, ..Limits::default() };
    match words {
        [] if play => limits.move_time = Some(Duration::from_secs(2)),
        [] => limits.infinite = true,
        ["depth", depth] => match depth.parse::<u32>() {
            Ok(depth) if depth > 0 => limits.depth = Some(depth),
            _ => {
                emit("error: depth must be a positive whole number");
                return;
            }
        },
        [seconds] => match seconds.parse::<f64>() {
            Ok(s) if s.is_finite() && s > 0.0 => {
                limits.move_time = Some(Duration::from_secs_f64(s.min(1e6)));
            }
            _ => {
                emit("error: give the time in seconds, e.g. go 5");
                return;
            }
        },
        _ => {
            emit("error: go [SECONDS | depth N], analyze [SECONDS]");
            return;
        }
    }
    if session.game.legal_moves().is_empty() {
        emit("error: no legal move in this position");
        return;
    }
    let root = *session.game.position();
    // A search with a limit (`go 5`, `go depth 12`) runs to it, and the commands typed or piped
    // meanwhile wait for it: a script's next line must not cut it short. An open-ended one
    // (`analyze`) ends at any command, which then runs.
    let bounded = limits.depth.is_some() || limits.move_time.is_some();
    let classify: fn(&str) -> Urgent = if bounded { classify_bounded } else { classify_open };
    let result = session.search(limits, false, TextInfo { root }, classify);
    if let Some(best) = result.best {
        let text = moves::to_pdn(&root, &best);
        emit(&format!("best move {text}  ({})", result.score));
        if play {
            session.game.play_unchecked(&best);
            emit(&format!("played {text}"));
            report_outcome(&session.game);
        }
    }
}
