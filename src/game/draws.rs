//! Draw and game-end rules of each variant, as data: how many repetitions draw, how many plies
//! without a capture or a man move draw, and the endgame counts of the federations.
//!
//! Defaults follow what our users' sites state (lidraughts', PlayOK's and the federations'
//! rules pages); every counter is a public field, because sites differ (English alone is played
//! with 40, 50, 80 and 120-ply limits). A "move" in a rulebook is one move by each side, so "25
//! moves" is 50 plies; the sites' "120 king moves" are read as 120 plies. Depends on `rules` and
//! `types` only.

use crate::rules::Variant;

/// Pieces of each kind on the board: what the endgame rules look at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Material {
    /// White men.
    pub white_men: u32,
    /// White kings.
    pub white_kings: u32,
    /// Black men.
    pub black_men: u32,
    /// Black kings.
    pub black_kings: u32,
    /// White's only piece is a king standing on the long diagonal (a1-h8 on 8x8 boards): the
    /// Russian Kodeks gives such a king a shorter count.
    pub white_lone_king_on_long_diagonal: bool,
    /// The same for Black.
    pub black_lone_king_on_long_diagonal: bool,
}

impl Material {
    /// The material of a position.
    pub fn of<R: crate::rules::Rules>(position: &crate::position::Position<R>) -> Material {
        use crate::board::bitset::BitSet;
        use crate::board::geometry::Geometry;
        use crate::board::types::Side;
        let kings = position.kings();
        let white = position.pieces(Side::White);
        let black = position.pieces(Side::Black);
        // The long diagonal runs from the near-left corner (bottom row, first column) to the
        // far-right one: row + column = rows - 1 with row 0 at the top.
        let rows = <R::Geo as Geometry>::ROWS;
        let lone_king_on_long_diagonal = |pieces: crate::position::Bits<R>| {
            pieces.count() == 1
                && (pieces & kings).any()
                && <R::Geo as Geometry>::COLUMNS == rows
                && {
                    let (row, column) = R::Geo::coords(R::Geo::square(pieces.lowest()));
                    row + column == rows - 1
                }
        };
        Material {
            white_men: (white & !kings).count(),
            white_kings: (white & kings).count(),
            black_men: (black & !kings).count(),
            black_kings: (black & kings).count(),
            white_lone_king_on_long_diagonal: lone_king_on_long_diagonal(white),
            black_lone_king_on_long_diagonal: lone_king_on_long_diagonal(black),
        }
    }

    /// White's pieces.
    pub fn white(&self) -> u32 {
        self.white_men + self.white_kings
    }

    /// Black's pieces.
    pub fn black(&self) -> u32 {
        self.black_men + self.black_kings
    }

    /// The same material with the colours swapped.
    pub fn swapped(&self) -> Material {
        Material {
            white_men: self.black_men,
            white_kings: self.black_kings,
            black_men: self.white_men,
            black_kings: self.white_kings,
            white_lone_king_on_long_diagonal: self.black_lone_king_on_long_diagonal,
            black_lone_king_on_long_diagonal: self.white_lone_king_on_long_diagonal,
        }
    }
}

/// A test on the material.
pub type MaterialTest = fn(&Material) -> bool;

/// An ending that is drawn unless it is won within a number of plies from the moment it
/// arises (the count restarts whenever the material changes, or when the rule stops applying:
/// the Russian lone king that leaves the long diagonal).
#[derive(Clone, Copy, Debug)]
pub struct EndgameCount {
    /// Its name in messages, e.g. "three kings against a lone king".
    pub name: &'static str,
    /// Does this material (either colour being the stronger side) fall under the rule?
    pub applies: MaterialTest,
    /// Plies allowed.
    pub plies: u32,
    /// The most pieces on the board (both sides) with which the rule can apply: with more, the
    /// material is not computed at all (the middle game). A unit test checks it against
    /// `applies`.
    pub max_pieces: u32,
}

/// Material that is a draw at once, unless the side to move can capture.
#[derive(Clone, Copy, Debug)]
pub struct DeadDraw {
    /// Its name in messages, e.g. "a king against a king".
    pub name: &'static str,
    /// Does this material fall under the rule?
    pub applies: MaterialTest,
    /// The most pieces on the board with which the rule can apply (checked like
    /// [`EndgameCount::max_pieces`]).
    pub max_pieces: u32,
}

/// How a game ends besides running out of moves: every field can be changed.
#[derive(Clone, Debug)]
pub struct DrawRules {
    /// The same position with the same side to move for this many times is a draw (0: never).
    pub repetitions: u32,
    /// Plies in a row without a capture or a man move that draw (None: no such rule).
    pub reversible_plies: Option<u32>,
    /// Endgame counts.
    pub endgames: Vec<EndgameCount>,
    /// Material that is a draw at once.
    pub dead_draw: Option<DeadDraw>,
    /// Turkish: with one piece each, a king against a man wins at once.
    pub king_beats_lone_man: bool,
    /// Frisian: a side that still has men may make at most this many non-capturing king moves
    /// in a row.
    pub king_move_limit: Option<u32>,
}

fn either(material: &Material, test: MaterialTest) -> bool {
    test(material) || test(&material.swapped())
}

/// White has a lone king; Black has `pieces` pieces of which at least one king.
fn lone_king_against(m: &Material, min: u32, max: u32) -> bool {
    m.white_kings == 1
        && m.white_men == 0
        && m.black() >= min
        && m.black() <= max
        && m.black_kings >= 1
}

const FMJD_SIXTEEN: EndgameCount = EndgameCount {
    name: "three pieces with a king against a lone king (FMJD 6.3: 16 moves)",
    applies: |m| either(m, |m| lone_king_against(m, 3, 3)),
    plies: 32,
    max_pieces: 4,
};

const FMJD_FIVE: EndgameCount = EndgameCount {
    name: "two pieces with a king against a lone king (FMJD 6.4: 5 moves)",
    applies: |m| either(m, |m| lone_king_against(m, 1, 2)),
    plies: 10,
    max_pieces: 3,
};

const THREE_KINGS_VS_KING_16: EndgameCount = EndgameCount {
    name: "three kings against a king (16 moves)",
    applies: |m| {
        either(m, |m| {
            m.white() == 1 && m.white_kings == 1 && m.black_kings >= 3 && m.black_men == 0
        })
    },
    plies: 32,
    // A lone king against any number of kings: up to the 30 pieces a side starts with.
    max_pieces: 31,
};

const POOL_THREE_KINGS: EndgameCount = EndgameCount {
    name: "three kings against a king (APCA: 13 moves)",
    applies: |m| {
        either(m, |m| {
            m.white() == 1 && m.white_kings == 1 && m.black_kings == 3 && m.black_men == 0
        })
    },
    plies: 26,
    max_pieces: 4,
};

const FRISIAN_TWO_KINGS: EndgameCount = EndgameCount {
    name: "two kings against a king (7 moves)",
    applies: |m| {
        either(m, |m| {
            m.white() == 1 && m.white_kings == 1 && m.black_kings == 2 && m.black_men == 0
        })
    },
    plies: 14,
    max_pieces: 3,
};

const RUSSIAN_THREE_KINGS: EndgameCount = EndgameCount {
    name: "three or more kings against a lone king (Kodeks: 15 moves)",
    applies: |m| either(m, |m| m.white() == 1 && m.white_kings == 1 && m.black_kings >= 3),
    plies: 30,
    max_pieces: 13,
};

const RUSSIAN_EQUAL_FOUR_FIVE: EndgameCount = EndgameCount {
    name: "equal material, four or five pieces each (Kodeks: 30 moves)",
    applies: |m| {
        m.white() == m.black() && (4..=5).contains(&m.white()) && m.white_kings + m.black_kings > 0
    },
    plies: 60,
    max_pieces: 10,
};

const RUSSIAN_EQUAL_SIX_SEVEN: EndgameCount = EndgameCount {
    name: "equal material, six or seven pieces each (Kodeks: 60 moves)",
    applies: |m| {
        m.white() == m.black() && (6..=7).contains(&m.white()) && m.white_kings + m.black_kings > 0
    },
    plies: 120,
    max_pieces: 14,
};

const RUSSIAN_THREE_VS_DIAGONAL_KING: EndgameCount = EndgameCount {
    name: "three pieces with a king against a lone king on the long diagonal (Kodeks: 5 moves)",
    applies: |m| either(m, |m| lone_king_against(m, 3, 3) && m.white_lone_king_on_long_diagonal),
    plies: 10,
    max_pieces: 4,
};

const RUSSIAN_TWO_VS_KING: EndgameCount = EndgameCount {
    name: "two pieces against a lone king (Kodeks: 5 moves)",
    applies: |m| either(m, |m| m.white() == 1 && m.white_kings == 1 && m.black() == 2),
    plies: 10,
    max_pieces: 3,
};

/// The limit on one king's non-capturing moves in a row while its side has men, in `variant`'s
/// own rules: Frisian's three (mindsports.nl "Frisian", Wikipedia "Frisian draughts"), none elsewhere. A `const fn`, so that code generic
/// over a rule set (the endgame databases) knows it when it is compiled.
pub const fn king_move_limit(variant: Variant) -> Option<u32> {
    match variant {
        Variant::Frisian | Variant::Frysk => Some(3),
        _ => None,
    }
}

impl DrawRules {
    /// Threefold repetition and nothing else.
    pub fn repetition_only() -> DrawRules {
        DrawRules {
            repetitions: 3,
            reversible_plies: None,
            endgames: Vec::new(),
            dead_draw: None,
            king_beats_lone_man: false,
            king_move_limit: None,
        }
    }

    /// The defaults for a variant, as our users' sites state them.
    pub fn for_variant(variant: Variant) -> DrawRules {
        let base = DrawRules::repetition_only();
        match variant {
            // rules.md 0: 40 moves in total without a capture or man move (automatic draw).
            Variant::English | Variant::EnglishLosing => {
                DrawRules { reversible_plies: Some(80), ..base }
            }
            // rules.md 0: threefold or 120 king moves without capture.
            Variant::International
            | Variant::Brazilian
            | Variant::Russian
            | Variant::Killer
            | Variant::Breakthrough => DrawRules { reversible_plies: Some(120), ..base },
            Variant::Turkish => DrawRules {
                reversible_plies: Some(120),
                dead_draw: Some(DeadDraw {
                    name: "one piece each of the same kind",
                    applies: |m| m.white() == 1 && m.black() == 1 && m.white_kings == m.black_kings,
                    max_pieces: 2,
                }),
                king_beats_lone_man: true,
                ..base
            },
            // DCTL: 80 reversible plies (FID reg. 10.4).
            Variant::Italian => DrawRules { reversible_plies: Some(80), ..base },
            // FMJD page: 15 moves without a man move or capture.
            Variant::Czech => DrawRules { reversible_plies: Some(30), ..base },
            Variant::Pool => DrawRules { endgames: vec![POOL_THREE_KINGS], ..base },
            Variant::Canadian => DrawRules { endgames: vec![THREE_KINGS_VS_KING_16], ..base },
            Variant::Frisian | Variant::Frysk => DrawRules {
                endgames: vec![FRISIAN_TWO_KINGS],
                dead_draw: Some(DeadDraw {
                    name: "a king against a king",
                    applies: |m| {
                        m.white() == 1 && m.black() == 1 && m.white_kings == 1 && m.black_kings == 1
                    },
                    max_pieces: 2,
                }),
                king_move_limit: king_move_limit(variant),
                ..base
            },
            Variant::Spanish | Variant::Portuguese | Variant::Thai | Variant::Antidraughts => base,
        }
    }

    /// The federation's own counts where they differ from the sites' defaults: FMJD article 6
    /// for International and its relatives (25 king moves each, 16 and 5 moves in the small
    /// endings), the Brazilian 20 moves, the Russian Kodeks.
    pub fn federation(variant: Variant) -> DrawRules {
        let base = DrawRules::for_variant(variant);
        match variant {
            Variant::International | Variant::Killer | Variant::Breakthrough => DrawRules {
                reversible_plies: Some(50),
                endgames: vec![FMJD_SIXTEEN, FMJD_FIVE],
                ..base
            },
            Variant::Brazilian => DrawRules {
                reversible_plies: Some(40),
                endgames: vec![FMJD_SIXTEEN, FMJD_FIVE],
                ..base
            },
            Variant::Russian => DrawRules {
                reversible_plies: Some(30),
                endgames: vec![
                    RUSSIAN_THREE_KINGS,
                    RUSSIAN_EQUAL_FOUR_FIVE,
                    RUSSIAN_EQUAL_SIX_SEVEN,
                    RUSSIAN_THREE_VS_DIAGONAL_KING,
                    RUSSIAN_TWO_VS_KING,
                ],
                ..base
            },
            _ => base,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitset::BitSet;

    /// Every material with up to `most` pieces a side, with each long-diagonal flag.
    fn materials(most: u32) -> impl Iterator<Item = Material> {
        let range = move || 0..=most;
        range()
            .flat_map(move |white_men| {
                range().flat_map(move |white_kings| {
                    range().flat_map(move |black_men| {
                        range().flat_map(move |black_kings| {
                            (0..4).map(move |flags| Material {
                                white_men,
                                white_kings,
                                black_men,
                                black_kings,
                                white_lone_king_on_long_diagonal: flags & 1 == 1,
                                black_lone_king_on_long_diagonal: flags & 2 == 2,
                            })
                        })
                    })
                })
            })
            .filter(move |m| m.white() <= most && m.black() <= most)
    }

    #[test]
    fn no_material_rule_applies_with_more_pieces_than_it_declares() {
        for &variant in Variant::ALL {
            let per_side = crate::with_variant!(variant, R => {
                crate::position::Position::<R>::start().pieces(crate::board::types::Side::White).count()
            });
            for draws in [DrawRules::for_variant(variant), DrawRules::federation(variant)] {
                let mut rules: Vec<(&str, MaterialTest, u32)> =
                    draws.endgames.iter().map(|r| (r.name, r.applies, r.max_pieces)).collect();
                rules.extend(draws.dead_draw.map(|d| (d.name, d.applies, d.max_pieces)));
                for (name, applies, max_pieces) in rules {
                    for material in materials(per_side) {
                        let pieces = material.white() + material.black();
                        assert!(
                            pieces <= max_pieces || !applies(&material),
                            "{variant:?} {name}: applies to {material:?}, {pieces} pieces"
                        );
                    }
                }
            }
        }
    }
}
