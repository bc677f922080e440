//! Monte Carlo tree search: UCT over seeded random playouts on the kernel's fast path, with
//! proven wins and losses backed up the tree (MCTS-solver, Winands, Björnsson and Saito 2008),
//! budgets by iterations or time, the tree kept between moves, and root parallelism (one tree
//! per thread, their root statistics summed).
//!
//! Each node holds the statistics of the player who made the move into it: visits and the sum
//! of rewards (1 a win, ½ a draw or a playout stopped by the ply cap, 0 a loss). A node whose
//! game is over, or all of whose children lose, or one of whose children wins, is *proven*;
//! selection never enters a proven losing move when another move remains, and the search stops
//! as soon as the root is proven.

use crate::eval::{Evaluator, MAX_EVAL};
use crate::{Limits, SearchError, Stop};
use ply_kernel::{Move, MoveList, Outcome, Player, Position, Rng, Status, Undo};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How the MCTS searcher is built.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCT exploration constant (rewards are in 0..1).
    pub exploration: f64,
    /// A playout stopped after this many plies counts as a draw.
    pub playout_plies: u32,
    /// Trees searched in parallel, one per thread (root parallelism).
    pub threads: usize,
    /// Nodes a tree may hold; past it, leaves are no longer expanded (about 48 bytes each).
    pub max_nodes: usize,
    /// The seed of the playouts (each thread's generator derives from it).
    pub seed: u64,
    /// Whether the tree is kept from one search to the next when the new position is in it.
    pub reuse: bool,
    /// Playouts cut off after this many plies and judged by the evaluation (a searcher built
    /// with one, [`Mcts::with_eval`]): the reward is `σ(evaluation / scale)`, the scale the
    /// mean value of a piece. `None`: playouts go to the end (or `playout_plies`).
    pub cutoff: Option<u32>,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 1.0,
            playout_plies: 1000,
            threads: 1,
            max_nodes: 1 << 20,
            seed: 0,
            reuse: true,
            cutoff: None,
        }
    }
}

/// Whether a node is proven, from the view of the player who moved into it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Proof {
    Unknown,
    Win,
    Loss,
    /// A finished game that nobody won (not propagated).
    Draw,
}

const NONE: u32 = u32::MAX;

#[derive(Copy, Clone, Debug)]
struct Node {
    mv: Option<Move>,
    /// The player who made the node's move (rewards and proofs are this player's): the
    /// other player than the parent's, or the same in the middle of a turn of several moves.
    by: Player,
    /// The position's key, once the node has been entered (0 before).
    key: u64,
    parent: u32,
    first: u32,
    children: u32,
    visits: u32,
    reward: f32,
    proof: Proof,
    expanded: bool,
}

impl Node {
    fn new(mv: Option<Move>, parent: u32, by: Player) -> Node {
        Node {
            mv,
            by,
            key: 0,
            parent,
            first: NONE,
            children: 0,
            visits: 0,
            reward: 0.0,
            proof: Proof::Unknown,
            expanded: false,
        }
    }
}

/// One search tree and its generator.
#[derive(Clone, Debug)]
struct Tree {
    nodes: Vec<Node>,
    rng: Rng,
    list: MoveList,
    path: Vec<u32>,
    undos: Vec<(Move, Undo)>,
    /// The side to move at the root.
    side: Player,
}

/// The statistics of one move at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats {
    /// The move.
    pub mv: Move,
    /// Visits over all trees.
    pub visits: u64,
    /// The mean reward of the move for the side to move (0 to 1).
    pub value: f64,
    /// `Some(true)` if the move is proven to win, `Some(false)` proven to lose.
    pub proven: Option<bool>,
}

/// What an MCTS search reports.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsInfo {
    /// Iterations (playouts or proven leaves reached) over all trees in this search.
    pub iterations: u64,
    /// Iterations that ran a playout.
    pub playouts: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The chosen move's statistics.
    pub best: MoveStats,
    /// Every root move, most visited first.
    pub moves: Vec<MoveStats>,
    /// The most visited line of the first tree.
    pub pv: Vec<Move>,
    /// Nodes in the first tree.
    pub tree_nodes: usize,
    /// Visits the first tree's root had before this search (what reuse kept).
    pub reused: u64,
}

impl MctsInfo {
    /// Iterations per second.
    pub fn iterations_per_second(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.iterations as f64 / s
        } else {
            0.0
        }
    }
}

/// A Monte Carlo tree searcher.
#[derive(Debug)]
pub struct Mcts {
    config: MctsConfig,
    trees: Vec<Tree>,
    eval: Option<Arc<dyn Evaluator>>,
}

/// The reward of a finished game (or playout) for the first player.
fn first_reward(winner: Option<Player>) -> f32 {
    match winner {
        None => 0.5,
        Some(w) if w == Player::FIRST => 1.0,
        Some(_) => 0.0,
    }
}

/// A reward for the first player seen by `player`.
fn reward(first: f32, player: Player) -> f32 {
    if player == Player::FIRST {
        first
    } else {
        1.0 - first
    }
}

/// How a playout cut off is judged: the evaluation and its scale.
#[derive(Clone, Copy)]
struct Judge<'a> {
    eval: &'a dyn Evaluator,
    scale: f64,
    plies: u32,
}

impl Tree {
    fn new(seed: u64) -> Tree {
        Tree {
            nodes: Vec::new(),
            rng: Rng::new(seed),
            list: MoveList::new(),
            path: Vec::new(),
            undos: Vec::new(),
            side: Player::FIRST,
        }
    }

    /// Makes the root the node of `pos`: keeps the subtree if the root, a child or a
    /// grandchild has its key, otherwise starts afresh.
    fn set_root(&mut self, pos: &Position, reuse: bool) {
        let key = pos.hash();
        let side = pos.side_to_move();
        let found = if !reuse || self.nodes.is_empty() {
            None
        } else if self.nodes[0].key == key {
            Some(0)
        } else {
            let mut found = None;
            'search: for c in self.children(0) {
                if self.nodes[c as usize].key == key {
                    found = Some(c);
                    break;
                }
                for g in self.children(c) {
                    if self.nodes[g as usize].key == key {
                        found = Some(g);
                        break 'search;
                    }
                }
            }
            found
        };
        match found {
            Some(0) => {}
            Some(n) => self.compact(n),
            None => {
                self.nodes.clear();
                let mut root = Node::new(None, NONE, pos.last_mover());
                root.key = key;
                self.nodes.push(root);
            }
        }
        self.side = side;
    }

    fn children(&self, n: u32) -> std::ops::Range<u32> {
        let node = &self.nodes[n as usize];
        if node.first == NONE {
            0..0
        } else {
            node.first..node.first + node.children
        }
    }

    /// Keeps only the subtree of `n`, which becomes the root.
    fn compact(&mut self, n: u32) {
        let old = std::mem::take(&mut self.nodes);
        let mut root = old[n as usize];
        root.parent = NONE;
        root.mv = None;
        self.nodes.push(root);
        let mut i = 0;
        while i < self.nodes.len() {
            let node = self.nodes[i];
            if node.first != NONE {
                let first = self.nodes.len() as u32;
                for c in node.first..node.first + node.children {
                    let mut child = old[c as usize];
                    child.parent = i as u32;
                    self.nodes.push(child);
                }
                self.nodes[i].first = first;
            }
            i += 1;
        }
    }

    /// The child to enter by UCT, skipping proven losses while another move remains.
    fn select(&self, n: u32, c: f64) -> u32 {
        let parent = &self.nodes[n as usize];
        let log_n = (parent.visits.max(1) as f64).ln();
        let mut best = NONE;
        let mut best_value = f64::NEG_INFINITY;
        for ch in self.children(n) {
            let child = &self.nodes[ch as usize];
            let value = match child.proof {
                Proof::Win => f64::INFINITY,
                Proof::Loss => -1e9,
                _ if child.visits == 0 => 1e9,
                _ => {
                    let v = child.visits as f64;
                    child.reward as f64 / v + c * (log_n / v).sqrt()
                }
            };
            if value > best_value {
                best_value = value;
                best = ch;
            }
        }
        best
    }

    /// Creates the children of node `n` of position `pos`; marks it proven if the game is
    /// over there. Returns false if it has no children.
    fn expand(&mut self, n: u32, pos: &Position, max_nodes: usize) -> Result<bool, SearchError> {
        pos.legal_moves_into(&mut self.list)?;
        if self.list.is_empty() {
            self.nodes[n as usize].expanded = true;
            let mover = pos.last_mover();
            self.nodes[n as usize].proof = match pos.status() {
                Status::Over(Outcome::Win(p)) if p == mover => Proof::Win,
                Status::Over(Outcome::Win(_)) => Proof::Loss,
                _ => Proof::Draw,
            };
            return Ok(false);
        }
        if self.nodes.len() + self.list.len() > max_nodes {
            return Ok(false);
        }
        let first = self.nodes.len() as u32;
        let by = pos.side_to_move();
        for m in self.list.iter() {
            self.nodes.push(Node::new(Some(m), n, by));
        }
        let node = &mut self.nodes[n as usize];
        node.first = first;
        node.children = self.list.len() as u32;
        node.expanded = true;
        Ok(true)
    }

    /// One iteration: select, expand, play out, back up. Returns whether it ran a playout.
    fn iterate(
        &mut self,
        pos: &mut Position,
        config: &MctsConfig,
        judge: Option<Judge<'_>>,
    ) -> Result<bool, SearchError> {
        self.path.clear();
        self.undos.clear();
        let mut n = 0u32;
        self.path.push(0);
        let mut winner: Option<Option<Player>> = None;
        loop {
            let node = self.nodes[n as usize];
            match node.proof {
                Proof::Unknown => {}
                Proof::Draw => {
                    winner = Some(None);
                    break;
                }
                Proof::Win | Proof::Loss => {
                    let mover = node.by;
                    winner = Some(Some(if node.proof == Proof::Win {
                        mover
                    } else {
                        mover.other()
                    }));
                    break;
                }
            }
            if !node.expanded {
                // A leaf: expanded on its second visit (the root at once).
                if n != 0 && node.visits == 0 {
                    break;
                }
                if !self.expand(n, pos, config.max_nodes)? {
                    if self.nodes[n as usize].proof != Proof::Unknown {
                        continue;
                    }
                    break;
                }
            }
            if self.nodes[n as usize].children == 0 {
                break;
            }
            let ch = self.select(n, config.exploration);
            let Some(m) = self.nodes[ch as usize].mv else {
                break;
            };
            let undo = pos.make_unchecked(m);
            self.undos.push((m, undo));
            n = ch;
            self.path.push(n);
            let child = &mut self.nodes[n as usize];
            if child.key == 0 {
                child.key = pos.hash();
            }
            if let Some(o) = pos.decided() {
                let mover = child.by;
                child.proof = match o {
                    Outcome::Win(p) if p == mover => Proof::Win,
                    Outcome::Win(_) => Proof::Loss,
                    Outcome::Draw => Proof::Draw,
                };
                child.expanded = true;
            }
        }
        let played = winner.is_none();
        let first = match (winner, judge) {
            (Some(w), _) => first_reward(w),
            (None, Some(j)) => self.cut_playout(pos, j)?,
            (None, None) => {
                let rng = &mut self.rng;
                let p = pos.playout(&mut |k| rng.below(k), config.playout_plies)?;
                first_reward(match p.outcome {
                    Some(Outcome::Win(w)) => Some(w),
                    _ => None,
                })
            }
        };
        // Back up the reward, from the leaf to the root, with the side that moved into each
        // node; and proofs, as far as they go.
        let mut proving = true;
        for i in (0..self.path.len()).rev() {
            let id = self.path[i];
            let node = &mut self.nodes[id as usize];
            node.visits += 1;
            node.reward += reward(first, node.by);
            let by = node.by;
            if proving && i + 1 < self.path.len() {
                let child = self.nodes[self.path[i + 1] as usize];
                // A child's proof is its mover's; the node's, its own mover's: the same
                // player in the middle of a turn of several moves, else the other.
                let (win, loss) = if child.by == by {
                    (Proof::Win, Proof::Loss)
                } else {
                    (Proof::Loss, Proof::Win)
                };
                proving = match child.proof {
                    Proof::Win => {
                        self.nodes[id as usize].proof = win;
                        true
                    }
                    Proof::Loss => {
                        let all = self
                            .children(id)
                            .all(|c| self.nodes[c as usize].proof == Proof::Loss);
                        if all {
                            self.nodes[id as usize].proof = loss;
                        }
                        all
                    }
                    _ => false,
                };
            }
        }
        while let Some((m, undo)) = self.undos.pop() {
            pos.unmake_unchecked(m, undo);
        }
        Ok(played)
    }

    /// A playout of at most `j.plies` random plies, judged by the evaluation where it stops
    /// (or by the result, if the game ends): the reward for the first player. The position is
    /// restored after.
    fn cut_playout(&mut self, pos: &mut Position, j: Judge<'_>) -> Result<f32, SearchError> {
        let path = self.undos.len();
        let value = self.judged_playout(pos, j);
        while self.undos.len() > path {
            if let Some((m, undo)) = self.undos.pop() {
                pos.unmake_unchecked(m, undo);
            }
        }
        value
    }

    fn judged_playout(&mut self, pos: &mut Position, j: Judge<'_>) -> Result<f32, SearchError> {
        for _ in 0..j.plies {
            if pos.decided().is_some() {
                break;
            }
            pos.legal_moves_into(&mut self.list)?;
            let Some(m) = self.list.get(self.rng.below(self.list.len())) else {
                break;
            };
            let undo = pos.make_unchecked(m);
            self.undos.push((m, undo));
        }
        let side = pos.side_to_move();
        Ok(match pos.status() {
            Status::Over(Outcome::Win(w)) => first_reward(Some(w)),
            Status::Over(Outcome::Draw) | Status::Stuck(_) => 0.5,
            Status::ToMove(_) => {
                let e = j.eval.evaluate(pos).clamp(-MAX_EVAL, MAX_EVAL) as f64;
                let p = (1.0 / (1.0 + (-e / j.scale).exp())) as f32;
                reward(p, side)
            }
        })
    }

    fn root_stats(&self) -> Vec<MoveStats> {
        self.children(0)
            .filter_map(|c| {
                let n = &self.nodes[c as usize];
                Some(MoveStats {
                    mv: n.mv?,
                    visits: n.visits as u64,
                    value: if n.visits == 0 {
                        0.5
                    } else {
                        n.reward as f64 / n.visits as f64
                    },
                    proven: match n.proof {
                        Proof::Win => Some(true),
                        Proof::Loss => Some(false),
                        _ => None,
                    },
                })
            })
            .collect()
    }

    fn pv(&self) -> Vec<Move> {
        let mut out = Vec::new();
        let mut n = 0u32;
        while out.len() < 32 {
            let best = self.children(n).max_by_key(|&c| {
                let node = &self.nodes[c as usize];
                (node.proof == Proof::Win, node.visits)
            });
            match best {
                Some(c) if self.nodes[c as usize].visits > 0 => {
                    if let Some(m) = self.nodes[c as usize].mv {
                        out.push(m);
                    }
                    n = c;
                }
                _ => break,
            }
        }
        out
    }

    /// Runs iterations until the budget is spent or the root is proven.
    fn run(
        &mut self,
        pos: &Position,
        config: &MctsConfig,
        iterations: Option<u64>,
        deadline: Option<Instant>,
        stop: Option<&Stop>,
        judge: Option<Judge<'_>>,
    ) -> Result<(u64, u64), SearchError> {
        let mut pos = pos.clone();
        let (mut done, mut playouts) = (0u64, 0u64);
        loop {
            if iterations.is_some_and(|n| done >= n) || self.nodes[0].proof != Proof::Unknown {
                break;
            }
            if done % 16 == 0
                && (deadline.is_some_and(|d| Instant::now() >= d) || stop.is_some_and(Stop::is_set))
            {
                break;
            }
            if self.iterate(&mut pos, config, judge)? {
                playouts += 1;
            }
            done += 1;
        }
        Ok((done, playouts))
    }
}

impl Mcts {
    /// A searcher.
    pub fn new(config: MctsConfig) -> Mcts {
        let threads = config.threads.max(1);
        let trees = (0..threads as u64)
            .map(|i| Tree::new(config.seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        Mcts {
            config,
            trees,
            eval: None,
        }
    }

    /// A searcher whose playouts, with [`MctsConfig::cutoff`], are cut off and judged by
    /// `eval`.
    pub fn with_eval(config: MctsConfig, eval: Arc<dyn Evaluator>) -> Mcts {
        Mcts {
            eval: Some(eval),
            ..Mcts::new(config)
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Forgets the trees (the generators go on).
    pub fn clear(&mut self) {
        for t in &mut self.trees {
            t.nodes.clear();
        }
    }

    /// Searches `pos` within `limits` (`iterations` over all threads, or `time`; without
    /// either, 1000 iterations), and returns the move with the most visits (a proven win
    /// first, a proven loss last).
    pub fn search(&mut self, pos: &Position, limits: &Limits) -> Result<MctsInfo, SearchError> {
        let started = Instant::now();
        if pos.decided().is_some() || pos.legal_moves()?.is_empty() {
            return Err(SearchError::NoMove(pos.status()));
        }
        let deadline = limits.time.map(|t| started + t);
        let iterations = match (limits.iterations, limits.time, limits.nodes) {
            (Some(n), _, _) | (None, None, Some(n)) => Some(n.max(1)),
            (None, None, None) => Some(1000),
            (None, Some(_), _) => None,
        };
        let threads = self.trees.len() as u64;
        let reuse = self.config.reuse;
        let mut reused = 0;
        for (i, t) in self.trees.iter_mut().enumerate() {
            t.set_root(pos, reuse);
            if i == 0 {
                reused = t.nodes[0].visits as u64;
            }
        }
        let config = &self.config;
        let stop = limits.stop.as_ref();
        let judge = match (config.cutoff, &self.eval) {
            (Some(plies), Some(eval)) => {
                let values: Vec<i32> = pos
                    .rules()
                    .core()
                    .all_pieces()
                    .map(|p| eval.piece_value(p).abs())
                    .collect();
                let mean =
                    values.iter().map(|&v| v as f64).sum::<f64>() / values.len().max(1) as f64;
                Some(Judge {
                    eval: eval.as_ref(),
                    scale: mean.max(1.0),
                    plies,
                })
            }
            _ => None,
        };
        let results: Vec<Result<(u64, u64), SearchError>> = if threads == 1 {
            vec![self.trees[0].run(pos, config, iterations, deadline, stop, judge)]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = self
                    .trees
                    .iter_mut()
                    .enumerate()
                    .map(|(i, t)| {
                        // The iterations shared out, the first trees taking the remainder.
                        let share =
                            iterations.map(|n| n / threads + u64::from((i as u64) < n % threads));
                        s.spawn(move || t.run(pos, config, share, deadline, stop, judge))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(Err(SearchError::Stopped)))
                    .collect()
            })
        };
        let (mut done, mut playouts) = (0, 0);
        for r in results {
            let (d, p) = r?;
            done += d;
            playouts += p;
        }
        // Sum the root statistics of all trees, by move.
        let mut moves: Vec<MoveStats> = self.trees[0].root_stats();
        for t in &self.trees[1..] {
            for s in t.root_stats() {
                if let Some(m) = moves.iter_mut().find(|x| x.mv == s.mv) {
                    let total = m.visits + s.visits;
                    if total > 0 {
                        m.value =
                            (m.value * m.visits as f64 + s.value * s.visits as f64) / total as f64;
                    }
                    m.visits = total;
                    m.proven = m.proven.or(s.proven);
                }
            }
        }
        let rank = |s: &MoveStats| {
            (
                match s.proven {
                    Some(true) => 2,
                    None => 1,
                    Some(false) => 0,
                },
                s.visits,
            )
        };
        moves.sort_by_key(|s| std::cmp::Reverse(rank(s)));
        let best = moves.first().cloned().ok_or(SearchError::Stopped)?;
        Ok(MctsInfo {
            iterations: done,
            playouts,
            elapsed: started.elapsed(),
            best,
            moves,
            pv: self.trees[0].pv(),
            tree_nodes: self.trees[0].nodes.len(),
            reused,
        })
    }
}
