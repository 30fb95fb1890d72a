//! The session behind every stdin protocol: one object that owns the options, the engine, the
//! game and the search running in the background, chosen once per variant at the edge
//! ([`run`]). Hub, UCI and the text mode are [`Protocol`]s: they only turn lines into calls on
//! the [`Session`] and its results into lines.
//!
//! Depends on `game`, `search` and the sibling modules; writes nothing itself.

use super::{Background, Event, Input, Options, Urgent, supervise};
use crate::book::{self, Book};
use crate::egdb::{self, Egdb};
use crate::eval::Evaluator;
use crate::game::replay::{Notation, ReplayError, play_moves};
use crate::game::rules::DrawRuleSet;
use crate::game::{Game, GameRules};
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::search::{
    Engine, EngineConfig, InfoSink, Limits, SearchResult, TranspositionTable, Value,
};
use crate::with_variant;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How a line leaves the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `quit` or the end of input.
    Quit,
    /// The variant option changed: the session starts again on the new rule set, keeping the
    /// options.
    Switch,
}

/// A front end: reads its own lines, drives the [`Session`], writes its own replies. Its value
/// is what it keeps between lines (Hub's pending `level`), started afresh with each variant.
pub trait Protocol: Default {
    /// The rule set a session starts with.
    const DEFAULT_VARIANT: Variant;

    /// Handles one line while no search runs.
    fn handle<R: Rules>(&mut self, session: &mut Session<R>, line: &str) -> Option<Exit>;

    /// Says that the next line is awaited (the text mode's prompt, for a person at a terminal).
    fn prompt(&self) {}

    /// Answers a line that could not be taken (one longer than
    /// [`crate::bounded::MAX_INPUT_LINE`] bytes) with the protocol's error.
    fn refuse(&self, message: &str);
}

/// A line's first word and the words after it (None for a blank line).
pub fn words(line: &str) -> Option<(&str, Vec<&str>)> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    Some((first, words.collect()))
}

/// The state of a session on rule set `R`.
pub struct Session<R: Rules> {
    /// The options, kept across variants.
    pub options: Options,
    /// The engine, built on first use and kept between searches (its tables stay warm).
    engine: Option<Engine<R>>,
    /// The game the next search starts from.
    pub game: Game<R>,
    /// The protocol's input (it goes on to the next session after a change of variant).
    input: Input,
}

impl<R: Rules> Session<R> {
    fn new(options: Options, input: Input) -> Self {
        let game = Game::with_rules(Position::start(), Self::rules_of(&options));
        Session { options, engine: None, game, input }
    }

    /// The rules of the whole game the options choose (draw rules, compulsory capture).
    fn rules_of(options: &Options) -> GameRules {
        let set = DrawRuleSet::from_name(&options.draw_rules).unwrap_or(DrawRuleSet::Default);
        GameRules::chosen::<R>(set, options.mandatory_capture)
    }

    /// A game from `start` under the rules the options choose: every game a protocol sets up
    /// starts here.
    pub fn fresh_game(&self, start: Position<R>) -> Game<R> {
        Game::with_rules(start, Self::rules_of(&self.options))
    }

    /// A session driven by calls rather than lines (the CheckerBoard library): it reads no
    /// input, and searches with [`Session::search_here`].
    pub fn hosted(options: Options) -> Self {
        Self::new(options, Input::none())
    }

    /// The evaluation the options choose.
    ///
    /// # Errors
    /// The weight file cannot be read or is not for this rule set.
    fn evaluator(options: &Options) -> Result<Evaluator<R>, String> {
        let file = (!options.eval_file.is_empty()).then(|| Path::new(&options.eval_file));
        Evaluator::chosen(&options.eval, file)
    }

    /// The endgame databases the options choose ([`egdb::open_option`]).
    fn egdb(options: &Options) -> Result<Option<Arc<Egdb<R>>>, String> {
        let egdb = egdb::open_option::<R>(
            &options.egdb_path,
            options.egdb_cache,
            options.egdb_pieces as u32,
        )?;
        Ok(egdb.map(Arc::new))
    }

    /// The opening book the options choose: none when `book` is off, else the `book-file`, or
    /// the book built in for the rule set.
    fn book(options: &Options) -> Result<Option<Arc<Book<R>>>, String> {
        if !options.book {
            return Ok(None);
        }
        let book = if options.book_file.is_empty() {
            book::builtin::<R>()
        } else {
            Some(Book::load(Path::new(&options.book_file))?)
        };
        Ok(book.map(Arc::new))
    }

    /// The engine the options describe (built now if there is none yet).
    fn take_engine(&mut self) -> Engine<R> {
        let options = &self.options;
        let mut engine = self.engine.take().unwrap_or_else(|| {
            // A weight file that does not fit this rule set (the variant changed after it was
            // loaded) gives way to the default, with a warning; so does a database directory
            // that went away.
            let evaluator = Self::evaluator(options).unwrap_or_else(|error| {
                log::warn!("{error}; evaluating with the default");
                Evaluator::new()
            });
            let egdb = Self::egdb(options).unwrap_or_else(|error| {
                log::warn!("{error}; playing without endgame databases");
                None
            });
            let book = Self::book(options).unwrap_or_else(|error| {
                log::warn!("{error}; playing without an opening book");
                None
            });
            let config = EngineConfig::new(options.threads, options.hash)
                .with_params(options.search_params.over(R::VARIANT))
                .with_evaluator(evaluator)
                .with_egdb(egdb)
                .with_book(book);
            Engine::with_config(config)
        });
        if engine.threads() != options.threads {
            engine.set_threads(options.threads);
        }
        engine.set_multipv(options.multipv);
        engine.set_level(options.level);
        engine.set_book_margin(options.book_margin as i32);
        engine
    }

    /// Builds the engine now (Hub `init`, UCI `isready`), so the first search starts at once.
    pub fn ready(&mut self) {
        let engine = self.take_engine();
        self.engine = Some(engine);
    }

    /// The static evaluation of the current position by the engine's evaluation, for the side
    /// to move.
    pub fn evaluate(&mut self) -> Value {
        self.ready();
        self.engine.as_ref().map_or(0, |engine| engine.evaluate(self.game.position()))
    }

    /// A new game from the start position; the engine forgets what it learnt.
    pub fn new_game(&mut self) {
        let mut engine = self.take_engine();
        engine.new_game();
        self.engine = Some(engine);
        self.game = self.fresh_game(Position::start());
    }

    /// Sets an option. `Some(Exit::Switch)` when it changed the variant.
    ///
    /// # Errors
    /// A value the option does not take; nothing changes.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<Option<Exit>, String> {
        let before = self.options.clone();
        self.options.set(name, value)?;
        if self.options.variant != before.variant {
            return Ok(Some(Exit::Switch));
        }
        // What the options load or allocate is done now, so that a bad file, a bad path or a
        // size the machine cannot give is an error here, and the options keep their values.
        if let Err(error) = self.apply(&before) {
            self.options = before;
            return Err(error);
        }
        Ok(None)
    }

    /// Hands the engine what changed in the options since `before`.
    fn apply(&mut self, before: &Options) -> Result<(), String> {
        let now = &self.options;
        if now.eval != before.eval || now.eval_file != before.eval_file {
            let evaluator = Self::evaluator(now)?;
            if let Some(engine) = &mut self.engine {
                engine.set_evaluator(evaluator);
            }
        }
        let now = &self.options;
        if now.egdb_path != before.egdb_path
            || now.egdb_cache != before.egdb_cache
            || now.egdb_pieces != before.egdb_pieces
        {
            let egdb = Self::egdb(now)?;
            if let Some(engine) = &mut self.engine {
                engine.set_egdb(egdb);
            }
        }
        let now = &self.options;
        if now.search_params != before.search_params {
            if let Some(engine) = &mut self.engine {
                engine.set_params(now.search_params.over(R::VARIANT));
            }
        }
        let now = &self.options;
        if now.book != before.book || now.book_file != before.book_file {
            let book = Self::book(now)?;
            if let Some(engine) = &mut self.engine {
                engine.set_book(book);
            }
        }
        let now = &self.options;
        if now.draw_rules != before.draw_rules || now.mandatory_capture != before.mandatory_capture
        {
            // The game goes on under the new rules, its moves kept.
            let mut game = self.fresh_game(*self.game.start());
            for mv in self.game.moves() {
                game.play_unchecked(mv);
            }
            self.game = game;
        }
        if self.options.hash != before.hash {
            // Without an engine yet, a trial table says whether the machine can give it.
            match &mut self.engine {
                Some(engine) => engine.set_hash(self.options.hash)?,
                None => TranspositionTable::try_new(self.options.hash).map(drop)?,
            }
        }
        if let Some(engine) = &mut self.engine {
            if self.options.threads != before.threads {
                engine.set_threads(self.options.threads);
            }
        }
        Ok(())
    }

    /// Sets the game: `start` and then `moves`, by the one replay policy of
    /// [`crate::game::replay`].
    ///
    /// # Errors
    /// A move that cannot be played; the game is left as it was.
    pub fn set_game<'a>(
        &mut self,
        start: Position<R>,
        moves: impl IntoIterator<Item = &'a str>,
        notation: Notation,
    ) -> Result<(), ReplayError> {
        let mut game = self.fresh_game(start);
        play_moves(&mut game, moves, notation)?;
        self.game = game;
        Ok(())
    }

    /// Plays `moves` onto the current game.
    ///
    /// # Errors
    /// A move that cannot be played; the game is left as it was.
    pub fn play<'a>(
        &mut self,
        moves: impl IntoIterator<Item = &'a str>,
        notation: Notation,
    ) -> Result<(), ReplayError> {
        let mut game = self.game.clone();
        play_moves(&mut game, moves, notation)?;
        self.game = game;
        Ok(())
    }

    /// Searches the game in the background within `limits` (a ponder search with `ponder`),
    /// reporting iterations to `sink`. Lines that arrive meanwhile are sorted by `classify`:
    /// urgent ones are answered at once, the others wait for the end of the search.
    pub fn search<S: InfoSink<R> + Send + 'static>(
        &mut self,
        limits: Limits,
        ponder: bool,
        sink: S,
        classify: fn(&str) -> Urgent,
    ) -> SearchResult<R> {
        let engine = self.take_engine();
        let game = self.game.clone();
        let search = Background::start(engine, game, limits, ponder, sink, &self.input);
        let (engine, result) = supervise(search, &mut self.input, classify);
        self.engine = Some(engine);
        result
    }
}

impl<R: Rules> Session<R> {
    /// Searches the game on the caller's thread within `limits`, reporting iterations to
    /// `sink`, for a host that calls in and waits (the CheckerBoard library). Meanwhile a
    /// watcher thread asks `stop` every millisecond and stops the search when it says so.
    pub fn search_here(
        &mut self,
        limits: Limits,
        sink: &mut dyn InfoSink<R>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> SearchResult<R> {
        let mut engine = self.take_engine();
        let control = engine.control();
        control.prepare(false);
        let done = AtomicBool::new(false);
        let result = std::thread::scope(|scope| {
            let watcher = std::thread::Builder::new().spawn_scoped(scope, || {
                while !done.load(Ordering::Relaxed) {
                    if stop() {
                        control.request_stop();
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            });
            if let Err(error) = watcher {
                log::warn!("no thread to watch for the stop ({error}); the limits alone end it");
            }
            // Ends the watcher however the search ends, a panic included (the scope waits for
            // it before the panic goes on).
            let _finished = SetOnDrop(&done);
            engine.go_prepared(&self.game, limits, sink)
        });
        self.engine = Some(engine);
        result
    }
}

/// Sets its flag when dropped.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs protocol `P` on `input` until `quit` or the end of input, starting again on the new rule
/// set whenever the variant changes.
pub fn run<P: Protocol>(mut input: Input) {
    let mut options = Options::with_variant(P::DEFAULT_VARIANT);
    // One protocol state for the whole run: what it keeps (the Hub level, the text mode's
    // display) outlives a change of variant.
    let mut protocol = P::default();
    loop {
        let variant = options.variant;
        let (exit, back) =
            with_variant!(variant, R => serve::<P, R>(&mut protocol, &mut options, input));
        if exit == Exit::Quit {
            return;
        }
        input = back;
    }
}

/// One session on rule set `R`: lines until an exit; the options and the input go back to the
/// caller.
fn serve<P: Protocol, R: Rules>(
    protocol: &mut P,
    options: &mut Options,
    input: Input,
) -> (Exit, Input) {
    let mut session = Session::<R>::new(options.clone(), input);
    // No prompt while lines read earlier wait (typed during a search, or the first line that
    // chose the protocol): the prompt comes when the next line is really awaited.
    let prompt = |protocol: &P, session: &Session<R>| {
        if !session.input.has_pending() {
            protocol.prompt();
        }
    };
    prompt(protocol, &session);
    loop {
        let exit = match session.input.next_event() {
            Event::Line(line) => {
                let exit = protocol.handle(&mut session, &line);
                if exit.is_none() {
                    prompt(protocol, &session);
                }
                exit
            }
            Event::TooLong => {
                protocol.refuse(&format!(
                    "a line longer than {} bytes, ignored",
                    crate::bounded::MAX_INPUT_LINE
                ));
                prompt(protocol, &session);
                None
            }
            Event::Eof => Some(Exit::Quit),
            Event::SearchDone => None,
        };
        if let Some(exit) = exit {
            *options = session.options;
            return (exit, session.input);
        }
    }
}
