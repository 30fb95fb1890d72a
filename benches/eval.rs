//! The trained evaluation's cost, split in two: reading the board into pattern indices
//! (`features`, a board row at a time; `features by man`, the reference sums a man at a time)
//! and summing the weights of those patterns (`score`, which every evaluation pays anyway), next
//! to the whole `evaluate`; and `update`, what keeping the indices through a move costs the
//! search instead of `features` at the leaves. Over positions of seeded random games, 8x8 and
//! 10x10. Run with `cargo bench --bench eval`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use damas::board::types::Side;
use damas::eval::{Evaluator, Pattern};
use damas::movegen::legal_moves;
use damas::position::Position;
use damas::rules::{English, International, Rules};
use std::hint::black_box;

/// Positions of random games from the start (a fixed xorshift seed), 20 to 60 plies in.
fn positions<R: Rules>(count: usize) -> Vec<Position<R>> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut found = Vec::with_capacity(count);
    while found.len() < count {
        let mut position = Position::<R>::start();
        let plies = 20 + (next() % 40) as usize;
        for _ in 0..plies {
            let moves = legal_moves(&position);
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[(next() % moves.len() as u64) as usize];
            position.play(&mv);
        }
        found.push(position);
    }
    found
}

fn bench_variant<R: Rules>(c: &mut Criterion) {
    let Evaluator::Pattern(pattern) = Evaluator::<R>::new() else {
        panic!("{:?} has no built-in weights", R::VARIANT);
    };
    let pattern: Pattern<R> = pattern;
    let positions = positions::<R>(4096);
    let features: Vec<_> = positions.iter().map(|p| pattern.layout().features(p)).collect();
    let mut group = c.benchmark_group(format!("eval {}", R::VARIANT.name()));
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("evaluate", |b| {
        b.iter(|| positions.iter().map(|p| pattern.evaluate(black_box(p))).sum::<i32>())
    });
    group.bench_function("features", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| pattern.layout().features(black_box(p)).pieces as u32)
                .sum::<u32>()
        })
    });
    group.bench_function("features by man", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| {
                    let kings = p.kings();
                    let white = p.pieces(Side::White) & !kings;
                    let black = p.pieces(Side::Black) & !kings;
                    pattern.layout().patterns_by_man(black_box(white), black_box(black))[0] as u32
                })
                .sum::<u32>()
        })
    });
    // A move's update of the indices, what the search pays at every node instead of reading
    // the board at every leaf: each position and the first of its legal moves.
    let moves: Vec<_> = positions
        .iter()
        .filter_map(|p| {
            let mv = *legal_moves(p).as_slice().first()?;
            let mut child = *p;
            child.play(&mv);
            Some((*p, child, pattern.patterns(p)))
        })
        .collect();
    group.bench_function("update", |b| {
        b.iter(|| {
            moves
                .iter()
                .map(|(parent, child, patterns)| {
                    let mut patterns = *patterns;
                    pattern.update(&mut patterns, black_box(parent), black_box(child));
                    patterns[0] as u32
                })
                .sum::<u32>()
        })
    });
    group.bench_function("score", |b| {
        b.iter(|| features.iter().map(|f| pattern.score_white(black_box(f))).sum::<i32>())
    });
    group.finish();
}

fn eval_benches(c: &mut Criterion) {
    bench_variant::<English>(c);
    bench_variant::<International>(c);
}

criterion_group!(benches, eval_benches);
criterion_main!(benches);
