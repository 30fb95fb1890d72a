//! An engine of a match as the command line describes it: `key=value` words in the habit of
//! cutechess-cli and fastchess (`cmd=`, `name=`, `dir=`, `proto=`, `option.NAME=`, `tc=`), or
//! one of damas's built-in players (`depth=N`, `nodes=N`, `level=N`, `greedy`).
//!
//! Depends on the time controls only; no processes are started here.

use super::tc::TimeControl;

/// How the referee talks to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// This program's own search, in the referee's process (`greedy`: the best static
    /// evaluation one ply ahead).
    Builtin {
        /// Play the 1-ply greedy move instead of searching.
        greedy: bool,
    },
    /// A program speaking the Hub protocol on its stdin and stdout.
    Hub {
        /// The program and its arguments.
        command: Vec<String>,
    },
    /// A 10x10 engine speaking DXP over TCP; the referee is the Initiator.
    Dxp {
        /// The program to start first and its arguments (none: it is already running).
        command: Vec<String>,
        /// Where to connect, or (with `listen`) where to wait for the engine to connect.
        address: String,
        /// The referee listens and the engine connects.
        listen: bool,
    },
}

/// One engine of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Its name in the tables and the PDN.
    pub name: String,
    /// How to reach it.
    pub kind: Kind,
    /// Working directory of its process.
    pub dir: Option<String>,
    /// `option.NAME=VALUE`: Hub `set-param` lines; for the built-in player `threads`, `hash`
    /// and `level`.
    pub options: Vec<(String, String)>,
    /// Its own time control (otherwise the match's).
    pub tc: Option<TimeControl>,
}

/// Splits a command line into words: spaces separate, double or single quotes group.
///
/// # Errors
/// An unclosed quote, or no words.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut in_word = false;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("cmd '{text}': a quote is never closed"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("cmd= needs a program".to_string());
    }
    Ok(words)
}

impl EngineSpec {
    /// An engine from its words (`--each` words first, then the engine's own, which win).
    ///
    /// # Errors
    /// An unknown key, a bad value, or a contradiction (`greedy` with `cmd=`).
    pub fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut command = None;
        let mut dir = None;
        let mut proto = "hub".to_string();
        let mut address = None;
        let mut listen = None;
        let mut options: Vec<(String, String)> = Vec::new();
        let mut tc = None;
        let mut greedy = false;
        for word in words {
            if word == "greedy" {
                greedy = true;
                continue;
            }
            let (key, value) = word.split_once('=').ok_or_else(|| {
                format!("engine word '{word}': use KEY=VALUE (cmd=, name=, dir=, proto=, option.NAME=, tc=, depth=, nodes=, level=) or greedy")
            })?;
            let mut set_option = |name: &str, value: &str| {
                options.retain(|(known, _)| known != name);
                options.push((name.to_string(), value.to_string()));
            };
            match key {
                "cmd" => command = Some(split_command(value)?),
                "name" if !value.is_empty() => name = Some(value.to_string()),
                "dir" => dir = Some(value.to_string()),
                "proto" if value == "hub" || value == "dxp" => proto = value.to_string(),
                "proto" => return Err(format!("proto={value}: use proto=hub or proto=dxp")),
                "address" => address = Some(value.to_string()),
                "listen" => listen = Some(value.to_string()),
                "tc" => tc = Some(value.parse()?),
                "depth" | "nodes" => tc = Some(word.parse()?),
                "level" => {
                    match value.parse::<u32>() {
                        Ok(level) if (1..=crate::search::MAX_LEVEL).contains(&level) => {}
                        _ => {
                            return Err(format!(
                                "level={value}: use 1 to {}",
                                crate::search::MAX_LEVEL
                            ));
                        }
                    }
                    set_option("level", value);
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => set_option(option, value),
                    _ => return Err(format!("engine word '{word}': unknown key '{key}'")),
                },
            }
        }
        let kind = match (proto.as_str(), command) {
            ("dxp", command) => {
                let (address, listen) = match (address, listen) {
                    (Some(_), Some(_)) => {
                        return Err(
                            "a DXP engine takes address= (connect) or listen=, not both".into()
                        );
                    }
                    (Some(address), None) => (address, false),
                    (None, Some(address)) => (address, true),
                    (None, None) => {
                        return Err("a DXP engine needs address=HOST:PORT (the referee connects) or listen=HOST:PORT (the engine connects)".into());
                    }
                };
                Kind::Dxp { command: command.unwrap_or_default(), address, listen }
            }
            (_, Some(command)) => {
                if address.is_some() || listen.is_some() {
                    return Err("address= and listen= are for proto=dxp".into());
                }
                Kind::Hub { command }
            }
            (_, None) => Kind::Builtin { greedy },
        };
        if greedy && !matches!(kind, Kind::Builtin { .. }) {
            return Err("greedy is a built-in player: it takes no cmd=".into());
        }
        if let Kind::Builtin { .. } = kind {
            for (option, _) in &options {
                if !["threads", "hash", "level"].contains(&option.as_str()) {
                    return Err(format!(
                        "the built-in player knows option.threads, option.hash and level=, not option.{option}"
                    ));
                }
            }
        }
        let name = name.unwrap_or_else(|| default_name(&kind, tc.as_ref(), &options));
        Ok(EngineSpec { name, kind, dir, options, tc })
    }
}

/// A name from what the engine is: the program's file name, or `damas` and its setting.
fn default_name(kind: &Kind, tc: Option<&TimeControl>, options: &[(String, String)]) -> String {
    match kind {
        Kind::Builtin { greedy: true } => "greedy".to_string(),
        Kind::Builtin { greedy: false } => {
            let level = options.iter().find(|(name, _)| name == "level");
            match (level, tc) {
                (Some((_, level)), _) => format!("damas-level{level}"),
                (None, Some(tc)) => format!("damas-{tc}"),
                (None, None) => "damas".to_string(),
            }
        }
        Kind::Hub { command } | Kind::Dxp { command, .. } => command
            .first()
            .map(|program| {
                std::path::Path::new(program)
                    .file_name()
                    .map_or(program.clone(), |name| name.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| "dxp".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        split_command(text).unwrap()
    }

    #[test]
    fn engines_are_read_from_key_value_words() {
        let spec = EngineSpec::parse(&words(
            "'cmd=./old/damas hub' name=old option.hash=32 dir=/tmp tc=40/60+0.5",
        ))
        .unwrap();
        assert_eq!(spec.name, "old");
        assert_eq!(spec.kind, Kind::Hub { command: vec!["./old/damas".into(), "hub".into()] });
        assert_eq!(spec.options, vec![("hash".to_string(), "32".to_string())]);
        assert_eq!(spec.dir.as_deref(), Some("/tmp"));
        assert!(matches!(spec.tc, Some(TimeControl::Clock { moves: Some(40), .. })));

        let builtin = EngineSpec::parse(&words("depth=7")).unwrap();
        assert_eq!(builtin.kind, Kind::Builtin { greedy: false });
        assert_eq!(builtin.name, "damas-depth=7");
        assert_eq!(EngineSpec::parse(&words("greedy")).unwrap().name, "greedy");
        assert_eq!(EngineSpec::parse(&words("level=5")).unwrap().name, "damas-level5");

        let dxp = EngineSpec::parse(&words("proto=dxp address=127.0.0.1:27531")).unwrap();
        assert_eq!(
            dxp.kind,
            Kind::Dxp { command: vec![], address: "127.0.0.1:27531".into(), listen: false }
        );

        for bad in [
            "cmd=",
            "'cmd=a \"b'",
            "greedy cmd=x",
            "proto=uci cmd=x",
            "proto=dxp",
            "frobnicate=1",
            "plain",
            "level=99",
            "option.ponder=true",
            "depth=x",
        ] {
            assert!(EngineSpec::parse(&words(bad)).is_err(), "{bad}");
        }
    }
}
