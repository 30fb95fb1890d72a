//! The engine's protocols: Hub (Scan's, on stdin/stdout), a UCI-style dialect, a text mode for
//! people, and DXP over TCP. This module owns what they share: the stdin reader thread, the
//! line writer, and the search running in the background while commands keep arriving; the
//! [`session`] behind the three stdin protocols and the [`options`] table they declare.
//!
//! Depends on the rules library, `game` and `search`; the search never prints, only the
//! protocol writes to stdout.

pub mod checkerboard;
pub mod dxp;
pub mod hub;
pub mod options;
pub mod session;
pub mod text;
pub mod uci;

pub use options::{MAX_HASH, MAX_MULTIPV, MAX_THREADS, Options, variant_names};
pub use session::{Exit, Protocol, Session, run};

use crate::bounded::{Line, MAX_INPUT_LINE};
use crate::game::Game;
use crate::rules::Rules;
use crate::search::{Control, Engine, InfoSink, Limits, SearchResult};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// Something that happened on the engine's input or in its search.
#[derive(Debug)]
pub enum Event {
    /// A line of input, without its line ending.
    Line(String),
    /// A line longer than [`MAX_INPUT_LINE`] bytes, dropped unread: the protocol says so.
    TooLong,
    /// The input is closed: the engine must exit.
    Eof,
    /// The background search finished.
    SearchDone,
}

/// The engine's input: a thread reads stdin (or any reader) line by line into a channel, so that
/// commands are seen at once even while a search runs.
pub struct Input {
    events: Receiver<Event>,
    sender: Sender<Event>,
    /// Lines (and over-long lines) kept for after the running search.
    pending: VecDeque<Event>,
    closed: bool,
    shared: Arc<Mutex<Shared>>,
}

/// What the reader thread and the command loop share so that, during a search with nothing
/// waiting, the reader answers urgent lines itself: one thread wake-up instead of two between a
/// `ping` and its `pong`, which is what a GUI measures.
#[derive(Default)]
struct Shared {
    /// Lines sent into the channel, and lines the command loop has taken out of it.
    sent: u64,
    consumed: u64,
    /// Set while a search runs and no line waits for its end.
    live: Option<Live>,
}

struct Live {
    control: Arc<Control>,
    classify: fn(&str) -> Urgent,
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    // A panic elsewhere cannot leave the counters half-updated; keep going with them.
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Input {
    /// Starts reading `reader` on its own thread.
    pub fn spawn<T: BufRead + Send + 'static>(reader: T) -> Input {
        let (sender, events) = channel();
        let feeder = sender.clone();
        let shared = Arc::new(Mutex::new(Shared::default()));
        let state = Arc::clone(&shared);
        std::thread::spawn(move || {
            let mut reader = reader;
            let mut bytes = Vec::new();
            loop {
                let read = crate::bounded::read_line(&mut reader, &mut bytes, MAX_INPUT_LINE);
                // The person pressed Enter: the terminal has ended the prompt's line.
                PROMPT_OPEN.store(false, Ordering::Relaxed);
                match read {
                    Ok(Line::End) | Err(_) => break,
                    Ok(Line::Read) => {}
                    // Its error is not urgent: a search keeps it for its end, without holding
                    // back the urgent lines after it.
                    Ok(Line::TooLong) => {
                        let mut state = lock(&state);
                        state.sent += 1;
                        if feeder.send(Event::TooLong).is_err() {
                            return;
                        }
                        continue;
                    }
                }
                // A byte that is not UTF-8 must not end the session: it becomes U+FFFD, and
                // the line gets the protocol's answer to whatever it then says.
                let text = String::from_utf8_lossy(&bytes);
                let line = text.trim_end_matches(['\r', '\n']).to_string();
                let mut state = lock(&state);
                let urgent = match &state.live {
                    Some(live) if state.sent == state.consumed => {
                        Some(((live.classify)(line.trim()), Arc::clone(&live.control)))
                    }
                    _ => None,
                };
                match urgent {
                    None => {}
                    Some((Urgent::Stop, control)) => {
                        control.request_stop();
                        continue;
                    }
                    Some((Urgent::PonderHit, control)) => {
                        control.hit();
                        continue;
                    }
                    Some((Urgent::Reply(text), _)) => {
                        emit(text);
                        continue;
                    }
                    Some((Urgent::Ignore, _)) => continue,
                    // The command loop keeps this one for after the search.
                    Some((Urgent::StopAndLater, control)) => {
                        control.request_stop();
                        state.live = None;
                    }
                    Some((Urgent::Later, _)) => state.live = None,
                }
                state.sent += 1;
                if feeder.send(Event::Line(line)).is_err() {
                    return;
                }
            }
            let _ = feeder.send(Event::Eof);
        });
        Input { events, sender, pending: VecDeque::new(), closed: false, shared }
    }

    /// An input with nothing to read, for a session that a host drives by calls (the
    /// CheckerBoard library): its first event is the end of input.
    pub fn none() -> Input {
        let (sender, events) = channel();
        let shared = Arc::new(Mutex::new(Shared::default()));
        Input { events, sender, pending: VecDeque::new(), closed: true, shared }
    }

    /// Reads stdin.
    pub fn stdin() -> Input {
        Input::spawn(std::io::BufReader::new(std::io::stdin()))
    }

    /// The next event: a line kept back during a search first, then the channel.
    pub fn next_event(&mut self) -> Event {
        if let Some(event) = self.pending.pop_front() {
            return event;
        }
        if self.closed {
            return Event::Eof;
        }
        self.next_live()
    }

    /// The next event from the channel, skipping lines kept back (used while searching).
    fn next_live(&mut self) -> Event {
        let event = self.events.recv().unwrap_or(Event::Eof);
        if let Event::Line(_) | Event::TooLong = event {
            lock(&self.shared).consumed += 1;
        }
        event
    }

    /// Whether lines read earlier wait to be handled (no prompt is due before them).
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Whether a line waits for the end of the running search (the lines after it wait too).
    fn waiting(&self) -> bool {
        self.pending.iter().any(|event| matches!(event, Event::Line(_)))
    }

    /// Keeps a line (or an over-long line's event) to handle after the running search.
    fn keep(&mut self, event: Event) {
        self.pending.push_back(event);
    }

    /// Puts a line back at the front, to be read next (a mode switch hands it on).
    pub fn push_front(&mut self, line: String) {
        self.pending.push_front(Event::Line(line));
    }

    fn sender(&self) -> Sender<Event> {
        self.sender.clone()
    }

    /// Lets the reader thread answer urgent lines itself (or stops that with `None`).
    fn set_live(&self, live: Option<Live>) {
        lock(&self.shared).live = live;
    }
}

/// Set while a prompt (`> `, no line feed) is the last thing written and no line has been read
/// since: see [`emit`] and [`show_prompt`].
static PROMPT_OPEN: AtomicBool = AtomicBool::new(false);

/// Writes the text mode's prompt, `> ` without a line feed.
pub fn show_prompt() {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = write!(out, "> ");
    let _ = out.flush();
    PROMPT_OPEN.store(true, Ordering::Relaxed);
}

/// Writes one protocol line to stdout and flushes it. Stdout's lock keeps lines from the search
/// thread and the command loop whole.
///
/// A text of several lines (the text mode's board and help) is written line by line, each made
/// [`one_line`]: input lines hold no line feed, so nothing echoed from the client can start a
/// line of its own.
pub fn emit(text: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // Output that comes while the text mode's prompt waits (nothing typed yet) starts on a line
    // of its own instead of gluing to the prompt.
    if PROMPT_OPEN.swap(false, Ordering::Relaxed) {
        let _ = writeln!(out);
    }
    for line in text.split('\n') {
        // A closed stdout means the client is gone; the loop ends on stdin EOF.
        let _ = writeln!(out, "{}", one_line(line));
    }
    let _ = out.flush();
}

/// The longest line written, in bytes: error lines quote the client's input, which may be a
/// megabyte long.
pub const MAX_LINE: usize = 4096;

/// `text` as one protocol line: control characters (a carriage return or a line feed in an
/// echoed value would start a forged line for the client) become `?`, and text beyond
/// [`MAX_LINE`] bytes is cut, with `...` to say so.
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= MAX_LINE && !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut line = String::with_capacity(text.len().min(MAX_LINE));
    for c in text.chars() {
        if line.len() + c.len_utf8() > MAX_LINE - 3 {
            line.push_str("...");
            break;
        }
        line.push(if c.is_control() { '?' } else { c });
    }
    std::borrow::Cow::Owned(line)
}

/// A search running on its own thread. The engine travels with it and comes back at the end.
pub struct Background<R: Rules> {
    handle: JoinHandle<(Engine<R>, SearchResult<R>)>,
    control: Arc<Control>,
}

impl<R: Rules> Background<R> {
    /// Starts searching `game` within `limits`; `sink` receives the iterations. The input is told
    /// when the search ends.
    pub fn start<S: InfoSink<R> + Send + 'static>(
        mut engine: Engine<R>,
        game: Game<R>,
        limits: Limits,
        ponder: bool,
        mut sink: S,
        input: &Input,
    ) -> Background<R> {
        let control = engine.control();
        control.prepare(ponder);
        let done = input.sender();
        let handle = std::thread::spawn(move || {
            let result = engine.go_prepared(&game, limits, &mut sink);
            let _ = done.send(Event::SearchDone);
            (engine, result)
        });
        Background { handle, control }
    }

    /// The search's flags (stop, ponder hit).
    pub fn control(&self) -> &Control {
        &self.control
    }

    /// Waits for the end of the search (stop it first to make that quick).
    ///
    /// # Panics
    /// Only if the search thread panicked, which is a bug to surface, not input to handle.
    pub fn finish(self) -> (Engine<R>, SearchResult<R>) {
        match self.handle.join() {
            Ok(both) => both,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

/// What the command loop does with a line that arrives during a search.
pub enum Urgent {
    /// Stop the search now (its result is still reported).
    Stop,
    /// The ponder move was played: search on with the clock running.
    PonderHit,
    /// Reply at once with this line, and search on.
    Reply(&'static str),
    /// Nothing to do (a blank line).
    Ignore,
    /// Keep the line for after the search, and stop the search (a new command supersedes it).
    StopAndLater,
    /// Keep the line for after the search, which goes on to its limit (lines after it wait in
    /// order behind it).
    Later,
}

/// Runs the command loop's side of a background search: answers urgent lines at once, keeps the
/// others in order, and returns the engine and the result when the search is over. The end of
/// input stops the search as `quit` would (unless `classify` keeps `quit` for later); its result
/// and the lines kept are still handled before the caller sees the end.
pub fn supervise<R: Rules>(
    search: Background<R>,
    input: &mut Input,
    classify: fn(&str) -> Urgent,
) -> (Engine<R>, SearchResult<R>) {
    let control = Arc::clone(&search.control);
    let handle = |event: Event, input: &mut Input| {
        let line = match event {
            Event::Line(line) if !input.waiting() => line,
            // Once a line waits for the end of the search, the lines after it wait too: they
            // belong to what comes next (a `stop` after `go` stops the next search). An
            // over-long line's error waits for the end as well, holding nothing back.
            other => {
                input.keep(other);
                return;
            }
        };
        match classify(line.trim()) {
            Urgent::Stop => control.request_stop(),
            Urgent::PonderHit => control.hit(),
            Urgent::Reply(text) => emit(text),
            Urgent::Ignore => {}
            Urgent::StopAndLater => {
                control.request_stop();
                input.keep(Event::Line(line));
            }
            Urgent::Later => input.keep(Event::Line(line)),
        }
    };
    // Lines that arrived with the `go` (still queued) come first, as if they came now.
    let backlog: Vec<Event> = input.pending.drain(..).collect();
    for event in backlog {
        handle(event, input);
    }
    let go_live = |input: &Input| {
        if !input.waiting() {
            input.set_live(Some(Live { control: Arc::clone(&control), classify }));
        }
    };
    go_live(input);
    loop {
        match input.events.recv().unwrap_or(Event::Eof) {
            Event::SearchDone => {
                input.set_live(None);
                return search.finish();
            }
            Event::Eof => {
                input.set_live(None);
                input.closed = true;
                // The end of input is a `quit`: it stops the search unless the protocol lets a
                // `quit` wait for it (the text mode's bounded searches).
                if !matches!(classify("quit"), Urgent::Later) {
                    control.request_stop();
                }
            }
            event @ (Event::Line(_) | Event::TooLong) => {
                // Held while the line is handled: the reader must not answer a later line
                // before this one is dealt with.
                let shared = Arc::clone(&input.shared);
                let mut state = lock(&shared);
                state.consumed += 1;
                handle(event, input);
                if input.waiting() {
                    state.live = None;
                }
            }
        }
    }
}

/// The text mode on stdin/stdout, greeting a person at a terminal.
pub fn run_text() {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        emit(&text::greeting());
        text::show_start();
    }
    run::<text::Text>(Input::stdin());
}

/// The stdin mode chosen by the first line: `hub` starts the Hub protocol, `uci` the UCI-style
/// dialect, anything else the text mode (which handles that line itself).
pub fn run_auto() {
    use std::io::IsTerminal;
    let interactive = std::io::stdin().is_terminal();
    if interactive {
        emit(&text::greeting());
        text::show_start();
        // A person at a terminal types the first line at the text mode's prompt.
        show_prompt();
    }
    let mut input = Input::stdin();
    let first = match input.next_event() {
        Event::Line(line) => line,
        _ => return,
    };
    let command = first.split_whitespace().next().unwrap_or("").to_string();
    input.push_front(first);
    match command.as_str() {
        "hub" => run::<hub::Hub>(input),
        "uci" => run::<uci::Uci>(input),
        _ => run::<text::Text>(input),
    }
}
