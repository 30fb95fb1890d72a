//! The engine's options, declared once: [`OPTIONS`] gives each its name, type, range, default
//! and help, and the Hub `param` lines, the UCI `option` lines, the text mode's help and
//! [`Options::set`] are all read from it.
//!
//! Depends on `rules`, `game` (the draw rule sets) and `search` (for the strength range); no
//! I/O.

use crate::game::rules::DrawRuleSet;
use crate::rules::Variant;
use crate::search::{MAX_LEVEL, ParamChanges};

/// Most search threads.
pub const MAX_THREADS: usize = 256;
/// Largest transposition table, MiB.
pub const MAX_HASH: usize = 1 << 16;
/// Most pieces of an endgame database slice the option takes.
pub const MAX_EGDB_PIECES: usize = 16;
/// Most principal variations.
pub const MAX_MULTIPV: usize = 32;

/// The engine's options; they survive a change of variant.
#[derive(Clone, Debug)]
pub struct Options {
    /// The rule set.
    pub variant: Variant,
    /// Search threads.
    pub threads: usize,
    /// Transposition table in MiB.
    pub hash: usize,
    /// Whether the GUI lets us ponder (informational: the GUI itself asks for ponder searches).
    pub ponder: bool,
    /// Principal variations reported by an analysis.
    pub multipv: usize,
    /// Playing strength, 1 to 20 (full).
    pub level: u32,
    /// The evaluation: `default` (the rule set's trained weights where the binary has them) or
    /// `classic` (the hand-set terms).
    pub eval: String,
    /// A weight file to evaluate with instead (empty: none).
    pub eval_file: String,
    /// Where the endgame databases are (empty: the per-user data directory; `none`: none).
    pub egdb_path: String,
    /// The most memory the endgame databases' values take, MiB (beyond it they are read from
    /// their files a block at a time, through a cache of this size).
    pub egdb_cache: usize,
    /// The most pieces of a database slice to use (0: every slice there is).
    pub egdb_pieces: usize,
    /// The draw rules of the game: `default` (the sites'), `federation` or `repetition`.
    pub draw_rules: String,
    /// Whether capturing is compulsory (off: the optional-capture house rule of casual sites).
    pub mandatory_capture: bool,
    /// Whether the engine plays its first moves from an opening book.
    pub book: bool,
    /// The book file (empty: the one built in for the rule set, if any).
    pub book_file: String,
    /// Book moves scored within this many hundredths of a man of the best are played.
    pub book_margin: usize,
    /// Changes to the rule set's tunable search numbers (for a tuner; see
    /// [`ParamChanges::parse`]).
    pub search_params: ParamChanges,
}

/// What kind of value an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A rule set, by any of its names.
    Variant,
    /// A whole number in a range.
    Int {
        /// Least value.
        min: usize,
        /// Greatest value.
        max: usize,
    },
    /// true or false.
    Bool,
    /// One of a few words.
    Choice(&'static [&'static str]),
    /// Any text (a file name); empty for none.
    Text,
}

/// Which field of [`Options`] an option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Variant,
    Threads,
    Hash,
    /// Scan's table size, 2^N entries of 16 bytes: another way to set `hash`.
    TtSize,
    Ponder,
    MultiPv,
    Level,
    Eval,
    EvalFile,
    EgdbPath,
    EgdbCache,
    EgdbPieces,
    DrawRules,
    MandatoryCapture,
    Book,
    BookFile,
    BookMargin,
    SearchParams,
}

/// One option.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Its name in Hub and in the text mode (lower case; names are read case-insensitively).
    pub name: &'static str,
    /// Its name in UCI, or None when UCI does not declare it.
    pub uci: Option<&'static str>,
    /// Whether the Hub handshake declares it (the Hub GUI lists what it is given).
    pub hub: bool,
    /// Its values.
    pub kind: Kind,
    /// What it does, for the text mode's help.
    pub help: &'static str,
    field: Field,
}

/// Every option, in the order the handshakes declare them.
pub const OPTIONS: &[Spec] = &[
    Spec {
        name: "variant",
        uci: Some("Variant"),
        hub: true,
        kind: Kind::Variant,
        help: "the rule set (see `damas variants`)",
        field: Field::Variant,
    },
    Spec {
        name: "threads",
        uci: Some("Threads"),
        hub: true,
        kind: Kind::Int { min: 1, max: MAX_THREADS },
        help: "search threads",
        field: Field::Threads,
    },
    Spec {
        name: "hash",
        uci: Some("Hash"),
        hub: true,
        kind: Kind::Int { min: 1, max: MAX_HASH },
        help: "transposition table size in MiB",
        field: Field::Hash,
    },
    Spec {
        name: "ponder",
        uci: Some("Ponder"),
        hub: true,
        kind: Kind::Bool,
        help: "whether the GUI lets the engine think on the opponent's time",
        field: Field::Ponder,
    },
    Spec {
        name: "multipv",
        uci: Some("MultiPV"),
        hub: false,
        kind: Kind::Int { min: 1, max: MAX_MULTIPV },
        help: "lines an analysis shows",
        field: Field::MultiPv,
    },
    Spec {
        name: "level",
        uci: Some("Level"),
        hub: true,
        kind: Kind::Int { min: 1, max: MAX_LEVEL as usize },
        help: "playing strength, 1 to 20 (20: full)",
        field: Field::Level,
    },
    Spec {
        name: "eval",
        uci: Some("Eval"),
        hub: true,
        kind: Kind::Choice(&["default", "classic"]),
        help: "the evaluation: default (trained weights where built in) or classic (hand-set)",
        field: Field::Eval,
    },
    Spec {
        name: "eval-file",
        uci: Some("EvalFile"),
        hub: true,
        kind: Kind::Text,
        help: "a weight file of `damas train` to evaluate with (empty: none)",
        field: Field::EvalFile,
    },
    Spec {
        name: "egdb-path",
        uci: Some("EgdbPath"),
        hub: true,
        kind: Kind::Text,
        help: "the endgame databases' directory (empty: the per-user data directory; none: \
               no databases)",
        field: Field::EgdbPath,
    },
    Spec {
        name: "egdb-cache",
        uci: Some("EgdbCache"),
        hub: true,
        kind: Kind::Int { min: 1, max: MAX_HASH },
        help: "memory for the endgame databases in MiB (beyond it, read from disk through a \
               cache of this size)",
        field: Field::EgdbCache,
    },
    Spec {
        name: "egdb-pieces",
        uci: Some("EgdbPieces"),
        hub: true,
        kind: Kind::Int { min: 0, max: MAX_EGDB_PIECES },
        help: "the most pieces of the endgame databases to use (0: all there are)",
        field: Field::EgdbPieces,
    },
    Spec {
        name: "draw-rules",
        uci: Some("DrawRules"),
        hub: true,
        kind: Kind::Choice(&DrawRuleSet::NAMES),
        help: "the draw rules: default (the playing sites'), federation (the federation's \
               endgame counts) or repetition (repetition only)",
        field: Field::DrawRules,
    },
    Spec {
        name: "mandatory-capture",
        uci: Some("MandatoryCapture"),
        hub: true,
        kind: Kind::Bool,
        help: "whether capturing is compulsory (false: the optional-capture house rule)",
        field: Field::MandatoryCapture,
    },
    Spec {
        name: "book",
        uci: Some("OwnBook"),
        hub: true,
        kind: Kind::Bool,
        help: "whether the engine plays its first moves from the opening book",
        field: Field::Book,
    },
    Spec {
        name: "book-file",
        uci: Some("BookFile"),
        hub: true,
        kind: Kind::Text,
        help: "an opening book file of `damas book build` (empty: the built-in book)",
        field: Field::BookFile,
    },
    Spec {
        name: "book-margin",
        uci: Some("BookMargin"),
        hub: true,
        kind: Kind::Int { min: 0, max: 100 },
        help: "book moves within this many hundredths of a man of the best one are played \
               (0: only the best)",
        field: Field::BookMargin,
    },
    Spec {
        name: "tt-size",
        uci: None,
        hub: false,
        kind: Kind::Int { min: 10, max: 40 },
        help: "Scan's table size: 2^N entries of 16 bytes (sets hash)",
        field: Field::TtSize,
    },
    Spec {
        name: "search-params",
        uci: None,
        hub: false,
        kind: Kind::Text,
        help: "the search's tunable numbers as NAME:VALUE pairs, e.g. lmr-count:4 (for a tuner; \
               unnamed ones keep the rule set's defaults)",
        field: Field::SearchParams,
    },
];

/// The names the `variant` option accepts: Scan's and lidraughts-bot's first, then ours.
pub fn variant_names() -> Vec<&'static str> {
    let mut names = vec!["normal", "killer", "bt", "frisian", "losing", "russian", "brazilian"];
    for variant in Variant::ALL {
        if !names.contains(&variant.name()) {
            names.push(variant.name());
        }
    }
    names
}

impl Options {
    /// The defaults with `variant`: all cores, 64 MiB.
    pub fn with_variant(variant: Variant) -> Options {
        Options {
            variant,
            threads: std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            hash: 64,
            ponder: false,
            multipv: 1,
            level: MAX_LEVEL,
            eval: "default".to_string(),
            eval_file: String::new(),
            egdb_path: String::new(),
            egdb_cache: crate::egdb::DEFAULT_MEMORY_MB,
            egdb_pieces: 0,
            draw_rules: "default".to_string(),
            mandatory_capture: true,
            book: true,
            book_file: String::new(),
            book_margin: crate::book::DEFAULT_MARGIN as usize,
            search_params: ParamChanges::default(),
        }
    }

    /// The option's current value as text.
    pub fn value(&self, spec: &Spec) -> String {
        match spec.field {
            Field::Variant => self.variant.name().to_string(),
            Field::Threads => self.threads.to_string(),
            Field::Hash => self.hash.to_string(),
            Field::TtSize => ((self.hash << 20) / 16).max(1).ilog2().to_string(),
            Field::Ponder => self.ponder.to_string(),
            Field::MultiPv => self.multipv.to_string(),
            Field::Level => self.level.to_string(),
            Field::Eval => self.eval.clone(),
            Field::EvalFile => self.eval_file.clone(),
            Field::EgdbPath => self.egdb_path.clone(),
            Field::EgdbCache => self.egdb_cache.to_string(),
            Field::EgdbPieces => self.egdb_pieces.to_string(),
            Field::DrawRules => self.draw_rules.clone(),
            Field::MandatoryCapture => self.mandatory_capture.to_string(),
            Field::Book => self.book.to_string(),
            Field::BookFile => self.book_file.clone(),
            Field::BookMargin => self.book_margin.to_string(),
            // Every number the search uses in this rule set, so that a tuner reads its start.
            Field::SearchParams => self.search_params.over(self.variant).to_text(),
        }
    }

    /// Sets option `name` (its Hub or UCI name, case-insensitive) from text. Unknown names are
    /// ignored, as the protocols ask (clients send options nobody declared, like
    /// `initial-time`).
    ///
    /// # Errors
    /// A value out of range or of the wrong type, with what is expected.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let value = value.trim();
        let Some(spec) = OPTIONS.iter().find(|spec| {
            spec.name.eq_ignore_ascii_case(name)
                || spec.uci.is_some_and(|uci| uci.eq_ignore_ascii_case(name))
        }) else {
            return Ok(());
        };
        let wrong = || match spec.kind {
            Kind::Int { min, max } => format!("{name} must be a whole number from {min} to {max}"),
            Kind::Bool => format!("{name} must be true or false, not {value}"),
            Kind::Variant => format!("{name} must be a variant name, not {value}"),
            Kind::Choice(words) => {
                format!("{name} must be one of {}, not {value}", words.join(" "))
            }
            Kind::Text => format!("{name} must be text"),
        };
        let number = || match spec.kind {
            Kind::Int { min, max } => {
                value.parse::<usize>().ok().filter(|v| (min..=max).contains(v)).ok_or_else(wrong)
            }
            _ => Err(wrong()),
        };
        let flag = || match value.to_ascii_lowercase().as_str() {
            "true" | "1" | "on" | "yes" => Ok(true),
            "false" | "0" | "off" | "no" => Ok(false),
            _ => Err(wrong()),
        };
        match spec.field {
            Field::Variant => {
                self.variant = value
                    .parse()
                    .map_err(|e| format!("{e}; known: {}", variant_names().join(" ")))?;
            }
            Field::Threads => self.threads = number()?,
            Field::Hash => self.hash = number()?,
            Field::TtSize => self.hash = (((1usize << number()?) * 16) >> 20).clamp(1, MAX_HASH),
            Field::Ponder => self.ponder = flag()?,
            Field::MultiPv => self.multipv = number()?,
            // The table's range for it is 1 to MAX_LEVEL.
            Field::Level => self.level = number()? as u32,
            Field::Eval | Field::DrawRules => {
                let Kind::Choice(words) = spec.kind else { return Err(wrong()) };
                let word = value.to_ascii_lowercase();
                let word = words.iter().find(|w| **w == word).ok_or_else(wrong)?.to_string();
                if spec.field == Field::Eval {
                    self.eval = word;
                } else {
                    self.draw_rules = word;
                }
            }
            // `<empty>` is how the UCI convention writes an empty string.
            Field::EvalFile => {
                self.eval_file = if value == "<empty>" { String::new() } else { value.to_string() };
            }
            Field::EgdbPath => {
                self.egdb_path = if value == "<empty>" { String::new() } else { value.to_string() };
            }
            Field::EgdbCache => self.egdb_cache = number()?,
            Field::EgdbPieces => self.egdb_pieces = number()?,
            Field::MandatoryCapture => self.mandatory_capture = flag()?,
            Field::Book => self.book = flag()?,
            Field::BookMargin => self.book_margin = number()?,
            Field::BookFile => {
                self.book_file = if value == "<empty>" { String::new() } else { value.to_string() };
            }
            Field::SearchParams => {
                let text = if value == "<empty>" { "" } else { value };
                self.search_params = ParamChanges::parse(text)?;
            }
        }
        Ok(())
    }
}
