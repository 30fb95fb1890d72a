//! The integration tests, built as one binary: every test file here is a module of it, so the
//! library's generic code (the search and rules of every variant) is compiled once for all of
//! them rather than once per file, which made building the tests the longest step of CI.
//!
//! Run one file's tests with its module name: `cargo test --test suite protocol::`; the deep
//! perft and tactics (ignored by default) with `cargo test --test suite perft:: -- --ignored`
//! and `cargo test --test suite tactics:: -- --ignored` (the test profile is optimised: they run
//! as fast as in release, 58 s and 4 s on 2 cores, without a release build of the tests).

mod annotate;
mod cli;
mod common;
mod dxp;
mod egdb_play;
mod fuzz_files;
mod fuzz_notation;
mod fuzz_protocol;
mod game;
mod game_and_search_agree;
mod invariants;
mod match_tool;
mod perft;
mod protocol;
mod rules;
mod rules_variants;
mod search;
mod tactics;
