//! The search finds the winning move of sourced tactical positions (tests/data/tactics.txt:
//! shots and won endings from published problem columns, books and rule pages, each line with
//! its source; for the rule sets with none published in text, small positions whose only
//! winning move tools/prove_win.py proved with pydraughts). One thread, fixed depth:
//! deterministic. Positions whose win needs a deep search
//! run with `cargo test --test suite tactics:: -- --ignored`.

use damas::game::Game;
use damas::notation::{fen, moves};
use damas::rules::{Rules, Variant};
use damas::search::{Engine, Limits, Silent};
use damas::with_variant;

struct Case {
    line: usize,
    variant: Variant,
    fen: String,
    answers: Vec<String>,
    depth: u32,
}

/// The positions, with the depth each needs (the first depth from which the engine's choice
/// matches the source, plus two plies of margin).
fn cases() -> Vec<Case> {
    let text = include_str!("../data/tactics.txt");
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert!(fields.len() >= 5, "line {}: five fields expected", index + 1);
        let variant = fields[0].parse().unwrap_or_else(|e| panic!("line {}: {e}", index + 1));
        let needed: u32 = fields[3]
            .trim_start_matches('d')
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|d| d.parse().ok())
            .unwrap_or_else(|| panic!("line {}: depth field {}", index + 1, fields[3]));
        // A published source (a link), or a proof by another program's move generator.
        let cited = fields[4].contains("http") || fields[4].contains("tools/prove_win.py");
        assert!(cited, "line {}: every position cites its source or its proof", index + 1);
        cases.push(Case {
            line: index + 1,
            variant,
            fen: fields[1].to_string(),
            answers: fields[2].split('/').map(|m| m.trim().to_string()).collect(),
            depth: needed + 2,
        });
    }
    cases
}

fn solve<R: Rules>(case: &Case) -> String {
    let position = fen::parse::<R>(&case.fen).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
    let mut engine = Engine::<R>::new(1, 16);
    let limits = Limits { depth: Some(case.depth), ..Limits::default() };
    let result = engine.go(&Game::new(position), limits, false, &mut Silent);
    let best = result.best.unwrap_or_else(|| panic!("line {}: no move", case.line));
    moves::to_pdn(&position, &best)
}

fn check(deep: bool) -> usize {
    let mut checked = 0;
    for case in cases().iter().filter(|case| (case.depth > 14) == deep) {
        let found = with_variant!(case.variant, R => solve::<R>(case));
        assert!(
            case.answers.contains(&found),
            "line {} ({} {}): played {found}, the source's win is {:?} (depth {})",
            case.line,
            case.variant.name(),
            case.fen,
            case.answers,
            case.depth
        );
        checked += 1;
    }
    checked
}

#[test]
fn finds_the_winning_move() {
    assert!(check(false) >= 10, "the suite should hold at least ten quick positions");
}

#[test]
#[ignore = "deep searches: run in release"]
fn finds_the_winning_move_in_deep_positions() {
    assert!(check(true) >= 3);
}
