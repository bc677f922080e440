//! Requests a browser page of another site could make, and the smaller holes: a `Host` the
//! server does not answer to (DNS rebinding), cross-site requests that change something, a
//! body that is not JSON, errors answered in something else than JSON, links out of the packs
//! folder, an idempotency key reused for another hop chain.

mod common;

use common::*;
use ply_server::Config;
use ply_server::api::{CreatedGame, ErrorBody, GameState, MoveText, PackList, PastedPack};
use ply_server::client::{Answer, Client};

fn error_of(a: &Answer) -> String {
    a.json::<ErrorBody>()
        .unwrap_or_else(|e| panic!("{} is not an error body: {e}", a.text()))
        .error
}

const CREATE: &[u8] = br#"{"pack": "breakthrough"}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_allowed_hosts_are_answered() {
    let db = temp_dir("ply_hosts").join("games.db");
    let server = start(Config {
        packs: rulesets(),
        db: db.display().to_string(),
        allowed_hosts: vec!["Games.Example".into()],
        ..Config::default()
    })
    .await;
    let mut c = Client::new(server.addr);
    let port = server.addr.port();
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        "games.example".into(),
    ] {
        let a = c
            .raw("GET", "/packs", Vec::new(), &[("Host", &host)])
            .await
            .expect("GET");
        assert_eq!(a.status, 200, "{host}: {}", a.text());
    }
    // A rebinding page's name, whatever the port: refused before any route, in JSON.
    for host in [format!("rebind.example:{port}"), "localhost.evil".into()] {
        for (method, path, body) in [
            ("GET", "/packs", Vec::new()),
            ("POST", "/games", CREATE.to_vec()),
            ("GET", "/no/such/route", Vec::new()),
        ] {
            let a = c
                .raw(method, path, body, &[("Host", &host)])
                .await
                .expect("request");
            assert_eq!(a.status, 421, "{host} {path}: {}", a.text());
            assert!(error_of(&a).contains("--allowed-host"), "{}", a.text());
        }
    }
    let a = c.get("/").await.expect("GET");
    assert_eq!(
        a.json::<serde_json::Value>().expect("json")["games_in_memory"],
        0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cross_site_requests_that_change_something_are_refused() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let own = format!("http://{}", server.addr);
    let refused: Vec<(&[(&str, &str)], u16)> = vec![
        (&[("Sec-Fetch-Site", "cross-site")], 403),
        (&[("Sec-Fetch-Site", "same-site")], 403),
        (&[("Origin", "http://evil.example")], 403),
        (&[("Origin", "null")], 403),
        // A simple request a form or `fetch` sends anywhere without asking.
        (&[("Content-Type", "text/plain")], 415),
        (
            &[("Content-Type", "application/x-www-form-urlencoded")],
            415,
        ),
        (&[("Content-Type", "")], 415),
    ];
    for (headers, status) in refused {
        for path in ["/games", "/playground/check"] {
            let a = c
                .raw("POST", path, CREATE.to_vec(), headers)
                .await
                .expect("POST");
            assert_eq!(a.status, status, "{headers:?}: {}", a.text());
            assert!(!error_of(&a).is_empty());
        }
    }
    let a = c.get("/").await.expect("GET");
    let index: serde_json::Value = a.json().expect("json");
    assert_eq!(index["games_in_memory"], 0, "a refused request made a game");
    // The server's own pages, and clients that are not browsers, are served.
    for headers in [
        vec![("Origin", own.as_str()), ("Sec-Fetch-Site", "same-origin")],
        vec![("Content-Type", "application/json; charset=utf-8")],
        vec![("Sec-Fetch-Site", "none")],
    ] {
        let a = c
            .raw("POST", "/games", CREATE.to_vec(), &headers)
            .await
            .expect("POST");
        assert_eq!(a.status, 201, "{headers:?}: {}", a.text());
    }
    // Reading is anyone's; a page of another site cannot open a game's WebSocket.
    let g = create(&mut c, "breakthrough").await;
    let a = c
        .raw(
            "GET",
            &format!("/games/{}", g.state.id),
            Vec::new(),
            &[
                ("Origin", "http://evil.example"),
                ("Sec-Fetch-Site", "cross-site"),
            ],
        )
        .await
        .expect("GET");
    assert_eq!(a.status, 200, "{}", a.text());
    let mut req = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
        format!("ws://{}/games/{}/ws", server.addr, g.state.id),
    )
    .expect("request");
    req.headers_mut()
        .insert("origin", "http://evil.example".parse().expect("header"));
    match tokio_tungstenite::connect_async(req).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 403),
        other => panic!("a cross-site WebSocket: {:?}", other.map(|(_, r)| r)),
    }
    let mut w = ws(server.addr, &g.state.id).await;
    assert!(matches!(
        next(&mut w).await,
        ply_server::api::ServerMessage::State { .. }
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_is_json() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    for (method, path, status) in [
        ("GET", "/assets/%C3%A0", 404),
        ("GET", "/assets/%22%5C", 404),
        ("GET", "/assets/%FF", 400),
        ("GET", "/games/%FF", 400),
        ("GET", "/games/%FF/layout", 400),
        ("GET", "/packs/%FF", 400),
        ("POST", "/games/%FF/moves", 400),
        ("GET", "/games/%00", 404),
        ("DELETE", "/games", 405),
        ("GET", "/nowhere", 404),
    ] {
        let a = c
            .raw(method, path, b"{}".to_vec(), &[])
            .await
            .expect("request");
        assert_eq!(a.status, status, "{method} {path}: {}", a.text());
        assert!(!error_of(&a).is_empty(), "{method} {path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_out_of_the_packs_folder_are_not_followed() {
    let dir = temp_dir("ply_links");
    let packs = dir.join("packs");
    std::fs::create_dir_all(&packs).expect("folder");
    let pack = std::fs::read_to_string(rulesets().join("breakthrough.toml")).expect("pack");
    std::fs::write(packs.join("inside.toml"), &pack).expect("write");
    std::fs::write(dir.join("secret.toml"), &pack).expect("write");
    std::os::unix::fs::symlink(dir.join("secret.toml"), packs.join("outside.toml")).expect("link");
    std::os::unix::fs::symlink(packs.join("inside.toml"), packs.join("alias.toml")).expect("link");
    let server = start(Config {
        packs: packs.clone(),
        db: dir.join("games.db").display().to_string(),
        ..Config::default()
    })
    .await;
    let mut c = Client::new(server.addr);
    let list: PackList = c.get("/packs").await.expect("GET").json().expect("list");
    let names: Vec<&str> = list.packs.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["alias", "inside"]);
    let a = c.get("/packs/outside").await.expect("GET");
    assert_eq!(a.status, 404, "{}", a.text());
    let a = c
        .raw("POST", "/games", br#"{"pack": "outside"}"#.to_vec(), &[])
        .await
        .expect("POST");
    assert_eq!(a.status, 404, "{}", a.text());
    for name in ["alias", "inside"] {
        assert_eq!(
            c.get(&format!("/packs/{name}")).await.expect("GET").status,
            200
        );
        create(&mut c, name).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idempotency_key_names_one_whole_path() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    // The cat on c7 can reach e5 by two chains of hops: over c6 then d5, or over d7 then e6.
    let a = c
        .post(
            "/playground/games",
            &PastedPack {
                text: "extends = \"cats_rabbits.toml\"\n[setup.RABBIT]\n\
                       Rabbit = \"c6 d5 d7 e6 a1\"\n[setup.CAT]\nCat = \"c7\"\n"
                    .into(),
                options: [(
                    "multi_hop".to_string(),
                    ply_server::api::OptionJson::Bool(true),
                )]
                .into(),
                engine: None,
                clock: None,
            },
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 201, "{}", a.text());
    let g: CreatedGame = a.json().expect("created");
    let moves = format!("/games/{}/moves", g.state.id);
    let s: GameState = c
        .post(&moves, &mv(&g.seats["RABBIT"], 0, "a1-a2"))
        .await
        .expect("POST")
        .json()
        .expect("state");
    let path = |cells: &[&str]| MoveText::Path(cells.iter().map(|c| c.to_string()).collect());
    let one = path(&["c7", "c5", "e5"]);
    let other = path(&["c7", "e7", "e5"]);
    for p in [&one, &other] {
        let MoveText::Path(cells) = p else {
            unreachable!()
        };
        assert!(s.legal_paths.contains(cells), "{:?}", s.legal_paths);
    }
    let keyed = |m: &MoveText| {
        let mut r = mv(&g.seats["CAT"], 1, "");
        r.mv = m.clone();
        r.idempotency_key = Some("hop".into());
        r
    };
    let first = c.post(&moves, &keyed(&one)).await.expect("POST");
    assert_eq!(first.status, 200, "{}", first.text());
    // The same key, the same two end cells, another chain: refused, saying which move the
    // key was used for.
    let a = c.post(&moves, &keyed(&other)).await.expect("POST");
    assert_eq!(a.status, 422, "{}", a.text());
    let why = error_of(&a);
    assert!(
        why.contains("c7xc5xe5") && why.contains("c7xe7xe5"),
        "{why}"
    );
    // The same chain again, as a path or in notation: the first answer.
    for m in [one.clone(), MoveText::Notation("c7xc5xe5".into())] {
        let a = c.post(&moves, &keyed(&m)).await.expect("POST");
        assert_eq!(a.status, 200, "{}", a.text());
        assert_eq!(a.text(), first.text());
    }
    let now: GameState = c
        .get(&format!("/games/{}", g.state.id))
        .await
        .expect("GET")
        .json()
        .expect("state");
    assert_eq!(now.version, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_creating_games_past_its_rate_is_answered_429_and_play_goes_on() {
    let db = temp_dir("ply_rate").join("games.db");
    let limit = ply_server::limits::Limit {
        per_minute: 3,
        at_once: 4,
    };
    let server = start(Config {
        packs: rulesets(),
        db: db.display().to_string(),
        limits: ply_server::limits::Limits {
            games: limit,
            playground: limit,
        },
        ..Config::default()
    })
    .await;
    let mut c = Client::new(server.addr);
    let games: Vec<CreatedGame> = vec![
        create(&mut c, "breakthrough").await,
        create(&mut c, "breakthrough").await,
        create(&mut c, "breakthrough").await,
    ];
    let a = c
        .raw("POST", "/games", CREATE.to_vec(), &[])
        .await
        .expect("POST");
    assert_eq!(a.status, 429, "{}", a.text());
    assert!(error_of(&a).contains("too many"));
    let wait: u64 = a
        .retry_after
        .as_deref()
        .expect("Retry-After")
        .parse()
        .expect("seconds");
    assert!((1..=20).contains(&wait), "{wait}");
    // The games made go on.
    let g = &games[2];
    let m = g.state.legal_moves[0].clone();
    let a = c
        .post(
            &format!("/games/{}/moves", g.state.id),
            &mv(&mover_token(g, &g.state), 0, &m),
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 200, "{}", a.text());
}
