//! Endgames are played perfectly: random won English positions of 4 pieces, played by an engine
//! with the endgame databases against the same engine without them, are won within the game's
//! draw rules, and random drawn ones are never lost, whichever side has the databases. With
//! `DAMAS_EGDB_5=DIR` (English databases of up to 5 pieces, from `damas egdb build --pieces 5`)
//! the ignored test does the same for 5 pieces.

use crate::common::Rng;
use damas::egdb::build;
use damas::egdb::index::{Slice, SliceIndex};
use damas::egdb::{Egdb, Outcome};
use damas::game::{Game, Verdict};
use damas::position::Position;
use damas::rules::English;
use damas::search::{Engine, EngineConfig, Limits, Silent};
use damas::types::Side;
use std::sync::Arc;

/// Random positions of `pieces` pieces, White to move, whose value for White is `outcome` and
/// whose game is not over yet.
fn sample(
    egdb: &Egdb<English>,
    pieces: u32,
    outcome: Outcome,
    count: usize,
    rng: &mut Rng,
) -> Vec<Position<English>> {
    let slices: Vec<SliceIndex> = Slice::all_of(pieces)
        .into_iter()
        .filter_map(SliceIndex::new::<English>)
        .filter(|index| index.slice().men[0] + index.slice().kings[0] > 0)
        .collect();
    let mut found = Vec::new();
    for _ in 0..count * 1000 {
        if found.len() == count {
            break;
        }
        let index = &slices[rng.below(slices.len())];
        let number = rng.next() % index.size();
        let Some(position) = index.position::<English>(number) else { continue };
        if Game::new(position).verdict().is_some() {
            continue;
        }
        if egdb.probe(&position).is_some_and(|value| value.outcome() == outcome) {
            found.push(position);
        }
    }
    assert_eq!(found.len(), count, "not enough {outcome} positions of {pieces} pieces");
    found
}

/// Plays `start` to its end (or 400 plies) under the game's rules, `informed` searching with the
/// databases and the other side without them, both at depth 6; the verdict.
fn play(start: Position<English>, egdb: &Arc<Egdb<English>>, informed: Side) -> Option<Verdict> {
    let config = EngineConfig::new(1, 4).with_egdb(Some(Arc::clone(egdb)));
    let mut with = Engine::<English>::with_config(config);
    let mut without = Engine::<English>::new(1, 4);
    let mut game = Game::new(start);
    let limits = Limits { depth: Some(6), ..Limits::default() };
    for _ in 0..400 {
        if let Some(verdict) = game.verdict() {
            return Some(verdict);
        }
        let engine =
            if game.position().side_to_move() == informed { &mut with } else { &mut without };
        let best = engine.go(&game, limits, false, &mut Silent).best?;
        game.play(&best).ok()?;
    }
    None
}

fn check(egdb: Egdb<English>, pieces: u32, wins: usize, draws: usize) {
    let egdb = Arc::new(egdb);
    let mut rng = Rng(0x5eed_0000 + u64::from(pieces));
    for (i, start) in sample(&egdb, pieces, Outcome::Win, wins, &mut rng).into_iter().enumerate() {
        let verdict = play(start, &egdb, Side::White);
        assert!(
            matches!(verdict, Some(Verdict::Win(Side::White, _))),
            "won position {i} {} not converted: {verdict:?}",
            damas::notation::fen::write(&start)
        );
    }
    for (i, start) in sample(&egdb, pieces, Outcome::Draw, draws, &mut rng).into_iter().enumerate()
    {
        let informed = if i % 2 == 0 { Side::White } else { Side::Black };
        let verdict = play(start, &egdb, informed);
        assert!(
            !matches!(verdict, Some(Verdict::Win(winner, _)) if winner != informed),
            "drawn position {i} {} lost by the side with the databases: {verdict:?}",
            damas::notation::fen::write(&start)
        );
    }
}

#[test]
fn won_four_piece_endings_are_converted_and_drawn_ones_never_lost() {
    let mut egdb = Egdb::<English>::new();
    build::build(&mut egdb, 4, |_, _| Ok(()), |_, _, _| {}).expect("build");
    check(egdb, 4, 200, 40);
}

#[test]
#[ignore = "needs English databases of 5 pieces: DAMAS_EGDB_5=DIR"]
fn won_five_piece_endings_are_converted_and_drawn_ones_never_lost() {
    let Ok(dir) = std::env::var("DAMAS_EGDB_5") else {
        eprintln!("DAMAS_EGDB_5 is not set: skipped");
        return;
    };
    let (egdb, refused) = Egdb::<English>::open(std::path::Path::new(&dir), 1 << 30, None)
        .expect("open the databases");
    assert!(refused.is_empty() && egdb.max_pieces() >= 5, "{refused:?}");
    check(egdb, 5, 200, 40);
}
