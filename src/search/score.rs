//! A search score and its bands. Inside the search a score is a plain [`Value`] (hundredths of
//! a man for the side to move, with the game's ends at the top and bottom of the range, so that
//! alpha-beta compares them directly); what the search reports is a [`Score`], which says which
//! band it lies in: a game end in a number of plies, a result the endgame databases know, or
//! an evaluation. Each protocol writes a score in one place
//! from its [`Band`]; [`fmt::Display`] is the form people read.
//!
//! Depends on nothing else in the crate.

use std::fmt;

/// A score as the search computes it: hundredths of a man for the side to move; a win in `n`
/// plies is `WIN - n`, a loss `-(WIN - n)`.
pub type Value = i32;

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;

/// Value of a win at the root; a win in `n` plies is worth `WIN - n`.
pub const WIN: Value = 30_000;

/// Values beyond this are wins or losses.
pub const WIN_BOUND: Value = WIN - MAX_PLY as Value;

/// Value of a win the endgame databases know, at the root with nothing to convert; it comes
/// down by one per ply, in the tree and to the conversion the database counts.
pub const KNOWN_WIN: Value = 20_000;

/// Values beyond this (and below [`WIN_BOUND`]) are known wins or losses.
pub const KNOWN_BOUND: Value = KNOWN_WIN - 1_000;

/// The most plies a known win with a distance counts (the ply plus the database's distance
/// stay far below it): such wins lie above `KNOWN_WIN - KNOWN_DISTANCE_SPAN`.
pub const KNOWN_DISTANCE_SPAN: Value = 349;

/// A win the databases hold without its distance, before its evaluation (within
/// [`KNOWN_EVAL_SPREAD`]) is added: below every known win with a distance, so that the search
/// plays for the conversion into the slices that have them, and above [`KNOWN_BOUND`].
pub const KNOWN_WIN_NO_DISTANCE: Value = KNOWN_WIN - KNOWN_DISTANCE_SPAN - 1 - KNOWN_EVAL_SPREAD;

/// How far the evaluation moves a known win without distance within its band.
pub const KNOWN_EVAL_SPREAD: Value = 300;

/// A reported score, for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(Value);

/// What a score says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    /// The side to move wins in this many plies (0: the game is already won).
    Win {
        /// Plies to the end of the game.
        plies: u32,
    },
    /// The side to move loses in this many plies (0: the game is already lost).
    Loss {
        /// Plies to the end of the game.
        plies: u32,
    },
    /// A win the endgame databases know, `plies` away from a conversion it can be played to
    /// (a capture or promotion into a smaller won ending) counted from the root. Above
    /// [`KNOWN_DISTANCE_SPAN`] it is a win they hold without its distance, and `plies` only
    /// orders such wins (by the evaluation, the best the lowest).
    KnownWin {
        /// Plies, as the database counts them, from the root.
        plies: u32,
    },
    /// A loss the endgame databases know.
    KnownLoss {
        /// Plies, as the database counts them, from the root.
        plies: u32,
    },
    /// An evaluation in hundredths of a man (0 also for a drawn game).
    Eval(i32),
}

impl Score {
    /// The score of a search value.
    pub const fn new(value: Value) -> Score {
        Score(value)
    }

    /// The search value.
    pub const fn value(self) -> Value {
        self.0
    }

    /// In men, as Hub clients and the match referee read scores: a win in `n` plies is
    /// `100 - n/100` (Scan's encoding, 99.xx), a loss its negative, a known win `90 - n/100`
    /// (Scan gives its bitbase results 89.xx), an evaluation its men.
    pub fn men(self) -> f64 {
        match self.band() {
            Band::Win { plies } => 100.0 - f64::from(plies) / 100.0,
            Band::Loss { plies } => -100.0 + f64::from(plies) / 100.0,
            Band::KnownWin { plies } => 90.0 - f64::from(plies) / 100.0,
            Band::KnownLoss { plies } => -90.0 + f64::from(plies) / 100.0,
            Band::Eval(hundredths) => f64::from(hundredths) / 100.0,
        }
    }

    /// Its band.
    pub fn band(self) -> Band {
        let value = self.0;
        if value >= WIN_BOUND {
            Band::Win { plies: (WIN - value).max(0) as u32 }
        } else if value <= -WIN_BOUND {
            Band::Loss { plies: (WIN + value).max(0) as u32 }
        } else if value >= KNOWN_BOUND {
            Band::KnownWin { plies: (KNOWN_WIN - value).max(0) as u32 }
        } else if value <= -KNOWN_BOUND {
            Band::KnownLoss { plies: (KNOWN_WIN + value).max(0) as u32 }
        } else {
            Band::Eval(value)
        }
    }
}

impl std::ops::Neg for Score {
    type Output = Score;

    /// The same score from the other side's point of view.
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

/// Moves (a move by each side is two plies) to the end of a game `plies` plies away.
fn moves(plies: u32) -> u32 {
    plies.div_ceil(2)
}

impl fmt::Display for Score {
    /// As people read it: `+0.35` (men), `win in 7` or `loss in 4` (moves), `won` or `lost`
    /// when the game is over.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.band() {
            Band::Win { plies: 0 } => f.write_str("won"),
            Band::Loss { plies: 0 } => f.write_str("lost"),
            Band::Win { plies } => write!(f, "win in {}", moves(plies)),
            Band::Loss { plies } => write!(f, "loss in {}", moves(plies)),
            Band::KnownWin { .. } => f.write_str("known win"),
            Band::KnownLoss { .. } => f.write_str("known loss"),
            Band::Eval(hundredths) => write!(f, "{:+.2}", f64::from(hundredths) / 100.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_and_words() {
        assert_eq!(Score::new(35).band(), Band::Eval(35));
        assert_eq!(Score::new(WIN - 7).band(), Band::Win { plies: 7 });
        assert_eq!(Score::new(-(WIN - 4)).band(), Band::Loss { plies: 4 });
        assert_eq!(Score::new(35).to_string(), "+0.35");
        assert_eq!(Score::new(-250).to_string(), "-2.50");
        assert_eq!(Score::new(WIN - 7).to_string(), "win in 4");
        assert_eq!(Score::new(-(WIN - 4)).to_string(), "loss in 2");
        assert_eq!(Score::new(KNOWN_WIN - 30).band(), Band::KnownWin { plies: 30 });
        assert_eq!(Score::new(-(KNOWN_WIN - 30)).band(), Band::KnownLoss { plies: 30 });
        assert_eq!(Score::new(-(KNOWN_WIN - 30)).to_string(), "known loss");
        assert!((Score::new(KNOWN_WIN - 30).men() - 89.7).abs() < 1e-9);
        assert_eq!(Score::new(WIN).to_string(), "won");
        assert_eq!((-Score::new(WIN - 1)).band(), Band::Loss { plies: 1 });
        assert_eq!(Score::new(-250).men(), -2.5);
        assert_eq!(Score::new(WIN - 7).men(), 99.93);
        assert_eq!(Score::new(-(WIN - 4)).men(), -99.96);
    }
}
