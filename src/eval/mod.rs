//! Static evaluation: a score for the side to move, in hundredths of a man.
//!
//! Two evaluations sit behind one type, [`Evaluator`]: the trained pattern evaluation
//! ([`pattern`], weights learned from damas's own games, read from a weight file, [`file`]) and
//! the hand-set one ([`classic`]). A rule set with trained weights built into the binary
//! evaluates with them by default; the others with the classic terms. The search sees only
//! `Evaluator::evaluate`: one match on the kind, always the same branch in a search, no dynamic
//! dispatch. A search that keeps the pattern indices up to date through its moves
//! ([`Evaluator::patterns`], [`Pattern::update`]) scores with [`Evaluator::evaluate_with`]
//! instead of reading the board again at every leaf; the classic terms ignore them.
//!
//! Pure and deterministic. Depends on the rules library only.

pub mod classic;
pub mod file;
pub mod params;
pub mod pattern;

use crate::position::Position;
use crate::rules::{Rules, Variant};
pub use classic::Classic;
pub use params::Weights;
pub use pattern::{Pattern, PatternWeights, Patterns};

/// The weight files built into the binary, by rule set: the default evaluation where present.
/// Made with `damas datagen` and `damas train` (docs/evaluation.md gives the commands).
fn embedded(variant: Variant) -> Option<&'static [u8]> {
    match variant {
        Variant::English => Some(include_bytes!("weights/english.dmw")),
        Variant::International => Some(include_bytes!("weights/international.dmw")),
        Variant::Russian => Some(include_bytes!("weights/russian.dmw")),
        Variant::Brazilian => Some(include_bytes!("weights/brazilian.dmw")),
        Variant::Spanish => Some(include_bytes!("weights/spanish.dmw")),
        Variant::Turkish => Some(include_bytes!("weights/turkish.dmw")),
        Variant::Antidraughts => Some(include_bytes!("weights/antidraughts.dmw")),
        Variant::EnglishLosing => Some(include_bytes!("weights/english-losing.dmw")),
        Variant::Canadian => Some(include_bytes!("weights/canadian.dmw")),
        Variant::Thai => Some(include_bytes!("weights/thai.dmw")),
        Variant::Frysk => Some(include_bytes!("weights/frysk.dmw")),
        Variant::Czech => Some(include_bytes!("weights/czech.dmw")),
        Variant::Frisian => Some(include_bytes!("weights/frisian.dmw")),
        _ => None,
    }
}

/// The rule sets without weights of their own that evaluate with those of a rule set on the same
/// board and close to them in play, each borrowing shown by a match not to be worse than the
/// classic terms there (docs/evaluation.md has the matches), and each new generation of the
/// lender's weights by a match against the previous one ([`lent`]).
pub fn lender(variant: Variant) -> Option<Variant> {
    match variant {
        Variant::Italian => Some(Variant::English),
        Variant::Portuguese => Some(Variant::Spanish),
        Variant::Pool => Some(Variant::Russian),
        Variant::Killer | Variant::Breakthrough => Some(Variant::International),
        // Tried and refused by their matches (SPRT [0, 50] accepted H0): Czech with Russian's
        // weights (+14 +- 26), Thai with Russian's (-25 +- 57), Frisian and frysk! with
        // International's (-41 +- 73, -75 +- 72). They have weights of their own.
        _ => None,
    }
}

/// The weights a rule set without its own evaluates with, and the rule set they were trained
/// for: its [`lender`]'s built-in weights, except where a borrower keeps an earlier generation
/// of them because the new one played worse there (the match is in
/// `src/eval/weights/README.md`).
fn lent(variant: Variant) -> Option<(&'static [u8], Variant)> {
    match variant {
        // International's generation 3 lost nothing and won nothing in Breakthrough (-3.5 +-
        // 44.9 Elo in 200 games against generation 2): it keeps generation 2.
        Variant::Breakthrough => {
            Some((include_bytes!("weights/international-2.dmw"), Variant::International))
        }
        // Russian's generation 3 (labels from the databases) played no better in pool than the
        // generation 2 with Scan's terms it replaced (-12.2 +- 23.8 Elo in 200 games): pool
        // keeps that one.
        Variant::Pool => Some((include_bytes!("weights/russian-2.dmw"), Variant::Russian)),
        // International's generation 5 trained again with Scan's flank regions and king square
        // table played level with it in Killer (-1.7 +- 30.0 Elo in 400 games): Killer keeps
        // the one without them.
        Variant::Killer => {
            Some((include_bytes!("weights/international-5.dmw"), Variant::International))
        }
        _ => lender(variant).and_then(|lender| embedded(lender).map(|bytes| (bytes, lender))),
    }
}

/// Which evaluation to use, as the `eval` option names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The rule set's trained weights where the binary has them, else the classic terms.
    Default,
    /// The hand-set terms.
    Classic,
}

/// An evaluation for rule set `R`.
#[derive(Clone, Debug)]
pub enum Evaluator<R: Rules> {
    /// The hand-set terms.
    Classic(Classic<R>),
    /// Trained pattern weights.
    Pattern(Pattern<R>),
}

impl<R: Rules> Default for Evaluator<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Rules> Evaluator<R> {
    /// The default evaluation of `R`: its built-in trained weights if it has them, else the
    /// classic terms.
    pub fn new() -> Self {
        Self::builtin(R::VARIANT).unwrap_or_else(|| Evaluator::Classic(Classic::new()))
    }

    /// The evaluation `kind` names.
    pub fn of_kind(kind: Kind) -> Self {
        match kind {
            Kind::Default => Self::new(),
            Kind::Classic => Evaluator::Classic(Classic::new()),
        }
    }

    /// The trained weights built in for `variant`, its own or its [`lender`]'s, if the binary
    /// has them (a weight file given by the user is only ever loaded for the rule set it was
    /// trained on: [`Pattern::new`] refuses others).
    fn builtin(variant: Variant) -> Option<Self> {
        let own = embedded(variant).map(|bytes| (bytes, variant));
        let (bytes, trained_for) = own.or_else(|| lent(variant))?;
        let weights = file::read(bytes).ok()?;
        Pattern::with_lender(weights, trained_for).ok().map(Evaluator::Pattern)
    }

    /// The pattern evaluation of a weight file's bytes: weights made for `R`, or for the rule
    /// set `R` borrows its built-in weights from ([`lender`]: Killer reads International's).
    ///
    /// # Errors
    /// What is wrong with the file, or that it was made for another rule set.
    pub fn from_file_bytes(bytes: &[u8]) -> Result<Self, String> {
        let weights = file::read(bytes)?;
        let made_for = match lender(R::VARIANT) {
            Some(lender) if weights.variant == lender => lender,
            _ => R::VARIANT,
        };
        Pattern::with_lender(weights, made_for)
            .map(Evaluator::Pattern)
            .map_err(|mismatch| mismatch.0)
    }

    /// The pattern evaluation of the weight file at `path` (the one place the evaluation reads
    /// a file).
    ///
    /// # Errors
    /// The file cannot be read, or [`Evaluator::from_file_bytes`] refuses it.
    pub fn load(path: &std::path::Path) -> Result<Self, String> {
        let bytes = crate::bounded::read(path, crate::bounded::WEIGHTS)?;
        Self::from_file_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The evaluation an `eval` option (`default`, `classic`) and an `eval-file` option (a
    /// path, or empty) choose: the file wins.
    ///
    /// # Errors
    /// An unknown kind, or a file [`Evaluator::load`] refuses.
    pub fn chosen(kind: &str, file: Option<&std::path::Path>) -> Result<Self, String> {
        if let Some(path) = file {
            return Self::load(path);
        }
        match kind {
            "default" | "trained" | "" => Ok(Self::of_kind(Kind::Default)),
            "classic" => Ok(Self::of_kind(Kind::Classic)),
            other => Err(format!("unknown evaluation `{other}` (default, classic)")),
        }
    }

    /// A short name: `classic` or `trained (english)`.
    pub fn describe(&self) -> String {
        match self {
            Evaluator::Classic(_) => "classic".into(),
            Evaluator::Pattern(pattern) => {
                format!("trained ({})", pattern.weights().variant.name())
            }
        }
    }

    /// The incremental state of `position`: its pattern indices (the classic terms keep none).
    #[inline]
    pub fn patterns(&self, position: &Position<R>) -> Patterns {
        match self {
            Evaluator::Classic(_) => Patterns::default(),
            Evaluator::Pattern(pattern) => pattern.patterns(position),
        }
    }

    /// [`Evaluator::evaluate`] of `position` whose state is `patterns` (what
    /// [`Evaluator::patterns`] and [`Pattern::update`] keep): the same score, without reading
    /// the board's men again.
    #[inline(always)]
    pub fn evaluate_with(&self, position: &Position<R>, patterns: &Patterns) -> i32 {
        match self {
            Evaluator::Classic(classic) => classic.evaluate(position),
            Evaluator::Pattern(pattern) => pattern.evaluate_with(position, patterns),
        }
    }

    /// The score of `position` for the side to move.
    #[inline]
    pub fn evaluate(&self, position: &Position<R>) -> i32 {
        match self {
            Evaluator::Classic(classic) => classic.evaluate(position),
            Evaluator::Pattern(pattern) => pattern.evaluate(position),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::with_variant;

    /// A rule set evaluates with trained weights by default exactly when the binary has its own
    /// or its lender's: a borrowing that did not fit the borrower's board would fall back to
    /// the classic terms without a word.
    #[test]
    fn every_built_in_or_borrowed_weight_set_loads() {
        for &variant in Variant::ALL {
            let expected = embedded(variant).is_some() || lent(variant).is_some();
            let trained =
                with_variant!(variant, R => matches!(Evaluator::<R>::new(), Evaluator::Pattern(_)));
            assert_eq!(trained, expected, "{}", variant.name());
        }
    }

    /// A weight file loads for its own rule set and for those that borrow from it (so that a
    /// borrower's match can try its lender's new weights), for no other.
    #[test]
    fn a_weight_file_loads_for_its_rule_set_and_its_borrowers() {
        use crate::rules::{Frisian, International, Killer};
        let bytes = embedded(Variant::International).expect("International's weights");
        assert!(Evaluator::<International>::from_file_bytes(bytes).is_ok());
        let borrowed = Evaluator::<Killer>::from_file_bytes(bytes).map(|e| e.describe());
        assert_eq!(borrowed, Ok("trained (international)".to_string()));
        let refused = Evaluator::<Frisian>::from_file_bytes(bytes).err().unwrap_or_default();
        assert!(refused.contains("for international, not frisian"), "{refused}");
    }
}
