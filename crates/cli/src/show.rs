//! `ply show`: the board of a position with its terrain, and a summary of the pack: players,
//! pieces with their move patterns as written, zones, rule names and options. `--resolved`
//! prints the pack as TOML with `extends` and options applied instead.

use crate::common::PackArgs;
use crate::common::{load_pack, position_at};
use crate::output::{CmdResult, Context};
use clap::Args;
use ply_kernel::spec::ZoneCells;
use ply_kernel::{CellSet, Geometry, Player, Rules, Section};
use ply_lang::{OptionValue, Pack};
use std::fmt::Write as _;

/// `ply show`.
#[derive(Args, Debug, Clone)]
pub struct ShowArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// A position string to show instead of the start.
    #[arg(long, value_name = "STR", visible_alias = "fen")]
    pub position: Option<String>,
    /// Print the pack as TOML with `extends` and options applied.
    #[arg(long)]
    pub resolved: bool,
}

/// Runs `ply show`.
pub fn run(args: &ShowArgs, cx: &mut Context<'_>) -> CmdResult {
    let pack = load_pack(&args.pack.pack, &args.pack.options.set, cx)?;
    if args.resolved {
        write!(cx.out, "{}", pack.resolved)?;
        if !pack.resolved.ends_with('\n') {
            writeln!(cx.out)?;
        }
        return Ok(());
    }
    let position = position_at(pack.rules.clone(), args.position.as_deref())?;
    writeln!(cx.out, "{}", pack.rules.core().name())?;
    writeln!(cx.out)?;
    write!(
        cx.out,
        "{}",
        crate::common::painted_board(&position, &[], cx.out_color)
    )?;
    writeln!(cx.out, "Position: {}", position.to_position_string())?;
    if let Some(fen) = position.to_fen() {
        writeln!(cx.out, "FEN: {fen}")?;
    }
    writeln!(cx.out)?;
    write!(cx.out, "{}", summary(&pack))?;
    Ok(())
}

/// Cell names of a set, in cell order.
fn cell_names(g: &Geometry, cells: &CellSet) -> String {
    cells
        .iter()
        .map(|c| g.name(c).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn option_text(v: OptionValue) -> String {
    match v {
        OptionValue::Bool(b) => b.to_string(),
        OptionValue::Int(i) => i.to_string(),
    }
}

/// The summary under the board.
pub fn summary(pack: &Pack) -> String {
    let rules: &Rules = &pack.rules;
    let core = rules.core();
    let g = rules.geometry();
    let mut out = String::new();
    let players: Vec<String> = Player::ALL
        .iter()
        .map(|&p| {
            let first = if p == Player::FIRST {
                ", moves first"
            } else {
                ""
            };
            format!(
                "{} (symbol {}{first})",
                core.player_name(p),
                core.player_symbol(p)
            )
        })
        .collect();
    let _ = writeln!(out, "Board: {} rows x {} columns", g.rows(), g.cols());
    let links = g.links();
    if !links.is_empty() {
        let names: Vec<String> = links
            .iter()
            .map(|(a, b)| format!("{}-{}", g.name(*a), g.name(*b)))
            .collect();
        let _ = writeln!(out, "Links across holes: {}", names.join(" "));
    }
    let _ = writeln!(out, "Players: {}", players.join(", "));

    let _ = writeln!(out, "Pieces:");
    let width = rules
        .kinds()
        .map(|k| rules.kind_name(k).len())
        .max()
        .unwrap_or(0);
    for k in rules.kinds() {
        let mut facts = Vec::new();
        for (i, name) in core.attributes().iter().enumerate() {
            facts.push(format!("{name}={}", core.attr(k, i)));
        }
        let tags: Vec<&str> = core
            .tags()
            .iter()
            .enumerate()
            .filter(|(t, _)| core.has_tag(k, *t))
            .map(|(_, t)| t.as_str())
            .collect();
        if !tags.is_empty() {
            facts.push(format!("tags: {}", tags.join(", ")));
        }
        if let Some(n) = rules.supply(k) {
            facts.push(format!("supply: {n} each"));
        }
        if rules.royal_kind() == Some(k) {
            facts.push("royal: may not be left attacked".to_string());
        }
        let facts = if facts.is_empty() {
            String::new()
        } else {
            format!("  {}", facts.join("  "))
        };
        let _ = writeln!(
            out,
            "  {:<width$}  {}{facts}",
            rules.kind_name(k),
            core.kind_letter(k)
        );
        for text in rules.patterns_of(k) {
            let _ = writeln!(out, "  {:<width$}     - {}", "", text);
        }
        for text in promotion_and_hand(rules, k) {
            let _ = writeln!(out, "  {:<width$}     {}", "", text);
        }
    }

    if !core.zones().is_empty() {
        let _ = writeln!(out, "Zones:");
        for z in core.zones() {
            let mark = z.mark.map_or(String::new(), |m| format!(" (mark {m})"));
            let cells = match &z.cells {
                ZoneCells::Shared(set) => cell_names(g, set),
                ZoneCells::Owned(parts) => Player::ALL
                    .iter()
                    .map(|&p| {
                        format!(
                            "{}: {}",
                            core.player_name(p),
                            cell_names(g, &parts[p.index()])
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
            };
            let _ = writeln!(out, "  {}{mark}: {cells}", z.name);
        }
    }

    let effects: Vec<String> = rules
        .effects()
        .map(|(name, what, dirs, required)| {
            let dirs: Vec<String> = dirs
                .iter()
                .map(|d| format!("{d:?}").to_lowercase())
                .collect();
            let must = if required {
                "; a move must change a piece by it"
            } else {
                ""
            };
            format!("  {name}: {what}, looking {}{must}", dirs.join(" "))
        })
        .collect();
    if !effects.is_empty() {
        let _ = writeln!(out, "Effects (after every move, in order):");
        for e in effects {
            let _ = writeln!(out, "{e}");
        }
    }
    let g = rules.geometry();
    for (text, mover, partner, ends) in rules.compound_moves() {
        let ends: Vec<String> = Player::ALL
            .iter()
            .map(|p| {
                let (a, b) = ends[p.index()];
                format!("{} {} and {}", rules.player_name(*p), g.name(a), g.name(b))
            })
            .collect();
        let _ = writeln!(
            out,
            "Compound move `{text}`: {} with {}, both unmoved, to {}",
            rules.kind_name(mover),
            rules.kind_name(partner),
            ends.join("; ")
        );
    }
    if rules.captures_are_mandatory() {
        let _ = writeln!(
            out,
            "{}",
            if rules.most_captures_only() {
                "Capturing: mandatory, and a capture must take the most pieces any capture takes"
            } else {
                "Capturing: mandatory (a player who can capture must)"
            }
        );
    }
    if rules.passes() {
        let _ = writeln!(
            out,
            "{}",
            if rules.passes_any_time() {
                "Passing: a player may pass on any turn (a move, `pass`)"
            } else {
                "Passing: a player with no move passes (a move, `pass`)"
            }
        );
    }
    if let Some((n, again)) = rules.moves_per_turn() {
        let _ = writeln!(
            out,
            "Turns: up to {n} moves, each a ply; {}",
            if again {
                "after a move, the player moves again while the turn's `again` holds"
            } else {
                "the player moves again until the turn has them all (a pass ends it)"
            }
        );
    }
    let _ = writeln!(out, "Rules:");
    let names = |rules: &mut dyn Iterator<Item = &str>| {
        let v: Vec<&str> = rules.collect();
        if v.is_empty() {
            "(none)".to_string()
        } else {
            v.join(", ")
        }
    };
    let _ = writeln!(
        out,
        "  enter: {}",
        names(&mut rules.rule_names(Section::Enter).iter().map(String::as_str))
    );
    let _ = writeln!(
        out,
        "  capture: {}",
        names(
            &mut rules
                .rule_names(Section::Capture)
                .iter()
                .map(String::as_str)
        )
    );
    let _ = writeln!(
        out,
        "  place: {}",
        names(&mut rules.rule_names(Section::Place).iter().map(String::as_str))
    );
    let _ = writeln!(
        out,
        "  end: {}",
        names(&mut rules.rule_names(Section::End).iter().map(String::as_str))
    );
    let after = rules.rule_names(Section::After);
    if !after.is_empty() {
        let _ = writeln!(
            out,
            "  after the move (on the position it leaves): {}",
            names(&mut after.iter().map(String::as_str))
        );
    }
    // What compiled to tables and what is evaluated during play: the speed a designer buys.
    let _ = writeln!(
        out,
        "Compiled: {} move patterns; interpreted during play: {} move checks, {} end rules",
        rules.pattern_count(),
        rules.interpreted_move_checks(),
        rules.interpreted_end_rules()
    );
    // Which version of make and unmake the pack gets: the words are the guide's
    // (rulesets/README.md, "The lean path"), and the line says what they mean.
    let why = rules.general_make_reasons();
    let _ = if why.is_empty() {
        writeln!(
            out,
            "Playing and taking back moves: the lean path (the fastest: no promotion, history or \
             end-rule checks to keep up to date)"
        )
    } else {
        writeln!(
            out,
            "Playing and taking back moves: the general path (slower than the lean one) because \
             of: {}",
            why.join("; ")
        )
    };

    let _ = match &pack.eval {
        None => writeln!(
            out,
            "Evaluation (for the engines): every piece worth 100, no [eval] section"
        ),
        Some(e) => writeln!(
            out,
            "Evaluation (for the engines): {}",
            e.text
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    };

    if !pack.options.is_empty() {
        let _ = writeln!(out, "Options:");
        for o in &pack.options {
            let doc = if o.doc.is_empty() {
                String::new()
            } else {
                format!(": {}", o.doc)
            };
            let _ = writeln!(
                out,
                "  {} = {} (default {}){doc}",
                o.name,
                option_text(o.value),
                option_text(o.default)
            );
        }
    }
    out
}

/// What becomes of a piece of `k`: its promotion as the pack states it, and the hand it goes to
/// when captured.
fn promotion_and_hand(rules: &ply_kernel::Rules, k: ply_kernel::KindId) -> Vec<String> {
    let zone = |z: usize| {
        rules
            .core()
            .zones()
            .get(z)
            .map_or("?", |z| z.name.as_str())
            .to_string()
    };
    let mut lines = Vec::new();
    if let Some(p) = rules.promotion(k) {
        let kinds: Vec<&str> = p
            .kinds()
            .into_iter()
            .map(|to| rules.kind_name(to))
            .collect();
        let mut text = format!("promotes in {} to {}", zone(p.zone), kinds.join(" or "));
        if p.on_leaving {
            text.push_str(", on entering or leaving it");
        }
        if p.optional {
            text.push_str(", if the player chooses");
            if let Some(f) = p.forced {
                text.push_str(&format!(" (always in {})", zone(f)));
            }
        }
        lines.push(text);
    }
    if let Some(h) = rules.to_hand(k) {
        lines.push(format!(
            "captured: to the captor's hand as {}",
            rules.kind_name(h)
        ));
    }
    lines
}
