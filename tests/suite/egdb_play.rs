//! Endgames are played perfectly: random won English positions of 4 pieces, played by an engine
//! with the endgame databases against the same engine without them, are won within the game's
//! draw rules, and random drawn ones are never lost, whichever side has the databases. With
//! `DAMAS_EGDB_5=DIR` (English databases of up to 5 pieces, from `damas egdb build --pieces 5`)
//! the ignored test does the same for 5 pieces, and with `DAMAS_EGDB_6=DIR` (up to 6 pieces,
//! the 6-piece slices stored without distances: the search converts their wins) for 6 pieces
//! at depth 10.

use crate::common::Rng;
use damas::board::types::Side;
use damas::egdb::build;
use damas::egdb::index::{NO_STREAKS, Slice, SliceIndex};
use damas::egdb::{Egdb, Outcome};
use damas::game::{Game, Verdict};
use damas::position::Position;
use damas::rules::English;
use damas::search::{Engine, EngineConfig, Limits, Silent};
use std::sync::Arc;

/// Random positions of `pieces` pieces, White to move, in the slices `slice_ok` accepts, whose
/// value for White is `outcome` and whose game is not over yet.
fn sample(
    egdb: &Egdb<English>,
    pieces: u32,
    outcome: Outcome,
    count: usize,
    rng: &mut Rng,
    slice_ok: impl Fn(Slice) -> bool,
) -> Vec<Position<English>> {
    let slices: Vec<SliceIndex> = Slice::all_of(pieces)
        .into_iter()
        .filter_map(SliceIndex::new::<English>)
        .filter(|index| index.slice().men[0] + index.slice().kings[0] > 0)
        .filter(|index| slice_ok(index.slice()))
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
        if egdb.probe(&position, &NO_STREAKS).is_some_and(|value| value.outcome() == outcome) {
            found.push(position);
        }
    }
    assert_eq!(found.len(), count, "not enough {outcome} positions of {pieces} pieces");
    found
}

/// Plays `start` to its end (or 400 plies) under the game's rules, `informed` searching with the
/// databases and the other side without them, both at `depth`; the verdict.
fn play(
    start: Position<English>,
    egdb: &Arc<Egdb<English>>,
    informed: Side,
    depth: u32,
) -> Option<Verdict> {
    let config = EngineConfig::new(1, 4).with_egdb(Some(Arc::clone(egdb)));
    let mut with = Engine::<English>::with_config(config);
    let mut without = Engine::<English>::new(1, 4);
    let mut game = Game::new(start);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
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

/// Plays `wins` random won and `draws` random drawn positions of `pieces` pieces at `depth`;
/// fails naming every won one not converted and every drawn one lost.
fn check(egdb: Egdb<English>, pieces: u32, depth: u32, wins: usize, draws: usize) {
    check_in(Arc::new(egdb), pieces, depth, wins, draws, |_| true);
}

/// [`check`] in the slices `slice_ok` accepts.
fn check_in(
    egdb: Arc<Egdb<English>>,
    pieces: u32,
    depth: u32,
    wins: usize,
    draws: usize,
    slice_ok: impl Fn(Slice) -> bool + Copy,
) {
    let mut rng = Rng(0x5eed_0000 + u64::from(pieces));
    let mut failures = Vec::new();
    let won = sample(&egdb, pieces, Outcome::Win, wins, &mut rng, slice_ok);
    for (i, start) in won.into_iter().enumerate() {
        let verdict = play(start, &egdb, Side::White, depth);
        if !matches!(verdict, Some(Verdict::Win(Side::White, _))) {
            let fen = damas::notation::fen::write(&start);
            failures.push(format!("won position {i} {fen} not converted: {verdict:?}"));
        }
    }
    let drawn = sample(&egdb, pieces, Outcome::Draw, draws, &mut rng, slice_ok);
    for (i, start) in drawn.into_iter().enumerate() {
        let informed = if i % 2 == 0 { Side::White } else { Side::Black };
        let verdict = play(start, &egdb, informed, depth);
        if matches!(verdict, Some(Verdict::Win(winner, _)) if winner != informed) {
            let fen = damas::notation::fen::write(&start);
            failures.push(format!("drawn position {i} {fen} lost with the databases: {verdict:?}"));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// The databases in the directory named by the environment variable `var`, holding `pieces`.
fn opened(var: &str, pieces: u32) -> Option<Egdb<English>> {
    let Ok(dir) = std::env::var(var) else {
        eprintln!("{var} is not set: skipped");
        return None;
    };
    let (egdb, refused) = Egdb::<English>::open(std::path::Path::new(&dir), 1 << 30, None)
        .expect("open the databases");
    assert!(refused.is_empty() && egdb.max_pieces() >= pieces, "{refused:?}");
    Some(egdb)
}

#[test]
fn won_four_piece_endings_are_converted_and_drawn_ones_never_lost() {
    let mut egdb = Egdb::<English>::new();
    build::build(&mut egdb, 4, 4, |_, _| Ok(()), |_, _, _| {}).expect("build");
    check(egdb, 4, 6, 200, 40);
}

#[test]
fn won_four_piece_endings_without_distances_are_converted_by_the_search() {
    // Distances up to 3 pieces: the 4-piece wins are the search's to convert, as the 6-piece
    // ones are with the default build.
    let mut egdb = Egdb::<English>::new();
    build::build(&mut egdb, 4, 3, |_, _| Ok(()), |_, _, _| {}).expect("build");
    check(egdb, 4, 6, 200, 40);
}

#[test]
#[ignore = "needs English databases of 5 pieces: DAMAS_EGDB_5=DIR"]
fn won_five_piece_endings_are_converted_and_drawn_ones_never_lost() {
    if let Some(egdb) = opened("DAMAS_EGDB_5", 5) {
        check(egdb, 5, 6, 200, 40);
    }
}

#[test]
#[ignore = "needs English databases of 6 pieces: DAMAS_EGDB_6=DIR"]
fn won_six_piece_endings_are_converted_and_drawn_ones_never_lost() {
    if let Some(egdb) = opened("DAMAS_EGDB_6", 6) {
        let egdb = Arc::new(egdb);
        check_in(Arc::clone(&egdb), 6, 10, 200, 40, |_| true);
        // Random slices are mostly lopsided (five kings against one...): three pieces against
        // three too, where a win needs more than the first capture.
        check_in(egdb, 6, 10, 100, 40, |slice| {
            slice.men[0] + slice.kings[0] == 3 && slice.men[1] + slice.kings[1] == 3
        });
    }
}
