//! The game layer and the search rule alike on every finished game: in seeded random games of
//! every rule set, under its default draw rules and its federation's, wherever `Game::outcome`
//! says the game is over,
//! - the search of that position (depth 1) scores the result (a draw 0, a loss or win in 0
//!   plies), and
//! - the search of the position before it (depth 1, every root move a line) scores the move that
//!   led there as the same result one ply deeper, so the tree sees it too.
//!
//! Random play rarely lasts long enough for the longer counts, so each rule set is also played
//! with every count shortened (same rules, same material tests, fewer plies) and the test checks
//! that every way its rules can end a game was reached at least once.

use crate::common;

use common::Rng;
use damas::board::bitset::BitSet;
use damas::board::geometry::Geometry;
use damas::board::types::Side;
use damas::game::{DrawRules, Game, GameRules, Outcome};
use damas::position::{Bits, Position};
use damas::rules::{Goal, Rules, Variant};
use damas::search::{Engine, Info, InfoSink, Limits, Silent, WIN};
use damas::with_variant;
use std::collections::BTreeSet;

/// Every root line of a depth-1 multi-PV search: (first move, score).
struct Lines<R: Rules>(Vec<(damas::position::MoveOf<R>, i32)>);

impl<R: Rules> InfoSink<R> for Lines<R> {
    fn info(&mut self, info: &Info<R>) {
        if let Some(&first) = info.pv.first() {
            self.0.push((first, info.score.value()));
        }
    }
}

/// The score the search must give a finished game `ply` plies below its root.
fn score_of(outcome: &Outcome, to_move: Side, ply: i32) -> i32 {
    match outcome {
        Outcome::Ongoing => unreachable!("only finished games are scored"),
        Outcome::Win(winner, _) if *winner == to_move => WIN - ply,
        Outcome::Win(..) => -WIN + ply,
        Outcome::Draw(_) => 0,
    }
}

/// How an outcome ended the game, without the numbers that some reasons carry.
fn reason(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Win(_, why) => (*why).to_string(),
        Outcome::Draw(why) => why.clone(),
        Outcome::Ongoing => String::new(),
    }
}

/// A random legal position with few pieces (mostly kings), so that endings arise at once.
fn sparse<R: Rules>(rng: &mut Rng) -> Option<Position<R>> {
    let squares = R::Geo::SQUARES as usize;
    let mut used = vec![false; squares];
    let mut sets = [Bits::<R>::EMPTY; 2];
    let mut kings = Bits::<R>::EMPTY;
    let small = |rng: &mut Rng| if rng.below(4) == 0 { 1 + rng.below(7) } else { 1 + rng.below(4) };
    for set in &mut sets {
        for _ in 0..small(rng) {
            let square = rng.below(squares);
            if used[square] {
                continue;
            }
            used[square] = true;
            let bit = Bits::<R>::single(R::Geo::bit(square as u32));
            *set |= bit;
            if rng.below(3) != 0 {
                kings |= bit;
            }
        }
    }
    let side = if rng.below(2) == 0 { Side::White } else { Side::Black };
    Position::from_parts(sets[0], sets[1], kings, side).ok()
}

/// The draw rules with every count cut to a few plies (the reversible count to 16, which leaves
/// room for a threefold repetition: it needs eight).
fn shortened(mut draws: DrawRules) -> DrawRules {
    draws.reversible_plies = draws.reversible_plies.map(|plies| plies.min(16));
    for rule in &mut draws.endgames {
        rule.plies = rule.plies.min(4);
    }
    draws
}

/// Every reason the rules of `R` under `draws` can give for the end of a game.
fn possible_reasons<R: Rules>(draws: &DrawRules) -> BTreeSet<String> {
    let mut reasons = BTreeSet::new();
    reasons.insert(match R::GOAL {
        Goal::Losing => "no move left, and in the losing game that wins".to_string(),
        _ => "the opponent has no move left".to_string(),
    });
    if R::GOAL == Goal::Breakthrough {
        // The first king ends the game, and without kings every move is irreversible: no
        // move-count draw or repetition can arise.
        reasons.insert("first to crown a king".to_string());
        return reasons;
    }
    if draws.repetitions > 0 {
        reasons.insert(format!("the same position {} times", draws.repetitions));
    }
    if let Some(limit) = draws.reversible_plies {
        reasons.insert(format!("{limit} plies without a capture or a man move"));
    }
    for rule in &draws.endgames {
        reasons.insert(format!("{} not won in {} plies", rule.name, rule.plies));
    }
    if let Some(dead) = &draws.dead_draw {
        reasons.insert(dead.name.to_string());
    }
    if draws.king_beats_lone_man {
        reasons.insert("a king against a lone man".to_string());
    }
    reasons
}

/// Checks one finished game (`game`, reached from `parent` by its last move).
fn check_end<R: Rules>(game: &Game<R>, parent: &Game<R>, engines: &mut [Engine<R>; 2]) {
    let outcome = game.outcome();
    let depth_one = Limits { depth: Some(1), ..Limits::default() };
    let fen = damas::notation::fen::write(game.position());
    let at_root = engines[0].go(game, depth_one, false, &mut Silent);
    let to_move = game.position().side_to_move();
    assert_eq!(
        at_root.score.value(),
        score_of(&outcome, to_move, 0),
        "{:?} {fen}: the search scores the finished game ({outcome}) at its root as {}",
        R::VARIANT,
        at_root.score.value()
    );
    assert_eq!(at_root.verdict, game.verdict(), "{:?} {fen}: the verdict at the root", R::VARIANT);
    let Some(&last) = game.moves().last() else { return };
    let lines = parent.legal_moves().len();
    engines[1].set_multipv(lines);
    let mut sink = Lines(Vec::new());
    engines[1].go(parent, depth_one, false, &mut sink);
    let scored = sink.0.iter().find(|(mv, _)| *mv == last).map(|&(_, score)| score);
    let expected = -score_of(&outcome, to_move, 1);
    assert_eq!(
        scored,
        Some(expected),
        "{:?} {} then {}: the search's tree scores the move into the finished game \
         ({outcome}) as {scored:?}",
        R::VARIANT,
        damas::notation::fen::write(parent.position()),
        damas::notation::moves::to_pdn(parent.position(), &last)
    );
}

/// Plays random games of `R` under `draws` until every possible ending has been seen (or
/// `games` were played when `cover` is false); returns the endings seen.
fn play<R: Rules>(draws: &DrawRules, seed: u64, games: usize, cover: bool) -> BTreeSet<String> {
    let rules = GameRules { draws: draws.clone(), mandatory_capture: true };
    let wanted = possible_reasons::<R>(draws);
    let mut seen = BTreeSet::new();
    let mut rng = Rng(seed);
    let mut engines = [Engine::<R>::new(1, 1), Engine::<R>::new(1, 1)];
    for index in 0.. {
        let enough = if cover { wanted.is_subset(&seen) } else { index >= games };
        if enough || index >= 20 * games {
            break;
        }
        let start = if index % 3 == 0 {
            Position::<R>::start()
        } else {
            match sparse::<R>(&mut rng) {
                Some(position) => position,
                None => continue,
            }
        };
        let mut game = Game::with_rules(start, rules.clone());
        let mut parent = game.clone();
        // Each side's last move: half the time a king steps back where it came from, so that
        // positions repeat.
        let mut last: [Option<damas::position::MoveOf<R>>; 2] = [None, None];
        for _ in 0..400 {
            let outcome = game.outcome();
            if outcome != Outcome::Ongoing {
                check_end(&game, &parent, &mut engines);
                seen.insert(reason(&outcome));
                break;
            }
            let list = game.legal_moves();
            let side = game.position().side_to_move().index();
            let back = last[side].and_then(|previous| {
                list.iter().copied().find(|mv| {
                    !mv.is_capture() && mv.from() == previous.to() && mv.to() == previous.from()
                })
            });
            let mv = match back {
                Some(mv) if rng.below(2) == 0 => mv,
                _ => list.as_slice()[rng.below(list.len())],
            };
            last[side] = Some(mv);
            parent = game.clone();
            game.play_unchecked(&mv);
        }
    }
    seen
}

fn agree(variant: Variant, seed: u64) {
    let mut rule_sets = vec![("default", DrawRules::for_variant(variant))];
    let federation = DrawRules::federation(variant);
    if format!("{federation:?}") != format!("{:?}", rule_sets[0].1) {
        rule_sets.push(("federation", federation));
    }
    for (name, draws) in rule_sets {
        with_variant!(variant, R => {
            play::<R>(&draws, seed, 60, false);
            let short = shortened(draws.clone());
            let wanted = possible_reasons::<R>(&short);
            let seen = play::<R>(&short, seed + 1, 400, true);
            let missing: Vec<&String> = wanted.difference(&seen).collect();
            assert!(
                missing.is_empty(),
                "{variant:?} {name} rules, counts shortened: random games never ended by {missing:?}"
            );
        });
    }
}

macro_rules! agree_tests {
    ($($test:ident: $variant:ident,)*) => {
        $(
            #[test]
            fn $test() {
                agree(Variant::$variant, 0x5eed ^ Variant::$variant as u64);
            }
        )*
    };
}

agree_tests! {
    english: English,
    international: International,
    brazilian: Brazilian,
    russian: Russian,
    spanish: Spanish,
    turkish: Turkish,
    italian: Italian,
    portuguese: Portuguese,
    czech: Czech,
    pool: Pool,
    thai: Thai,
    canadian: Canadian,
    frisian: Frisian,
    frysk: Frysk,
    killer: Killer,
    antidraughts: Antidraughts,
    breakthrough: Breakthrough,
    english_losing: EnglishLosing,
}
