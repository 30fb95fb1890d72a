//! The search's tunable numbers, in one place, so that a tuner (SPSA, as chess engines' testing
//! frameworks run it) or a person with the match tool can change them.
//!
//! Depends on the rules library only (which rule set a number is for).

use crate::rules::{Rules, Variant};

/// Bound of a history entry, in either direction (quiet moves are ordered by it).
pub const HISTORY_MAX: i32 = 1 << 14;

/// The search's tunable numbers. [`SearchParams::of`] gives a rule set's defaults, what every
/// search uses unless the engine's configuration says otherwise ([`ParamChanges`], the
/// `search-params` option, for a tuner).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Reverse futility pruning (a "static null move"): at a node this many plies from the
    /// horizon or fewer, where nobody can capture, a static evaluation
    /// [`SearchParams::static_cut_margin`] above beta per ply left is taken as a cut.
    pub static_cut_depth: i32,
    /// See [`SearchParams::static_cut_depth`]; in hundredths of a man.
    pub static_cut_margin: i32,
    /// ProbCut: at a node of the kind [`probcut`] names, at least this many plies from the
    /// horizon, off the principal variation, a null-window search at
    /// [`SearchParams::probcut_depth_percent`] of the depth against beta +
    /// [`SearchParams::probcut_margin`] a ply that holds is taken as a cut.
    pub probcut_depth: i32,
    /// See [`SearchParams::probcut_depth`]: the shallow search's depth, in percent of the node's.
    pub probcut_depth_percent: i32,
    /// See [`SearchParams::probcut_depth`]; in hundredths of a man a ply.
    pub probcut_margin: i32,
    /// See [`SearchParams::probcut_depth`]: not in endings of this many pieces or fewer, where
    /// a quiet manoeuvre that the shallow search cannot see is often the point.
    pub probcut_min_pieces: i32,
    /// See [`SearchParams::probcut_depth`]: the nodes where ProbCut may cut, a
    /// [`ProbCutNodes`] as its number (0 nowhere, 1 quiet nodes, 2 capture nodes, 3 all).
    pub probcut_nodes: i32,
    /// Late-move reductions: quiet moves off the principal variation, at nodes this many plies
    /// from the horizon or more, are searched a ply shallower from the move numbered
    /// [`SearchParams::lmr_count`] (from 0) on ...
    pub lmr_depth: i32,
    /// See [`SearchParams::lmr_depth`].
    pub lmr_count: i32,
    /// ... and two plies shallower from this move number on.
    pub lmr_late_count: i32,
    /// The first aspiration window's half-width around the last iteration's score, in
    /// hundredths of a man (tripled at each failure).
    pub aspiration_window: i32,
    /// Exchanges in the capture search (1) or not (0): at a quiet position below the horizon
    /// without kings, where the evaluation does not reach beta, the moves that offer the
    /// opponent a capture (an exchange, played out by the capture search) and the men's moves
    /// that crown are searched too, as Scan's quiescence search does.
    pub qs_exchanges: i32,
}

/// How many tunable numbers there are.
const FIELD_COUNT: usize = 12;

impl SearchParams {
    /// The values common to every rule set ([`SearchParams::of`] changes some of them for one):
    /// what the matches in docs/experiments.md's search table were played with, unless a row says
    /// otherwise.
    pub const DEFAULT: SearchParams = SearchParams {
        static_cut_depth: 3,
        static_cut_margin: 80,
        probcut_depth: 3,
        probcut_depth_percent: 40,
        probcut_margin: 10,
        probcut_min_pieces: 8,
        probcut_nodes: ProbCutNodes::None as i32,
        lmr_depth: 3,
        lmr_count: 3,
        lmr_late_count: 8,
        aspiration_window: 40,
        qs_exchanges: 0,
    };

    /// Rule set `R`'s defaults.
    pub fn of<R: Rules>() -> SearchParams {
        Self::of_variant(R::VARIANT)
    }

    /// The defaults of the rule set `variant`. Measured at 0.03 s a move (the search
    /// table of docs/experiments.md): in English a static cut margin of 0.6 man a ply instead
    /// of 0.8 gained +17.4 +- 15 Elo in 800 games.
    ///
    /// ProbCut: at quiet nodes in English (+26 Elo), Russian (+34) and Italian (+27 in 800
    /// games); not in Brazilian (+8) and Spanish (+10), within the noise. International lost at
    /// quiet nodes (-30), gained little with ProbCut everywhere (+22) and gains at the nodes
    /// where a capture is due only (+67; likely because forced captures are extended a ply
    /// each, and the cut saves long forced lines that lead nowhere). Its price: a shot that
    /// begins with a sacrifice is seen some plies later (the Coup Philippe of the tactics
    /// suite at depth 9 instead of 4). The other rule sets are not measured yet and keep the
    /// search without it.
    pub const fn of_variant(variant: Variant) -> SearchParams {
        let quiet = ProbCutNodes::Quiet as i32;
        match variant {
            Variant::English => {
                SearchParams { static_cut_margin: 60, probcut_nodes: quiet, ..Self::DEFAULT }
            }
            Variant::Russian | Variant::Italian => {
                SearchParams { probcut_nodes: quiet, ..Self::DEFAULT }
            }
            Variant::International => {
                SearchParams { probcut_nodes: ProbCutNodes::Captures as i32, ..Self::DEFAULT }
            }
            _ => Self::DEFAULT,
        }
    }

    /// Where ProbCut may cut ([`SearchParams::probcut_nodes`]).
    pub fn probcut_nodes(&self) -> ProbCutNodes {
        match self.probcut_nodes {
            1 => ProbCutNodes::Quiet,
            2 => ProbCutNodes::Captures,
            3 => ProbCutNodes::All,
            _ => ProbCutNodes::None,
        }
    }

    /// Each number's name (as the option spells it), the range it may take, and where it is.
    #[allow(clippy::type_complexity)]
    const FIELDS: [(&'static str, i32, i32, fn(&mut SearchParams) -> &mut i32); FIELD_COUNT] = [
        ("static-cut-depth", 0, 20, |p| &mut p.static_cut_depth),
        ("static-cut-margin", 0, 1000, |p| &mut p.static_cut_margin),
        ("probcut-depth", 1, 40, |p| &mut p.probcut_depth),
        ("probcut-depth-percent", 0, 90, |p| &mut p.probcut_depth_percent),
        ("probcut-margin", 0, 500, |p| &mut p.probcut_margin),
        ("probcut-min-pieces", 0, 50, |p| &mut p.probcut_min_pieces),
        ("probcut-nodes", 0, 3, |p| &mut p.probcut_nodes),
        ("lmr-depth", 1, 40, |p| &mut p.lmr_depth),
        ("lmr-count", 1, 64, |p| &mut p.lmr_count),
        ("lmr-late-count", 1, 256, |p| &mut p.lmr_late_count),
        ("aspiration-window", 1, 1000, |p| &mut p.aspiration_window),
        ("qs-exchanges", 0, 1, |p| &mut p.qs_exchanges),
    ];

    /// Every number as `NAME:VALUE`, comma-separated ([`ParamChanges::parse`] reads it back).
    pub fn to_text(&self) -> String {
        let mut params = *self;
        Self::FIELDS
            .iter()
            .map(|&(name, _, _, field)| format!("{name}:{}", field(&mut params)))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Changes to a rule set's default search numbers, as the `search-params` option and `damas
/// bench --search-params` give them; kept apart from the numbers themselves because the rule
/// set (and so the defaults they change) may be chosen after them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ParamChanges {
    /// The new value of each of [`SearchParams::FIELDS`], where one is given.
    values: [Option<i32>; FIELD_COUNT],
}

impl ParamChanges {
    /// `NAME:VALUE` pairs separated by commas or spaces (empty: no change), e.g.
    /// `lmr-count:4,static-cut-margin:90`.
    ///
    /// # Errors
    /// An unknown name, a value that is not a whole number or out of its range.
    pub fn parse(text: &str) -> Result<ParamChanges, String> {
        let mut changes = ParamChanges::default();
        for pair in text.split([',', ' ']).filter(|pair| !pair.is_empty()) {
            let (name, value) = pair
                .split_once(':')
                .ok_or_else(|| format!("search parameter '{pair}' is not NAME:VALUE"))?;
            let Some(index) = SearchParams::FIELDS
                .iter()
                .position(|(known, ..)| known.eq_ignore_ascii_case(name.trim()))
            else {
                let names: Vec<&str> =
                    SearchParams::FIELDS.iter().map(|(known, ..)| *known).collect();
                return Err(format!(
                    "unknown search parameter '{name}'; known: {}",
                    names.join(" ")
                ));
            };
            let (_, min, max, _) = SearchParams::FIELDS[index];
            let value = value
                .trim()
                .parse::<i32>()
                .ok()
                .filter(|value| (min..=max).contains(value))
                .ok_or_else(|| {
                    format!("search parameter {name} must be a whole number from {min} to {max}")
                })?;
            changes.values[index] = Some(value);
        }
        Ok(changes)
    }

    /// The rule set `variant`'s defaults with these changes: what a search uses.
    pub fn over(&self, variant: Variant) -> SearchParams {
        self.apply(SearchParams::of_variant(variant))
    }

    /// `defaults` with these changes.
    pub fn apply(&self, defaults: SearchParams) -> SearchParams {
        let mut params = defaults;
        for (&value, &(_, _, _, field)) in self.values.iter().zip(&SearchParams::FIELDS) {
            if let Some(value) = value {
                *field(&mut params) = value;
            }
        }
        params
    }

    /// The changes as [`ParamChanges::parse`] reads them (empty: none).
    pub fn to_text(&self) -> String {
        self.values
            .iter()
            .zip(&SearchParams::FIELDS)
            .filter_map(|(value, (name, ..))| value.map(|value| format!("{name}:{value}")))
            .collect::<Vec<_>>()
            .join(",")
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

/// The nodes where ProbCut may cut ([`SearchParams::probcut_nodes`] holds one as its number).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ProbCutNodes {
    /// Nowhere.
    None = 0,
    /// Quiet nodes only: neither side can capture.
    Quiet = 1,
    /// Only nodes where the side to move must capture.
    Captures = 2,
    /// Every node (Scan's form).
    All = 3,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_parameters_read_back_what_they_write_and_refuse_bad_text() {
        assert_eq!(ParamChanges::parse(""), Ok(ParamChanges::default()));
        let changes = ParamChanges::parse("lmr-count:4, static-cut-margin:95").unwrap();
        let changed = changes.apply(SearchParams::DEFAULT);
        assert_eq!(changed.lmr_count, 4);
        assert_eq!(changed.static_cut_margin, 95);
        assert_eq!(changed.probcut_margin, SearchParams::DEFAULT.probcut_margin);
        assert_eq!(ParamChanges::parse(&changes.to_text()), Ok(changes));
        assert_eq!(
            ParamChanges::parse(&changed.to_text()).unwrap().apply(SearchParams::DEFAULT),
            changed
        );
        for bad in ["lmr-count", "lmr-count:x", "lmr-count:0", "nothing:3", "lmr-count:99999"] {
            let error = ParamChanges::parse(bad).unwrap_err();
            assert!(error.contains("search parameter"), "{bad}: {error}");
        }
    }

    #[test]
    fn changes_apply_over_each_rule_sets_defaults() {
        let english = SearchParams::of_variant(Variant::English);
        let international = SearchParams::of_variant(Variant::International);
        assert_ne!(english.static_cut_margin, international.static_cut_margin);
        let changes = ParamChanges::parse("lmr-count:5").unwrap();
        assert_eq!(changes.apply(english).static_cut_margin, english.static_cut_margin);
        assert_eq!(changes.apply(international).static_cut_margin, international.static_cut_margin);
        assert_eq!(changes.apply(english).lmr_count, 5);
        let margin = ParamChanges::parse("static-cut-margin:70").unwrap();
        assert_eq!(margin.apply(english).static_cut_margin, 70);
        assert_eq!(margin.apply(international).static_cut_margin, 70);
        assert_eq!(ParamChanges::default().apply(english), english);
    }
}
