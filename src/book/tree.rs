//! The book as a tree (a graph: transpositions join lines): the minimax of its scores, the
//! leaves a build expands next (drop-out expansion), and what `damas book stats` reports.
//!
//! A book position's moves lead either to another book position (an interior node, whose
//! value is the best of its own moves) or out of the book (a leaf, scored by the search that
//! expanded its parent). Drop-out expansion (Lincke, "Strategies for the automatic
//! construction of opening books", 2001) grows the tree where play is likely to go: every
//! leaf gets a priority, the sum along its line from the root of how much worse each move is
//! than the best one there (its drop-out), plus a cost per ply so that the best line is not
//! followed alone forever; the leaves of least priority are expanded first.
//!
//! Depends on the rules library and the book only.

use super::{Book, BookMove};
use crate::game::Game;
use crate::position::Position;
use crate::rules::Rules;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

impl<R: Rules> Book<R> {
    /// For each entry, for each of its moves, the entry the move leads to (None: a leaf).
    pub(super) fn children(&self) -> Vec<Vec<Option<usize>>> {
        self.entries
            .iter()
            .map(|(position, moves)| {
                moves
                    .iter()
                    .map(|m| {
                        let mut child = *position;
                        child.play(&m.mv);
                        self.find(&child)
                    })
                    .collect()
            })
            .collect()
    }

    /// The positions reached from the start position through the book, breadth first (each
    /// position's moves in their order), each once, with its ply (the shortest way there).
    pub(super) fn breadth_first(&self, children: &[Vec<Option<usize>>]) -> Vec<(usize, usize)> {
        let mut order = Vec::new();
        let mut placed = vec![false; self.len()];
        if let Some(start) = self.find(&Position::start()) {
            placed[start] = true;
            order.push((start, 0));
        }
        let mut next = 0;
        while let Some(&(node, ply)) = order.get(next) {
            next += 1;
            for &child in children[node].iter().flatten() {
                if !placed[child] {
                    placed[child] = true;
                    order.push((child, ply + 1));
                }
            }
        }
        order
    }

    /// Brings every score up to date with the positions below it: a move into a book position
    /// scores minus that position's best score, bottom-up (a leaf keeps its search score; a
    /// move that closes a cycle keeps its own), and each position's moves are sorted best
    /// first again. Iterative: a book as deep as a game costs no stack.
    pub fn minimax(&mut self) {
        let children = self.children();
        let count = self.entries.len();
        // 0: not seen, 1: on the path, 2: done.
        let mut state = vec![0u8; count];
        let mut path: Vec<(usize, usize)> = Vec::new();
        for root in 0..count {
            if state[root] != 0 {
                continue;
            }
            state[root] = 1;
            path.push((root, 0));
            while let Some(&(node, next)) = path.last() {
                if let Some(&child) = children[node].get(next) {
                    if let Some(top) = path.last_mut() {
                        top.1 += 1;
                    }
                    if let Some(child) = child.filter(|&child| state[child] == 0) {
                        state[child] = 1;
                        path.push((child, 0));
                    }
                    continue;
                }
                path.pop();
                for (at, child) in children[node].iter().enumerate() {
                    if let Some(child) = child.filter(|&child| state[child] == 2) {
                        let value = self.entries[child].1.first().map_or(0, |m| m.score);
                        self.entries[node].1[at].score = -value;
                    }
                }
                self.entries[node].1.sort_by_key(|m| Reverse(m.score));
                state[node] = 2;
            }
        }
    }

    /// The positions to expand next, up to `limit`, most likely first: the leaves of least
    /// drop-out priority seen from `root` (its moves' drop-outs plus `ply_cost` a ply; `root`
    /// itself when the book lacks it), leaving out positions where the game is over. Ties go
    /// to the leaf met first, so the choice depends on the book alone.
    pub fn frontier(&self, root: &Position<R>, ply_cost: i32, limit: usize) -> Vec<Position<R>> {
        let mut found = Vec::new();
        let mut queue = BinaryHeap::new();
        let mut settled = HashSet::new();
        // The positions met, in order: a queue entry is a priority and an index here.
        let mut met = vec![*root];
        queue.push(Reverse((0i64, 0usize)));
        while let Some(Reverse((priority, id))) = queue.pop() {
            let position = met[id];
            if found.len() >= limit {
                break;
            }
            if !settled.insert(position.hash()) {
                continue;
            }
            let Some(moves) = self.moves(&position) else {
                if Game::new(position).verdict().is_none() {
                    found.push(position);
                }
                continue;
            };
            let best = moves.first().map_or(0, |m| m.score);
            for m in moves {
                let mut child = position;
                child.play(&m.mv);
                let drop = i64::from(best) - i64::from(m.score) + i64::from(ply_cost.max(0));
                queue.push(Reverse((priority + drop, met.len())));
                met.push(child);
            }
        }
        found
    }

    /// The best line from `position` through the book (at most `limit` moves; a cycle ends it).
    pub fn main_line(&self, position: &Position<R>, limit: usize) -> Vec<BookMove<R>> {
        let mut line = Vec::new();
        let mut seen = HashSet::new();
        let mut at = *position;
        while line.len() < limit && seen.insert(at.hash()) {
            let Some(best) = self.moves(&at).and_then(|moves| moves.first()) else {
                break;
            };
            line.push(*best);
            at.play(&best.mv);
        }
        line
    }

    /// Balanced openings from the book, for matches: the positions `plies` plies from the
    /// start reached through the book by moves scored within `playable` of the best one at
    /// their position (moves a player would choose), whose score is within `balanced` of a
    /// draw; each with the line that reaches it and its score (for the side to move there),
    /// most balanced first (ties: the order the walk meets them), each position once.
    pub fn balanced_openings(
        &self,
        plies: usize,
        playable: i32,
        balanced: i32,
    ) -> Vec<(Vec<BookMove<R>>, Position<R>, i32)> {
        let mut found = Vec::new();
        let mut seen = HashSet::new();
        // Depth-first, with the line so far: (position, line).
        let mut stack = vec![(Position::<R>::start(), Vec::new())];
        while let Some((position, line)) = stack.pop() {
            let Some(moves) = self.moves(&position) else { continue };
            let best = moves.first().map_or(0, |m| m.score);
            // Pushed in reverse so that the best move's line is walked first.
            for m in moves.iter().rev().filter(|m| m.score >= best - playable.max(0)) {
                let mut child = position;
                child.play(&m.mv);
                let mut longer: Vec<BookMove<R>> = line.clone();
                longer.push(*m);
                if longer.len() == plies {
                    if m.score.abs() <= balanced.max(0) && seen.insert(child.hash()) {
                        found.push((longer, child, -m.score));
                    }
                } else if longer.len() < plies {
                    stack.push((child, longer));
                }
            }
        }
        found.sort_by_key(|(_, _, score)| score.abs());
        found
    }

    /// What `damas book stats` reports.
    pub fn stats(&self) -> Stats {
        let children = self.children();
        let moves = children.iter().map(Vec::len).sum();
        let leaves = children.iter().flatten().filter(|child| child.is_none()).count();
        let reached = self.breadth_first(&children);
        let mut per_ply = Vec::new();
        for &(_, ply) in &reached {
            if per_ply.len() <= ply {
                per_ply.resize(ply + 1, 0);
            }
            per_ply[ply] += 1;
        }
        Stats {
            positions: self.len(),
            moves,
            leaves,
            per_ply,
            unreached: self.len() - reached.len(),
        }
    }
}

/// A book's size and shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Positions (each with its moves).
    pub positions: usize,
    /// Moves in all.
    pub moves: usize,
    /// Moves that leave the book.
    pub leaves: usize,
    /// Positions per ply from the start position (the shortest way there).
    pub per_ply: Vec<usize>,
    /// Positions not reached from the start position (lines seeded from games that begin
    /// elsewhere).
    pub unreached: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::English;

    /// A book of the start position with every move scored `scores[i]`, each child expanded
    /// with every reply scored as `reply(i, j)`.
    fn two_ply_book(
        scores: impl Fn(usize) -> i32,
        reply: impl Fn(usize, usize) -> i32,
    ) -> Book<English> {
        let root = Position::<English>::start();
        let mut book = Book::new();
        let legal = Game::new(root).legal_moves();
        let mut root_moves = Vec::new();
        for (i, mv) in legal.as_slice().iter().enumerate() {
            root_moves.push(BookMove { mv: *mv, score: scores(i) });
            let mut child = root;
            child.play(mv);
            let replies = Game::new(child).legal_moves();
            let moves = replies
                .as_slice()
                .iter()
                .enumerate()
                .map(|(j, mv)| BookMove { mv: *mv, score: reply(i, j) })
                .collect();
            book.insert(child, moves);
        }
        book.insert(root, root_moves);
        book
    }

    #[test]
    fn minimax_scores_a_move_as_minus_the_best_reply() {
        let mut book = two_ply_book(|_| 0, |i, j| (i * 10 + j) as i32);
        book.minimax();
        let root = Position::<English>::start();
        let moves = book.moves(&root).unwrap();
        // Move i's child has best reply i * 10 + (replies - 1); the root prefers the least.
        for m in moves {
            let mut child = root;
            child.play(&m.mv);
            let best_reply = book.moves(&child).unwrap()[0].score;
            assert_eq!(m.score, -best_reply);
        }
        assert!(moves.windows(2).all(|pair| pair[0].score >= pair[1].score));
        // Minimax again changes nothing.
        let text = book.write(&[]);
        book.minimax();
        assert_eq!(book.write(&[]), text);
    }

    #[test]
    fn the_frontier_follows_the_drop_outs_and_the_ply_cost() {
        let root = Position::<English>::start();
        let empty = Book::<English>::new();
        assert_eq!(empty.frontier(&root, 4, 3), vec![root]);
        // One root move far better than the others: with no ply cost, its line's leaves come
        // first; they are the replies of the child of the best move, best reply first.
        let mut book = two_ply_book(|i| if i == 0 { 50 } else { 0 }, |_, j| -(j as i32));
        book.minimax();
        let best = book.moves(&root).unwrap()[0];
        let mut child = root;
        child.play(&best.mv);
        let first = book.frontier(&root, 0, 1);
        let best_reply = book.moves(&child).unwrap()[0];
        let mut expected = child;
        expected.play(&best_reply.mv);
        assert_eq!(first, vec![expected]);
        let all = book.frontier(&root, 0, 1000);
        let leaves: usize = book.stats().leaves;
        assert_eq!(all.len(), leaves);
        assert_eq!(all.iter().map(Position::hash).collect::<HashSet<_>>().len(), all.len());
        // The book's positions are never in the frontier.
        assert!(all.iter().all(|position| !book.contains(position)));
    }

    #[test]
    fn balanced_openings_are_within_the_margins() {
        let mut book = two_ply_book(|i| -(i as i32) * 10, |i, j| (i * 3 + j) as i32 - 4);
        book.minimax();
        let openings = book.balanced_openings(2, 1000, 3);
        assert!(!openings.is_empty());
        for (line, position, score) in &openings {
            assert_eq!(line.len(), 2);
            assert!(score.abs() <= 3);
            let mut at = Position::<English>::start();
            for m in line {
                at.play(&m.mv);
            }
            assert_eq!(at, *position);
        }
        assert!(openings.windows(2).all(|pair| pair[0].2.abs() <= pair[1].2.abs()));
        // A margin of 0 keeps the best moves alone.
        let best_only = book.balanced_openings(2, 0, 1000);
        assert!(!best_only.is_empty());
        for (line, _, _) in &best_only {
            let mut at = Position::<English>::start();
            for m in line {
                assert_eq!(m.score, book.moves(&at).unwrap()[0].score);
                at.play(&m.mv);
            }
        }
    }

    #[test]
    fn stats_count_plies_and_leaves() {
        let book = two_ply_book(|_| 0, |_, _| 0);
        let stats = book.stats();
        let root_moves = Game::new(Position::<English>::start()).legal_moves().len();
        assert_eq!(stats.positions, 1 + root_moves);
        assert_eq!(stats.per_ply, vec![1, root_moves]);
        assert_eq!(stats.leaves, stats.moves - root_moves);
        assert_eq!(stats.unreached, 0);
        assert_eq!(book.main_line(&Position::start(), 10).len(), 2);
    }
}
