//! Perft against the published tables in `tests/data/*.perft` (see ../shared/reference/perft.md).
//!
//! The default run checks every line up to a node budget; `cargo test --release -- --ignored`
//! checks the deeper ones (up to `DAMAS_PERFT_MAX` leaves each, 2e9 by default; raise it to
//! run English d14-15 and Turkish d10).

use damas::movegen::perft::{Convention, perft_threads};
use damas::notation::fen;
use damas::rules::{Rules, Variant};
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

fn cases(variant: Variant) -> Vec<Case> {
    let path = format!("{}/tests/data/{}.perft", env!("CARGO_MANIFEST_DIR"), variant.name());
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
    let mut checked = 0;
    for case in cases(R::VARIANT).iter().filter(|c| c.expected > low && c.expected <= high) {
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
