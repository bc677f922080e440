//! The invariants of composition, checked on every position of a random game of a pack: the
//! property test (`tests/compose.rs`) and the fuzz target
//! (`crates/cli/fuzz/fuzz_targets/compose.rs`) both run [`check_pack`].
//!
//! For every position reached:
//! 1. the generated legal moves are, as a set, the moves of the reference definition of
//!    legality ([`Position::legal_moves_by_reference`]), and perft(1) counts them;
//! 2. making then unmaking each legal move restores the position string, the key and the
//!    whole position, and so does playing it in a [`Game`] and taking it back;
//! 3. no two legal moves share a notation or a path (with the promotion chosen), each move's
//!    notation reads back ([`ply_kernel::parse_move`], [`Position::find_move_choosing`]) as that
//!    very move, and the moves of each piece ([`Position::moves_from`]) are its legal moves;
//! 4. each pseudo-legal move that is not legal is refused by [`Position::find_move_choosing`]
//!    on its path with the reason the reference gives ([`Position::reference_verdict`]), or
//!    for mandatory capture or a pass when the reference admits it; a path typed at random is
//!    accepted exactly when a legal move has it;
//! 5. the position string reads back as the same position (string and key).
#![allow(dead_code)]

use super::random_pack::Draw;
use ply_kernel::{Cell, Game, Move, MoveErrorKind, MoveLimit, Position, Reason, Rules};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

thread_local! {
    /// What the check is doing, for the report of a panic inside the kernel.
    static DOING: RefCell<String> = const { RefCell::new(String::new()) };
}

fn doing(what: impl FnOnce() -> String) {
    DOING.with(|d| *d.borrow_mut() = what());
}

/// What a walk went through.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    /// Plies played.
    pub plies: usize,
    /// Positions checked.
    pub positions: usize,
    /// Legal moves checked.
    pub moves: usize,
    /// Pseudo-legal moves refused, checked against their explanation.
    pub refused: usize,
    /// The refusals seen, by reason.
    pub reasons: HashMap<String, usize>,
    /// Whether the walk stopped at a position past the kernel's limits.
    pub limited: bool,
}

/// A broken invariant, with what it takes to reproduce it.
#[derive(Clone, Debug)]
pub struct Failure {
    /// What is wrong.
    pub message: String,
    /// The pack.
    pub pack: String,
    /// The moves played from the start, in notation.
    pub moves: Vec<String>,
    /// The position where it broke, as a position string.
    pub position: Option<String>,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.message)?;
        writeln!(f, "--- moves from the start: {}", self.moves.join(" "))?;
        if let Some(p) = &self.position {
            writeln!(f, "--- position: {p}")?;
        }
        writeln!(f, "--- pack:\n{}--- end of pack", self.pack)
    }
}

/// Loads a pack's text, or its rendered diagnostics.
pub fn load(toml: &str) -> Result<Arc<Rules>, String> {
    ply_lang::load_str("random.toml", toml, &[])
        .map(|p| p.rules)
        .map_err(|e| e.render(false))
}

/// Loads `toml` and plays up to `max_plies` random moves from its start (chosen by `d`),
/// checking every invariant on every position. A panic inside is a failure too.
pub fn check_pack(toml: &str, d: &mut Draw, max_plies: usize) -> Result<Walk, Failure> {
    let moves = RefCell::new(Vec::new());
    let position = RefCell::new(None);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        walk(toml, d, max_plies, &moves, &position)
    }));
    let fail = |message: String| Failure {
        message,
        pack: toml.to_string(),
        moves: moves.borrow().clone(),
        position: position.borrow().clone(),
    };
    match result {
        Ok(Ok(w)) => Ok(w),
        Ok(Err(message)) => Err(fail(message)),
        Err(panic) => {
            let text = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let what = DOING.with(|d| d.borrow().clone());
            Err(fail(format!("panic: {text} (while {what})")))
        }
    }
}

fn walk(
    toml: &str,
    d: &mut Draw,
    max_plies: usize,
    moves: &RefCell<Vec<String>>,
    position: &RefCell<Option<String>>,
) -> Result<Walk, String> {
    let rules = load(toml).map_err(|e| format!("the generated pack does not load:\n{e}"))?;
    let must_capture = if toml.lines().any(|l| l.trim() == "must_capture = true") {
        Capturing::Mandatory
    } else if toml.lines().any(|l| l.trim() == "must_capture = \"most\"") {
        Capturing::Most
    } else {
        Capturing::Free
    };
    let mut game = Game::new(rules.clone());
    let mut stats = Walk::default();
    let mut strings = vec![game.position().to_position_string()];
    let mut hashes = vec![game.position().hash()];
    let mut positions = vec![game.position().clone()];
    for _ in 0..=max_plies {
        *position.borrow_mut() = Some(game.position().to_position_string());
        match check_position(game.position(), must_capture, d, &mut stats) {
            Ok(true) => {}
            Ok(false) => {
                stats.limited = true;
                break;
            }
            Err(e) => return Err(e),
        }
        if stats.plies == max_plies {
            break;
        }
        let Ok(legal) = game.legal_moves() else {
            break;
        };
        if legal.is_empty() {
            break;
        }
        let m = legal.get(d.below(legal.len())).unwrap();
        let text = ply_kernel::move_text(&rules, &m);
        moves.borrow_mut().push(text.clone());
        let mut made = game.position().clone();
        made.make_unchecked(m);
        game.play(m)
            .map_err(|e| format!("Game::play refuses the legal move {text}: {e}"))?;
        if game.position() != &made {
            return Err(format!(
                "Game::play({text}) and make_unchecked reach different positions: {} and {}",
                game.position().to_position_string(),
                made.to_position_string()
            ));
        }
        stats.plies += 1;
        // End rules about the position alone decide a position the same whether it is reached
        // by play or read from its string (which judges it as if just moved into); rules about
        // the moved piece or the history (`mover`, `to`, `repetitions`) are left out.
        if position_rules_only(toml) {
            let played = game.position().to_position_string();
            let unjudged: Vec<&str> = played
                .split_whitespace()
                .filter(|f| *f != "draw" && !f.starts_with("winner="))
                .collect();
            let unjudged = unjudged.join(" ");
            let read = Position::from_position_string(rules.clone(), &unjudged)
                .map_err(|e| format!("{unjudged} does not read: {e}"))?;
            if read.decided() != game.position().decided() {
                return Err(format!(
                    "after {text}, play decides {:?} but the same position read from `{unjudged}` decides {:?}",
                    game.position().decided(),
                    read.decided()
                ));
            }
        }
        strings.push(game.position().to_position_string());
        hashes.push(game.position().hash());
        positions.push(game.position().clone());
    }
    // Take every move back, then play them all again.
    for i in (0..strings.len() - 1).rev() {
        if !game.undo() {
            return Err(format!("undo refused at ply {i}"));
        }
        let p = game.position();
        if p.to_position_string() != strings[i] || p.hash() != hashes[i] || p != &positions[i] {
            *position.borrow_mut() = Some(strings[i].clone());
            return Err(format!(
                "undo back to ply {i} gives {} (key {:x}), not {} (key {:x})",
                p.to_position_string(),
                p.hash(),
                strings[i],
                hashes[i]
            ));
        }
    }
    if game.undo() {
        return Err("undo past the start".into());
    }
    for (i, s) in strings.iter().enumerate().skip(1) {
        if !game.redo() || &game.position().to_position_string() != s {
            return Err(format!("redo to ply {i} does not give {s}"));
        }
    }
    Ok(stats)
}

/// Whether every end rule of a pack reads only the position as it stands (not the moved piece,
/// its cells or the history of positions).
fn position_rules_only(toml: &str) -> bool {
    // A rule of the position after the move that reads the history decides which moves are
    // legal, and so whether a player has none.
    if toml.contains("board_repetitions") {
        return false;
    }
    let ends = toml
        .split("\n[")
        .filter(|section| section.starts_with("end."));
    ends.into_iter().all(|e| {
        ["mover", "from", "to", "repetitions"]
            .iter()
            .all(|w| !e.contains(w))
    })
}

/// At most `n` of `items`, chosen by `d` (all of them when there are few).
fn sample<T: Copy>(items: &[T], n: usize, d: &mut Draw) -> Vec<T> {
    if items.len() <= n {
        return items.to_vec();
    }
    (0..n).map(|_| items[d.below(items.len())]).collect()
}

/// What a pack's `must_capture` says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Capturing {
    /// Absent or false.
    Free,
    /// `true`: a player who can capture must.
    Mandatory,
    /// `"most"`: and must take the most pieces any capture takes.
    Most,
}

/// Checks one position; false when its moves pass the kernel's limits (nothing to check).
/// `must_capture` says whether the pack makes capturing mandatory.
pub fn check_position(
    pos: &Position,
    must_capture: Capturing,
    d: &mut Draw,
    stats: &mut Walk,
) -> Result<bool, String> {
    let rules = pos.rules().clone();
    let text = |m: &Move| ply_kernel::move_text(&rules, m);
    stats.positions += 1;
    doing(|| format!("generating the moves of {}", pos.to_position_string()));
    let legal: Vec<Move> = match pos.legal_moves() {
        Ok(l) => l.iter().collect(),
        Err(MoveLimit::TooMany | MoveLimit::ChainTooLong) => {
            // The reference must then fail the same way (or list as many).
            return Ok(false);
        }
    };
    doing(|| "listing the moves by the reference".into());
    let reference = pos
        .legal_moves_by_reference()
        .map_err(|e| format!("the reference fails where generation does not: {e}"))?;
    stats.moves += legal.len();

    // 1. One meaning of legality.
    let generated: HashSet<Move> = legal.iter().copied().collect();
    let by_reference: HashSet<Move> = reference.iter().copied().collect();
    if generated != by_reference {
        let only_generated: Vec<String> = legal
            .iter()
            .filter(|m| !by_reference.contains(m))
            .map(|m| format!("{} ({:?})", text(m), pos.reference_verdict(*m)))
            .collect();
        let only_reference: Vec<String> = reference
            .iter()
            .filter(|m| !generated.contains(m))
            .map(text)
            .collect();
        return Err(format!(
            "generation and the reference disagree: generated only {only_generated:?}; reference only {only_reference:?}"
        ));
    }
    let mut p = pos.clone();
    let perft = p.perft(1).map_err(|e| e.to_string())?;
    if perft != legal.len() as u64 {
        return Err(format!(
            "perft(1) is {perft} but there are {} legal moves",
            legal.len()
        ));
    }

    // 3. One notation and one path per move, read back as the move.
    let mut texts: HashMap<String, Move> = HashMap::new();
    let mut paths: HashMap<(Vec<Cell>, Option<ply_kernel::Piece>), Move> = HashMap::new();
    for m in &legal {
        let t = text(m);
        if let Some(other) = texts.insert(t.clone(), *m) {
            return Err(format!(
                "two legal moves share the notation {t}: {other:?} and {m:?}"
            ));
        }
        let path = pos.path(*m).to_vec();
        if let Some(other) =
            paths.insert((path.clone(), m.promotion().or(pos.placed_piece(*m))), *m)
        {
            return Err(format!(
                "two legal moves share the path of {t}: {other:?} and {m:?} ({})",
                text(&other)
            ));
        }
    }
    for m in sample(&legal, 24, d) {
        let t = text(&m);
        doing(|| format!("typing the legal move {t}"));
        let (path, choice) = ply_kernel::parse_move(&rules, &t)
            .map_err(|e| format!("the notation {t} does not read back: {e}"))?;
        match pos.find_move_choosing(None, &path, choice) {
            Ok(found) if found == m => {}
            Ok(found) => {
                return Err(format!(
                    "{t} reads back as another move, {} ({found:?} instead of {m:?})",
                    text(&found)
                ));
            }
            Err(e) => return Err(format!("the legal move {t} is refused when typed: {e}")),
        }
    }
    let mut from_cells: Vec<Cell> = legal
        .iter()
        .filter(|m| !m.is_placement() && !m.is_pass())
        .map(|m| m.from())
        .collect();
    from_cells.sort_by_key(|c| c.index());
    from_cells.dedup();
    for cell in sample(&from_cells, 6, d) {
        let mut of_piece: Vec<Move> = pos
            .moves_from(cell)
            .map_err(|e| e.to_string())?
            .iter()
            .collect();
        let mut expected: Vec<Move> = legal
            .iter()
            .filter(|m| !m.is_placement() && !m.is_pass() && m.from() == cell)
            .copied()
            .collect();
        let key = |m: &Move| text(m);
        of_piece.sort_by_key(key);
        expected.sort_by_key(key);
        if of_piece != expected {
            return Err(format!(
                "moves_from({}) lists {:?}, the legal moves from there are {:?}",
                rules.geometry().name(cell),
                of_piece.iter().map(text).collect::<Vec<_>>(),
                expected.iter().map(text).collect::<Vec<_>>()
            ));
        }
    }

    // 2. Make and unmake restore everything.
    let before = (pos.to_position_string(), pos.hash());
    for m in &legal {
        doing(|| format!("making and unmaking {}", text(m)));
        let u = p.make_unchecked(*m);
        p.unmake_unchecked(*m, u);
        if (p.to_position_string(), p.hash()) != before || &p != pos {
            return Err(format!(
                "make then unmake of {} leaves {} (key {:x}), not {} (key {:x}){}",
                text(m),
                p.to_position_string(),
                p.hash(),
                before.0,
                before.1,
                difference(&p, pos)
            ));
        }
    }
    // 2b. A null move (the search's pass) keys the position as a set-up would, and is taken
    // back exactly, a move made after it included.
    if p.can_make_null() && !p.in_check() {
        doing(|| "making and unmaking a null move".into());
        let undo = p.make_null();
        let passed = p.to_position_string();
        if let Ok(set_up) = Position::from_position_string(rules.clone(), &passed)
            && set_up.hash() != p.hash()
        {
            return Err(format!(
                "after a null move the key is {:x}, the set-up {passed} has {:x}",
                p.hash(),
                set_up.hash()
            ));
        }
        if let Ok(list) = p.legal_moves()
            && let Some(m) = list.iter().next()
        {
            let u = p.make_unchecked(m);
            p.unmake_unchecked(m, u);
        }
        p.unmake_null(undo);
        if (p.to_position_string(), p.hash()) != before || &p != pos {
            return Err(format!(
                "a null move taken back leaves {} (key {:x}), not {}{}",
                p.to_position_string(),
                p.hash(),
                before.0,
                difference(&p, pos)
            ));
        }
    }
    // A few moves played in a game and taken back; the position after reads back too. (A
    // position string carries no history: where rules of the position after the move read
    // it, the legal moves of the position read may differ, and this is left out.)
    let history_decides = !rules.rule_names(ply_kernel::Section::After).is_empty();
    for m in sample(&legal, 3, d) {
        if history_decides {
            break;
        }
        let mut game = Game::from_position_string(rules.clone(), &before.0)
            .map_err(|e| format!("the position string {} does not read: {e}", before.0))?;
        let start = game.position().clone();
        game.play(m)
            .map_err(|e| format!("Game::play refuses the legal move {}: {e}", text(&m)))?;
        round_trip(game.position()).map_err(|e| format!("after {}: {e}", text(&m)))?;
        game.undo();
        if game.position() != &start {
            return Err(format!(
                "Game::play({}) then undo gives {}, not {}",
                text(&m),
                game.position().to_position_string(),
                before.0
            ));
        }
    }

    // 4. A refused move is refused for the reference's reason.
    let pseudo = pos
        .pseudo_legal_moves()
        .map_err(|e| format!("pseudo-legal moves fail where legal ones do not: {e}"))?;
    let refused: Vec<Move> = pseudo
        .iter()
        .filter(|m| !generated.contains(m))
        .copied()
        .collect();
    let any_capture = legal.iter().any(|m| m.is_capture());
    let most_taken = legal.iter().map(|m| m.captured_count()).max().unwrap_or(0);
    for m in sample(&refused, 24, d) {
        stats.refused += 1;
        let t = text(&m);
        let path = pos.path(m).to_vec();
        let choice = m.promotion().or(pos.placed_piece(m)).map(|p| p.kind());
        doing(|| format!("typing the refused move {t}"));
        let found = pos.find_move_choosing(None, &path, choice);
        let verdict = pos.reference_verdict(m);
        let given = match &found {
            // Two cells name a hop chain by its ends: a refused single hop's path is the
            // abbreviation of a legal chain with the same ends.
            Ok(f)
                if path.len() == 2
                    && f.hops() > 1
                    && generated.contains(f)
                    && (f.from(), f.to()) == (m.from(), m.to()) =>
            {
                continue;
            }
            Ok(f) => {
                return Err(format!(
                    "{t}, which is not legal (the reference says {verdict:?}), is accepted when typed, as {}",
                    text(f)
                ));
            }
            Err(e) => e.kind(),
        };
        if pos.outcome().is_some() {
            // The game is over (a rule decided on the empty move list): nothing moves.
            if !matches!(given, MoveErrorKind::GameOver(_)) {
                return Err(format!("{t} is refused with {given:?} in a finished game"));
            }
            continue;
        }
        let reason = match given {
            MoveErrorKind::Illegal { reason, .. } | MoveErrorKind::CannotPlace { reason, .. } => {
                Some(reason)
            }
            _ => None,
        };
        *stats
            .reasons
            .entry(match reason {
                Some(r) => format!("{r:?}").split('(').next().unwrap_or("").to_string(),
                None => format!("{given:?}")
                    .split([' ', '('])
                    .next()
                    .unwrap_or("")
                    .to_string(),
            })
            .or_default() += 1;
        // The path alone of a move that may promote, where declining is refused and some
        // choice is legal, asks for the choice (`e7-e8` "say into what").
        if matches!(given, MoveErrorKind::ChoiceNeeded { .. })
            && m.promotion().is_none()
            && generated
                .iter()
                .any(|g| g.promotion().is_some() && pos.path(*g).as_slice() == path.as_slice())
        {
            continue;
        }
        match verdict {
            _ if m.is_pass() => {
                // A pass is judged only when nothing else is legal.
                if given != MoveErrorKind::CannotPass {
                    return Err(format!(
                        "a pass, with other moves legal, is refused with {given:?}"
                    ));
                }
            }
            Err(why) => {
                if reason != Some(why) {
                    return Err(format!(
                        "{t} is refused by the reference for {why:?}, but typed it is refused with {given:?}"
                    ));
                }
            }
            Ok(()) => {
                let mandatory = must_capture != Capturing::Free && any_capture && !m.is_capture();
                let fewer = must_capture == Capturing::Most
                    && m.is_capture()
                    && m.captured_count() < most_taken;
                if fewer {
                    if reason != Some(Reason::TakesFewer(most_taken as u8)) {
                        return Err(format!(
                            "{t} takes {} pieces where another capture takes {most_taken}, but typed it is refused with {given:?}",
                            m.captured_count()
                        ));
                    }
                    continue;
                }
                if !mandatory {
                    return Err(format!(
                        "{t} is admitted by the reference, is not a move that mandatory capture rules out, and is not legal (typed: {given:?})"
                    ));
                }
                if reason != Some(Reason::MustCapture) {
                    return Err(format!(
                        "{t} is ruled out by mandatory capture, but typed it is refused with {given:?}"
                    ));
                }
            }
        }
    }
    // Paths typed at random: accepted exactly when a legal move has them.
    let g = rules.geometry();
    let cells: Vec<Cell> = g.cells().iter().collect();
    let own: Vec<Cell> = pos.occupied(pos.side_to_move()).iter().collect();
    if !own.is_empty() {
        for _ in 0..6 {
            let path = vec![own[d.below(own.len())], cells[d.below(cells.len())]];
            // (A pass is typed `pass`, not as a path.)
            let exact = legal
                .iter()
                .filter(|m| !m.is_pass() && pos.path(**m).as_slice() == path)
                .count();
            let ends: Vec<&Move> = legal
                .iter()
                .filter(|m| {
                    !m.is_placement() && !m.is_pass() && m.from() == path[0] && m.to() == path[1]
                })
                .collect();
            if ends.iter().any(|m| m.promotion().is_some()) {
                continue;
            }
            // Two cells name a legal move by its ends (a second part's cell left out), unless
            // they are exactly the path of a pseudo-legal move, which they then name.
            let names_pseudo = pseudo.iter().any(|m| pos.path(*m).as_slice() == path);
            let listed = exact > 0 || (ends.len() == 1 && !names_pseudo);
            doing(|| {
                format!(
                    "typing the path {}",
                    path.iter()
                        .map(|c| g.name(*c).to_string())
                        .collect::<Vec<_>>()
                        .join("-")
                )
            });
            match pos.find_move(None, &path) {
                Ok(m) => {
                    if !listed || !generated.contains(&m) {
                        return Err(format!(
                            "the path {} is accepted as {}, which is not a legal move with that path",
                            path.iter()
                                .map(|c| g.name(*c).to_string())
                                .collect::<Vec<_>>()
                                .join("-"),
                            text(&m)
                        ));
                    }
                }
                Err(e) => {
                    if listed {
                        return Err(format!(
                            "the path {} of a legal move is refused: {e}",
                            path.iter()
                                .map(|c| g.name(*c).to_string())
                                .collect::<Vec<_>>()
                                .join("-"),
                        ));
                    }
                }
            }
        }
    }

    // 5. The position string reads back.
    round_trip(pos)?;
    Ok(true)
}

/// Where two positions differ, from their debug forms (for a report).
fn difference(a: &Position, b: &Position) -> String {
    // The log of changes is not part of a position's equality.
    let strip = |d: String| match (d.find("log: Log("), d.find("unmoved:")) {
        (Some(i), Some(j)) if i < j => format!("{}{}", &d[..i], &d[j..]),
        _ => d,
    };
    let (da, db) = (strip(format!("{a:?}")), strip(format!("{b:?}")));
    let wa: Vec<&str> = da.split(", ").collect();
    let wb: Vec<&str> = db.split(", ").collect();
    let diff: Vec<String> = wa
        .iter()
        .zip(&wb)
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .take(6)
        .map(|(i, (x, y))| {
            // The field: the last word before it that names one.
            let field = wa[..=i]
                .iter()
                .rev()
                .find_map(|w| {
                    w.split_once(": ")
                        .map(|f| f.0.trim_start_matches(['{', ' ']))
                })
                .unwrap_or("?");
            format!("{field}: {x} / {y}")
        })
        .collect();
    if diff.is_empty() {
        String::new()
    } else {
        format!("; they differ in: {}", diff.join("; "))
    }
}

/// The position string of `pos` reads back as `pos` (string and key).
fn round_trip(pos: &Position) -> Result<(), String> {
    let s = pos.to_position_string();
    let back = Position::from_position_string(pos.rules().clone(), &s)
        .map_err(|e| format!("the position string {s} does not read back: {e}"))?;
    if back.to_position_string() != s || back.hash() != pos.hash() {
        return Err(format!(
            "the position string {s} reads back as {} (key {:x}, not {:x})",
            back.to_position_string(),
            back.hash(),
            pos.hash()
        ));
    }
    Ok(())
}
