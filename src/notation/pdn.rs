//! PDN games: tag pairs and the moves of the main line, read from PDN text (the first game of a
//! file, or all of them), and a game written out with its tags, move comments and result.
//! The moves stay text for the caller to replay in its variant. What a game says about its moves
//! (comments `{...}`, variations `(...)`, NAGs `$n`, strength marks `!`, `?!`) is kept apart
//! from them, as text beside the move it follows, so that a game annotated by the engine gives
//! back what a book or a database wrote in it; move numbers and `%` lines are dropped.

use super::NotationError;

/// The tags and main-line moves of a game, and the game's own notes beside them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in order, e.g. `("FEN", "W:W31-50:B1-20")`.
    pub tags: Vec<(String, String)>,
    /// The moves as written (`32-28`, `28x19`, `c3:e5`), without strength marks.
    pub moves: Vec<String>,
    /// The result token, if any (`2-0`, `1/2-1/2`, `*`).
    pub result: Option<String>,
    /// The notes before the first move (the game's own comment), as [`notes`](Self::notes).
    pub intro: Vec<String>,
    /// The notes after each move, one list per move (`notes[i]` follows `moves[i]`; the notes
    /// after the last move are those before the result): each piece verbatim as the source has
    /// it, a strength mark (`!`, `?!`, glued to the move or not), a NAG (`$1`), a comment
    /// (`{good}`) or a variation with all its moves and comments (`(2. 33-29? {bad} 23x34)`).
    /// Readers of the moves need not look at them; [`write_game`] writes them back.
    pub notes: Vec<Vec<String>>,
}

impl PdnGame {
    /// The value of tag `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// Reads the first game of `text`.
///
/// # Errors
/// A tag that is not `[Name "value"]`, an unclosed comment or variation, or no moves and no tags.
pub fn parse(text: &str) -> Result<PdnGame, NotationError> {
    parse_one(text).map(|(game, _)| game)
}

/// Reads every game of `text`: each ends at its result token, or where the next one's tags
/// begin.
///
/// # Errors
/// As [`parse`], for any game, with its number.
pub fn parse_all(text: &str) -> Result<Vec<PdnGame>, NotationError> {
    let mut games = Vec::new();
    let mut rest = text;
    while !rest.trim().is_empty() {
        let (game, after) = parse_one(rest)
            .map_err(|e| NotationError::new(format!("game {}: {e}", games.len() + 1)))?;
        games.push(game);
        rest = after;
    }
    Ok(games)
}

/// Adds a move token to `game`, without its move number (`12.`, `12...`, alone or glued to the
/// move); its strength mark (`!`, `?!`, glued or alone) becomes the move's first note.
fn push_move(word: &str, game: &mut PdnGame) {
    let word = word.rsplit('.').next().unwrap_or("");
    let played = word.trim_end_matches(['!', '?']);
    if !played.is_empty() && !played.chars().all(|c| c.is_ascii_digit()) {
        game.moves.push(played.to_string());
        game.notes.push(Vec::new());
    }
    let mark = &word[played.len()..];
    if !mark.is_empty() {
        push_note(mark, game);
    }
}

/// Adds a note (a comment, variation, NAG or strength mark, verbatim) after the last move of
/// `game`, or before its first move when it has none yet.
fn push_note(note: &str, game: &mut PdnGame) {
    game.notes.last_mut().unwrap_or(&mut game.intro).push(note.to_string());
}

/// The text of a PDN file's bytes: UTF-8 (a byte-order mark dropped), or, where the bytes are
/// not UTF-8, Windows-1252 (Latin-1 with the printable 0x80-0x9F), the encoding of many older
/// collections.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| windows_1252(b)).collect(),
    }
}

/// One byte of Windows-1252 as a character (the five unassigned bytes as their Latin-1 C1).
fn windows_1252(byte: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    match byte {
        0x80..=0x9f => HIGH[usize::from(byte - 0x80)],
        _ => char::from(byte),
    }
}

/// Every game of `text`, each read on its own: a game that cannot be read is an error in its
/// place, and reading goes on at the next game's tags.
pub fn parse_each(text: &str) -> Vec<Result<PdnGame, NotationError>> {
    let mut games = Vec::new();
    let mut rest = text;
    while !rest.trim().is_empty() {
        match parse_one(rest) {
            Ok((game, after)) => {
                games.push(Ok(game));
                rest = after;
            }
            Err(error) => {
                games.push(Err(error));
                rest = after_this_game(rest);
            }
        }
    }
    games
}

/// The text from the next game's tags on: the first line starting with `[` after a line that
/// does not (empty when there is none).
fn after_this_game(text: &str) -> &str {
    let mut in_tags = true;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let starts_tag = line.trim_start().starts_with('[');
        if !starts_tag && !line.trim().is_empty() {
            in_tags = false;
        } else if starts_tag && !in_tags {
            return &text[at..];
        }
        at += line.len();
    }
    ""
}

/// The first game of `text` and the text after it.
fn parse_one(text: &str) -> Result<(PdnGame, &str), NotationError> {
    let mut game = PdnGame::default();
    let mut chars = text.char_indices().peekable();
    let mut token = String::new();
    let mut depth = 0usize;
    // A move cut by spaces (`1- 6`, `47x 9`, as some collections pad squares to two characters)
    // is joined again: a part that ends with a separator waits for the next.
    let mut pending = String::new();
    let mut flush = |token: &mut String, game: &mut PdnGame| -> bool {
        let mut word = std::mem::take(token);
        if word.is_empty() {
            return false;
        }
        // The draw as some programs write it, with the one-half sign.
        if word == "½-½" {
            word = "1/2-1/2".to_string();
        }
        if RESULTS.contains(&word.as_str()) && pending.is_empty() {
            game.result = Some(word);
            return true;
        }
        let separator = |c: char| matches!(c, '-' | 'x' | 'X' | ':');
        if !pending.is_empty() {
            word = std::mem::take(&mut pending) + &word;
        }
        if word.ends_with(separator) && !RESULTS.contains(&word.as_str()) {
            pending = word;
            return false;
        }
        // A result glued to the last move (`14x23*`).
        let glued = RESULTS.iter().find(|result| {
            word.len() > result.len() && word.ends_with(**result) && **result == "*"
        });
        if let Some(result) = glued {
            word.truncate(word.len() - result.len());
            push_move(&word, game);
            game.result = Some(result.to_string());
            return true;
        }
        push_move(&word, game);
        false
    };
    let mut rest = text.len();
    // Where the variation being read began (its `(` at depth 0), to keep it whole as a note.
    let mut variation = 0;
    while let Some((at, c)) = chars.next() {
        match c {
            '{' => {
                flush(&mut token, &mut game);
                let Some((end, _)) = chars.by_ref().find(|&(_, c)| c == '}') else {
                    return Err(NotationError::new("PDN: a comment '{' is never closed"));
                };
                if depth == 0 {
                    push_note(&text[at..=end], &mut game);
                }
            }
            '%' if token.is_empty() => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut token, &mut game);
                if depth == 0 {
                    variation = at;
                }
                depth += 1;
            }
            ')' => {
                token.clear();
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| NotationError::new("PDN: ')' without a '('"))?;
                if depth == 0 {
                    push_note(&text[variation..=at], &mut game);
                }
            }
            _ if depth > 0 => {}
            '[' => {
                if flush(&mut token, &mut game) || !game.moves.is_empty() {
                    // The next game's tags: this game had no result token.
                    rest = at;
                    break;
                }
                // The tag ends at the first `]` outside its quoted value (`[Event "Cup [A]"]`);
                // `\"` and `\\` are escapes inside the value.
                let mut tag = String::new();
                let (mut quoted, mut escaped) = (false, false);
                for (_, c) in chars.by_ref() {
                    match c {
                        ']' if !quoted => break,
                        '"' if !escaped => quoted = !quoted,
                        _ => {}
                    }
                    escaped = c == '\\' && !escaped;
                    tag.push(c);
                }
                let (name, value) =
                    tag.trim().split_once(char::is_whitespace).ok_or_else(|| {
                        NotationError::new(format!("PDN: tag [{tag}] is not [Name \"value\"]"))
                    })?;
                let value = value.trim();
                let value = value.strip_prefix('"').unwrap_or(value);
                let value = value.strip_suffix('"').unwrap_or(value);
                let value = value.replace("\\\"", "\"").replace("\\\\", "\\");
                game.tags.push((name.to_string(), value));
            }
            '$' => {
                flush(&mut token, &mut game);
                let mut end = at + 1;
                while let Some(&(digit, _)) = chars.peek().filter(|(_, c)| c.is_ascii_digit()) {
                    end = digit + 1;
                    chars.next();
                }
                push_note(&text[at..end], &mut game);
            }
            c if c.is_whitespace() => {
                if flush(&mut token, &mut game) {
                    rest = at;
                    break;
                }
            }
            c => token.push(c),
        }
    }
    if rest == text.len() {
        flush(&mut token, &mut game);
    }
    if !pending.is_empty() {
        push_move(&pending, &mut game);
    }
    if depth > 0 {
        return Err(NotationError::new("PDN: a variation '(' is never closed"));
    }
    if game.moves.is_empty() && game.tags.is_empty() {
        return Err(NotationError::new("PDN: no game found"));
    }
    Ok((game, &text[rest..]))
}

/// Writes a game: its tags, then the moves numbered in pairs from the first one played (the
/// way pydraughts reads them back), each followed by its comment, and the result; lines are
/// kept under 80 columns.
pub fn write(
    tags: &[(String, String)],
    moves: &[(String, Option<String>)],
    result: &str,
) -> String {
    write_numbered(tags, moves, result, false)
}

/// [`write`], with the first move numbered `1...` when `second_mover_first` (a game from a
/// position where the side that does not open the game is to move), as PDN numbers moves.
pub fn write_numbered(
    tags: &[(String, String)],
    moves: &[(String, Option<String>)],
    result: &str,
    second_mover_first: bool,
) -> String {
    let moves: Vec<(String, Vec<String>)> = moves
        .iter()
        .map(|(mv, comment)| {
            let note = comment.as_ref().map(|c| format!("{{{}}}", c.replace('}', ")")));
            (mv.clone(), note.into_iter().collect())
        })
        .collect();
    write_game(tags, &[], &moves, result, second_mover_first)
}

/// Whether a note is a strength mark (`!`, `?`, `!?`, `??`...), which is written glued to its move.
pub fn is_mark(note: &str) -> bool {
    !note.is_empty() && note.chars().all(|c| matches!(c, '!' | '?'))
}

/// [`write_numbered`] with notes as [`PdnGame`] keeps them: `intro` before the first move, and
/// after each move its notes, each written as it is (a comment with its braces), a first note
/// that is a strength mark (`!`, `?!`) glued to the move. Lines are broken between notes, never
/// inside one, so a note longer than a line has a line of its own.
pub fn write_game(
    tags: &[(String, String)],
    intro: &[String],
    moves: &[(String, Vec<String>)],
    result: &str,
    second_mover_first: bool,
) -> String {
    let mut text = String::new();
    for (name, value) in tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        text.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    text.push('\n');
    let mut line = String::new();
    let mut push = |word: &str, text: &mut String| {
        let first_line = word.split('\n').next().unwrap_or(word);
        if !line.is_empty() && line.len() + 1 + first_line.len() > 79 {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        // A note of several lines (a comment as the source broke it) keeps its line breaks;
        // the line goes on after its last one.
        if let Some(end) = line.rfind('\n') {
            text.push_str(&line[..=end]);
            line.drain(..=end);
        }
    };
    for note in intro {
        push(note, &mut text);
    }
    let offset = usize::from(second_mover_first);
    for (index, (mv, notes)) in moves.iter().enumerate() {
        let ply = index + offset;
        if ply % 2 == 0 {
            push(&format!("{}.", ply / 2 + 1), &mut text);
        } else if index == 0 {
            push("1...", &mut text);
        }
        let (played, notes) = match notes.split_first() {
            Some((mark, rest)) if is_mark(mark) => (format!("{mv}{mark}"), rest),
            _ => (mv.clone(), &notes[..]),
        };
        push(&played, &mut text);
        for note in notes {
            push(note, &mut text);
        }
    }
    push(result, &mut text);
    text.push_str(&line);
    text.push_str("\n\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_moves_and_result() {
        let text = "[Event \"Test\"]\n[GameType \"20\"]\n[FEN \"W:W31-50:B1-20\"]\n\
                    1. 32-28 19-23 {a comment} 2. 28x19 (2. 33-29? 23x34) 14x23 $1\n\
                    % a line comment\n3.34-30! 10-14?! 2-0\n[Event \"Next\"] 1. 31-27";
        let game = parse(text).unwrap();
        assert_eq!(game.tag("fen"), Some("W:W31-50:B1-20"));
        assert_eq!(game.tag("GameType"), Some("20"));
        assert_eq!(game.moves, ["32-28", "19-23", "28x19", "14x23", "34-30", "10-14"]);
        assert_eq!(game.result.as_deref(), Some("2-0"));
        assert_eq!(
            parse("1. 11-15 23-19 ... 2... 8-11").unwrap().moves,
            ["11-15", "23-19", "8-11"]
        );
        // The draw with the one-half sign, in UTF-8 and in Windows-1252 (byte 0xBD).
        for text in [decode("1. 11-15 23-19 ½-½".as_bytes()), decode(b"1. 11-15 23-19 \xbd-\xbd")]
        {
            let game = parse(&text).unwrap();
            assert_eq!(game.moves, ["11-15", "23-19"]);
            assert_eq!(game.result.as_deref(), Some("1/2-1/2"));
        }
        assert!(parse("{open").is_err());
        assert!(parse("1. 11-15 (23-19").is_err());
        assert!(parse("   ").is_err());
        assert!(parse("[Event]").is_err());
    }

    #[test]
    fn games_are_written_and_read_back_one_after_another() {
        let tags = vec![
            ("White".to_string(), "a \"b\"".to_string()),
            ("FEN".to_string(), "W:W31-50:B1-20".to_string()),
        ];
        let moves: Vec<(String, Option<String>)> = (0..40)
            .map(|i| {
                (
                    format!("{}-{}", 31 + i % 5, 26 + i % 5),
                    (i % 3 == 0).then(|| format!("+0.{i}/7 0.1s")),
                )
            })
            .collect();
        let first = write(&tags, &moves, "2-0");
        assert!(first.lines().all(|line| line.len() < 80), "{first}");
        assert!(first.contains("1. 31-26 {+0.0/7 0.1s} 32-27 2. 33-28"), "{first}");
        let second = write(&tags[1..], &moves[..3], "*");
        let no_result = "[Event \"x\"]\n1. 32-28 19-23\n";
        let games =
            parse_all(&format!("{first}{second}{no_result}[Event \"y\"]\n1. 31-27 1-1")).unwrap();
        assert_eq!(games.len(), 4);
        assert_eq!(games[0].moves, moves.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>());
        assert_eq!(games[0].result.as_deref(), Some("2-0"));
        assert_eq!(games[0].tag("FEN"), Some("W:W31-50:B1-20"));
        assert_eq!(games[1].moves.len(), 3);
        assert_eq!(games[1].result.as_deref(), Some("*"));
        assert_eq!(games[2].moves, ["32-28", "19-23"]);
        assert_eq!(games[2].result, None);
        assert_eq!(games[3].tag("Event"), Some("y"));
        assert!(parse_all("1. 32-28 {open").is_err());
    }

    #[test]
    fn reads_pdn_as_collections_write_it() {
        // `]` and escaped quotes inside a tag value; padded squares; a result glued to a move.
        let game = parse(
            "[Event \"Cup [A]\"]\n[White \"Ton \\\"Tonny\\\" Sijbrands\"]\n\
             17. 43-39  1- 6 18. 47x 9  3x14 19. 32-28 14x23*",
        )
        .unwrap();
        assert_eq!(game.tag("Event"), Some("Cup [A]"));
        assert_eq!(game.tag("White"), Some("Ton \"Tonny\" Sijbrands"));
        assert_eq!(game.moves, ["43-39", "1-6", "47x9", "3x14", "32-28", "14x23"]);
        assert_eq!(game.result.as_deref(), Some("*"));
        // A byte-order mark, and Windows-1252 bytes (0xE9 é, 0x93/0x94 curly quotes).
        assert_eq!(decode(b"\xEF\xBB\xBF[Event \"x\"]"), "[Event \"x\"]");
        assert_eq!(decode(b"Andr\xe9 \x93A\x94"), "Andr\u{e9} \u{201c}A\u{201d}");
        assert_eq!(decode("Andr\u{e9}".as_bytes()), "Andr\u{e9}");
    }

    #[test]
    fn notes_are_kept_beside_their_moves_and_written_back() {
        let text = "[Event \"Book\"]\n[Opening \"Old Fourteenth\"]\n\
                    {A game comment} $7\n1. 11-15! 23-19 {a {comment} 2. 8-11?! $1 $14\n\
                    (2. 9-14 {worse (really)} (2. 10-14 22-17) 27-23) 22-17 {multi\nline} 1-0";
        let game = parse(text).unwrap();
        assert_eq!(game.moves, ["11-15", "23-19", "8-11", "22-17"]);
        assert_eq!(game.tag("Opening"), Some("Old Fourteenth"));
        assert_eq!(game.result.as_deref(), Some("1-0"));
        assert_eq!(game.intro, ["{A game comment}", "$7"]);
        assert_eq!(game.notes.len(), game.moves.len());
        assert_eq!(game.notes[0], ["!"]);
        assert_eq!(game.notes[1], ["{a {comment}"]);
        assert_eq!(
            game.notes[2],
            ["?!", "$1", "$14", "(2. 9-14 {worse (really)} (2. 10-14 22-17) 27-23)"]
        );
        assert_eq!(game.notes[3], ["{multi\nline}"]);
        // A mark alone after its move is the move's too; a game without notes has none.
        assert_eq!(parse("1. 11-15 ! 23-19 *").unwrap().notes, [vec!["!".to_string()], vec![]]);
        assert!(parse("1. 11-15 23-19 *").unwrap().intro.is_empty());
        // Written back with the engine's comment after the game's own, it reads the same.
        let moves: Vec<(String, Vec<String>)> = game
            .moves
            .iter()
            .zip(&game.notes)
            .map(|(mv, notes)| (mv.clone(), [&notes[..], &["{+0.1}".to_string()]].concat()))
            .collect();
        let written = write_game(&game.tags, &game.intro, &moves, "1-0", false);
        assert!(written.contains("{A game comment} $7 1. 11-15! {+0.1} 23-19 {a {comment}"));
        // Lines are broken between notes, never inside one (but where the source broke it).
        let variation = "8-11?! $1 $14\n(2. 9-14 {worse (really)} (2. 10-14 22-17) 27-23) {+0.1}";
        assert!(written.contains(variation), "{written}");
        assert!(written.contains("22-17 {multi\nline} {+0.1} 1-0"), "{written}");
        let again = parse(&written).unwrap();
        assert_eq!(
            (&again.tags, &again.moves, &again.result),
            (&game.tags, &game.moves, &game.result)
        );
        assert_eq!(again.intro, game.intro);
        assert_eq!(again.notes[2][..4], game.notes[2][..]);
        assert_eq!(again.notes[2][4], "{+0.1}");
    }

    #[test]
    fn a_bad_game_does_not_hide_the_next() {
        let text = "[Event \"a\"]\n1. 32-28 {never closed\n\n[Event \"b\"]\n1. 31-27 *\n";
        let games = parse_each(text);
        assert_eq!(games.len(), 2);
        assert!(games[0].as_ref().is_err_and(|e| e.to_string().contains("never closed")));
        assert_eq!(games[1].as_ref().map(|g| g.moves.clone()).ok(), Some(vec!["31-27".into()]));
    }
}
