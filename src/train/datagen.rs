//! Training data from self-play: seeded games between two copies of the engine at a fixed
//! node count, from random balanced openings, on several threads, written as the quiet
//! positions of each game with the search's score and the game's result.
//!
//! **Games.** Game `i` of a run starts from the rule set's start position after a few random
//! moves drawn from the run's seed and `i` (so a run is reproducible and can be resumed game by
//! game); an opening the engine scores beyond [`BALANCED`] is drawn again. Then both sides
//! search `nodes` nodes a move, with the referee of `damas match` judging the game by the
//! variant's rules; a game both sides score beyond five men for three moves each is given to
//! that side, and one longer than 150 moves each is a draw.
//!
//! **Endgame databases.** A run given databases plays with them (both engines probe them in
//! the search) and ends a game at the first position they hold, with their verdict as the
//! game's result; that position is written too, its score the exact one (±3000 for a win or a
//! loss, 0 for a draw), when no capture is pending in it. A run told to play on past it
//! (`play_on` plies) goes on from there with the same engines, which play a won or lost
//! ending the databases know the distance of by them, and writes each quiet position with its
//! own exact score: the evaluation then learns the endings too, which the search needs to
//! convert the wins of databases built without distances (a game ended at the first position
//! the databases hold leaves no ending in the data).
//!
//! **File format** (integers little-endian): a header, then one block per game, in the order
//! the games finished.
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `DAMASDAT` |
//! | 4 | format version, 3 (2: without the play-on byte; 1: without the database byte either) |
//! | 1 + n | the rule set's name |
//! | 1 | playable squares `s` |
//! | 8 | nodes per move |
//! | 8 | seed |
//! | 1 | random opening plies |
//! | 1 | most pieces of the endgame databases the games were played with (0: none); not in format 1 |
//! | 1 | plies played on past the databases' verdict (0: none); not in formats 1 and 2 |
//! | per game: 4 | game number |
//! | 1 | result for White: 2 win, 1 draw, 0 loss |
//! | 2 | positions `p` in the block |
//! | `p` × (3 + ⌈s/2⌉) | per position: side to move (0 White, 1 Black); the search's score for the side to move (i16, hundredths of a man, wins clamped to ±3000); the board, two squares a byte (low nibble first, square 1 first): 0 empty, 1 White man, 2 Black man, 3 White king, 4 Black king |
//!
//! A block cut short (the run was stopped while writing) is dropped when the run resumes.
//!
//! Depends on the search, the game layer and the match referee; file I/O only through the
//! reader and writer it is given.

use crate::board::bitset::BitSet;
use crate::board::geometry::Geometry;
use crate::board::types::Side;
use crate::egdb::Egdb;
use crate::game::GameRules;
use crate::matchplay::openings::next_random;
use crate::matchplay::player::Builtin;
use crate::matchplay::referee::{
    self, Adjudication, GameRecord, GameResult, ResignAdjudication, Seat,
};
use crate::matchplay::tc::TimeControl;
use crate::movegen::{has_capture, legal_moves};
use crate::position::{Bits, Position};
use crate::rules::{Rules, Variant};
use crate::search::{Engine, EngineConfig, Limits, Silent};
use std::collections::{BTreeMap, HashSet};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

/// The first bytes of a data file.
pub const MAGIC: &[u8; 8] = b"DAMASDAT";
/// The format version written.
pub const VERSION: u32 = 3;
/// Openings the engine scores beyond this (hundredths of a man) are drawn again.
pub const BALANCED: i32 = 120;
/// Scores are clamped to this.
const SCORE_CLAMP: i32 = 3000;

/// The part of a run's games one process plays (game `g` in shard `g % count`): the shards of a
/// run are independent (each game is reproducible from the run's seed and its number) and their
/// files merge into the run's file ([`merge`]).
pub use crate::shard::Shard;

/// How a run plays its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Games of the run (all shards together).
    pub games: u32,
    /// The part of them this process plays.
    pub shard: Shard,
    /// Nodes each side searches per move.
    pub nodes: u64,
    /// The run's seed.
    pub seed: u64,
    /// Random plies before the engines play.
    pub random_plies: u8,
    /// Games played at once.
    pub threads: usize,
    /// Plies played on past the position the databases end a game at, each position written
    /// with its exact score (0: the game's data ends there).
    pub play_on: u8,
}

impl Settings {
    /// The games this process plays: its shard's part of the run.
    pub fn shard_games(&self) -> u32 {
        (0..self.games).filter(|&game| self.shard.has(game)).count() as u32
    }
}

/// One position of the data: the board, the search's score for the side to move and the
/// game's result for White.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample<R: Rules> {
    /// The position (no capture pending).
    pub position: Position<R>,
    /// The search's score for the side to move, hundredths of a man.
    pub score: i16,
    /// The result for White: 2 win, 1 draw, 0 loss.
    pub result: u8,
    /// The game it comes from.
    pub game: u32,
}

/// The header of a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The rule set.
    pub variant: Variant,
    /// Nodes per move.
    pub nodes: u64,
    /// The run's seed.
    pub seed: u64,
    /// Random opening plies.
    pub random_plies: u8,
    /// Most pieces of the endgame databases the games were played with (0: none).
    pub egdb_pieces: u8,
    /// Plies played on past the databases' verdict (0: none).
    pub play_on: u8,
}

impl Header {
    /// The settings the games were played with, in words (for errors).
    pub fn settings(&self) -> String {
        let databases = match self.egdb_pieces {
            0 => String::new(),
            pieces => format!(", databases of {pieces} pieces"),
        };
        let databases = match self.play_on {
            0 => databases,
            plies => format!("{databases}, {plies} plies played on past them"),
        };
        format!(
            "{} nodes, seed {}, {} random plies{databases}",
            self.nodes, self.seed, self.random_plies
        )
    }
}

fn board_bytes<R: Rules>() -> usize {
    (R::Geo::SQUARES as usize).div_ceil(2)
}

fn record_bytes<R: Rules>() -> usize {
    3 + board_bytes::<R>()
}

/// The header's bytes.
pub fn write_header<R: Rules>(header: &Header) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let name = header.variant.name().as_bytes();
    out.push(name.len() as u8);
    out.extend_from_slice(name);
    out.push(R::Geo::SQUARES as u8);
    out.extend_from_slice(&header.nodes.to_le_bytes());
    out.extend_from_slice(&header.seed.to_le_bytes());
    out.push(header.random_plies);
    out.push(header.egdb_pieces);
    out.push(header.play_on);
    out
}

fn encode<R: Rules>(position: &Position<R>, score: i16, out: &mut Vec<u8>) {
    out.push(position.side_to_move().index() as u8);
    out.extend_from_slice(&score.to_le_bytes());
    let mut board = vec![0u8; board_bytes::<R>()];
    for square in 0..R::Geo::SQUARES {
        let code = match position.piece_at(R::Geo::bit(square)) {
            None => 0,
            Some((side, piece)) => {
                1 + side.index() as u8
                    + if piece == crate::board::types::Piece::King { 2 } else { 0 }
            }
        };
        board[square as usize / 2] |= code << (4 * (square % 2));
    }
    out.extend_from_slice(&board);
}

fn decode<R: Rules>(record: &[u8]) -> Result<(Position<R>, i16), String> {
    let side = match record[0] {
        0 => Side::White,
        1 => Side::Black,
        other => return Err(format!("side to move {other}")),
    };
    let score = i16::from_le_bytes([record[1], record[2]]);
    let (mut white, mut black, mut kings) = (Bits::<R>::EMPTY, Bits::<R>::EMPTY, Bits::<R>::EMPTY);
    for square in 0..R::Geo::SQUARES {
        let code = record[3 + square as usize / 2] >> (4 * (square % 2)) & 15;
        let bit = Bits::<R>::single(R::Geo::bit(square));
        match code {
            0 => {}
            1 => white |= bit,
            2 => black |= bit,
            3 => {
                white |= bit;
                kings |= bit;
            }
            4 => {
                black |= bit;
                kings |= bit;
            }
            other => return Err(format!("square code {other}")),
        }
    }
    let position = Position::from_parts(white, black, kings, side)
        .map_err(|error| format!("impossible position: {error}"))?;
    Ok((position, score))
}

/// A data file read back: its header, its samples, and the length of its complete part (a
/// block cut short at the end is not in it).
pub struct Contents<R: Rules> {
    /// The header.
    pub header: Header,
    /// Every position of every complete block.
    pub samples: Vec<Sample<R>>,
    /// The games the file has.
    pub games: HashSet<u32>,
    /// Each complete block: its game and where its bytes are in the file, in file order.
    pub blocks: Vec<(u32, Range<usize>)>,
    /// Bytes up to the end of the last complete block.
    pub complete: usize,
}

/// A data file's header, whatever its rule set, the number of playable squares it says its
/// boards have, and where its blocks begin.
///
/// # Errors
/// Not a data file, an unknown format version, an unknown rule set, a header cut short.
pub fn read_header(bytes: &[u8]) -> Result<(Header, u8, usize), String> {
    if bytes.len() < 13 || &bytes[..8] != MAGIC {
        return Err("not a damas data file (no DAMASDAT header)".into());
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if !(1..=VERSION).contains(&version) {
        return Err(format!("data file format {version}, this build reads 1 to {VERSION}"));
    }
    let name_length = bytes[12] as usize;
    let extra_bytes = usize::from(version >= 2) + usize::from(version >= 3);
    let fixed = 13 + name_length + 1 + 8 + 8 + 1 + extra_bytes;
    if bytes.len() < fixed {
        return Err("the data file's header is cut short".into());
    }
    let name = String::from_utf8_lossy(&bytes[13..13 + name_length]).into_owned();
    let variant: Variant = name.parse().map_err(|_| format!("unknown rule set `{name}`"))?;
    let at = 13 + name_length;
    let word = |from: usize| {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(&bytes[from..from + 8]);
        u64::from_le_bytes(eight)
    };
    let header = Header {
        variant,
        nodes: word(at + 1),
        seed: word(at + 9),
        random_plies: bytes[at + 17],
        egdb_pieces: if version >= 2 { bytes[at + 18] } else { 0 },
        play_on: if version >= 3 { bytes[at + 19] } else { 0 },
    };
    Ok((header, bytes[at], fixed))
}

/// Reads a data file of rule set `R`.
///
/// # Errors
/// Not a data file, another rule set, a corrupt block.
pub fn read<R: Rules>(bytes: &[u8]) -> Result<Contents<R>, String> {
    let (header, squares, fixed) = read_header(bytes)?;
    if header.variant != R::VARIANT {
        return Err(format!(
            "the data is for {}, not {}",
            header.variant.name(),
            R::VARIANT.name()
        ));
    }
    if u32::from(squares) != R::Geo::SQUARES {
        return Err("the data file's board size does not match its rule set".into());
    }
    let mut samples = Vec::new();
    let mut games = HashSet::new();
    let mut blocks = Vec::new();
    let mut offset = fixed;
    let size = record_bytes::<R>();
    while offset + 7 <= bytes.len() {
        let game = u32::from_le_bytes([
            bytes[offset],
            bytes[offset + 1],
            bytes[offset + 2],
            bytes[offset + 3],
        ]);
        let result = bytes[offset + 4];
        let count = u16::from_le_bytes([bytes[offset + 5], bytes[offset + 6]]) as usize;
        let end = offset + 7 + count * size;
        if end > bytes.len() {
            break;
        }
        if result > 2 {
            return Err(format!("game {game}: result code {result}"));
        }
        for record in bytes[offset + 7..end].chunks_exact(size) {
            let (position, score) = decode::<R>(record).map_err(|e| format!("game {game}: {e}"))?;
            samples.push(Sample { position, score, result, game });
        }
        games.insert(game);
        blocks.push((game, offset..end));
        offset = end;
    }
    Ok(Contents { header, samples, games, blocks, complete: offset })
}

/// The data files `files` (each with its name, for errors) as one: the same header, and each
/// game's block once, in game order. Every file must have been made with the same settings
/// (the shards of one run, or runs of the same settings); a game found in several files must
/// be the same bytes in each (a run's games are reproducible). So the merge of a run's shards
/// is the file one run on one thread would have written, byte for byte.
///
/// # Errors
/// No file, a file that cannot be read, files of other settings, a game that differs between
/// two files.
pub fn merge<R: Rules>(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, String> {
    let mut header = None;
    let mut blocks: BTreeMap<u32, (&[u8], &str)> = BTreeMap::new();
    for (name, bytes) in files {
        let contents = read::<R>(bytes).map_err(|e| format!("{name}: {e}"))?;
        match &header {
            None => header = Some(contents.header.clone()),
            Some(first) if *first != contents.header => {
                return Err(format!(
                    "{name} was made with other settings ({}) than {} ({})",
                    contents.header.settings(),
                    files[0].0,
                    first.settings()
                ));
            }
            Some(_) => {}
        }
        for (game, range) in contents.blocks {
            let block = &bytes[range];
            if let Some((other, other_name)) = blocks.insert(game, (block, name)) {
                if other != block {
                    return Err(format!("game {game} differs between {other_name} and {name}"));
                }
            }
        }
    }
    let header = header.ok_or("nothing to merge")?;
    let mut out = write_header::<R>(&header);
    for (block, _) in blocks.values() {
        out.extend_from_slice(block);
    }
    Ok(out)
}

/// The random opening of game `game`: `plies` random moves from the start, the draws made
/// from the run's seed and the game number (and `attempt`, for openings drawn again).
fn opening<R: Rules>(seed: u64, game: u32, attempt: u32, plies: u8) -> Position<R> {
    let mut state = next_random(seed ^ (u64::from(game) << 20) ^ u64::from(attempt));
    state = next_random(state ^ 0x5851_f42d_4c95_7f2d);
    let mut position = Position::<R>::start();
    for _ in 0..plies {
        let list = legal_moves(&position);
        if list.is_empty() {
            break;
        }
        state = next_random(state);
        position.play(&list.as_slice()[((state >> 33) % list.len() as u64) as usize]);
    }
    position
}

/// How a self-play game is refereed: no draw offers (the databases and the move cap end the
/// long ones), resignation at 5 pawns for 3 moves, 150 moves at most, no clock.
fn adjudication() -> Adjudication {
    Adjudication {
        draw: None,
        resign: Some(ResignAdjudication { moves: 3, score: 5.0 }),
        max_moves: Some(150),
        margin: Duration::from_secs(1),
        no_clock_patience: Duration::from_secs(600),
    }
}

/// Plays game `game` of a run with `config`'s engines and returns its block (the bytes the
/// file gets) and the number of positions in it.
fn play_game<R: Rules>(config: &EngineConfig<R>, settings: &Settings, game: u32) -> (Vec<u8>, u16) {
    let mut probe = Engine::with_config(config.clone());
    let mut start = Position::<R>::start();
    for attempt in 0..100 {
        start = opening::<R>(settings.seed, game, attempt, settings.random_plies);
        if legal_moves(&start).is_empty() {
            continue;
        }
        probe.new_game();
        let probe_game = crate::game::Game::new(start);
        let limits = Limits { nodes: Some(settings.nodes), ..Limits::default() };
        let result = probe.go(&probe_game, limits, false, &mut Silent);
        if result.score.value().abs() <= BALANCED {
            break;
        }
    }
    let mut white = Builtin::with_engine(Engine::with_config(config.clone()));
    let mut black = Builtin::with_engine(Engine::with_config(config.clone()));
    let control = TimeControl::Nodes(settings.nodes);
    let adjudication = adjudication();
    let record = referee::play(
        start,
        GameRules::of::<R>(),
        Seat { player: &mut white, control },
        Seat { player: &mut black, control },
        &adjudication,
        config.egdb.as_deref(),
    );
    let tail = config.egdb.as_deref().map_or_else(Vec::new, |egdb| {
        database_tail(&record, egdb, &mut probe, settings.nodes, settings.play_on)
    });
    block(game, &record, &tail)
}

/// The score written for a position the databases hold as `known`, for `mover`.
fn exact_score(known: GameResult, mover: Side) -> i16 {
    match known {
        GameResult::Draw => 0,
        GameResult::Win(side) if side == mover => SCORE_CLAMP as i16,
        GameResult::Win(_) => -SCORE_CLAMP as i16,
    }
}

/// The quiet positions of `record`'s game from the last one on, when `egdb` holds it (the
/// databases ended the game there), each with its exact score: that position, then those of
/// `plies` more plies played by `engine` at `nodes` a move (both sides), until the game is
/// over by its rules.
fn database_tail<R: Rules>(
    record: &GameRecord<R>,
    egdb: &Egdb<R>,
    engine: &mut Engine<R>,
    nodes: u64,
    plies: u8,
) -> Vec<(Position<R>, i16)> {
    let mut game = crate::game::Game::with_rules(record.start, GameRules::of::<R>());
    for played in &record.moves {
        game.play_unchecked(&played.mv);
    }
    engine.new_game();
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    let mut tail = Vec::new();
    for ply in 0..=plies {
        // The position the game ended at is written whatever ended it (format 2's data).
        if ply > 0 && game.verdict().is_some() {
            break;
        }
        let Some((known, _)) = referee::database_verdict(egdb, &game) else { break };
        let position = *game.position();
        if !has_capture(&position) {
            tail.push((position, exact_score(known, position.side_to_move())));
        }
        if ply == plies {
            break;
        }
        let Some(best) = engine.go(&game, limits, false, &mut Silent).best else { break };
        if game.play(&best).is_err() {
            break;
        }
    }
    tail
}

/// The block of game `game` played as `record`, and the number of positions in it: the quiet
/// positions the engines scored, with their scores, then `tail` (the positions past the
/// databases' verdict, with their exact scores: [`database_tail`]).
fn block<R: Rules>(
    game: u32,
    record: &GameRecord<R>,
    tail: &[(Position<R>, i16)],
) -> (Vec<u8>, u16) {
    let result = match record.result {
        GameResult::Win(Side::White) => 2u8,
        GameResult::Draw => 1,
        GameResult::Win(Side::Black) => 0,
    };
    let mut body = Vec::new();
    let mut count = 0u16;
    let mut played_game = crate::game::Game::with_rules(record.start, GameRules::of::<R>());
    for played in &record.moves {
        let position = played_game.position();
        if let Some(score) = played.score {
            if !has_capture(position) && count < u16::MAX {
                let hundredths = (score * 100.0).round() as i32;
                let clamped = hundredths.clamp(-SCORE_CLAMP, SCORE_CLAMP) as i16;
                encode(position, clamped, &mut body);
                count += 1;
            }
        }
        played_game.play_unchecked(&played.mv);
    }
    for (position, exact) in tail {
        if count < u16::MAX {
            encode(position, *exact, &mut body);
            count += 1;
        }
    }
    let mut block = Vec::with_capacity(body.len() + 7);
    block.extend_from_slice(&game.to_le_bytes());
    block.push(result);
    block.extend_from_slice(&count.to_le_bytes());
    block.extend_from_slice(&body);
    (block, count)
}

/// Progress of a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// Games of this shard finished (including those of a resumed file).
    pub games: u32,
    /// Positions written in this session.
    pub positions: u64,
}

/// Plays the games of `settings` not yet in the file, handing each finished game's block to
/// `write` (in the order they finish) and reporting progress after each; `done` are the
/// games already in the file. Returns the progress at the end.
///
/// # Errors
/// What `write` returned.
pub fn run<R: Rules>(
    config: &EngineConfig<R>,
    settings: &Settings,
    done: &HashSet<u32>,
    mut write: impl FnMut(&[u8]) -> Result<(), String>,
    mut progress: impl FnMut(Progress),
) -> Result<Progress, String> {
    let todo: Arc<Vec<u32>> = Arc::new(
        (0..settings.games)
            .filter(|&game| settings.shard.has(game) && !done.contains(&game))
            .collect(),
    );
    let next = Arc::new(AtomicUsize::new(0));
    let (send, receive) = mpsc::channel::<(Vec<u8>, u16)>();
    let single = EngineConfig { threads: 1, ..config.clone() };
    let mut state = Progress { games: settings.shard_games() - todo.len() as u32, positions: 0 };
    progress(state);
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.max(1) {
            let (todo, next, send, single) = (todo.clone(), next.clone(), send.clone(), &single);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&game) = todo.get(index) else { break };
                    if send.send(play_game::<R>(single, settings, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        for (block, count) in receive {
            if let Err(error) = write(&block) {
                // Stop the workers: nothing more can be kept.
                next.store(usize::MAX / 2, Ordering::Relaxed);
                return Err(error);
            }
            state.games += 1;
            state.positions += u64::from(count);
            progress(state);
        }
        Ok(state)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{English, International, Turkish};

    fn round_trip<R: Rules>() {
        let mut position = Position::<R>::start();
        let mut body = Vec::new();
        for mv in legal_moves(&position).as_slice().iter().take(1) {
            position.play(mv);
        }
        encode(&position, -123, &mut body);
        assert_eq!(body.len(), record_bytes::<R>());
        assert_eq!(decode::<R>(&body).unwrap(), (position, -123));
    }

    #[test]
    fn positions_are_written_and_read_back() {
        round_trip::<English>();
        round_trip::<International>();
        round_trip::<Turkish>();
    }

    #[test]
    fn a_run_is_reproducible_and_resumes_where_it_stopped() {
        let config = EngineConfig::<English>::new(1, 1);
        let settings = Settings {
            games: 3,
            shard: Shard::ALL,
            nodes: 300,
            seed: 7,
            random_plies: 4,
            threads: 2,
            play_on: 0,
        };
        let header = Header {
            variant: English::VARIANT,
            nodes: settings.nodes,
            seed: settings.seed,
            random_plies: settings.random_plies,
            egdb_pieces: 0,
            play_on: 0,
        };
        let play = |done: &HashSet<u32>, file: &mut Vec<u8>| {
            let write = |block: &[u8]| {
                file.extend_from_slice(block);
                Ok(())
            };
            run(&config, &settings, done, write, |_| {})
        };
        let mut whole = write_header::<English>(&header);
        let made = play(&HashSet::new(), &mut whole).unwrap();
        assert_eq!(made.games, 3);
        let contents = read::<English>(&whole).unwrap();
        assert_eq!(contents.header, header);
        assert_eq!(contents.games.len(), 3);
        assert_eq!(contents.samples.len() as u64, made.positions);
        assert!(contents.samples.iter().all(|s| !has_capture(&s.position)));
        // Cut the file inside its last block: that game is played again, and comes out the same.
        let mut cut = whole[..whole.len() - 5].to_vec();
        let partial = read::<English>(&cut).unwrap();
        assert_eq!(partial.games.len(), 2);
        cut.truncate(partial.complete);
        play(&partial.games, &mut cut).unwrap();
        let resumed = read::<English>(&cut).unwrap();
        let key = |s: &Sample<English>| (s.game, s.position.hash(), s.score, s.result);
        let mut a: Vec<_> = contents.samples.iter().map(key).collect();
        let mut b: Vec<_> = resumed.samples.iter().map(key).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        // Another rule set's reader refuses it.
        let foreign = read::<International>(&whole).err().unwrap_or_default();
        assert!(foreign.contains("english"), "{foreign}");
    }

    #[test]
    fn shards_are_parsed_from_one() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
        assert_eq!("1/1".parse::<Shard>(), Ok(Shard::ALL));
        for wrong in ["0/3", "4/3", "3", "a/b", "1/0", ""] {
            assert!(wrong.parse::<Shard>().is_err(), "{wrong}");
        }
        let shard = Shard { index: 1, count: 3 };
        assert_eq!((0..7).filter(|&g| shard.has(g)).collect::<Vec<_>>(), [1, 4]);
        let settings = Settings {
            games: 7,
            shard,
            nodes: 1,
            seed: 1,
            random_plies: 0,
            threads: 1,
            play_on: 0,
        };
        assert_eq!(settings.shard_games(), 2);
    }

    #[test]
    fn the_merged_shards_are_the_single_run_byte_for_byte() {
        let config = EngineConfig::<English>::new(1, 1);
        let settings = |shard: Shard, threads: usize| Settings {
            games: 5,
            shard,
            nodes: 200,
            seed: 11,
            random_plies: 4,
            threads,
            play_on: 0,
        };
        let header = Header {
            variant: English::VARIANT,
            nodes: 200,
            seed: 11,
            random_plies: 4,
            egdb_pieces: 0,
            play_on: 0,
        };
        let play = |settings: Settings| {
            let mut file = write_header::<English>(&header);
            let write = |block: &[u8]| {
                file.extend_from_slice(block);
                Ok(())
            };
            run(&config, &settings, &HashSet::new(), write, |_| {}).unwrap();
            file
        };
        // One thread writes the games in their order.
        let whole = play(settings(Shard::ALL, 1));
        let shards: Vec<(String, Vec<u8>)> = (0..3)
            .map(|index| {
                let file = play(settings(Shard { index, count: 3 }, 2));
                (format!("shard {index}"), file)
            })
            .collect();
        // Shard 2 of 3 of games 0-4 plays games 2 only; the others two each.
        assert_eq!(read::<English>(&shards[2].1).unwrap().games.len(), 1);
        let merged = merge::<English>(&shards).unwrap();
        assert_eq!(merged, whole);
        // Merging a shard twice, or in another order, changes nothing.
        let mut again = shards.clone();
        again.reverse();
        again.push(shards[0].clone());
        assert_eq!(merge::<English>(&again).unwrap(), whole);
        // Files of other settings, or a game that differs, are refused.
        let other = Header { seed: 12, ..header.clone() };
        let foreign = vec![shards[0].clone(), ("other".into(), write_header::<English>(&other))];
        assert!(merge::<English>(&foreign).unwrap_err().contains("other settings"));
        // The first game's result, another valid one.
        let mut changed = shards[1].clone();
        let result_at = write_header::<English>(&header).len() + 4;
        changed.1[result_at] = (changed.1[result_at] + 1) % 3;
        let differing = vec![shards[1].clone(), changed];
        assert!(merge::<English>(&differing).unwrap_err().contains("differs"));
    }

    #[test]
    fn older_formats_read_as_played_without_databases_or_without_play_on() {
        let header = Header {
            variant: English::VARIANT,
            nodes: 300,
            seed: 5,
            random_plies: 6,
            egdb_pieces: 4,
            play_on: 30,
        };
        let written = write_header::<English>(&header);
        assert_eq!(read_header(&written).unwrap().0, header);
        // Format 2: the same header without its last byte; format 1 without the last two.
        for (version, cut, expected) in [
            (2u32, 1, Header { play_on: 0, ..header.clone() }),
            (1, 2, Header { play_on: 0, egdb_pieces: 0, ..header.clone() }),
        ] {
            let mut old = written[..written.len() - cut].to_vec();
            old[8..12].copy_from_slice(&version.to_le_bytes());
            let (read_back, _, fixed) = read_header(&old).unwrap();
            assert_eq!(read_back, expected, "format {version}");
            assert_eq!(fixed, old.len(), "format {version}");
        }
        let mut future = written.clone();
        future[8..12].copy_from_slice(&4u32.to_le_bytes());
        assert!(read_header(&future).unwrap_err().contains("format 4"));
        let settings = header.settings();
        assert!(settings.contains("databases of 4 pieces, 30 plies played on"), "{settings}");
    }

    /// The samples of an English game's block `bytes`, read back from a file of 3-piece
    /// databases played on `play_on` plies.
    fn read_block(bytes: &[u8], play_on: u8) -> Vec<Sample<English>> {
        let mut file = write_header::<English>(&Header {
            variant: English::VARIANT,
            nodes: 2000,
            seed: 1,
            random_plies: 0,
            egdb_pieces: 3,
            play_on,
        });
        file.extend_from_slice(bytes);
        read::<English>(&file).unwrap().samples
    }

    #[test]
    fn a_game_ends_at_the_first_position_the_databases_hold_with_its_exact_score() {
        let mut egdb = Egdb::<English>::new();
        crate::egdb::build::build(&mut egdb, 3, 3, |_, _| Ok(()), |_, _, _| {}).unwrap();
        let config = EngineConfig::<English>::new(1, 1).with_egdb(Some(Arc::new(egdb)));
        let egdb = config.egdb.as_deref();
        let control = TimeControl::Nodes(2000);
        let adjudication = Adjudication { resign: None, ..adjudication() };
        // Four pieces, White to take 18x9 at once: the game goes on into three pieces, where
        // the databases end it. Then three pieces from the start: over before a move.
        for (text, moves) in [("W:W18,30:B14,K1", 1), ("W:W9,30:BK1", 0)] {
            let start = crate::notation::fen::parse::<English>(text).unwrap();
            let mut white = Builtin::with_engine(Engine::with_config(config.clone()));
            let mut black = Builtin::with_engine(Engine::with_config(config.clone()));
            let record = referee::play(
                start,
                GameRules::of::<English>(),
                Seat { player: &mut white, control },
                Seat { player: &mut black, control },
                &adjudication,
                egdb,
            );
            assert_eq!(record.moves.len(), moves, "{text}: {}", record.reason);
            let tail = database_tail(&record, egdb.unwrap(), &mut Engine::new(1, 1), 2000, 0);
            let (bytes, count) = block(3, &record, &tail);
            // The capture is not written; the database's position is, with its exact score.
            assert_eq!(count, 1, "{text}");
            let samples = read_block(&bytes, 0);
            let last = samples[0];
            assert_eq!(last.position.occupied().count(), 3);
            let mover = last.position.side_to_move();
            let expected = match record.result {
                GameResult::Draw => (0, 1),
                GameResult::Win(side) if side == mover => {
                    (SCORE_CLAMP as i16, 2 - side.index() as u8 * 2)
                }
                GameResult::Win(side) => (-SCORE_CLAMP as i16, 2 - side.index() as u8 * 2),
            };
            assert_eq!((last.score, last.result), expected, "{text}");
            let held =
                referee::database_verdict(egdb.unwrap(), &crate::game::Game::new(last.position));
            assert_eq!(held.map(|(result, _)| result), Some(record.result), "{text}");
        }
        // Without the databases the same position is played out, and nothing is exact.
        let start = crate::notation::fen::parse::<English>("W:W9,30:BK1").unwrap();
        let plain = EngineConfig::<English>::new(1, 1);
        let mut white = Builtin::with_engine(Engine::with_config(plain.clone()));
        let mut black = Builtin::with_engine(Engine::with_config(plain));
        let record = referee::play(
            start,
            GameRules::of::<English>(),
            Seat { player: &mut white, control },
            Seat { player: &mut black, control },
            &Adjudication { max_moves: Some(20), ..adjudication },
            None,
        );
        let (_, count) = block(3, &record, &[]);
        assert!(record.moves.len() > 1 && usize::from(count) <= record.moves.len());
    }

    #[test]
    fn a_run_told_to_play_on_writes_the_ending_with_exact_scores() {
        let mut egdb = Egdb::<English>::new();
        crate::egdb::build::build(&mut egdb, 3, 3, |_, _| Ok(()), |_, _, _| {}).unwrap();
        let config = EngineConfig::<English>::new(1, 1).with_egdb(Some(Arc::new(egdb)));
        let egdb = config.egdb.as_deref().unwrap();
        // Two men against a king, the databases' position from the start: White wins.
        let start = crate::notation::fen::parse::<English>("W:W9,30:BK1").unwrap();
        let mut white = Builtin::with_engine(Engine::with_config(config.clone()));
        let mut black = Builtin::with_engine(Engine::with_config(config.clone()));
        let control = TimeControl::Nodes(2000);
        let record = referee::play(
            start,
            GameRules::of::<English>(),
            Seat { player: &mut white, control },
            Seat { player: &mut black, control },
            &adjudication(),
            Some(egdb),
        );
        assert!(record.moves.is_empty(), "{}", record.reason);
        let mut engine = Engine::with_config(config.clone());
        let only = database_tail(&record, egdb, &mut engine, 2000, 0);
        assert_eq!(only.len(), 1);
        let tail = database_tail(&record, egdb, &mut engine, 2000, 30);
        assert!(tail.len() > 10, "{} positions", tail.len());
        assert_eq!(tail[0], only[0]);
        for (position, score) in &tail {
            let game = crate::game::Game::new(*position);
            let (known, _) = referee::database_verdict(egdb, &game).unwrap();
            assert_eq!(*score, exact_score(known, position.side_to_move()));
            assert!(*score != 0 && !has_capture(position));
        }
        // Played on, not repeated: the positions follow one another by the engines' moves.
        assert!(tail.windows(2).all(|pair| pair[0].0 != pair[1].0));
        let (bytes, count) = block(5, &record, &tail);
        assert_eq!(usize::from(count), tail.len());
        let samples = read_block(&bytes, 30);
        let read_back: Vec<_> = samples.iter().map(|s| (s.position, s.score)).collect();
        assert_eq!(read_back, tail);
    }
}
