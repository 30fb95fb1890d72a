//! Work units: the part of a long job one process does. A job of numbered items (the games of
//! a data generation run, the game pairs of a match) splits into `N` shards by item number, so
//! that shards run on other cores or machines with nothing shared and their outputs merge into
//! the job's (`damas datagen merge`, `damas match merge`).
//!
//! Depends on nothing but std.

/// The part of a job one process does: item `i` is in shard `index` of `count` when
/// `i % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u32,
    /// Shards in all.
    pub count: u32,
}

impl Shard {
    /// The whole job.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether item `item` is this shard's.
    pub fn has(self, item: u32) -> bool {
        item % self.count.max(1) == self.index
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N`, K from 1 to N (the command line counts shards from 1).
    fn from_str(text: &str) -> Result<Self, String> {
        let wrong = || format!("--shard {text}: expected K/N with K from 1 to N, e.g. 2/8");
        let (k, n) = text.split_once('/').ok_or_else(wrong)?;
        let (k, n): (u32, u32) =
            (k.trim().parse().map_err(|_| wrong())?, n.trim().parse().map_err(|_| wrong())?);
        if k == 0 || k > n {
            return Err(wrong());
        }
        Ok(Shard { index: k - 1, count: n })
    }
}

impl std::fmt::Display for Shard {
    /// `K/N`, as the command line takes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_items_and_read_back() {
        let shards: Vec<Shard> = (1..=3).map(|k| format!("{k}/3").parse().unwrap()).collect();
        for item in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.has(item)).count(), 1);
        }
        assert_eq!(shards[1].to_string(), "2/3");
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert!(Shard::ALL.has(17));
    }
}
