//! The rules of the whole game: results and every draw rule, with their counters changed the
//! way sites change them (../shared/reference/rules.md sections 0 and 1).

use damas::board::types::Side;
use damas::game::{DrawRules, Game, GameRules, Outcome};
use damas::notation::{fen, moves};
use damas::position::Position;
use damas::rules::*;

fn game<R: Rules>(text: &str, draws: DrawRules) -> Game<R> {
    let position = fen::parse::<R>(text).expect("test FEN");
    Game::with_rules(position, GameRules { draws, mandatory_capture: true })
}

/// Plays the PDN moves in order, each checked legal.
fn play<R: Rules>(game: &mut Game<R>, line: &str) {
    for text in line.split_whitespace() {
        let mv = moves::parse(game.position(), text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.play(&mv).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

/// Plays `cycle` (a sequence that returns to its start) until `plies` plies are played.
fn shuffle<R: Rules>(game: &mut Game<R>, cycle: &[&str], plies: usize) {
    for text in cycle.iter().cycle().take(plies) {
        play(game, text);
    }
}

fn no_repetition<R: Rules>() -> DrawRules {
    DrawRules { repetitions: 0, ..DrawRules::for_variant(R::VARIANT) }
}

#[test]
fn no_move_loses_and_wins_the_losing_game() {
    let blocked = "W:W29:B25,22";
    // English: White man on 29 (a1) with Black men on 25 (b2) and 22 (c3): 29-25 is occupied,
    // and the jump 29x22 over 25 lands on 22, occupied: no move.
    let english = game::<English>(blocked, DrawRules::for_variant(Variant::English));
    assert_eq!(english.outcome(), Outcome::Win(Side::Black, "the opponent has no move left"));
    let losing = game::<EnglishLosing>(blocked, DrawRules::for_variant(Variant::EnglishLosing));
    assert!(matches!(losing.outcome(), Outcome::Win(Side::White, _)), "{}", losing.outcome());
    let anti = game::<Antidraughts>("W:W46:B41,37", DrawRules::for_variant(Variant::Antidraughts));
    assert!(matches!(anti.outcome(), Outcome::Win(Side::White, _)), "{}", anti.outcome());
}

#[test]
fn breakthrough_first_king_wins() {
    let mut bt =
        game::<Breakthrough>("W:W6,45:B36,20", DrawRules::for_variant(Variant::Breakthrough));
    assert_eq!(bt.outcome(), Outcome::Ongoing);
    play(&mut bt, "6-1");
    assert_eq!(bt.outcome(), Outcome::Win(Side::White, "first to crown a king"));
    // The same move in International is an ordinary promotion.
    let mut intl =
        game::<International>("W:W6,45:B36,20", DrawRules::for_variant(Variant::International));
    play(&mut intl, "6-1");
    assert_eq!(intl.outcome(), Outcome::Ongoing);
}

#[test]
fn threefold_repetition_draws() {
    let mut g =
        game::<International>("W:WK46,35:BK4,16", DrawRules::for_variant(Variant::International));
    // Kings on a1/b2 and h10/g9 never share a line, so no capture interrupts the shuffle.
    shuffle(&mut g, &["46-41", "4-9", "41-46", "9-4"], 7);
    assert_eq!(g.outcome(), Outcome::Ongoing, "two occurrences only");
    play(&mut g, "9-4");
    assert_eq!(g.occurrences(), 3);
    assert_eq!(g.outcome(), Outcome::Draw("the same position 3 times".into()));
    // Undo restores the counters.
    assert!(g.undo());
    assert_eq!(g.outcome(), Outcome::Ongoing);
    // A man move breaks the chain.
    play(&mut g, "9-4 35-30");
    assert_eq!(g.occurrences(), 1);
}

#[test]
fn english_forty_moves_each_without_man_move_or_capture() {
    let mut g = game::<English>("W:WK29,21:BK4,12", no_repetition::<English>());
    shuffle(&mut g, &["29-25", "4-8", "25-29", "8-4"], 79);
    assert_eq!(g.outcome(), Outcome::Ongoing);
    play(&mut g, "8-4");
    assert_eq!(g.reversible_plies(), 80);
    assert_eq!(g.outcome(), Outcome::Draw("80 plies without a capture or a man move".into()));
    // Sites differ: the counter is configurable.
    let mut fifty = game::<English>(
        "W:WK29,21:BK4,12",
        DrawRules { reversible_plies: Some(100), ..no_repetition::<English>() },
    );
    shuffle(&mut fifty, &["29-25", "4-8", "25-29", "8-4"], 80);
    assert_eq!(fifty.outcome(), Outcome::Ongoing);
}

#[test]
fn international_king_moves_site_rule_and_fmjd() {
    let start = "W:WK46,K50,35:BK4,K1,16";
    let cycle = ["46-41", "4-9", "41-46", "9-4"];
    let mut sites = game::<International>(start, no_repetition::<International>());
    shuffle(&mut sites, &cycle, 119);
    assert_eq!(sites.outcome(), Outcome::Ongoing);
    shuffle(&mut sites, &cycle[3..], 1);
    assert!(matches!(sites.outcome(), Outcome::Draw(_)), "120 plies");
    let fmjd = DrawRules { repetitions: 0, ..DrawRules::federation(Variant::International) };
    let mut g = game::<International>(start, fmjd);
    shuffle(&mut g, &cycle, 50);
    assert_eq!(g.outcome(), Outcome::Draw("50 plies without a capture or a man move".into()));
}

#[test]
fn fmjd_small_endings() {
    let fmjd = || DrawRules { repetitions: 0, ..DrawRules::federation(Variant::International) };
    // Three kings against a lone king: 16 moves each.
    let mut g = game::<International>("W:WK46,K50,K45:BK4", fmjd());
    shuffle(&mut g, &["46-41", "4-9", "41-46", "9-4"], 31);
    assert_eq!(g.outcome(), Outcome::Ongoing);
    shuffle(&mut g, &["9-4"], 1);
    assert!(
        matches!(g.outcome(), Outcome::Draw(ref why) if why.contains("16 moves")),
        "{}",
        g.outcome()
    );
    // Two pieces with a king against a lone king: 5 moves each; Black is the stronger side.
    let mut g = game::<International>("B:WK46:BK4,K1", fmjd());
    shuffle(&mut g, &["4-9", "46-41", "9-4", "41-46"], 10);
    assert!(
        matches!(g.outcome(), Outcome::Draw(ref why) if why.contains("5 moves")),
        "{}",
        g.outcome()
    );
}

#[test]
fn turkish_one_piece_each() {
    let draws = DrawRules::for_variant(Variant::Turkish);
    let kings = game::<Turkish>("W:WKa1:BKh8", draws.clone());
    assert_eq!(kings.outcome(), Outcome::Draw("one piece each of the same kind".into()));
    let men = game::<Turkish>("W:Wa3:Bh6", draws.clone());
    assert_eq!(men.outcome(), Outcome::Draw("one piece each of the same kind".into()));
    let king_vs_man = game::<Turkish>("W:WKa1:Bh6", draws);
    assert_eq!(king_vs_man.outcome(), Outcome::Win(Side::White, "a king against a lone man"));
}

#[test]
fn frisian_rules_of_the_game() {
    let draws = DrawRules::for_variant(Variant::Frisian);
    let kk = game::<Frisian>("W:WK46:BK5", draws.clone());
    assert_eq!(kk.outcome(), Outcome::Draw("a king against a king".into()));
    // Two kings against a king: 7 moves.
    let mut two = game::<Frisian>("W:WK46,K50:BK4", DrawRules { repetitions: 0, ..draws.clone() });
    shuffle(&mut two, &["46-41", "4-9", "41-46", "9-4"], 14);
    assert!(
        matches!(two.outcome(), Outcome::Draw(ref why) if why.contains("two kings")),
        "{}",
        two.outcome()
    );
    // A side with men may make at most three non-capturing king moves in a row.
    let mut limit = game::<Frisian>("W:WK46,35:BK4,17", DrawRules { repetitions: 0, ..draws });
    shuffle(&mut limit, &["46-41", "4-9", "41-46", "9-4"], 6);
    // White's king (on 41 after three king moves) may not move a fourth time while White has
    // a man.
    let kings_move = |g: &Game<Frisian>| {
        let kings = g.position().kings();
        g.legal_moves().iter().any(|mv| kings & (1u64 << mv.from()) != 0)
    };
    assert!(!kings_move(&limit), "the fourth king move in a row is not allowed");
    // Black has made three king moves too, so it must move its man as well.
    play(&mut limit, "35-30 17-22");
    assert!(kings_move(&limit), "a man move resets the count");
    // The limit is per king (mindsports, Wikipedia, lidraughts): after three moves of one king
    // another king may move, and that ends the first king's streak.
    let mut two_kings =
        game::<Frisian>("W:WK46,K50,35:BK4", DrawRules { repetitions: 0, ..draws_for_frisian() });
    play(&mut two_kings, "46-41 4-9 41-46 9-4 46-41 4-9");
    let quiet_from = |g: &Game<Frisian>, square: &str| {
        g.legal_moves()
            .iter()
            .any(|mv| !mv.is_capture() && moves::to_pdn(g.position(), mv).starts_with(square))
    };
    assert!(!quiet_from(&two_kings, "41-"), "the king on 41 has made three moves in a row");
    assert!(quiet_from(&two_kings, "50-"), "the other king may move");
    play(&mut two_kings, "50-44 9-4");
    assert!(quiet_from(&two_kings, "41-"), "another king's move ends the streak");
    // A blocked king does not get its moves back when nothing else can move: White's man on 36
    // is blocked by Black's on 31 and 27, so after three king moves White has no legal move and loses.
    let mut stuck =
        game::<Frisian>("W:WK50,36:BK5,31,27", DrawRules { repetitions: 0, ..draws_for_frisian() });
    play(&mut stuck, "50-44 5-10 44-50 10-5 50-44 5-10");
    assert!(stuck.legal_moves().is_empty());
    assert!(matches!(stuck.outcome(), Outcome::Win(Side::Black, _)), "{}", stuck.outcome());
}

fn draws_for_frisian() -> DrawRules {
    DrawRules::for_variant(Variant::Frisian)
}

#[test]
fn russian_kodeks_counts() {
    let kodeks = DrawRules { repetitions: 0, ..DrawRules::federation(Variant::Russian) };
    // Kings on c1/d2 and b8/a7 share no line with each other or with the men.
    let mut g = game::<Russian>("W:WKc1,g1:BKb8,h8", kodeks.clone());
    shuffle(&mut g, &["c1-d2", "b8-a7", "d2-c1", "a7-b8"], 30);
    assert_eq!(g.outcome(), Outcome::Draw("30 plies without a capture or a man move".into()));
    let mut three = game::<Russian>("W:WKa1,Kc1,Ke1:BKb8", kodeks);
    shuffle(&mut three, &["c1-d2", "b8-a7", "d2-c1", "a7-b8"], 30);
    assert!(matches!(three.outcome(), Outcome::Draw(_)), "{}", three.outcome());
}

/// The Kodeks rules without repetitions and the 15-move king rule, so that only the endgame
/// counts can end a game.
fn kodeks_endgames_only() -> DrawRules {
    DrawRules { repetitions: 0, reversible_plies: None, ..DrawRules::federation(Variant::Russian) }
}

/// Every Kodeks endgame count on its own (the 15-move king rule switched off so that it does
/// not fire first), each just short of its limit and at it.
#[test]
fn russian_kodeks_endgame_counts_one_by_one() {
    let kodeks = kodeks_endgames_only();
    // (position, White's and Black's shuffles, plies allowed, words of the rule's name).
    let cases = [
        // Equal material, four pieces each with a king: 30 moves.
        ("W:WKc1,a3,e3,g3:BKh8,b6,d6,f6", ["c1-d2", "h8-g7", "d2-c1", "g7-h8"], 60, "four or five"),
        // Equal material, six pieces each: 60 moves.
        (
            "W:WKc1,a3,e3,g3,f2,h2:BKh8,b6,d6,f6,a7,c7",
            ["c1-d2", "h8-g7", "d2-c1", "g7-h8"],
            120,
            "six or seven",
        ),
        // Three kings against a lone king: 15 moves.
        ("W:WKa1,Kc1,Ke1:BKb8", ["c1-d2", "b8-a7", "d2-c1", "a7-b8"], 30, "three or more kings"),
        // Two pieces against a lone king: 5 moves.
        ("W:WKc1,g1:BKh8", ["c1-d2", "h8-g7", "d2-c1", "g7-h8"], 10, "two pieces"),
        // Three pieces with a king against a lone king holding the long diagonal (g7, h8): 5
        // moves.
        ("W:WKc1,Ke1,g1:BKh8", ["c1-d2", "h8-g7", "d2-c1", "g7-h8"], 10, "long diagonal"),
    ];
    for (text, cycle, plies, name) in cases {
        let mut g = game::<Russian>(text, kodeks.clone());
        shuffle(&mut g, &cycle, plies - 1);
        assert_eq!(g.outcome(), Outcome::Ongoing, "{text} after {} plies", plies - 1);
        shuffle(&mut g, &cycle[(plies - 1) % 4..(plies - 1) % 4 + 1], 1);
        assert!(
            matches!(g.outcome(), Outcome::Draw(ref why) if why.contains(name)),
            "{text} after {plies} plies: {}",
            g.outcome()
        );
    }
}

/// The long-diagonal count holds only while the lone king stays on the diagonal: off it (f8,
/// e7) no 5-move limit, and leaving restarts the count.
#[test]
fn russian_long_diagonal_count_needs_the_diagonal() {
    let kodeks = kodeks_endgames_only();
    let mut off = game::<Russian>("W:WKc1,Ke1,g1:BKf8", kodeks.clone());
    shuffle(&mut off, &["c1-d2", "f8-e7", "d2-c1", "e7-f8"], 12);
    assert_eq!(off.outcome(), Outcome::Ongoing);
    let mut back = game::<Russian>("W:WKc1,Ke1,g1:BKh8", kodeks);
    shuffle(&mut back, &["c1-d2", "h8-g7", "d2-c1", "g7-h8"], 8);
    // Off the diagonal and back: the count starts again.
    play(&mut back, "c1-d2 h8-g7 d2-c1 g7-f8 c1-d2 f8-g7");
    shuffle(&mut back, &["d2-c1", "g7-h8", "c1-d2", "h8-g7"], 9);
    assert_eq!(back.outcome(), Outcome::Ongoing, "nine plies since the king came back");
    play(&mut back, "g7-h8");
    assert!(matches!(back.outcome(), Outcome::Draw(ref why) if why.contains("long diagonal")));
}

#[test]
fn other_move_counts() {
    let mut czech = game::<Czech>("W:WKc1,g1:BKb8,h8", no_repetition::<Czech>());
    shuffle(&mut czech, &["c1-d2", "b8-a7", "d2-c1", "a7-b8"], 30);
    assert_eq!(czech.outcome(), Outcome::Draw("30 plies without a capture or a man move".into()));
    let mut pool = game::<Pool>("B:WK29:BK1,K2,K3", no_repetition::<Pool>());
    shuffle(&mut pool, &["1-5", "29-25", "5-1", "25-29"], 26);
    assert!(
        matches!(pool.outcome(), Outcome::Draw(ref why) if why.contains("13 moves")),
        "{}",
        pool.outcome()
    );
    let mut canadian = game::<Canadian>("W:WK67:BK1,K2,K3", no_repetition::<Canadian>());
    shuffle(&mut canadian, &["67-61", "1-7", "61-67", "7-1"], 32);
    assert!(
        matches!(canadian.outcome(), Outcome::Draw(ref why) if why.contains("16 moves")),
        "{}",
        canadian.outcome()
    );
}

#[test]
fn capture_can_be_made_optional() {
    let text = "W:W22:B18,5";
    // White man 22 (c3), Black man 18 (d4): compulsory, only 22x15; optional, 22-17 too.
    let strict = game::<English>(text, DrawRules::for_variant(Variant::English));
    assert_eq!(strict.legal_moves().len(), 1);
    let casual = Game::with_rules(
        fen::parse::<English>(text).unwrap(),
        GameRules { draws: DrawRules::for_variant(Variant::English), mandatory_capture: false },
    );
    let texts: Vec<String> =
        casual.legal_moves().iter().map(|mv| moves::to_pdn(casual.position(), mv)).collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(texts.contains(&"22x15".to_string()) && texts.contains(&"22-17".to_string()));
    let _ = Position::<English>::start();
}
