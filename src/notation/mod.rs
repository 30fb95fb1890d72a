//! Notation in and out: square names, PDN FEN, moves in PDN and Hub form, the Hub and DXP
//! position strings, and the board diagram.
//!
//! Everything here converts between text and the rules library's types; square numbers exist
//! only at this edge. Depends on the rules library (position, movegen); must not depend on search
//! or I/O.

pub mod diagram;
pub mod dxp;
pub mod fen;
pub mod hub;
pub mod moves;
pub mod pdn;
pub mod squares;
pub mod svg;

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
