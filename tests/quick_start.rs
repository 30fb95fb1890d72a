use damas::movegen::perft::{perft, Convention};
use damas::position::Position;
use damas::rules::*;

fn run<R: Rules>(expected: &[u64], conv: Convention) {
    let p = Position::<R>::start();
    for (i, &e) in expected.iter().enumerate() {
        let got = perft(&p, i as u32 + 1, conv);
        println!("{:?} d{} got {} expected {}", R::VARIANT, i + 1, got, e);
        assert_eq!(got, e, "{:?} depth {}", R::VARIANT, i + 1);
    }
}

#[test]
fn starts() {
    run::<English>(&[7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564], Convention::Unique);
    run::<International>(&[9, 81, 658, 4265, 27117, 167140, 1049442, 6483961], Convention::Unique);
    run::<International>(&[9, 81, 658, 4265, 27117, 167140, 1049442, 6483971], Convention::Paths);
    run::<Brazilian>(&[7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766], Convention::Unique);
    run::<Russian>(&[7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586], Convention::Unique);
    run::<Spanish>(&[7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866], Convention::Unique);
    run::<Turkish>(&[8, 64, 708, 7538, 85090, 931312], Convention::Unique);
}
