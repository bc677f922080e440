//! Random valid rule packs, written as TOML text, for the composition test (`tests/compose.rs`)
//! and its fuzz target (`crates/cli/fuzz/fuzz_targets/compose.rs`, which includes this file).
//!
//! A pack mixes the constructs of the language at random: steps, slides (with `upto`,
//! `screen`, `over own`, `until`), leaps (with a leg), jumps across a zone, hops, far hops and hop chains, placement
//! with or without a supply, second parts (`then place`), effects (custodial with runs, surround, flip, convert,
//! required or not), a royal kind (sometimes two royal pieces of a side), promotion (to one
//! kind or by choice), compound moves, passing captures (ghosts), mandatory capture (of the most pieces too), passing,
//! holes, and conditions on patterns and in the rule sections. Everything is drawn from a
//! [`Draw`]: a seed for the property test, the fuzzer's bytes for the fuzz target.
//!
//! Two moves must never share a notation or a path: packs whose patterns overlap (two patterns
//! of a kind reaching one cell, two kinds placed, a pattern taking a passing piece while also
//! moving quietly, a compound move beside the mover's own pattern) are generated too.
#![allow(dead_code)]
// Loops over the two players index several per-player arrays at once.
#![allow(clippy::needless_range_loop)]

use std::fmt::Write as _;

/// Where the random decisions come from: bytes first (a fuzzer's input), then a xorshift
/// generator seeded from them (or from a seed).
pub struct Draw {
    bytes: Vec<u8>,
    at: usize,
    state: u64,
}

impl Draw {
    /// Decisions from a seed alone.
    pub fn seeded(seed: u64) -> Draw {
        Draw {
            bytes: Vec::new(),
            at: 0,
            state: (seed ^ 0x9E37_79B9_7F4A_7C15).wrapping_mul(0xBF58_476D_1CE4_E5B9) | 1,
        }
    }

    /// Decisions from a fuzzer's bytes, one byte a decision while they last.
    pub fn from_bytes(bytes: &[u8]) -> Draw {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in bytes {
            h = (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        Draw {
            bytes: bytes.to_vec(),
            at: 0,
            state: h | 1,
        }
    }

    fn next(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        if self.at < self.bytes.len() {
            let mut v = self.bytes[self.at] as usize;
            self.at += 1;
            if n > 256 && self.at < self.bytes.len() {
                v = v << 8 | self.bytes[self.at] as usize;
                self.at += 1;
            }
            return v % n;
        }
        (self.next() % n as u64) as usize
    }

    /// A number from `lo` to `hi`, both included.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with `percent` per cent.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// The largest board (rows and columns); the kernel's limit at most.
    pub max_rows: usize,
    /// The largest board (columns).
    pub max_cols: usize,
}

impl Config {
    /// Every construct, boards up to the kernel's limit.
    pub fn standard() -> Config {
        Config {
            max_rows: ply_kernel::MAX_ROWS,
            max_cols: ply_kernel::MAX_COLS,
        }
    }
}

/// The constructs a generated pack may contain, by name: [`RandomPack::has`] lists those it
/// does.
pub const CONSTRUCTS: &[&str] = &[
    "step",
    "slide",
    "slide upto",
    "slide screen",
    "slide over own",
    "slide until",
    "leap",
    "leap unless",
    "jump",
    "jump unless",
    "hop",
    "hop over",
    "hop chain",
    "hop chain complete",
    "hop far",
    "place",
    "place when",
    "supply",
    "captures to hand",
    "then place",
    "custodial",
    "surround",
    "flip",
    "convert",
    "groups",
    "custodial run",
    "required effect",
    "removal",
    "removal prefer",
    "turn",
    "turn again",
    "moved this turn",
    "turn_moves",
    "effect target",
    "effect hostile",
    "royal",
    "two royal pieces",
    "promotion",
    "promotion choice",
    "promotion ends_move false",
    "promotion optional",
    "promotion on leaving",
    "promotion forced",
    "leap directions",
    "along",
    "compound",
    "leaves ghost",
    "takes ghost",
    "must capture",
    "most captures",
    "pass",
    "pass any time",
    "after rule",
    "superko",
    "area",
    "holes",
    "links",
    "fly",
    "when (static)",
    "when (reads the position)",
    "enter rule",
    "capture rule",
    "place rule",
    "quiet",
    "capturing",
    "relative directions",
    "board over 8x8",
    "end rule",
    "checkmate",
    "overlapping patterns",
    "two placed kinds",
    "end rule of counts",
    "connectivity",
];

/// A generated pack: its text and the constructs it uses.
#[derive(Clone, Debug)]
pub struct RandomPack {
    /// The pack, as TOML.
    pub toml: String,
    /// The names (from [`CONSTRUCTS`]) of the constructs it uses.
    pub has: Vec<&'static str>,
}

/// The eight directions, clockwise from north, as bits of a mask.
const COMPASS: [&str; 8] = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];
/// The relative words for one direction, by turn clockwise from forward.
const RELATIVE: [&str; 8] = [
    "forward",
    "forward_right",
    "right",
    "backward_right",
    "backward",
    "backward_left",
    "left",
    "forward_left",
];

/// A set of directions for the first player and whether it is written relatively (the
/// second player's is then turned by half a turn).
#[derive(Clone, Copy)]
struct Dirs {
    mask: u8,
    relative: bool,
}

impl Dirs {
    /// The directions of each player.
    fn masks(self) -> [u8; 2] {
        if self.relative {
            [self.mask, self.mask.rotate_left(4)]
        } else {
            [self.mask, self.mask]
        }
    }

    /// As the language writes it, with group words where they fit.
    fn text(self, d: &mut Draw) -> String {
        let sep = if d.chance(50) { ", " } else { "+" };
        let mut words: Vec<&str> = Vec::new();
        let mut rest = self.mask;
        let groups: &[(u8, &str)] = if self.relative {
            &[
                (0b0100_0100, "sideways"),
                (0b1000_0010, "forward_diagonal"),
                (0b0010_1000, "backward_diagonal"),
            ]
        } else {
            &[
                (0xff, "all"),
                (0b0101_0101, "orthogonal"),
                (0b1010_1010, "diagonal"),
            ]
        };
        for &(g, w) in groups {
            if rest & g == g && d.chance(70) {
                words.push(w);
                rest &= !g;
            }
        }
        for i in 0..8 {
            if rest & (1 << i) != 0 {
                words.push(if self.relative {
                    RELATIVE[i]
                } else {
                    COMPASS[i]
                });
            }
        }
        words.join(sep)
    }
}

/// The cells one kind's patterns already reach, per player and direction: at distance one
/// (`near`) or further (`far`), so that no two patterns of a kind reach one cell the same way.
#[derive(Clone, Copy, Default)]
struct Claims {
    near: [u8; 2],
    far: [u8; 2],
    leaps: u16,
}

/// A kind of piece being generated.
struct Kind {
    name: &'static str,
    letter: &'static str,
    rank: usize,
    swimmer: bool,
    royal: bool,
    moves: Vec<String>,
    claims: Claims,
    placed: bool,
    supply: Option<usize>,
    /// `to_hand`: the kind its captured pieces become in the captor's hand.
    to_hand: Option<&'static str>,
    promote: Option<String>,
    /// Whether some pattern is a hop.
    hops: bool,
    /// Whether only steps move it (a compound mover must not reach its destination otherwise).
    steps_only: bool,
    /// Whether it captures by a pattern whose condition reads the position.
    dynamic_capture: bool,
}

const NAMES: [(&str, &str); 9] = [
    ("Ace", "A"),
    ("Bishop", "B"),
    ("Crab", "C"),
    ("Drake", "D"),
    ("Eel", "E"),
    ("Frog", "F"),
    ("Gull", "G"),
    ("Heron", "H"),
    ("Ibis", "I"),
];

/// The generator's state for one pack.
struct Gen<'d> {
    d: &'d mut Draw,
    cfg: Config,
    rows: usize,
    cols: usize,
    holes: Vec<(usize, usize)>,
    /// Links across holes, as `a-b` texts.
    links: Vec<String>,
    /// Shared zone `z`, as (row from the top, column).
    z: Vec<(usize, usize)>,
    kinds: Vec<Kind>,
    has: Vec<&'static str>,
    royal: Option<usize>,
    /// Entries of the jump tables so far (the kernel refuses packs past 65,535).
    jumped: usize,
    must_capture: bool,
    /// Whether a place rule keeps pieces without the tag out of `z` (set-up pieces too).
    z_forbidden: bool,
    /// The compound move: mover kind, partner kind, mover's column, partner's column.
    compound: Option<(usize, usize, usize, usize)>,
    /// Whether patterns of one kind may reach the same cells (drawn once a pack).
    overlaps: bool,
}

/// A random valid pack.
pub fn random_pack(d: &mut Draw, cfg: &Config) -> RandomPack {
    let (rows, cols) = board_size(d, cfg);
    let mut g = Gen {
        d,
        cfg: *cfg,
        rows,
        cols,
        holes: Vec::new(),
        links: Vec::new(),
        z: Vec::new(),
        kinds: Vec::new(),
        has: Vec::new(),
        royal: None,
        jumped: 0,
        must_capture: false,
        z_forbidden: false,
        compound: None,
        overlaps: false,
    };
    g.overlaps = g.d.chance(30);
    g.build()
}

fn board_size(d: &mut Draw, cfg: &Config) -> (usize, usize) {
    let pick = |d: &mut Draw, max: usize| match d.below(10) {
        0..=6 => d.range(3, 6.min(max)),
        7..=8 => d.range(3, 9.min(max)),
        _ => d.range(3, max),
    };
    (pick(d, cfg.max_rows), pick(d, cfg.max_cols))
}

impl Gen<'_> {
    fn note(&mut self, what: &'static str) {
        debug_assert!(CONSTRUCTS.contains(&what), "{what}");
        if !self.has.contains(&what) {
            self.has.push(what);
        }
    }

    /// The name of a cell given by row from the top and column.
    fn name(&self, (r, c): (usize, usize)) -> String {
        format!("{}{}", ply_kernel::column_name(c), self.rows - r)
    }

    fn names(&self, cells: &[(usize, usize)]) -> String {
        cells
            .iter()
            .map(|c| self.name(*c))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn is_hole(&self, c: (usize, usize)) -> bool {
        self.holes.contains(&c)
    }

    fn build(&mut self) -> RandomPack {
        let (rows, cols) = (self.rows, self.cols);
        if rows > 8 || cols > 8 {
            self.note("board over 8x8");
        }
        // The compound move's row cells are chosen before the holes, so that none is a hole.
        let compound = (cols >= 5 && self.d.chance(20)).then(|| {
            let m = self.d.range(0, cols - 3);
            let p = self.d.range(m + 1, cols - 1);
            (m, p)
        });
        // Holes: never on the first or last row (the owned zones live there), nor on the
        // compound move's cells.
        if rows > 2 && self.d.chance(30) {
            self.note("holes");
            let n = self.d.range(1, (rows - 2) * cols / 6 + 1);
            for _ in 0..n {
                let c = (self.d.range(1, rows - 2), self.d.below(cols));
                if !self.holes.contains(&c) {
                    self.holes.push(c);
                }
            }
        }
        // Links: some pairs of cells of a row or a column with only holes between them.
        if !self.holes.is_empty() && self.d.chance(50) {
            let mut pairs = Vec::new();
            for r in 0..rows {
                let cells: Vec<usize> = (0..cols).filter(|&c| !self.is_hole((r, c))).collect();
                for w in cells.windows(2) {
                    if w[1] > w[0] + 1 {
                        pairs.push(((r, w[0]), (r, w[1])));
                    }
                }
            }
            for c in 0..cols {
                let cells: Vec<usize> = (0..rows).filter(|&r| !self.is_hole((r, c))).collect();
                for w in cells.windows(2) {
                    if w[1] > w[0] + 1 {
                        pairs.push(((w[0], c), (w[1], c)));
                    }
                }
            }
            for (a, b) in pairs {
                if self.d.chance(60) {
                    self.note("links");
                    let text = format!("{}-{}", self.name(a), self.name(b));
                    self.links.push(text);
                }
            }
        }
        // The shared zone: some cells of the inner rows.
        let inner: Vec<(usize, usize)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|c| !self.is_hole(*c))
            .collect();
        for &c in &inner {
            if c.0 > 0 && c.0 < rows - 1 && self.d.chance(25) {
                self.z.push(c);
            }
        }
        if self.z.is_empty() {
            // One cell of an inner row (never on the back rows, where compound moves start).
            let rows_inside: Vec<(usize, usize)> = inner
                .iter()
                .copied()
                .filter(|c| c.0 > 0 && c.0 < rows - 1)
                .collect();
            let from = if rows_inside.is_empty() {
                &inner
            } else {
                &rows_inside
            };
            self.z.push(from[self.d.below(from.len())]);
        }

        let want_royal = self.d.chance(35);
        let want_place = self.d.chance(35);
        let want_ghost = rows >= 4 && self.d.chance(20);
        self.must_capture = self.d.chance(20);
        let pass = self.d.chance(20);
        let n = self.d.range(1, 4);
        // The royal kind first, when there is one.
        if want_royal {
            self.royal = Some(self.kinds.len());
            self.note("royal");
            let mut k = self.new_kind();
            k.royal = true;
            let dirs = if self.d.chance(60) { 0xff } else { 0x55 };
            let text = format!("step {}", self.dirs_text(dirs, false));
            k.moves.push(text);
            k.claims.near = [dirs, dirs];
            self.note("step");
            self.kinds.push(k);
        }
        if want_ghost {
            let mut k = self.new_kind();
            k.steps_only = false;
            let when = if self.d.chance(70) {
                " when from in home(player)"
            } else {
                ""
            };
            k.moves
                .push(format!("slide forward upto 2 quiet leaves ghost{when}"));
            k.moves
                .push("step forward_diagonal capturing takes ghost".to_string());
            k.claims.near = [0b1000_0011, 0b0011_1000];
            k.claims.far = [0b0000_0001, 0b0001_0000];
            for c in [
                "slide",
                "slide upto",
                "leaves ghost",
                "takes ghost",
                "step",
                "quiet",
                "capturing",
                "relative directions",
            ] {
                self.note(c);
            }
            if !when.is_empty() {
                self.note("when (static)");
            }
            self.kinds.push(k);
        }
        for _ in 0..n {
            let mut k = self.new_kind();
            let patterns = self.d.range(1, 3);
            for _ in 0..patterns {
                self.add_pattern(&mut k);
            }
            self.kinds.push(k);
        }
        if want_place {
            // One kind is placed: a new one, or one that also moves.
            let i = if self.d.chance(50) || self.kinds.len() == 1 {
                let k = self.new_kind();
                self.kinds.push(k);
                self.kinds.len() - 1
            } else {
                self.d
                    .range(usize::from(self.royal.is_some()), self.kinds.len() - 1)
            };
            self.add_place(i);
            if self.d.chance(25) {
                self.note("two placed kinds");
                let k = self.new_kind();
                self.kinds.push(k);
                let j = self.kinds.len() - 1;
                self.add_place(j);
            }
        }
        // Second parts, now that every kind exists.
        let count = self.kinds.len();
        for i in 0..count {
            for mi in 0..self.kinds[i].moves.len() {
                let m = &self.kinds[i].moves[mi];
                let can = ["step", "slide", "leap", "jump"]
                    .iter()
                    .any(|p| m.starts_with(p));
                if can && self.d.chance(12) {
                    let target = self.d.below(count);
                    let dirs = self.d.pick(&[0xffu8, 0x55, 0xaa, 0x0f]);
                    let dirs_text = self.dirs_text(dirs, false);
                    let text = format!(
                        " then place {} by slide {dirs_text}",
                        self.kinds[target].name
                    );
                    self.kinds[i].moves[mi].push_str(&text);
                    self.slide_cost(dirs, None);
                    self.note("then place");
                }
            }
        }
        self.promotions();
        let compound = compound.and_then(|(m, p)| self.compound_kinds(m, p));

        let mut out = String::new();
        let _ = writeln!(out, "[game]");
        let _ = writeln!(out, "name = \"Random\"");
        let _ = writeln!(out, "players = [\"White\", \"Black\"]");
        let _ = writeln!(out, "symbols = {{ White = \"W\", Black = \"B\" }}");
        let _ = writeln!(out, "forward = {{ White = \"up\", Black = \"down\" }}");
        let _ = writeln!(out, "attributes = [\"rank\"]");
        if self.must_capture {
            self.note("must capture");
            if self.d.chance(40) {
                self.note("most captures");
                let _ = writeln!(out, "must_capture = \"most\"");
            } else {
                let _ = writeln!(out, "must_capture = true");
            }
        }
        if pass {
            self.note("pass");
            if self.d.chance(40) {
                self.note("pass any time");
                let _ = writeln!(out, "pass = \"always\"");
            } else {
                let _ = writeln!(out, "pass = true");
            }
        }
        let _ = writeln!(out, "\n[board]\nrows = {rows}\ncols = {cols}");
        if !self.holes.is_empty() {
            let _ = writeln!(out, "holes = \"{}\"", self.names(&self.holes));
        }
        if !self.links.is_empty() {
            let _ = writeln!(out, "links = \"{}\"", self.links.join(" "));
        }
        let _ = writeln!(out, "\n[zones.z]\ncells = \"{}\"", self.names(&self.z));
        let last = rows - 1;
        let row = |r: usize| -> Vec<(usize, usize)> { (0..cols).map(|c| (r, c)).collect() };
        let _ = writeln!(
            out,
            "\n[zones.home]\nWhite = \"{}\"\nBlack = \"{}\"",
            self.names(&row(last)),
            self.names(&row(0))
        );
        let _ = writeln!(
            out,
            "\n[zones.far]\nWhite = \"{}\"\nBlack = \"{}\"",
            self.names(&row(0)),
            self.names(&row(last))
        );
        let swimmers = self.kinds.iter().any(|k| k.swimmer);
        for k in &self.kinds {
            let _ = writeln!(out, "\n[pieces.{}]\nletter = \"{}\"", k.name, k.letter);
            let _ = writeln!(out, "rank = {}", k.rank);
            if k.swimmer {
                let _ = writeln!(out, "tags = [\"swimmer\"]");
            }
            if k.royal {
                let _ = writeln!(out, "royal = true");
            }
            if let Some(s) = k.supply {
                let _ = writeln!(out, "supply = {s}");
            }
            if let Some(h) = k.to_hand {
                let _ = writeln!(out, "to_hand = \"{h}\"");
            }
            let moves: Vec<String> = k.moves.iter().map(|m| format!("'{m}'")).collect();
            let _ = writeln!(out, "moves = [{}]", moves.join(", "));
            if let Some(p) = &k.promote {
                let _ = writeln!(out, "promote = {p}");
            }
        }
        if let Some(text) = compound {
            out.push_str(&text);
        }
        self.rules(&mut out, swimmers);
        self.effects(&mut out);
        self.removal(&mut out);
        self.ends(&mut out, pass);
        self.setup(&mut out);
        RandomPack {
            toml: out,
            has: std::mem::take(&mut self.has),
        }
    }

    fn new_kind(&mut self) -> Kind {
        let (name, letter) = NAMES[self.kinds.len()];
        let rank = self.d.below(4);
        let swimmer = self.d.chance(30);
        Kind {
            name,
            letter,
            rank,
            swimmer,
            royal: false,
            moves: Vec::new(),
            claims: Claims::default(),
            placed: false,
            supply: None,
            to_hand: None,
            promote: None,
            hops: false,
            steps_only: true,
            dynamic_capture: false,
        }
    }

    fn dirs_text(&mut self, mask: u8, relative: bool) -> String {
        Dirs { mask, relative }.text(self.d)
    }

    /// Directions for a pattern that reaches cells at distance one (`near`) and/or further
    /// (`far`): free ones of the kind, or any when overlaps are allowed. `None` when none is
    /// free.
    fn claim(&mut self, k: &mut Kind, near: bool, far: bool) -> Option<Dirs> {
        let relative = self.d.chance(40);
        let free = |claims: &Claims, mask: u8| {
            let m = Dirs { mask, relative }.masks();
            (0..2).all(|p| {
                (!near || claims.near[p] & m[p] == 0) && (!far || claims.far[p] & m[p] == 0)
            })
        };
        let mut candidates: Vec<u8> = [
            0xffu8, 0x55, 0xaa, 0x01, 0x83, 0x44, 0x11, 0x10, 0x0f, 0xf0, 0x82, 0x28, 0x04, 0x40,
            0x05, 0x50,
        ]
        .into_iter()
        .filter(|m| self.overlaps || free(&k.claims, *m))
        .collect();
        if candidates.is_empty() {
            // Single free directions.
            candidates = (0..8)
                .map(|i| 1u8 << i)
                .filter(|m| free(&k.claims, *m))
                .collect();
        }
        if candidates.is_empty() {
            return None;
        }
        let mask = self.d.pick(&candidates);
        let dirs = Dirs { mask, relative };
        let m = dirs.masks();
        for p in 0..2 {
            if near {
                k.claims.near[p] |= m[p];
            }
            if far {
                k.claims.far[p] |= m[p];
            }
        }
        if relative {
            self.note("relative directions");
        }
        Some(dirs)
    }

    /// A mode word (`quiet`, `capturing` or none), with the constructs noted.
    fn mode(&mut self) -> &'static str {
        match self.d.below(4) {
            0 => {
                self.note("quiet");
                " quiet"
            }
            1 => {
                self.note("capturing");
                " capturing"
            }
            _ => "",
        }
    }

    /// A `when` condition in the enter scope; one that reads the position only where a royal
    /// pack allows it (a quiet pattern) or when there is no royal kind.
    fn when(&mut self, k: &mut Kind, quiet: bool) -> String {
        if !self.d.chance(25) {
            return String::new();
        }
        let dynamic = (quiet || self.royal.is_none()) && self.d.chance(40);
        if dynamic {
            self.note("when (reads the position)");
            if !quiet {
                k.dynamic_capture = true;
            }
            let c = self.d.pick(&[
                "empty(neighbour(to, n))",
                "not occupied(neighbour(from, s))",
                "count(player) >= 2",
                "count(opponent) <= 4",
                "empty(neighbour(from, e)) or to in z",
                "distance(from, to) == on_line(from, to)",
                "adjacent(to, all, opponent) <= 1",
                "along(to, n + s, player) <= 1",
                "along(from, orthogonal, opponent) >= 1",
            ]);
            if c.starts_with("along") {
                self.note("along");
            }
            format!(" when {c}")
        } else {
            self.note("when (static)");
            let other = self.kinds.len().saturating_sub(1);
            let c = match self.d.below(7) {
                0 => "not to in z".to_string(),
                1 => "to in z or from in z".to_string(),
                2 => "not to in home(opponent)".to_string(),
                3 => "to.row != from.row".to_string(),
                4 => "abs(to.col - from.col) <= 1".to_string(),
                5 => format!("not mover is {}", NAMES[other].0),
                _ => "mover.rank + to.col >= 1".to_string(),
            };
            format!(" when {c}")
        }
    }

    fn add_pattern(&mut self, k: &mut Kind) {
        // A flight reaches every cell: only where patterns may overlap, on small boards.
        if self.overlaps && self.rows * self.cols <= 64 && self.d.chance(8) {
            return self.add_fly(k);
        }
        match self.d.below(6) {
            0 | 1 => self.add_step(k),
            2 => self.add_slide(k),
            3 => self.add_leap(k),
            4 => self.add_jump(k),
            _ => self.add_hop(k),
        }
    }

    fn add_fly(&mut self, k: &mut Kind) {
        if !k.moves.is_empty() {
            self.note("overlapping patterns");
        }
        k.steps_only = false;
        let mode = self.mode();
        let when = self.when(k, mode == " quiet");
        k.moves.push(format!("fly{mode}{when}"));
        self.note("fly");
    }

    fn takes_ghost(&mut self, mode: &str) -> &'static str {
        let allowed = mode == " capturing" || mode.is_empty();
        if allowed && self.d.chance(30) {
            self.note("takes ghost");
            " takes ghost"
        } else {
            ""
        }
    }

    fn add_step(&mut self, k: &mut Kind) {
        let Some(dirs) = self.claim(k, true, false) else {
            return;
        };
        let dirs = dirs.text(self.d);
        let mode = self.mode();
        let ghost = self.takes_ghost(mode);
        let when = self.when(k, mode == " quiet");
        k.moves.push(format!("step {dirs}{mode}{ghost}{when}"));
        self.note("step");
    }

    /// Adds the jump tables' entries a slide in `mask` costs (from every cell, for both
    /// players); gives an `upto` that keeps the tables within the kernel's limit when the
    /// slide would pass it.
    fn slide_cost(&mut self, mask: u8, upto: Option<usize>) -> Option<usize> {
        let cost = |limit: usize| -> usize {
            let mut total = 0;
            for i in 0..8 {
                if mask & (1 << i) == 0 {
                    continue;
                }
                let (dr, dc): (i64, i64) = [
                    (-1, 0),
                    (-1, 1),
                    (0, 1),
                    (1, 1),
                    (1, 0),
                    (1, -1),
                    (0, -1),
                    (-1, -1),
                ][i];
                for r in 0..self.rows as i64 {
                    for c in 0..self.cols as i64 {
                        let (mut rr, mut cc, mut l) = (r + dr, c + dc, 0usize);
                        while rr >= 0
                            && cc >= 0
                            && (rr as usize) < self.rows
                            && (cc as usize) < self.cols
                        {
                            l += 1;
                            rr += dr;
                            cc += dc;
                        }
                        let l = l.min(limit);
                        total += l * l.saturating_sub(1) / 2 + l;
                    }
                }
            }
            // Both players' pieces, and the second part's own table.
            2 * total
        };
        let budget = 40_000;
        let mut limit = upto.unwrap_or(usize::MAX);
        while limit > 1 && self.jumped + cost(limit) > budget {
            limit = if limit == usize::MAX {
                self.rows.max(self.cols) - 1
            } else {
                limit - 1
            };
        }
        self.jumped += cost(limit);
        (limit != usize::MAX && upto != Some(limit)).then_some(limit)
    }

    fn add_slide(&mut self, k: &mut Kind) {
        let Some(dirs) = self.claim(k, true, true) else {
            return;
        };
        k.steps_only = false;
        let mask = dirs.masks()[0];
        let text = dirs.text(self.d);
        let mut upto = self.d.chance(30).then(|| self.d.range(1, 3));
        if let Some(forced) = self.slide_cost(mask, upto) {
            upto = Some(forced);
        }
        let upto = match upto {
            Some(n) => {
                self.note("slide upto");
                format!(" upto {n}")
            }
            None => String::new(),
        };
        let screen = if self.d.chance(15) {
            self.note("slide screen");
            " screen"
        } else if self.d.chance(15) {
            self.note("slide over own");
            " over own"
        } else {
            ""
        };
        let mode = self.mode();
        let until = if self.d.chance(15) {
            self.note("slide until");
            if self.d.chance(50) {
                " until cell in z"
            } else {
                " until cell in far(player)"
            }
        } else {
            ""
        };
        let when = self.when(k, mode == " quiet");
        k.moves
            .push(format!("slide {text}{upto}{screen}{mode}{until}{when}"));
        self.note("slide");
    }

    fn add_leap(&mut self, k: &mut Kind) {
        let max = self.rows.max(self.cols) - 1;
        let a = self.d.range(0, 3.min(max));
        let b = self.d.range(if a == 0 { 1 } else { 0 }, 3.min(max));
        let (a, b) = (a.min(b), a.max(b));
        if !(a < self.rows && b < self.cols || b < self.rows && a < self.cols) {
            return;
        }
        // On a line (a row, a column or a diagonal), a leap reaches what a step, slide, jump
        // or hop may reach: it claims those directions.
        let on_line = a == 0 || a == b;
        if on_line {
            let mask = if a == 0 { 0x55 } else { 0xaa };
            let near = b == 1;
            let m = [mask, mask];
            let free = (0..2).all(|p| {
                if near {
                    k.claims.near[p] & m[p] == 0
                } else {
                    k.claims.far[p] & m[p] == 0
                }
            });
            if !free {
                if !self.overlaps {
                    return;
                }
                self.note("overlapping patterns");
            }
            for p in 0..2 {
                if near {
                    k.claims.near[p] |= m[p];
                } else {
                    k.claims.far[p] |= m[p];
                }
            }
        } else {
            let bit = 1u16 << (a * 4 + b);
            if k.claims.leaps & bit != 0 {
                if !self.overlaps {
                    return;
                }
                self.note("overlapping patterns");
            }
            k.claims.leaps |= bit;
        }
        k.steps_only = false;
        let mode = self.mode();
        let ghost = self.takes_ghost(mode);
        let unless = if self.d.chance(30) {
            self.note("leap unless");
            if self.d.chance(60) {
                " unless occupied(cell)".to_string()
            } else {
                format!(
                    " unless occupant is {}",
                    NAMES[self.d.below(self.kinds.len() + 1)].0
                )
            }
        } else {
            String::new()
        };
        // Off the lines, every image heads along its longer side, orthogonally: any
        // orthogonal directions keep some of them.
        let heads = if !on_line && self.d.chance(30) {
            self.note("leap directions");
            self.d
                .pick(&[" n", " s, e", " w + n", " e, w", " n, s"])
                .to_string()
        } else {
            String::new()
        };
        let when = self.when(k, mode == " quiet");
        k.moves
            .push(format!("leap ({a}, {b}){heads}{mode}{ghost}{unless}{when}"));
        self.note("leap");
    }

    fn add_jump(&mut self, k: &mut Kind) {
        let Some(dirs) = self.claim(k, false, true) else {
            return;
        };
        k.steps_only = false;
        let text = dirs.text(self.d);
        self.slide_cost(dirs.masks()[0], Some(self.rows.max(self.cols)));
        let mode = self.mode();
        let unless = if self.d.chance(30) {
            self.note("jump unless");
            self.d
                .pick(&[" unless occupied(cell)", " unless occupant has swimmer"])
        } else {
            ""
        };
        let unless = if unless.contains("swimmer") && !k.swimmer {
            // The tag must exist: this kind has it.
            k.swimmer = true;
            unless
        } else {
            unless
        };
        let when = self.when(k, mode == " quiet");
        k.moves
            .push(format!("jump {text} across z{mode}{unless}{when}"));
        self.note("jump");
    }

    fn add_hop(&mut self, k: &mut Kind) {
        let Some(dirs) = self.claim(k, false, true) else {
            return;
        };
        k.steps_only = false;
        k.hops = true;
        let text = dirs.text(self.d);
        // A far hop passes at most MAX_FAR_HOP_LENGTH cells: boards whose lines are longer
        // refuse it.
        let short = self.rows.max(self.cols) <= ply_kernel::MAX_FAR_HOP_LENGTH;
        let far = if short && self.d.chance(30) {
            self.note("hop far");
            " far"
        } else {
            ""
        };
        let over = match self.d.below(4) {
            0 => {
                self.note("hop over");
                format!(" over {}", NAMES[self.d.below(self.kinds.len() + 1)].0)
            }
            1 => {
                self.note("hop over");
                " over target.rank <= mover.rank".to_string()
            }
            _ => String::new(),
        };
        // Only kinds defined so far, and this one, may be named.
        let over = if over.starts_with(" over ")
            && !over.contains("rank")
            && NAMES[..=self.kinds.len()]
                .iter()
                .all(|n| !over.ends_with(n.0))
        {
            String::new()
        } else {
            over
        };
        let chain = match self.d.below(5) {
            0 | 1 => String::new(),
            2 => {
                self.note("hop chain");
                " chain".to_string()
            }
            3 => {
                self.note("hop chain");
                self.note("hop chain complete");
                " chain complete".to_string()
            }
            _ => {
                self.note("hop chain");
                format!(" chain({})", self.d.pick(&["true", "false"]))
            }
        };
        let when = self.when(k, false);
        k.moves.push(format!("hop {text}{far}{over}{chain}{when}"));
        self.note("hop");
    }

    fn add_place(&mut self, i: usize) {
        self.note("place");
        let when = if self.d.chance(40) {
            self.note("place when");
            let all = [
                " when not cell in z",
                " when cell.row >= 1",
                " when not empty(neighbour(cell, s))",
                " when empty(neighbour(cell, n)) and empty(neighbour(cell, e))",
                " when adjacent(cell, all, player) >= 1 or count(player) == 0",
                " when liberties(neighbour(cell, n), orthogonal) != 1",
                " when hand(player, Ace) + hand(opponent, Ace) <= 3",
            ];
            self.d.pick(&all)
        } else {
            ""
        };
        let k = &mut self.kinds[i];
        k.moves.push(format!("place{when}"));
        k.placed = true;
        if self.d.chance(50) {
            k.supply = Some(self.d.range(0, 5));
            self.note("supply");
            // Captures to the hand: this kind's captured pieces (drops), or another kind's.
            if self.d.chance(50) {
                let name = self.kinds[i].name;
                let others: Vec<usize> = (0..self.kinds.len())
                    .filter(|&j| !self.kinds[j].royal)
                    .collect();
                let j = if others.is_empty() || self.d.chance(50) {
                    i
                } else {
                    self.d.pick(&others)
                };
                self.kinds[j].to_hand = Some(name);
                self.note("captures to hand");
            }
        }
    }

    fn promotions(&mut self) {
        let count = self.kinds.len();
        for i in 0..count {
            if self.kinds[i].royal || !self.d.chance(25) {
                continue;
            }
            let others: Vec<usize> = (0..count).filter(|j| *j != i).collect();
            if others.is_empty() {
                continue;
            }
            let choice = others.len() >= 2 && self.d.chance(50);
            let to = if choice {
                let a = self.d.pick(&others);
                let b = loop {
                    let b = self.d.pick(&others);
                    if b != a {
                        break b;
                    }
                };
                self.note("promotion choice");
                format!("[\"{}\", \"{}\"]", self.kinds[a].name, self.kinds[b].name)
            } else {
                format!("\"{}\"", self.kinds[self.d.pick(&others)].name)
            };
            let ends = if self.d.chance(30) {
                self.note("promotion ends_move false");
                ", ends_move = false"
            } else {
                ""
            };
            let mut by_move = String::new();
            if self.d.chance(40) {
                self.note("promotion optional");
                by_move.push_str(", optional = true");
                if self.d.chance(40) {
                    self.note("promotion forced");
                    by_move.push_str(", forced = \"z\"");
                }
            }
            if self.d.chance(30) {
                self.note("promotion on leaving");
                by_move.push_str(", on_leaving = true");
            }
            self.note("promotion");
            self.kinds[i].promote = Some(format!("{{ to = {to}, zone = \"far\"{ends}{by_move} }}"));
        }
    }

    /// The `[compound.castle]` table for a mover at column `m` and a partner at column `p` of
    /// each side's back row, if two kinds fit: a mover that only steps (unless overlaps are
    /// allowed) and another kind as partner.
    fn compound_kinds(&mut self, m: usize, p: usize) -> Option<String> {
        let movers: Vec<usize> = (0..self.kinds.len())
            .filter(|&i| {
                !self.kinds[i].placed
                    && (self.kinds[i].steps_only || self.overlaps)
                    && !self.kinds[i].moves.is_empty()
            })
            .collect();
        if movers.is_empty() || self.kinds.len() < 2 {
            return None;
        }
        let mover = self.d.pick(&movers);
        let partner = loop {
            let q = self.d.below(self.kinds.len());
            if q != mover {
                break q;
            }
        };
        self.note("compound");
        self.compound = Some((mover, partner, m, p));
        let last = self.rows - 1;
        let (mover_to, partner_to) = if self.overlaps && self.d.chance(50) {
            (m + 1, m + 2)
        } else {
            (m + 2, m + 1)
        };
        Some(format!(
            "\n[compound.castle]\nmover = \"{}\"\npartner = \"{}\"\ndirection = \"east\"\nmover_to = {{ White = \"{}\", Black = \"{}\" }}\npartner_to = {{ White = \"{}\", Black = \"{}\" }}\n",
            self.kinds[mover].name,
            self.kinds[partner].name,
            self.name((last, mover_to)),
            self.name((0, mover_to)),
            self.name((last, partner_to)),
            self.name((0, partner_to)),
        ))
    }

    fn rules(&mut self, out: &mut String, swimmers: bool) {
        let royal = self.royal.is_some();
        let mut enter = Vec::new();
        // Turns of several moves; the later moves of a turn told apart by rules that read
        // the position, which a royal kind's tabulated conditions cannot.
        let turn = self.d.chance(12);
        if turn {
            self.note("turn");
            let _ = writeln!(out, "\n[turn]\nmoves = {}", 2 + self.d.below(2));
            if self.d.chance(60) {
                self.note("turn again");
                let again = self.d.pick(&[
                    "taken == 0",
                    "turn_moves == 0 and taken == 0",
                    "not to in z",
                    "count(opponent) > 1",
                    "mover.rank >= 1",
                ]);
                let _ = writeln!(out, "again = '{again}'");
            }
        }
        if turn && !royal && self.d.chance(50) {
            self.note("moved this turn");
            enter.push("another-piece = 'not moved_this_turn(from)'".to_string());
        }
        if swimmers && self.d.chance(40) {
            enter.push("dry = 'not to in z or mover has swimmer'".to_string());
        }
        if self.d.chance(20) {
            enter.push(
                "not-far-row-for-the-weak = 'mover.rank >= 1 or not to in far(player)'".to_string(),
            );
        }
        if !royal && self.d.chance(15) {
            self.note("when (reads the position)");
            enter.push(
                "crowded = 'count(player) + count(opponent) >= 3 or to.col >= 0'".to_string(),
            );
        }
        if !enter.is_empty() {
            self.note("enter rule");
            let _ = writeln!(out, "\n[rules.enter]\n{}", enter.join("\n"));
        }
        let mut capture = Vec::new();
        if turn && !royal && self.d.chance(40) {
            self.note("turn_moves");
            capture.push("first-move-takes = 'turn_moves == 0'".to_string());
        }
        if self.d.chance(30) {
            capture.push("rank-decides = 'mover.rank >= target.rank'".to_string());
        }
        // With a royal kind, capture conditions must be tabulated: on a board of more than 196
        // cells that other conditions tell apart, this one's table (codes x cells x codes x
        // cells) could pass MAX_TABLE_BITS, a limit the pack would be refused for.
        if (!royal || self.rows * self.cols <= 196) && self.d.chance(20) {
            capture.push("dry-feet = 'not mover.cell in z or target.cell in z'".to_string());
        }
        if !capture.is_empty() {
            self.note("capture rule");
            let _ = writeln!(out, "\n[rules.capture]\n{}", capture.join("\n"));
        }
        if swimmers && self.d.chance(20) {
            self.note("place rule");
            let _ = writeln!(
                out,
                "\n[rules.place]\nnot-in-z = 'not cell in z or piece has swimmer'"
            );
            // Set-up pieces obey it too: none stands in z (see `setup`).
            self.z_forbidden = true;
        }
        if self.d.chance(20) {
            self.note("after rule");
            let mut after = Vec::new();
            if self.d.chance(50) {
                after.push("no-suicide = 'liberties(to, orthogonal) > 0 or not occupied(to)'");
            }
            if self.d.chance(50) {
                self.note("superko");
                after.push("superko = 'board_repetitions == 0'");
            }
            if after.is_empty() || self.d.chance(30) {
                after.push("company = 'adjacent(to, all, player) >= 1 or plies < 3'");
            }
            let _ = writeln!(out, "\n[rules.after]\n{}", after.join("\n"));
        }
    }

    /// A removal of the mover's choice, under a condition on the position the move leaves.
    fn removal(&mut self, out: &mut String) {
        if !self.d.chance(12) {
            return;
        }
        self.note("removal");
        let when = self.d.pick(&[
            "line(to, orthogonal) >= 2",
            "adjacent(to, all, opponent) >= 1",
            "count(opponent) > count(player)",
            "to in z",
            "true",
        ]);
        let _ = writeln!(out, "\n[effects.taking]\nremove = '{when}'");
        if self.d.chance(50) {
            self.note("removal prefer");
            let k = NAMES[self.d.below(self.kinds.len())].0;
            let prefer = match self.d.below(3) {
                0 => format!("not target is {k}"),
                1 => "line(target.cell, orthogonal) < 2".to_string(),
                _ => "adjacent(target.cell, all, player) == 0".to_string(),
            };
            let _ = writeln!(out, "prefer = '{prefer}'");
        }
    }

    fn effects(&mut self, out: &mut String) {
        if !self.d.chance(30) {
            return;
        }
        let n = self.d.range(1, 2);
        for i in 0..n {
            // Pieces that change sides are not captured: refused beside captures to the hand.
            let mut what = if self.kinds.iter().any(|k| k.to_hand.is_some()) {
                self.d.pick(&["custodial", "surround", "groups"])
            } else {
                self.d
                    .pick(&["custodial", "surround", "flip", "convert", "groups"])
            };
            // Groups only on boards within their limit.
            if what == "groups" && self.rows * self.cols > ply_kernel::MAX_GROUP_BOARD_CELLS {
                what = "surround";
            }
            self.note(what);
            let mask = self.d.pick(&[0x55u8, 0xaa, 0xff, 0x05, 0x11, 0x41]);
            let dirs: Vec<&str> = (0..8)
                .filter(|b| mask & (1 << b) != 0)
                .map(|b| COMPASS[b])
                .collect();
            let dirs = match mask {
                0x55 => "orthogonal".to_string(),
                0xaa => "diagonal".to_string(),
                0xff => "all".to_string(),
                _ => dirs.join(", "),
            };
            let _ = writeln!(out, "\n[effects.e{i}]\n{what} = \"{dirs}\"");
            if what == "custodial" && self.d.chance(40) {
                self.note("custodial run");
                let run = self.d.pick(&["2", "\"1..3\"", "\"2..2\""]);
                let _ = writeln!(out, "run = {run}");
            }
            if what != "groups" && self.d.chance(30) {
                self.note("effect target");
                let k = NAMES[self.d.below(self.kinds.len())].0;
                let t = match self.d.below(3) {
                    0 => format!("not target is {k}"),
                    1 => "target.rank <= mover.rank".to_string(),
                    _ => format!("target is {k} or target.rank == 0"),
                };
                let _ = writeln!(out, "target = '{t}'");
            }
            if what != "convert" && what != "groups" && self.d.chance(25) {
                self.note("effect hostile");
                let k = NAMES[self.d.below(self.kinds.len())].0;
                let h = match self.d.below(3) {
                    0 => "cell in z and not occupied(cell)".to_string(),
                    1 => "cell in z".to_string(),
                    _ => format!("occupant is {k}"),
                };
                let _ = writeln!(out, "hostile = '{h}'");
            }
            if self.d.chance(30) {
                self.note("required effect");
                let _ = writeln!(out, "required = true");
            }
        }
    }

    fn ends(&mut self, out: &mut String, pass: bool) {
        let mut ends: Vec<String> = Vec::new();
        if self.d.chance(30) {
            ends.push(
                "[end.last-piece]\nwhen = 'count(pieces(opponent)) == 0'\nwinner = 'player'".into(),
            );
        }
        if self.d.chance(15) {
            ends.push("[end.arrival]\nwhen = 'mover.cell in far(player) and mover.rank >= 2'\nwinner = 'player'".into());
        }
        if self.d.chance(15) {
            ends.push("[end.quiet]\nwhen = 'clock >= 24'\ndraw = true".into());
        }
        if self.d.chance(25) {
            // Interpreted (not a plain counter): read again only when counts or cells change.
            // A placed kind, where there is one: its count grows on the other player's turn.
            let placed: Vec<usize> = (0..self.kinds.len())
                .filter(|&i| self.kinds[i].placed)
                .collect();
            let k = if placed.is_empty() {
                self.d.below(self.kinds.len())
            } else {
                self.d.pick(&placed)
            };
            let name = self.kinds[k].name;
            let n = self.d.range(1, 3);
            self.note("end rule of counts");
            ends.push(format!(
                "[end.counts]\nwhen = 'count(opponent, {name}) * 2 >= {} or count(pieces(player, {name}) in z) >= {n}'\ndraw = true",
                2 * n
            ));
        }
        if self.d.chance(15) {
            self.note("connectivity");
            ends.push(self.d.pick(&[
                "[end.joined]\nwhen = 'connected(player, z, far(player), orthogonal + nw + se)'\nwinner = 'player'",
                "[end.one-group]\nwhen = 'groups(player, all) == 1 and count(player) >= 3'\nwinner = 'player'",
            ]).to_string());
        }
        if self.d.chance(10) {
            ends.push("[end.idle]\nwhen = 'idle >= 16'\ndraw = true".into());
        }
        if self.d.chance(10) {
            self.note("area");
            ends.push("[end.scored]\nwhen = 'plies >= 30 or board_repetitions >= 2'\nwinner = 'if area(player, orthogonal) > area(opponent, orthogonal) then player else if area(player, orthogonal) < area(opponent, orthogonal) then opponent else nobody'".into());
        }
        if self.d.chance(10) {
            ends.push("[end.repetition]\nwhen = 'repetitions >= 2'\ndraw = true".into());
        }
        if pass && self.d.chance(60) {
            ends.push("[end.two-passes]\nwhen = 'passes >= 2'\ndraw = true".into());
        }
        if self.royal.is_some() && self.d.chance(60) {
            self.note("checkmate");
            ends.push("[end.checkmate]\nwhen = 'no_moves(opponent) and in_check(opponent)'\nwinner = 'player'".into());
            ends.push("[end.stalemate]\nwhen = 'no_moves(opponent)'\ndraw = true".into());
        } else if self.d.chance(40) {
            ends.push("[end.stuck]\nwhen = 'no_moves(opponent)'\nwinner = 'player'".into());
        }
        if !ends.is_empty() {
            self.note("end rule");
        }
        for e in ends {
            let _ = writeln!(out, "\n{e}");
        }
    }

    /// The set-up: the compound move's pieces on their cells, one royal piece a side (two,
    /// sometimes, for the first player), and a few pieces of the other kinds on free cells.
    fn setup(&mut self, out: &mut String) {
        let (rows, cols) = (self.rows, self.cols);
        let mut taken: Vec<(usize, usize)> = self.holes.clone();
        let mut per: [Vec<(usize, (usize, usize))>; 2] = [Vec::new(), Vec::new()];
        let back = [rows - 1, 0];
        if let Some((mover, partner, m, p)) = self.compound {
            let end = p.max(m + 2);
            for (side, list) in per.iter_mut().enumerate() {
                for c in m..=end {
                    taken.push((back[side], c));
                }
                list.push((mover, (back[side], m)));
                list.push((partner, (back[side], p)));
            }
        }
        let budget = (rows * cols - self.holes.len()) / 2;
        let z_forbidden = self.z_forbidden;
        // The royal pieces of both sides first, so that there is room for them.
        let mut order: Vec<(usize, usize)> = Vec::new();
        for royal_first in [true, false] {
            for side in 0..2 {
                for ki in 0..self.kinds.len() {
                    if self.kinds[ki].royal == royal_first {
                        order.push((side, ki));
                    }
                }
            }
        }
        let mut placed = [per[0].len(), per[1].len()];
        for (side, ki) in order {
            {
                let placed = &mut placed[side];
                let k = &self.kinds[ki];
                let is_mover = self.compound.is_some_and(|c| c.0 == ki);
                let n = if k.royal {
                    if is_mover {
                        0
                    } else if side == 0 && self.d.chance(15) {
                        self.note("two royal pieces");
                        2
                    } else {
                        1
                    }
                } else if is_mover {
                    0
                } else {
                    self.d.range(0, 3)
                };
                let swimmer = self.kinds[ki].swimmer;
                for _ in 0..n {
                    if *placed >= budget && !self.kinds[ki].royal {
                        break;
                    }
                    // Own half most of the time.
                    let half = self.d.chance(60);
                    let mut found = None;
                    for _ in 0..50 {
                        let r = if half {
                            if side == 0 {
                                self.d.range(rows / 2, rows - 1)
                            } else {
                                self.d.range(0, (rows - 1) / 2)
                            }
                        } else {
                            self.d.below(rows)
                        };
                        let c = (r, self.d.below(cols));
                        if taken.contains(&c) || (z_forbidden && !swimmer && self.z.contains(&c)) {
                            continue;
                        }
                        found = Some(c);
                        break;
                    }
                    if found.is_none() && self.kinds[ki].royal {
                        // A royal piece must stand somewhere: any free cell, or else one the
                        // compound move would pass (which then blocks it).
                        let free = |c: &(usize, usize), kept: &[(usize, usize)]| {
                            let forbidden = z_forbidden && !swimmer && self.z.contains(c);
                            !kept.contains(c) && !forbidden
                        };
                        let cells = || (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c)));
                        let standing: Vec<(usize, usize)> = per
                            .iter()
                            .flatten()
                            .map(|(_, c)| *c)
                            .chain(self.holes.iter().copied())
                            .collect();
                        found = cells()
                            .find(|c| free(c, &taken))
                            .or_else(|| cells().find(|c| free(c, &standing)));
                    }
                    let Some(c) = found else {
                        break;
                    };
                    taken.push(c);
                    per[side].push((ki, c));
                    *placed += 1;
                }
            }
        }
        for (side, player) in ["White", "Black"].iter().enumerate() {
            let _ = writeln!(out, "\n[setup.{player}]");
            for ki in 0..self.kinds.len() {
                let cells: Vec<(usize, usize)> = per[side]
                    .iter()
                    .filter(|(k, _)| *k == ki)
                    .map(|(_, c)| *c)
                    .collect();
                if !cells.is_empty() {
                    let _ = writeln!(out, "{} = \"{}\"", self.kinds[ki].name, self.names(&cells));
                }
            }
        }
    }
}
