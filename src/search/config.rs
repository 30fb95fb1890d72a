//! What an engine is given from outside: threads, table size, the evaluation it scores
//! positions with, the endgame databases it probes and the opening book it plays from. The
//! binary, the protocols' session, `damas match` and programs using the library all build
//! engines from one of these; a subsystem is handed over here as a field.
//!
//! Depends on `eval`, `egdb`, `book` and the rules library; no I/O.

use super::params::SearchParams;
use crate::book::Book;
use crate::egdb::Egdb;
use crate::eval::Evaluator;
use crate::rules::Rules;
use std::sync::Arc;

/// The configuration of an [`Engine`](super::Engine) for rule set `R`.
#[derive(Clone, Debug)]
pub struct EngineConfig<R: Rules> {
    /// Search threads (at least one is used).
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// The evaluation, shared: each search thread works on its own copy.
    pub evaluator: Arc<Evaluator<R>>,
    /// Endgame databases to probe (None: none), shared by every search thread.
    pub egdb: Option<Arc<Egdb<R>>>,
    /// The opening book to play from (None: none); only games use it, never an analysis or a
    /// search bounded by depth or nodes.
    pub book: Option<Arc<Book<R>>>,
    /// The search's tunable numbers.
    pub params: SearchParams,
}

impl<R: Rules> EngineConfig<R> {
    /// `threads` threads, a `hash_mb` MiB table and the rule set's default evaluation.
    pub fn new(threads: usize, hash_mb: usize) -> Self {
        EngineConfig {
            threads,
            hash_mb,
            evaluator: Arc::new(Evaluator::new()),
            egdb: None,
            book: None,
            params: SearchParams::of::<R>(),
        }
    }

    /// The same with another evaluation (other weights, a trained one).
    pub fn with_evaluator(self, evaluator: Evaluator<R>) -> Self {
        EngineConfig { evaluator: Arc::new(evaluator), ..self }
    }

    /// The same, probing `egdb`.
    pub fn with_egdb(self, egdb: Option<Arc<Egdb<R>>>) -> Self {
        EngineConfig { egdb, ..self }
    }

    /// The same, searching with `params`.
    pub fn with_params(self, params: SearchParams) -> Self {
        EngineConfig { params, ..self }
    }

    /// The same, playing from `book`.
    pub fn with_book(self, book: Option<Arc<Book<R>>>) -> Self {
        EngineConfig { book, ..self }
    }
}
