//! The text mode for people at a terminal: the binary started with no arguments and no
//! protocol handshake. Commands: `help`, `variant`, `fen`, `new`, `show`, `moves`, `play`,
//! `undo`, `go`, `analyze`, `stop`, `perft`, `eval`, `quit`. Errors are one readable line; the
//! session goes on.

use super::{Background, Event, Input, Options, Urgent, configure, emit, supervise};
use crate::analyze::{describe, line as pdn_line};
use crate::eval::Evaluator;
use crate::game::{Game, Outcome};
use crate::movegen::perft::{Convention, perft_threads};
use crate::notation::{diagram, fen, moves};
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::search::{Engine, Info, InfoSink, Limits};
use crate::with_variant;
use std::time::{Duration, Instant};

const HELP: &str = "\
commands:
  help                 this list
  variant [NAME]       show or change the rule set (see `damas variants`); starts a new game
  fen [FEN]            show the position as a PDN FEN, or set it
  new                  the start position
  show                 draw the board
  moves                the legal moves
  play MOVE...         play moves (PDN like 11-15 or 22x15, or Hub like 22x15x18)
  undo                 take back the last move
  go [SECONDS|depth N] the engine searches (default 2 s) and plays its move
  analyze [SECONDS]    search without playing, until `stop` (or for SECONDS)
  stop                 stop the search
  perft N              count the positions N plies ahead (N up to 10)
  eval                 the static evaluation, for the side to move
  threads N, hash MB   search threads and table size
  level N, multipv N   playing strength 1-20 (20: full), lines shown by analyze
  quit                 leave
protocol modes: start with `damas hub` (Hub, for GUIs and pydraughts), `damas uci`, `damas dxp`.";

/// Deepest perft the text mode runs (it blocks the session; `damas perft` has no limit).
const MAX_PERFT: u32 = 10;

/// Prints each completed iteration as a readable line.
struct TextInfo<R: Rules> {
    root: Position<R>,
}

impl<R: Rules> InfoSink<R> for TextInfo<R> {
    fn info(&mut self, info: &Info<R>) {
        emit(&format!(
            "depth {:>2}  score {:>10}  nodes {:>11}  time {:>6.2}s  pv {}",
            info.depth,
            describe(info.score),
            info.nodes,
            info.time.as_secs_f64(),
            pdn_line(&self.root, &info.pv).join(" ")
        ));
    }
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
    fn handle(&mut self, text: &str, input: &mut Input) -> Option<Exit> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let &command = words.first()?;
        let rest = &words[1..];
        let result = match command {
            "help" | "?" => {
                emit(HELP);
                Ok(())
            }
            "quit" | "exit" => return Some(Exit::Quit),
            "variant" => match rest.first() {
                None => {
                    emit(&format!("variant {}", R::VARIANT.name()));
                    Ok(())
                }
                Some(name) => match name.parse::<Variant>() {
                    Ok(variant) => {
                        self.options.variant = variant;
                        emit(&format!("variant {}", variant.name()));
                        return Some(Exit::Switch);
                    }
                    Err(e) => Err(e.to_string()),
                },
            },
            "fen" if rest.is_empty() => {
                emit(&fen::write(self.game.position()));
                Ok(())
            }
            "fen" => fen::parse::<R>(&rest.join("")).map_err(|e| e.to_string()).map(|start| {
                self.game = Game::new(start);
            }),
            "new" => {
                self.game = Game::new(Position::start());
                Ok(())
            }
            "show" | "d" => {
                self.show();
                Ok(())
            }
            "moves" => {
                let position = *self.game.position();
                let list = self.game.legal_moves();
                let texts: Vec<String> =
                    list.iter().map(|mv| moves::to_pdn(&position, mv)).collect();
                emit(&format!("{} legal: {}", texts.len(), texts.join(" ")));
                Ok(())
            }
            "play" | "move" => self.play(rest),
            "undo" | "back" => {
                if self.game.undo() {
                    Ok(())
                } else {
                    Err("no move to take back".to_string())
                }
            }
            "go" | "analyze" | "analyse" => return self.search(command == "go", rest, input),
            "stop" => Ok(()),
            "perft" => match rest.first().and_then(|d| d.parse::<u32>().ok()) {
                Some(depth) if depth <= MAX_PERFT => {
                    let started = Instant::now();
                    let count = perft_threads(self.game.position(), depth, Convention::Unique, 1);
                    emit(&format!(
                        "perft {depth} = {count} ({:.3} s)",
                        started.elapsed().as_secs_f64()
                    ));
                    Ok(())
                }
                _ => Err(format!(
                    "perft needs a depth from 0 to {MAX_PERFT} here (`damas perft` goes deeper)"
                )),
            },
            "eval" => {
                let score = Evaluator::<R>::new().evaluate(self.game.position());
                emit(&format!("eval {} (for the side to move)", describe(score)));
                Ok(())
            }
            "threads" | "hash" | "level" | "multipv" => {
                let value = rest.first().copied().unwrap_or("");
                self.options.set(command, value).map(|()| self.engine = None)
            }
            other => Err(format!("unknown command '{other}' (type help)")),
        };
        if let Err(message) = result {
            emit(&format!("error: {message}"));
        }
        None
    }

    fn show(&self) {
        let position = self.game.position();
        let board = diagram::draw(position);
        emit(board.trim_end());
        emit(&format!("{} to move   FEN {}", position.side_to_move(), fen::write(position)));
    }

    fn play(&mut self, words: &[&str]) -> Result<(), String> {
        if words.is_empty() {
            return Err("play needs a move, e.g. play 11-15".to_string());
        }
        for text in words {
            let position = *self.game.position();
            let mv = moves::parse(&position, text)
                .or_else(|_| moves::parse_hub(&position, text))
                .map_err(|e| format!("{text}: {e}"))?;
            self.game.play(&mv).map_err(|e| format!("{text}: {e}"))?;
        }
        self.report_outcome();
        Ok(())
    }

    fn report_outcome(&self) {
        if let outcome @ (Outcome::Win(..) | Outcome::Draw(_)) = self.game.outcome() {
            emit(&format!("game over: {outcome}"));
        }
    }

    /// `go` (search and play) or `analyze` (search until stopped or for the given seconds).
    fn search(&mut self, play: bool, words: &[&str], input: &mut Input) -> Option<Exit> {
        let mut limits = Limits { analysis: !play, ..Limits::default() };
        match words {
            [] if play => limits.move_time = Some(Duration::from_secs(2)),
            [] => limits.infinite = true,
            ["depth", depth] => match depth.parse::<u32>() {
                Ok(depth) if depth > 0 => limits.depth = Some(depth),
                _ => {
                    emit("error: depth must be a positive whole number");
                    return None;
                }
            },
            [seconds] => match seconds.parse::<f64>() {
                Ok(s) if s.is_finite() && s > 0.0 => {
                    limits.move_time = Some(Duration::from_secs_f64(s.min(1e6)));
                }
                _ => {
                    emit("error: give the time in seconds, e.g. go 5");
                    return None;
                }
            },
            _ => {
                emit("error: go [SECONDS | depth N], analyze [SECONDS]");
                return None;
            }
        }
        if self.game.legal_moves().is_empty() {
            emit("error: no legal move in this position");
            return None;
        }
        let engine = configure(self.engine.take(), &self.options);
        let root = *self.game.position();
        let search =
            Background::start(engine, self.game.clone(), limits, false, TextInfo { root }, input);
        let (engine, result) =
            supervise(search, input, |text| match text.split_whitespace().next().unwrap_or("") {
                "stop" | "" => Urgent::Stop,
                // Any other command ends the search first, then runs.
                _ => Urgent::StopAndLater,
            });
        self.engine = Some(engine);
        if let Some(best) = result.best {
            let text = moves::to_pdn(&root, &best);
            emit(&format!("best move {text}  ({})", describe(result.score)));
            if play {
                self.game.play_unchecked(&best);
                emit(&format!("played {text}"));
                self.report_outcome();
            }
        }
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

/// Runs the text mode on `input` until `quit` or the end of input.
pub fn run(mut input: Input) {
    let mut options = Options::with_variant(Variant::English);
    loop {
        let variant = options.variant;
        if let Exit::Quit = with_variant!(variant, R => session::<R>(&mut options, &mut input)) {
            return;
        }
    }
}
