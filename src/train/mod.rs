//! Learning the evaluation's weights: the self-play games that make the training data
//! ([`datagen`]: seeded games at a fixed node count, written as positions with the search's score
//! and the game's result) and the trainer that fits the pattern evaluation to them
//! ([`trainer`]: logistic regression, Adam). The weight files they produce are read by
//! `eval::file`; the commands that run them are the binary's (`damas datagen`, `damas train`).
//!
//! Depends on the rules library, `game`, `eval`, `search` and the match referee; no I/O (the
//! commands read and write the files).

pub mod datagen;
pub mod trainer;
