//! Reading a merged pack, one section at a time, into the kernel's [`RulesSpec`].
//!
//! Each section has a reader of its own (one file each), and [`Reader::read`] calls them in the
//! order their dependencies ask for: options first (every expression may read them), then the
//! game, board, zones and the first pass over the pieces, which together give every name of
//! the pack; the definitions; then everything written as expressions (move patterns, rules,
//! end rules, the evaluation of `[eval]`), checked against all those names; the setup last. A section that fails is
//! reported and the others are still read, so that one run reports every problem.

mod board;
mod compound;
mod define;
mod directions;
mod display;
mod effects;
mod end;
mod eval;
mod game;
mod names;
mod options;
mod pieces;
mod reader;
mod rules;
mod setup;
mod turn;
mod zones;

pub(crate) use directions::{compass_set as compass, compass_words};
pub use display::{BOARD_STYLES, Display, MAX_GLYPH_CHARS, PIECE_IMAGES, Style, ZONE_DRAWINGS};
pub(crate) use eval::EvalSpec;
pub use eval::{Evaluation, MAX_EVAL_STEPS};
pub use options::OptionInfo;
pub(crate) use reader::Reader;

use game::Game;

use crate::check::{AFTER, CAPTURE, Checker, ENTER, PLACE, World};
use crate::diag::Diagnostic;
use crate::lints;
use crate::options::Options;
use crate::tree::Table;
use ply_kernel::Geometry;
use ply_kernel::spec::{RulesSpec, ZoneCells};

/// What reading gives when no section failed outright: the spec, the options, and the
/// warnings of the lints.
pub(crate) type Built = (RulesSpec, Vec<OptionInfo>, Vec<Diagnostic>);

const TOP_KEYS: &[&str] = &[
    "game", "board", "zones", "pieces", "define", "rules", "effects", "end", "options", "setup",
    "eval", "compound", "fen", "display", "turn",
];

impl Reader<'_> {
    /// Reads every section of `top`, with the option values `set` by the caller.
    pub(crate) fn read(&mut self, top: &Table, set: &Options) -> Option<Built> {
        top.check_keys("the pack", TOP_KEYS, &|_| false, &mut self.diags);
        let game = self.section(top, "game");
        let board = self.section(top, "board");

        // Options first: expressions everywhere may read them.
        let options_t = self.section(top, "options");
        let options = self.options(&options_t, set);

        // [game]
        let Game {
            name,
            players,
            attributes,
            forward,
            must_capture,
            most_captures,
            pass,
            pass_any_time,
        } = self.game(&game, top)?;

        // [board]
        board.check_keys(
            "[board]",
            &["rows", "cols", "holes", "links"],
            &|_| false,
            &mut self.diags,
        );
        // Without a valid board, go on with the largest one so that the rest is still checked.
        let geometry = match self.geometry(&board, top) {
            Some(g) => g,
            None => Geometry::new(ply_kernel::MAX_ROWS, ply_kernel::MAX_COLS).ok()?,
        };
        self.board_size = (geometry.rows(), geometry.cols());

        // [zones]
        let zones_t = self.section(top, "zones");
        let mut zones = Vec::new();
        for (zname, e) in &zones_t.entries {
            self.locs.zones.push(e.key_loc);
            self.check_name(zname, e.key_loc, "a zone");
            if let Some(z) = self.zone(zname, &e.node, &players, &geometry) {
                zones.push(z);
            }
        }

        // [pieces]: first names, letters, attributes and tags; moves once the world is known.
        let pieces_t = self.section(top, "pieces");
        let (mut kinds, tags) = self.kinds(&pieces_t, &attributes);

        // [define]
        let define_t = self.section(top, "define");
        let defs = self.definitions(&define_t);

        let world = World {
            players: players.iter().map(|p| p.name.clone()).collect(),
            kinds: kinds.iter().map(|k| k.name.clone()).collect(),
            zones: zones
                .iter()
                .map(|z| (z.name.clone(), matches!(z.cells, ZoneCells::Owned(_))))
                .collect(),
            tags: tags.clone(),
            attributes: attributes.clone(),
            options: options.iter().map(|o| (o.name.clone(), o.value)).collect(),
            defs,
            turns: top.get("turn").is_some(),
        };
        self.name_clashes(&world, top);
        let mut checker = Checker::new(&world);
        self.moves(&pieces_t, &mut kinds, &mut checker, &world, &forward);

        // [rules]
        let rules_t = self.section(top, "rules");
        rules_t.check_keys(
            "[rules]",
            &["enter", "capture", "place", "after"],
            &|_| false,
            &mut self.diags,
        );
        let (enter, enter_locs) = self.rule_list(&rules_t, "enter", &ENTER, &mut checker);
        let (capture, capture_locs) = self.rule_list(&rules_t, "capture", &CAPTURE, &mut checker);
        let (place, place_locs) = self.rule_list(&rules_t, "place", &PLACE, &mut checker);
        self.locs.enter = enter_locs;
        self.locs.capture = capture_locs;
        let (after, after_locs) = self.rule_list(&rules_t, "after", &AFTER, &mut checker);
        self.locs.place = place_locs;
        self.locs.after = after_locs;

        // [effects]
        let effects_t = self.section(top, "effects");
        let (effects, removal) = self.effects(&effects_t, &mut checker);

        // [turn]
        let turn_t = self.section(top, "turn");
        let turn = self.turn(top, &turn_t, &mut checker);

        // [end]
        let end_t = self.section(top, "end");
        let end = self.end_rules(&end_t, &mut checker);

        // [eval]
        let eval_t = self.section(top, "eval");
        self.eval = self.eval_section(&eval_t, &kinds, &mut checker);

        // [setup]
        let setup_t = self.section(top, "setup");
        let setup = self.setup(&setup_t, &players, &kinds, &geometry);

        // [compound], [fen]
        let compound_t = self.section(top, "compound");
        let compounds = self.compounds(&compound_t, &players, &kinds, &geometry, &forward);
        let fen_t = self.section(top, "fen");
        let fen = self.fen(&fen_t, &players, &kinds, &compounds);

        // [display]
        let display_t = self.section(top, "display");
        let kind_names: Vec<&str> = kinds.iter().map(|k| k.name.as_str()).collect();
        let zone_names: Vec<&str> = zones.iter().map(|z| z.name.as_str()).collect();
        let player_names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        self.display = self.display_section(
            &display_t,
            display::DisplayNames {
                kinds: &kind_names,
                zones: &zone_names,
                players: &player_names,
            },
            &geometry,
        );

        let option_locs: Vec<_> = options
            .iter()
            .map(|o| {
                (
                    o.name.as_str(),
                    options_t.entries.get(&o.name).map(|e| e.key_loc),
                )
            })
            .collect();
        let warnings = lints::unused(&lints::Uses {
            top,
            checker: &checker,
            kinds: &kinds,
            zones: &zones,
            zone_locs: &self.locs.zones,
            options: &option_locs,
            defs: &world.defs,
            define: &define_t,
        });
        self.diags.append(&mut checker.diags);

        let mut spec = RulesSpec::new(name, geometry, [players[0].clone(), players[1].clone()]);
        spec.zones = zones;
        spec.attributes = attributes;
        spec.tags = tags;
        spec.kinds = kinds;
        spec.enter = enter;
        spec.capture = capture;
        spec.place = place;
        spec.end = end;
        spec.setup = setup;
        spec.must_capture = must_capture;
        spec.most_captures = most_captures;
        spec.effects = effects;
        spec.pass = pass;
        spec.pass_any_time = pass_any_time;
        spec.after = after;
        spec.removal = removal;
        spec.turn = turn;
        spec.compounds = compounds;
        spec.fen = fen;
        Some((spec, options, warnings))
    }
}
