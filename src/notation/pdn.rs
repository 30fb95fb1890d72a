//! A PDN game: tag pairs and the moves of the main line, read from PDN text (the first game of a
//! file). Comments `{...}`, `%` lines, variations `(...)`, NAGs `$n`, move numbers, strength marks
//! and the result are skipped; the moves stay text for the caller to replay in its variant.

use super::NotationError;

/// The tags and main-line moves of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in order, e.g. `("FEN", "W:W31-50:B1-20")`.
    pub tags: Vec<(String, String)>,
    /// The moves as written (`32-28`, `28x19`, `c3:e5`).
    pub moves: Vec<String>,
    /// The result token, if any (`2-0`, `1/2-1/2`, `*`).
    pub result: Option<String>,
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
    let mut game = PdnGame::default();
    let mut chars = text.chars().peekable();
    let mut token = String::new();
    let mut depth = 0usize;
    let flush = |token: &mut String, game: &mut PdnGame| -> bool {
        let word = std::mem::take(token);
        if word.is_empty() {
            return false;
        }
        if RESULTS.contains(&word.as_str()) {
            game.result = Some(word);
            return true;
        }
        // Move numbers "12." / "12..." (alone or glued to the move) and strength marks.
        let word = word.rsplit('.').next().unwrap_or("").trim_end_matches(['!', '?']);
        if !word.is_empty() && !word.chars().all(|c| c.is_ascii_digit()) {
            game.moves.push(word.to_string());
        }
        false
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut token, &mut game);
                if !chars.by_ref().any(|c| c == '}') {
                    return Err(NotationError::new("PDN: a comment '{' is never closed"));
                }
            }
            '%' if token.is_empty() => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut token, &mut game);
                depth += 1;
            }
            ')' => {
                token.clear();
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| NotationError::new("PDN: ')' without a '('"))?;
            }
            _ if depth > 0 => {}
            '[' => {
                flush(&mut token, &mut game);
                let mut tag = String::new();
                for c in chars.by_ref() {
                    if c == ']' {
                        break;
                    }
                    tag.push(c);
                }
                let (name, value) =
                    tag.trim().split_once(char::is_whitespace).ok_or_else(|| {
                        NotationError::new(format!("PDN: tag [{tag}] is not [Name \"value\"]"))
                    })?;
                let value = value.trim().trim_matches('"').to_string();
                game.tags.push((name.to_string(), value));
            }
            '$' => {
                flush(&mut token, &mut game);
                while chars.peek().is_some_and(char::is_ascii_digit) {
                    chars.next();
                }
            }
            c if c.is_whitespace() => {
                if flush(&mut token, &mut game) {
                    break;
                }
            }
            c => token.push(c),
        }
    }
    flush(&mut token, &mut game);
    if depth > 0 {
        return Err(NotationError::new("PDN: a variation '(' is never closed"));
    }
    if game.moves.is_empty() && game.tags.is_empty() {
        return Err(NotationError::new("PDN: no game found"));
    }
    Ok(game)
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
        assert!(parse("{open").is_err());
        assert!(parse("1. 11-15 (23-19").is_err());
        assert!(parse("   ").is_err());
        assert!(parse("[Event]").is_err());
    }
}
