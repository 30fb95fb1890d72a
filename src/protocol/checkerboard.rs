//! The CheckerBoard engine API in safe Rust: the board array and move record of Martin
//! Fierz's CheckerBoard (maintained by Ed Gilbert; capers uses the same API on Linux), the words
//! of its `enginecommand`, and `getmove` and `islegal` on top of the one [`Session`]. The C
//! functions themselves, and every raw pointer, live in the `damas-cb` crate (`cb/`), which only
//! copies data in and out of this module's types.
//!
//! Conventions, from CheckerBoard's `cb_interface.h` and its API reference (version 2):
//! - `board[x][y]`: x is the column from the left and y the row from the bottom as CheckerBoard
//!   draws it, with Black's men on rows 0-2 and White's on rows 5-7 in every game type; the
//!   squares with x + y even are the playable ones. Values: white 1, black 2, man 4, king 8 (a
//!   black king is 10).
//! - Square numbers (in `islegal`, `get movelist`, FEN strings and `set gamehist`) are
//!   CheckerBoard's own for the game type (`coorstonumber`): 4(y + 1) - x/2 for English,
//!   Russian and Brazilian, 1 + 4y + x/2 for Italian, 1 + 4(7 - y) + (7 - x)/2 for Spanish and
//!   32 - 4y - x/2 for Czech. They equal the PDN numbers of English, Italian and Spanish; the
//!   algebraic variants also accept algebraic names (pydraughts sends `c3-d4`).
//! - On damas's internal board (row 0 at the top, White at the bottom) CheckerBoard's (x, y) is
//!   row y, column 7 - x in every game type: CheckerBoard turns the board of the mirrored game
//!   types (Italian, Spanish) on screen only. CheckerBoard's white is damas's White.
//!
//! Depends on `rules`, `game`, `notation`, `search` and the session; no I/O and no unsafe code.

use super::options::{OPTIONS, Options};
use super::session::Session;
use crate::board::bitset::BitSet;
use crate::board::geometry::Geometry;
use crate::board::types::{Piece, Side};
use crate::game::Game;
use crate::game::Verdict;
use crate::game::replay::Notation;
use crate::notation::{fen, moves, squares};
use crate::position::{MoveOf, Position};
use crate::rules::{Brazilian, Czech, English, Italian, Rules, Russian, Spanish, Variant};
use crate::search::{Band, Info, InfoSink, Limits, SearchResult, Source};
use std::fmt::Write as _;
use std::time::Duration;

/// A white piece.
pub const CB_WHITE: i32 = 1;
/// A black piece.
pub const CB_BLACK: i32 = 2;
/// A man.
pub const CB_MAN: i32 = 4;
/// A king.
pub const CB_KING: i32 = 8;
/// `getmove`'s answer: the game is a draw.
pub const CB_DRAW: i32 = 0;
/// `getmove`'s answer: the engine wins.
pub const CB_WIN: i32 = 1;
/// `getmove`'s answer: the engine loses.
pub const CB_LOSS: i32 = 2;
/// `getmove`'s answer: nothing known (also the answer to a board it cannot read).
pub const CB_UNKNOWN: i32 = 3;
/// `info` bit: a new game (the API's original way to reset the engine's history).
pub const CB_RESET_MOVES: i32 = 1;
/// `info` bit: think exactly `maxtime`.
pub const CB_EXACT_TIME: i32 = 2;
/// Shift of `info`'s two bits of incremental clock units.
pub const CB_INCR_TIME_SHIFT: i32 = 2;
/// Size of `getmove`'s status text and of `enginecommand`'s reply, with the final NUL.
pub const TEXT_SIZE: usize = 1024;
/// Size of `enginecommand`'s command buffer.
pub const COMMAND_SIZE: usize = 256;
/// The API version damas speaks.
pub const PROTOCOL_VERSION: u32 = 2;
/// The help file `enginecommand help` names; it goes next to the library in CheckerBoard's
/// `engines` folder.
pub const HELP_FILE: &str = "damas_cb.htm";

/// A square of the board array.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coor {
    /// Column from the left.
    pub x: i32,
    /// Row from the bottom.
    pub y: i32,
}

/// A move as CheckerBoard animates it (`struct CBmove`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CbMove {
    /// Pieces captured.
    pub jumps: i32,
    /// The moving piece after the move (a crowned man is a king).
    pub newpiece: i32,
    /// The moving piece before the move.
    pub oldpiece: i32,
    /// Where it starts.
    pub from: Coor,
    /// Where it ends.
    pub to: Coor,
    /// The start in `path[0]`, then every landing square of a capture from `path[1]` on.
    pub path: [Coor; 12],
    /// The captured pieces' squares, in the order they are jumped.
    pub del: [Coor; 12],
    /// The captured pieces.
    pub delpiece: [i32; 12],
}

/// The board array: `board[x][y]`.
pub type Board8x8 = [[i32; 8]; 8];

/// CheckerBoard's game types damas plays, and their rule sets.
pub const GAME_TYPES: &[(i32, Variant)] = &[
    (21, Variant::English),
    (22, Variant::Italian),
    (24, Variant::Spanish),
    (25, Variant::Russian),
    (26, Variant::Brazilian),
    (29, Variant::Czech),
];

const ITALIAN: i32 = 22;
const SPANISH: i32 = 24;
const CZECH: i32 = 29;

/// CheckerBoard's number of a square in a game type (`coorstonumber`).
pub fn number(gametype: i32, at: Coor) -> i32 {
    let Coor { x, y } = at;
    match gametype {
        ITALIAN => 1 + 4 * y + x / 2,
        SPANISH => 1 + 4 * (7 - y) + (7 - x) / 2,
        CZECH => 32 - 4 * y - x / 2,
        _ => 4 * (y + 1) - x / 2,
    }
}

/// The playable squares of the board array.
fn playable() -> impl Iterator<Item = Coor> {
    (0..8).flat_map(|y| (0..8).map(move |x| Coor { x, y })).filter(|c| (c.x + c.y) % 2 == 0)
}

/// The square of a number in a game type (the inverse of [`number`]; CheckerBoard's own
/// `numbertocoors` is off by one for Czech, so this inverts `coorstonumber` instead).
pub fn square(gametype: i32, value: i32) -> Option<Coor> {
    playable().find(|&at| number(gametype, at) == value)
}

/// The board array's square of a bit of rule set `R`.
fn coor_of<R: Rules>(bit: u32) -> Coor {
    let (row, column) = R::Geo::coords(R::Geo::square(bit));
    Coor { x: 7 - column as i32, y: row as i32 }
}

/// The bit of rule set `R` at a square of the board array, if it is playable.
fn bit_at<R: Rules>(at: Coor) -> Option<u32> {
    let inside = (0..8).contains(&at.x) && (0..8).contains(&at.y);
    inside.then(|| R::Geo::at(at.y as u32, (7 - at.x) as u32)).flatten().map(R::Geo::bit)
}

/// The board value of a piece.
fn piece_value(side: Side, piece: Piece) -> i32 {
    let colour = if side == Side::White { CB_WHITE } else { CB_BLACK };
    colour | if piece == Piece::King { CB_KING } else { CB_MAN }
}

fn side_of(color: i32) -> Result<Side, String> {
    match color {
        CB_WHITE => Ok(Side::White),
        CB_BLACK => Ok(Side::Black),
        other => Err(format!("colour {other} is neither white (1) nor black (2)")),
    }
}

/// Reads the board array with `color` to move.
///
/// # Errors
/// A value that is no piece, a piece on a light square, or a position that cannot arise.
pub fn read_board<R: Rules>(board: &Board8x8, color: i32) -> Result<Position<R>, String> {
    let side = side_of(color)?;
    let mut pieces = [crate::position::Bits::<R>::EMPTY; 2];
    let mut kings = crate::position::Bits::<R>::EMPTY;
    for (x, column) in board.iter().enumerate() {
        for (y, &value) in column.iter().enumerate() {
            if value == 0 {
                continue;
            }
            let at = Coor { x: x as i32, y: y as i32 };
            let Some(bit) = bit_at::<R>(at) else {
                return Err(format!("a piece ({value}) on the light square x={x} y={y}"));
            };
            let single = crate::position::Bits::<R>::single(bit);
            let colour = match value & (CB_WHITE | CB_BLACK) {
                CB_WHITE if value & !(CB_WHITE | CB_MAN | CB_KING) == 0 => 0,
                CB_BLACK if value & !(CB_BLACK | CB_MAN | CB_KING) == 0 => 1,
                _ => return Err(format!("square x={x} y={y} holds {value}, which is no piece")),
            };
            match value & (CB_MAN | CB_KING) {
                CB_MAN => {}
                CB_KING => kings |= single,
                _ => return Err(format!("square x={x} y={y} holds {value}, which is no piece")),
            }
            pieces[colour] |= single;
        }
    }
    Position::from_parts(pieces[0], pieces[1], kings, side).map_err(|e| e.to_string())
}

/// The board array of a position.
pub fn write_board<R: Rules>(position: &Position<R>) -> Board8x8 {
    let mut board = [[0; 8]; 8];
    for at in playable() {
        if let Some((side, piece)) = bit_at::<R>(at).and_then(|bit| position.piece_at(bit)) {
            board[at.x as usize][at.y as usize] = piece_value(side, piece);
        }
    }
    board
}

/// The move record of a legal move of `position` (its first route, when several have the same
/// effect).
pub fn record<R: Rules>(position: &Position<R>, mv: &MoveOf<R>) -> CbMove {
    let from_bit = mv.from();
    let (side, piece) =
        position.piece_at(from_bit).unwrap_or((position.side_to_move(), Piece::Man));
    let crowned = if mv.promotes() { Piece::King } else { piece };
    let mut record = CbMove {
        jumps: mv.captured().count() as i32,
        newpiece: piece_value(side, crowned),
        oldpiece: piece_value(side, piece),
        from: coor_of::<R>(from_bit),
        to: coor_of::<R>(mv.to()),
        ..CbMove::default()
    };
    record.path[0] = record.from;
    if !mv.is_capture() {
        record.path[1] = record.to;
        return record;
    }
    let route = moves::routes(position).into_iter().find(|route| route.mv == *mv);
    let landings = route.map(|route| route.path).unwrap_or_else(|| vec![mv.to() as u8]);
    let mut captured = mv.captured();
    let mut at = from_bit;
    let mut jumped = 0;
    for (index, &landing) in landings.iter().enumerate() {
        let landing = u32::from(landing);
        if let Some(slot) = record.path.get_mut(index + 1) {
            *slot = coor_of::<R>(landing);
        }
        // The piece jumped on the way is the captured one between the two landings.
        for bit in between::<R>(at, landing) {
            let single = crate::position::Bits::<R>::single(bit);
            if (captured & single).any() {
                captured &= !single;
                if jumped < 12 {
                    record.del[jumped] = coor_of::<R>(bit);
                    record.delpiece[jumped] =
                        position.piece_at(bit).map_or(0, |(side, piece)| piece_value(side, piece));
                }
                jumped += 1;
            }
        }
        at = landing;
    }
    record
}

/// The bits strictly between two bits on one diagonal (none when they share no diagonal).
fn between<R: Rules>(from: u32, to: u32) -> Vec<u32> {
    let (r0, c0) = R::Geo::coords(R::Geo::square(from));
    let (r1, c1) = R::Geo::coords(R::Geo::square(to));
    let (dr, dc) = (r1 as i32 - r0 as i32, c1 as i32 - c0 as i32);
    if dr.abs() != dc.abs() || dr == 0 {
        return Vec::new();
    }
    (1..dr.abs())
        .filter_map(|step| {
            let row = r0 as i32 + step * dr.signum();
            let column = c0 as i32 + step * dc.signum();
            R::Geo::at(row as u32, column as u32).map(R::Geo::bit)
        })
        .collect()
}

/// How long `getmove` may think: CheckerBoard's `maxtime`, `info` and `moreinfo`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeRequest {
    /// Seconds to think on average (exactly, with [`CB_EXACT_TIME`]).
    pub maxtime: f64,
    /// Flags: [`CB_RESET_MOVES`], [`CB_EXACT_TIME`] and the clock units.
    pub info: i32,
    /// With an incremental clock: the time left (high 16 bits) and the increment (low 16 bits).
    pub moreinfo: i32,
}

/// Seconds as a duration, from at least a millisecond to a day (a garbage value cannot hang the
/// host).
fn seconds(value: f64) -> Duration {
    let value = if value.is_finite() { value.clamp(0.001, 86_400.0) } else { 0.001 };
    Duration::from_secs_f64(value)
}

impl TimeRequest {
    /// The search limits it asks for. An incremental clock is a clock; otherwise `maxtime` is
    /// the time of this move.
    pub fn limits(&self) -> Limits {
        let units = (self.info >> CB_INCR_TIME_SHIFT) & 3;
        if units != 0 {
            let unit = [0.001, 0.01, 0.1][units as usize - 1];
            let packed = self.moreinfo as u32;
            let left = f64::from(packed >> 16) * unit;
            let increment = f64::from(packed & 0xffff) * unit;
            return Limits {
                time_left: Some(seconds(left)),
                increment: if increment > 0.0 { seconds(increment) } else { Duration::ZERO },
                ..Limits::default()
            };
        }
        Limits { move_time: Some(seconds(self.maxtime)), ..Limits::default() }
    }
}

/// What `getmove` answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// [`CB_WIN`], [`CB_LOSS`], [`CB_DRAW`] or [`CB_UNKNOWN`].
    pub result: i32,
    /// The move played, when there was one.
    pub mv: Option<CbMove>,
}

/// The engine behind the API: the options, the game type and the session of its rule set.
pub struct CheckerBoard {
    host: Box<dyn Host>,
}

impl Default for CheckerBoard {
    fn default() -> Self {
        Self::new()
    }
}

/// The part of the engine that depends on the rule set; one implementation per game type.
trait Host: Send {
    fn gametype(&self) -> i32;
    fn options(&self) -> &Options;
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String>;
    fn set_history(&mut self, text: &str) -> Result<(), String>;
    fn movelist(&self, fen: &str) -> Result<String, String>;
    fn islegal(&self, board: &Board8x8, color: i32, from: i32, to: i32) -> Option<CbMove>;
    fn getmove(
        &mut self,
        board: &mut Board8x8,
        color: i32,
        time: TimeRequest,
        status: &mut dyn FnMut(&str),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Answer, String>;
}

/// A session on rule set `R` and the game history `set gamehist` gave.
struct Hosted<R: Rules> {
    gametype: i32,
    session: Session<R>,
    history: Option<Game<R>>,
}

/// The host of a game type with `options`.
fn host(gametype: i32, mut options: Options) -> Box<dyn Host> {
    fn boxed<R: Rules>(gametype: i32, mut options: Options) -> Box<dyn Host> {
        options.variant = R::VARIANT;
        Box::new(Hosted::<R> { gametype, session: Session::hosted(options), history: None })
    }
    match GAME_TYPES.iter().find(|(number, _)| *number == gametype).map(|(_, v)| *v) {
        Some(Variant::Italian) => boxed::<Italian>(gametype, options),
        Some(Variant::Spanish) => boxed::<Spanish>(gametype, options),
        Some(Variant::Russian) => boxed::<Russian>(gametype, options),
        Some(Variant::Brazilian) => boxed::<Brazilian>(gametype, options),
        Some(Variant::Czech) => boxed::<Czech>(gametype, options),
        _ => {
            options.variant = Variant::English;
            boxed::<English>(21, options)
        }
    }
}

impl CheckerBoard {
    /// English checkers with the default options.
    pub fn new() -> Self {
        CheckerBoard { host: host(21, Options::with_variant(Variant::English)) }
    }

    /// The engine a library file named `file` starts: English, unless the file's name holds
    /// the name of one of the other game types' rule sets (`damas_cb_russian.dll` plays
    /// Russian), so that a GUI that asks `get gametype` once finds the game the user chose by
    /// naming the copy.
    pub fn for_library(file: &str) -> Self {
        let stem = std::path::Path::new(file)
            .file_stem()
            .map(|stem| stem.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let chosen = GAME_TYPES
            .iter()
            .find(|(_, variant)| *variant != Variant::English && stem.contains(variant.name()));
        match chosen {
            Some(&(gametype, variant)) => {
                CheckerBoard { host: host(gametype, Options::with_variant(variant)) }
            }
            None => Self::new(),
        }
    }

    /// The game type played now.
    pub fn gametype(&self) -> i32 {
        self.host.gametype()
    }

    /// The engine's name and version.
    pub fn name() -> String {
        format!("damas {}", env!("CARGO_PKG_VERSION"))
    }

    /// Answers the commands that need no engine state (`name`, `about`, `help`,
    /// `get protocolversion`), so a host may ask them while a search runs.
    pub fn static_reply(command: &str) -> Option<String> {
        let words: Vec<&str> = command.split_whitespace().collect();
        match words.as_slice() {
            ["name"] => Some(Self::name()),
            ["about"] => Some(format!(
                "{}\n\nA checkers and draughts engine: English, Italian, Spanish, Russian, \
                 Brazilian and Czech through CheckerBoard, 18 rule sets in all.\n\
                 Lazy-SMP alpha-beta search, trained pattern evaluation.\n\nMIT licence.",
                Self::name()
            )),
            ["help"] => Some(HELP_FILE.to_string()),
            ["get", "protocolversion"] => Some(PROTOCOL_VERSION.to_string()),
            _ => None,
        }
    }

    /// `enginecommand`: the reply, or an error text (the API's return value 0).
    ///
    /// # Errors
    /// An unknown command (`?`), or a value the command does not take.
    pub fn command(&mut self, command: &str) -> Result<String, String> {
        if let Some(reply) = Self::static_reply(command) {
            return Ok(reply);
        }
        let command = command.trim();
        let (verb, rest) = command.split_once(char::is_whitespace).unwrap_or((command, ""));
        let (name, value) = rest.trim().split_once(char::is_whitespace).unwrap_or((rest, ""));
        let (name, value) = (name.trim(), value.trim());
        match (verb, name) {
            ("get", "gametype") => Ok(self.gametype().to_string()),
            ("set", "gametype") => {
                let number: i32 = value.parse().map_err(|_| unknown_gametype(value))?;
                if !GAME_TYPES.iter().any(|(n, _)| *n == number) {
                    return Err(unknown_gametype(value));
                }
                if number != self.gametype() {
                    let options = self.host.options().clone();
                    self.host = host(number, options);
                }
                Ok(number.to_string())
            }
            ("set", "gamehist") => self.host.set_history(value).map(|()| "ok".to_string()),
            ("get", "movelist") => self.host.movelist(value),
            // The endgame database and book file commands are damas options under
            // CheckerBoard's names.
            ("get" | "set", "dbpath" | "dbmbytes" | "max_dbpieces" | "bookfile") => {
                let option = match name {
                    "dbpath" => "egdb-path",
                    "dbmbytes" => "egdb-cache",
                    "bookfile" => "book-file",
                    _ => "egdb-pieces",
                };
                let spec = option_spec(option).ok_or_else(|| "?".to_string())?;
                if verb == "set" {
                    self.host.set_option(spec.name, value)?;
                }
                Ok(fit(&self.host.options().value(spec), COMMAND_SIZE).to_string())
            }
            // The opening book: on (1, Kingsrow's "best moves") or off (0).
            ("get", "book") => Ok(if self.host.options().book { "1" } else { "0" }.to_string()),
            ("set", "book") => {
                let on =
                    value.parse::<u32>().map_err(|_| format!("book takes 0 to 3, not {value}"))?;
                self.host.set_option("book", if on > 0 { "true" } else { "false" })?;
                Ok(if on > 0 { "1" } else { "0" }.to_string())
            }
            // Kingsrow's separate win/loss/draw and moves-to-conversion switches: damas's
            // database files hold both, so the GUI is told "off", and turning them on is refused.
            ("get", "enable_wld" | "enable_mtc") => Ok("0".to_string()),
            ("get", "mtcpath") => Ok(String::new()),
            ("set", "enable_wld" | "enable_mtc") if value == "0" => Ok("0".to_string()),
            ("set", "enable_wld" | "enable_mtc" | "mtcpath") => {
                Err(format!("damas keeps distances in its own database files ({name} {value})"))
            }
            ("get", _) => {
                let spec = option_spec(name).ok_or_else(|| "?".to_string())?;
                // CheckerBoard's options dialog reads these into 256 bytes.
                Ok(fit(&self.host.options().value(spec), COMMAND_SIZE).to_string())
            }
            ("set", _) => {
                let spec = option_spec(name).ok_or_else(|| "?".to_string())?;
                if spec.name == "variant" {
                    return Err("the rule set follows the game type: set gametype N".to_string());
                }
                self.host.set_option(spec.name, value)?;
                Ok(self.host.options().value(spec))
            }
            _ => Err("?".to_string()),
        }
    }

    /// `getmove`: searches the board with `color` to move, writes the board after the move
    /// back, reports progress to `status` and stops as soon as `stop` says so.
    ///
    /// # Errors
    /// A board or colour it cannot read; the board is left as it was.
    pub fn getmove(
        &mut self,
        board: &mut Board8x8,
        color: i32,
        time: TimeRequest,
        status: &mut dyn FnMut(&str),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Answer, String> {
        self.host.getmove(board, color, time, status, stop)
    }

    /// `islegal`: the move from square `from` to square `to` (CheckerBoard's numbers), if it is
    /// legal for `color` on `board`.
    pub fn islegal(&self, board: &Board8x8, color: i32, from: i32, to: i32) -> Option<CbMove> {
        self.host.islegal(board, color, from, to)
    }
}

fn unknown_gametype(value: &str) -> String {
    let known: Vec<String> = GAME_TYPES.iter().map(|(n, v)| format!("{n} {v}")).collect();
    format!("game type '{value}' is not one damas plays ({})", known.join(", "))
}

/// The option a CheckerBoard name (or one of damas's own) stands for.
fn option_spec(name: &str) -> Option<&'static super::options::Spec> {
    let name = match name {
        "hashsize" => "hash",
        "searchthreads" => "threads",
        other => other,
    };
    OPTIONS.iter().find(|spec| spec.name.eq_ignore_ascii_case(name))
}

/// A FEN or move text of CheckerBoard's with its square numbers turned into `R`'s own names.
fn translate<R: Rules>(gametype: i32, text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| -> Result<(), String> {
        if digits.is_empty() {
            return Ok(());
        }
        let value: i32 = digits.parse().map_err(|_| format!("square {digits} is out of range"))?;
        let bit = square(gametype, value)
            .and_then(bit_at::<R>)
            .ok_or_else(|| format!("square {value} is not on the board (1-32)"))?;
        out.push_str(&squares::name::<R>(bit));
        digits.clear();
        Ok(())
    };
    // Digits right after a file letter that starts a square name (`c3`, `Kc3`, `xd4`) are an
    // algebraic name's rank and stay as they are; other digits are CheckerBoard's numbers.
    let chars: Vec<char> = text.chars().collect();
    let starts_name = |at: usize| {
        at == 0
            || matches!(chars[at - 1], ',' | ':' | '-' | 'x' | 'X' | ' ' | 'K' | 'k' | 'W' | 'B')
    };
    let mut algebraic = false;
    for (at, &c) in chars.iter().enumerate() {
        if c.is_ascii_digit() {
            if algebraic {
                out.push(c);
            } else {
                digits.push(c);
            }
            continue;
        }
        flush(&mut digits, &mut out)?;
        algebraic = ('a'..='h').contains(&c) && starts_name(at);
        out.push(c);
    }
    flush(&mut digits, &mut out)?;
    Ok(out)
}

/// Expands CheckerBoard's square ranges (`B:W21-32:B1-12`) in a FEN, which [`translate`]
/// would otherwise turn into ranges of names.
fn expand_ranges(fen: &str) -> String {
    let mut fields = Vec::new();
    for (index, field) in fen.split(':').enumerate() {
        // Every field but the side to move starts with its colour letter, which stays once.
        let (colour, list) = match field.char_indices().nth(1) {
            Some((cut, _)) if index > 0 => field.split_at(cut),
            _ => (field, ""),
        };
        let items: Vec<String> = list
            .split(',')
            .map(|item| {
                let king = if item.starts_with(['K', 'k']) { "K" } else { "" };
                let body = &item[king.len()..];
                match body.split_once('-').map(|(a, b)| (a.parse::<i32>(), b.parse::<i32>())) {
                    Some((Ok(low), Ok(high))) if low <= high && high - low < 64 => {
                        (low..=high).map(|n| format!("{king}{n}")).collect::<Vec<_>>().join(",")
                    }
                    _ => item.to_string(),
                }
            })
            .collect();
        fields.push(format!("{colour}{}", items.join(",")));
    }
    fields.join(":")
}

impl<R: Rules> Hosted<R> {
    /// A CheckerBoard FEN as a position of `R`; `Ok(None)` when the side to move has no piece
    /// (CheckerBoard probes `get movelist B:W1:B` and expects `movelist 0`).
    fn read_fen(&self, text: &str) -> Result<Option<Position<R>>, String> {
        let text = text.trim().trim_matches('"').trim_end_matches('.');
        let expanded = expand_ranges(text);
        let mut fields = expanded.split(':');
        let side = fields.next().unwrap_or("").trim();
        let to_move = match side {
            "W" | "w" => 'W',
            "B" | "b" => 'B',
            _ => return Err(format!("bad FEN '{text}': the side to move must be W or B")),
        };
        let mover_has_pieces = fields.any(|field| {
            let field = field.trim();
            let mut letters = field.chars();
            letters.next().is_some_and(|c| c.eq_ignore_ascii_case(&to_move))
                && letters.as_str().split(',').any(|item| !item.trim().is_empty())
        });
        if !mover_has_pieces {
            return Ok(None);
        }
        let named = translate::<R>(self.gametype, &expanded)?;
        fen::parse::<R>(&named).map(Some).map_err(|e| e.to_string())
    }

    /// Every legal move of a position in CheckerBoard's `movelist` form.
    fn movelist_of(&self, position: &Position<R>) -> String {
        let mut seen: Vec<MoveOf<R>> = Vec::new();
        let mut records = Vec::new();
        for route in moves::routes(position) {
            if seen.contains(&route.mv) {
                continue;
            }
            seen.push(route.mv);
            let record = record(position, &route.mv);
            let n = |at: Coor| number(self.gametype, at);
            let jumps = record.jumps.clamp(0, 11);
            let mut text = format!(
                "{},{},{},{},{}",
                jumps,
                record.oldpiece,
                record.newpiece,
                n(record.from),
                n(record.to)
            );
            for jump in 0..jumps as usize {
                let _ = write!(
                    text,
                    ",{},{},{}",
                    n(record.path[jump + 1]),
                    n(record.del[jump]),
                    record.delpiece[jump]
                );
            }
            text.push(';');
            records.push(text);
        }
        format!("movelist {},{}", records.len(), records.concat())
    }

    /// The game to search: the history `set gamehist` gave when it ends in this position, the
    /// position alone otherwise.
    fn game_for(&self, position: Position<R>) -> Game<R> {
        match &self.history {
            Some(game) if *game.position() == position => game.clone(),
            _ => self.session.fresh_game(position),
        }
    }
}

impl<R: Rules> Host for Hosted<R> {
    fn gametype(&self) -> i32 {
        self.gametype
    }

    fn options(&self) -> &Options {
        &self.session.options
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.session.set_option(name, value).map(|_| ())
    }

    fn set_history(&mut self, text: &str) -> Result<(), String> {
        // The FEN is the first word; the reversible moves since it follow.
        let mut words = text.split_whitespace();
        let fen = words.next().ok_or("set gamehist needs a FEN")?;
        let start = self.read_fen(fen)?.ok_or("the side to move in the history has no piece")?;
        let moves: Vec<String> =
            words.map(|word| translate::<R>(self.gametype, word)).collect::<Result<_, _>>()?;
        self.session
            .set_game(start, moves.iter().map(String::as_str), Notation::PdnFirst)
            .map_err(|e| e.to_string())?;
        self.history = Some(self.session.game.clone());
        Ok(())
    }

    fn movelist(&self, fen: &str) -> Result<String, String> {
        let reply = match self.read_fen(fen)? {
            None => "movelist 0".to_string(),
            Some(position) if self.session.fresh_game(position).legal_moves().is_empty() => {
                "movelist 0".to_string()
            }
            Some(position) => self.movelist_of(&position),
        };
        // Cut short, the list would be misread; refused, the GUI uses its own move generator.
        if reply.len() >= TEXT_SIZE {
            return Err(format!(
                "the move list is {} bytes, more than the reply holds",
                reply.len()
            ));
        }
        Ok(reply)
    }

    fn islegal(&self, board: &Board8x8, color: i32, from: i32, to: i32) -> Option<CbMove> {
        let position = read_board::<R>(board, color).ok()?;
        let from = square(self.gametype, from).and_then(bit_at::<R>)?;
        let to = square(self.gametype, to).and_then(bit_at::<R>)?;
        let game = self.game_for(position);
        let legal = game.legal_moves();
        let mv = legal.iter().find(|mv| mv.from() == from && mv.to() == to)?;
        Some(record(&position, mv))
    }

    fn getmove(
        &mut self,
        board: &mut Board8x8,
        color: i32,
        time: TimeRequest,
        status: &mut dyn FnMut(&str),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<Answer, String> {
        let position = read_board::<R>(board, color)?;
        if time.info & CB_RESET_MOVES != 0 {
            self.session.new_game();
        }
        self.session.game = self.game_for(position);
        // The history already ends the game (a repetition, a move count) and the GUI still
        // asks for a move: play the position's best, and say the game is drawn or decided.
        let ended = self.session.game.verdict();
        if ended.is_some() {
            self.session.game = self.session.fresh_game(position);
        }
        let mut sink = StatusSink::<R> { status, root: position };
        let result = self.session.search_here(time.limits(), &mut sink, stop);
        let Some(best) = result.best else {
            status("no legal move");
            return Ok(Answer { result: CB_LOSS, mv: None });
        };
        let record = record(&position, &best);
        let mut game = self.session.game.clone();
        game.play_unchecked(&best);
        *board = write_board(game.position());
        status(&final_status(&position, &result));
        let me = position.side_to_move();
        let answer = match ended.or_else(|| game.verdict()) {
            Some(Verdict::Win(side, _)) if side == me => CB_WIN,
            Some(Verdict::Win(..)) => CB_LOSS,
            Some(Verdict::Draw(_)) => CB_DRAW,
            None => match result.score.band() {
                Band::Win { .. } | Band::KnownWin { .. } => CB_WIN,
                Band::Loss { .. } | Band::KnownLoss { .. } => CB_LOSS,
                Band::Eval(_) => CB_UNKNOWN,
            },
        };
        Ok(Answer { result: answer, mv: Some(record) })
    }
}

/// The status line after each iteration of the search.
struct StatusSink<'a, R: Rules> {
    status: &'a mut dyn FnMut(&str),
    root: Position<R>,
}

impl<R: Rules> InfoSink<R> for StatusSink<'_, R> {
    fn info(&mut self, info: &Info<R>) {
        if info.multipv != 1 {
            return;
        }
        let line = moves::line_to_pdn(&self.root, &info.pv);
        // A move from the book or the databases says so, rather than passing for a search of
        // depth 1, 0 nodes and 0.00 s in the GUI's status bar.
        if info.source != Source::Search {
            (self.status)(&format!(
                "damas: {}  {}  pv {}",
                info.source.label(),
                info.score,
                line.join(" ")
            ));
            return;
        }
        let seconds = info.time.as_secs_f64();
        let text = format!(
            "damas: depth {}/{}  {}  {:.2} s  {} nodes  {:.2} Mn/s  pv {}",
            info.depth,
            info.seldepth,
            info.score,
            seconds,
            info.nodes,
            info.nodes as f64 / seconds.max(1e-6) / 1e6,
            line.join(" ")
        );
        (self.status)(&text);
    }
}

/// The status line left after the move.
fn final_status<R: Rules>(root: &Position<R>, result: &SearchResult<R>) -> String {
    let best = result.best.map(|mv| moves::to_pdn(root, &mv)).unwrap_or_default();
    if result.source != Source::Search {
        return format!("damas: best {best}  {}  {}", result.source.label(), result.score);
    }
    let seconds = result.time.as_secs_f64();
    format!(
        "damas: best {best}  {}  depth {}  {:.2} s  {} nodes  {:.2} Mn/s",
        result.score,
        result.depth,
        seconds,
        result.nodes,
        result.nodes as f64 / seconds.max(1e-6) / 1e6
    )
}

/// Text cut to fit a C buffer of `size` bytes with its NUL, at a character boundary.
pub fn fit(text: &str, size: usize) -> &str {
    let mut end = text.len().min(size.saturating_sub(1));
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Numbering;

    fn start_board() -> Board8x8 {
        let mut board = [[0; 8]; 8];
        for at in playable() {
            if at.y <= 2 {
                board[at.x as usize][at.y as usize] = CB_BLACK | CB_MAN;
            } else if at.y >= 5 {
                board[at.x as usize][at.y as usize] = CB_WHITE | CB_MAN;
            }
        }
        board
    }

    /// CheckerBoard's numbers are the PDN numbers of the numeric game types.
    fn numbers_agree<R: Rules>(gametype: i32) {
        for at in playable() {
            let bit = bit_at::<R>(at).expect("a playable square of CheckerBoard is one of ours");
            let ours = squares::number::<R>(bit, R::NUMBERING) as i32;
            assert_eq!(ours, number(gametype, at), "{:?} at {at:?}", R::VARIANT);
            assert_eq!(coor_of::<R>(bit), at);
            assert_eq!(square(gametype, ours), Some(at));
        }
    }

    #[test]
    fn square_numbers_are_checkerboards() {
        numbers_agree::<English>(21);
        numbers_agree::<Italian>(22);
        numbers_agree::<Spanish>(24);
        // Czech is algebraic in PDN; CheckerBoard numbers it from a1 = 1, as Hub does.
        for at in playable() {
            let bit = bit_at::<Czech>(at).expect("playable");
            assert_eq!(squares::number::<Czech>(bit, Numbering::BottomLeft) as i32, number(29, at));
        }
        // Russian a1 is CheckerBoard's square 29, at x = 7, y = 7 (White's side).
        let a1 = squares::parse::<Russian>("a1", Numbering::TopLeft).expect("a1");
        assert_eq!(coor_of::<Russian>(a1), Coor { x: 7, y: 7 });
        assert_eq!(number(25, Coor { x: 7, y: 7 }), 29);
    }

    #[test]
    fn the_start_board_is_the_start_position_in_every_game_type() {
        fn check<R: Rules>() {
            let start = Position::<R>::start();
            let color = if R::FIRST_TO_MOVE == Side::White { CB_WHITE } else { CB_BLACK };
            assert_eq!(read_board::<R>(&start_board(), color), Ok(start), "{:?}", R::VARIANT);
            assert_eq!(write_board(&start), start_board());
        }
        check::<English>();
        check::<Italian>();
        check::<Spanish>();
        check::<Russian>();
        check::<Brazilian>();
        check::<Czech>();
    }

    #[test]
    fn impossible_boards_and_colours_are_refused() {
        let mut board = start_board();
        assert!(read_board::<English>(&board, 0).is_err());
        assert!(read_board::<English>(&board, 3).is_err());
        board[1][0] = CB_BLACK | CB_MAN; // a light square
        assert!(read_board::<English>(&board, CB_BLACK).unwrap_err().contains("light square"));
        let mut board = start_board();
        for value in [3, 7, 12, 13, 16, -1, i32::MAX] {
            board[0][4] = value;
            assert!(read_board::<English>(&board, CB_BLACK).is_err(), "{value}");
        }
        board[0][4] = CB_WHITE | CB_MAN; // a thirteenth white man
        assert!(read_board::<English>(&board, CB_BLACK).is_err());
    }

    #[test]
    fn a_double_capture_fills_the_whole_record() {
        // English: Black man on 9, White men on 14 and 23: 9x18x27.
        let mut engine = CheckerBoard::new();
        let reply = engine.command("get movelist B:W14,23:B9").expect("movelist");
        // jumps 2, black man stays a man, 9 -> 27 landing on 18 over 14, on 27 over 23.
        assert_eq!(reply, "movelist 1,2,6,6,9,27,18,14,5,27,23,5;");
        let board = write_board(&fen::parse::<English>("B:W14,23:B9").expect("fen"));
        let mv = engine.islegal(&board, CB_BLACK, 9, 27).expect("legal");
        assert_eq!(mv.jumps, 2);
        assert_eq!(number(21, mv.from), 9);
        assert_eq!(number(21, mv.path[1]), 18);
        assert_eq!(number(21, mv.path[2]), 27);
        assert_eq!(number(21, mv.del[0]), 14);
        assert_eq!(number(21, mv.del[1]), 23);
        assert!(engine.islegal(&board, CB_BLACK, 9, 13).is_none());
    }

    #[test]
    fn checkerboards_probe_and_unknown_words() {
        let mut engine = CheckerBoard::new();
        assert_eq!(engine.command("get movelist B:W1:B").as_deref(), Ok("movelist 0"));
        assert_eq!(engine.command("get protocolversion").as_deref(), Ok("2"));
        assert_eq!(engine.command("get gametype").as_deref(), Ok("21"));
        assert_eq!(engine.command("set hashsize 32").as_deref(), Ok("32"));
        assert_eq!(engine.command("get hashsize").as_deref(), Ok("32"));
        assert!(engine.command("set hashsize lots").is_err());
        assert!(engine.command("frobnicate").is_err());
        assert!(engine.command("set gametype 23").is_err());
        assert_eq!(engine.command("set gametype 25").as_deref(), Ok("25"));
        assert_eq!(engine.command("get hashsize").as_deref(), Ok("32"));
        assert!(
            engine.command("get movelist W:Wa1:Bh8").expect("movelist").starts_with("movelist 1,")
        );
        assert_eq!(fit("ab\u{e9}", 3), "ab");
        // The opening book: on by default, Kingsrow's levels 1-3 all mean on.
        assert_eq!(engine.command("get book").as_deref(), Ok("1"));
        assert_eq!(engine.command("set book 0").as_deref(), Ok("0"));
        assert_eq!(engine.command("get book").as_deref(), Ok("0"));
        assert_eq!(engine.command("set book 2").as_deref(), Ok("1"));
        assert!(engine.command("set book lots").is_err());
        let missing = engine.command("set bookfile /nowhere/x.book");
        assert!(missing.as_ref().is_err_and(|e| e.contains("/nowhere/x.book")), "{missing:?}");
        assert_eq!(engine.command("get bookfile").as_deref(), Ok(""));
    }

    #[test]
    fn ranges_lower_case_and_algebraic_squares_are_read() {
        let mut engine = CheckerBoard::new();
        let start = engine.command("get movelist B:W21-32:B1-12").expect("ranges");
        assert!(start.starts_with("movelist 7,"), "{start}");
        assert_eq!(engine.command("get movelist b:w5:b1").as_deref(), Ok("movelist 1,0,6,6,1,6;"));
        engine.command("set gametype 25").expect("russian");
        // CheckerBoard's numbers and algebraic names, in a FEN and in moves.
        let reply = engine.command("set gamehist W:WKc3:BKh8 c3-b4 h8-g7");
        assert!(reply.is_ok(), "{reply:?}");
        assert!(engine.command("set gamehist W:WK30:BK4 30-26 4-8").is_ok());
        let via_numbers = engine.command("get movelist W:W29:B4").expect("numbers");
        let via_names = engine.command("get movelist W:Wa1:Bh8").expect("names");
        assert_eq!(via_numbers, via_names);
    }

    #[test]
    fn the_library_file_name_chooses_the_game_type() {
        assert_eq!(CheckerBoard::for_library("/x/libdamas_cb.so").gametype(), 21);
        assert_eq!(CheckerBoard::for_library(r"C:\CB\engines\damas_cb_russian.dll").gametype(), 25);
        assert_eq!(CheckerBoard::for_library("libdamas_cb_Italian.so").gametype(), 22);
        assert_eq!(CheckerBoard::for_library("").gametype(), 21);
    }

    #[test]
    fn the_game_history_is_replayed_in_checkerboards_numbers() {
        let mut engine = CheckerBoard::new();
        let reply =
            engine.command("set gamehist B:WK12,K27,30,32:B21,K24,28,K31 24-19 27-24 19-15 12-16");
        assert!(reply.is_ok(), "{reply:?}");
        assert!(engine.command("set gamehist B:W1:B2 9-13").is_err());
    }

    /// A book move says "book move" in the status bar, not "depth 1, 0.00 s, 0 nodes"; with
    /// the book off, the same position shows the search.
    #[test]
    fn the_status_bar_says_book_move() {
        let time = TimeRequest { maxtime: 0.05, info: CB_EXACT_TIME, moreinfo: 0 };
        let statuses = |engine: &mut CheckerBoard| {
            let mut board = start_board();
            let mut lines = Vec::new();
            let answer = engine.getmove(
                &mut board,
                CB_BLACK,
                time,
                &mut |s| lines.push(s.to_string()),
                &|| false,
            );
            assert!(answer.is_ok_and(|a| a.mv.is_some()), "{lines:?}");
            lines
        };
        let mut engine = CheckerBoard::new();
        let lines = statuses(&mut engine);
        let last = lines.last().expect("a status line");
        assert!(last.starts_with("damas: best ") && last.contains("book move"), "{lines:?}");
        assert!(lines.iter().all(|l| !l.contains("nodes")), "{lines:?}");
        assert_eq!(engine.command("set book 0").as_deref(), Ok("0"));
        let lines = statuses(&mut engine);
        assert!(lines.iter().all(|l| !l.contains("book")), "{lines:?}");
        assert!(lines.last().is_some_and(|l| l.contains("nodes")), "{lines:?}");
    }
}
