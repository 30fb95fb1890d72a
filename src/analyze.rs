//! `damas analyze`: the engine's main job for a person at a terminal or a program reading JSON.
//! Prints the board, one line per completed iteration and the best move.

use crate::game::Game;
use crate::notation::{diagram, fen, moves};
use crate::position::{MoveOf, Position};
use crate::rules::Rules;
use crate::search::{Engine, Info, InfoSink, Limits, Score, WIN, WIN_BOUND};
use std::time::Duration;

/// What to search and how.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Depth limit.
    pub depth: Option<u32>,
    /// Time limit in seconds.
    pub seconds: Option<f64>,
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB.
    pub hash: usize,
    /// JSON lines instead of text.
    pub json: bool,
}

/// A score as people read it: `+0.35` (men), `win in 7` or `loss in 4` (moves).
pub fn describe(score: Score) -> String {
    if score >= WIN_BOUND {
        format!("win in {}", (WIN - score + 1) / 2)
    } else if score <= -WIN_BOUND {
        format!("loss in {}", (WIN + score + 1) / 2)
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
    }
}

/// The PDN text of a line of moves from `position`.
pub fn line<R: Rules>(position: &Position<R>, pv: &[MoveOf<R>]) -> Vec<String> {
    let mut position = *position;
    pv.iter()
        .map(|mv| {
            let text = moves::to_pdn(&position, mv);
            position.play(mv);
            text
        })
        .collect()
}

fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

struct Printer<R: Rules> {
    root: Position<R>,
    json: bool,
}

impl<R: Rules> InfoSink<R> for Printer<R> {
    fn info(&mut self, info: &Info<R>) {
        let pv = line(&self.root, &info.pv);
        let millis = info.time.as_millis().max(1);
        let nps = u128::from(info.nodes) * 1000 / millis;
        if self.json {
            let pv: Vec<String> = pv.iter().map(|m| json_string(m)).collect();
            println!(
                "{{\"type\":\"info\",\"depth\":{},\"seldepth\":{},\"score\":{},\"score_text\":{},\"nodes\":{},\"time_ms\":{},\"nps\":{},\"pv\":[{}]}}",
                info.depth,
                info.seldepth,
                info.score,
                json_string(&describe(info.score)),
                info.nodes,
                info.time.as_millis(),
                nps,
                pv.join(",")
            );
        } else {
            println!(
                "depth {:>2}/{:<2} score {:>8}  nodes {:>11}  nps {:>9}  time {:>6.2}  pv {}",
                info.depth,
                info.seldepth,
                describe(info.score),
                info.nodes,
                nps,
                info.time.as_secs_f64(),
                pv.join(" ")
            );
        }
    }
}

/// Analyses `start` and prints the result.
pub fn run<R: Rules>(start: Position<R>, settings: &Settings) {
    let game = Game::new(start);
    let seconds = settings.seconds.or(if settings.depth.is_none() { Some(3.0) } else { None });
    let limits = Limits {
        depth: settings.depth,
        move_time: seconds.map(Duration::from_secs_f64),
        ..Limits::default()
    };
    if settings.json {
        println!(
            "{{\"type\":\"position\",\"variant\":{},\"fen\":{}}}",
            json_string(R::VARIANT.name()),
            json_string(&fen::write(&start))
        );
    } else {
        print!("{}", diagram::draw(&start));
        println!("FEN {}", fen::write(&start));
    }
    let mut engine = Engine::<R>::new(settings.threads, settings.hash);
    let mut printer = Printer { root: start, json: settings.json };
    let result = engine.go(&game, limits, false, &mut printer);
    let best = result.best.map(|mv| moves::to_pdn(&start, &mv));
    let pv = line(&start, &result.pv);
    if settings.json {
        let best = best.as_deref().map_or("null".to_string(), json_string);
        let pv: Vec<String> = pv.iter().map(|m| json_string(m)).collect();
        println!(
            "{{\"type\":\"bestmove\",\"move\":{best},\"score\":{},\"score_text\":{},\"depth\":{},\"nodes\":{},\"time_ms\":{},\"pv\":[{}]}}",
            result.score,
            json_string(&describe(result.score)),
            result.depth,
            result.nodes,
            result.time.as_millis(),
            pv.join(",")
        );
    } else {
        match best {
            Some(best) => println!(
                "best move {best}  (score {}, depth {}, {} nodes in {:.2} s)",
                describe(result.score),
                result.depth,
                result.nodes,
                result.time.as_secs_f64()
            ),
            None => println!("no legal move: {}", game.outcome()),
        }
    }
}
