//! `damas analyze --pdn` keeps what the game said: its tags (those damas does not know too), its
//! comment before the first move, and after each move its marks, NAGs, comments and variations,
//! damas's own comment coming after them; the annotated game reads back and replays.

use damas::notation::pdn;
use std::path::PathBuf;
use std::process::{Command, Output};

fn damas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas")).args(args).output().expect("run damas")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A file `name` holding `text` in a directory of this test run's own.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damas-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// An English game as a book gives it: tags damas does not know, a game comment, a comment, a
/// variation with a comment and a variation inside, a strength mark and a NAG. 2. 15-18 loses a
/// man (damas marks it `?` or worse, but the game says `!`), 3... 15-11 throws the man back.
const GAME: &str = "[Event \"Book games\"]\n[Annotator \"A. Book\"]\n\
    [Opening \"Old Fourteenth\"]\n[Date \"1900.01.01\"]\n[GameType \"21\"]\n\n\
    {As the book gives it.}\n1. 11-15 23-19 {the usual reply}\n\
    2. 15-18! $1 (2. 8-11 {the book move (Old Fourteenth)} (2. 9-14 27-23) 22-17) 22x15\n\
    3. 9-14 15-11 {a present} *\n";

/// Analyses `game` (written to the file `name`) to depth 4: the annotated PDN it prints (from
/// its first tag to the line before `final position`), and that PDN with its whitespace
/// squeezed to single spaces.
fn annotate(name: &str, game: &str) -> (String, String) {
    let path = temp_file(name, game);
    let output = damas(&["analyze", "--pdn", path.to_str().unwrap(), "--depth", "4", "-t", "1"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    let _ = std::fs::remove_file(path);
    let begin = text.find("\n[").map(|at| at + 1).expect("a PDN game in the output");
    let end = text.find("final position").expect("the final position line");
    let annotated = text[begin..end].to_string();
    let squeezed = annotated.split_whitespace().collect::<Vec<_>>().join(" ");
    (annotated, squeezed)
}

#[test]
fn analyze_pdn_keeps_the_games_tags_comments_and_variations() {
    let (annotated, squeezed) = annotate("book.pdn", GAME);
    // Every tag in its order, the game's annotator and no second one.
    let tags = "[Event \"Book games\"]\n[Annotator \"A. Book\"]\n[Opening \"Old Fourteenth\"]\n\
                [Date \"1900.01.01\"]\n[GameType \"21\"]\n\n";
    assert!(annotated.starts_with(tags), "{annotated}");
    assert_eq!(annotated.matches("[Annotator").count(), 1, "{annotated}");
    // The game's comment, comments, variation (verbatim, nested) and NAG, damas's comment after.
    for kept in [
        "{As the book gives it.} 1. 11-15 {",
        "23-19 {the usual reply} {",
        "15-18! $1 (2. 8-11 {the book move (Old Fourteenth)} (2. 9-14 27-23) 22-17) {",
        "{a present} {",
    ] {
        assert!(squeezed.contains(kept), "{kept} missing: {annotated}");
    }
    assert!(squeezed.ends_with(" *"), "{annotated}");
    // It replays, and reads back with the same moves, tags and result, and both comments.
    let file = temp_file("book-annotated.pdn", &annotated);
    let check = damas(&["pdn", "check", file.to_str().unwrap()]);
    assert!(check.status.success(), "{}{}", stdout(&check), stderr(&check));
    assert!(stdout(&check).contains("1 replayed, 0 with an error"), "{}", stdout(&check));
    let original = pdn::parse(GAME).unwrap();
    let again = pdn::parse(&annotated).unwrap();
    assert_eq!(again.moves, original.moves);
    assert_eq!(again.tags, original.tags);
    assert_eq!(again.result, original.result);
    assert_eq!(again.intro, original.intro);
    for (index, (own, read)) in original.notes.iter().zip(&again.notes).enumerate() {
        // Each move: the game's notes, damas's mark glued where the game had none, then
        // damas's comment, a score.
        let read = match read.split_first() {
            Some((mark, rest)) if own.first() != Some(mark) && pdn::is_mark(mark) => rest,
            _ => &read[..],
        };
        let (damas, read) = read.split_last().expect("damas's comment");
        assert_eq!(read, &own[..], "move {}", index + 1);
        let score = damas.trim_start_matches(['{', '?', '!', ' ']);
        assert!(
            damas.starts_with('{') && score.starts_with(['+', '-']),
            "move {}: {damas}",
            index + 1
        );
    }
    let _ = std::fs::remove_file(file);
}

#[test]
fn analyze_pdn_puts_its_mark_beside_the_games_own() {
    let (_, squeezed) = annotate("marks.pdn", GAME);
    // 2. 15-18 keeps the game's `!`; damas's mark heads its comment.
    let at = squeezed.find("15-18! $1 (").expect("15-18 with the game's mark");
    let end = "22-17) ";
    let comment = &squeezed[squeezed[at..].find(end).expect("the variation") + at + end.len()..];
    assert!(comment.starts_with("{?") && comment.contains(", best "), "{squeezed}");
    // 3... 15-11, unmarked in the game, gets damas's mark (`?!` or worse) on the move.
    let after = &squeezed[squeezed.find("15-11").expect("15-11") + "15-11".len()..];
    let (mark, rest) = after.split_once(' ').unwrap();
    assert!(pdn::is_mark(mark) && rest.starts_with("{a present} {"), "{squeezed}");
    // A game without an annotator gets damas as its annotator, after its own tags.
    let plain = GAME.replace("[Annotator \"A. Book\"]\n", "");
    let (annotated, _) = annotate("plain.pdn", &plain);
    assert!(annotated.contains("[GameType \"21\"]\n[Annotator \"damas "), "{annotated}");
    assert!(annotated.contains("{As the book gives it.} 1. 11-15 {"), "{annotated}");
}
