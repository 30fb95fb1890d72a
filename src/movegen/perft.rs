//! Perft: the number of move paths of a given length, the ground truth for move generation.
//!
//! The last ply is counted in bulk (quiet moves by population counts). Two conventions: `Unique`
//! counts each (from, to, captured set) once, `Paths` counts every capture route. The root can
//! be split across threads with rayon. Depends on `movegen` and `position` only.

use super::{count_after_each, count_moves, generate};
use crate::board::moves::MoveList;
use crate::position::{Bits, MoveOf, Position};
use crate::rules::Rules;
use rayon::prelude::*;

/// Which capture routes count as distinct moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// One move per (from, to, captured set): the legal-move list of the rules.
    Unique,
    /// One move per capture route (the classic English table).
    Paths,
    /// One move per capture route, a flying king's straight-on continuation counted once per
    /// square where it could have stopped between the two pieces: the convention of the kish
    /// crate, the only published Turkish table.
    EveryStop,
}

fn new_list<B: crate::board::bitset::BitSet>(convention: Convention) -> MoveList<B> {
    match convention {
        Convention::Unique => MoveList::new(),
        Convention::Paths => MoveList::keeping_duplicates(),
        Convention::EveryStop => MoveList::keeping_every_stop(),
    }
}

/// Move lists for each ply of a perft, allocated once.
struct Stack<R: Rules> {
    lists: Vec<MoveList<Bits<R>>>,
}

impl<R: Rules> Stack<R> {
    fn new(depth: u32, convention: Convention) -> Self {
        Stack { lists: (0..=depth).map(|_| new_list(convention)).collect() }
    }
}

fn count<R: Rules>(position: &Position<R>, depth: u32, lists: &mut [MoveList<Bits<R>>]) -> u64 {
    let Some((list, rest)) = lists.split_first_mut() else {
        return 1;
    };
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return count_moves(position, list);
    }
    generate(position, list);
    let mut total = 0;
    if depth == 2 {
        // The children's moves are counted here rather than one call further down: most
        // of a perft's nodes are these.
        if let Some(scratch) = rest.first_mut() {
            return count_after_each(position, list, scratch);
        }
    }
    for mv in list.iter() {
        let mut child = *position;
        child.play_unhashed(mv);
        total += count(&child, depth - 1, rest);
    }
    total
}

/// perft(`depth`) of `position`, single-threaded.
pub fn perft<R: Rules>(position: &Position<R>, depth: u32, convention: Convention) -> u64 {
    let mut stack = Stack::<R>::new(depth, convention);
    count(position, depth, &mut stack.lists)
}

/// Runs `work` on a rayon pool of `threads` threads, or on the caller's thread if the pool
/// cannot be built.
fn in_pool<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(work),
        Err(error) => {
            log::warn!("could not start {threads} threads ({error}); counting on one");
            work()
        }
    }
}

/// perft(`depth`) counted in parallel: the tree is opened a few plies until there are many more
/// subtrees than threads (root moves alone are too few and too uneven to keep threads busy),
/// and the subtrees are shared out by rayon's work stealing. Call inside a pool.
fn count_parallel<R: Rules>(position: &Position<R>, depth: u32, convention: Convention) -> u64 {
    let wanted = 32 * rayon::current_num_threads();
    let mut frontier = vec![*position];
    let mut remaining = depth;
    let mut list = new_list(convention);
    while remaining > 3 && frontier.len() < wanted {
        let mut next = Vec::with_capacity(frontier.len() * 8);
        for node in &frontier {
            generate(node, &mut list);
            for mv in list.iter() {
                let mut child = *node;
                child.play(mv);
                next.push(child);
            }
        }
        frontier = next;
        remaining -= 1;
    }
    frontier.par_iter().map(|node| perft(node, remaining, convention)).sum()
}

/// The root moves of `position` with the perft(`depth` - 1) of each, in generation order.
/// With `threads` > 1 each count is shared out over a rayon pool of that size.
pub fn divide<R: Rules>(
    position: &Position<R>,
    depth: u32,
    convention: Convention,
    threads: usize,
) -> Vec<(MoveOf<R>, u64)> {
    let mut roots = new_list(convention);
    generate(position, &mut roots);
    let below = depth.saturating_sub(1);
    let child_count = |mv: &MoveOf<R>| {
        let mut child = *position;
        child.play(mv);
        let count = if threads > 1 {
            count_parallel(&child, below, convention)
        } else {
            perft(&child, below, convention)
        };
        (*mv, count)
    };
    if threads <= 1 {
        return roots.iter().map(child_count).collect();
    }
    in_pool(threads, || roots.iter().map(child_count).collect())
}

/// perft(`depth`) using `threads` threads (1 = no pool).
pub fn perft_threads<R: Rules>(
    position: &Position<R>,
    depth: u32,
    convention: Convention,
    threads: usize,
) -> u64 {
    if threads <= 1 {
        return perft(position, depth, convention);
    }
    in_pool(threads, || count_parallel(position, depth, convention))
}
