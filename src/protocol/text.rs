//! The text mode for people at a terminal: the binary started with no arguments and no
//! protocol handshake. Commands: `help`, `variant`, `fen`, `new`, `show`, `flip`, `moves`,
//! `play`, `undo`, `go`, `hint`, `analyze`, `stop`, `continue`, `save`, `load`, `perft`, `eval`,
//! `quit`, and the options by name. The board is drawn after every move of either side (at a
//! terminal), a finished game takes no more moves unless the user says `continue`, and errors
//! are one readable line; the session goes on.

use super::options::{Kind, OPTIONS};
use super::session::{Exit, Protocol, Session, words};
use super::{Urgent, emit};
use crate::bounded;
use crate::game::replay::{self, Notation};
use crate::game::{Game, Outcome};
use crate::movegen::perft::{Convention, perft_threads};
use crate::notation::{self, diagram, fen, moves, pdn};
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::search::{Info, InfoSink, Limits, Score, Source};
use std::time::{Duration, Instant};

/// The commands, before the options (which come from the option table).
const HELP: &str = "\
commands:
  help                 this list
  variant [NAME]       show or change the rule set (see `damas variants`); starts a new game
  fen [FEN]            show the position as a PDN FEN, or set it (a FEN or a Hub position)
  new                  the start position
  show                 draw the board
  board on|off         draw it after every move too (on at a terminal)
  flip                 turn the board around
  moves                the legal moves
  play MOVE...         play moves (PDN like 11-15 or 22x15, or Hub like 22x15x18)
  undo                 take back your last move (and the engine's reply to it)
  go [SECONDS|depth N] the engine searches (default 2 s) and plays its move
  hint [SECONDS]       the move the engine would play (default 1 s), not played
  analyze [SECONDS]    search without playing, until `stop` (or for SECONDS)
  stop                 stop the search
  continue             play on after the game has ended (a draw by repetition, say)
  save FILE            write the game to FILE in PDN
  load FILE            the first game of a PDN file (of this rule set), to its last move
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
    /// Draw it turned around (the second player at the bottom).
    flipped: bool,
    /// The plies (indexes into the game's moves) the engine played, so that `undo` takes back
    /// a whole move: the engine's reply and the user's move before it.
    engine_plies: Vec<usize>,
    /// The user said `continue` after the game ended: moves are taken again.
    going_on: bool,
}

impl Default for Text {
    fn default() -> Self {
        use std::io::IsTerminal;
        let interactive = std::io::stdin().is_terminal();
        Text {
            interactive,
            board: interactive,
            flipped: false,
            engine_plies: Vec::new(),
            going_on: false,
        }
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
            super::show_prompt();
        }
    }

    fn handle<R: Rules>(&mut self, session: &mut Session<R>, text: &str) -> Option<Exit> {
        let (command, rest) = words(text)?;
        let rest = rest.as_slice();
        let before = (*session.game.position(), session.game.moves().count());
        let exit = self.command(session, command, rest);
        let after = (*session.game.position(), session.game.moves().count());
        // Only commands that play, take back or set up change the position or the move count.
        // A game set up anew (`new`, `fen`, `load`, a take-back) forgets the plies it no longer
        // has.
        let plies = session.game.moves().count();
        self.engine_plies.retain(|&ply| ply < plies);
        if after.1 < before.1 || after.1 == 0 {
            self.going_on = false;
        }
        if self.board && before != after {
            show(&session.game, self.flipped);
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
            "fen" => self.fresh(fen_command(session, rest)),
            "new" => {
                session.game = session.fresh_game(Position::start());
                self.fresh(Ok(()))
            }
            "load" => self.fresh(load(session, rest)),
            "save" => save(&session.game, rest),
            "show" | "d" => {
                show(&session.game, self.flipped);
                Ok(())
            }
            "flip" => {
                self.flipped = !self.flipped;
                show(&session.game, self.flipped);
                Ok(())
            }
            "board" => self.board_command(rest),
            "moves" => {
                list_moves(&session.game);
                Ok(())
            }
            "play" | "move" => self.still_on(&session.game).and_then(|()| play(session, rest)),
            "undo" | "back" => self.undo(session),
            "continue" => match session.game.outcome() {
                Outcome::Win(..) | Outcome::Draw(_) => {
                    self.going_on = true;
                    emit("the game goes on past its end; `undo` or `new` to go back");
                    Ok(())
                }
                _ => Err("the game has not ended".to_string()),
            },
            "go" => self.still_on(&session.game).map(|()| {
                if search(session, Purpose::Play, rest) {
                    self.engine_plies.push(session.game.moves().count() - 1);
                }
            }),
            "hint" => {
                search(session, Purpose::Hint, rest);
                Ok(())
            }
            "analyze" | "analyse" => {
                search(session, Purpose::Analyze, rest);
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
                session.set_option(name, value).map(|_| {
                    // Said back as it now stands, so that a typo is not taken for a change.
                    if let Some(spec) = OPTIONS.iter().find(|spec| spec.name == name) {
                        emit(&format!("{name} is now {}", session.options.value(spec)));
                    }
                })
            }
            other => Err(format!("unknown command '{other}' (type help)")),
        };
        if let Err(message) = result {
            emit(&format!("error: {message}"));
        }
        None
    }

    /// A game set up anew: no engine plies, not past an end. Passes `result` on.
    fn fresh(&mut self, result: Result<(), String>) -> Result<(), String> {
        if result.is_ok() {
            self.engine_plies.clear();
            self.going_on = false;
        }
        result
    }

    /// Refuses a move once the game has ended, unless the user said `continue`.
    fn still_on<R: Rules>(&self, game: &Game<R>) -> Result<(), String> {
        match game.outcome() {
            outcome @ (Outcome::Win(..) | Outcome::Draw(_)) if !self.going_on => Err(format!(
                "the game is over ({outcome}): `new` starts another, `undo` takes back, \
                 `continue` plays on"
            )),
            _ => Ok(()),
        }
    }

    /// `undo`: takes back the user's last move, and the engine's reply after it if the last
    /// ply was the engine's.
    fn undo<R: Rules>(&mut self, session: &mut Session<R>) -> Result<(), String> {
        let plies = session.game.moves().count();
        let engine_last = plies > 0 && self.engine_plies.last() == Some(&(plies - 1));
        let count = if engine_last && plies >= 2 { 2 } else { 1 };
        let mut taken = Vec::new();
        for _ in 0..count {
            let last = session.game.moves().last().copied();
            if !session.game.undo() {
                break;
            }
            if let Some(mv) = last {
                taken.push(moves::to_pdn(session.game.position(), &mv));
            }
        }
        if taken.is_empty() {
            return Err("no move to take back".to_string());
        }
        taken.reverse();
        emit(&format!(
            "took back {}; {} to move",
            taken.join(" "),
            session.game.position().side_to_move()
        ));
        Ok(())
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
    let start = notation::position::<R>(&rest.join("")).map_err(|e| e.to_string())?;
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

/// The board a session at a terminal starts with: the default rule set's start.
pub fn show_start() {
    crate::with_variant!(Text::DEFAULT_VARIANT, R => show(&Game::new(Position::<R>::start()), false));
}

/// Draws the board (turned around when `flipped`) with whose turn it is and the FEN.
pub fn show<R: Rules>(game: &Game<R>, flipped: bool) {
    let position = game.position();
    let board = diagram::draw_oriented(position, flipped);
    emit(board.trim_end());
    emit(&format!("FEN {}", fen::write(position)));
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

/// What a search of the text mode is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// `go`: search and play the move.
    Play,
    /// `hint`: search and say the move.
    Hint,
    /// `analyze`: search until stopped (or for the given time).
    Analyze,
}

/// Runs the search `purpose` asks for with the limits in `words`; true when it played a move.
fn search<R: Rules>(session: &mut Session<R>, purpose: Purpose, words: &[&str]) -> bool {
    let play = purpose == Purpose::Play;
    let mut limits = Limits { analysis: purpose == Purpose::Analyze, ..Limits::default() };
    match words {
        [] if play => limits.move_time = Some(Duration::from_secs(2)),
        [] if purpose == Purpose::Hint => limits.move_time = Some(Duration::from_secs(1)),
        [] => limits.infinite = true,
        ["depth", depth] => match depth.parse::<u32>() {
            Ok(depth) if depth > 0 => limits.depth = Some(depth),
            _ => {
                emit("error: depth must be a positive whole number");
                return false;
            }
        },
        [seconds] => match seconds.parse::<f64>() {
            Ok(s) if s.is_finite() && s > 0.0 => {
                limits.move_time = Some(Duration::from_secs_f64(s.min(1e6)));
            }
            _ => {
                emit("error: give the time in seconds, e.g. go 5");
                return false;
            }
        },
        _ => {
            emit("error: go|hint [SECONDS | depth N], analyze [SECONDS]");
            return false;
        }
    }
    if session.game.legal_moves().is_empty() {
        emit("error: no legal move in this position");
        return false;
    }
    let root = *session.game.position();
    // A search with a limit (`go 5`, `go depth 12`) runs to it, and the commands typed or piped
    // meanwhile wait for it: a script's next line must not cut it short. An open-ended one
    // (`analyze`) ends at any command, which then runs.
    let bounded = limits.depth.is_some() || limits.move_time.is_some();
    let classify: fn(&str) -> Urgent = if bounded { classify_bounded } else { classify_open };
    let result = session.search(limits, false, TextInfo { root }, classify);
    let Some(best) = result.best else { return false };
    let text = moves::to_pdn(&root, &best);
    // The score is the last line's, for the side to move, as every line says.
    let from = match result.source {
        Source::Search => format!("depth {}", result.depth),
        other => other.label().to_string(),
    };
    let side = root.side_to_move();
    match purpose {
        Purpose::Hint => emit(&format!("hint {text}  ({} for {side}, {from})", result.score)),
        _ => emit(&format!("best move {text}  ({} for {side}, {from})", result.score)),
    }
    if !play {
        return false;
    }
    session.game.play_unchecked(&best);
    emit(&format!("played {text}; {} to move", session.game.position().side_to_move()));
    report_outcome(&session.game);
    true
}

/// `save FILE`: the game in PDN (tags, moves, result).
fn save<R: Rules>(game: &Game<R>, rest: &[&str]) -> Result<(), String> {
    let [path] = rest else { return Err("save FILE".to_string()) };
    let mut tags = vec![("Event".to_string(), "damas text mode".to_string())];
    if let Some(number) = R::VARIANT.pdn_game_type() {
        tags.push(("GameType".to_string(), number.to_string()));
    }
    if game.start() != &Position::start() {
        tags.push(("SetUp".to_string(), "1".to_string()));
        tags.push(("FEN".to_string(), fen::write(game.start())));
    }
    let mut position = *game.start();
    let mut written = Vec::new();
    for mv in game.moves() {
        written.push((moves::to_pdn(&position, mv), None));
        position.play(mv);
    }
    let result = game.outcome().pdn_result::<R>();
    tags.push(("Result".to_string(), result.to_string()));
    let text = pdn::write(&tags, &written, result);
    std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
    emit(&format!("saved {} moves to {path}", written.len()));
    Ok(())
}

/// `load FILE`: the first game of a PDN file, in this rule set, played to its last move.
fn load<R: Rules>(session: &mut Session<R>, rest: &[&str]) -> Result<(), String> {
    let [path] = rest else { return Err("load FILE".to_string()) };
    let bytes = bounded::read(std::path::Path::new(path), bounded::PDN)?;
    let game = pdn::parse(&pdn::decode(&bytes)).map_err(|e| format!("{path}: {e}"))?;
    let (variant, guess) = replay::rule_set_of(&game)?;
    if variant != R::VARIANT && (guess.is_none() || replay::replay_pdn::<R>(&game).is_err()) {
        let why = guess.map_or(String::new(), |guess| format!(" ({guess})"));
        return Err(format!(
            "{path} holds a game of {0}{why}: type `variant {0}`, then load it",
            variant.name()
        ));
    }
    let start = replay::start_of::<R>(&game).map_err(|e| format!("{path}: {e}"))?;
    session
        .set_game(start, game.moves.iter().map(String::as_str), Notation::PdnFirst)
        .map_err(|e| format!("{path}: move {} '{}': {}", e.number, e.text, e.reason))?;
    emit(&format!(
        "loaded {} moves from {path}; {} to move",
        game.moves.len(),
        session.game.position().side_to_move()
    ));
    report_outcome(&session.game);
    Ok(())
}
