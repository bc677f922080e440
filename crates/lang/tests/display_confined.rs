//! `[display]` (colours and glyphs for a graphical front end) and the confined loader of
//! pasted packs (`extends` only from one folder).

use std::path::Path;

const BASE: &str = r#"
[game]
players = ["A", "B"]
[board]
rows = 3
cols = 3
[zones.pond]
cells = "b2"
mark = "~"
[pieces.Stone]
letter = "S"
moves = ["step orthogonal"]
[setup.A]
Stone = "a1"
[setup.B]
Stone = "c3"
"#;

fn errors(text: &str) -> String {
    match ply_lang::load_str("p.toml", text, &[]) {
        Ok(_) => panic!("the pack loaded"),
        Err(e) => e.render(false),
    }
}

#[test]
fn display_is_read_by_name() {
    let text = format!(
        "{BASE}[display.pieces]\nStone = {{ glyph = \"●\", colour = \"#123abc\" }}\n\
         [display.zones]\npond = {{ colour = \"#9cf\" }}\n[display.players]\nB = {{ colour = \"#000\" }}\n"
    );
    let pack = ply_lang::load_str("p.toml", &text, &[]).expect("loads");
    let stone = &pack.display.pieces["Stone"];
    assert_eq!(stone.glyph.as_deref(), Some("●"));
    assert_eq!(stone.colour.as_deref(), Some("#123abc"));
    assert_eq!(pack.display.zones["pond"].colour.as_deref(), Some("#9cf"));
    assert_eq!(pack.display.players["B"].colour.as_deref(), Some("#000"));
    // The resolved pack keeps the section, so that a stored game draws the same.
    let again = ply_lang::load_str("r.toml", &pack.resolved, &[]).expect("resolved loads");
    assert_eq!(again.display, pack.display);
    // Without the section, nothing is asked.
    let plain = ply_lang::load_str("p.toml", BASE, &[]).expect("loads");
    assert!(plain.display.pieces.is_empty() && plain.display.zones.is_empty());
}

#[test]
fn display_mistakes_are_located() {
    let text = format!("{BASE}[display.pieces]\nStne = {{ glyph = \"x\" }}\n");
    let e = errors(&text);
    assert!(
        e.contains("there is no piece kind `Stne` to display"),
        "{e}"
    );
    assert!(e.contains("did you mean `Stone`?"), "{e}");
    let text = format!("{BASE}[display.pieces]\nStone = {{ colour = \"red; x\" }}\n");
    let e = errors(&text);
    assert!(e.contains("a colour is `#rgb` or `#rrggbb`"), "{e}");
    assert!(e.contains("p.toml:18:"), "{e}");
    let text = format!("{BASE}[display.zones]\npond = {{ glyph = \"four\" }}\n");
    assert!(errors(&text).contains("a glyph is 1 to 3 characters"));
    let text = format!("{BASE}[display.players]\nA = {{ glyph = \"x\" }}\n");
    assert!(errors(&text).contains("unknown key `glyph`"));
    let text = format!("{BASE}[display]\nsize = 3\n");
    assert!(errors(&text).contains("unknown key `size` in [display]"));
}

#[test]
fn board_styles_images_glyphs_by_owner_and_zone_drawings_are_read() {
    let text = format!(
        "{BASE}[display]\nboard = \"intersections\"\ncolour = \"#e3b873\"\nstars = \"b2 a1:a2\"\n\
         [display.pieces]\nStone = {{ image = \"figure:N\", glyph = {{ A = \"帥\", B = \"將\" }} }}\n\
         [display.zones]\npond = {{ draw = \"band\" }}\n"
    );
    let pack = ply_lang::load_str("p.toml", &text, &[]).expect("loads");
    let d = &pack.display;
    assert_eq!(d.board.as_deref(), Some("intersections"));
    assert_eq!(d.stars, ["b2", "a2", "a1"]);
    assert_eq!(d.colour.as_deref(), Some("#e3b873"));
    let stone = &d.pieces["Stone"];
    assert_eq!(stone.image.as_deref(), Some("figure:N"));
    assert_eq!(stone.glyph, None);
    assert_eq!(stone.glyphs["A"], "帥");
    assert_eq!(stone.glyphs["B"], "將");
    assert_eq!(d.zones["pond"].draw.as_deref(), Some("band"));
    let again = ply_lang::load_str("r.toml", &pack.resolved, &[]).expect("resolved loads");
    assert_eq!(&again.display, d);
    // Every allowed value is accepted.
    for style in ply_lang::BOARD_STYLES {
        let t = format!("{BASE}[display]\nboard = \"{style}\"\n");
        assert!(ply_lang::load_str("p.toml", &t, &[]).is_ok(), "{style}");
    }
    for image in ply_lang::PIECE_IMAGES {
        let t = format!("{BASE}[display.pieces]\nStone = {{ image = \"{image}\" }}\n");
        assert!(ply_lang::load_str("p.toml", &t, &[]).is_ok(), "{image}");
    }
    for draw in ply_lang::ZONE_DRAWINGS {
        let t = format!("{BASE}[display.zones]\npond = {{ draw = \"{draw}\" }}\n");
        assert!(ply_lang::load_str("p.toml", &t, &[]).is_ok(), "{draw}");
    }
}

/// Each mistake in the new keys of `[display]`, as `ply validate` shows it: located, with the
/// allowed values or a suggestion.
#[test]
fn display_style_mistakes_are_located_and_hinted() {
    let cases = [
        ("board_misspelt", "[display]\nboard = \"checkerd\"\n"),
        ("board_unknown", "[display]\nboard = \"hexagons\"\n"),
        ("board_not_a_string", "[display]\nboard = 3\n"),
        ("board_colour", "[display]\ncolour = \"green\"\n"),
        ("stars_off_the_board", "[display]\nstars = \"b2 k9\"\n"),
        (
            "image_unknown",
            "[display.pieces]\nStone = { image = \"figure:X\" }\n",
        ),
        (
            "glyph_owner_unknown",
            "[display.pieces]\nStone = { glyph = { A = \"x\", C = \"y\" } }\n",
        ),
        (
            "glyph_by_owner_too_long",
            "[display.pieces]\nStone = { glyph = { A = \"long\" } }\n",
        ),
        (
            "draw_unknown",
            "[display.zones]\npond = { draw = \"rivr\" }\n",
        ),
        (
            "draw_on_a_piece",
            "[display.pieces]\nStone = { draw = \"band\" }\n",
        ),
    ];
    for (name, section) in cases {
        insta::assert_snapshot!(
            format!("display_{name}"),
            errors(&format!("{BASE}{section}"))
        );
    }
}

fn rulesets() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets"))
}

fn confined(text: &str) -> Result<ply_lang::Pack, String> {
    ply_lang::load_str_confined("pasted.toml", text, &ply_lang::Options::new(), rulesets())
        .map_err(|e| e.render(false))
}

#[test]
fn confined_extends_reads_the_folder_only() {
    let pack = confined("extends = \"jungle.toml\"\n[game]\nname = \"Mine\"\n").expect("loads");
    assert_eq!(pack.rules.core().name(), "Mine");
    // The base is shown by its bare name, never by the server's path.
    assert_eq!(
        pack.sources.get(1).map(|f| f.name.as_str()),
        Some("jungle.toml")
    );
    // A pack of the folder that extends another of the folder.
    assert!(confined("extends = \"jungle_simplified.toml\"\n").is_ok());
    for bad in [
        "../rulesets/jungle.toml",
        "/etc/passwd",
        "rulesets/jungle.toml",
        "..",
        "jungle",
    ] {
        let e = confined(&format!("extends = \"{bad}\"\n")).unwrap_err();
        assert!(
            e.contains("is not the file name of a pack of this server"),
            "{bad}: {e}"
        );
        assert!(e.contains("pasted.toml:1:11"), "{e}");
    }
    let e = confined("extends = \"no_such_pack.toml\"\n").unwrap_err();
    assert!(
        e.contains("there is no pack `no_such_pack.toml` in the server's folder"),
        "{e}"
    );
    let e = confined("extends = 3\n").unwrap_err();
    assert!(e.contains("`extends` must be a file name"), "{e}");
}
