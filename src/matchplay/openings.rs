//! The openings of a match: read from a file of FENs (one a line, or the last tab-separated
//! field of a line, as in the English three-move ballot table), or from a PDN file (each game's
//! position after its moves, from its FEN tag or the start); or random two-ply openings from the
//! start when no file is given. Each opening is played twice, colours reversed.
//!
//! Depends on the game layer and notation.

use crate::game::Game;
use crate::game::replay::{Notation, play_moves};
use crate::movegen::legal_moves;
use crate::notation::{fen, pdn};
use crate::position::Position;
use crate::rules::Rules;

/// Reads the openings in `text` (a file's contents; `name` for messages).
///
/// # Errors
/// A position that cannot be read in variant `R` (with its line or game number), or none.
pub fn read<R: Rules>(text: &str, name: &str) -> Result<Vec<Position<R>>, String> {
    let is_pdn = text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'))
        .is_some_and(|line| line.starts_with('[') || line.starts_with("1."));
    let openings = if is_pdn { from_pdn::<R>(text, name)? } else { from_fens::<R>(text, name)? };
    if openings.is_empty() {
        return Err(format!("no openings in {name}"));
    }
    Ok(openings)
}

fn from_fens<R: Rules>(text: &str, name: &str) -> Result<Vec<Position<R>>, String> {
    text.lines()
        .enumerate()
        .map(|(number, line)| (number + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(number, line)| {
            let field = line.rsplit('\t').next().unwrap_or(line).trim();
            fen::parse::<R>(field).map_err(|e| format!("{name} line {number}: {e}"))
        })
        .collect()
}

fn from_pdn<R: Rules>(text: &str, name: &str) -> Result<Vec<Position<R>>, String> {
    let games = pdn::parse_all(text).map_err(|e| format!("{name}: {e}"))?;
    games
        .iter()
        .enumerate()
        .map(|(index, record)| {
            let at = |e: String| format!("{name} game {}: {e}", index + 1);
            let start = match record.tag("FEN") {
                Some(text) => fen::parse::<R>(text).map_err(|e| at(e.to_string()))?,
                None => Position::start(),
            };
            let mut game = Game::new(start);
            play_moves(&mut game, record.moves.iter().map(String::as_str), Notation::PdnFirst)
                .map_err(|e| at(e.to_string()))?;
            Ok(*game.position())
        })
        .collect()
}

/// `count` random two-ply openings from the start, from `seed` (the same seed, the same list).
pub fn random<R: Rules>(count: usize, seed: u64) -> Vec<Position<R>> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            let mut position = Position::<R>::start();
            for _ in 0..2 {
                let list = legal_moves(&position);
                if list.is_empty() {
                    break;
                }
                state = next_random(state);
                let index = ((state >> 33) % list.len() as u64) as usize;
                position.play(&list.as_slice()[index]);
            }
            position
        })
        .collect()
}

/// The next state of a 64-bit linear congruential generator (Knuth's MMIX constants).
pub fn next_random(state: u64) -> u64 {
    state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407)
}

/// Shuffles `items` in place from `seed` (Fisher-Yates).
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    for last in (1..items.len()).rev() {
        state = next_random(state);
        let pick = ((state >> 33) % (last as u64 + 1)) as usize;
        items.swap(last, pick);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{English, International};

    #[test]
    fn openings_come_from_fens_ballots_and_pdn_games() {
        let ballots = "# number\tmoves\tFEN\n001\t9-13 21-17 5-9\tW:W17,22,23,24,25,26,27,28,29,30,31,32:B1,10,11,12,13,2,3,4,6,7,8,9\n";
        let read_ballots = read::<English>(ballots, "ballots").unwrap();
        let mut game = Game::new(Position::<English>::start());
        play_moves(&mut game, ["9-13", "21-17", "5-9"], Notation::PdnFirst).unwrap();
        assert_eq!(read_ballots, vec![*game.position()]);

        let pdn_text = "[Event \"a\"]\n1. 32-28 19-23 *\n\n[FEN \"B:W28:B19\"]\n1. 19-23 *\n";
        let from_pdn = read::<International>(pdn_text, "games").unwrap();
        assert_eq!(from_pdn.len(), 2);
        assert_eq!(fen::write(&from_pdn[1]), "W:W28:B23");
        assert!(read::<International>("[Event \"a\"]\n1. 32-23 *\n", "x").is_err());
        assert!(read::<English>("W:W99:B1\n", "x").unwrap_err().contains("line 1"));
        assert!(read::<English>("# nothing\n", "x").is_err());

        let random = random::<International>(5, 7);
        assert_eq!(random, super::random::<International>(5, 7));
        assert!(
            random
                .iter()
                .all(|p| p.side_to_move() == Position::<International>::start().side_to_move())
        );
        let mut items: Vec<u32> = (0..20).collect();
        shuffle(&mut items, 3);
        assert_ne!(items, (0..20).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..20).collect::<Vec<_>>());
    }
}
