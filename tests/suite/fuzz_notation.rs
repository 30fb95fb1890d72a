//! Bad input never panics: random and mutated text fed to every reader of the notation layer
//! (PDN FEN, Hub position strings, PDN and Hub moves) in several variants. Each reader must
//! return a value or an error; a panic fails the test.

use damas::notation::{fen, hub, moves};
use damas::position::Position;
use damas::rules::{English, Frisian, International, Rules, Russian, Turkish};

use crate::common;
use common::Rng;

const ALPHABET: &[u8] = b"WBwbKkeE:,-x0123456789 abcdefghijkl.\"[]FEN\t";

/// A random string, or a seed string with a few random edits.
fn mutate(rng: &mut Rng, seeds: &[String]) -> String {
    let mut bytes: Vec<u8> = if rng.below(3) == 0 {
        (0..rng.below(60)).map(|_| ALPHABET[rng.below(ALPHABET.len())]).collect()
    } else {
        seeds[rng.below(seeds.len())].clone().into_bytes()
    };
    for _ in 0..=rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        let byte = ALPHABET[rng.below(ALPHABET.len())];
        match rng.below(3) {
            0 => bytes.insert(at, byte),
            1 if !bytes.is_empty() => {
                bytes.remove(at.min(bytes.len() - 1));
            }
            _ if !bytes.is_empty() => {
                let last = bytes.len() - 1;
                bytes[at.min(last)] = byte;
            }
            _ => bytes.push(byte),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn fuzz<R: Rules>(rounds: usize, seed: u64) {
    let start = Position::<R>::start();
    let legal = damas::movegen::legal_moves(&start);
    let mut seeds = vec![fen::write(&start), hub::write(&start)];
    seeds.extend(legal.iter().map(|mv| moves::to_pdn(&start, mv)));
    seeds.extend(legal.iter().map(|mv| moves::to_hub::<R>(mv)));
    let mut rng = Rng(seed);
    let mut accepted = 0;
    for _ in 0..rounds {
        let text = mutate(&mut rng, &seeds);
        accepted += usize::from(fen::parse::<R>(&text).is_ok());
        accepted += usize::from(hub::parse::<R>(&text).is_ok());
        accepted += usize::from(moves::parse(&start, &text).is_ok());
        accepted += usize::from(moves::parse_hub(&start, &text).is_ok());
    }
    // Some mutations stay valid: the readers are exercised on both paths.
    assert!(accepted > 0);
}

#[test]
fn readers_never_panic_on_100000_inputs() {
    fuzz::<English>(25_000, 1);
    fuzz::<International>(25_000, 2);
    fuzz::<Russian>(20_000, 3);
    fuzz::<Turkish>(15_000, 4);
    fuzz::<Frisian>(15_000, 5);
}
