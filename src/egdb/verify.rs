//! The consistency check of solved slices, independent of how they were built: every value
//! must follow from its successors' values by the rules of the game. A win in d plies needs a
//! successor lost for the opponent in d - 1 (or one in a smaller slice: distance 0) and the
//! shortest such; a loss in d plies needs every successor won for the opponent, the longest in
//! d - 1; a draw needs no successor lost for the opponent and one not won for them. Positions
//! the rules decide at once must hold that verdict. These equations have one solution, so a
//! table that passes is right (given the smaller slices and the move generator). A table
//! stored without distances is checked on outcomes alone, which is weaker: a cycle of drawn
//! positions labelled won and lost in turn would pass it.
//!
//! Depends on `egdb` and the rules library; must not depend on search or I/O.

use super::build::settled_at_once;
use super::index::{Slice, Streaks, canonical_with};
use super::{
    Egdb, Outcome, Table, Value, counters_of, position_rules, stored_in_files, streaks_after,
};
use crate::board::moves::MoveList;
use crate::game::rules::GameRules;
use crate::position::{Bits, Position};
use crate::rules::Rules;
use rayon::prelude::*;

/// A position whose stored value does not follow from its successors.
#[derive(Clone, Debug)]
pub struct Inconsistency {
    /// Its slice.
    pub slice: Slice,
    /// Its number.
    pub index: u64,
    /// What is stored.
    pub stored: Value,
    /// What the successors say (None: a successor's slice is missing).
    pub expected: Option<Value>,
}

/// The value `position` (White to move) with `streaks` must have, from its successors in
/// `egdb`; None when a successor's slice is missing. `rules` are [`position_rules`]; `moves` is
/// scratch, one list per worker rather than an allocation per position.
pub fn expected_value<R: Rules>(
    egdb: &Egdb<R>,
    rules: &GameRules,
    position: &Position<R>,
    streaks: &Streaks,
    moves: &mut MoveList<Bits<R>>,
) -> Option<Value> {
    if let Some(value) = settled_at_once(rules, position, streaks) {
        return Some(value);
    }
    let slice = Slice::of(position);
    let counters = counters_of(streaks);
    rules.legal_moves_into(position, &counters, moves);
    let (mut shortest_win, mut longest_loss, mut all_won_for_them) = (None::<u32>, 0, true);
    for mv in moves.iter() {
        let mut after = *position;
        after.play_unhashed(mv);
        let next = streaks_after(rules, streaks, position, mv);
        let reply = egdb.probe(&after, &next)?;
        let same_slice = Slice::of(&canonical_with(&after, &next).0) == slice.swapped();
        let distance = if same_slice { reply.distance() } else { 0 };
        match reply.outcome() {
            Outcome::Loss => {
                shortest_win = Some(shortest_win.map_or(distance, |d: u32| d.min(distance)));
            }
            Outcome::Win => longest_loss = longest_loss.max(distance),
            Outcome::Draw => all_won_for_them = false,
        }
    }
    Some(match shortest_win {
        Some(d) => Value::win(d + 1),
        None if all_won_for_them => Value::loss(longest_loss + 1),
        None => Value::DRAW,
    })
}

/// Checks every position of `table` against its successors in `egdb` (which must hold the
/// table's own slice and those its moves lead into); returns the positions in the table, those
/// checked, and the first few inconsistencies. The positions a file leaves out (see [`stored_in_files`]) are
/// not checked: a probe answers them from their captures, the way the build settles them.
/// Where the table holds no distances, the outcome is checked.
pub fn verify_table<R: Rules>(egdb: &Egdb<R>, table: &Table) -> (u64, u64, Vec<Inconsistency>) {
    let slice = table.index.slice();
    let rules = position_rules::<R>();
    let (positions, checked, mut wrong) = (0..table.index.size() as usize)
        .into_par_iter()
        .with_min_len(1024)
        .fold(
            || (0u64, 0u64, Vec::new(), MoveList::new()),
            |(mut positions, mut checked, mut wrong, mut moves), i| {
                let i = i as u64;
                let entry = table.index.entry::<R>(i);
                positions += u64::from(entry.is_some());
                let entry = entry.filter(|(position, streaks)| {
                    table.captures_stored || stored_in_files(&rules, position, streaks)
                });
                if let (Some((position, streaks)), Some(stored)) = (entry, table.value(i)) {
                    checked += 1;
                    let expected = expected_value(egdb, &rules, &position, &streaks, &mut moves);
                    // Without distances, the outcome is all there is to check.
                    let agrees = expected.is_some_and(|expected| {
                        if stored.has_distance() {
                            expected == stored
                        } else {
                            expected.outcome() == stored.outcome()
                        }
                    });
                    if !agrees && wrong.len() < 10 {
                        wrong.push(Inconsistency { slice, index: i, stored, expected });
                    }
                }
                (positions, checked, wrong, moves)
            },
        )
        .map(|(positions, checked, wrong, _)| (positions, checked, wrong))
        .reduce(
            || (0, 0, Vec::new()),
            |(p, a, mut wa), (q, b, wb)| {
                wa.extend(wb);
                (p + q, a + b, wa)
            },
        );
    wrong.truncate(10);
    (positions, checked, wrong)
}
