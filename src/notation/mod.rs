//! Notation in and out: square names, PDN FEN, moves in PDN and Hub form, the Hub and DXP
//! position strings, and the board diagram.
//!
//! Everything here converts between text and the rules library's types; square numbers exist
//! only at this edge. Depends on the rules library (position, movegen); must not depend on search
//! or I/O.

pub mod diagram;
pub mod dxp;
pub mod fen;
pub mod guess;
pub mod hub;
pub mod moves;
pub mod pdn;
pub mod squares;
pub mod svg;

use crate::position::Position;
use crate::rules::Rules;
use std::fmt;

/// A piece of text that could not be read; the message says what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError(String);

impl NotationError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        NotationError(message.into())
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotationError {}

/// A pasted position: a PDN FEN (`W:W31-50:B1-20`) or a Hub position string (`Wbbb...eww`).
///
/// # Errors
/// Text that reads as neither; where its squares or length fit another rule set better, the
/// message says which (see [`guess`]).
pub fn position<R: Rules>(text: &str) -> Result<Position<R>, NotationError> {
    let read =
        if guess::is_hub_position(text) { hub::parse::<R>(text) } else { fen::parse::<R>(text) };
    read.map_err(|error| {
        let guess = guess::of_position(text);
        let other = guess.first();
        if other == R::VARIANT || guess.candidates.contains(&R::VARIANT) {
            return error;
        }
        NotationError::new(format!(
            "{error}. With {}, this looks like {name}: choose that rule set (`--variant {name}`, \
             or `variant {name}` in the text mode)",
            guess.why,
            name = other.name()
        ))
    })
}
