//! Perft against the published tables in `tests/data/*.perft` (see ../shared/reference/perft.md).
//!
//! The default run checks every line up to a node budget;
//! `cargo test --test suite perft:: -- --ignored` checks the deeper ones (up to `DAMAS_PERFT_MAX` leaves each, 2e9 by default; raise it to
//! run English d14-15 and Turkish d10).

use damas::board::types::Side;
use damas::movegen::perft::{Convention, perft_threads};
use damas::notation::fen;
use damas::rules::{CapturePrecedence, Numbering, PromotionInCapture, Rules, Thai, Variant};
use damas::with_variant;

/// Lines with at most this many leaves run in the default (debug) test run.
const QUICK_BUDGET: u64 = 2_000_000;

struct Case {
    id: String,
    fen: String,
    convention: Convention,
    depth: u32,
    expected: u64,
}

fn cases(file: &str) -> Vec<Case> {
    let path = format!("{}/tests/data/{file}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (mut id, mut fen) = (String::new(), String::new());
    let mut cases = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => id = rest.to_string(),
            "fen" => fen = rest.to_string(),
            "unique" | "paths" | "every-stop" => {
                let convention = match key {
                    "unique" => Convention::Unique,
                    "paths" => Convention::Paths,
                    _ => Convention::EveryStop,
                };
                let (depth, expected) = rest.split_once(' ').expect("depth and count");
                cases.push(Case {
                    id: id.clone(),
                    fen: fen.clone(),
                    convention,
                    depth: depth.parse().expect("depth"),
                    expected: expected.parse().expect("count"),
                });
            }
            other => panic!("{path}: unknown line kind '{other}'"),
        }
    }
    assert!(!cases.is_empty(), "{path} has no cases");
    cases
}

fn check<R: Rules>(low: u64, high: u64) -> usize {
    check_file::<R>(R::VARIANT.name(), low, high)
}

fn check_file<R: Rules>(file: &str, low: u64, high: u64) -> usize {
    let mut checked = 0;
    for case in cases(file).iter().filter(|c| c.expected > low && c.expected <= high) {
        let position = fen::parse::<R>(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let threads = if case.expected > QUICK_BUDGET { 2 } else { 1 };
        let got = perft_threads(&position, case.depth, case.convention, threads);
        assert_eq!(
            got,
            case.expected,
            "{} {:?} depth {} ({:?})",
            case.id,
            case.convention,
            case.depth,
            R::VARIANT
        );
        checked += 1;
    }
    checked
}

fn deep_limit() -> u64 {
    std::env::var("DAMAS_PERFT_MAX").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000_000_000)
}

macro_rules! perft_suite {
    ($quick:ident, $deep:ident, $variant:expr) => {
        #[test]
        fn $quick() {
            let checked = with_variant!($variant, R => check::<R>(0, QUICK_BUDGET));
            assert!(checked > 0);
        }

        #[test]
        #[ignore = "deep perft: run in release mode (.ci/run does)"]
        fn $deep() {
            let checked = with_variant!($variant, R => check::<R>(QUICK_BUDGET, deep_limit()));
            eprintln!("{:?}: {checked} deep perft lines", $variant);
        }
    };
}

perft_suite!(english_quick, english_deep, Variant::English);
perft_suite!(international_quick, international_deep, Variant::International);
perft_suite!(brazilian_quick, brazilian_deep, Variant::Brazilian);
perft_suite!(russian_quick, russian_deep, Variant::Russian);
perft_suite!(spanish_quick, spanish_deep, Variant::Spanish);
perft_suite!(turkish_quick, turkish_deep, Variant::Turkish);
perft_suite!(italian_quick, italian_deep, Variant::Italian);
perft_suite!(portuguese_quick, portuguese_deep, Variant::Portuguese);
perft_suite!(czech_quick, czech_deep, Variant::Czech);
perft_suite!(pool_quick, pool_deep, Variant::Pool);
perft_suite!(thai_quick, thai_deep, Variant::Thai);
perft_suite!(canadian_quick, canadian_deep, Variant::Canadian);
perft_suite!(frisian_quick, frisian_deep, Variant::Frisian);
perft_suite!(frysk_quick, frysk_deep, Variant::Frysk);
perft_suite!(killer_quick, killer_deep, Variant::Killer);
perft_suite!(antidraughts_quick, antidraughts_deep, Variant::Antidraughts);
perft_suite!(breakthrough_quick, breakthrough_deep, Variant::Breakthrough);
perft_suite!(english_losing_quick, english_losing_deep, Variant::EnglishLosing);

/// Thai rules on the 12-men English start, the position DCTL publishes Thai numbers for.
#[derive(Clone, Copy, Debug, Default)]
struct ThaiOnTwelve;

impl Rules for ThaiOnTwelve {
    type Geo = <Thai as Rules>::Geo;
    const VARIANT: Variant = Variant::Thai;
    const FIRST_TO_MOVE: Side = Thai::FIRST_TO_MOVE;
    const START_ROWS: (u32, u32) = (0, 3);
    const MEN_CAPTURE_BACKWARDS: bool = Thai::MEN_CAPTURE_BACKWARDS;
    const FLYING_KINGS: bool = Thai::FLYING_KINGS;
    const KING_LANDS_RIGHT_BEHIND: bool = Thai::KING_LANDS_RIGHT_BEHIND;
    const PROMOTION_IN_CAPTURE: PromotionInCapture = Thai::PROMOTION_IN_CAPTURE;
    const REMOVE_CAPTURED_AT_ONCE: bool = Thai::REMOVE_CAPTURED_AT_ONCE;
    const NO_REVERSAL: bool = Thai::NO_REVERSAL;
    const PRECEDENCE: CapturePrecedence = Thai::PRECEDENCE;
    const MIRRORED: bool = Thai::MIRRORED;
    const NUMBERING: Numbering = Thai::NUMBERING;
    const ALGEBRAIC: bool = Thai::ALGEBRAIC;
    const HUB_NUMBERING: Numbering = Thai::HUB_NUMBERING;
}

#[test]
fn thai_on_twelve_quick() {
    assert!(check_file::<ThaiOnTwelve>("thai-twelve", 0, QUICK_BUDGET) > 0);
}

#[test]
#[ignore = "deep perft: run in release mode (.ci/run does)"]
fn thai_on_twelve_deep() {
    check_file::<ThaiOnTwelve>("thai-twelve", QUICK_BUDGET, deep_limit());
}
