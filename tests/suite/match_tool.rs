//! `damas match` as users run it: the real binary, real engine processes (damas in Hub and DXP
//! mode, and scripted misbehaving ones from tests/engines), the PDN file read back and replayed.

use damas::game::Game;
use damas::game::replay::{Notation, play_moves};
use damas::notation::{fen, pdn};
use damas::rules::{English, International, Rules};
use std::path::PathBuf;
use std::process::{Command, Output};

const DAMAS: &str = env!("CARGO_BIN_EXE_damas");

fn damas(args: &[&str]) -> Output {
    Command::new(DAMAS).args(args).output().expect("run damas")
}

/// A fresh path in the target directory for a test's PDN file.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("{name}-{}.pdn", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Reads the PDN file and replays every game from its FEN tag with the game layer; returns the
/// games with their final states.
fn replay<R: Rules>(path: &PathBuf) -> Vec<(pdn::PdnGame, Game<R>)> {
    let text = std::fs::read_to_string(path).expect("the PDN file");
    let games = pdn::parse_all(&text).expect("the PDN file reads back");
    games
        .into_iter()
        .map(|record| {
            for tag in [
                "Event",
                "Site",
                "Date",
                "Round",
                "White",
                "Black",
                "Result",
                "FEN",
                "TimeControl",
                "Termination",
            ] {
                assert!(record.tag(tag).is_some(), "no {tag} tag in {record:?}");
            }
            let start = fen::parse::<R>(record.tag("FEN").unwrap()).expect("the FEN tag");
            let mut game = Game::new(start);
            play_moves(&mut game, record.moves.iter().map(String::as_str), Notation::PdnFirst)
                .unwrap_or_else(|e| panic!("round {:?}: {e}", record.tag("Round")));
            (record, game)
        })
        .collect()
}

/// Four English games at 0.2 s a move between tests/engines/misbehave.py in `mode` (which
/// misbehaves at its `at`-th move), named `bad`, and damas at depth 2, named `good`, written to
/// `path`; the match must end normally. Returns its report.
fn misbehaving_match(mode: &str, at: u32, path: &std::path::Path) -> String {
    misbehaving_match_with(mode, at, path, &["--tc", "0.2"])
}

/// [`misbehaving_match`] with other match arguments than `--tc 0.2`.
fn misbehaving_match_with(mode: &str, at: u32, path: &std::path::Path, extra: &[&str]) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/misbehave.py");
    let engine = format!("cmd=python3 {script} {mode} {at} {DAMAS} hub");
    let mut args =
        vec!["match", "--engine", &engine, "name=bad", "--engine", "depth=2", "name=good"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-n", "4", "--pdn", path.to_str().unwrap()]);
    let output = damas(&args);
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{mode}: {stdout}{stderr}");
    stdout
}

#[test]
fn misbehaving_engines_lose_each_game_with_the_reason_and_the_match_goes_on() {
    let cases = [
        ("crash", "abandoned"),
        ("illegal", "rules infraction"),
        ("garbage", "rules infraction"),
        ("overrun", "time forfeit"),
        // Silent while its clock runs: it has lost on time, whatever its connection.
        ("silent", "time forfeit"),
    ];
    for (mode, termination) in cases {
        let path = scratch(&format!("misbehave-{mode}"));
        let stdout = misbehaving_match(mode, 3, &path);
        assert!(stdout.contains("4 games"), "{mode}: {stdout}");
        assert!(stdout.contains(&format!("terminations: {termination} 4")), "{mode}: {stdout}");
        let games = replay::<English>(&path);
        assert_eq!(games.len(), 4, "{mode}");
        for (record, game) in games {
            assert_eq!(record.tag("Termination"), Some(termination), "{mode}");
            // The misbehaving engine played two moves and lost at its third.
            assert!((4..=5).contains(&game.moves().count()), "{mode}: {record:?}");
            let bad_is_white = record.tag("White") == Some("bad");
            // English results are written from the first player's side (Black): 1-0 is Black's win.
            let expected = if bad_is_white { "1-0" } else { "0-1" };
            assert_eq!(record.result.as_deref(), Some(expected), "{mode}: {record:?}");
            assert_eq!(record.tag("Result"), Some(expected));
        }
    }
}

/// Silence is a stalled connection only where no clock runs (depth or node limits), after
/// `--patience`; an engine that does not answer the handshake within `--handshake` loses every
/// game as stalled, and the match still ends normally.
#[test]
fn silence_without_a_clock_is_a_stalled_connection_and_the_handshake_has_a_limit() {
    let path = scratch("misbehave-silent-nodes");
    let stdout =
        misbehaving_match_with("silent", 3, &path, &["--tc", "nodes=500", "--patience", "1"]);
    assert!(stdout.contains("terminations: stalled connection 4"), "{stdout}");
    let path = scratch("misbehave-mute");
    let started = std::time::Instant::now();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/misbehave.py");
    let engine = format!("cmd=python3 {script} mute 1 {DAMAS} hub");
    let output = damas(&[
        "match",
        "--engine",
        &engine,
        "name=mute",
        "--engine",
        "name=good",
        "--tc",
        "0.05",
        "--handshake",
        "0.5",
        "-n",
        "2",
        "--pdn",
        path.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&output);
    // Every engine is started once before the games: one that never answers is a clear error.
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("engine mute: stopped answering: no 'wait' within 0.5 s"), "{stderr}");
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
}

/// A game lost on time before its first move has no moves: it is still a whole PDN game (tags,
/// the reason as a comment, the result), and the games after it in the file read back too.
#[test]
fn a_game_lost_at_its_first_move_is_written_without_moves_and_the_file_reads_on() {
    let path = scratch("forfeit-first-move");
    let stdout = misbehaving_match("overrun", 1, &path);
    assert!(stdout.contains("terminations: time forfeit 4"), "{stdout}");
    let games = replay::<English>(&path);
    let rounds: Vec<&str> = games.iter().map(|(record, _)| record.tag("Round").unwrap()).collect();
    assert_eq!(rounds.len(), 4, "{rounds:?}");
    for (record, game) in &games {
        // The bad engine loses at its first move: the game has no moves when it moves first
        // and one (good's) when it moves second.
        let bad_is_white = record.tag("White") == Some("bad");
        let bad_moves_first =
            bad_is_white == (English::FIRST_TO_MOVE == damas::board::types::Side::White);
        assert_eq!(game.moves().count(), usize::from(!bad_moves_first), "{record:?}");
        assert!(record.result.is_some(), "{record:?}");
    }
    assert!(
        games.iter().any(|(_, game)| game.moves().count() == 0),
        "some game ends before its first move"
    );
}

#[test]
fn a_match_of_hub_engines_at_once_is_recorded_whole_and_its_counts_agree_with_the_games() {
    let path = scratch("hub-match");
    let engine = format!("cmd={DAMAS} hub");
    let output = damas(&[
        "match",
        "--engine",
        &engine,
        "name=hub-d3",
        "depth=3",
        "--engine",
        "name=builtin-d2",
        "depth=2",
        "-n",
        "12",
        "--concurrency",
        "3",
        "--pdn",
        path.to_str().unwrap(),
        "--openings",
        concat!(env!("CARGO_MANIFEST_DIR"), "/book/openings/english-3move-ballots.tsv"),
        "--shuffle",
    ]);
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stdout}{stderr}");
    let games = replay::<English>(&path);
    assert_eq!(games.len(), 12);
    let mut rounds: Vec<(u32, f64)> = Vec::new();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (record, game) in &games {
        assert_eq!(record.tag("GameType"), Some("21"));
        assert_eq!(
            record.tag("TimeControl"),
            Some("depth=3 / depth=2")
                .filter(|_| record.tag("White") == Some("hub-d3"))
                .or(Some("depth=2 / depth=3"))
        );
        if record.tag("Termination") == Some("normal") {
            // The game's own end is the one recorded.
            let verdict = game.verdict().expect("a normal ending is an ending of the rules");
            let first_won = matches!(verdict, damas::game::Verdict::Win(side, _) if side == English::FIRST_TO_MOVE);
            let expected = match verdict {
                damas::game::Verdict::Draw(_) => "1/2-1/2",
                _ if first_won => "1-0",
                _ => "0-1",
            };
            assert_eq!(record.result.as_deref(), Some(expected));
        }
        // hub-d3's points.
        let hub_is_black = record.tag("Black") == Some("hub-d3");
        let points = match record.result.as_deref() {
            Some("1/2-1/2") => 0.5,
            Some("1-0") if hub_is_black => 1.0,
            Some("0-1") if !hub_is_black => 1.0,
            _ => 0.0,
        };
        match points {
            1.0 => wins += 1,
            0.5 => draws += 1,
            _ => losses += 1,
        }
        rounds.push((record.tag("Round").unwrap().parse().unwrap(), points));
    }
    assert!(
        std::fs::read_to_string(&path).unwrap().contains("/3 0."),
        "moves carry score/depth and time comments"
    );
    assert!(
        stdout.contains(&format!("hub-d3 vs builtin-d2: +{wins} ={draws} -{losses}")),
        "{stdout}"
    );
    // Rounds 2k-1 and 2k are one opening with colours reversed: the pentanomial counts.
    rounds.sort_by_key(|(round, _)| *round);
    let mut counts = [0; 5];
    for pair in rounds.chunks(2) {
        counts[((pair[0].1 + pair[1].1) * 2.0) as usize] += 1;
    }
    let printed = format!(
        "(0, 0.5, 1, 1.5, 2): {} {} {} {} {}",
        counts[0], counts[1], counts[2], counts[3], counts[4]
    );
    assert!(stdout.contains(&printed), "{printed} in {stdout}");
}

#[test]
fn a_dxp_only_engine_plays_full_games_through_the_referee() {
    let path = scratch("dxp-match");
    let engine = format!("cmd={DAMAS} dxp --connect {{address}} --max-move-time 0.02 --threads 1");
    let output = damas(&[
        "match",
        "-v",
        "international",
        "--engine",
        "proto=dxp",
        "listen=127.0.0.1:0",
        &engine,
        "name=dxp",
        "tc=0/120",
        "--engine",
        "name=builtin",
        "tc=0.02",
        "-n",
        "2",
        // Both games at once: each starts its own engine, which connects to its own port.
        "--concurrency",
        "2",
        "--pdn",
        path.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stdout}{stderr}");
    let games = replay::<International>(&path);
    assert_eq!(games.len(), 2);
    for (record, game) in &games {
        assert!(matches!(record.tag("Termination"), Some("normal" | "adjudication")), "{record:?}");
        assert!(game.moves().count() >= 20, "{record:?}");
        assert_eq!(record.tag("GameType"), Some("20"));
    }
}

#[test]
fn a_dxp_engine_at_a_fixed_address_plays_one_game_at_a_time() {
    let output = damas(&[
        "match",
        "-v",
        "international",
        "--engine",
        "proto=dxp",
        "address=127.0.0.1:27531",
        "--engine",
        "greedy",
        "--concurrency",
        "2",
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("listen=127.0.0.1:0"), "{stderr}");
}

#[test]
fn the_sprt_ends_a_lopsided_match_early() {
    let output = damas(&[
        "match",
        "--engine",
        "depth=4",
        "name=strong",
        "--engine",
        "greedy",
        "-n",
        "400",
        "--sprt",
        "elo0=0",
        "elo1=20",
        "model=logistic",
    ]);
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let games: u32 = stdout.split_whitespace().next().unwrap().parse().unwrap();
    // It decides after about 55 pairs (every pair won; the zero counts are regularized).
    assert!(games < 150, "{stdout}");
}

#[test]
fn three_engines_meet_in_a_round_robin_or_a_gauntlet() {
    for (tournament, pairings) in [("round-robin", 3), ("gauntlet", 2)] {
        let output = damas(&[
            "match",
            "--engine",
            "depth=3",
            "--engine",
            "depth=2",
            "--engine",
            "greedy",
            "-n",
            "2",
            "--tournament",
            tournament,
        ]);
        let (stdout, stderr) = text(&output);
        assert!(output.status.success(), "{stdout}{stderr}");
        assert!(stdout.starts_with(&format!("{} games", 2 * pairings)), "{stdout}");
        assert_eq!(stdout.matches(" vs ").count(), pairings, "{stdout}");
    }
}

#[test]
fn bad_match_arguments_are_one_clear_error() {
    // A setting the engine refuses (English weights for an International match) stops the
    // match before its first game: it would have played without them.
    let engine = format!("cmd={DAMAS} hub");
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/src/eval/weights/english.dmw");
    let option = format!("option.eval-file={weights}");
    let refused = format!(
        "engine new: protocol error: it refused its settings: error message=\"{weights}: the \
         weights are for english, not international\""
    );
    for (args, message) in [
        (
            vec!["match", "--variant", "international", "--engine", &engine, "name=new", &option]
                .into_iter()
                .chain(["--engine", "greedy", "--games", "2"])
                .collect(),
            refused.as_str(),
        ),
        (vec!["match", "--engine", "depth=3"], "two engines"),
        (vec!["match", "--engine", "depth=3", "--engine", "frob=1"], "unknown key 'frob'"),
        (
            vec!["match", "--engine", "depth=3", "--engine", "greedy", "--tc", "fast"],
            "time control",
        ),
        (
            vec!["match", "--engine", "cmd=/nonexistent/engine", "--engine", "greedy"],
            "cannot start",
        ),
        (
            vec!["match", "--engine", "greedy", "--engine", "greedy", "--sprt", "elo0=5", "elo1=0"],
            "elo0",
        ),
        (
            vec![
                "match",
                "--engine",
                "greedy",
                "--engine",
                "depth=2",
                "--openings",
                "/nonexistent",
            ],
            "cannot read",
        ),
    ] {
        let output = damas(&args);
        let (stdout, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

/// The report of a match without its first line (the wall time).
fn without_time(stdout: &str) -> String {
    stdout.lines().skip(1).collect::<Vec<_>>().join("\n")
}

/// A match split into shards (`--shard K/N --results FILE`) and merged (`damas match merge`)
/// gives the report of the match played whole, the SPRT's decision included; files that do not
/// belong together, or a shard that did not finish, are refused.
#[test]
fn a_sharded_match_merges_into_the_whole_matchs_report() {
    let files = |name: &str, shards: u32| -> Vec<String> {
        (1..=shards).map(|k| scratch(&format!("{name}-{k}")).display().to_string()).collect()
    };
    // Fixed depths: the games are the same whoever plays them, wherever.
    let two = ["--engine", "depth=3", "name=a", "--engine", "depth=2", "name=b", "-n", "40"];
    let whole = damas(&[&["match"], two.as_slice(), &["--concurrency", "2"]].concat());
    let (whole_out, stderr) = text(&whole);
    assert!(whole.status.success(), "{whole_out}{stderr}");
    let shard_parts = files("shard", 3);
    let parts = &shard_parts;
    for (k, part) in parts.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        let output =
            damas(&[&["match"], two.as_slice(), &["--shard", &shard, "--results", part]].concat());
        assert!(output.status.success(), "{:?}", text(&output));
        assert!(!std::path::Path::new(&format!("{part}.partial")).exists());
    }
    let merge: Vec<&str> =
        ["match", "merge"].into_iter().chain(parts.iter().map(String::as_str)).collect();
    let merged = damas(&merge);
    let (merged_out, stderr) = text(&merged);
    assert!(merged.status.success(), "{merged_out}{stderr}");
    assert!(stderr.contains("40 of the match's 40 games"), "{stderr}");
    assert!(merged_out.starts_with("40 games"), "{merged_out}");
    assert_eq!(without_time(&merged_out), without_time(&whole_out));

    // The SPRT: decided by the merge as the match on one thread decides it, at the same pair.
    let lopsided = ["--engine", "depth=4", "name=strong", "--engine", "greedy", "-n", "400"];
    let sprt = ["--sprt", "elo0=0", "elo1=20", "model=logistic"];
    let whole = damas(&[&["match"], lopsided.as_slice(), &sprt].concat());
    let (whole_out, _) = text(&whole);
    assert!(whole_out.contains("H1 accepted"), "{whole_out}");
    let parts = files("sprt", 2);
    for (k, part) in parts.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        let output = damas(
            &[&["match"], lopsided.as_slice(), &["--shard", &shard, "--results", part]].concat(),
        );
        assert!(output.status.success(), "{:?}", text(&output));
    }
    let mut merge: Vec<&str> = vec!["match", "merge", &parts[0], &parts[1]];
    merge.extend(sprt);
    let merged = damas(&merge);
    let (merged_out, stderr) = text(&merged);
    assert!(merged.status.success(), "{merged_out}{stderr}");
    assert!(
        stderr.contains("400 of the match's 400 games")
            && stderr.contains("counted before the SPRT decided"),
        "{stderr}"
    );
    assert_eq!(without_time(&merged_out), without_time(&whole_out));

    // What is refused, with status 2 and a reason.
    let unfinished = scratch("unfinished").display().to_string();
    let text_of = std::fs::read_to_string(&parts[0]).expect("a results file");
    // A shard stopped between two games: whole lines, no elapsed line.
    let cut = text_of[..text_of.len() / 2].rfind('\n').expect("lines") + 1;
    std::fs::write(&unfinished, &text_of[..cut]).expect("write");
    let other_match = shard_parts[0].clone();
    for (files, why) in [
        (vec![other_match.as_str(), parts[0].as_str()], "another match"),
        (vec![unfinished.as_str()], "not finished"),
        (vec!["Cargo.toml"], "not a damas match results file"),
    ] {
        let output = damas(&[&["match", "merge"], files.as_slice()].concat());
        let (_, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(why), "{why}: {stderr}");
    }
    let output = damas(&[&["match"], lopsided.as_slice(), &["--shard", "1/2"], &sprt].concat());
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).1.contains("damas match merge --sprt"), "{:?}", text(&output));
}
