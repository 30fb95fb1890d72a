//! Move-generation speed: perft from the start position of each rule set, single thread, with
//! the count asserted so that a fast wrong generator cannot pass. Run with `cargo bench`.
//! The headline figures (English perft 12, International perft 10, Turkish perft 8) come from
//! `damas perft`; see docs/speed.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use damas::movegen::perft::{Convention, perft};
use damas::position::Position;
use damas::rules::{Brazilian, English, International, Rules, Russian, Spanish, Turkish};
use std::hint::black_box;

fn bench_variant<R: Rules>(c: &mut Criterion, depth: u32, expected: u64) {
    let start = Position::<R>::start();
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(expected));
    group.sample_size(10);
    group.bench_function(format!("{} d{depth}", R::VARIANT), |b| {
        b.iter(|| {
            let count = perft(black_box(&start), depth, Convention::Unique);
            assert_eq!(count, expected);
            count
        })
    });
    group.finish();
}

fn perft_benches(c: &mut Criterion) {
    bench_variant::<English>(c, 9, 3_963_680);
    bench_variant::<International>(c, 7, 1_049_442);
    bench_variant::<Brazilian>(c, 8, 907_830);
    bench_variant::<Russian>(c, 8, 929_899);
    bench_variant::<Spanish>(c, 9, 3_860_866);
    bench_variant::<Turkish>(c, 6, 931_312);
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
