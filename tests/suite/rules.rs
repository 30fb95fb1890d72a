//! Rule tests: one test per special rule of each variant, with the expected legal-move lists
//! derived by hand from ../shared/reference/rules.md (sections 0, 1.1-1.5, 1.8, 1.11), not
//! copied from the engine's output.
//!
//! Square numbering (rules.md section 2, protocols.md 5.4), White at the bottom:
//!
//! English (8x8, numeric, Black on 1-12 moves first):
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
//! International (10x10, numeric, White on 31-50 moves first):
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
//! Spanish (8x8 turned: h1 playable; numbered from White's bottom right, right to left,
//! upwards; White on 1-12 moves first):
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
//! Russian and Brazilian use algebraic names of the dark squares (a1, c1, ..., h8); Turkish
//! uses all 64 squares. Hub numbering (for `to_hub`): International and English as PDN;
//! Russian/Brazilian a1 = 1, c1 = 2, ..., b2 = 5, ..., h8 = 32; Turkish a1 = 1 ... h1 = 8,
//! a2 = 9 ... h8 = 64.
//!
//! In the diagrams below `W`/`B` are men, `WK`/`BK` kings, `*` a landing square.

use damas::movegen::legal_moves;
use damas::notation::{fen, moves};
use damas::rules::{Brazilian, English, International, Russian, Spanish, Turkish};

use crate::common;
use common::{assert_moves, fen_after, hub_moves, position};

// ------------------------------------------------------------------------------------------
// English (rules.md 0, 1.1, 1.2)
// ------------------------------------------------------------------------------------------

/// rules.md 1.1 (English: "man captures fwd only"): a man with an enemy piece diagonally
/// behind it and an empty square beyond may not take it.
#[test]
fn english_men_capture_forward_only() {
    // White man c3 (22), Black man d2 (26) behind it, e1 (31) empty. White men move up, so the
    // backward jump 22x31 is illegal; there is no capture, and the man's two forward steps
    // b4 (17) and d4 (18) are the legal moves.
    //   3  .  W22 .          2  . B26 .    1  . . *31
    assert_moves::<English>("W:W22:B26", &["22-17", "22-18"]);
    // The same for Black, who moves down: Black man f6 (11), White man e7 (7) behind it,
    // d8 (2) empty. No 11x2; Black's forward steps are e5 (15) and g5 (16).
    assert_moves::<English>("B:W7:B11", &["11-15", "11-16"]);
}

/// rules.md 0 and 1.2: English kings move and jump one square only (no flying kings).
#[test]
fn english_kings_move_and_jump_one_square() {
    // White king d4 (18); Black man b6 (9) two squares up-left with a7 (5) empty behind it.
    // A flying king could take it; a short king can't. The king's moves are the four adjacent
    // squares c5 (14), e5 (15), c3 (22), e3 (23).
    assert_moves::<English>("W:WK18:B9", &["18-14", "18-15", "18-22", "18-23"]);
    // Add a Black man on e3 (23), next to the king, with f2 (27) and g1 (32) empty behind it.
    // The king jumps it and lands only on the next square, f2 (27); it can't land on g1, and it
    // still can't take b6 (two squares away). From f2 the only neighbour holding a piece is the
    // captured e3, so the jump ends there. Capture is compulsory, so no quiet moves.
    assert_moves::<English>("W:WK18:B9,23", &["18x27"]);
}

/// rules.md 0 and 1.2: a man reaching the last row in mid-capture is crowned and the move ends,
/// even if the new king could jump on.
#[test]
fn english_crowning_ends_the_move() {
    // White man f6 (11) jumps e7 (7) and lands on d8 (2), the king row. As a king on d8 it
    // could jump c7 (6) to b6 (9), but crowning ends the move: the only legal move is 11x2,
    // and afterwards White has a king on 2 while Black's c7 (6) is still there.
    //   8  .  . *2  .         7  . B6  . B7        6  . 9(empty) . W11
    let fen = "W:W11:B6,7";
    assert_moves::<English>(fen, &["11x2"]);
    assert_eq!(fen_after::<English>(fen, "11x2"), "B:WK2:B6");
}

/// rules.md 0 and 1.2: free choice among captures (no majority rule): a one-piece capture is
/// legal next to a two-piece capture, but a chosen sequence must be completed.
#[test]
fn english_free_choice_of_capture() {
    // White man c3 (22): jumps d4 (18) to e5 (15), then must go on over d6 (10) to c7 (6);
    // nothing follows from c7 (b8, d8 empty), so 22x6 takes two pieces (it may not stop at 15).
    // White man h2 (28): jumps g3 (24) to f4 (19); from f4 the squares e5 and g5 are empty, so
    // 28x19 takes one piece. Both are legal in English.
    //   6  . . .B10 .          5  . . .*15 .        4  . . .B18 .*19
    //   3  . W22 . . . B24     2  ... W28 (h2)
    assert_moves::<English>("W:W22,28:B10,18,24", &["22x6", "28x19"]);
}

/// rules.md 1.1 ("capturing is compulsory"): when a capture exists, quiet moves are absent.
#[test]
fn english_capture_is_compulsory() {
    // White man c3 (22) can jump d4 (18) to e5 (15) (then d6, f6 are empty: the jump ends).
    // The man on a1 (29) could step to b2 (25) and the king on g1 (32) to f2/h2, and the man on
    // c3 could step to b4, but all those quiet moves are illegal while a capture exists.
    assert_moves::<English>("W:W22,29,K32:B18", &["22x15"]);
}

/// rules.md 0 and 1.2 ("a piece cannot be jumped twice; its square stays blocked"), and the
/// unique-move convention (rules.md section 2: moves keyed by (from, to, captured set)).
#[test]
fn english_piece_not_jumped_twice() {
    // White king d2 (26); Black men c3 (22), e3 (23), c5 (14), e5 (15), g5 (16).
    //   6  .  9  . 10  . 11  . 12          h6 = 12
    //   5  . B14  . B15  . B16  .          c5 e5 g5
    //   4  . 17  . 18  . 19  . 20          b4 f4 landing squares
    //   3  . B22  . B23  . 24  .           c3 e3
    //   2  .  . WK26 .  .  .  .            d2
    // Routes of the short king:
    //  * d2 x e3 -> f4; at f4 either x g5 -> h6 (end: h6's other neighbour g7 is empty):
    //    26x12 taking {16, 23}, landing squares 19, 12;
    //    or x e5 -> d6 x c5 -> b4 x c3 -> d2 (the king's own start square, now empty). Back on
    //    d2 the king faces e3 again, but e3 was already jumped and may not be jumped twice, so
    //    the move ends: 26x26 taking {14, 15, 22, 23}. (If e3 could be jumped again the king
    //    would go on to f4 and g5 and the move would end on h6 instead.)
    //  * d2 x c3 -> b4 x c5 -> d6 x e5 -> f4; at f4 either x e3 -> d2 (the same 26x26 with the
    //    same four pieces: listed once) or x g5 -> h6: 26x12 taking {14, 15, 16, 22}, landing
    //    squares 17, 10, 19, 12.
    // The two 26x12 moves share origin and destination, so PDN writes them in the long form
    // with every landing square (PDN 3.0): 26x19x12 and 26x17x10x19x12.
    let fen = "W:WK26:B14,15,16,22,23";
    let pos = assert_moves::<English>(fen, &["26x17x10x19x12", "26x19x12", "26x26"]);
    assert_eq!(legal_moves(&pos).len(), 3);
    assert_eq!(
        hub_moves::<English>(fen),
        vec!["26x12x14x15x16x22", "26x12x16x23", "26x26x14x15x22x23"]
    );
}

// ------------------------------------------------------------------------------------------
// International (rules.md 0, 1.1, 1.3)
// ------------------------------------------------------------------------------------------

/// rules.md 0 and 1.3 (FMJD 4.13): only the capture taking the most pieces is legal, and kings
/// count the same as men.
#[test]
fn international_majority_rule_kings_count_as_men() {
    // Three White men, each with one capture route:
    //  * a1 (46) x b2 (41) -> c3 (37) x d4 (32) -> e5 (28): two men (d6, f6, f4 empty after).
    //  * j4 (35) x i5 (30, king) -> h6 (24) x g7 (19) -> f8 (13): a king and a man (e9, g9, e7
    //    empty after).
    //  * a7 (16) x b8 (11, king) -> c9 (7): one king (b10, d10, d8 empty after).
    // Two pieces is the maximum. A king + man capture and a two-men capture are equally long
    // (a king is worth no more than a man here), so both are legal; the single king capture is
    // not (taking a king does not outweigh taking fewer pieces).
    //  10      1     2     3     4     5
    //   9   6     *     8     9    10
    //   8     BK    12     *    14    15
    //   7   W    17    18     B    20
    //   6     21    22    23     *    25
    //   5  26    27     *    29    BK
    //   4     31     B    33    34     W
    //   3  36     *    38    39    40
    //   2      B    42    43    44    45
    //   1   W    47    48    49    50
    //        a  b  c  d  e  f  g  h  i  j
    let fen = "W:W16,35,46:B19,K11,K30,32,41";
    assert_moves::<International>(fen, &["35x13", "46x28"]);
    // Hub: from, to, then the captured squares in ascending order.
    assert_eq!(hub_moves::<International>(fen), vec!["35x13x19x30", "46x28x32x41"]);
}

/// rules.md 1.1 and 1.3 (FMJD 4.1): men capture backwards as well as forwards.
#[test]
fn international_men_capture_backwards() {
    // White man e5 (28), Black man f4 (33) diagonally behind it, g3 (39) empty: 28x39 is a
    // legal (and therefore compulsory) capture; from g3 nothing follows. The man on e1 (48) and
    // the quiet moves of e5 are excluded.
    assert_moves::<International>("W:W28,48:B33", &["28x39"]);
}

/// rules.md 0 and 1.3 (FMJD 4.13, 4.15): a man that reaches the crown row in mid-capture and
/// can continue goes on as a man and is not crowned; it is crowned when the capture ends there.
#[test]
fn international_promotion_only_at_the_end_of_a_capture() {
    // White man d8 (12) jumps e9 (8) to f10 (3) on the crown row, then must continue backwards
    // over g9 (9) to h8 (14) as a man (a king would have more landing squares, i7 and j6).
    // The move ends on h8 and the piece is still a man: the FEN shows no White king.
    // 10  . . . . . *3 . . . .     9  . . . . B8 . B9 . . .     8  . . . W12 . . . *14 . .
    let fen = "W:W12:B8,9,45";
    assert_moves::<International>(fen, &["12x14"]);
    assert_eq!(fen_after::<International>(fen, "12x14"), "B:W14:B45");
    // White man f8 (13) jumps e9 (8) to d10 (2); from d10 nothing follows (c9 empty), so the
    // capture ends on the crown row and the man is crowned.
    let fen = "W:W13:B8,45";
    assert_moves::<International>(fen, &["13x2"]);
    assert_eq!(fen_after::<International>(fen, "13x2"), "B:WK2:B45");
}

/// rules.md 1.3 (FMJD 3.x): a king moves any distance along a free diagonal.
#[test]
fn international_flying_king_moves() {
    // White king e5 (28), White man h8 (14), Black man b10 (1) out of reach; no capture.
    //  up-left    d6 22, c7 17, b8 11, a9 6
    //  up-right   f6 23, g7 19 (h8 is White's own man: stop)
    //  down-left  d4 32, c3 37, b2 41, a1 46
    //  down-right f4 33, g3 39, h2 44, i1 50
    // plus the man's steps h8-g9 (9) and h8-i9 (10).
    assert_moves::<International>(
        "W:WK28,14:B1",
        &[
            "28-22", "28-17", "28-11", "28-6", "28-23", "28-19", "28-32", "28-37", "28-41",
            "28-46", "28-33", "28-39", "28-44", "28-50", "14-9", "14-10",
        ],
    );
}

/// rules.md 1.1 and 1.3 (FMJD 4.3): a flying king may land on any free square behind the
/// captured piece; but if from some landing squares the capture can continue, it must land on
/// one of those.
#[test]
fn international_flying_king_landing_squares() {
    // King a1 (46) takes d4 (32) along the long diagonal; behind it e5 28, f6 23, g7 19,
    // h8 14, i9 10, j10 5 are free and none allows a further capture: six legal moves.
    assert_moves::<International>(
        "W:WK46:B32",
        &["46x28", "46x23", "46x19", "46x14", "46x10", "46x5"],
    );
    // Add a Black man on f8 (13). From g7 (19) the king can go on: over f8 to e9 (8) or d10 (2);
    // f8 is on no other landing square's diagonal, and from e9 / d10 nothing follows. So the
    // king must land on g7 and continue: 46x8 and 46x2 (the majority rule agrees).
    assert_moves::<International>("W:WK46:B13,32", &["46x2", "46x8"]);
}

/// rules.md 1.3 (FMJD 4.5-4.6): captured pieces stay on the board until the move ends; they
/// can't be jumped twice and they block the king (the "Turkish strike").
#[test]
fn international_turkish_strike() {
    // White king a1 (46); Black men c3 (37), d6 (22), b6 (21), d2 (42).
    //  10      1     2     3     4     5
    //   9   6     7     8     9    10
    //   8     11    12    13    14    15
    //   7   *     *    18    19    20
    //   6      B     B    23    24    25
    //   5   *    27     *    29    30
    //   4     31     *    33    34    35
    //   3  36     B    38    39    40
    //   2     41     B    43    44    45
    //   1  WK    47    48    49    50
    //        a  b  c  d  e  f  g  h  i  j
    // The king takes c3 and may land on d4..j10:
    //  * d4: over b6 to a7 (2 pieces), nothing further from a7.
    //  * e5: over d6 to c7 (or b8, a9: nothing further there); from c7 over b6 to a5 (3 pieces).
    //    From a5 the diagonal a5-b4-c3-d2-e1 would reach d2 with e1 free behind it, but c3 is
    //    still on the board (captured in this move) and can't be jumped again: the king stops.
    //  * f6 .. j10: no further capture.
    // The maximum is 3, so the only legal move is a1 x a5, taking {21, 22, 37}. (If captured
    // pieces were lifted at once it would continue to e1, taking 4.)
    let fen = "W:WK46:B21,22,37,42";
    assert_moves::<International>(fen, &["46x26"]);
    assert_eq!(hub_moves::<International>(fen), vec!["46x26x21x22x37"]);
    assert_eq!(fen_after::<International>(fen, "46x26"), "B:WK26:B42");
}

/// rules.md section 2 (moves keyed by (from, to, captured set)) and 1.3: one capture reached by
/// two routes is listed once.
#[test]
fn international_same_capture_two_routes_listed_once() {
    // White man c3 (37) surrounded by a diamond of Black men b4 (31), d4 (32), d6 (22), b6 (21).
    // Men capture backwards, so it can go round either way and come home:
    //  c3 x d4 -> e5 x d6 -> c7 x b6 -> a5 x b4 -> c3, or
    //  c3 x b4 -> a5 x b6 -> c7 x d6 -> e5 x d4 -> c3.
    // Back on c3 both neighbours holding pieces were already taken, b2/d2 are empty: the move
    // ends. Both routes are the same move (37 to 37 taking all four): one entry.
    let fen = "W:W37:B21,22,31,32";
    let pos = assert_moves::<International>(fen, &["37x37"]);
    assert_eq!(legal_moves(&pos).len(), 1);
    assert_eq!(hub_moves::<International>(fen), vec!["37x37x21x22x31x32"]);
}

// ------------------------------------------------------------------------------------------
// Brazilian (rules.md 0, 1.1, 1.4)
// ------------------------------------------------------------------------------------------

/// rules.md 0 and 1.4: international rules on 8x8: majority capture, men capture backwards.
#[test]
fn brazilian_majority_rule_and_backward_man_captures() {
    //  7  . . . . . . . .
    //  6  . . . W(d6) . . . .
    //  5  . . B(c5) . *e5 . . .
    //  4  . *b4 . . . B(f4) . .
    //  3  . . B(c3) . . . W(g3) .
    //  2  . . . *d2 . . . .
    // d6 x c5 -> b4 x c3 -> d2: two backward jumps (d2's neighbours c1, e1, e3 empty).
    // g3 x f4 -> e5: one piece (from e5: d6 is White's own man, f6 and d4 empty).
    // Majority rule: only the two-piece capture is legal.
    assert_moves::<Brazilian>("W:Wd6,g3:Bc3,c5,f4", &["d6xd2"]);
}

// ------------------------------------------------------------------------------------------
// Russian (rules.md 0, 1.1, 1.5)
// ------------------------------------------------------------------------------------------

/// rules.md 0 and 1.5: free choice of capture; a shorter capture is legal beside a longer one.
#[test]
fn russian_free_choice_of_capture() {
    // The Brazilian position above: d6:d2 takes two pieces, g3:e5 one. Russian has no majority
    // rule, so both are legal (captures are written with ':').
    assert_moves::<Russian>("W:Wd6,g3:Bc3,c5,f4", &["d6:d2", "g3:e5"]);
}

/// rules.md 0 and 1.5 (Kodeks 1.5.15): a man reaching the last row in mid-capture is crowned at
/// once and goes on capturing as a (flying) king in the same move.
#[test]
fn russian_crowned_in_capture_continues_as_king() {
    //  8  . . . *d8 . . . B(h8)
    //  7  . . B(c7) . e7 . . .
    //  6  . W(b6) . . . B(f6) . .
    //  5  . . . . . . *g5 .
    //  4  . . . . . . . *h4
    // b6 : c7 -> d8 reaches the last row: crowned. As a king it sees f6 two squares away on
    // d8-h4 with g5 and h4 free behind it (a man could not take it: not adjacent). From g5 and
    // h4 nothing follows, so both landings are legal: b6:g5 and b6:h4. Stopping on d8 is not.
    let fen = "W:Wb6:Bc7,f6,h8";
    assert_moves::<Russian>(fen, &["b6:g5", "b6:h4"]);
    assert_eq!(fen_after::<Russian>(fen, "b6:h4"), "B:WKh4:Bh8");
    // Hub (a1 = 1 numbering): b6 = 21, g5 = 20, captured f6 = 23, c7 = 26.
    assert_eq!(hub_moves::<Russian>(fen), vec!["21x16x23x26", "21x20x23x26"]);
}

/// rules.md 1.1 and 1.5 (ludoteka): a king with several landing squares must choose one from
/// which the capture continues, even under free choice.
#[test]
fn russian_king_must_land_where_capture_continues() {
    // King a1 takes c3 along the long diagonal; d4, e5, f6, g7, h8 are free. Only from e5 can it
    // go on: over f4 to g3 or h2 (then nothing). So a1:d4, a1:f6, a1:g7, a1:h8 are illegal
    // although Russian otherwise allows a shorter capture.
    assert_moves::<Russian>("W:WKa1:Bc3,f4", &["a1:g3", "a1:h2"]);
}

// ------------------------------------------------------------------------------------------
// Spanish (rules.md 0, 1.1, 1.8)
// ------------------------------------------------------------------------------------------

/// rules.md 0 and 1.8: men capture forward only.
#[test]
fn spanish_men_capture_forward_only() {
    // White man e4 (14), Black man d3 (11) behind it, c2 (7) empty: no capture. The man steps to
    // f5 (18) or d5 (19).
    assert_moves::<Spanish>("W:W14:B11", &["14-18", "14-19"]);
    // Black (moving down): man d5 (19), White man e6 (22) behind it, f7 (26) empty: no capture;
    // steps to e4 (14) or c4 (15).
    assert_moves::<Spanish>("B:W22:B19", &["19-14", "19-15"]);
}

/// rules.md 0 and 1.8: the capture taking most pieces is compulsory; among equally long ones,
/// the one taking most kings.
#[test]
fn spanish_quantity_then_quality() {
    //   8  32     *    30    29
    //   7     BK    27    26     *
    //   6   W    23     *     B
    //   5     20     B     *    17
    //   4  16     *    14     B
    //   3     BK    11    10     W
    //   2   W     7     6     5
    //   1      4     3     2     1
    //        a  b  c  d  e  f  g  h
    // Men capture forward only:
    //  * a2 (8) x b3 (king) -> c4 x d5 -> e6: 2 pieces, 1 king (from e6: d7, f7 empty).
    //  * h3 (9) x g4 -> f5 x g6 -> h7: 2 pieces, no king (from f5 e6 empty; from h7 g8 empty).
    //  * a6 (24) x b7 (king) -> c8: 1 piece (crowned; the move ends).
    // Most pieces: 2, then most kings: only 8x22.
    assert_moves::<Spanish>("W:W8,9,24:B13,19,21,K12,K28", &["8x22"]);
    // Add White man f1 (2) and Black men e2 (6), e4 (14): f1 x e2 -> d3 (c4 empty: no jump
    // there) x e4 -> f5 x g6 -> h7 takes 3 men. Quantity comes before quality: only 2x25.
    assert_moves::<Spanish>("W:W2,8,9,24:B6,13,14,19,21,K12,K28", &["2x25"]);
}

/// rules.md 0 and 1.8: Spanish kings fly: they move and capture at a distance.
#[test]
fn spanish_flying_kings() {
    // King h1 (1) on the long diagonal; Black man a8 (32) at its end with nothing behind it: no
    // capture, the king moves to g2 5, f3 10, e4 14, d5 19, c6 23 or b7 28.
    assert_moves::<Spanish>("W:WK1:B32", &["1-5", "1-10", "1-14", "1-19", "1-23", "1-28"]);
    // Black man on d5 (19) instead: the king takes it from three squares away and may land on
    // c6 (23), b7 (28) or a8 (32); nothing follows from any of them.
    assert_moves::<Spanish>("W:WK1:B19", &["1x23", "1x28", "1x32"]);
}

// ------------------------------------------------------------------------------------------
// Turkish (rules.md 0, 1.1, 1.11)
// ------------------------------------------------------------------------------------------

/// rules.md 0 and 1.11: men move one square straight forward or sideways, never backward or
/// diagonally.
#[test]
fn turkish_men_move_forward_or_sideways() {
    // White man d4: d5 (forward), c4 and e4 (sideways); not d3, c5, e5, c3, e3.
    assert_moves::<Turkish>("W:Wd4:Ba7", &["d4-c4", "d4-d5", "d4-e4"]);
    // Black man e5 moves down: e4, and sideways d5, f5.
    assert_moves::<Turkish>("B:Wa2:Be5", &["e5-d5", "e5-e4", "e5-f5"]);
}

/// rules.md 0 and 1.11: kings move like rooks, any distance along ranks and files.
#[test]
fn turkish_kings_fly_orthogonally() {
    // King d4: up d5..d8, down d3..d1, left c4, b4, a4, right e4 only (f4 holds White's own
    // man); never diagonally. The man f4 moves to f5, e4 or g4. No Black piece is on rank 4 or
    // the d- or f-file, so there is no capture.
    assert_moves::<Turkish>(
        "W:WKd4,f4:Ba7",
        &[
            "d4-d5", "d4-d6", "d4-d7", "d4-d8", "d4-d3", "d4-d2", "d4-d1", "d4-c4", "d4-b4",
            "d4-a4", "d4-e4", "f4-f5", "f4-e4", "f4-g4",
        ],
    );
}

/// rules.md 0 and 1.11: captured pieces are removed at once, so a king may later cross the
/// square of a piece it has taken in the same move (majority rule applies).
#[test]
fn turkish_captured_pieces_removed_at_once() {
    //  8  .  .  .  .  .  .  .  .
    //  7  .  . *c7 Bd7 .  . *f7 .
    //  6  .  .  .  .  . Bf6 .  .
    //  4 WKa4 . Bc4 .  . *f4 .  .
    //  2  .  . Bc2 .  .  .  .  .
    //  1  .  . *c1 .  .  .  .  .
    // King a4 x c4, landing d4..h4 (c4 is removed at once).
    //  * from d4: up over d7 to d8 (2 pieces), nothing from d8.
    //  * from f4: up over f6 to f7 or f8; from f7 left over d7 to c7, b7 or a7; from c7 down the
    //    c-file: c6, c5, c4 (empty: the piece taken first is gone), c3, then c2 with c1 free:
    //    take it and land on c1 (4 pieces). From f8, b7, a7 nothing follows.
    //  * e4, g4, h4: nothing.
    // The maximum is 4, so only a4xc1 is legal. (Were c4 still on the board, the king would
    // stop on c7.)
    let fen = "W:WKa4:Bc2,c4,d7,f6";
    assert_moves::<Turkish>(fen, &["a4xc1"]);
    // Hub (a1 = 1 ... h8 = 64): a4 25, c1 3, captured c2 11, c4 27, f6 46, d7 52.
    assert_eq!(hub_moves::<Turkish>(fen), vec!["25x3x11x27x46x52"]);
}

/// rules.md 0 and 1.11: no 180-degree reversal between two jumps.
#[test]
fn turkish_no_reversal_between_jumps() {
    // King d4, Black men b4 and f4 on the same rank. d4 x b4 -> a4, or d4 x f4 -> g4 / h4.
    // After taking f4 the rank back to b4 is open (f4 is gone, d4 vacated), but going back left
    // would be a 180-degree turn; likewise after taking b4. Files a, g, h are empty. So three
    // one-piece captures; with reversals allowed each would take both pieces.
    let fen = "W:WKd4:Bb4,f4";
    assert_moves::<Turkish>(fen, &["d4xa4", "d4xg4", "d4xh4"]);
    // Hub shows a single captured square each: d4 28, a4 25, b4 26, f4 30, g4 31, h4 32.
    assert_eq!(hub_moves::<Turkish>(fen), vec!["28x25x26", "28x31x30", "28x32x30"]);
}

/// rules.md 0 and 1.11: the capture taking the most pieces is compulsory; a king is worth no
/// more than a man.
#[test]
fn turkish_majority_rule() {
    // b3 x b4 -> b5 x b6 -> b7: two men (from b5 and b7 the side squares are empty, b8 empty).
    // e3 x f3 (a king) -> g3: one piece. Only the two-piece capture is legal.
    assert_moves::<Turkish>("W:Wb3,e3:Bb4,b6,Kf3", &["b3xb7"]);
}

/// rules.md 0 and 1.11: a man is crowned when its move or whole sequence ends on the last row.
/// (Mid-capture promotion: sources disagree; src/rules/turkish.rs follows kish RULES.md 7.2,
/// the man finishes the sequence as a man and is crowned if it ends on the last row.)
#[test]
fn turkish_crowned_when_capture_ends_on_last_row() {
    // d6 x d7 -> d8; c8 and e8 empty: the capture ends on the last row and the man is crowned.
    let fen = "W:Wd6:Ba6,d7";
    assert_moves::<Turkish>(fen, &["d6xd8"]);
    assert_eq!(fen_after::<Turkish>(fen, "d6xd8"), "B:WKd8:Ba6");
    // With a Black king on e8: d6 x d7 -> d8, then sideways (men capture sideways) x e8 -> f8,
    // where the sequence ends (g8 empty): crowned on f8. (A king crowned at d8 could also land on
    // g8 or h8; a move ending at crowning would stop on d8.)
    let fen = "W:Wd6:Ba6,d7,Ke8";
    assert_moves::<Turkish>(fen, &["d6xf8"]);
    assert_eq!(fen_after::<Turkish>(fen, "d6xf8"), "B:WKf8:Ba6");
}

/// rules.md 1.11: pieces are lifted at once, so a Turkish king may finish its capture on the
/// square of a piece it took earlier in the same move. The five-piece capture of Kh5 that ends
/// on d5 takes d5 itself (with f5, b6, d6 and c7); the king must stand on d5 afterwards, with
/// the hash still consistent. This position came from a random playout
/// that caught a bug where the king vanished with the piece it had taken.
#[test]
fn turkish_king_may_end_on_a_square_it_cleared() {
    let before =
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,e3,f3,c4,g4,Kh5,h7:Bd5,f5,a6,b6,d6,f6,a7,c7,e7,f7,g7";
    let pos = position::<Turkish>(before);
    let mv = moves::parse(&pos, "h5xd5").expect("h5xd5 is legal");
    let captured: Vec<String> = {
        let mut names: Vec<String> = legal_moves(&pos)
            .iter()
            .filter(|m| **m == mv)
            .flat_map(|m| {
                moves::to_hub::<Turkish>(m).split('x').skip(2).map(String::from).collect::<Vec<_>>()
            })
            .collect();
        names.sort();
        names
    };
    // Hub numbering a1 = 1: d5 = 36, f5 = 38, b6 = 42, d6 = 44, c7 = 51.
    assert_eq!(captured, ["36", "38", "42", "44", "51"]);
    let mut after = pos;
    after.play(&mv);
    assert_eq!(after.hash(), after.compute_hash());
    assert_eq!(
        fen::write(&after),
        "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,e3,f3,c4,g4,Kd5,h7:Ba6,f6,a7,e7,f7,g7"
    );
}
