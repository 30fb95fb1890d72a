//! The results file of a match (`damas match --results FILE`): what decides its games, then a
//! line per game as it ends; and the merge of such files (`damas match merge`), the shards of
//! one match (`--shard K/N`, on other cores or machines) or parts of it, into the report the
//! whole match would give.
//!
//! The format, text:
//!
//! ```text
//! damas match results 1
//! variant english
//! settings <everything that decides the games, on one line>
//! games <games in the whole match>
//! engine <name>                 one line per engine, in order
//! pairing <a> <b>               one line per pairing: the two engines' numbers
//! shard <K/N>
//! game <round> <pairing> <pair> <first|second> <1|0.5|0> <termination>
//! elapsed <seconds>             the last line: the match or the shard ended
//! ```
//!
//! `game` lines give the points of the pairing's first engine; `first` when it had the
//! opening's first move. The merge hands the games to the same tally as a match, in the order
//! a match on one thread plays them (by round), so that its report is the report of the match
//! played whole with `--concurrency 1`, an SPRT's stop included; with engines whose games are
//! deterministic (fixed depth or nodes), the same report.
//!
//! Depends on the match's own types; reads no file itself (the caller gives the texts), writes
//! only through [`Writer`].

use super::referee::Termination;
use super::stats::Sprt;
use super::{Job, MatchReport, MatchSettings, Outcome, Tally, pairings};
use crate::rules::Rules;
use crate::shard::Shard;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::time::Duration;

/// The first line of a results file.
const MAGIC: &str = "damas match results 1";

/// What a results file says about its match, before the games.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The rule set's name.
    pub variant: String,
    /// Everything that decides the games, as one line: files of one match have the same.
    pub settings: String,
    /// Games in the whole match (all shards).
    pub games: u32,
    /// The engines' names, in order.
    pub engines: Vec<String>,
    /// Who plays whom: the two engines' numbers of each pairing.
    pub pairings: Vec<(usize, usize)>,
    /// The part of the match this file holds.
    pub shard: Shard,
}

/// The header of `settings`' match in rule set `R`.
pub fn header<R: Rules>(settings: &MatchSettings) -> Header {
    let pairing_list = pairings(settings.engines.len(), settings.pairing);
    let pairs = settings.pairs_per_pairing();
    // The openings by their contents (a path differs from machine to machine, the file's text
    // does not); the databases by their presence, for the same reason.
    let openings = settings.openings.as_ref().map(|(text, _)| crc32fast::hash(text.as_bytes()));
    let decides = (
        &settings.engines,
        settings.tc,
        pairs,
        openings,
        settings.shuffle,
        settings.seed,
        &settings.adjudication,
        settings.egdb_path.is_some(),
        settings.draw_rules,
        settings.pairing,
    );
    Header {
        variant: R::VARIANT.name().to_string(),
        settings: format!("{decides:?}").replace(['\n', '\r'], " "),
        games: pairs * 2 * pairing_list.len() as u32,
        engines: settings.engines.iter().map(|spec| spec.name.clone()).collect(),
        pairings: pairing_list,
        shard: settings.shard,
    }
}

impl Header {
    fn text(&self) -> String {
        let mut text = format!(
            "{MAGIC}\nvariant {}\nsettings {}\ngames {}\n",
            self.variant, self.settings, self.games
        );
        for name in &self.engines {
            text += &format!("engine {}\n", name.replace(['\n', '\r'], " "));
        }
        for (a, b) in &self.pairings {
            text += &format!("pairing {a} {b}\n");
        }
        text + &format!("shard {}\n", self.shard)
    }

    /// Whether two files are parts of the same match.
    fn same_match(&self, other: &Header) -> bool {
        (&self.variant, &self.settings, self.games, &self.engines, &self.pairings)
            == (&other.variant, &other.settings, other.games, &other.engines, &other.pairings)
    }
}

/// A results file being written: `PATH.partial` until the match ends, then `PATH`.
pub struct Writer {
    path: String,
    partial: String,
    file: std::fs::File,
}

impl Writer {
    /// Starts the file with `header` (a `.partial` file left by a stopped run is replaced).
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn create(path: &str, header: &Header) -> Result<Writer, String> {
        let partial = format!("{path}.partial");
        let mut file = std::fs::File::create(&partial)
            .map_err(|e| format!("cannot write the results file {partial}: {e}"))?;
        file.write_all(header.text().as_bytes())
            .map_err(|e| format!("cannot write the results file {partial}: {e}"))?;
        Ok(Writer { path: path.to_string(), partial, file })
    }

    pub(super) fn game(&mut self, outcome: &Outcome) -> Result<(), String> {
        let line = game_line(outcome);
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write the results file {}: {e}", self.partial))
    }

    /// Ends the file and puts it in place.
    ///
    /// # Errors
    /// The file cannot be written or renamed.
    pub fn finish(mut self, elapsed: Duration) -> Result<(), String> {
        let wrong = |e: std::io::Error| format!("cannot write the results file {}: {e}", self.path);
        writeln!(self.file, "elapsed {:.3}", elapsed.as_secs_f64())
            .and_then(|()| self.file.sync_all())
            .map_err(wrong)?;
        std::fs::rename(&self.partial, &self.path).map_err(wrong)
    }
}

/// The `game` line of `outcome`, newline included. The termination is last because it can be
/// more than one word ("time forfeit").
fn game_line(outcome: &Outcome) -> String {
    let job = outcome.job;
    format!(
        "game {} {} {} {} {} {}\n",
        job.round,
        job.pairing,
        job.pair,
        if job.first_moves_first { "first" } else { "second" },
        outcome.points,
        outcome.termination.as_str()
    )
}

/// A results file read back.
#[derive(Clone, Debug)]
struct Parsed {
    header: Header,
    games: Vec<Outcome>,
    elapsed: f64,
}

/// Reads results file `name`'s `text`.
fn parse(name: &str, text: &str) -> Result<Parsed, String> {
    let mut lines = text.lines().enumerate();
    let wrong = |at: usize, why: &str| format!("{name} line {}: {why}", at + 1);
    if lines.next().map(|(_, line)| line) != Some(MAGIC) {
        return Err(format!("{name} is not a damas match results file (no '{MAGIC}' line)"));
    }
    let mut header = Header {
        variant: String::new(),
        settings: String::new(),
        games: 0,
        engines: Vec::new(),
        pairings: Vec::new(),
        shard: Shard::ALL,
    };
    let mut games = Vec::new();
    let mut elapsed = None;
    for (at, line) in lines {
        if elapsed.is_some() {
            return Err(wrong(at, "a line after the elapsed line"));
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "variant" => header.variant = rest.to_string(),
            "settings" => header.settings = rest.to_string(),
            "games" => header.games = rest.parse().map_err(|_| wrong(at, "a bad game count"))?,
            "engine" => header.engines.push(rest.to_string()),
            "pairing" => {
                let numbers: Vec<usize> =
                    rest.split(' ').map_while(|word| word.parse().ok()).collect();
                let [a, b] = numbers[..] else { return Err(wrong(at, "a bad pairing")) };
                header.pairings.push((a, b));
            }
            "shard" => header.shard = rest.parse().map_err(|e: String| wrong(at, &e))?,
            "game" => games.push(game(rest, &header).map_err(|why| wrong(at, &why))?),
            "elapsed" => {
                elapsed = Some(rest.parse::<f64>().map_err(|_| wrong(at, "a bad time"))?);
            }
            _ => return Err(wrong(at, &format!("unknown line '{key}'"))),
        }
    }
    let Some(elapsed) = elapsed else {
        return Err(format!(
            "{name} is not finished (no elapsed line): its match or shard stopped before the end"
        ));
    };
    if header.engines.len() < 2 || header.pairings.is_empty() {
        return Err(format!("{name}: no engines or pairings"));
    }
    Ok(Parsed { header, games, elapsed })
}

/// A `game` line's words after `game`.
fn game(words: &str, header: &Header) -> Result<Outcome, String> {
    // The termination, last, is the rest of the line: some are two words.
    let words: Vec<&str> = words.splitn(6, ' ').collect();
    let [round, pairing, pair, first, points, termination] = words[..] else {
        return Err("a game line needs six fields".into());
    };
    let number = |word: &str| word.parse::<u32>().map_err(|_| format!("'{word}' is not a number"));
    let pairing = number(pairing)? as usize;
    if pairing >= header.pairings.len() {
        return Err(format!("pairing {pairing} is not listed"));
    }
    let first_moves_first = match first {
        "first" => true,
        "second" => false,
        _ => return Err(format!("'{first}': first or second")),
    };
    let points = match points {
        "1" => 1.0,
        "0.5" => 0.5,
        "0" => 0.0,
        _ => return Err(format!("'{points}' points: 1, 0.5 or 0")),
    };
    let termination = Termination::ALL
        .into_iter()
        .find(|t| t.as_str() == termination)
        .ok_or_else(|| format!("'{termination}' is no termination"))?;
    let job = Job { pairing, pair: number(pair)?, first_moves_first, round: number(round)? };
    Ok(Outcome { job, points, termination })
}

/// What a merge found beside its report.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The report of the games merged.
    pub report: MatchReport,
    /// Games in the whole match.
    pub games: u32,
    /// Games in the files (each once).
    pub found: u32,
    /// The shards the files hold.
    pub shards: Vec<Shard>,
}

/// Merges results files (`(name, text)`) of one match into its report; with `sprt`, decided as
/// the match would have (the games in round order, stopping when it decides).
///
/// # Errors
/// A file that is not a finished results file, files of different matches, a game given twice
/// with different results.
pub fn merge(files: &[(String, String)], sprt: Option<Sprt>) -> Result<Merged, String> {
    let mut first: Option<Header> = None;
    let mut games: BTreeMap<u32, Outcome> = BTreeMap::new();
    let mut shards = Vec::new();
    let mut elapsed: f64 = 0.0;
    for (name, text) in files {
        let parsed = parse(name, text)?;
        match &first {
            Some(header) if !header.same_match(&parsed.header) => {
                return Err(format!(
                    "{name} is from another match than {} (its settings, engines or games differ)",
                    files[0].0
                ));
            }
            Some(_) => {}
            None => first = Some(parsed.header.clone()),
        }
        if sprt.is_some() && parsed.header.pairings.len() != 1 {
            return Err("--sprt tests one engine against another: a match of two engines".into());
        }
        for outcome in parsed.games {
            match games.get(&outcome.job.round) {
                Some(seen) if *seen != outcome => {
                    return Err(format!(
                        "game {} is in the files twice with different results",
                        outcome.job.round
                    ));
                }
                _ => {
                    games.insert(outcome.job.round, outcome);
                }
            }
        }
        shards.push(parsed.header.shard);
        elapsed = elapsed.max(parsed.elapsed);
    }
    let Some(header) = first else {
        return Err("no results files to merge".into());
    };
    let mut tally = Tally::new(&header.pairings);
    for outcome in games.values() {
        if tally.add(*outcome, sprt.as_ref()) == Some(true) {
            break;
        }
    }
    let report = MatchReport {
        names: header.engines,
        pairings: tally.results,
        terminations: tally.terminations,
        opener: tally.opener,
        sprt,
        elapsed: Duration::from_secs_f64(elapsed),
        played: tally.played,
    };
    Ok(Merged { report, games: header.games, found: games.len() as u32, shards })
}

#[cfg(test)]
mod tests {
    use super::super::Tally;
    use super::*;

    /// Every termination written in a `game` line reads back as itself, the two-word ones
    /// ("time forfeit", "rules infraction") included: a shard with a time forfeit once could
    /// not be merged.
    #[test]
    fn every_termination_reads_back() {
        let header = Header {
            variant: "international".into(),
            settings: "s".into(),
            games: 12,
            engines: vec!["a".into(), "b".into()],
            pairings: vec![(0, 1)],
            shard: Shard::ALL,
        };
        for (round, termination) in Termination::ALL.into_iter().enumerate() {
            let round = round as u32;
            let job = Job { pairing: 0, pair: round / 2, first_moves_first: round % 2 == 0, round };
            let outcome = Outcome { job, points: 0.5, termination };
            let line = game_line(&outcome);
            let rest = line.trim_end().strip_prefix("game ").expect("a game line");
            assert_eq!(game(rest, &header), Ok(outcome), "{line}");
        }
        assert!(game("1 0 0 first 1", &header).is_err());
        assert!(game("1 0 0 first 1 time out", &header).is_err());
    }

    /// The openings' side to move is counted whoever played it: a pair whose first engine wins
    /// both games is one win and one loss for the side to move.
    #[test]
    fn the_openings_side_to_move_is_tallied() {
        let mut tally = Tally::new(&[(0, 1)]);
        let mut round = 0;
        let mut play = |tally: &mut Tally, pair: u32, first: f64, second: f64| {
            for (first_moves_first, points) in [(true, first), (false, second)] {
                round += 1;
                let job = Job { pairing: 0, pair, first_moves_first, round };
                tally.add(Outcome { job, points, termination: Termination::Normal }, None);
            }
        };
        play(&mut tally, 0, 1.0, 1.0);
        play(&mut tally, 1, 1.0, 0.0);
        play(&mut tally, 2, 0.5, 0.0);
        let opener = tally.opener;
        assert_eq!((opener.wins, opener.draws, opener.losses), (4, 1, 1));
        assert_eq!(tally.results[0].games.wins, 3);
    }
}
