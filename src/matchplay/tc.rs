//! Time controls of a match and the referee's clock: seconds a move, moves in a time with an
//! increment (Fischer), sudden death, or a fixed depth or node count. The referee keeps one
//! [`Clock`] per engine and decides forfeits by it, whatever the engine believes.
//!
//! Depends on nothing else in the crate.

use std::fmt;
use std::time::Duration;

/// How long an engine may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A fixed time for every move (`0.1`).
    PerMove(Duration),
    /// A clock: `base` for `moves` moves (then `base` again), or for the whole game when
    /// `moves` is None, plus `increment` after every move (`40/60+0.5`, `60+0.5`, `0/60`).
    Clock {
        /// Moves per period (None: the whole game).
        moves: Option<u32>,
        /// Time per period.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// Search to a fixed depth, no clock (`depth=N`).
    Depth(u32),
    /// Search a fixed number of nodes, no clock (`nodes=N`).
    Nodes(u64),
}

fn seconds(text: &str, whole: &str) -> Result<Duration, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("time control '{whole}': '{text}' is not a number of seconds"))?;
    if !value.is_finite() || !(0.0..=1.0e6).contains(&value) {
        return Err(format!("time control '{whole}': {text} seconds is out of range"));
    }
    Ok(Duration::from_secs_f64(value))
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// `0.1` (seconds a move), `40/60+0.5` (40 moves in 60 s, 0.5 s added a move), `60+0.5`
    /// (the whole game in 60 s, 0.5 s a move), `0/60` (sudden death), `depth=N`, `nodes=N`.
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if let Some(depth) = text.strip_prefix("depth=") {
            return match depth.parse::<u32>() {
                Ok(depth) if (1..=100).contains(&depth) => Ok(TimeControl::Depth(depth)),
                _ => Err(format!("time control '{text}': depth must be 1 to 100")),
            };
        }
        if let Some(nodes) = text.strip_prefix("nodes=") {
            return match nodes.parse::<u64>() {
                Ok(nodes) if nodes > 0 => Ok(TimeControl::Nodes(nodes)),
                _ => Err(format!("time control '{text}': nodes must be a positive number")),
            };
        }
        if !text.contains(['/', '+']) {
            let per_move = seconds(text, text)?;
            if per_move.is_zero() {
                return Err(format!("time control '{text}': a move needs some time"));
            }
            return Ok(TimeControl::PerMove(per_move));
        }
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves: u32 = moves.parse().map_err(|_| {
                    format!("time control '{text}': '{moves}' is not a number of moves")
                })?;
                (if moves == 0 { None } else { Some(moves) }, rest)
            }
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, increment)) => (seconds(base, text)?, seconds(increment, text)?),
            None => (seconds(rest, text)?, Duration::ZERO),
        };
        if base.is_zero() && increment.is_zero() {
            return Err(format!("time control '{text}': the clock needs some time"));
        }
        Ok(TimeControl::Clock { moves, base, increment })
    }
}

impl fmt::Display for TimeControl {
    /// The PDN `TimeControl` tag's form: `40/60+0.5`, `60+0.5`, `0.1/move`, `depth=N`, `nodes=N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::PerMove(time) => write!(f, "{}/move", time.as_secs_f64()),
            TimeControl::Clock { moves, base, increment } => {
                if let Some(moves) = moves {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}", base.as_secs_f64())?;
                if !increment.is_zero() {
                    write!(f, "+{}", increment.as_secs_f64())?;
                }
                Ok(())
            }
            TimeControl::Depth(depth) => write!(f, "depth={depth}"),
            TimeControl::Nodes(nodes) => write!(f, "nodes={nodes}"),
        }
    }
}

/// What an engine is told before a move: the limit of this move, or its clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoveLimit {
    /// Exactly this long.
    MoveTime(Duration),
    /// The time left on its clock, the increment, and the moves to the next period.
    Clock {
        /// Time left.
        left: Duration,
        /// Added after the move.
        increment: Duration,
        /// Moves until the clock is filled again (None: the rest of the game).
        moves_to_go: Option<u32>,
    },
    /// To this depth.
    Depth(u32),
    /// This many nodes.
    Nodes(u64),
}

/// The referee's clock of one engine in one game.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    control: TimeControl,
    left: Duration,
    moves_made: u32,
}

/// A move over its time: how long it took and what was allowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Overrun {
    /// Time the move took.
    pub took: Duration,
    /// Time the clock allowed (before the margin).
    pub allowed: Duration,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        let left = match control {
            TimeControl::Clock { base, .. } => base,
            TimeControl::PerMove(time) => time,
            _ => Duration::ZERO,
        };
        Clock { control, left, moves_made: 0 }
    }

    /// What the engine is told for its next move.
    pub fn limit(&self) -> MoveLimit {
        match self.control {
            TimeControl::PerMove(time) => MoveLimit::MoveTime(time),
            TimeControl::Clock { moves, increment, .. } => MoveLimit::Clock {
                left: self.left,
                increment,
                moves_to_go: moves.map(|period| period - self.moves_made % period),
            },
            TimeControl::Depth(depth) => MoveLimit::Depth(depth),
            TimeControl::Nodes(nodes) => MoveLimit::Nodes(nodes),
        }
    }

    /// How long the engine may take on its next move before it loses on time (None: no clock).
    pub fn allowed(&self) -> Option<Duration> {
        match self.control {
            TimeControl::PerMove(time) => Some(time),
            TimeControl::Clock { .. } => Some(self.left),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => None,
        }
    }

    /// Charges a move that took `took`: an error when it overran what was allowed by more than
    /// `margin`. Otherwise the increment is added, and the base again at the end of a period.
    ///
    /// # Errors
    /// The move took longer than its time and the margin.
    pub fn charge(&mut self, took: Duration, margin: Duration) -> Result<(), Overrun> {
        let Some(allowed) = self.allowed() else { return Ok(()) };
        if took > allowed + margin {
            return Err(Overrun { took, allowed });
        }
        if let TimeControl::Clock { moves, base, increment } = self.control {
            self.left = self.left.saturating_sub(took) + increment;
            self.moves_made += 1;
            if moves.is_some_and(|period| self.moves_made % period == 0) {
                self.left += base;
            }
        }
        Ok(())
    }

    /// Time left on the clock (for a clock control; the move's time otherwise).
    pub fn left(&self) -> Duration {
        self.left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(value: f64) -> Duration {
        Duration::from_secs_f64(value)
    }

    #[test]
    fn time_controls_are_read_as_cutechess_writes_them() {
        assert_eq!("0.1".parse(), Ok(TimeControl::PerMove(secs(0.1))));
        assert_eq!(
            "40/60+0.5".parse(),
            Ok(TimeControl::Clock { moves: Some(40), base: secs(60.0), increment: secs(0.5) })
        );
        assert_eq!(
            "60+0.5".parse(),
            Ok(TimeControl::Clock { moves: None, base: secs(60.0), increment: secs(0.5) })
        );
        assert_eq!(
            "0/60".parse(),
            Ok(TimeControl::Clock { moves: None, base: secs(60.0), increment: Duration::ZERO })
        );
        assert_eq!("depth=7".parse(), Ok(TimeControl::Depth(7)));
        assert_eq!("nodes=5000".parse(), Ok(TimeControl::Nodes(5000)));
        for bad in ["", "0", "-1", "x", "40/x", "40/60+", "depth=0", "nodes=-3", "0/0", "1e9"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(
            "40/60+0.5".parse::<TimeControl>().map(|tc| tc.to_string()),
            Ok("40/60+0.5".into())
        );
    }

    #[test]
    fn the_clock_adds_the_increment_and_refills_each_period() {
        let control: TimeControl = "2/10+1".parse().unwrap();
        let mut clock = Clock::new(control);
        assert_eq!(
            clock.limit(),
            MoveLimit::Clock { left: secs(10.0), increment: secs(1.0), moves_to_go: Some(2) }
        );
        assert_eq!(clock.charge(secs(4.0), Duration::ZERO), Ok(()));
        assert_eq!(clock.left(), secs(7.0));
        assert_eq!(clock.charge(secs(6.0), Duration::ZERO), Ok(()));
        // 7 - 6 + 1, and the second period's 10 s.
        assert_eq!(clock.left(), secs(12.0));
        assert_eq!(
            clock.limit(),
            MoveLimit::Clock { left: secs(12.0), increment: secs(1.0), moves_to_go: Some(2) }
        );
        let over = clock.charge(secs(12.5), secs(0.25));
        assert_eq!(over, Err(Overrun { took: secs(12.5), allowed: secs(12.0) }));
        let mut per_move = Clock::new(TimeControl::PerMove(secs(0.1)));
        assert!(per_move.charge(secs(0.12), secs(0.05)).is_ok());
        assert!(per_move.charge(secs(0.2), secs(0.05)).is_err());
        let mut depth = Clock::new(TimeControl::Depth(5));
        assert_eq!(depth.allowed(), None);
        assert!(depth.charge(secs(100.0), Duration::ZERO).is_ok());
    }
}
