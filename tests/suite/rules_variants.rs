//! Rule tests for the remaining variants: one test per special rule, with the expected
//! legal-move lists derived by hand from ../shared/reference/rules.md (sections 1.6-1.10,
//! 1.12-1.14, 2), not copied from the engine's output. Same helpers and style as rules.rs.
//!
//! Square numbering (rules.md section 2, protocols.md 5.4), White at the bottom:
//!
//! Italian (8x8 turned: a1 is not a playing square; White on 21-32 moves first):
//! ```text
//!  8   1  .  2  .  3  .  4  .        a8 c8 e8 g8
//!  7   .  5  .  6  .  7  .  8        b7 d7 f7 h7
//!  6   9  . 10  . 11  . 12  .        a6 c6 e6 g6
//!  5   . 13  . 14  . 15  . 16        b5 d5 f5 h5
//!  4  17  . 18  . 19  . 20  .        a4 c4 e4 g4
//!  3   . 21  . 22  . 23  . 24        b3 d3 f3 h3
//!  2  25  . 26  . 27  . 28  .        a2 c2 e2 g2
//!  1   . 29  . 30  . 31  . 32        b1 d1 f1 h1
//!      a  b  c  d  e  f  g  h
//! ```
//! Portuguese (as Spanish: h1 = 1, right to left, upwards; White on 1-12 moves first):
//! ```text
//!  8  32  . 31  . 30  . 29  .        a8 c8 e8 g8
//!  7   . 28  . 27  . 26  . 25        b7 d7 f7 h7
//!  6  24  . 23  . 22  . 21  .        a6 c6 e6 g6
//!  5   . 20  . 19  . 18  . 17        b5 d5 f5 h5
//!  4  16  . 15  . 14  . 13  .        a4 c4 e4 g4
//!  3   . 12  . 11  . 10  .  9        b3 d3 f3 h3
//!  2   8  .  7  .  6  .  5  .        a2 c2 e2 g2
//!  1   .  4  .  3  .  2  .  1        b1 d1 f1 h1
//!      a  b  c  d  e  f  g  h
//! ```
//! Pool, Thai and giveaway checkers (numbered as English; Pool: Black on 1-12 moves first;
//! Thai: White on 25-32 and Black on 1-8 at the start, White first):
//! ```text
//!  8   .  1  .  2  .  3  .  4        b8 d8 f8 h8
//!  7   5  .  6  .  7  .  8  .        a7 c7 e7 g7
//!  6   .  9  . 10  . 11  . 12        b6 d6 f6 h6
//!  5  13  . 14  . 15  . 16  .        a5 c5 e5 g5
//!  4   . 17  . 18  . 19  . 20        b4 d4 f4 h4
//!  3  21  . 22  . 23  . 24  .        a3 c3 e3 g3
//!  2   . 25  . 26  . 27  . 28        b2 d2 f2 h2
//!  1  29  . 30  . 31  . 32  .        a1 c1 e1 g1
//!      a  b  c  d  e  f  g  h
//! ```
//! Czech: algebraic names of the dark squares (a1 playable, White at the bottom moves first).
//!
//! Frisian, frysk!, killer, antidraughts, breakthrough (10x10, as International):
//! ```text
//! 10   .  1  .  2  .  3  .  4  .  5
//!  9   6  .  7  .  8  .  9  . 10  .
//!  8   . 11  . 12  . 13  . 14  . 15
//!  7  16  . 17  . 18  . 19  . 20  .
//!  6   . 21  . 22  . 23  . 24  . 25
//!  5  26  . 27  . 28  . 29  . 30  .
//!  4   . 31  . 32  . 33  . 34  . 35
//!  3  36  . 37  . 38  . 39  . 40  .
//!  2   . 41  . 42  . 43  . 44  . 45
//!  1  46  . 47  . 48  . 49  . 50  .
//!      a  b  c  d  e  f  g  h  i  j
//! ```
//! Canadian (12x12, 1-72 row by row from the top-left; White on 43-72 moves first):
//! ```text
//! 12   .  1  .  2  .  3  .  4  .  5  .  6
//! 11   7  .  8  .  9  . 10  . 11  . 12  .
//! 10   . 13  . 14  . 15  . 16  . 17  . 18
//!  9  19  . 20  . 21  . 22  . 23  . 24  .
//!  8   . 25  . 26  . 27  . 28  . 29  . 30
//!  7  31  . 32  . 33  . 34  . 35  . 36  .
//!  6   . 37  . 38  . 39  . 40  . 41  . 42
//!  5  43  . 44  . 45  . 46  . 47  . 48  .
//!  4   . 49  . 50  . 51  . 52  . 53  . 54
//!  3  55  . 56  . 57  . 58  . 59  . 60  .
//!  2   . 61  . 62  . 63  . 64  . 65  . 66
//!  1  67  . 68  . 69  . 70  . 71  . 72  .
//!      a  b  c  d  e  f  g  h  i  j  k  l
//! ```
//! Hub numbering (for `to_hub`) is the PDN numbering for all the numeric variants used here.
//!
//! In the diagrams below `W`/`B` are men, `WK`/`BK` kings, `*` a landing square.

use damas::rules::{
    Antidraughts, Breakthrough, Canadian, Czech, English, EnglishLosing, Frisian, Frysk,
    International, Italian, Killer, Pool, Portuguese, Thai,
};

use crate::common;
use common::{assert_moves, assert_same_moves, fen_after, hub_moves};

// ------------------------------------------------------------------------------------------
// Italian (rules.md 1.1, 1.7)
// ------------------------------------------------------------------------------------------

/// rules.md 1.7 (FID 5.3): men move and capture forward only, and a man may never capture a
/// king.
#[test]
fn italian_men_capture_forward_only_and_never_a_king() {
    //  6   .  .  .  .  .  .  .  .
    //  5   .  . . BK14 .  .  .  .        d5
    //  4   .  . W18 .  .  .  .  .        c4
    //  3   . B21 .  .  .  .  .  .        b3
    //  2  *25  .  .  .  .  .  .  .       a2
    // White man c4 (18). Black man b3 (21) is behind it with a2 (25) empty: no backward capture.
    // Black king d5 (14) is in front of it with e6 (11) empty: a man may not take a king. So no
    // capture at all, and the only move is the step to b5 (13) (d5 is occupied).
    assert_moves::<Italian>("W:W18:B21,K14", &["18-13"]);
}

/// rules.md 1.7 (FID 5.3): "a man may never capture a king (not even in the middle of a
/// multi-capture)".
#[test]
fn italian_man_stops_in_front_of_a_king_mid_capture() {
    //  7   .  .  .  .  . *7  .  .        f7
    //  6   .  .  .  . B11  .  .  .       e6
    //  5   .  . . *14  .  .  .  .        d5
    //  4   .  . B18  .  .  .  .  .       c4
    //  3   . W21  .  .  .  .  .  .       b3
    // White man b3 (21) jumps c4 (18) to d5 (14); from d5 it jumps e6 (11) to f7 (7) when e6 is a
    // man (c6 10 is empty; from f7 nothing follows and row 7 is not the crown row): 21x7.
    assert_moves::<Italian>("W:W21:B11,18", &["21x7"]);
    // With a Black king on e6 the man may not take it: the capture ends on d5, 21x14.
    assert_moves::<Italian>("W:W21:B18,K11", &["21x14"]);
}

/// rules.md 1.1 and 1.7 (FID 4.7): Italian kings are short: they move and jump one square.
#[test]
fn italian_short_kings() {
    // White king e4 (19); Black man c6 (10) two squares up-left with b7 (5) empty behind it: a
    // flying king could take it, a short king can't. Moves: d5 14, f5 15, d3 22, f3 23.
    assert_moves::<Italian>("W:WK19:B10", &["19-14", "19-15", "19-22", "19-23"]);
    // Add a Black man on f3 (23): the king jumps it and lands on g2 (28) only, never on h1 (32).
    // From g2 (neighbours f1 31, h1 32, h3 24 empty, f3 taken) nothing follows.
    assert_moves::<Italian>("W:WK19:B10,23", &["19x28"]);
}

/// rules.md 1.7 (FID 6.6, 6.7): precedence step 1 (most pieces) comes before step 2 (capture by
/// a king), and step 2 decides between captures of as many pieces.
#[test]
fn italian_precedence_most_pieces_then_by_a_king() {
    //  7   .  .  .  .  . *7  .  .
    //  6   .  .  .  . B11  .  .  .
    //  5   .  . .  *14  .  .  .  .
    //  4   .  . B18  .  .  .  .  .
    //  3   . W21  .  .  . *23  .  .
    //  2   .  .  .  .  .  . B28  .
    //  1   .  .  .  .  .  .  . WK32
    // Man b3 (21) x c4 -> d5 x e6 -> f7: two men (21x7). King h1 (32) x g2 (28) -> f3 (23); from
    // f3 (e4 19, g4 20, e2 27 empty) nothing follows: one man. Step 1, most pieces: only 21x7,
    // although the other capture is made by a king.
    assert_moves::<Italian>("W:W21,K32:B11,18,28", &["21x7"]);
    // Without e6 the man takes one piece (21x14, ending on d5) and so does the king: step 2, the
    // capture made by a king is compulsory.
    assert_moves::<Italian>("W:W21,K32:B18,28", &["32x23"]);
}

/// rules.md 1.7 (FID 6.8): precedence step 3: among captures of as many pieces, both made by a
/// king, the one taking most kings.
#[test]
fn italian_precedence_most_kings() {
    // King b1 (29) x c2 (26, a man) -> d3 (22); from d3 (c4 18, e4 19, e2 27 empty) nothing.
    // King h1 (32) x g2 (28, a king) -> f3 (23); from f3 nothing.
    // One piece each, each by a king; the capture of the king wins: only 32x23.
    assert_moves::<Italian>("W:WK29,K32:B26,K28", &["32x23"]);
}

/// rules.md 1.7 (FID 6.9; DCTL compares the king positions in the sequence
/// lexicographically): precedence step 4: equal pieces, both by a king, as many kings: the
/// capture that meets a king first.
#[test]
fn italian_precedence_king_met_first() {
    //  8   .  .  .  . .  . WK4  .       g8
    //  7   .  .  .  .  . B7  .  .       f7
    //  6   .  .  .  . *11  .  .  .      e6 (empty)
    //  5   .  . . BK14 . *15  .  .      d5, f5
    //  4   . . *18  . B19  .  .  .      c4, e4
    //  3   .  .  . *22  .  .  .  .      d3
    //  2   .  . BK26  .  .  .  .  .     c2
    //  1   . WK29  .  .  .  .  .  .     b1
    // King b1 (29) x c2 (king) -> d3 x e4 (man) -> f5 (15); from f5 (e6 11, g6 12, g4 20 empty)
    // nothing: 29x15 takes king, man.
    // King g8 (4) x f7 (man) -> e6 x d5 (king) -> c4 (18); from c4 (b5 13, b3 21, d3 22 empty)
    // nothing: 4x18 takes man, king.
    // Two pieces each, both by a king, one king each; 29x15 meets its king at the first capture,
    // 4x18 at the second: only 29x15.
    let fen = "W:WK4,K29:B7,19,K14,K26";
    assert_moves::<Italian>(fen, &["29x15"]);
    assert_eq!(hub_moves::<Italian>(fen), vec!["29x15x19x26"]);
}

/// rules.md 1.7: when a man is crowned the move ends (the new king does not continue).
#[test]
fn italian_crowning_ends_the_move() {
    // White man c6 (10) x d7 (6) -> e8 (3), the crown row. As a king on e8 it could jump f7 (7)
    // to g6 (12), but the move ends: 10x3, and f7 stays.
    let fen = "W:W10:B6,7";
    assert_moves::<Italian>(fen, &["10x3"]);
    assert_eq!(fen_after::<Italian>(fen, "10x3"), "B:WK3:B7");
}

// ------------------------------------------------------------------------------------------
// Portuguese (rules.md 1.1, 1.8)
// ------------------------------------------------------------------------------------------

/// rules.md 1.8 ("lei da quantidade"): the capture of most pieces is compulsory, whatever they
/// are; a king capture of one king loses to a man's capture of two men.
#[test]
fn portuguese_quantity() {
    //  8  32  . *31  .  30  .  29  .
    //  7   . BK28  . 27  .  26  . *25
    //  6 WK24  . 23  .  22  . B21  .
    //  5   . 20  . 19  . *18  .  17
    //  4  16  . 15  .  14  . B13  .
    //  3   . 12  . 11  .  10  .  W9
    //      a  b  c  d  e  f  g  h
    // King a6 (24) x b7 (king) lands on c8 (31), the only square behind it. From c8 the diagonal
    // d7 27, e6 22, f5 18 is empty up to g4 (13), but h3 behind g4 is White's: nothing more;
    // a6's other diagonal (b5 20 .. f1 2) is empty. One piece.
    // Man h3 (9) x g4 (13) -> f5 (18) x g6 (21) -> h7 (25); from f5 e6 is empty, from h7 g8 is
    // empty. Two pieces. Quantity first: only 9x25.
    assert_moves::<Portuguese>("W:W9,K24:B13,21,K28", &["9x25"]);
}

/// rules.md 1.8 ("lei da qualidade"): among captures of as many pieces, the one taking most
/// kings.
#[test]
fn portuguese_quality() {
    //  7   . *28  .  27  .  26  . *25
    //  6  24  . BK23 .  22  . B21  .
    //  5   . 20  . *19  . *18  .  17
    //  4  16  . B15  .  14  . B13  .
    //  3   . W12  .  11  .  10  .  W9
    // Man b3 (12) x c4 (15) -> d5 (19) x c6 (23, king) -> b7 (28); from d5 e6 (22) is empty,
    // from b7 a8 and c8 are empty: a man and a king. Man h3 (9) x g4 -> f5 x g6 -> h7 (25): two
    // men. Equal quantity, better quality: only 12x28.
    assert_moves::<Portuguese>("W:W9,12:B13,15,21,K23", &["12x28"]);
}

// ------------------------------------------------------------------------------------------
// Czech (rules.md 1.1, 1.9)
// ------------------------------------------------------------------------------------------

/// rules.md 1.9 (ČSDS 4.14): if a king can capture, a king must capture, even when a man could
/// take more pieces.
#[test]
fn czech_king_capture_preferred_to_man_capture() {
    //  8   .  .  .  .  .  .  . *h8
    //  7   .  .  .  .  .  . Bg7  .
    //  6   .  .  .  .  . *f6 .  .
    //  5   .  .  .  . Be5  .  .  .
    //  4   .  .  . Wd4 .  .  .  .
    //  3   . . *c3  .  .  .  .  .
    //  2   . Bb2  .  .  .  .  .  .
    //  1 WKa1  .  .  .  .  .  .  .
    // Man d4 x e5 -> f6 x g7 -> h8: two pieces (from f6 e7 is empty; on h8 the man is crowned and
    // the move ends). King a1 x b2 -> c3 (d4 is White's own man: no further landing); from c3
    // (b4, a5, d2, e1 empty) nothing: one piece. The king's capture is compulsory.
    assert_moves::<Czech>("W:WKa1,d4:Bb2,e5,g7", &["a1xc3"]);
    // Without the king the man's capture is the only one.
    assert_moves::<Czech>("W:Wd4:Bb2,e5,g7", &["d4xh8"]);
}

/// rules.md 1.9: no quantity rule: a king's one-piece capture is legal beside its two-piece
/// capture; but a flying king must land where its capture continues.
#[test]
fn czech_no_quantity_rule() {
    //  8   .  .  . *d8  .  .  .  .
    //  7   .  .  .  . Be7  .  .  .
    //  6   .  .  .  .  . f6  .  .
    //  5   .  .  .  . Be5  .  .  .
    //  4   .  .  . WKd4  .  .  .  .
    //  3   .  . Bc3  .  .  .  .  .
    //  2   . *b2  .  .  .  .  .  .
    //  1 *a1  .  .  .  .  .  .  .
    // King d4 x c3, landing b2 or a1; from b2 (a3, c1) and a1 nothing follows: d4xb2, d4xa1.
    // King d4 x e5, landing f6, g7 or h8; from f6 it can take e7 and land on d8 (edge), from g7
    // and h8 nothing, so it must land on f6: d4xd8 takes two pieces. (c5-a7 and e3-g1 are empty.)
    // Free choice between the one-piece and two-piece captures: all three are legal.
    assert_moves::<Czech>("W:WKd4:Bc3,e5,e7", &["d4xa1", "d4xb2", "d4xd8"]);
}

/// rules.md 1.9 (ČSDS 4.1): among captures by men the choice is free, and men capture forward
/// only.
#[test]
fn czech_men_free_choice_forward_only() {
    // Man a3 x b4 -> c5 (b6, d6 empty): one piece. Man e3 x f4 -> g5 x f6 -> e7 (h6, d8, f8
    // empty): two pieces. Both legal.
    assert_moves::<Czech>("W:Wa3,e3:Bb4,f4,f6", &["a3xc5", "e3xe7"]);
    // Man c3 with a Black man on d2 behind it (e1 empty): no backward capture; steps b4, d4.
    assert_moves::<Czech>("W:Wc3:Bd2", &["c3-b4", "c3-d4"]);
}

// ------------------------------------------------------------------------------------------
// Pool (rules.md 1.1, 1.6)
// ------------------------------------------------------------------------------------------

/// rules.md 1.6: men capture backwards as well as forwards.
#[test]
fn pool_men_capture_backwards() {
    // White man c3 (22), Black man d2 (26) behind it, e1 (31) empty: 22x31 (nothing follows).
    assert_moves::<Pool>("W:W22:B26", &["22x31"]);
    // Black moves down: Black man f6 (11), White man e7 (7) behind it, d8 (2) empty: 11x2.
    assert_moves::<Pool>("B:W7:B11", &["11x2"]);
}

/// rules.md 1.6: kings fly: they move and capture at a distance.
#[test]
fn pool_flying_kings() {
    // King a1 (29) on the long diagonal, Black man on h8 (4) at its end (no square behind it):
    // quiet moves to b2 25, c3 22, d4 18, e5 15, f6 11, g7 8.
    assert_moves::<Pool>("W:WK29:B4", &["29-25", "29-22", "29-18", "29-15", "29-11", "29-8"]);
    // Black man d4 (18) instead: the king takes it from three squares away and may land on e5
    // 15, f6 11, g7 8 or h8 4; nothing follows from any of them (their other diagonals are
    // empty).
    assert_moves::<Pool>("W:WK29:B18", &["29x15", "29x11", "29x8", "29x4"]);
}

/// rules.md 1.6: no majority rule: a one-piece capture is legal beside a two-piece capture.
#[test]
fn pool_free_choice_of_capture() {
    // Man c3 (22) x d4 (18) -> e5 (15) x d6 (10) -> c7 (6); from c7 (b8, d8, b6 empty) nothing:
    // 22x6. Man h2 (28) x g3 (24) -> f4 (19); from f4 (e5, g5, e3 empty) nothing: 28x19.
    assert_moves::<Pool>("W:W22,28:B10,18,24", &["22x6", "28x19"]);
}

/// rules.md 1.6: a man that reaches the crown row in mid-capture and can jump on must do so as a
/// man, and is not crowned; it is crowned only if the capture ends there.
#[test]
fn pool_man_crossing_crown_row_continues_as_man() {
    //  8   .  .  .  .  . *3  .  .        f8
    //  7   .  .  . B7  .  . B8  .        e7, g7
    //  6   . . W10  .  .  .  . *12       d6, h6
    //  5   .  .  .  .  .  . B16  .       g5
    //  4   .  .  .  .  . *19  .  .       f4
    // Man d6 (10) x e7 -> f8 (crown row) x g7 -> h6 (12) x g5 -> f4 (19), where nothing follows
    // (e5, e3, g3 empty). It goes on as a man: a king crowned on f8 could land on f4, e3, d2 or
    // c1; a move ending at crowning would be 10x3. The piece on f4 is still a man.
    let fen = "W:W10:B1,7,8,16";
    assert_moves::<Pool>(fen, &["10x19"]);
    assert_eq!(fen_after::<Pool>(fen, "10x19"), "B:W19:B1");
    // Man f6 (11) x e7 -> d8 (2); from d8 c7 is empty: the capture ends on the crown row and the
    // man is crowned.
    let fen = "W:W11:B7,12";
    assert_moves::<Pool>(fen, &["11x2"]);
    assert_eq!(fen_after::<Pool>(fen, "11x2"), "B:WK2:B12");
}

// ------------------------------------------------------------------------------------------
// Thai (rules.md 1.1, 1.10)
// ------------------------------------------------------------------------------------------

/// rules.md 1.10: kings move any distance, but a capturing king lands on the square right behind
/// the captured piece, not further.
#[test]
fn thai_king_lands_right_behind() {
    // King a1 (29) moves along the long diagonal up to g7 (8); h8 (4) holds a Black man.
    assert_moves::<Thai>("W:WK29:B4", &["29-25", "29-22", "29-18", "29-15", "29-11", "29-8"]);
    // Black man d4 (18): the king takes it from three squares away and lands on e5 (15) only
    // (Pool would allow e5, f6, g7, h8); from e5 nothing follows.
    assert_moves::<Thai>("W:WK29:B18", &["29x15"]);
    // With a White man on e5 the square right behind d4 is taken: no capture. The king moves to
    // b2 25 or c3 22, the man (forward only) to d6 10 or f6 11.
    assert_moves::<Thai>("W:WK29,15:B18", &["29-25", "29-22", "15-10", "15-11"]);
    // After landing, the king again takes at a distance: a1 x d4 -> e5, then up-left d6 (10) is
    // empty, c7 (6) Black, b8 (1) empty: x c7 -> b8 (from b8 a7 is empty: the end). It may not
    // stop on e5, and the first capture may land on e5 only.
    let fen = "W:WK29:B6,18";
    assert_moves::<Thai>(fen, &["29x1"]);
    assert_eq!(hub_moves::<Thai>(fen), vec!["29x1x6x18"]);
}

/// rules.md 1.10: captured pieces are removed at once, so a king may cross again the square of a
/// piece it has taken; a 180-degree turn is allowed.
#[test]
fn thai_captured_pieces_removed_at_once() {
    //  5   .  .  .  .  .  . *16  .       g5
    //  4   .  .  .  .  . B19  .  .       f4
    //  3   .  .  .  . *23  .  .  .       e3
    //  2   .  . B26  . B27  .  .  .      d2, f2
    //  1   . *30  .  .  .  . WK32  .     c1, g1
    //      a  b  c  d  e  f  g  h
    // King g1 (32) x f2 -> e3 (right behind). From e3 (d4-a7 empty):
    //  (a) x d2 -> c1; from c1, back up the same diagonal: d2 (already removed), e3 empty, f4
    //      Black, g5 empty: x f4 -> g5. From g5 nothing (h6, h4, f6-d8 empty; f4..c1 empty now).
    //      32x16 taking {27, 26, 19}.
    //  (b) x f4 -> g5; from g5 back down: f4 (removed), e3, d2 Black, c1 empty: x d2 -> c1. From
    //      c1 nothing (b2-a3 empty). 32x30 taking {27, 19, 26}.
    // Free choice: both. (If taken pieces blocked, (a) would stop on c1 with {27, 26} and (b) on
    // g5 with {27, 19}: same PDN, different captured sets, hence the Hub check.)
    let fen = "W:WK32:B19,26,27";
    assert_moves::<Thai>(fen, &["32x16", "32x30"]);
    assert_eq!(hub_moves::<Thai>(fen), vec!["32x16x19x26x27", "32x30x19x26x27"]);
}

/// rules.md 1.10: men move and capture one square diagonally forward only.
#[test]
fn thai_men_forward_only() {
    // White man c3 (22), Black man d2 (26) behind it, e1 (31) empty: no capture; steps b4 17,
    // d4 18.
    assert_moves::<Thai>("W:W22:B26", &["22-17", "22-18"]);
    // Black man f6 (11), White man e7 (7) behind it, d8 (2) empty: no capture; steps e5 15, g5 16.
    assert_moves::<Thai>("B:W7:B11", &["11-15", "11-16"]);
}

/// rules.md 1.10: a man reaching the back row in a capture stops there and is crowned.
#[test]
fn thai_crowning_ends_the_move() {
    // Man f6 (11) x e7 (7) -> d8 (2). As a king on d8 it could take c7 (6) and land on b6 (9),
    // but the move ends.
    let fen = "W:W11:B6,7";
    assert_moves::<Thai>(fen, &["11x2"]);
    assert_eq!(fen_after::<Thai>(fen, "11x2"), "B:WK2:B6");
}

// ------------------------------------------------------------------------------------------
// Canadian (rules.md 1.1, 1.13)
// ------------------------------------------------------------------------------------------

/// rules.md 1.13: international rules on 12x12: the capture taking most pieces is compulsory.
#[test]
fn canadian_majority_rule() {
    //  9   .  .  .  . *21 .  .  .  .  . *24  .      e9, k9
    //  8   .  . . B26  .  .  .  .  . B29  .  .      d8, j8
    //  7   .  . *c7  .  .  .  .  . *i7  .  .  .
    //  6   . B37  .  .  .  .  . B40  .  .  .  .     b6, h6
    //  5 W43  .  .  .  .  . *g5  .  .  .  .  .      a5
    //  4   .  .  .  .  . B51  .  .  .  .  .  .      f4
    //  3   .  .  . . W57  .  .  .  .  .  .  .      e3
    //      a  b  c  d  e  f  g  h  i  j  k  l
    // Man e3 (57) x f4 -> g5 x h6 -> i7 x j8 -> k9 (24): three pieces; from k9 (j10, l10, l8
    // empty) nothing. Man a5 (43) x b6 -> c7 x d8 -> e9 (21): two pieces; from e9 (d10, f10, f8
    // empty) nothing. Only the three-piece capture is legal.
    let fen = "W:W43,57:B26,29,37,40,51";
    assert_moves::<Canadian>(fen, &["57x24"]);
    assert_eq!(hub_moves::<Canadian>(fen), vec!["57x24x29x40x51"]);
}

/// rules.md 1.13: flying kings along the 12-square diagonals.
#[test]
fn canadian_flying_king() {
    // King a1 (67) on the long diagonal a1-l12, Black man on b12 (1) off it: b2 61, c3 56,
    // d4 50, e5 45, f6 39, g7 34, h8 28, i9 23, j10 17, k11 12, l12 6.
    assert_moves::<Canadian>(
        "W:WK67:B1",
        &[
            "67-61", "67-56", "67-50", "67-45", "67-39", "67-34", "67-28", "67-23", "67-17",
            "67-12", "67-6",
        ],
    );
    // Black man on i9 (23) instead: taken from eight squares away; landing on j10 17, k11 12 or
    // l12 6, and nothing follows.
    assert_moves::<Canadian>("W:WK67:B23", &["67x17", "67x12", "67x6"]);
}

// ------------------------------------------------------------------------------------------
// Frisian and frysk! (rules.md 1.1, 1.12)
// ------------------------------------------------------------------------------------------

/// rules.md 1.12: a man captures orthogonally the piece two squares away on its row or column,
/// landing two squares beyond, forwards and backwards.
#[test]
fn frisian_man_orthogonal_capture() {
    //  5   .  .  .  . W28  . B29  . *30  .      e5, g5, i5
    //  3   .  .  .  . B38  .  .  .  .  .        e3
    //  1   .  .  .  . *48  .  .  .  .  .        e1
    // Man e5 (28): along row 5 over g5 (29) to i5 (30); down column e over e3 (38) to e1 (48).
    // From i5 and e1 nothing follows (their diagonal neighbours and the squares two away on their
    // row and column are empty). One man each, both by a man: both legal.
    assert_moves::<Frisian>("W:W28:B29,38", &["28x30", "28x48"]);
}

/// rules.md 1.12: the capture of highest value is compulsory; n kings are worth more than
/// 2n-1 and less than 2n men: two kings beat three men and lose to four men.
#[test]
fn frisian_value_two_kings_between_three_and_four_men() {
    //  9   . *6  . B7  . *8  . B9  . *10         a9, c9, e9, g9, i9
    //  7   .  .  .  .  .  .  .  . B20  .         i7
    //  5   .  .  .  . *28  .  .  . *30  .        e5, i5
    //  4   .  .  . BK32  .  .  .  .  .  .        d4
    //  3   . . *37  .  .  .  .  . B40  .         c3, i3
    //  2   . BK41  .  .  .  .  .  .  .  .        b2
    //  1 W46  .  .  .  .  .  .  . W50  .         a1, i1
    //      a  b  c  d  e  f  g  h  i  j
    // Man a1 (46) x b2 (king) -> c3 x d4 (king) -> e5 (28); from e5 nothing (d6, f6, f4 and the
    // squares c5, g5, e7, e3 are empty): two kings.
    // Man i1 (50), orthogonally: x i3 -> i5 x i7 -> i9 x g9 -> e9 (8); from e9 c9 is empty (and
    // d10, f10, d8, f8, e7): three men. Two kings are worth more than three men: only 46x28.
    assert_moves::<Frisian>("W:W46,50:B9,20,40,K32,K41", &["46x28"]);
    // Add a Black man on c9 (7): from e9 the man goes on over c9 to a9 (6) (then b10, b8, a7
    // empty): four men, worth more than two kings: only 50x6.
    assert_moves::<Frisian>("W:W46,50:B7,9,20,40,K32,K41", &["50x6"]);
    // One king (just under two men) against one man and against two men: a1 x b2 (king) -> c3
    // (then nothing: d4, b4, d2, c5, e3 empty). i1 x i3 -> i5 takes one man, and with i7 too,
    // i1 x i3 -> i5 x i7 -> i9 takes two (from i9 g9 is empty).
    assert_moves::<Frisian>("W:W46,50:B40,K41", &["46x37"]);
    assert_moves::<Frisian>("W:W46,50:B20,40,K41", &["50x10"]);
}

/// rules.md 1.12: if values are equal, a capture by a king is preferred.
#[test]
fn frisian_equal_value_king_capture_preferred() {
    // King a1 (46) x c3 (37) lands on d4 (32) only (e5 holds White's man); from d4 nothing (its
    // diagonals c5-a7, e3-g1, its row b4, f4-j4 and column d2, d6-d10 are empty). Column a and
    // row 1 are empty: one man.
    // Man e5 (28) x g5 (29) -> i5 (30), orthogonally: one man.
    // Equal value; the king's capture is compulsory.
    assert_moves::<Frisian>("W:W28,K46:B29,37", &["46x32"]);
}

/// rules.md 1.12: kings capture at a distance orthogonally too, landing on any free square
/// behind.
#[test]
fn frisian_king_orthogonal_capture() {
    // King e1 (48), column e: e3 (38) empty, Black man e5 (28), then e7 (18) and e9 (8) empty.
    // From e7 and e9 nothing follows (every line from them is empty), so both landings are legal.
    // e1's diagonals (d2-a5, f2-j6) and row (a1, c1, g1, i1) hold nothing.
    assert_moves::<Frisian>("W:WK48:B28", &["48x18", "48x8"]);
}

/// rules.md 1.12 and derived.rs: frysk! plays by the Frisian rules from five men each.
#[test]
fn frysk_plays_as_frisian() {
    // Start: White men 46-50 step diagonally forward: 46-41, 47-41, 47-42, 48-42, 48-43, 49-43,
    // 49-44, 50-44, 50-45.
    let start = "W:W46-50:B1-5";
    assert_moves::<Frysk>(
        start,
        &["46-41", "47-41", "47-42", "48-42", "48-43", "49-43", "49-44", "50-44", "50-45"],
    );
    assert_same_moves::<Frysk, Frisian>(start);
    assert_same_moves::<Frysk, Frisian>("W:W46,50:B9,20,40,K32,K41");
    assert_same_moves::<Frysk, Frisian>("W:W28,K46:B29,37");
}

// ------------------------------------------------------------------------------------------
// Killer (derived.rs: International with the killer rule)
// ------------------------------------------------------------------------------------------

/// Killer rule: a king whose last captured piece is a king stops right behind it; after taking
/// a man last it may land on any free square beyond, as in International.
#[test]
fn killer_king_taking_a_king_last_stops_behind_it() {
    // King a1 (46) x c3 on the long diagonal; d4 32 .. j10 5 are empty and no landing allows a
    // further capture. A Black man on c3: every landing, as in International.
    let all = ["46x32", "46x28", "46x23", "46x19", "46x14", "46x10", "46x5"];
    assert_moves::<Killer>("W:WK46:B37", &all);
    assert_moves::<International>("W:WK46:BK37", &all);
    // A Black king on c3: the killer king stops on d4 (32).
    assert_moves::<Killer>("W:WK46:BK37", &["46x32"]);
}

/// Killer rule: only the last captured piece counts.
#[test]
fn killer_rule_applies_to_the_last_piece_only() {
    //  6   .  .  .  .  . *23  .  .  .  .      f6
    //  5   .  .  .  .  .  . BK29  .  .  .     g5
    //  4   .  .  .  .  .  .  . *34  .  .      h4
    //  3   . . B37  .  .  .  .  . *40  .      c3, i3
    //  2   .  .  .  .  .  .  .  .  . *45      j2
    //  1 WK46  .  .  .  .  .  .  .  .  .
    // King a1 x c3 (man): only from f6 (23) can it go on, over g5 (king) to h4 34, i3 40 or j2
    // 45 (nothing follows there). International: all three; killer: the last piece is a king,
    // so h4 only.
    let fen = "W:WK46:B37,K29";
    assert_moves::<International>(fen, &["46x34", "46x40", "46x45"]);
    assert_moves::<Killer>(fen, &["46x34"]);
    // King a1 x c3 (king) first, then a man:
    //  * from d4 (32) over e3 (38) to f2 43 or g1 49;
    //  * from e5 (28) over f4 (33) to g3 39, h2 44 or i1 50;
    // nothing follows any of these, and from f6..j10 there is no capture. Two pieces each. The
    // last piece taken is a man, so the killer king lands anywhere beyond it, and it is not held
    // to d4 behind the king it took first: the same five moves as International.
    let fen = "W:WK46:B33,38,K37";
    let five = ["46x43", "46x49", "46x39", "46x44", "46x50"];
    assert_moves::<International>(fen, &five);
    assert_moves::<Killer>(fen, &five);
}

// ------------------------------------------------------------------------------------------
// Antidraughts, breakthrough, giveaway checkers (rules.md 1.2, 1.14): base moves, other goal
// ------------------------------------------------------------------------------------------

/// rules.md 1.14: antidraughts generates the International moves.
#[test]
fn antidraughts_moves_as_international() {
    // Start: 31-26, 31-27, 32-27, 32-28, 33-28, 33-29, 34-29, 34-30, 35-30.
    let start = "W:W31-50:B1-20";
    let opening = ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"];
    assert_moves::<Antidraughts>(start, &opening);
    assert_same_moves::<Antidraughts, International>(start);
    // rules.rs international_majority_rule_kings_count_as_men: 35x13 and 46x28 (two pieces each).
    let fen = "W:W16,35,46:B19,K11,K30,32,41";
    assert_moves::<Antidraughts>(fen, &["35x13", "46x28"]);
    assert_same_moves::<Antidraughts, International>(fen);
    // rules.rs international_turkish_strike: 46x26 only.
    assert_same_moves::<Antidraughts, International>("W:WK46:B21,22,37,42");
}

/// lidraughts breakthrough: the International moves (only the goal differs).
#[test]
fn breakthrough_moves_as_international() {
    let start = "W:W31-50:B1-20";
    assert_moves::<Breakthrough>(
        start,
        &["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"],
    );
    assert_same_moves::<Breakthrough, International>(start);
    // A man captures backwards (e5 x f4 -> g3), compulsory: 28x39 only.
    let fen = "W:W28,48:B33";
    assert_moves::<Breakthrough>(fen, &["28x39"]);
    assert_same_moves::<Breakthrough, International>(fen);
    // The majority position of rules.rs with the Black kings made men: a1 x b2 -> c3 x d4 -> e5
    // and j4 x i5 -> h6 x g7 -> f8 take two, a7 x b8 -> c9 only one: 35x13 and 46x28.
    let fen = "W:W16,35,46:B11,19,30,32,41";
    assert_moves::<Breakthrough>(fen, &["35x13", "46x28"]);
    assert_same_moves::<Breakthrough, International>(fen);
}

/// rules.md 1.2: giveaway checkers uses the English move generation.
#[test]
fn english_losing_moves_as_english() {
    // Start, Black first: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16.
    let start = "B:W21-32:B1-12";
    assert_moves::<EnglishLosing>(
        start,
        &["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"],
    );
    assert_same_moves::<EnglishLosing, English>(start);
    // rules.rs english_free_choice_of_capture: 22x6 and 28x19.
    let fen = "W:W22,28:B10,18,24";
    assert_moves::<EnglishLosing>(fen, &["22x6", "28x19"]);
    assert_same_moves::<EnglishLosing, English>(fen);
    // rules.rs english_crowning_ends_the_move and english_piece_not_jumped_twice.
    assert_same_moves::<EnglishLosing, English>("W:W11:B6,7");
    assert_same_moves::<EnglishLosing, English>("W:WK26:B14,15,16,22,23");
}
