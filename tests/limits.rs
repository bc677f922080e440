//! The kernel's limits are declared and never silent: a pack past one is refused with an
//! error located where it passes it, naming the limit; a pack within them loads and plays.

use ply_kernel::{MAX_COLS, MAX_END_RULES, MAX_ROWS};

fn load(text: &str) -> Result<ply_lang::Pack, String> {
    ply_lang::load_str("limits.toml", text, &[]).map_err(|e| e.render(false))
}

fn header(rows: usize, cols: usize, pieces: &str) -> String {
    format!(
        r#"[game]
name = "Limits"
players = ["A", "B"]

[board]
rows = {rows}
cols = {cols}

{pieces}
"#
    )
}

#[test]
fn too_many_end_rules_are_refused_at_the_first_past_the_limit() {
    let mut text = header(
        3,
        3,
        "[pieces.Stone]\nletter = \"S\"\nmoves = [\"step all\"]\n",
    );
    for i in 0..MAX_END_RULES + 6 {
        text += &format!(
            "\n[end.rule{i}]\nwhen = 'count(pieces(opponent)) == {i}'\nwinner = 'player'\n"
        );
    }
    let Err(err) = load(&text) else {
        panic!("too many end rules were accepted");
    };
    assert!(err.contains(&format!("at most {MAX_END_RULES}")), "{err}");
    // Located at the first rule past the limit (its condition, on the line after its name).
    let line = text
        .lines()
        .position(|l| l == format!("[end.rule{MAX_END_RULES}]"))
        .unwrap()
        + 2;
    assert!(err.contains(&format!("limits.toml:{line}:")), "{err}");
    // At the limit, every rule is tested: the last one decides a game.
    let mut text = header(
        3,
        3,
        "[pieces.Stone]\nletter = \"S\"\nmoves = [\"step all\"]\n",
    );
    for i in 0..MAX_END_RULES {
        let when = if i + 1 == MAX_END_RULES {
            "count(pieces(opponent)) == 0".to_string()
        } else {
            format!("count(pieces(opponent)) == {}", 100 + i)
        };
        text += &format!("\n[end.rule{i}]\nwhen = '{when}'\nwinner = 'player'\n");
    }
    text += "\n[setup.A]\nStone = \"a1\"\n\n[setup.B]\nStone = \"b2\"\n";
    let rules = load(&text).unwrap_or_else(|e| panic!("{e}")).rules;
    let mut game = ply_kernel::Game::new(rules.clone());
    let path = ply_kernel::parse_path(&rules, "a1xb2").unwrap();
    let status = game.play_path(None, &path).unwrap();
    assert_eq!(
        status,
        ply_kernel::Status::Over(ply_kernel::Outcome::Win(ply_kernel::Player::FIRST))
    );
}

#[test]
fn one_sliding_kind_on_the_largest_board_loads_and_plays() {
    let pieces = "[pieces.Rook]\nletter = \"R\"\nmoves = [\"slide orthogonal\"]\n";
    let mut text = header(MAX_ROWS, MAX_COLS, pieces);
    text += "\n[end.stuck]\nwhen = 'no_moves(opponent)'\nwinner = 'player'\n";
    text += "\n[setup.A]\nRook = \"a1\"\n\n[setup.B]\nRook = \"b2\"\n";
    let rules = load(&text).unwrap_or_else(|e| panic!("{e}")).rules;
    let mut pos = ply_kernel::Position::start(rules);
    // From a1: up the file to the top, along the rank to the last file (the far corner is
    // the board's last cell, which was once taken for "no cell" and never reached).
    let along = (MAX_ROWS - 1) + (MAX_COLS - 1);
    assert_eq!(pos.perft(1).unwrap(), along as u64);
}

#[test]
fn a_limit_passed_is_typed_data_an_embedder_can_read() {
    use ply_kernel::expr::{Expr, Value};
    use ply_kernel::spec::{
        EndResult, EndSpec, KindSpec, MoveSpec, Pattern, PlayerSpec, Problem, RulesSpec, Site,
    };
    let g = ply_kernel::Geometry::new(3, 3).unwrap();
    let all = ply_kernel::DirSet(0xff);
    let players = [PlayerSpec::new("A", "A"), PlayerSpec::new("B", "B")];
    let mut spec = RulesSpec::new("Limits", g, players);
    let mut stone = KindSpec::new("Stone", "S");
    stone
        .moves
        .push(MoveSpec::new("step all", Pattern::Step, [all, all]));
    spec.kinds.push(stone);
    for i in 0..MAX_END_RULES + 6 {
        let never = Expr::Lit(Value::Bool(false));
        spec.end
            .push(EndSpec::new(format!("rule{i}"), never, EndResult::Draw));
    }
    let Err(errors) = ply_kernel::Rules::new(spec) else {
        panic!("too many end rules were accepted");
    };
    let limit = errors
        .iter()
        .find(|e| matches!(e.problem, Problem::Limit { .. }))
        .unwrap_or_else(|| panic!("no limit among {errors:?}"));
    assert_eq!(
        limit.problem,
        Problem::Limit {
            limit: "MAX_END_RULES",
            max: MAX_END_RULES,
            found: MAX_END_RULES + 6
        }
    );
    assert_eq!(limit.site, Site::End(MAX_END_RULES));
}

/// A royal pack whose capture rules read the cells of both pieces: on a 6x6 board their table
/// is small and the pack loads (it did not, before tables were sized by the pack's kinds); on
/// a 32x32 board, where the rules tell every cell apart, it would pass `MAX_TABLE_BITS`, and
/// the pack is refused with that limit named (not as a condition that "reads the position").
#[test]
fn a_royal_capture_rule_on_both_cells_loads_or_names_the_table_limit() {
    let pack = |n: usize| {
        header(
            n,
            n,
            &format!(
                "[zones.z]\ncells = \"a3 b3 c3\"\n\
                 [pieces.King]\nletter = \"K\"\nroyal = true\nmoves = [\"step all\"]\n\
                 [pieces.Guard]\nletter = \"G\"\nmoves = [\"step all\"]\n\
                 [rules.capture]\ndry = 'not mover.cell in z or target.cell in z'\n\
                 odd = 'mover.cell.col != target.cell.row'\n\
                 [setup.A]\nKing = \"a1\"\n[setup.B]\nKing = \"{}\"\n",
                ply_kernel::column_name(n - 1) + &n.to_string()
            ),
        )
    };
    load(&pack(6)).unwrap_or_else(|e| panic!("{e}"));
    let Err(err) = load(&pack(32)) else {
        panic!("the 32x32 capture table was accepted");
    };
    assert!(err.contains("MAX_TABLE_BITS"), "{err}");
    assert!(
        err.contains(&ply_kernel::MAX_TABLE_BITS.to_string()),
        "{err}"
    );
}
