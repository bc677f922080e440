//! What the web board and the playground ask of the server: the pages and their files, the
//! layout of any pack, legal moves as paths, seats, records, pasted packs within their limits,
//! and engines on a seat.

mod common;

use common::*;
use ply_server::api::{
    CreateGame, CreatedGame, EngineSeat, ErrorBody, GameState, Layout, PackCheck, PackText,
    PastedPack, SeatAnswer, SeatRequest, TimeControl, UndoAction, UndoRequest,
};
use ply_server::client::Client;
use ply_server::{Config, playground};
use std::time::Duration;

fn pasted(text: &str) -> PastedPack {
    PastedPack {
        text: text.to_string(),
        options: Default::default(),
        engine: None,
        clock: None,
    }
}

async fn check(c: &mut Client, text: &str) -> (u16, String) {
    let a = c
        .post("/playground/check", &pasted(text))
        .await
        .expect("POST");
    (a.status, a.text())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_and_their_files_are_served() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let html = c
        .raw("GET", "/", Vec::new(), &[("accept", "text/html,*/*")])
        .await
        .expect("GET");
    assert_eq!(html.status, 200);
    let board = html.text();
    assert!(board.starts_with("<!doctype html>"), "{board}");
    // Without asking for HTML, `/` is the server's description, as before.
    let json: serde_json::Value = c.get("/").await.expect("GET").json().expect("json");
    assert_eq!(json["name"], "ply serve");
    let play = c.get("/play").await.expect("GET").text();
    for page in [&board, &play] {
        assert!(
            !page.contains("http://") && !page.contains("https://"),
            "nothing from elsewhere"
        );
        let files: Vec<&str> = page
            .split("\"/assets/")
            .skip(1)
            .map(|rest| rest.split('"').next().expect("a name"))
            .collect();
        assert_eq!(files.len(), 3, "{page}");
        for f in files {
            let a = c.get(&format!("/assets/{f}")).await.expect("GET");
            assert_eq!(a.status, 200, "{f}");
        }
    }
    let css = c.get("/assets/style.css").await.expect("GET");
    assert!(css.text().contains(".board"));
    let missing = c.get("/assets/nope.js").await.expect("GET");
    assert_eq!(missing.status, 404);
    assert!(missing.text().contains("there is no asset"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_layout_draws_any_pack_and_paths_follow_the_moves() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let g = create(&mut c, "jungle").await;
    let layout: Layout = c
        .get(&format!("/games/{}/layout", g.state.id))
        .await
        .expect("GET")
        .json()
        .expect("a layout");
    assert_eq!((layout.rows, layout.cols), (9, 7));
    assert_eq!(layout.cells[0][0].as_ref().expect("a9").name, "a9");
    assert_eq!(layout.cells[8][6].as_ref().expect("g1").name, "g1");
    let zones_of = |name: &str| -> Vec<String> {
        let cell = layout
            .cells
            .iter()
            .flatten()
            .flatten()
            .find(|c| c.name == name)
            .expect("a cell");
        cell.zones
            .iter()
            .map(|&i| {
                let z = &layout.zones[i];
                format!(
                    "{}/{}/{}",
                    z.name,
                    z.owner.as_deref().unwrap_or("-"),
                    z.mark.as_deref().unwrap_or("")
                )
            })
            .collect()
    };
    assert_eq!(zones_of("b5"), ["water/-/~"]);
    assert_eq!(zones_of("d8"), ["trap/A/#"]);
    assert_eq!(zones_of("d1"), ["den/B/@"]);
    assert!(zones_of("a1").is_empty());
    // Every code the board shows is a piece of the layout.
    let codes: Vec<&str> = layout.pieces.iter().map(|p| p.code.as_str()).collect();
    for code in g
        .state
        .board
        .cells
        .iter()
        .flatten()
        .flatten()
        .filter(|c| !c.is_empty())
    {
        assert!(codes.contains(&code.as_str()), "{code}");
    }
    let tiger = layout.pieces.iter().find(|p| p.code == "AT").expect("AT");
    assert_eq!((tiger.kind.as_str(), tiger.owner.as_str()), ("Tiger", "A"));
    // Paths: one per legal move, the same cells.
    assert_eq!(g.state.legal_paths.len(), g.state.legal_moves.len());
    for (m, p) in g.state.legal_moves.iter().zip(&g.state.legal_paths) {
        assert_eq!(&p.join("-"), m);
    }
    assert_eq!(g.state.last_path, None);
    let moved: GameState = c
        .post(
            &format!("/games/{}/moves", g.state.id),
            &mv(&g.seats["A"], 0, "a7-a6"),
        )
        .await
        .expect("POST")
        .json()
        .expect("a state");
    assert_eq!(
        moved.last_path,
        Some(vec!["a7".to_string(), "a6".to_string()])
    );
    // A board with holes: null cells, as the board's.
    let fg = create(&mut c, "fox_and_geese").await;
    let fl: Layout = c
        .get(&format!("/games/{}/layout", fg.state.id))
        .await
        .expect("GET")
        .json()
        .expect("a layout");
    for (lr, br) in fl.cells.iter().zip(&fg.state.board.cells) {
        for (l, b) in lr.iter().zip(br) {
            assert_eq!(l.is_none(), b.is_none());
        }
    }
    assert!(fl.cells[0][0].is_none());
    // Multi-hop paths list every cell landed on.
    let cr = c
        .post(
            "/playground/games",
            &PastedPack {
                options: [(
                    "multi_hop".to_string(),
                    ply_server::api::OptionJson::Bool(true),
                )]
                .into(),
                ..pasted(
                    "extends = \"cats_rabbits.toml\"\n[setup.RABBIT]\nRabbit = \"c6 c4 a1\"\n\
                     [setup.CAT]\nCat = \"c7\"\n",
                )
            },
        )
        .await
        .expect("POST");
    assert_eq!(cr.status, 201, "{}", cr.text());
    let cr: CreatedGame = cr.json().expect("created");
    let st: GameState = c
        .post(
            &format!("/games/{}/moves", cr.state.id),
            &mv(&cr.seats["RABBIT"], 0, "a1-a2"),
        )
        .await
        .expect("POST")
        .json()
        .expect("a state");
    let chain: Vec<String> = vec!["c7".into(), "c5".into(), "c3".into()];
    let i = st
        .legal_paths
        .iter()
        .position(|p| *p == chain)
        .unwrap_or_else(|| panic!("{:?}", st.legal_paths));
    assert_eq!(st.legal_moves[i], "c7xc5xc3");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_is_named_for_its_token_only_and_the_record_replays() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let g = create(&mut c, "jungle").await;
    let id = &g.state.id;
    let seat = |t: &str| SeatRequest {
        token: t.to_string(),
    };
    let a: SeatAnswer = c
        .post(&format!("/games/{id}/seat"), &seat(&g.seats["B"]))
        .await
        .expect("POST")
        .json()
        .expect("a seat");
    assert_eq!(a.seat, "B");
    let mut tampered = g.seats["A"].clone();
    tampered.replace_range(0..1, if tampered.starts_with('0') { "1" } else { "0" });
    let refused = c
        .post(&format!("/games/{id}/seat"), &seat(&tampered))
        .await
        .expect("POST");
    assert_eq!(refused.status, 403);
    let body = refused.text();
    assert!(
        !body.contains(&g.seats["A"]) && !body.contains(&g.seats["B"]),
        "{body}"
    );
    let e: ErrorBody = refused.json().expect("an error");
    assert_eq!(e.error, "that token holds no seat of this game");

    for m in ["a7-a6", "a3-a4", "a6-a5"] {
        let st: GameState = c
            .get(&format!("/games/{id}"))
            .await
            .expect("GET")
            .json()
            .expect("state");
        let token = mover_token(&g, &st);
        let a = c
            .post(&format!("/games/{id}/moves"), &mv(&token, st.version, m))
            .await
            .expect("POST");
        assert_eq!(a.status, 200, "{}", a.text());
    }
    let rec = c.get(&format!("/games/{id}/record")).await.expect("GET");
    assert_eq!(rec.status, 200);
    assert_eq!(
        rec.text(),
        format!(
            "# Ply game record: game {id} of ply serve\nPack: jungle.toml\n\na7-a6 a3-a4\na6-a5\n"
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_playground_checks_pasted_packs_within_limits() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let base: PackText = c
        .get("/packs/cats_rabbits")
        .await
        .expect("GET")
        .json()
        .expect("text");
    assert!(base.text.starts_with("# Cats and Rabbits"));
    assert_eq!(c.get("/packs/..").await.expect("GET").status, 400);
    assert_eq!(c.get("/packs/nope").await.expect("GET").status, 404);

    // A pack that plays: ok, with `ply show`'s board (the CLI adds its summary).
    let (status, body) = check(&mut c, &base.text).await;
    assert_eq!(status, 200, "{body}");
    let ok: PackCheck = serde_json::from_str(&body).expect("a report");
    assert!(ok.ok, "{body}");
    assert!(
        ok.show
            .as_deref()
            .is_some_and(|s| s.starts_with("Cats and Rabbits\n\n")),
        "{body}"
    );
    assert_eq!(ok.options[0].name, "multi_hop");

    // A broken one: every problem at its line and column, as `ply validate` finds them.
    let broken = base.text.replace("over Rabbit chain", "over Rabit chain");
    let line = broken
        .lines()
        .position(|l| l.contains("Rabit"))
        .expect("a line")
        + 1;
    let (status, body) = check(&mut c, &broken).await;
    assert_eq!(status, 200);
    let bad: PackCheck = serde_json::from_str(&body).expect("a report");
    assert!(!bad.ok);
    let d = &bad.diagnostics[0];
    assert_eq!(
        (d.severity.as_str(), d.file.as_deref(), d.line),
        ("error", Some("pasted.toml"), Some(line)),
        "{body}"
    );
    let col = broken
        .lines()
        .nth(line - 1)
        .expect("line")
        .find("Rabit")
        .expect("col")
        + 1;
    assert_eq!(d.column, Some(col), "{body}");
    assert!(
        d.help.as_deref().is_some_and(|h| h.contains("Rabbit")),
        "{body}"
    );
    assert!(d.rendered.starts_with("error: "), "{body}");
    assert!(bad.show.is_none());

    // One that loads but cannot start: the smoke run's verdict.
    let stuck = format!(
        "{}\n",
        base.text
            .replace("Cat = \"c7 e7\"", "Cat = \"a2 b1\"")
            .replace("Rabbit = \"b1:g1\"", "Rabbit = \"a1\"")
    );
    let (_, body) = check(&mut c, &stuck).await;
    let r: PackCheck = serde_json::from_str(&body).expect("a report");
    assert!(!r.ok, "{body}");
    assert!(
        r.diagnostics[0].message.starts_with("the pack loads, but "),
        "{body}"
    );
    assert!(r.show.is_some());

    // Too long (413), nested too deeply (422), out of the folder (a located error).
    let (status, body) = check(&mut c, &"#".repeat(playground::MAX_PACK_TEXT + 1)).await;
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("at most 65536"), "{body}");
    let deep = format!("a = {}{}", "[".repeat(40), "]".repeat(40));
    let (status, body) = check(&mut c, &deep).await;
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("nests `[` and `{` 40 deep"), "{body}");
    let huge = c
        .raw(
            "POST",
            "/playground/check",
            vec![b' '; playground::MAX_PLAYGROUND_BODY + 10],
            &[],
        )
        .await
        .expect("POST");
    assert_eq!(huge.status, 413, "{}", huge.text());
    for outside in ["../Cargo.toml", "/etc/passwd", "rulesets/jungle.toml"] {
        let (status, body) = check(&mut c, &format!("extends = \"{outside}\"\n")).await;
        assert_eq!(status, 200);
        let r: PackCheck = serde_json::from_str(&body).expect("a report");
        assert!(!r.ok);
        assert_eq!(r.diagnostics[0].line, Some(1));
        assert!(
            r.diagnostics[0]
                .message
                .contains("is not the file name of a pack of this server"),
            "{body}"
        );
        assert!(
            !body.contains("[package]") && !body.contains("root:"),
            "nothing read: {body}"
        );
    }
    let (_, body) = check(
        &mut c,
        "extends = \"jungle.toml\"\n[game]\nname = \"Mine\"\n",
    )
    .await;
    let r: PackCheck = serde_json::from_str(&body).expect("a report");
    assert!(r.ok, "{body}");
    assert!(
        !body.contains(&rulesets().display().to_string()),
        "no server path shown: {body}"
    );

    // Counted once loaded: more zones than a pasted pack may have (65 and the burrow).
    let zones: String = (0..=playground::MAX_ZONES)
        .map(|i| format!("[zones.z{i}]\ncells = \"a1\"\n"))
        .collect();
    let (status, body) = check(&mut c, &format!("{}\n{zones}", base.text)).await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body.contains("the pack has 66 zones; a pasted pack may have at most 64"),
        "{body}"
    );

    // A check starts no game.
    let with_engine = PastedPack {
        engine: Some(EngineSeat {
            player: "random".into(),
            seat: None,
        }),
        ..pasted(&base.text)
    };
    let a = c
        .post("/playground/check", &with_engine)
        .await
        .expect("POST");
    assert_eq!(a.status, 400);
    // Nor does a check with clocks: they are a game's.
    let timed = PastedPack {
        clock: Some(TimeControl {
            initial_ms: 60_000,
            increment_ms: 1_000,
        }),
        ..pasted(&base.text)
    };
    let a = c.post("/playground/check", &timed).await.expect("POST");
    assert_eq!(a.status, 400, "{}", a.text());
    assert!(
        a.text()
            .contains("`clock` belongs to POST /playground/games"),
        "{}",
        a.text()
    );
    // A pasted pack's game keeps the clocks it was started with, as a shipped pack's does.
    let a = c.post("/playground/games", &timed).await.expect("POST");
    assert_eq!(a.status, 201, "{}", a.text());
    let state: serde_json::Value = a.json().expect("json");
    assert_eq!(
        state["clock"]["control"],
        serde_json::json!({"initial_ms": 60000, "increment_ms": 1000}),
        "{state}"
    );
    let left = state["clock"]["remaining_ms"]
        .as_array()
        .expect("remaining_ms");
    assert_eq!(left.len(), 2, "{state}");
    assert!(
        left.iter()
            .all(|ms| (59_000..=60_000).contains(&ms.as_i64().unwrap_or(0))),
        "{state}"
    );
    // A bad time control is refused for a pasted pack too.
    let zero = PastedPack {
        clock: Some(TimeControl {
            initial_ms: 0,
            increment_ms: 0,
        }),
        ..pasted(&base.text)
    };
    let a = c.post("/playground/games", &zero).await.expect("POST");
    assert_eq!(a.status, 422, "{}", a.text());
    assert!(a.text().contains("initial_ms is 1 to"), "{}", a.text());
    // A broken pack starts no game either.
    let a = c
        .post("/playground/games", &pasted(&broken))
        .await
        .expect("POST");
    assert_eq!(a.status, 422);
    assert!(a.text().contains("Rabit"), "{}", a.text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_check_that_takes_too_long_is_answered_422() {
    let db = temp_dir("ply_web").join("games.db");
    let server = start(Config {
        packs: rulesets(),
        db: db.display().to_string(),
        check_time: Duration::from_micros(1),
        ..Config::default()
    })
    .await;
    let mut c = Client::new(server.addr);
    let text = std::fs::read_to_string(rulesets().join("jungle.toml")).expect("jungle");
    let (status, body) = check(&mut c, &text).await;
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("took longer than 0.0 s"), "{body}");
    // The server is unaffected.
    assert_eq!(c.get("/packs").await.expect("GET").status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_plays_its_seat_and_declines_undo() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let create = |engine: Option<EngineSeat>| CreateGame {
        pack: "jungle".into(),
        options: Default::default(),
        engine,
        clock: None,
    };
    for (player, seat, why) in [
        ("mcts:abc", None, "`abc` is not a time"),
        ("chess-master", None, "unknown player"),
        ("random", Some("C"), "there is no seat `C`"),
    ] {
        let a = c
            .post(
                "/games",
                &create(Some(EngineSeat {
                    player: player.into(),
                    seat: seat.map(Into::into),
                })),
            )
            .await
            .expect("POST");
        assert_eq!(a.status, 422, "{}", a.text());
        assert!(a.text().contains(why), "{}", a.text());
    }
    // The engine plays A, the first player: it moves at once; only B's token is given.
    let a = c
        .post(
            "/games",
            &create(Some(EngineSeat {
                player: "alphabeta:depth=2".into(),
                seat: Some("A".into()),
            })),
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 201, "{}", a.text());
    let g: CreatedGame = a.json().expect("created");
    assert_eq!(g.seats.keys().collect::<Vec<_>>(), ["B"]);
    assert_eq!(g.state.engine_seat.as_deref(), Some("A"));
    let id = g.state.id.clone();
    let wait_for = |v: u64| {
        let addr = server.addr;
        let id = id.clone();
        async move {
            let mut c = Client::new(addr);
            for _ in 0..200 {
                let st: GameState = c
                    .get(&format!("/games/{id}"))
                    .await
                    .expect("GET")
                    .json()
                    .expect("state");
                if st.version >= v {
                    return st;
                }
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
            panic!("the engine did not move to version {v}");
        }
    };
    let st = wait_for(1).await;
    assert_eq!(st.to_move.as_deref(), Some("B"));
    let b = &g.seats["B"];
    let token = b.clone();
    let m = st.legal_moves[0].clone();
    let a = c
        .post(&format!("/games/{id}/moves"), &mv(&token, 1, &m))
        .await
        .expect("POST");
    assert_eq!(a.status, 200, "{}", a.text());
    let st = wait_for(3).await;
    assert_eq!(st.moves.len(), 3);
    // Asking to take back: the engine declines.
    let ask = UndoRequest {
        token: token.clone(),
        version: 3,
        undo: UndoAction::Ask,
    };
    let a = c
        .post(&format!("/games/{id}/undo"), &ask)
        .await
        .expect("POST");
    assert_eq!(a.status, 200, "{}", a.text());
    let st = wait_for(5).await;
    assert_eq!(st.undo_request, None);
    assert_eq!(st.moves.len(), 3, "nothing was taken back");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pasted_pack_with_display_draws_as_asked() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let text = "extends = \"jungle.toml\"\n[display.zones]\nwater = { colour = \"#8ecae6\", glyph = \"≈\" }\n\
                [display.pieces]\nTiger = { glyph = \"虎\" }\n[display.players]\nB = { colour = \"#224\" }\n";
    let a = c
        .post("/playground/games", &pasted(text))
        .await
        .expect("POST");
    assert_eq!(a.status, 201, "{}", a.text());
    let g: CreatedGame = a.json().expect("created");
    assert_eq!(g.seats.len(), 2);
    assert_eq!(g.state.pack.name, "pasted");
    let layout: Layout = c
        .get(&format!("/games/{}/layout", g.state.id))
        .await
        .expect("GET")
        .json()
        .expect("layout");
    let water = layout
        .zones
        .iter()
        .find(|z| z.name == "water")
        .expect("water");
    assert_eq!(
        (water.colour.as_deref(), water.glyph.as_deref()),
        (Some("#8ecae6"), Some("≈"))
    );
    let tigers: Vec<_> = layout.pieces.iter().filter(|p| p.kind == "Tiger").collect();
    assert!(tigers.iter().all(|p| p.glyph.as_deref() == Some("虎")));
    assert_eq!(layout.players[1].colour.as_deref(), Some("#224"));
    assert_eq!(layout.players[0].colour, None);
    // A colour that is not one is refused at its place.
    let (_, body) = check(
        &mut c,
        "extends = \"jungle.toml\"\n[display.zones]\nwater = { colour = \"url(x)\" }\n",
    )
    .await;
    let r: PackCheck = serde_json::from_str(&body).expect("report");
    assert!(!r.ok);
    assert_eq!(
        (r.diagnostics[0].line, r.diagnostics[0].column),
        (Some(3), Some(20)),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_layout_carries_the_board_style_images_and_drawings_and_a_state_shows_check() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let text = "extends = \"jungle.toml\"\n[display]\nboard = \"intersections\"\ncolour = \"#e3b873\"\nstars = \"d5 a1\"\n\
                [display.pieces]\nTiger = { glyph = { A = \"虎\", B = \"寅\" }, image = \"counter\" }\n\
                Rat = { glyph = \"R\", image = \"stone\" }\n\
                [display.zones]\nwater = { draw = \"band\" }\n";
    let a = c
        .post("/playground/games", &pasted(text))
        .await
        .expect("POST");
    assert_eq!(a.status, 201, "{}", a.text());
    let g: CreatedGame = a.json().expect("created");
    let layout: Layout = c
        .get(&format!("/games/{}/layout", g.state.id))
        .await
        .expect("GET")
        .json()
        .expect("layout");
    assert_eq!(layout.style, "intersections");
    assert_eq!(layout.stars, ["d5", "a1"]);
    assert_eq!(layout.colour.as_deref(), Some("#e3b873"));
    let piece = |code: &str| layout.pieces.iter().find(|p| p.code == code).expect(code);
    // A glyph by owner reaches each owner's piece; one glyph reaches both.
    assert_eq!(piece("AT").glyph.as_deref(), Some("虎"));
    assert_eq!(piece("BT").glyph.as_deref(), Some("寅"));
    assert_eq!(piece("BT").image.as_deref(), Some("counter"));
    assert_eq!(piece("AR").glyph.as_deref(), Some("R"));
    assert_eq!(piece("BR").image.as_deref(), Some("stone"));
    assert_eq!(piece("AL").image, None);
    let water = layout
        .zones
        .iter()
        .find(|z| z.name == "water")
        .expect("water");
    assert_eq!(water.draw.as_deref(), Some("band"));
    // A pack of one's own without `[display]` is drawn plain.
    let own = "[game]\nplayers = [\"A\", \"B\"]\n[board]\nrows = 3\ncols = 3\n[pieces.Stone]\n\
               letter = \"S\"\nmoves = [\"step orthogonal\"]\n[setup.A]\nStone = \"a1\"\n\
               [setup.B]\nStone = \"c3\"\n";
    let a = c
        .post("/playground/games", &pasted(own))
        .await
        .expect("POST");
    assert_eq!(a.status, 201, "{}", a.text());
    let g: CreatedGame = a.json().expect("created");
    let layout: Layout = c
        .get(&format!("/games/{}/layout", g.state.id))
        .await
        .expect("GET")
        .json()
        .expect("layout");
    assert_eq!(layout.style, "plain");
    assert!(layout.stars.is_empty());
    assert!(layout.pieces.iter().all(|p| p.image.is_none()));
    assert!(
        layout.links.is_empty(),
        "a grid has no links: {:?}",
        layout.links
    );
    // A mill board's links across its holes, for its lines to follow: the outer square's
    // sides join corners to middles, and no link joins two cells side by side.
    let g = create(&mut c, "nine_mens_morris").await;
    let layout: Layout = c
        .get(&format!("/games/{}/layout", g.state.id))
        .await
        .expect("GET")
        .json()
        .expect("layout");
    let has = |a: &str, b: &str| {
        layout
            .links
            .iter()
            .any(|l| (l[0] == a && l[1] == b) || (l[0] == b && l[1] == a))
    };
    assert!(
        has("a1", "d1") && has("d1", "g1") && has("g1", "g4") && has("b2", "d2"),
        "{:?}",
        layout.links
    );
    assert!(!has("c3", "d3") && !has("d6", "d5"), "{:?}", layout.links);
    assert_eq!(layout.links.len(), 16, "{:?}", layout.links);
    // Check: 1. e4 f6 2. Qh5+ puts the second player's royal piece on e8 in check; the reply
    // g6 blocks it and the check is gone.
    let g = create(&mut c, "chess").await;
    assert!(g.state.check.is_empty());
    assert_eq!(g.state.engine_seat, None);
    let first = g.state.players[0].clone();
    let second = g.state.players[1].clone();
    let mut st = g.state.clone();
    for (seat, m) in [(&first, "e2-e4"), (&second, "f7-f6"), (&first, "d1-h5")] {
        st = c
            .post(
                &format!("/games/{}/moves", g.state.id),
                &mv(&g.seats[seat], st.version, m),
            )
            .await
            .expect("POST")
            .json()
            .expect("a state");
        if m != "d1-h5" {
            assert!(st.check.is_empty(), "{m}: {:?}", st.check);
        }
    }
    assert_eq!(st.check, ["e8"]);
    // The history: the start, then the board after each move, with the move.
    let h: ply_server::api::History = c
        .get(&format!("/games/{}/history", g.state.id))
        .await
        .expect("GET")
        .json()
        .expect("a history");
    assert_eq!(h.version, st.version);
    assert_eq!(h.steps.len(), 4);
    assert_eq!(h.steps[0].position, g.state.position);
    assert_eq!(h.steps[0].board, g.state.board);
    assert_eq!(h.steps[0].mv, None);
    assert_eq!(h.steps[1].mv.as_deref(), Some("e2-e4"));
    assert_eq!(
        h.steps[1].path,
        Some(vec!["e2".to_string(), "e4".to_string()])
    );
    assert_eq!(h.steps[1].board.cells[4][4].as_deref(), Some("WP"));
    assert_eq!(h.steps[3].position, st.position);
    assert_eq!(h.steps[3].board, st.board);
    let st: GameState = c
        .post(
            &format!("/games/{}/moves", g.state.id),
            &mv(&g.seats[&second], st.version, "g7-g6"),
        )
        .await
        .expect("POST")
        .json()
        .expect("a state");
    assert!(st.check.is_empty(), "{:?}", st.check);
}
