//! Property tests over seeded random playouts in every variant: the incremental hash equals a
//! recomputed one, FEN and Hub strings round-trip, every move's PDN and Hub text reads back as
//! the same move, the legal list has no duplicates, bulk counting agrees with generation, the
//! route list agrees with the unique list, and pieces never overlap.

use damas::board::bitset::BitSet;
use damas::board::moves::MoveList;
use damas::board::types::Side;
use damas::movegen::perft::{Convention, perft};
use damas::movegen::{count_after_each, count_moves, generate, has_capture, legal_moves};
use damas::notation::{fen, hub, moves};
use damas::position::Position;
use damas::rules::{Rules, Variant};
use damas::with_variant;
use std::collections::HashSet;

use crate::common;
use common::Rng;

fn check_position<R: Rules>(position: &Position<R>) {
    let context = fen::write(position);
    assert_eq!(position.hash(), position.compute_hash(), "hash of {context}");
    let (white, black) = (position.pieces(Side::White), position.pieces(Side::Black));
    assert!((white & black).is_empty(), "overlap in {context}");
    assert!((position.kings() & !(white | black)).is_empty(), "king without piece in {context}");
    assert_eq!(fen::parse::<R>(&context).as_ref(), Ok(position), "FEN round trip {context}");
    assert_eq!(
        hub::parse::<R>(&hub::write(position)).as_ref(),
        Ok(position),
        "Hub round trip {context}"
    );

    let list = legal_moves(position);
    let unique: HashSet<_> = list.iter().copied().collect();
    assert_eq!(unique.len(), list.len(), "duplicate moves in {context}");
    let mut scratch = MoveList::new();
    assert_eq!(count_moves(position, &mut scratch), list.len() as u64, "bulk count in {context}");
    let mut routes = MoveList::keeping_duplicates();
    generate(position, &mut routes);
    let route_moves: HashSet<_> = routes.iter().copied().collect();
    assert_eq!(route_moves, unique, "route list and unique list differ in {context}");
    assert!(routes.len() >= list.len());
    // Perft's last two plies count each child's moves from sets derived from the parent and
    // the move; building every child must give the same total.
    let built: u64 = list
        .iter()
        .map(|mv| {
            let mut child = *position;
            child.play(mv);
            count_moves(&child, &mut scratch)
        })
        .sum();
    assert_eq!(count_after_each(position, &list, &mut scratch), built, "children of {context}");
    let captures = has_capture(position);
    for mv in &list {
        assert_eq!(mv.is_capture(), captures, "capture is compulsory in {context}");
        let pdn = moves::to_pdn(position, mv);
        assert_eq!(moves::parse(position, &pdn), Ok(*mv), "PDN '{pdn}' in {context}");
        let hub_text = moves::to_hub::<R>(mv);
        assert_eq!(moves::parse_hub(position, &hub_text), Ok(*mv), "Hub '{hub_text}' in {context}");
        let mut child = *position;
        child.play(mv);
        assert_eq!(child.hash(), child.compute_hash(), "hash after {pdn} in {context}");
        let mover = position.side_to_move();
        assert_eq!(child.pieces(mover).count(), position.pieces(mover).count());
        assert_eq!(
            child.pieces(!mover).count() + mv.captured().count(),
            position.pieces(!mover).count(),
            "{pdn} in {context}"
        );
    }
}

fn playouts<R: Rules>(games: usize, max_plies: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut positions = 0;
    for _ in 0..games {
        let mut position = Position::<R>::start();
        for _ in 0..max_plies {
            check_position(&position);
            positions += 1;
            let list = legal_moves(&position);
            if list.is_empty() {
                break;
            }
            let mv = list.as_slice()[rng.below(list.len())];
            position.play(&mv);
        }
    }
    positions
}

#[test]
fn random_playouts_keep_every_invariant() {
    for &variant in Variant::ALL {
        let positions =
            with_variant!(variant, R => playouts::<R>(200, 200, 0xda3a5 + variant as u64));
        assert!(positions > 1000, "{variant}: only {positions} positions");
    }
}

#[test]
fn perft_conventions_agree_where_no_duplicates_exist() {
    // Unique and route counts agree until the first duplicate route appears (perft.md).
    let start = Position::<damas::rules::International>::start();
    assert_eq!(perft(&start, 7, Convention::Unique), perft(&start, 7, Convention::Paths));
    assert_ne!(perft(&start, 8, Convention::Unique), perft(&start, 8, Convention::Paths));
}
