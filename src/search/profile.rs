//! The tree profile: where a search's nodes go, per iteration (nodes of the main search and of
//! the capture search, leaves, cutoffs on the first move, re-searches, table hits, the cuts of
//! each pruning and the depth they cut at, positions with a capture pending).
//!
//! Counted only in a build with the `profile` feature (`tools/tree-profile.sh` builds one and
//! runs `damas bench --profile`): the counters cost the node loop about a dozen increments,
//! which the normal build does not pay, and they never change what the search does (the bench
//! signature is the same with and without them). Depends on nothing; the searcher counts into
//! it, the engine sums its threads' profiles.

use std::fmt::Write;

/// What one iteration's search did. The interior nodes are those of the main search (depth
/// left); `leaves` are the positions evaluated at the horizon, `quiescence` the nodes of the
/// capture search below it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Main-search nodes counted (table cuts and static cuts included).
    pub interior: u64,
    /// Of those, nodes where the side to move must capture.
    pub interior_capture: u64,
    /// Quiet positions evaluated at the horizon.
    pub leaves: u64,
    /// Capture-search nodes (positions below the horizon with a capture due).
    pub quiescence: u64,
    /// Table probes at interior nodes.
    pub tt_probes: u64,
    /// Of those, probes that found the position.
    pub tt_hits: u64,
    /// Of those, probes whose entry ended the node.
    pub tt_cuts: u64,
    /// Static cuts near the horizon.
    pub static_cuts: u64,
    /// The sum of the depths they cut at.
    pub static_cut_depth: u64,
    /// ProbCut shallow searches tried.
    pub probcut_tries: u64,
    /// Of those, the ones that cut.
    pub probcut_cuts: u64,
    /// The sum of the depths they cut at.
    pub probcut_cut_depth: u64,
    /// Interior nodes whose moves were searched.
    pub searched: u64,
    /// Of those, the ones that failed high.
    pub cutoffs: u64,
    /// Of those, the ones that failed high on their first move.
    pub first_move_cutoffs: u64,
    /// Moves searched at interior nodes (for the mean number searched per node).
    pub moves_searched: u64,
    /// Late moves searched with a reduction.
    pub reduced: u64,
    /// Reduced searches that beat alpha and were searched again at full depth.
    pub reduced_researches: u64,
    /// Null-window searches that landed inside the window and were searched again on it.
    pub pvs_researches: u64,
    /// Root searches again after failing outside the aspiration window.
    pub aspiration_researches: u64,
    /// Forced moves extended by a ply.
    pub single_reply_extensions: u64,
    /// Exchanges and crowning moves searched at quiet leaves (`qs-exchanges`).
    pub exchanges: u64,
}

impl Counts {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Counts) {
        let Counts {
            interior,
            interior_capture,
            leaves,
            quiescence,
            tt_probes,
            tt_hits,
            tt_cuts,
            static_cuts,
            static_cut_depth,
            probcut_tries,
            probcut_cuts,
            probcut_cut_depth,
            searched,
            cutoffs,
            first_move_cutoffs,
            moves_searched,
            reduced,
            reduced_researches,
            pvs_researches,
            aspiration_researches,
            single_reply_extensions,
            exchanges,
        } = other;
        self.interior += interior;
        self.interior_capture += interior_capture;
        self.leaves += leaves;
        self.quiescence += quiescence;
        self.tt_probes += tt_probes;
        self.tt_hits += tt_hits;
        self.tt_cuts += tt_cuts;
        self.static_cuts += static_cuts;
        self.static_cut_depth += static_cut_depth;
        self.probcut_tries += probcut_tries;
        self.probcut_cuts += probcut_cuts;
        self.probcut_cut_depth += probcut_cut_depth;
        self.searched += searched;
        self.cutoffs += cutoffs;
        self.first_move_cutoffs += first_move_cutoffs;
        self.moves_searched += moves_searched;
        self.reduced += reduced;
        self.reduced_researches += reduced_researches;
        self.pvs_researches += pvs_researches;
        self.aspiration_researches += aspiration_researches;
        self.single_reply_extensions += single_reply_extensions;
        self.exchanges += exchanges;
    }

    /// All nodes: interior, leaves and capture search.
    pub fn nodes(&self) -> u64 {
        self.interior + self.leaves + self.quiescence
    }
}

/// A search's counts per iteration depth (index: the depth).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// The counts of each iteration, by its depth.
    pub by_depth: Vec<Counts>,
    /// The iteration being counted.
    pub depth: usize,
}

impl Profile {
    /// The counts of the iteration being searched.
    #[inline(always)]
    pub fn now(&mut self) -> &mut Counts {
        if self.by_depth.len() <= self.depth {
            self.by_depth.resize(self.depth + 1, Counts::default());
        }
        &mut self.by_depth[self.depth]
    }

    /// Adds `other`'s counts, depth by depth.
    pub fn add(&mut self, other: &Profile) {
        if self.by_depth.len() < other.by_depth.len() {
            self.by_depth.resize(other.by_depth.len(), Counts::default());
        }
        for (mine, theirs) in self.by_depth.iter_mut().zip(&other.by_depth) {
            mine.add(theirs);
        }
    }

    /// The counts of every iteration together.
    pub fn total(&self) -> Counts {
        let mut total = Counts::default();
        for counts in &self.by_depth {
            total.add(counts);
        }
        total
    }

    /// The profile as a table: one line per iteration, then the totals.
    pub fn table(&self) -> String {
        let mut text = String::from(
            "depth     nodes   ebf  main%  qs%  capt%  tt-hit  tt-cut  fh-1st  moves/node  lmr  lmr-re  pvs-re  asp  static(d)  probcut(d)  exch\n",
        );
        let mut previous: Option<u64> = None;
        let rows = self.by_depth.iter().enumerate().filter(|(_, c)| c.nodes() > 0);
        for (depth, counts) in rows {
            let ebf = previous.map_or(String::from("    -"), |p| {
                format!("{:5.2}", counts.nodes() as f64 / p.max(1) as f64)
            });
            previous = Some(counts.nodes());
            let _ = writeln!(text, "{:>5} {}", depth, row(counts, &ebf));
        }
        let _ = writeln!(text, "{:>5} {}", "all", row(&self.total(), "    -"));
        text
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

fn mean(sum: u64, count: u64) -> f64 {
    sum as f64 / count.max(1) as f64
}

fn row(c: &Counts, ebf: &str) -> String {
    let nodes = c.nodes();
    format!(
        "{nodes:>9} {ebf} {:>5.1} {:>5.1} {:>5.1}  {:>5.1}%  {:>5.1}%  {:>5.1}%  {:>10.2}  {:>4.1}% {:>6.1}% {:>6.1}% {:>4}  {:>5.1}%({:>3.1}) {:>5.1}%({:>3.1}) {:>5.1}%",
        percent(c.interior, nodes),
        percent(c.quiescence, nodes),
        percent(c.interior_capture, c.interior),
        percent(c.tt_hits, c.tt_probes),
        percent(c.tt_cuts, c.tt_probes),
        percent(c.first_move_cutoffs, c.cutoffs),
        mean(c.moves_searched, c.searched),
        percent(c.reduced, c.moves_searched),
        percent(c.reduced_researches, c.reduced),
        percent(c.pvs_researches, c.moves_searched),
        c.aspiration_researches,
        percent(c.static_cuts, c.interior),
        mean(c.static_cut_depth, c.static_cuts),
        percent(c.probcut_cuts, c.probcut_tries),
        mean(c.probcut_cut_depth, c.probcut_cuts),
        percent(c.exchanges, c.leaves),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_add_depth_by_depth_and_print_a_row_each() {
        let mut a = Profile { depth: 2, ..Profile::default() };
        a.now().interior = 10;
        a.now().leaves = 30;
        let mut b = Profile { depth: 3, ..Profile::default() };
        b.now().interior = 40;
        b.now().quiescence = 80;
        a.add(&b);
        assert_eq!(a.by_depth.len(), 4);
        assert_eq!(a.total().nodes(), 160);
        let table = a.table();
        assert_eq!(table.lines().count(), 4, "{table}");
        // Depth 3 has three times depth 2's nodes.
        assert!(table.lines().nth(2).is_some_and(|l| l.contains(" 3.00 ")), "{table}");
    }
}
