//! The trained evaluation: patterns of men over overlapping regions of the board, each pattern
//! indexing a table of learned weights, plus material and tempo terms, with an opening and an
//! endgame value for everything, blended by the number of pieces left.
//!
//! **Regions.** A region is a window of the board: on the diagonal boards 4 rows by 4 columns,
//! which holds 8 playable squares wherever it lies, placed every second row and column so that
//! neighbouring windows overlap by half (9 windows on 8x8, 16 on 10x10, 25 on 12x12; this is
//! the shape Scan 2.0 uses on 10x10). On Turkish's orthogonal board, where every square plays
//! and men move forwards and sideways, a window is 2 rows by 4 columns, again 8 squares, placed
//! on every row and every second column (21 windows). Each square of a window is empty, a White
//! man or a Black man (a king counts as empty there: kings have their own terms), so a window
//! has 3^8 = 6561 patterns and a weight for each, learned from games: that is how the
//! evaluation sees formations (locks, outposts, holes, the hold of the centre and the back
//! rank) that no hand-set term describes. Windows overlap so that every pair of neighbouring
//! squares shares one.
//!
//! **Flank regions.** Weights may add Scan 2.0's four 9-square regions on diagonal boards
//! ([`Layout::with_flanks`]): the three outer columns of the six rows from either edge, left
//! and right, each with 3^9 = 19683 patterns. They see a flank from the back rank to past the
//! centre, where the windows see four rows at most.
//!
//! **Terms besides the patterns:** men and kings of each side (material), and a tempo bonus
//! for the side to move; since International's generation 4 also four of Scan 2.0's terms (a
//! first king, the left-right balance of the men, the kings' safe and exposed squares, see
//! [`DENSE`]), and in weights that have it a king square table, one weight a square seen from
//! the king's owner, one table for both colours as Scan's. Every weight has an opening and an
//! endgame value; the score is
//! `(opening * pieces + endgame * (start pieces - pieces)) / start pieces`, so the blend moves
//! from the opening set to the endgame set as pieces come off. With those weights, in rule sets
//! with flying kings, the score of a side ahead is then divided where the material is drawish
//! ([`drawish_divisors`], as Scan does); the trainer learns through the same division. Weights
//! of the first three terms (the other rule sets' today) are evaluated as before, and do not
//! pay for the new terms.
//!
//! **Scale:** weights are whole hundredths of a man, as the classic evaluation's, so the
//! search's margins keep their meaning. Trainers (`crate::train`) read the same features
//! through [`Layout::features`], so what is trained is exactly what is evaluated.
//!
//! **Symmetry:** the score is computed from White's side and negated for Black to move. The
//! trainer learns from every position and its colour-flipped twin, so the weights come out
//! close to symmetric; nothing here enforces it.
//!
//! **Reading the board:** on 8x8 and 10x10 boards a board row at a time ([`RowTables`]: the
//! men of a row are one small number per colour, and a table gives what they add to the
//! regions the row lies in), elsewhere a man at a time. `benches/eval.rs` measures the split:
//! in International reading takes 29 ns a position this way against 70 ns a man at a time
//! (the whole evaluation 54 ns), in English 23 ns either way (45 ns); summing the weights takes
//! 8-13 ns.
//!
//! **Incremental update:** the search keeps every node's indices, each child's from its
//! parent's ([`Layout::update`]: only the squares where a man came or went, two for most
//! moves, none for a king's), and evaluates from them ([`Pattern::evaluate_with`]) instead of
//! reading the board at every leaf. Measured with `benches/eval.rs` (2026-12-02, a busier day
//! on the same machine): an update costs 8.4 ns against 32 ns for a reading in English, 10.7
//! against 40 ns in International; the update is paid at every node, the reading was paid
//! at every evaluated one, and `damas bench` searches the same tree in 0.78 of the time.
//!
//! Depends on the rules library only.

use crate::board::bitset::BitSet;
use crate::board::geometry::Geometry;
use crate::board::types::Side;
use crate::position::{Bits, Position};
use crate::rules::{Rules, Variant};
use std::marker::PhantomData;
use std::sync::Arc;

/// Squares in a region.
pub const REGION_SQUARES: usize = 8;
/// Patterns of one region: 3^8.
pub const PATTERNS: usize = 6561;
/// Most regions of any board (12x12).
pub const MAX_REGIONS: usize = 25;
/// Most regions a square is in.
const MAX_SHARING: usize = 4;
/// Squares in a flank region (Scan 2.0's 9-square regions): three columns of six rows.
pub const FLANK_SQUARES: usize = 9;
/// Patterns of one flank region: 3^9.
pub const FLANK_PATTERNS: usize = 19683;
/// Flank regions of a diagonal board: left and right, at the top and at the bottom.
pub const MAX_FLANKS: usize = 4;
/// Most flank regions a square is in (on 8x8 the top and bottom ones overlap).
const MAX_FLANK_SHARING: usize = 2;
/// The terms beside the patterns, each White's minus Black's: men, kings, tempo (+1 with White
/// to move, -1 with Black), a first king (1 for a side with any king: the first king of a
/// flying-king game is worth more than the next ones), balance (the lopsidedness of the other
/// side's men minus one's own, see [`Layout::skew`]), and the kings' safe and exposed quiet
/// squares ([`crate::movegen::king_reach`]). The last four are Scan 2.0's (its `eval.cpp`).
pub const DENSE: usize = 7;
/// The terms of the first weight files (man, king, tempo): a file with only these reads with
/// the others at zero, and evaluates as it did.
pub const FIRST_DENSE: usize = 3;
/// Names of the dense terms, for reports.
pub const DENSE_NAMES: [&str; DENSE] =
    ["man", "king", "tempo", "first king", "balance", "king safe", "king exposed"];

/// The regions of a board and, per bit, the places a man there adds to.
#[derive(Debug)]
pub struct Layout<R: Rules> {
    /// The squares of each region, in the order of their base-3 digits.
    regions: Vec<[u32; REGION_SQUARES]>,
    /// Per bit index: the regions the square is in and its power of three in each; unused
    /// slots point at a spare index slot past the last region, so the loop has no branch.
    places: Vec<[(u8, u16); MAX_SHARING]>,
    /// The flank regions' squares (none in a layout without them), whose pattern indices come
    /// after the windows' in [`Patterns`].
    flanks: Vec<[u32; FLANK_SQUARES]>,
    /// Per bit index: the pattern slots of the flank regions the square is in, and its power
    /// of three there; unused places point at the spare slot.
    flank_places: Vec<[(u8, u16); MAX_FLANK_SHARING]>,
    /// Pieces at the start of a game.
    start_pieces: u32,
    /// Per bit of a column number, the squares whose column has it: Σ column x men is four
    /// population counts ([`Layout::skew`]).
    column_bits: [Bits<R>; 4],
    /// The same sums a board row at a time, where the board allows (see [`RowTables`]).
    rows: Option<RowTables>,
    /// Per bit index: the slot of a White king there in the king square table, and of a Black
    /// king (the square the board's half turn takes it to: one table serves both colours, as
    /// Scan's does).
    king_slots: Vec<[u16; 2]>,
    rules: PhantomData<R>,
}

/// The pattern indices read a row at a time, on diagonal boards of up to five squares a row
/// (8x8 and 10x10): a row's squares are consecutive bits, so its men are one small number per
/// colour, and a table gives, for each pair of them, what the row adds to the regions it lies
/// in. Regions are numbered band by band (a band: the regions of the same four rows), and a
/// row lies in two neighbouring bands, so what it adds is one run of `2 x windows` consecutive
/// region slots: eight additions a row instead of four per man (`benches/eval.rs`).
#[derive(Debug)]
struct RowTables {
    /// Squares a row.
    width: u32,
    /// Regions a band.
    windows: usize,
    /// Per row: its first bit, and where its run starts in the padded sums (the sums are kept
    /// `windows` slots to the right, so that the top rows' run, which starts in a band above
    /// the board, stays in bounds).
    rows: Vec<(u32, usize)>,
    /// Per row, per pair (White's men | Black's men << width): the additions of its run.
    table: Vec<[u16; ROW_RUN]>,
}

/// The longest run of region slots one row adds to (two bands of four windows, 10x10).
const ROW_RUN: usize = 8;
/// Padded sums: the run of the last row ends within this.
const PADDED: usize = 32;

/// The pattern index of each region, then of each flank region (only the first
/// [`Layout::slots`] are used; the last is the spare that squares in fewer regions point their
/// unused places at).
pub type Patterns = [u16; MAX_REGIONS + MAX_FLANKS + 1];

/// What the evaluation reads of a position: the pattern of every region, the dense terms
/// (White's view), the number of pieces on the board and how drawish the material is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// The pattern index of each region.
    pub patterns: Patterns,
    /// The dense terms, White's count minus Black's.
    pub dense: [i16; DENSE],
    /// Pieces on the board.
    pub pieces: u8,
    /// What a score is divided by where it favours White, and where it favours Black
    /// ([`drawish_divisors`]).
    pub divisors: [u8; 2],
}

/// Scan 2.0's scaling of drawish material, for flying-king rule sets: a side ahead against a
/// king sees its score divided by 8 with three pieces or fewer (a flying king holds off three),
/// and by 2 where the kings are equal and the men within one. Returns the divisors of a score
/// that favours White and of one that favours Black; 1 where nothing is drawish.
#[inline(always)]
pub fn drawish_divisors(white: (u32, u32), black: (u32, u32)) -> [u8; 2] {
    let divisor = |(men, kings): (u32, u32), (their_men, their_kings): (u32, u32)| {
        if their_kings == 0 {
            1
        } else if men + kings <= 3 {
            8
        } else if kings == their_kings && men.abs_diff(their_men) <= 1 {
            2
        } else {
            1
        }
    };
    [divisor(white, black), divisor(black, white)]
}

/// The `N` playable squares of the box of `size` (rows, columns) whose top left corner is
/// `corner` (row, column), row by row.
fn box_squares<R: Rules, const N: usize>(corner: (u32, u32), size: (u32, u32)) -> [u32; N] {
    let ((top, left), (height, width)) = (corner, size);
    let squares: Vec<u32> = (top..top + height)
        .flat_map(|row| (left..left + width).filter_map(move |c| R::Geo::at(row, c)))
        .collect();
    debug_assert_eq!(squares.len(), N);
    let mut region = [0; N];
    region.copy_from_slice(&squares[..N]);
    region
}

/// Per bit index of a board of `bits`, the pattern slots of the `regions` its square is in
/// (numbered from `first`) and its power of three in each, at most `K`; unused places point at
/// `spare`.
fn places_of<R: Rules, const N: usize, const K: usize>(
    regions: &[[u32; N]],
    first: usize,
    spare: u8,
    bits: usize,
) -> Vec<[(u8, u16); K]> {
    let mut places = vec![[(spare, 0u16); K]; bits];
    for (index, region) in regions.iter().enumerate() {
        let mut power = 1u16;
        for &square in region {
            let slots = &mut places[R::Geo::bit(square) as usize];
            if let Some(slot) = slots.iter_mut().find(|slot| slot.0 == spare) {
                *slot = ((first + index) as u8, power);
            }
            power *= 3;
        }
    }
    places
}

impl<R: Rules> Default for Layout<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Rules> Layout<R> {
    /// The regions of `R`'s board, without the flank regions.
    pub fn new() -> Self {
        Self::build(false)
    }

    /// The regions of `R`'s board and, on diagonal boards, the four flank regions (Scan
    /// 2.0's 9-square regions: the three outer columns of the six rows from either edge).
    pub fn with_flanks() -> Self {
        Self::build(true)
    }

    fn build(flanked: bool) -> Self {
        let (height, width, row_step) = if R::Geo::ORTHOGONAL { (2, 4, 1) } else { (4, 4, 2) };
        let column_step = 2;
        let mut regions = Vec::new();
        let mut top = 0;
        while top + height <= R::Geo::ROWS {
            let mut left = 0;
            while left + width <= R::Geo::COLUMNS {
                regions.push(box_squares::<R, REGION_SQUARES>((top, left), (height, width)));
                left += column_step;
            }
            top += row_step;
        }
        debug_assert!(regions.len() <= MAX_REGIONS);
        let mut flanks = Vec::new();
        if flanked && !R::Geo::ORTHOGONAL && R::Geo::ROWS >= 6 && R::Geo::COLUMNS >= 6 {
            let (rows, columns) = (R::Geo::ROWS, R::Geo::COLUMNS);
            for top in [0, rows - 6] {
                for left in [0, columns - 3] {
                    flanks.push(box_squares::<R, FLANK_SQUARES>((top, left), (6, 3)));
                }
            }
        }
        let spare = (regions.len() + flanks.len()) as u8;
        let bits = (0..R::Geo::SQUARES).map(R::Geo::bit).max().unwrap_or(0) as usize + 1;
        let places = places_of::<R, REGION_SQUARES, MAX_SHARING>(&regions, 0, spare, bits);
        let flank_places =
            places_of::<R, FLANK_SQUARES, MAX_FLANK_SHARING>(&flanks, regions.len(), spare, bits);
        let start_pieces = Position::<R>::start().occupied().count();
        let rows = RowTables::new::<R>(&regions, &places, spare);
        let mut column_bits = [Bits::<R>::EMPTY; 4];
        for square in 0..R::Geo::SQUARES {
            let column = R::Geo::coords(square).1;
            for (bit, set) in column_bits.iter_mut().enumerate() {
                if column & (1 << bit) != 0 {
                    *set |= Bits::<R>::single(R::Geo::bit(square));
                }
            }
        }
        let mut king_slots = vec![[0u16; 2]; bits];
        for square in 0..R::Geo::SQUARES {
            let bit = R::Geo::bit(square);
            let turned = R::Geo::square(Position::<R>::turned_bit(bit));
            king_slots[bit as usize] = [square as u16, turned as u16];
        }
        Layout {
            regions,
            places,
            flanks,
            flank_places,
            start_pieces,
            column_bits,
            rows,
            king_slots,
            rules: PhantomData,
        }
    }

    /// Number of regions (the 8-square windows).
    pub fn regions(&self) -> usize {
        self.regions.len()
    }

    /// Number of flank regions.
    pub fn flanks(&self) -> usize {
        self.flanks.len()
    }

    /// Pattern indices a position has: the regions' then the flank regions'.
    pub fn slots(&self) -> usize {
        self.regions.len() + self.flanks.len()
    }

    /// Where slot `slot`'s weights start in a table of the layout's patterns.
    #[inline(always)]
    pub fn table_offset(&self, slot: usize) -> usize {
        let regions = self.regions.len();
        if slot < regions {
            slot * PATTERNS
        } else {
            regions * PATTERNS + (slot - regions) * FLANK_PATTERNS
        }
    }

    /// Weights in a table of the layout's patterns.
    pub fn table_len(&self) -> usize {
        self.table_offset(self.slots())
    }

    /// The squares of each flank region.
    pub fn flank_squares(&self) -> &[[u32; FLANK_SQUARES]] {
        &self.flanks
    }

    /// The squares of each region.
    pub fn region_squares(&self) -> &[[u32; REGION_SQUARES]] {
        &self.regions
    }

    /// Pieces at the start of a game.
    pub fn start_pieces(&self) -> u32 {
        self.start_pieces
    }

    /// Slots of the king square table: one per square.
    pub fn king_squares(&self) -> usize {
        R::Geo::SQUARES as usize
    }

    /// The king square table's slots of `position`'s kings with their signs: +1 for a White
    /// king (the slot of its square), -1 for a Black one (the slot of its square turned).
    #[inline(always)]
    pub fn king_entries(&self, position: &Position<R>) -> impl Iterator<Item = (u16, i8)> + '_ {
        let kings = position.kings();
        let white = (position.pieces(Side::White) & kings).iter().map(|bit| (bit, 0, 1));
        let black = (position.pieces(Side::Black) & kings).iter().map(|bit| (bit, 1, -1));
        white.chain(black).map(|(bit, colour, sign)| (self.king_slots[bit as usize][colour], sign))
    }

    /// The pattern index of every region, from White's and Black's men.
    #[inline(always)]
    pub fn patterns(&self, white_men: Bits<R>, black_men: Bits<R>) -> Patterns {
        let Some(tables) = &self.rows else {
            return self.patterns_by_man(white_men, black_men);
        };
        let (white, black) = (white_men.low_u64(), black_men.low_u64());
        let mask = (1u64 << tables.width) - 1;
        let mut padded = [0u16; PADDED];
        for (row, &(shift, start)) in tables.rows.iter().enumerate() {
            let pair = ((white >> shift) & mask) | (((black >> shift) & mask) << tables.width);
            let adds = &tables.table[(row << (2 * tables.width)) + pair as usize];
            for (sum, add) in padded[start..start + ROW_RUN].iter_mut().zip(adds) {
                *sum += add;
            }
        }
        let mut patterns = [0u16; MAX_REGIONS + MAX_FLANKS + 1];
        let regions = self.regions.len();
        patterns[..regions].copy_from_slice(&padded[tables.windows..tables.windows + regions]);
        if !self.flanks.is_empty() {
            self.add_flanks(&mut patterns, white_men, black_men);
        }
        patterns
    }

    /// Adds the flank regions' digits of `white_men` and `black_men` to `patterns`.
    #[inline(always)]
    fn add_flanks(&self, patterns: &mut Patterns, white_men: Bits<R>, black_men: Bits<R>) {
        for (men, digit) in [(white_men, 1u16), (black_men, 2u16)] {
            for bit in men.iter() {
                for &(slot, power) in &self.flank_places[bit as usize] {
                    patterns[slot as usize] += digit * power;
                }
            }
        }
    }

    /// The pattern indices of a position whose men are `after`, from `patterns`, those of a
    /// position whose men were `before`: only the squares where a man came or went are read
    /// (a move changes two to a few, a king's move none), which costs the search less than
    /// reading the board again at the leaves (see the module's comment).
    #[inline(always)]
    pub fn update(
        &self,
        patterns: &mut Patterns,
        before: (Bits<R>, Bits<R>),
        after: (Bits<R>, Bits<R>),
    ) {
        // Indices are sums of digits times powers of three; wrapping arithmetic lets a removal
        // come before the addition that keeps the sum in range.
        let flanked = !self.flanks.is_empty();
        for (was, is, digit) in [(before.0, after.0, 1u16), (before.1, after.1, 2u16)] {
            for bit in (was & !is).iter() {
                for &(region, power) in &self.places[bit as usize] {
                    let slot = &mut patterns[region as usize];
                    *slot = slot.wrapping_sub(digit * power);
                }
                if flanked {
                    for &(region, power) in &self.flank_places[bit as usize] {
                        let slot = &mut patterns[region as usize];
                        *slot = slot.wrapping_sub(digit * power);
                    }
                }
            }
            for bit in (is & !was).iter() {
                for &(region, power) in &self.places[bit as usize] {
                    let slot = &mut patterns[region as usize];
                    *slot = slot.wrapping_add(digit * power);
                }
                if flanked {
                    for &(region, power) in &self.flank_places[bit as usize] {
                        let slot = &mut patterns[region as usize];
                        *slot = slot.wrapping_add(digit * power);
                    }
                }
            }
        }
    }

    /// White's and Black's men: what the patterns read of a position.
    #[inline(always)]
    pub fn men(position: &Position<R>) -> (Bits<R>, Bits<R>) {
        let kings = position.kings();
        (position.pieces(Side::White) & !kings, position.pieces(Side::Black) & !kings)
    }

    /// [`Layout::patterns`] a man at a time: every board, and the reference the row tables
    /// are built from and tested against.
    #[inline(always)]
    pub fn patterns_by_man(&self, white_men: Bits<R>, black_men: Bits<R>) -> Patterns {
        let mut patterns = [0u16; MAX_REGIONS + MAX_FLANKS + 1];
        for bit in white_men.iter() {
            for &(region, power) in &self.places[bit as usize] {
                patterns[region as usize] += power;
            }
        }
        for bit in black_men.iter() {
            for &(region, power) in &self.places[bit as usize] {
                patterns[region as usize] += 2 * power;
            }
        }
        if !self.flanks.is_empty() {
            self.add_flanks(&mut patterns, white_men, black_men);
        }
        patterns
    }

    /// Everything the evaluation reads of `position`.
    #[inline(always)]
    pub fn features(&self, position: &Position<R>) -> Features {
        let (white_men, black_men) = Self::men(position);
        self.features_with(position, self.patterns(white_men, black_men), DENSE, true)
    }

    /// Everything the evaluation reads of `position`, whose pattern indices are `patterns`,
    /// of the first `terms` dense terms, with the drawish divisors where `drawish` (what is
    /// left out is zero, and one for the divisors: weights of [`FIRST_DENSE`] terms do not pay
    /// for what they do not use, measured at 7% of `damas bench`'s time).
    #[inline(always)]
    pub fn features_with(
        &self,
        position: &Position<R>,
        patterns: Patterns,
        terms: usize,
        drawish: bool,
    ) -> Features {
        let kings = position.kings();
        let white = position.pieces(Side::White);
        let black = position.pieces(Side::Black);
        let (white_men, black_men) = (white & !kings, black & !kings);
        let counts = |men: Bits<R>, all: Bits<R>| (men.count(), (all & kings).count());
        let (white_counts, black_counts) = (counts(white_men, white), counts(black_men, black));
        let men = white_counts.0 as i16 - black_counts.0 as i16;
        let king_count = white_counts.1 as i16 - black_counts.1 as i16;
        let tempo = if position.side_to_move() == Side::White { 1 } else { -1 };
        let pieces = (white | black).count() as u8;
        if terms <= FIRST_DENSE {
            let dense = [men, king_count, tempo, 0, 0, 0, 0];
            return Features { patterns, dense, pieces, divisors: [1, 1] };
        }
        let first_king = i16::from(white_counts.1 > 0) - i16::from(black_counts.1 > 0);
        let balance = self.skew(black_men).abs() - self.skew(white_men).abs();
        let (mut safe, mut exposed) = (0, 0);
        if kings.any() {
            let (white_safe, white_exposed) = crate::movegen::king_reach(position, Side::White);
            let (black_safe, black_exposed) = crate::movegen::king_reach(position, Side::Black);
            safe = white_safe as i16 - black_safe as i16;
            exposed = white_exposed as i16 - black_exposed as i16;
        }
        let divisors = if R::FLYING_KINGS && drawish && kings.any() {
            drawish_divisors(white_counts, black_counts)
        } else {
            [1, 1]
        };
        let dense = [men, king_count, tempo, first_king, balance, safe, exposed];
        Features { patterns, dense, pieces, divisors }
    }

    /// How lopsided `men` are: the sum over them of `2 x column - (columns - 1)`, negative
    /// where they lean to the left. Σ column is four population counts (one per bit of the
    /// column number).
    #[inline(always)]
    pub fn skew(&self, men: Bits<R>) -> i16 {
        let columns: u32 =
            self.column_bits.iter().enumerate().map(|(bit, set)| (men & *set).count() << bit).sum();
        (2 * columns) as i16 - (men.count() * (R::Geo::COLUMNS - 1)) as i16
    }

    /// An identity of the feature set, written into weight files so that weights made for
    /// another layout are refused: a hash of the regions' squares and the dense terms.
    pub fn feature_set(&self) -> u32 {
        let mut hash = Fnv::new();
        hash.add(&[REGION_SQUARES as u8, FIRST_DENSE as u8]);
        for region in &self.regions {
            for square in region {
                hash.add(&square.to_le_bytes());
            }
        }
        // Layouts without flank regions keep the identity they had before there were any.
        if !self.flanks.is_empty() {
            hash.add(&[FLANK_SQUARES as u8]);
            for flank in &self.flanks {
                for square in flank {
                    hash.add(&square.to_le_bytes());
                }
            }
        }
        hash.value() as u32
    }
}

/// Learned weights for one rule set, in hundredths of a man.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    /// The rule set they were trained for.
    pub variant: Variant,
    /// The feature set ([`Layout::feature_set`]) they index.
    pub feature_set: u32,
    /// Regions.
    pub regions: usize,
    /// Flank regions (0 in weights made without them).
    pub flanks: usize,
    /// Per region and pattern (region-major), then per flank region and pattern, the opening
    /// and endgame weights.
    pub table: Vec<[i16; 2]>,
    /// The dense terms' opening and endgame weights.
    pub dense: [[i32; 2]; DENSE],
    /// The dense terms the weights were made with: [`FIRST_DENSE`] for the first files, which
    /// know nothing of the others, [`DENSE`] since.
    pub dense_terms: usize,
    /// Whether the score is scaled down for drawish material ([`drawish_divisors`]), as the
    /// weights were trained: whether it helps is measured per rule set (held-out loss, then a
    /// match). It helps International's and Spanish's, and hurts Turkish's, whose kings move
    /// along lines and columns.
    pub drawish: bool,
    /// The king square table, an opening and an endgame weight per square seen from the
    /// king's owner ([`Layout::king_entries`]): Scan 2.0's king position term. Empty in weights
    /// made without it, which evaluate as before.
    pub king_squares: Vec<[i16; 2]>,
}

impl PatternWeights {
    /// All-zero pattern weights with the given material values, for `R`'s layout.
    pub fn material_only<R: Rules>(man: i32, king: i32) -> Self {
        let layout = Layout::<R>::new();
        PatternWeights {
            variant: R::VARIANT,
            feature_set: layout.feature_set(),
            regions: layout.regions(),
            flanks: 0,
            table: vec![[0, 0]; layout.regions() * PATTERNS],
            dense: [[man, man], [king, king], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]],
            dense_terms: DENSE,
            drawish: true,
            king_squares: Vec::new(),
        }
    }
}

/// The pattern evaluation of rule set `R`: its layout and weights, shared between the search
/// threads (cloning is cheap).
#[derive(Clone, Debug)]
pub struct Pattern<R: Rules> {
    layout: Arc<Layout<R>>,
    weights: Arc<PatternWeights>,
}

/// Why weights do not fit a rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch(pub String);

impl<R: Rules> Pattern<R> {
    /// The evaluation with `weights`, which must have been made for `R`'s layout.
    ///
    /// # Errors
    /// The weights are for another rule set or another feature set.
    pub fn new(weights: PatternWeights) -> Result<Self, Mismatch> {
        Self::with_lender(weights, R::VARIANT)
    }

    /// The evaluation of `R` with weights trained for `lender`, a rule set on the same board
    /// (the built-in borrowings of [`crate::eval`]); `lender` is `R` itself for a rule set's own
    /// weights.
    ///
    /// # Errors
    /// The weights are not `lender`'s, or index another feature set than `R`'s.
    pub fn with_lender(weights: PatternWeights, lender: Variant) -> Result<Self, Mismatch> {
        let layout =
            if weights.flanks > 0 { Layout::<R>::with_flanks() } else { Layout::<R>::new() };
        if weights.variant != lender {
            return Err(Mismatch(format!(
                "the weights are for {}, not {}",
                weights.variant.name(),
                R::VARIANT.name()
            )));
        }
        if weights.feature_set != layout.feature_set()
            || weights.regions != layout.regions()
            || weights.flanks != layout.flanks()
            || weights.table.len() != layout.table_len()
            || !(weights.king_squares.is_empty()
                || weights.king_squares.len() == layout.king_squares())
        {
            return Err(Mismatch(format!(
                "the weights are for another feature set ({:08x}, this build reads {:08x})",
                weights.feature_set,
                layout.feature_set()
            )));
        }
        Ok(Pattern { layout: Arc::new(layout), weights: Arc::new(weights) })
    }

    /// The weights in use.
    pub fn weights(&self) -> &PatternWeights {
        &self.weights
    }

    /// The layout.
    pub fn layout(&self) -> &Layout<R> {
        &self.layout
    }

    /// The score of `position` for the side to move.
    #[inline]
    pub fn evaluate(&self, position: &Position<R>) -> i32 {
        self.evaluate_with(position, &self.patterns(position))
    }

    /// The pattern indices of `position`, read from the board.
    #[inline]
    pub fn patterns(&self, position: &Position<R>) -> Patterns {
        let (white_men, black_men) = Layout::men(position);
        self.layout.patterns(white_men, black_men)
    }

    /// `patterns`, those of `before`, become those of `after` (a position one move on).
    #[inline(always)]
    pub fn update(&self, patterns: &mut Patterns, before: &Position<R>, after: &Position<R>) {
        self.layout.update(patterns, Layout::men(before), Layout::men(after));
    }

    /// The score of `position`, whose pattern indices are `patterns` (kept up to date through
    /// the search's moves by [`Layout::update`]), for the side to move.
    #[inline]
    pub fn evaluate_with(&self, position: &Position<R>, patterns: &Patterns) -> i32 {
        let weights = &*self.weights;
        let features =
            self.layout.features_with(position, *patterns, weights.dense_terms, weights.drawish);
        let mut kings = [0i32; 2];
        if !weights.king_squares.is_empty() && position.kings().any() {
            for (slot, sign) in self.layout.king_entries(position) {
                let [o, e] = weights.king_squares[slot as usize];
                kings[0] += i32::from(sign) * i32::from(o);
                kings[1] += i32::from(sign) * i32::from(e);
            }
        }
        let white = self.score_white_with(&features, kings);
        if position.side_to_move() == Side::White { white } else { -white }
    }

    /// The score of `features` from White's side (no king square table).
    #[inline(always)]
    pub fn score_white(&self, features: &Features) -> i32 {
        self.score_white_with(features, [0, 0])
    }

    /// The score of `features` and `kings`, the king square table's opening and endgame sums,
    /// from White's side.
    #[inline(always)]
    fn score_white_with(&self, features: &Features, kings: [i32; 2]) -> i32 {
        let weights = &*self.weights;
        let [mut opening, mut endgame] = kings;
        let regions = weights.regions;
        for (region, &pattern) in features.patterns[..regions].iter().enumerate() {
            let [o, e] = weights.table[region * PATTERNS + pattern as usize];
            opening += o as i32;
            endgame += e as i32;
        }
        let flanks = &weights.table[regions * PATTERNS..];
        for (flank, &pattern) in
            features.patterns[regions..regions + weights.flanks].iter().enumerate()
        {
            let [o, e] = flanks[flank * FLANK_PATTERNS + pattern as usize];
            opening += o as i32;
            endgame += e as i32;
        }
        for (term, &value) in features.dense.iter().enumerate() {
            opening += weights.dense[term][0] * value as i32;
            endgame += weights.dense[term][1] * value as i32;
        }
        let start = self.layout.start_pieces as i32;
        let pieces = (features.pieces as i32).min(start);
        let blend = (opening * pieces + endgame * (start - pieces)) / start;
        if weights.drawish {
            blend / i32::from(features.divisors[usize::from(blend < 0)])
        } else {
            blend
        }
    }
}

impl RowTables {
    /// The tables of `R`'s board, or None where rows are too wide, not consecutive bits, or
    /// the regions are not bands of four rows every second row.
    fn new<R: Rules>(
        regions: &[[u32; REGION_SQUARES]],
        places: &[[(u8, u16); MAX_SHARING]],
        spare: u8,
    ) -> Option<RowTables> {
        let (rows, columns) = (R::Geo::ROWS, R::Geo::COLUMNS);
        if R::Geo::ORTHOGONAL || columns / 2 > 5 || <Bits<R> as BitSet>::WIDTH > 64 {
            return None;
        }
        let width = columns / 2;
        let windows = (columns as usize - 4) / 2 + 1;
        if regions.len() != windows * (rows as usize - 2) / 2 || 2 * windows > ROW_RUN {
            return None;
        }
        let mut row_starts = Vec::new();
        let mut table = Vec::with_capacity(rows as usize * (1 << (2 * width)));
        for row in 0..rows {
            let bits: Vec<u32> =
                (0..columns).filter_map(|c| R::Geo::at(row, c)).map(R::Geo::bit).collect();
            let first = *bits.first()?;
            if bits.len() != width as usize || bits.iter().zip(first..).any(|(&b, n)| b != n) {
                return None;
            }
            // The run starts at the band above this row's (padded by `windows` slots).
            let start = (row as usize / 2) * windows;
            if start + ROW_RUN > PADDED {
                return None;
            }
            for pair in 0u32..1 << (2 * width) {
                let (white, black) = (pair & ((1 << width) - 1), pair >> width);
                let mut adds = [0u16; ROW_RUN];
                for (men, digit) in [(white, 1), (black, 2)] {
                    for (index, &bit) in bits.iter().enumerate() {
                        if men & (1 << index) == 0 || white & black != 0 {
                            continue;
                        }
                        for &(region, power) in &places[bit as usize] {
                            if region == spare {
                                continue;
                            }
                            let slot = (windows + region as usize).checked_sub(start)?;
                            *adds.get_mut(slot)? += digit * power;
                        }
                    }
                }
                table.push(adds);
            }
            row_starts.push((first, start));
        }
        Some(RowTables { width, windows, rows: row_starts, table })
    }
}

pub use crate::checksum::Fnv;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{English, International, Turkish};

    /// The row tables give the same indices as the sums a man at a time, over random games of
    /// every rule set; they serve every 8x8 and 10x10 diagonal board.
    #[test]
    fn row_tables_equal_the_sums_by_man() {
        fn check<R: Rules>() {
            check_reading(&Layout::<R>::new());
            check_reading(&Layout::<R>::with_flanks());
        }
        fn check_reading<R: Rules>(layout: &Layout<R>) {
            let diagonal = !R::Geo::ORTHOGONAL && R::Geo::COLUMNS <= 10;
            assert_eq!(layout.rows.is_some(), diagonal, "{}", R::VARIANT.name());
            let mut state = 0x9e37_79b9_7f4a_7c15_u64 ^ u64::from(R::Geo::SQUARES);
            for _ in 0..40 {
                let mut position = Position::<R>::start();
                for _ in 0..120 {
                    let kings = position.kings();
                    let white = position.pieces(Side::White) & !kings;
                    let black = position.pieces(Side::Black) & !kings;
                    assert_eq!(
                        layout.patterns(white, black),
                        layout.patterns_by_man(white, black),
                        "{} {position:?}",
                        R::VARIANT.name()
                    );
                    let moves = crate::movegen::legal_moves(&position);
                    if moves.is_empty() {
                        break;
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    position.play(&moves.as_slice()[(state % moves.len() as u64) as usize]);
                }
            }
        }
        for &variant in Variant::ALL {
            crate::with_variant!(variant, R => check::<R>());
        }
    }

    fn check_layout<R: Rules>(regions: usize) {
        let layout = Layout::<R>::new();
        assert_eq!(layout.regions(), regions, "{}", R::VARIANT.name());
        // Every square is in one region at least, four at most; each region has 8 squares.
        let mut count = vec![0; R::Geo::SQUARES as usize];
        for region in layout.region_squares() {
            let mut sorted = region.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), REGION_SQUARES);
            for &square in region {
                count[square as usize] += 1;
            }
        }
        assert!(count.iter().all(|&c| (1..=MAX_SHARING).contains(&c)), "{count:?}");
        // The patterns read back square by square.
        let start = Position::<R>::start();
        let features = layout.features(&start);
        for (index, region) in layout.region_squares().iter().enumerate() {
            let mut pattern = features.patterns[index] as u32;
            for &square in region {
                let bit = R::Geo::bit(square);
                let digit = match start.piece_at(bit) {
                    None => 0,
                    Some((Side::White, _)) => 1,
                    Some((Side::Black, _)) => 2,
                };
                assert_eq!(pattern % 3, digit);
                pattern /= 3;
            }
        }
        assert_eq!(features.dense[0], 0);
        assert_eq!(features.pieces as u32, layout.start_pieces());
    }

    /// The score the slow way: every region's pattern read square by square.
    fn reference_score<R: Rules>(pattern: &Pattern<R>, position: &Position<R>) -> i32 {
        let weights = pattern.weights();
        let (mut opening, mut endgame) = (0, 0);
        let code = |squares: &[u32]| {
            let mut code = 0usize;
            for &square in squares.iter().rev() {
                let digit = match position.piece_at(R::Geo::bit(square)) {
                    Some((Side::White, crate::board::types::Piece::Man)) => 1,
                    Some((Side::Black, crate::board::types::Piece::Man)) => 2,
                    _ => 0,
                };
                code = code * 3 + digit;
            }
            code
        };
        for (index, region) in pattern.layout().region_squares().iter().enumerate() {
            let [o, e] = weights.table[index * PATTERNS + code(region)];
            opening += o as i32;
            endgame += e as i32;
        }
        let flanks_at = weights.regions * PATTERNS;
        for (index, flank) in pattern.layout().flank_squares().iter().enumerate() {
            let [o, e] = weights.table[flanks_at + index * FLANK_PATTERNS + code(flank)];
            opening += o as i32;
            endgame += e as i32;
        }
        let count = |side: Side, king: bool| {
            (0..R::Geo::SQUARES)
                .filter(|&square| {
                    position.piece_at(R::Geo::bit(square)).is_some_and(|(s, piece)| {
                        s == side && (piece == crate::board::types::Piece::King) == king
                    })
                })
                .count() as i32
        };
        let men = count(Side::White, false) - count(Side::Black, false);
        let kings = count(Side::White, true) - count(Side::Black, true);
        let tempo = if position.side_to_move() == Side::White { 1 } else { -1 };
        let first_king =
            i32::from(count(Side::White, true) > 0) - i32::from(count(Side::Black, true) > 0);
        let skew = |side: Side| -> i32 {
            (0..R::Geo::SQUARES)
                .filter(|&square| {
                    position.piece_at(R::Geo::bit(square))
                        == Some((side, crate::board::types::Piece::Man))
                })
                .map(|square| 2 * R::Geo::coords(square).1 as i32 - (R::Geo::COLUMNS as i32 - 1))
                .sum()
        };
        let balance = skew(Side::Black).abs() - skew(Side::White).abs();
        let (safe, exposed) = reference_king_reach(position);
        let values = [men, kings, tempo, first_king, balance, safe, exposed];
        for (term, value) in values.into_iter().enumerate() {
            opening += weights.dense[term][0] * value;
            endgame += weights.dense[term][1] * value;
        }
        // The king square table: a Black king reads the slot of the square a half turn of
        // the board takes it to, counted from the top row as White's from the bottom.
        if !weights.king_squares.is_empty() {
            for square in 0..R::Geo::SQUARES {
                let bit = R::Geo::bit(square);
                let (row, column) = R::Geo::coords(square);
                let (slot, sign) = match position.piece_at(bit) {
                    Some((Side::White, crate::board::types::Piece::King)) => (square, 1),
                    Some((Side::Black, crate::board::types::Piece::King)) => {
                        let turned =
                            R::Geo::at(R::Geo::ROWS - 1 - row, R::Geo::COLUMNS - 1 - column);
                        (turned.expect("boards are symmetric under a half turn"), -1)
                    }
                    _ => continue,
                };
                let [o, e] = weights.king_squares[slot as usize];
                opening += sign * i32::from(o);
                endgame += sign * i32::from(e);
            }
        }
        let start = pattern.layout().start_pieces() as i32;
        let pieces = position.occupied().count() as i32;
        let mut white = (opening * pieces + endgame * (start - pieces)) / start;
        if R::FLYING_KINGS && weights.drawish {
            let counts = |side| (count(side, false) as u32, count(side, true) as u32);
            let divisors = drawish_divisors(counts(Side::White), counts(Side::Black));
            white /= i32::from(divisors[usize::from(white < 0)]);
        }
        if position.side_to_move() == Side::White { white } else { -white }
    }

    /// The kings' safe and exposed quiet squares, White's minus Black's, a square at a time:
    /// each king walks each direction over empty squares (one step where kings do not fly),
    /// and a square it reaches is exposed where an enemy man beside it, capturing that way,
    /// has an empty square to land on behind it.
    fn reference_king_reach<R: Rules>(position: &Position<R>) -> (i32, i32) {
        use crate::board::geometry::{opposite, step};
        let one = |bit: u32, dir: usize| -> Option<u32> {
            let next = step::<R::Geo>(Bits::<R>::single(bit), dir);
            next.any().then(|| next.lowest())
        };
        let empty = |bit: u32| position.piece_at(bit).is_none();
        let (mut safe, mut exposed) = (0, 0);
        for side in [Side::White, Side::Black] {
            let sign = if side == Side::White { 1 } else { -1 };
            let enemy = if side == Side::White { Side::Black } else { Side::White };
            let captures_towards =
                |dir: usize| crate::movegen::man_capture_directions::<R>(enemy)[dir];
            for square in 0..R::Geo::SQUARES {
                let bit = R::Geo::bit(square);
                if position.piece_at(bit) != Some((side, crate::board::types::Piece::King)) {
                    continue;
                }
                for dir in 0..4 {
                    let mut at = bit;
                    while let Some(next) = one(at, dir).filter(|&next| empty(next)) {
                        let open = (0..4).any(|d| {
                            let man = one(next, d).is_some_and(|m| {
                                position.piece_at(m)
                                    == Some((enemy, crate::board::types::Piece::Man))
                            });
                            let behind = one(next, opposite(d)).is_some_and(empty);
                            man && behind && captures_towards(opposite(d))
                        });
                        if open {
                            exposed += sign
                        } else {
                            safe += sign
                        }
                        if !R::FLYING_KINGS {
                            break;
                        }
                        at = next;
                    }
                }
            }
        }
        (safe, exposed)
    }

    /// Random weights for `R`'s layout with the flank regions (none on Turkish's board).
    fn random_weights<R: Rules>(seed: u64) -> Pattern<R> {
        let mut weights = PatternWeights::material_only::<R>(100, 250);
        let layout = Layout::<R>::with_flanks();
        weights.feature_set = layout.feature_set();
        weights.flanks = layout.flanks();
        weights.table.resize(layout.table_len(), [0, 0]);
        let mut state = seed;
        for pair in &mut weights.table {
            state = crate::matchplay::openings::next_random(state);
            *pair = [(state >> 40) as i16 % 50, (state >> 20) as i16 % 50];
        }
        weights.dense[2] = [4, 9];
        weights.dense[3] = [40, 90];
        weights.dense[4] = [-3, 2];
        weights.dense[5] = [5, 11];
        weights.dense[6] = [-7, -13];
        weights.king_squares = (0..Layout::<R>::new().king_squares())
            .map(|slot| {
                state = crate::matchplay::openings::next_random(state ^ slot as u64);
                [(state >> 40) as i16 % 30, (state >> 20) as i16 % 30]
            })
            .collect();
        Pattern::new(weights).unwrap()
    }

    #[test]
    fn the_evaluation_equals_a_square_by_square_reading_in_every_rule_set() {
        fn check<R: Rules>() {
            let pattern = random_weights::<R>(R::VARIANT as u64 + 1);
            let mut state = 99u64;
            for _ in 0..20 {
                let mut position = Position::<R>::start();
                for _ in 0..200 {
                    assert_eq!(
                        pattern.evaluate(&position),
                        reference_score(&pattern, &position),
                        "{}: {}",
                        R::VARIANT.name(),
                        crate::notation::fen::write(&position)
                    );
                    let list = crate::movegen::legal_moves(&position);
                    if list.is_empty() {
                        break;
                    }
                    state = crate::matchplay::openings::next_random(state);
                    position.play(&list.as_slice()[(state >> 33) as usize % list.len()]);
                }
            }
        }
        for &variant in crate::rules::Variant::ALL {
            crate::with_variant!(variant, R => check::<R>());
        }
    }

    /// The indices kept up to date move by move equal those read from the board, and so does
    /// the score, over random games of every rule set (captures of men and kings, promotions,
    /// kings' moves that change no pattern).
    #[test]
    fn the_incremental_evaluation_equals_the_full_one_in_every_rule_set() {
        fn check<R: Rules>() {
            let pattern = random_weights::<R>(R::VARIANT as u64 + 7);
            let mut state = 0x5851_f42d_4c95_7f2d_u64 ^ R::VARIANT as u64;
            let (mut plies, mut promotions) = (0, 0);
            for _ in 0..30 {
                let mut position = Position::<R>::start();
                let mut patterns = pattern.patterns(&position);
                for _ in 0..250 {
                    let list = crate::movegen::legal_moves(&position);
                    if list.is_empty() {
                        break;
                    }
                    state = crate::matchplay::openings::next_random(state);
                    let mut child = position;
                    child.play(&list.as_slice()[(state >> 33) as usize % list.len()]);
                    pattern.update(&mut patterns, &position, &child);
                    let name = R::VARIANT.name();
                    let fen = crate::notation::fen::write(&child);
                    assert_eq!(patterns, pattern.patterns(&child), "{name}: {fen}");
                    let full = pattern.evaluate(&child);
                    assert_eq!(pattern.evaluate_with(&child, &patterns), full, "{name}: {fen}");
                    promotions += (child.kings().count() > position.kings().count()) as u32;
                    plies += 1;
                    position = child;
                }
            }
            // The games went far enough to crown men, where the rule set has kings at all.
            assert!(plies > 1000, "{}: {plies} plies", R::VARIANT.name());
            assert!(promotions > 0 || R::VARIANT == Variant::Breakthrough, "{}", R::VARIANT.name());
        }
        for &variant in crate::rules::Variant::ALL {
            crate::with_variant!(variant, R => check::<R>());
        }
    }

    /// Scan's drawish material: the divisors by side, and none without an enemy king.
    #[test]
    fn drawish_material_divides_the_side_ahead() {
        // (men, kings) of White, of Black -> divisors of a White score, of a Black score.
        // Three pieces against a king, either side: by 8.
        assert_eq!(drawish_divisors((2, 1), (0, 1)), [8, 8]);
        // Four against one king, men three apart: White's score stands, Black's by 8.
        assert_eq!(drawish_divisors((3, 1), (0, 1)), [1, 8]);
        // Equal kings and men one apart: by 2 (Black, with three pieces, by 8).
        assert_eq!(drawish_divisors((3, 1), (2, 1)), [2, 8]);
        assert_eq!(drawish_divisors((4, 1), (3, 1)), [2, 2]);
        assert_eq!(drawish_divisors((3, 1), (1, 1)), [1, 8]);
        assert_eq!(drawish_divisors((5, 0), (0, 1)), [1, 1]);
        assert_eq!(drawish_divisors((0, 3), (2, 0)), [1, 8]);
        assert_eq!(drawish_divisors((6, 0), (5, 0)), [1, 1]);
    }

    /// The skew by population counts equals the sum man by man, on the start positions.
    #[test]
    fn the_start_positions_are_balanced() {
        fn check<R: Rules>() {
            let layout = Layout::<R>::new();
            let (white, black) = Layout::men(&Position::<R>::start());
            // Every start position of these boards is left-right symmetric up to a shift of
            // one column per row, so its skew is small; and a lone man on the left edge
            // leans all the way left.
            assert!(layout.skew(white).abs() <= R::Geo::ROWS as i16, "{}", R::VARIANT.name());
            assert!(layout.skew(black).abs() <= R::Geo::ROWS as i16, "{}", R::VARIANT.name());
            let left = (0..R::Geo::SQUARES).find(|&s| R::Geo::coords(s).1 == 0).unwrap();
            let one = Bits::<R>::single(R::Geo::bit(left));
            assert_eq!(layout.skew(one), -(R::Geo::COLUMNS as i16 - 1));
        }
        for &variant in Variant::ALL {
            crate::with_variant!(variant, R => check::<R>());
        }
    }

    /// The flank regions: four of nine distinct squares on every diagonal board, each the
    /// three outer columns of six edge rows; none on Turkish's; and another feature set.
    #[test]
    fn flank_regions_are_nine_squares_at_the_edges() {
        fn check<R: Rules>() {
            let layout = Layout::<R>::with_flanks();
            let name = R::VARIANT.name();
            if R::Geo::ORTHOGONAL {
                assert_eq!(layout.flanks(), 0, "{name}");
                return;
            }
            assert_eq!(layout.flanks(), MAX_FLANKS, "{name}");
            assert_ne!(layout.feature_set(), Layout::<R>::new().feature_set(), "{name}");
            for flank in layout.flank_squares() {
                let mut sorted = flank.to_vec();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), FLANK_SQUARES, "{name}");
                for &square in flank {
                    let (row, column) = R::Geo::coords(square);
                    let edge_row = row < 6 || row >= R::Geo::ROWS - 6;
                    let edge_column = column < 3 || column >= R::Geo::COLUMNS - 3;
                    assert!(edge_row && edge_column, "{name}: square {square}");
                }
            }
        }
        for &variant in Variant::ALL {
            crate::with_variant!(variant, R => check::<R>());
        }
        // International's top-left flank region is Scan's first: 1, 6, 7, 11, 16, 17, 21, 26, 27.
        let layout = Layout::<International>::with_flanks();
        let mut first: Vec<u32> = layout.flank_squares()[0].iter().map(|s| s + 1).collect();
        first.sort_unstable();
        assert_eq!(first, [1, 6, 7, 11, 16, 17, 21, 26, 27]);
    }

    #[test]
    fn regions_cover_every_board() {
        check_layout::<English>(9);
        check_layout::<International>(16);
        check_layout::<Turkish>(21);
        check_layout::<crate::rules::Canadian>(25);
    }

    #[test]
    fn weights_for_another_rule_set_are_refused() {
        let weights = PatternWeights::material_only::<English>(100, 150);
        assert!(Pattern::<English>::new(weights.clone()).is_ok());
        let error = Pattern::<International>::new(weights).unwrap_err();
        assert!(error.0.contains("english"), "{}", error.0);
    }

    /// One king square table serves both colours: a position and its colour-flipped twin
    /// score the same, and a king on a square its table favours scores that much more.
    #[test]
    fn the_king_square_table_is_the_same_for_both_colours() {
        fn check<R: Rules>(fen: &str, square: u32) {
            let mut weights = PatternWeights::material_only::<R>(100, 250);
            let layout = Layout::<R>::new();
            weights.king_squares =
                (0..layout.king_squares()).map(|slot| [slot as i16, 2 * slot as i16]).collect();
            let pattern = Pattern::<R>::new(weights).unwrap();
            let position = crate::notation::fen::parse::<R>(fen).unwrap();
            let flipped = position.color_flipped();
            assert_eq!(pattern.evaluate(&position), pattern.evaluate(&flipped), "{fen}");
            let entries: Vec<(u16, i8)> = layout.king_entries(&position).collect();
            let turned: Vec<(u16, i8)> = layout.king_entries(&flipped).collect();
            assert!(entries.contains(&(square as u16, 1)), "{fen}: {entries:?}");
            assert!(turned.contains(&(square as u16, -1)), "{fen}: {turned:?}");
        }
        // White's king on English square 1 (index 0), Black's on 32: each on the other's back
        // rank; International's on 46 (index 45).
        check::<English>("W:WK1,20:BK32,10", 0);
        check::<International>("B:WK46,33:B19,K5", 45);
    }

    #[test]
    fn material_only_weights_count_material() {
        let pattern =
            Pattern::<English>::new(PatternWeights::material_only::<English>(100, 150)).unwrap();
        let position = crate::notation::fen::parse::<English>("W:W18,K1:B5").unwrap();
        assert_eq!(pattern.evaluate(&position), 150);
        assert_eq!(pattern.evaluate(&position.color_flipped()), 150);
    }
}
