//! The `damas` binary as a user runs it: perft, moves, show, and clear errors with exit status 2
//! for bad input (never a panic).

use std::process::{Command, Output};

fn damas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas")).args(args).output().expect("run damas")
}

/// Runs damas with `input` on stdin; its stdout.
fn with_stdin(args: &[&str], input: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run damas");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let output = child.wait_with_output().expect("wait");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs a command that must fail: exit status 2, one line on stderr containing `needle`.
fn fails_with(args: &[&str], needle: &str) {
    let output = damas(args);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(err.contains(needle), "{args:?}: expected '{needle}' in: {err}");
    assert!(stdout(&output).is_empty(), "{args:?} printed to stdout on error");
}

#[test]
fn perft_prints_count_time_and_speed() {
    let output = damas(&["perft", "6"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("perft 6 = 36768"), "{text}");
    assert!(text.contains("leaves/s"), "{text}");
    let output = damas(&["perft", "5", "--variant", "international", "--threads", "2"]);
    assert!(stdout(&output).contains("perft 5 = 27117"));
    let output = damas(&[
        "perft",
        "12",
        "--paths",
        "--fen",
        "B:W21-32:B1-12",
        "--moves",
        "1. 11-15 23-19 2. 8-11",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn divide_lists_each_root_move() {
    let output = damas(&["perft", "3", "-v", "international", "--divide"]);
    let text = stdout(&output);
    assert!(text.contains("32-28"), "{text}");
    assert!(text.contains("moves 9"), "{text}");
    assert!(text.contains("perft 3 = 658"), "{text}");
}

#[test]
fn moves_lists_pdn_and_hub_forms() {
    // White man on 28 (e5), black man on 22 (d6): the capture lands on 17 (c7).
    let output = damas(&["moves", "-v", "international", "--fen", "W:W28:B22,19"]);
    let text = stdout(&output);
    assert!(text.contains("28x17") && text.contains("hub 28x17x22"), "{text}");
    assert!(text.contains("1 legal move"), "{text}");
    let output = damas(&["moves", "-v", "russian", "--fen", "W:Wa1,Kc3:Bh8,Kf6"]);
    let text = stdout(&output);
    assert!(text.contains("c3:g7") && text.contains("hub 10x28x23"), "{text}");
    assert!(text.contains("1 legal move"), "{text}");
}

#[test]
fn moves_batch_answers_one_line_per_position() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["moves", "--variant", "english", "--batch", "--pdn"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run damas");
    let mut stdin = child.stdin.take().expect("stdin");
    // Two king captures from 26 to 12 (PDN long form, every landing square), and 26x26; then
    // the start with one move played; then a bad FEN, which must not end the batch.
    writeln!(stdin, "W:WK26:B14,15,16,22,23").expect("write");
    writeln!(stdin, "B:W21-32:B1-12 moves 11-15").expect("write");
    writeln!(stdin, "W:W99:B1").expect("write");
    writeln!(stdin, "W:W28:B24").expect("write");
    drop(stdin);
    let output = child.wait_with_output().expect("wait");
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(
        lines[0],
        "26x12x14x15x16x22=26x17x10x19x12 26x12x16x23=26x19x12 26x26x14x15x22x23=26x26"
    );
    assert_eq!(lines[1].split(' ').count(), 7, "{text}");
    assert!(lines[1].split(' ').all(|m| m.split_once('=').is_some_and(|(h, p)| h == p)));
    assert!(lines[2].starts_with("error: "), "{text}");
    assert_eq!(lines[3], "28x19x24=28x19");
    assert!(output.status.success());
}

#[test]
fn show_draws_the_board_and_its_fen() {
    let output = damas(&["show", "--moves", "11-15"]);
    let text = stdout(&output);
    assert!(text.contains("white to move (english)"), "{text}");
    assert!(
        text.contains("FEN W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"),
        "{text}"
    );
    let output = damas(&["show", "-v", "turkish"]);
    assert!(stdout(&output).lines().filter(|l| l.contains('w')).count() >= 2);
}

#[test]
fn a_pasted_position_finds_its_board() {
    // A 10x10 FEN without --variant: International, said on stderr.
    let output = damas(&["show", "--fen", "W:W31-50:B1-20"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("white to move (international)"), "{}", stdout(&output));
    assert!(stderr(&output).contains("squares above 32: international assumed"));
    // A Hub position string, 10x10 by its length; the same position.
    let hub = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
    let output = damas(&["show", "--fen", &hub]);
    assert!(stdout(&output).contains("FEN W:W31,32,"), "{}", stdout(&output));
    assert!(stderr(&output).contains("a Hub position of 50 squares: international assumed"));
    // Algebraic squares: Russian; an English position says nothing.
    let output = damas(&["moves", "--fen", "W:Wc3:Bf6"]);
    assert!(stderr(&output).contains("russian assumed"), "{}", stderr(&output));
    let output = damas(&["moves", "--fen", "B:W21-32:B1-12"]);
    assert!(stderr(&output).is_empty() && stdout(&output).contains("7 legal moves"));
    // Given a rule set that does not fit, the error says which one would.
    fails_with(
        &["show", "--variant", "english", "--fen", "W:W31-50:B1-20"],
        "this looks like international: choose that rule set (`--variant international`",
    );
    fails_with(&["book", "probe", "-v", "english", "--fen", "W:W45:B3"], "--variant international");
}

#[test]
fn bad_input_is_a_clear_error_with_status_2() {
    fails_with(&["perft", "3", "--fen", "W:W31:Q1"], "bad FEN");
    fails_with(&["perft", "3", "--fen", "garbage"], "bad FEN");
    fails_with(&["perft", "3", "-v", "international", "--fen", "W:W51:B1"], "out of range");
    fails_with(&["perft", "3", "--variant", "chess"], "unknown variant 'chess'");
    fails_with(&["moves", "--moves", "11-15 23-17"], "move 2 of --moves: illegal move '23-17'");
    fails_with(&["moves", "--moves", "11-"], "move 1 of --moves");
    fails_with(&["show", "--fen", "W:W1:B2"], "promotion row");
    fails_with(&["perft", "2", "--threads", "0"], "--threads");
    fails_with(&["perft", "-3"], "");
    fails_with(&["perft"], "");
}

#[test]
fn analyze_multipv_svg_file_and_pdn() {
    let dir = std::env::temp_dir().join(format!("damas-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("board.svg");
    let svg_path = svg.to_str().unwrap();
    let output =
        damas(&["analyze", "--depth", "5", "--multipv", "3", "--threads", "1", "--svg", svg_path]);
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    for k in 1..=3 {
        assert!(text.contains(&format!("line {k} depth  5/")), "line {k}: {text}");
    }
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("<polyline"), "{picture}");
    // A file of positions, one of them bad: the others are analysed, exit status 2.
    let list = dir.join("positions.txt");
    std::fs::write(&list, "# two positions\nW:W22,30:B18\nnot a fen\nB:W21-32:B1-12\n").unwrap();
    let output = damas(&["analyze", "--file", list.to_str().unwrap(), "--depth", "3", "-t", "1"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output).matches("best move").count(), 2, "{}", stdout(&output));
    assert!(stderr(&output).contains("positions.txt:3"), "{}", stderr(&output));
    // A PDN game: every move annotated, the blunders marked.
    let pdn = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/random-english.pdn");
    let output = damas(&["analyze", "--pdn", pdn, "--depth", "6", "--threads", "1", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.lines().filter(|l| l.starts_with("{\"type\":\"move\"")).count(), 30);
    assert!(text.contains("\"move\":\"11-15\",") && text.contains("\"mark\":\"??\""), "{text}");
    // A game from a position with Black to move, where White opens the game: numbered from
    // `1...`, its tags kept (escapes included) with damas as the annotator, and a move that is
    // also the engine's choice gets one score.
    let black_first = dir.join("black-first.pdn");
    std::fs::write(
        &black_first,
        "[Event \"Cup [A]\"]\n[White \"Smith, \\\"J\\\"\"]\n[GameType \"20\"]\n\
         [FEN \"B:W31,32,33,34,35,36,37,38,39,40:B11,12,13,14,15,16,17,18,19,20\"]\n\
         1... 19-23 2. 34-29 23x45 3. 35-30 14-19 *\n",
    )
    .unwrap();
    let path = black_first.to_str().unwrap();
    let output = damas(&["analyze", "--pdn", path, "--depth", "4", "--threads", "1"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    // (The moves' marks, `?!` and the like, depend on the evaluation: not asserted.)
    assert!(text.starts_with("1...   19-23"), "{text}");
    assert!(text.contains("\n2.     34-29") && text.contains("\n2...   23x45"), "{text}");
    for tag in [
        "[Event \"Cup [A]\"]",
        "[White \"Smith, \\\"J\\\"\"]",
        "[GameType \"20\"]",
        "[Annotator \"damas ",
    ] {
        assert!(text.contains(tag), "{tag} missing: {text}");
    }
    let first =
        text.lines().find(|l| l.starts_with("1... 19-23")).unwrap_or_else(|| panic!("{text}"));
    let after = first["1... 19-23".len()..].trim_start_matches(['!', '?']);
    assert!(after.starts_with(" {"), "a comment after the first move and its mark: {first}");
    for line in text.lines().take(5) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [_, played, score, "best", best, best_score] = words[..] {
            if played == best {
                assert_eq!(score, best_score, "one move, one score: {line}");
            }
        }
    }
    // A problem collection (FENs without moves): each position's best line.
    let problems = dir.join("problems.pdn");
    std::fs::write(
        &problems,
        "[Event \"1\"]\n[GameType \"21\"]\n[FEN \"W:W22,30:B18\"]\n*\n\n\
         [Event \"2\"]\n[GameType \"21\"]\n[FEN \"W:WK22,K30:BK3\"]\n*\n",
    )
    .unwrap();
    let output = damas(&["analyze", "--pdn", problems.to_str().unwrap(), "-d", "12", "-t", "1"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(text.contains("no moves: best 22x15  (win in 1)"), "{text}");
    assert!(text.contains("no moves: best 22-18  (win in"), "{text}");
    // What applies to one position only is refused with a game file.
    fails_with(&["analyze", "--pdn", path, "--svg", "x.svg"], "cannot be used with");
    fails_with(&["analyze", "--pdn", path, "--multipv", "2"], "cannot be used with");
    // Bad input: a clear error, exit status 2.
    fails_with(&["analyze", "--multipv", "0"], "--multipv");
    fails_with(&["analyze", "--pdn", "/nonexistent.pdn"], "cannot read");
    let broken = dir.join("broken.pdn");
    std::fs::write(&broken, "1. 11-15 15-19 *").unwrap();
    fails_with(&["analyze", "--pdn", broken.to_str().unwrap()], "move 2 (15-19)");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reader_that_leaves_early_is_no_error() {
    // `damas perft 3 --divide | head -1`: the output pipe closes before damas has written.
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["perft", "4", "--divide", "--variant", "international"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run damas");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("wait");
    let err = stderr(&output);
    assert!(output.status.success(), "{:?}: {err}", output.status);
    assert!(!err.contains("panicked"), "{err}");
}

/// `damas variants` lists the other names each rule set is read by, as its help promises.
#[test]
fn variants_lists_names_and_aliases() {
    let output = damas(&["variants"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let english = text.lines().find(|l| l.starts_with("english ")).expect("english listed");
    assert!(english.contains("(also: american, checkers, 21)"), "{english}");
    let line = text.lines().find(|l| l.starts_with("international ")).expect("international");
    assert!(line.contains("standard") && line.contains("20"), "{line}");
    assert_eq!(text.lines().count(), 18);
}

/// `analyze` with a table the machine cannot give says so and exits with status 2 (it once
/// aborted, or panicked on the overflow of the largest number).
#[test]
fn analyze_refuses_a_hash_table_it_cannot_have() {
    for size in ["18446744073709551615", "1099511627776"] {
        let output = damas(&["analyze", "--depth", "2", "--hash", size]);
        assert_eq!(output.status.code(), Some(2), "{size}: {}", stderr(&output));
        assert!(stderr(&output).contains("could not allocate"), "{}", stderr(&output));
    }
}

/// A build killed without warning (SIGKILL: no handler runs) keeps the slices it finished; the
/// next build says so, makes the rest, and the whole set verifies.
#[test]
fn an_egdb_build_killed_midway_resumes() {
    let dir = std::env::temp_dir().join(format!("damas-cli-egdb-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.to_str().expect("utf-8 temp dir");
    let slices = |dir: &std::path::Path| {
        std::fs::read_dir(dir).map_or(0, |entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "egdb"))
                .count()
        })
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["egdb", "build", "--pieces", "4", "--egdb-path", path, "-t", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start the build");
    // Kill it once a few slices are written, well before the end (41 slices up to 4 pieces).
    let started = std::time::Instant::now();
    while slices(&dir) < 6 {
        assert!(started.elapsed().as_secs() < 120, "the build wrote no slice");
        assert!(child.try_wait().expect("poll").is_none(), "the build ended too soon");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().expect("kill the build");
    let _ = child.wait();
    let kept = slices(&dir);
    assert!(kept < 41, "killed before the end: {kept} slices");
    let again = damas(&["egdb", "build", "--pieces", "4", "--egdb-path", path]);
    let err = stderr(&again);
    assert!(again.status.success(), "{err}");
    assert!(err.contains(&format!("{kept} slices already built, kept")), "{err}");
    let verify = damas(&["egdb", "verify", "--egdb-path", path]);
    assert!(verify.status.success(), "{}", stdout(&verify));
    let checked = stdout(&verify);
    assert!(
        checked.contains("6408836 positions in 41 slices: ") && checked.contains("all consistent"),
        "{checked}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn frisian_egdb_holds_the_king_streaks_and_the_engine_reads_the_games() {
    let dir = std::env::temp_dir().join(format!("damas-cli-egdb-frisian-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.to_str().expect("utf-8 temp dir");
    let build =
        damas(&["egdb", "build", "--variant", "frisian", "--pieces", "3", "--egdb-path", path]);
    assert!(build.status.success(), "{}", stderr(&build));
    // Each position once per pair of king streaks: a side with a king and a man has four.
    let stats = stdout(&damas(&["egdb", "stats", "--variant", "frisian", "--egdb-path", path]));
    assert!(stats.contains("1K1M v 1K"), "{stats}");
    assert!(stats.contains("423360 positions"), "{stats}");
    let verify = damas(&["egdb", "verify", "--variant", "frisian", "--egdb-path", path]);
    assert!(stdout(&verify).contains("all consistent"), "{}", stdout(&verify));
    assert!(verify.status.success());
    let probe = ["egdb", "probe", "--variant", "frisian", "--egdb-path", path, "--fen"];
    let probe = stdout(&damas(&[&probe[..], &["W:W6,K8:BK7"]].concat()));
    assert!(probe.starts_with("win in 5 plies for white (no king has moved in a row)"), "{probe}");
    // The king on 8 wins fresh; after two moves in a row (8-2, 2-8) it has one left, and the
    // same position is a draw: the engine reads the game's streak.
    let script = format!(
        "variant frisian\negdb-path {path}\nfen W:W6,K8:BK7\ngo depth 4\nfen W:W6,K8:BK7\n\
         play 8-2 7-1 2-8 1-7\ngo depth 4\nquit\n"
    );
    let text = with_stdin(&["text"], &script);
    assert!(text.contains("best move 8-2  (known win for white, endgame databases)"), "{text}");
    let after = text.split("played 8-2 7-1 2-8 1-7").nth(1).unwrap_or_default();
    assert!(after.contains("(+0.00 for white, depth 4)") && !after.contains("known win"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn egdb_build_resumes_probes_counts_and_verifies() {
    let dir = std::env::temp_dir().join(format!("damas-cli-egdb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.to_str().expect("utf-8 temp dir");
    let two = damas(&["egdb", "build", "--pieces", "2", "--egdb-path", path, "-t", "2"]);
    assert!(two.status.success(), "{}", stderr(&two));
    // Three pieces on top: the two-piece files are kept, not rebuilt.
    let three = damas(&["egdb", "build", "--pieces", "3", "--egdb-path", path]);
    assert!(three.status.success(), "{}", stderr(&three));
    assert!(stderr(&three).contains("4 slices already built, kept"), "{}", stderr(&three));
    let stats = stdout(&damas(&["egdb", "stats", "--egdb-path", path]));
    assert!(stats.contains("2 pieces: 3488 positions"), "{stats}");
    assert!(stats.contains("3 pieces: 196032 positions"), "{stats}");
    // Two kings against one, the lone king to move in the double corner: lost, and every move
    // is listed with the opponent's win.
    let probe = stdout(&damas(&["egdb", "probe", "--egdb-path", path, "--fen", "B:WK18,K14:BK27"]));
    assert!(probe.starts_with("loss in 24 plies for black"), "{probe}");
    assert!(probe.contains("27-24 (win in 23 plies for the opponent)"), "{probe}");
    let verify = damas(&["egdb", "verify", "--egdb-path", path]);
    assert!(verify.status.success(), "{}", stdout(&verify));
    let checked = stdout(&verify);
    assert!(checked.contains("199520 positions in 16 slices: "), "{checked}");
    assert!(checked.contains("all consistent"), "{checked}");
    // A damaged file: verify names it and fails; a build then makes it again.
    let file = dir.join("0-2-0-1.egdb");
    let mut bytes = std::fs::read(&file).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, &bytes).expect("write");
    let verify = damas(&["egdb", "verify", "--egdb-path", path]);
    assert_eq!(verify.status.code(), Some(1));
    assert!(stderr(&verify).contains("0-2-0-1.egdb: the file checksum does not match"));
    let again = damas(&["egdb", "build", "--pieces", "3", "--egdb-path", path]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(damas(&["egdb", "verify", "--egdb-path", path]).status.success());
    // More pieces than built, a missing directory, another variant's files: clear errors.
    fails_with(
        &["egdb", "probe", "--egdb-path", path, "--fen", "W:W21,22:B1,2"],
        "not in the databases",
    );
    let missing = dir.join("nothing");
    let missing_path = missing.to_str().expect("utf-8");
    fails_with(&["egdb", "stats", "--egdb-path", missing_path], "no such directory");
    let foreign = damas(&["egdb", "verify", "--variant", "italian", "--egdb-path", path]);
    assert_eq!(foreign.status.code(), Some(1));
    assert!(stderr(&foreign).contains("a file of english, not italian"), "{}", stderr(&foreign));
    // The engine plays from them: the lone king resists longest, the two kings take the
    // shortest win; a directory that is not there is an error, and the engine plays on with
    // the databases it has.
    let script = format!(
        "egdb-path {path}\nfen B:WK18,K14:BK27\ngo depth 4\nfen W:WK18,K14:BK27\ngo depth 4\n\
         egdb-path {path}/nothing\nfen W:WK18,K14:BK27\ngo depth 2\nquit\n"
    );
    let text = with_stdin(&["text"], &script);
    assert!(text.contains("best move 27-24  (known loss for black, endgame databases)"), "{text}");
    assert!(text.contains("best move 14-9  (known win for white, endgame databases)"), "{text}");
    assert!(text.contains("is not a directory"), "{text}");
    assert_eq!(text.matches("best move 14-9  (known win for white").count(), 2, "{text}");
    // egdb-pieces 2 leaves the three-piece slices out: the same position is searched.
    let script = format!(
        "egdb-path {path}\negdb-pieces 2\nfen W:WK18,K14:BK27\ngo depth 2\negdb-pieces 0\n\
         egdb-cache 1\nfen W:WK18,K14:BK27\ngo depth 2\nquit\n"
    );
    let text = with_stdin(&["text"], &script);
    assert_eq!(text.matches("best move 14-9  (known win for white").count(), 1, "{text}");
    // analyze reads them with --egdb-path.
    let fen = ["--fen", "W:WK18,K14:BK27", "--depth", "3"];
    let analysis = damas(&[&["analyze", "--egdb-path", path][..], &fen[..]].concat());
    assert!(stdout(&analysis).contains("best move 14-9  (known win"), "{}", stdout(&analysis));
    let analysis = damas(&[&["analyze", "--egdb-path", "none"][..], &fen[..]].concat());
    assert!(!stdout(&analysis).contains("known win"), "{}", stdout(&analysis));
    // damas match adjudicates from them: the game ends at once with their verdict.
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "W:WK18,K14:BK27\n").expect("write");
    let pdn = dir.join("games.pdn");
    let played = damas(&[
        "match",
        "--engine",
        "depth=2",
        "--engine",
        "depth=1",
        "--games",
        "2",
        "--openings",
        openings.to_str().expect("utf-8"),
        "--egdb-path",
        path,
        "--pdn",
        pdn.to_str().expect("utf-8"),
    ]);
    assert!(played.status.success(), "{}", stderr(&played));
    let games = std::fs::read_to_string(&pdn).expect("read the PDN");
    assert_eq!(games.matches("{endgame database: win in 23 plies for white} 0-1").count(), 2);
    fails_with(
        &["match", "--engine", "depth=1", "--engine", "greedy", "--egdb-path", missing_path],
        "--egdb-path",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pdn_check_replays_files_as_collections_write_them() {
    let dir = std::env::temp_dir().join(format!("damas-cli-pdn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // A byte-order mark, Windows-1252 (0xE9), `]` in a tag, padded squares, a glued result, a
    // lidraughts FEN with counters; then a game with an illegal move, and a good one after it.
    let mut bytes = b"\xEF\xBB\xBF[Event \"Cup [A]\"]\n[White \"Andr\xe9\"]\n[Black \"B\"]\n\
        [GameType \"20\"]\n[FEN \"W:W31-50:B1-20:H0:F1\"]\n\
        1. 32-28 16-21 2. 33-29 11-16 3. 38-33 6-11 4. 42-38  1- 6 5. 47-42*\n\n"
        .to_vec();
    bytes.extend_from_slice(b"[Event \"Bad\"]\n[GameType \"20\"]\n1. 32-28 19-23 2. 31-27 *\n\n");
    bytes.extend_from_slice(b"[Event \"Good\"]\n[GameType \"20\"]\n1. 31-27 16-21 *\n");
    let file = dir.join("games.pdn");
    std::fs::write(&file, &bytes).expect("write");
    let path = file.to_str().expect("utf-8");
    let checked = damas(&["pdn", "check", path]);
    let out = stdout(&checked);
    assert_eq!(checked.status.code(), Some(1), "{out}");
    assert!(
        out.contains("game 1 \"Cup [A]\" Andr\u{e9} - B: 9 moves of international replayed"),
        "{out}"
    );
    assert!(out.contains("game 2 \"Bad\": move 3 (31-27): illegal move '31-27'"), "{out}");
    assert!(out.contains("game 3 \"Good\": 2 moves of international replayed"), "{out}");
    assert!(out.ends_with("3 games: 2 replayed, 1 with an error\n"), "{out}");
    // analyze --pdn annotates every game of the file, or the one --game names.
    let analysed = damas(&["analyze", "--pdn", path, "--depth", "1"]);
    let (out, err) = (stdout(&analysed), stderr(&analysed));
    assert_eq!(analysed.status.code(), Some(2), "{err}");
    assert!(out.contains("[game 1 of 3]") && out.contains("[game 3 of 3]"), "{out}");
    assert!(out.contains("1.     31-27"), "{out}");
    assert!(err.contains("game 2: move 3 (31-27): illegal move"), "{err}");
    assert!(err.contains("1 of the 3 games"), "{err}");
    let third = damas(&["analyze", "--pdn", path, "--depth", "1", "--game", "3"]);
    assert!(third.status.success(), "{}", stderr(&third));
    assert!(!stdout(&third).contains("[game"), "{}", stdout(&third));
    fails_with(&["analyze", "--pdn", path, "--game", "4"], "has 3 games");
    // Without GameType: the rule set is guessed from the notation and said.
    std::fs::write(&file, "1. c3-d4 f6-g5 2. d4-e5 *\n").expect("write");
    let guessed = stdout(&damas(&["pdn", "check", path]));
    assert!(
        guessed.contains("algebraic squares: russian assumed): 3 moves of russian"),
        "{guessed}"
    );
    std::fs::write(&file, "1. 32-28 19-23 *\n").expect("write");
    let guessed = stdout(&damas(&["pdn", "check", path]));
    assert!(guessed.contains("international assumed): 2 moves of international"), "{guessed}");
    fails_with(&["pdn", "check", "/nonexistent.pdn"], "cannot read /nonexistent.pdn");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn text_mode_searches_with_a_limit_run_to_it_whatever_is_piped_after() {
    // The next line and the end of input used to stop `go depth 6` at once, and it reported an
    // unfinished search as +0.00 (issue 18).
    let text =
        with_stdin(&["text"], "egdb-path none\nfen W:WK18,K14:BK27\ngo depth 6\nshow\nquit\n");
    assert!(text.contains("depth  6  score"), "{text}");
    // Two kings against one: a score well above zero (the evaluation's own, which its
    // weights set), not the +0.00 of a search cut short.
    // The line reads `best move M  (+S ...`: whichever move the weights prefer.
    let best = text.split("best move ").nth(1).and_then(|rest| rest.split_once("  ("));
    let (mv, rest) = best.unwrap_or_else(|| panic!("no best move: {text}"));
    let score: f64 = rest.split(' ').next().and_then(|score| score.parse().ok()).unwrap_or(0.0);
    assert!(score > 1.0, "{text}");
    let played = text.find(&format!("played {mv}"));
    assert!(played.is_some() && played < text.find("FEN"), "show waits for the search: {text}");
    let text = with_stdin(&["text"], "egdb-path none\nfen W:WK18,K14:BK27\ngo depth 6\n");
    assert!(text.contains("depth  6  score"), "{text}");
    // The optional-capture house rule and the draw rules are options of every mode (issue 18).
    let text = with_stdin(
        &["text"],
        "fen W:W22:B18\nmoves\nmandatory-capture false\nmoves\ngo depth 3\n\
         draw-rules federation\ndraw-rules nonsense\nmandatory-capture true\nmoves\n",
    );
    assert!(
        text.contains("1 legal: 22x15\nmandatory-capture is now false\n2 legal: 22x15 22-17\n"),
        "{text}"
    );
    assert!(text.contains("must be one of default federation repetition"), "{text}");
    assert!(text.contains("best move "), "{text}");
    // play and undo say what they did (they printed nothing).
    let text = with_stdin(&["text"], "play 11-15 23-19\nundo\nundo\nundo\n");
    assert!(text.contains("played 11-15 23-19; black to move"), "{text}");
    assert!(text.contains("took back 23-19; white to move"), "{text}");
    assert!(text.contains("took back 11-15; black to move"), "{text}");
    assert!(text.contains("error: no move to take back"), "{text}");
}

/// `damas book build` grows a book by drop-out expansion and resumes from its file without
/// searching again; the units of its rounds (`--shard`, `damas book merge`) give the whole
/// build's file byte for byte; `damas book stats` and `show` read it; a damaged or foreign book
/// is refused with exit status 2.
#[test]
fn book_build_resumes_merges_and_reads() {
    let dir = std::env::temp_dir().join(format!("damas-cli-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let build = |positions: &str, more: &[&str]| {
        let mut args = vec!["book", "build", "--variant", "english", "--depth", "4"];
        args.extend(["--batch", "4", "--positions", positions]);
        args.extend(more);
        let output = damas(&args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        output
    };
    let whole = file("whole.book");
    build("8", &["--out", &whole]);
    let text = std::fs::read_to_string(&whole).unwrap();
    let entries: Vec<&str> = text.lines().filter(|l| l.starts_with(['B', 'W'])).collect();
    assert_eq!(entries.len(), 8, "{text}");
    assert!(entries[0].starts_with("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,"), "{text}");
    // The start has all seven moves, each with a score.
    assert_eq!(entries[0].split('\t').count(), 8, "{text}");
    assert!(text.lines().next_back().is_some_and(|l| l.starts_with("checksum ")), "{text}");
    // Resumed with nothing to add: the same file.
    let again = build("8", &["--out", &whole]);
    assert!(stderr(&again).contains("resuming"), "{}", stderr(&again));
    assert_eq!(std::fs::read_to_string(&whole).unwrap(), text);
    // The same rounds as units, two a round, each round merged before the next (the first
    // round expands the start alone, the next ones 4 positions each).
    let mut before: Option<String> = None;
    for round in 0..4 {
        let mut parts = Vec::new();
        for shard in ["1/2", "2/2"] {
            let part = file(&format!("part-{round}-{}.book", &shard[..1]));
            let mut more = vec!["--shard", shard, "--out", &part];
            more.extend(before.iter().flat_map(|book| ["--book", book.as_str()]));
            build("8", &more);
            parts.push(part);
        }
        let merged = file(&format!("round-{round}.book"));
        let mut merge = vec!["book", "merge", "--out", merged.as_str()];
        merge.extend(before.as_deref());
        merge.extend(parts.iter().map(String::as_str));
        let output = damas(&merge);
        assert!(output.status.success(), "{}", stderr(&output));
        before = Some(merged);
    }
    let merged = std::fs::read_to_string(before.unwrap()).unwrap();
    assert_eq!(merged, text, "the merged units differ from the whole build");
    // Grown further from its file.
    build("12", &["--out", &whole]);
    let stats = damas(&["book", "stats", &whole]);
    assert!(stats.status.success(), "{}", stderr(&stats));
    for line in ["rule set: english", "positions: 12", "main line: "] {
        assert!(stdout(&stats).contains(line), "{line}: {}", stdout(&stats));
    }
    let show = damas(&["book", "show", &whole]);
    assert!(show.status.success(), "{}", stderr(&show));
    let lines: Vec<String> = stdout(&show).lines().map(str::to_string).collect();
    assert!(lines[0].contains("book move") && lines[0].contains('.'), "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.contains('.') && l.contains('-')).count(), 7, "{lines:?}");
    let show = damas(&["book", "show", &whole, "--fen", "W:W21-32:B1-12"]);
    assert_eq!(stdout(&show).trim_end(), "not in the book (12 positions)");
    // Openings two plies deep, for matches: the moves, the score, the FEN last.
    let suite = damas(&["book", "openings", &whole, "--plies", "2", "--balanced", "1000"]);
    assert!(suite.status.success(), "{}", stderr(&suite));
    let openings: Vec<String> =
        stdout(&suite).lines().filter(|l| !l.starts_with('#')).map(str::to_string).collect();
    assert!(!openings.is_empty(), "{}", stdout(&suite));
    for line in &openings {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert_eq!(fields[0].split(' ').count(), 2, "{line}");
        assert!(fields[2].starts_with("B:W"), "{line}");
    }
    // The old spelling still answers; the built-in book answers for the start.
    let probe = damas(&["book", "probe", "--book", &whole]);
    assert!(probe.status.success() && stdout(&probe).contains("book move"), "{}", stderr(&probe));
    let builtin = damas(&["book", "show"]);
    assert!(builtin.status.success() && !stdout(&builtin).is_empty(), "{}", stderr(&builtin));
    let builtin = damas(&["book", "stats"]);
    assert!(stdout(&builtin).contains("book: built in"), "{}", stderr(&builtin));
    // Refused: another rule set's, a changed byte, not a book at all, no book.
    let grown = std::fs::read_to_string(&whole).unwrap();
    let foreign = grown.replacen("\ndamas-book 2 english\n", "\ndamas-book 2 russian\n", 1);
    std::fs::write(&whole, foreign).unwrap();
    fails_with(&["book", "show", &whole, "-v", "english"], "the book is for russian, not english");
    std::fs::write(&whole, grown.replacen('\t', "\tx", 1)).unwrap();
    fails_with(&["book", "stats", &whole], "the file is damaged");
    fails_with(&["book", "show", &whole], "the file is damaged");
    std::fs::write(&whole, "[Event \"a game\"]\n1. 11-15 *\n").unwrap();
    fails_with(&["book", "stats", &whole], "not a damas book");
    fails_with(&["book", "show", "--variant", "frisian"], "no built-in book for frisian");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The signature's node count from `damas bench` output.
fn bench_nodes(output: &Output) -> u64 {
    let text = stdout(output);
    let line = text.lines().last().unwrap_or_default();
    let count = line.strip_prefix("Bench: ").and_then(|rest| rest.split(' ').next());
    count.and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("no signature line in {text}"))
}

#[test]
fn bench_takes_search_params_and_refuses_bad_ones() {
    let default = damas(&["bench", "4"]);
    assert!(default.status.success(), "{}", stderr(&default));
    let named = damas(&["bench", "4", "--search-params", "probcut-margin:10"]);
    assert_eq!(bench_nodes(&named), bench_nodes(&default), "the default value named");
    let changed = damas(&["bench", "4", "--search-params", "static-cut-depth:0,lmr-count:1"]);
    assert!(changed.status.success(), "{}", stderr(&changed));
    assert_ne!(bench_nodes(&changed), bench_nodes(&default), "the parameters were not used");
    for switched in ["qs-exchanges:1", "probcut-nodes:3", "probcut-nodes:0"] {
        let other = damas(&["bench", "4", "--search-params", switched]);
        assert_ne!(bench_nodes(&other), bench_nodes(&default), "{switched} was not used");
    }
    fails_with(&["bench", "4", "--search-params", "lmr-count:0"], "lmr-count");
    fails_with(&["bench", "4", "--search-params", "depth:3"], "unknown search parameter");
}

/// The search's numbers are each rule set's own (English's static cut margin is 60, the others'
/// 80), the text mode's help shows those the search uses, and a changed number stays changed
/// when the rule set changes while the unnamed ones follow it.
#[test]
fn search_params_follow_the_rule_set_and_keep_what_was_changed() {
    let shown = |text: &str| -> Vec<String> {
        // The help's lines (`search-params NAME:VALUE,...  ... (now ...)`), not the line that
        // says a new value back.
        let lines = text.lines().filter(|line| {
            line.trim_start().starts_with("search-params") && line.contains("(now ")
        });
        lines.map(|line| line.rsplit("(now ").next().unwrap_or_default().to_string()).collect()
    };
    let script = "help\nvariant international\nhelp\nsearch-params lmr-count:5\nhelp\n\
                  variant english\nhelp\nquit\n";
    let values = shown(&with_stdin(&["text"], script));
    assert_eq!(values.len(), 4, "{values:?}");
    assert!(values[0].contains("static-cut-margin:60,") && values[0].contains("lmr-count:3,"));
    assert!(values[1].contains("static-cut-margin:80,") && values[1].contains("lmr-count:3,"));
    assert!(values[2].contains("static-cut-margin:80,") && values[2].contains("lmr-count:5,"));
    assert!(values[3].contains("static-cut-margin:60,") && values[3].contains("lmr-count:5,"));
}

/// `damas datagen --shard K/N` on each part and `damas datagen merge`: the file a single run on
/// one thread writes, byte for byte (issue: jobs as independent work units).
#[test]
fn datagen_shards_merge_into_the_single_run() {
    let dir = std::env::temp_dir().join(format!("damas-cli-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let run = |extra: &[&str], out: &str| {
        let mut args = vec!["datagen", "--games", "5", "--nodes", "150"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", out]);
        let output = damas(&args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    };
    run(&["--seed", "3", "--threads", "1"], &file("whole.data"));
    for k in 1..=3 {
        let shard = format!("{k}/3");
        run(&["--seed", "3", "--threads", "2", "--shard", &shard], &file(&format!("part{k}.data")));
    }
    let merged = file("merged.data");
    let parts = [file("part3.data"), file("part1.data"), file("part2.data")];
    let output = damas(&["datagen", "merge", "--out", &merged, &parts[0], &parts[1], &parts[2]]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("5 games"), "{}", stderr(&output));
    let read = |path: &str| std::fs::read(path).expect("read data");
    assert_eq!(read(&merged), read(&file("whole.data")), "merged shards differ from one run");
    // Another seed's file does not merge; a shard outside 1..N is refused.
    run(&["--seed", "4", "--shard", "1/3"], &file("other.data"));
    fails_with(
        &["datagen", "merge", "--out", &file("bad.data"), &parts[0], &file("other.data")],
        "other settings",
    );
    fails_with(&["datagen", "--shard", "4/3", "--out", &file("x.data")], "K/N");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `damas datagen --egdb-path`: the games are played with the databases and end at the first
/// position they hold, written with its exact score; the header says so, and a file played
/// with them is not resumed without them. With `--play-on`, the engines play on from there and
/// the ending's positions are written too, each with its exact score.
#[test]
fn datagen_with_databases_ends_games_where_they_know_the_result() {
    use damas::board::bitset::BitSet;
    use damas::rules::English;
    let dir = std::env::temp_dir().join(format!("damas-cli-datagen-egdb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("empty")).expect("temp dir");
    let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let egdb = file("egdb");
    let built = damas(&["egdb", "build", "--pieces", "4", "--egdb-path", &egdb]);
    assert!(built.status.success(), "{}", stderr(&built));
    let data = file("known.data");
    let args = ["datagen", "--games", "8", "--nodes", "300", "--seed", "2", "--egdb-path", &egdb];
    let output = damas(&[&args[..], &["--out", &data]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let bytes = std::fs::read(&data).expect("read data");
    let contents = damas::train::datagen::read::<English>(&bytes).expect("a data file");
    assert_eq!(contents.header.egdb_pieces, 4);
    let mut ended = 0;
    for (game, _) in &contents.blocks {
        let samples: Vec<_> = contents.samples.iter().filter(|s| s.game == *game).collect();
        let (last, before) = samples.split_last().expect("positions");
        // Only the last position of a game can be one the databases hold.
        assert!(before.iter().all(|s| s.position.occupied().count() > 4), "game {game}");
        if last.position.occupied().count() <= 4 {
            ended += 1;
            let mover_wins = [2, 0][last.position.side_to_move() as usize];
            let exact = match last.result {
                1 => 0,
                result if result == mover_wins => 3000,
                _ => -3000,
            };
            assert_eq!(last.score, exact, "game {game}");
        }
    }
    assert!(ended > 0, "no game of the run reached the databases");
    // Resumed without the databases, or with none to be found: refused.
    fails_with(&[&args[..7], &["--out", &data]].concat(), "databases of 4 pieces");
    // Played on: the same games, and the databases' positions after the first.
    let longer = file("longer.data");
    let output = damas(&[&args[..], &["--play-on", "20", "--out", &longer]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let bytes = std::fs::read(&longer).expect("read data");
    let played_on = damas::train::datagen::read::<English>(&bytes).expect("a data file");
    assert_eq!(played_on.header.play_on, 20);
    let known = |s: &&damas::train::datagen::Sample<English>| s.position.occupied().count() <= 4;
    let held_before = contents.samples.iter().filter(known).count();
    let held_now: Vec<_> = played_on.samples.iter().filter(known).collect();
    assert!(held_now.len() > held_before, "{} against {held_before}", held_now.len());
    for sample in held_now {
        let mover_wins = [2, 0][sample.position.side_to_move() as usize];
        let exact = match sample.result {
            1 => 0,
            result if result == mover_wins => 3000,
            _ => -3000,
        };
        assert_eq!(sample.score, exact, "game {}", sample.game);
    }
    fails_with(&[&args[..], &["--play-on", "10", "--out", &longer]].concat(), "20 plies");
    fails_with(&["datagen", "--play-on", "10", "--out", &file("x.data")], "needs --egdb-path");
    let empty = file("empty");
    fails_with(
        &["datagen", "--egdb-path", &empty, "--out", &file("other.data")],
        "no english database files",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every file a command reads is read with a limit fitting its kind: a device, a FIFO (which
/// would block on opening) or a file larger than its kind can be is a clear error with exit
/// status 2, read not at all.
#[cfg(unix)]
#[test]
fn files_are_read_with_a_limit_and_devices_and_fifos_refused() {
    let dir = std::env::temp_dir().join(format!("damas-cli-bounded-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let fifo = fifo.to_str().expect("utf-8 path");
    // A sparse file of 65 MiB: larger than any weight file may be, though it holds nothing.
    let huge = dir.join("huge.dmw");
    std::fs::File::create(&huge).expect("create").set_len(65 << 20).expect("grow");
    let huge = huge.to_str().expect("utf-8 path");
    let device = "a device or a pipe, not";
    fails_with(
        &["analyze", "--eval-file", "/dev/zero"],
        &format!("cannot read /dev/zero: {device} a weight file"),
    );
    fails_with(&["analyze", "--eval-file", fifo], &format!("{device} a weight file"));
    fails_with(&["analyze", "--eval-file", huge], "68157440 bytes is too large for a weight file");
    fails_with(&["analyze", "--pdn", "/dev/zero"], &format!("{device} a PDN file"));
    fails_with(&["analyze", "--file", fifo], &format!("{device} a position list"));
    fails_with(&["pdn", "check", "/dev/urandom"], &format!("{device} a PDN file"));
    fails_with(&["book", "stats", fifo], &format!("{device} a book"));
    fails_with(
        &["train", "--variant", "english", "--data", "/dev/zero", "--out", "/dev/null"],
        &format!("{device} a training data file"),
    );
    fails_with(
        &["match", "--engine", "name=a", "--engine", "name=b", "--openings", "/dev/zero"],
        &format!("{device} an openings file"),
    );
    fails_with(&["analyze", "--eval-file", dir.to_str().expect("utf-8")], "a folder, not a");
    // An endgame database file that is a FIFO is refused at loading, the others kept.
    let egdb = dir.join("egdb");
    let path = egdb.to_str().expect("utf-8 path");
    assert!(damas(&["egdb", "build", "--pieces", "2", "--egdb-path", path]).status.success());
    let slice = egdb.join("0-1-0-1.egdb");
    std::fs::remove_file(&slice).expect("remove a slice");
    assert!(Command::new("mkfifo").arg(&slice).status().expect("mkfifo").success());
    let stats = damas(&["egdb", "stats", "--egdb-path", path]);
    assert!(
        stderr(&stats).contains("0-1-0-1.egdb: cannot read it: a device or a pipe"),
        "{}",
        stderr(&stats)
    );
    // Probing a position of that file says that its file was refused, and how to make it again.
    let probe = damas(&["egdb", "probe", "--egdb-path", path, "--fen", "B:WK18:BK14"]);
    assert_eq!(probe.status.code(), Some(2));
    let probe = stderr(&probe);
    assert!(probe.contains("this position's database file"), "{probe}");
    assert!(
        probe.contains("0-1-0-1.egdb was refused (cannot read it: a device or a pipe"),
        "{probe}"
    );
    assert!(probe.contains("damas egdb build --variant english --pieces 2"), "{probe}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A build split into units (`egdb units`, `egdb build --unit`), run one at a time in the
/// order listed, writes the files the whole build writes, byte for byte; a unit whose needs are
/// not built, or a name that is no unit, is refused with status 2.
#[test]
fn egdb_units_built_one_by_one_make_the_whole_build() {
    let dir = std::env::temp_dir().join(format!("damas-cli-egdb-units-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (whole, parts) = (dir.join("whole"), dir.join("parts"));
    let (whole, parts) = (whole.to_str().expect("utf-8"), parts.to_str().expect("utf-8"));
    let built =
        damas(&["egdb", "build", "--variant", "russian", "--pieces", "3", "--egdb-path", whole]);
    assert!(built.status.success(), "{}", stderr(&built));
    let listing = |path: &str| {
        let out =
            damas(&["egdb", "units", "--variant", "russian", "--pieces", "3", "--egdb-path", path]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let units: Vec<Vec<String>> = listing(parts)
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split('\t').map(String::from).collect())
        .collect();
    assert_eq!(units.len(), 9, "{units:?}");
    assert!(units.iter().all(|u| u.len() == 6 && u[4] == "no"), "{units:?}");
    // The last unit needs others: alone, it is refused.
    let last = &units[units.len() - 1];
    assert_ne!(last[5], "-");
    let build_unit = |name: &str| {
        let unit = ["--egdb-path", parts, "--unit", name];
        damas(&[&["egdb", "build", "--variant", "russian", "--pieces", "3"][..], &unit].concat())
    };
    let early = build_unit(&last[0]);
    assert_eq!(early.status.code(), Some(2), "{}", stderr(&early));
    assert!(stderr(&early).contains("build the units --unit needs first"), "{}", stderr(&early));
    fails_with(&["egdb", "build", "--pieces", "3", "--unit", "9-9-9-9"], "no such unit");
    for unit in &units {
        let one = build_unit(&unit[0]);
        assert!(one.status.success(), "{}: {}", unit[0], stderr(&one));
    }
    assert!(listing(parts).lines().skip(1).all(|line| line.split('\t').nth(4) == Some("yes")));
    let names = |path: &str| {
        let mut names: Vec<_> =
            std::fs::read_dir(path).expect("dir").map(|e| e.expect("entry").file_name()).collect();
        names.sort();
        names
    };
    assert_eq!(names(whole), names(parts));
    assert_eq!(names(whole).len(), 16);
    for name in names(whole) {
        let a = std::fs::read(std::path::Path::new(whole).join(&name)).expect("read");
        let b = std::fs::read(std::path::Path::new(parts).join(&name)).expect("read");
        assert!(a == b, "{name:?} differs");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `damas book merge` refuses two books that give one position other moves, and merges two
/// that give it the same moves (the first file's scores kept, then minimaxed).
#[test]
fn book_merge_refuses_books_that_disagree() {
    use damas::book::{Book, BookMove};
    use damas::position::Position;
    use damas::rules::English;
    let dir = std::env::temp_dir().join(format!("damas-cli-book-merge-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let file = |name: &str| dir.join(name).to_str().expect("utf-8").to_string();
    let book_with = |name: &str, given: &[(&str, i32)]| {
        let start = Position::<English>::start();
        let mut book = Book::<English>::new();
        let parse = |text| damas::notation::moves::parse(&start, text).expect("a legal move");
        let moves = given.iter().map(|&(text, score)| BookMove { mv: parse(text), score });
        book.insert(start, moves.collect());
        std::fs::write(file(name), book.write(&[])).expect("write");
        file(name)
    };
    let two = book_with("two.book", &[("11-15", 4), ("9-14", 2)]);
    let one = book_with("one.book", &[("11-15", 4)]);
    let again = book_with("again.book", &[("11-15", 1), ("9-14", 7)]);
    fails_with(&["book", "merge", "--out", &file("x.book"), &two, &one], "has other moves");
    let merged = damas(&["book", "merge", "--out", &file("y.book"), &two, &again]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    let show = damas(&["book", "show", &file("y.book")]);
    assert!(
        stdout(&show).starts_with("11-15 +0.04  book move\n9-14 +0.02  book move\n"),
        "{}",
        stdout(&show)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
