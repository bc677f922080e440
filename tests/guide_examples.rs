//! The examples of the pack authors' guide, `rulesets/README.md`, checked against the loader.
//!
//! The guide's fenced blocks are told apart by their info string:
//!
//! - `toml pack`: a complete pack; it must load, without warnings;
//! - `toml broken`: a pack with mistakes on purpose; it must fail to load, and the rendered
//!   diagnostics must contain the text of each of its `# expect: ...` lines;
//! - `text diagnostics`: the rendered diagnostics of the `toml broken` block just above it,
//!   loaded as `my_game.toml`, exactly (but for trailing spaces);
//! - `toml`: a fragment; it must at least be valid TOML;
//! - `text play`: a game transcript, replayed on the nearest `toml pack` above it. Lines are
//!   `start POSITION` (the pack's start must be this position), `position POSITION` (play on
//!   from this position), `now POSITION` (the game must have reached this position), `fen FEN` (the
//!   position reached, in the pack's FEN), or
//!   `PLAYER MOVE [refused: TEXT | NAME wins | draw]`.
//!
//! Packs are loaded with `load_str` from the `rulesets/` directory, so that an example's
//! `extends = "jungle.toml"` means what it would in a file saved there.

mod common;

use ply_kernel::{Game, Outcome, Status, move_text, parse_move};
use std::sync::Arc;

/// A fenced block of the guide.
struct Block {
    /// The info string, trimmed.
    info: String,
    /// Line number (1-based) of the opening fence.
    line: usize,
    /// The text between the fences.
    text: String,
}

impl Block {
    /// The name diagnostics show for this block.
    fn name(&self) -> String {
        format!("guide-line-{}.toml", self.line)
    }
}

fn guide() -> String {
    let path = common::root().join("rulesets").join("README.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every fenced block, in order. Fences are lines starting with three backticks (possibly
/// indented, as inside a list item); the closing fence has the same indentation.
fn blocks(md: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize, usize, String)> = None;
    for (i, line) in md.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim_start();
        match &mut open {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    open = Some((info.trim().to_string(), i + 1, indent, String::new()));
                }
            }
            Some((info, start, ind, text)) => {
                if trimmed == "```" && indent == *ind {
                    out.push(Block {
                        info: std::mem::take(info),
                        line: *start,
                        text: std::mem::take(text),
                    });
                    open = None;
                } else {
                    text.push_str(line.get(*ind..).unwrap_or(line.trim_start()));
                    text.push('\n');
                }
            }
        }
    }
    assert!(open.is_none(), "the guide has an unclosed code block");
    out
}

/// Loads from `rulesets/`, so that `extends` paths resolve as for a pack saved there.
fn load(b: &Block) -> Result<ply_lang::Pack, ply_lang::LoadError> {
    std::env::set_current_dir(common::root().join("rulesets")).expect("rulesets/ exists");
    ply_lang::load_str(&b.name(), &b.text, &[])
}

fn load_ok(b: &Block) -> ply_lang::Pack {
    match load(b) {
        Ok(p) => p,
        Err(err) => panic!(
            "the pack at rulesets/README.md:{} does not load:\n{}",
            b.line,
            err.render(false)
        ),
    }
}

fn with_info<'a>(all: &'a [Block], info: &str) -> Vec<&'a Block> {
    all.iter().filter(|b| b.info == info).collect()
}

#[test]
fn toml_blocks_have_a_known_info_string() {
    // A typo such as `toml packs` would silently skip a check.
    for b in blocks(&guide()) {
        if b.info.starts_with("toml") || b.info.starts_with("text ") {
            assert!(
                [
                    "toml",
                    "toml pack",
                    "toml broken",
                    "text play",
                    "text diagnostics"
                ]
                .contains(&b.info.as_str()),
                "rulesets/README.md:{}: unknown info string `{}`",
                b.line,
                b.info
            );
        }
    }
}

#[test]
fn complete_packs_load_without_warnings() {
    let all = blocks(&guide());
    let packs = with_info(&all, "toml pack");
    assert!(
        packs.len() >= 5,
        "only {} complete packs found",
        packs.len()
    );
    for b in packs {
        let pack = load_ok(b);
        assert!(
            pack.warnings.is_empty(),
            "the pack at rulesets/README.md:{} has warnings:\n{}",
            b.line,
            pack.render_warnings(false)
        );
    }
}

#[test]
fn broken_packs_fail_with_the_messages_the_guide_shows() {
    let all = blocks(&guide());
    let broken = with_info(&all, "toml broken");
    assert!(!broken.is_empty());
    for b in broken {
        let err = match load(b) {
            Ok(_) => panic!(
                "the pack at rulesets/README.md:{} is marked broken, but it loads",
                b.line
            ),
            Err(e) => e,
        };
        assert!(err.error_count() > 0);
        // Long messages are wrapped when rendered: compare the words only.
        let text = err.render(false);
        let words = squash(&text);
        let expected: Vec<&str> = b
            .text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("# expect:"))
            .map(str::trim)
            .collect();
        assert!(
            !expected.is_empty(),
            "rulesets/README.md:{}: a broken pack should say what it expects (`# expect: ...`)",
            b.line
        );
        for e in expected {
            assert!(
                words.contains(&squash(e)),
                "rulesets/README.md:{}: expected `{e}` in the diagnostics:\n{text}",
                b.line
            );
        }
    }
}

/// The words of a rendered diagnostic, without the frame drawn around wrapped lines.
fn squash(text: &str) -> String {
    text.replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn shown_diagnostics_are_what_the_loader_renders() {
    let all = blocks(&guide());
    let mut shown = 0;
    for pair in all.windows(2) {
        let (broken, output) = (&pair[0], &pair[1]);
        if output.info != "text diagnostics" {
            continue;
        }
        assert_eq!(
            broken.info, "toml broken",
            "rulesets/README.md:{}: diagnostics follow no broken pack",
            output.line
        );
        std::env::set_current_dir(common::root().join("rulesets")).expect("rulesets/ exists");
        let err = match ply_lang::load_str("my_game.toml", &broken.text, &[]) {
            Ok(_) => panic!("rulesets/README.md:{}: the pack loads", broken.line),
            Err(e) => e,
        };
        let trim = |t: &str| {
            t.lines()
                .map(str::trim_end)
                .collect::<Vec<_>>()
                .join("\n")
                .trim()
                .to_string()
        };
        assert_eq!(
            trim(&err.render(false)),
            trim(&output.text),
            "rulesets/README.md:{}",
            output.line
        );
        shown += 1;
    }
    assert!(shown > 0);
}

#[test]
fn fragments_are_valid_toml() {
    let all = blocks(&guide());
    let fragments = with_info(&all, "toml");
    assert!(!fragments.is_empty());
    for b in fragments {
        let mut diags = Vec::new();
        let tree = ply_lang::tree::parse(0, &b.text, &mut diags);
        assert!(
            tree.is_some() && diags.is_empty(),
            "the fragment at rulesets/README.md:{} is not valid TOML: {:?}",
            b.line,
            diags.iter().map(|d| d.message.clone()).collect::<Vec<_>>()
        );
    }
}

#[test]
fn there_is_a_complete_pack_for_each_kind_of_move_pattern() {
    // Every form of the loader's table (`ply_lang::PATTERN_FORMS`), so that a new form needs
    // an example here.
    let all = blocks(&guide());
    let mut seen = std::collections::BTreeSet::new();
    for b in with_info(&all, "toml pack") {
        if b.text.contains("extends") {
            continue;
        }
        let pack = load_ok(b);
        for kind in pack.rules.kinds() {
            for m in pack.rules.patterns_of(kind) {
                seen.extend(m.split_whitespace().next().map(str::to_string));
            }
        }
    }
    for f in ply_lang::PATTERN_FORMS {
        assert!(
            seen.contains(f.word),
            "no complete pack of rulesets/README.md has a `{}` pattern",
            f.word
        );
    }
}

#[test]
fn the_walk_through_ends_with_a_complete_pack() {
    let all = blocks(&guide());
    let last = with_info(&all, "toml pack")
        .into_iter()
        .rfind(|b| b.text.contains("name = \"River Crossing\""))
        .expect("the walk-through's pack");
    let pack = load_ok(last);
    let rules = pack.rules.clone();
    // Everything of it is tabulated, and `stuck` is resolved lazily.
    assert_eq!(rules.interpreted_end_rules(), 0);
    assert_eq!(rules.interpreted_move_checks(), 0);
    let names: Vec<&str> = pack.options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["min_runners", "chain_hops"]);
    // The rendered start, as the guide shows it.
    let start = ply_kernel::Position::start(rules);
    let shown = "   a  b  c  d  e\n\
                 5  BH BR BR BR BH 5\n\
                 4  .  .  .  .  .  4\n\
                 3  ~~ ~~ ~~ ~~ ~~ 3\n\
                 2  .  .  .  .  .  2\n\
                 1  RH RR RR RR RH 1\n";
    assert!(start.render().starts_with(shown), "{}", start.render());
    assert!(
        guide().contains(shown.trim_end()),
        "the guide shows another start"
    );

    // The variant of the last step, saved beside the pack as the guide says.
    let variant = all
        .iter()
        .find(|b| b.info == "toml" && b.text.contains("extends = \"river_crossing.toml\""))
        .expect("the walk-through's variant");
    let dir = std::env::temp_dir().join(format!("ply-guide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    std::fs::write(dir.join("river_crossing.toml"), &last.text).expect("write the pack");
    std::fs::write(dir.join("long_chase.toml"), &variant.text).expect("write the variant");
    let loaded = ply_lang::load(dir.join("long_chase.toml"), &[]);
    let _ = std::fs::remove_dir_all(&dir);
    let pack = loaded.unwrap_or_else(|e| {
        panic!(
            "the variant at rulesets/README.md:{} does not load:\n{}",
            variant.line,
            e.render(false)
        )
    });
    assert!(pack.warnings.is_empty(), "{}", pack.render_warnings(false));
    assert_eq!(pack.rules.core().name(), "River Crossing, long chase");
    let chain = pack
        .options
        .iter()
        .find(|o| o.name == "chain_hops")
        .unwrap();
    assert_eq!(chain.value, ply_lang::OptionValue::Bool(true));
    assert!(
        pack.rules
            .rule_names(ply_kernel::Section::Capture)
            .iter()
            .all(|r| r != "dry-feet")
    );
}

#[test]
fn transcripts_play_as_written() {
    let all = blocks(&guide());
    let mut pack: Option<Arc<ply_kernel::Rules>> = None;
    let mut played = 0;
    for b in &all {
        match b.info.as_str() {
            "toml pack" => pack = Some(load_ok(b).rules),
            "text play" => {
                let rules = pack.clone().unwrap_or_else(|| {
                    panic!(
                        "rulesets/README.md:{}: no pack above this transcript",
                        b.line
                    )
                });
                replay(&rules, b);
                played += 1;
            }
            _ => {}
        }
    }
    assert!(played >= 5, "only {played} transcripts found");
}

fn replay(rules: &Arc<ply_kernel::Rules>, b: &Block) {
    let core = rules.core();
    let mut game = Game::new(rules.clone());
    for (i, line) in b.text.lines().enumerate() {
        let at = format!("rulesets/README.md:{}", b.line + 1 + i);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(pos) = line.strip_prefix("start ") {
            game = Game::new(rules.clone());
            assert_eq!(game.position().to_position_string(), pos.trim(), "{at}");
            continue;
        }
        if let Some(fen) = line.strip_prefix("fen ") {
            let ours = game.position().to_fen();
            assert_eq!(ours.as_deref(), Some(fen.trim()), "{at}");
            continue;
        }
        if let Some(pos) = line.strip_prefix("now ") {
            assert_eq!(game.position().to_position_string(), pos.trim(), "{at}");
            continue;
        }
        if let Some(pos) = line.strip_prefix("position ") {
            game = Game::from_position_string(rules.clone(), pos.trim())
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(who), Some(mv)) = (words.next(), words.next()) else {
            panic!("{at}: expected `PLAYER MOVE ...`, found `{line}`");
        };
        let rest = words.collect::<Vec<_>>().join(" ");
        let player = core
            .player_by_name(who)
            .unwrap_or_else(|| panic!("{at}: `{who}` is not a player"));
        let (path, choice) = parse_move(rules, mv).unwrap_or_else(|e| panic!("{at}: {e}"));
        let before = game.position().to_position_string();
        let result = game.play_path_choosing(Some(player), &path, choice);
        if let Some(why) = rest.strip_prefix("refused:") {
            let err: ply_kernel::MoveError = match result {
                Ok(s) => panic!("{at}: `{mv}` was accepted ({s:?}), but should be refused"),
                Err(e) => e,
            };
            let text = err.to_string();
            assert!(text.contains(why.trim()), "{at}: refused with `{text}`");
            assert_eq!(game.position().to_position_string(), before, "{at}");
            continue;
        }
        let status = result.unwrap_or_else(|e| panic!("{at}: `{mv}` refused: {e}"));
        let last = game.history().last().expect("a move was played");
        assert_eq!(
            move_text(rules, &last),
            mv,
            "{at}: the move is written differently"
        );
        let expected = if rest.is_empty() {
            Status::ToMove(player.other())
        } else if rest == "again" {
            // A turn of several moves goes on.
            Status::ToMove(player)
        } else if rest == "draw" {
            Status::Over(Outcome::Draw)
        } else if let Some(name) = rest.strip_suffix(" wins") {
            let winner = core
                .player_by_name(name)
                .unwrap_or_else(|| panic!("{at}: `{name}` is not a player"));
            Status::Over(Outcome::Win(winner))
        } else {
            panic!("{at}: unknown annotation `{rest}`");
        };
        assert_eq!(status, expected, "{at}: after {mv}");
    }
}
