//! `openapi.json` against the types: every document the server really answers, and every
//! request the types write, is valid by its schema (objects closed: no field the schema does
//! not name, none it requires missing); the file's examples read as the types; every
//! documented route is served and the file is what `GET /openapi.json` answers.

mod common;

use common::*;
use ply_server::api::{
    CreateGame, DrawAction, DrawRequest, EngineSeat, ErrorBody, MoveRequest, MoveText, OptionJson,
    PastedPack, ResignRequest, SeatRequest, ServerMessage, TimeControl, UndoAction, UndoRequest,
};
use ply_server::client::Client;
use serde_json::Value;
use std::collections::BTreeSet;

struct Spec {
    doc: Value,
}

impl Spec {
    fn schema(&self, name: &str) -> &Value {
        &self.doc["components"]["schemas"][name]
    }

    fn resolve<'a>(&'a self, s: &'a Value) -> &'a Value {
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                let name = r
                    .strip_prefix("#/components/schemas/")
                    .unwrap_or_else(|| panic!("unknown $ref {r}"));
                let found = self.schema(name);
                assert!(!found.is_null(), "no schema {name}");
                found
            }
            None => s,
        }
    }

    /// The names of the properties of an object schema, through `allOf`.
    fn property_names(&self, s: &Value, names: &mut BTreeSet<String>) {
        let s = self.resolve(s);
        if let Some(p) = s.get("properties").and_then(Value::as_object) {
            names.extend(p.keys().cloned());
        }
        for part in s
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.property_names(part, names);
        }
    }

    /// The problems of `v` against schema `s`, at `at`. Objects are closed: a field that no
    /// part of the schema names is a problem (the server answers only what it describes).
    fn check(&self, s: &Value, v: &Value, at: &str, out: &mut Vec<String>) {
        self.check_part(s, v, at, out, true);
    }

    fn check_part(&self, s: &Value, v: &Value, at: &str, out: &mut Vec<String>, closed: bool) {
        let s = self.resolve(s);
        if let Some(all_of) = s.get("allOf").and_then(Value::as_array) {
            for part in all_of {
                self.check_part(part, v, at, out, false);
            }
            if let Some(o) = v.as_object() {
                let mut names = BTreeSet::new();
                self.property_names(s, &mut names);
                for k in o.keys().filter(|k| !names.contains(*k)) {
                    out.push(format!("{at}: `{k}` is in no part of the schema"));
                }
            }
            return;
        }
        if let Some(one_of) = s.get("oneOf").and_then(Value::as_array) {
            let ok = one_of
                .iter()
                .filter(|alt| {
                    let mut e = Vec::new();
                    self.check(alt, v, at, &mut e);
                    e.is_empty()
                })
                .count();
            if ok != 1 {
                out.push(format!("{at}: {ok} of oneOf match {v}"));
            }
            return;
        }
        if let Some(c) = s.get("const")
            && c != v
        {
            out.push(format!("{at}: {v} is not {c}"));
        }
        if let Some(e) = s.get("enum").and_then(Value::as_array)
            && !e.contains(v)
        {
            out.push(format!("{at}: {v} is not one of {e:?}"));
        }
        if let Some(t) = s.get("type") {
            let types: Vec<&str> = match t {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => panic!("{at}: bad type {t}"),
            };
            let is = match v {
                Value::Null => "null",
                Value::Bool(_) => "boolean",
                Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
                Value::Number(_) => "number",
                Value::String(_) => "string",
                Value::Array(_) => "array",
                Value::Object(_) => "object",
            };
            if !(types.contains(&is) || is == "integer" && types.contains(&"number")) {
                out.push(format!("{at}: {v} is {is}, not {types:?}"));
                return;
            }
        }
        if let (Some(min), Some(n)) = (s.get("minimum").and_then(Value::as_f64), v.as_f64())
            && n < min
        {
            out.push(format!("{at}: {n} < {min}"));
        }
        if let (Some(min), Some(a)) = (s.get("minItems").and_then(Value::as_u64), v.as_array())
            && (a.len() as u64) < min
        {
            out.push(format!("{at}: fewer than {min} items"));
        }
        if let Some(text) = v.as_str() {
            let n = text.chars().count() as u64;
            if s.get("minLength")
                .and_then(Value::as_u64)
                .is_some_and(|m| n < m)
                || s.get("maxLength")
                    .and_then(Value::as_u64)
                    .is_some_and(|m| n > m)
            {
                out.push(format!("{at}: length {n} out of bounds"));
            }
        }
        if let (Some(items), Some(a)) = (s.get("items"), v.as_array()) {
            for (i, x) in a.iter().enumerate() {
                self.check(items, x, &format!("{at}[{i}]"), out);
            }
        }
        if let Some(o) = v.as_object() {
            let props = s.get("properties").and_then(Value::as_object);
            if let Some(req) = s.get("required").and_then(Value::as_array) {
                for r in req.iter().filter_map(Value::as_str) {
                    if !o.contains_key(r) {
                        out.push(format!("{at}: `{r}` is required but missing"));
                    }
                }
            }
            for (k, x) in o {
                match props.and_then(|p| p.get(k)) {
                    Some(ps) => self.check(ps, x, &format!("{at}.{k}"), out),
                    None => match s.get("additionalProperties") {
                        Some(Value::Bool(false)) => {
                            out.push(format!("{at}: `{k}` is not in the schema"))
                        }
                        Some(Value::Bool(true)) => {}
                        None if closed && props.is_some() => {
                            out.push(format!("{at}: `{k}` is not in the schema"))
                        }
                        None => {}
                        Some(extra) => self.check(extra, x, &format!("{at}.{k}"), out),
                    },
                }
            }
        }
    }

    fn assert_valid(&self, name: &str, v: &Value, used: &mut BTreeSet<String>) {
        used.insert(name.to_string());
        let mut problems = Vec::new();
        self.check(self.schema(name), v, name, &mut problems);
        assert!(
            problems.is_empty(),
            "{name}:\n{}\n{v:#}",
            problems.join("\n")
        );
    }
}

fn spec() -> Spec {
    Spec {
        doc: serde_json::from_str(ply_server::http::openapi_json())
            .expect("the description is JSON"),
    }
}

/// The checked-in `openapi.json` (for documentation to link) is the generated description;
/// `PLY_UPDATE_OPENAPI=1 cargo test -p ply-server --test openapi` writes it again.
#[test]
fn the_checked_in_openapi_file_is_the_generated_one() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json");
    let generated = ply_server::http::openapi_json();
    if std::env::var_os("PLY_UPDATE_OPENAPI").is_some() {
        std::fs::write(path, generated).expect("write openapi.json");
    }
    let file = std::fs::read_to_string(path).expect("openapi.json");
    assert!(
        file == generated,
        "crates/server/openapi.json is not the generated description: run \
         PLY_UPDATE_OPENAPI=1 cargo test -p ply-server --test openapi"
    );
}

/// The descriptions come from doc comments: rustdoc's links are turned into plain text (a
/// constant's value, a type's or field's name), so none is left in what clients read.
#[test]
fn descriptions_carry_no_rustdoc_links() {
    use ply_server::http::plain_links;
    assert_eq!(
        plain_links("at most [`crate::bots::MAX_ENGINE_TIME`], the first [`MAX_INLINE_LEGAL`]"),
        "at most 5s, the first 500"
    );
    assert_eq!(
        plain_links("as in [`Board::cells`], a [`crate::api::GameState`] or [see](crate::x::Y)"),
        "as in `Board.cells`, a `GameState` or see"
    );
    // What is not a link is left alone.
    let plain = r#"`cells[row][col]`, a path (`[\"c1\", \"c3\"]`), [a] [`not a path`]"#;
    assert_eq!(plain_links(plain), plain);
    let text = ply_server::http::openapi_json();
    for bad in ["[`", "`]", "](", "crate::"] {
        let at = text
            .find(bad)
            .map(|i| &text[i.saturating_sub(80)..(i + 80).min(text.len())]);
        assert!(at.is_none(), "a rustdoc link in the description: {at:?}");
    }
    let doc = spec().doc;
    let legal = &doc["components"]["schemas"]["GameState"]["properties"]["legal_moves"];
    assert!(
        legal["description"]
            .as_str()
            .is_some_and(|d| d.contains(&format!(
                "first\n{} of them",
                ply_server::api::MAX_INLINE_LEGAL
            ))),
        "{legal}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openapi_file_describes_what_the_server_does() {
    let spec = spec();
    let mut used = BTreeSet::new();
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);

    let served = c.get("/openapi.json").await.expect("GET");
    assert_eq!(served.text(), ply_server::http::openapi_json());

    let info = c.get("/").await.expect("GET");
    spec.assert_valid("ServerInfo", &info.json().expect("json"), &mut used);
    let packs = c.get("/packs").await.expect("GET");
    spec.assert_valid("PackList", &packs.json().expect("json"), &mut used);

    let created = c
        .post(
            "/games",
            &CreateGame {
                pack: "cats_rabbits".into(),
                options: [("multi_hop".to_string(), OptionJson::Bool(true))].into(),
                engine: None,
                clock: None,
            },
        )
        .await
        .expect("POST");
    let created_v: Value = created.json().expect("json");
    spec.assert_valid("CreatedGame", &created_v, &mut used);
    let id = created_v["id"].as_str().expect("id").to_string();
    let rabbit = created_v["seats"]["RABBIT"]
        .as_str()
        .expect("token")
        .to_string();
    let cat = created_v["seats"]["CAT"]
        .as_str()
        .expect("token")
        .to_string();

    let mut req = mv(&rabbit, 0, "b1-b2");
    req.idempotency_key = Some("k".into());
    let moved = c
        .post(&format!("/games/{id}/moves"), &req)
        .await
        .expect("POST");
    spec.assert_valid("GameState", &moved.json().expect("json"), &mut used);
    let undo = UndoRequest {
        token: cat.clone(),
        version: 1,
        undo: UndoAction::Ask,
    };
    let asked = c
        .post(&format!("/games/{id}/undo"), &undo)
        .await
        .expect("POST");
    assert_eq!(asked.status, 200, "{}", asked.text());
    // A state with an undo request, a finished one and one of a board with holes.
    spec.assert_valid("GameState", &asked.json().expect("json"), &mut used);
    let fg = create(&mut c, "fox_and_geese").await;
    spec.assert_valid(
        "GameState",
        &serde_json::to_value(&fg.state).expect("json"),
        &mut used,
    );

    let stale = c
        .post(&format!("/games/{id}/moves"), &mv(&cat, 0, "c7-c6"))
        .await
        .expect("POST");
    assert_eq!(stale.status, 409);
    spec.assert_valid("Conflict", &stale.json().expect("json"), &mut used);
    let g2 = create(&mut c, "jungle").await;
    let refused = c
        .post(
            &format!("/games/{}/moves", g2.state.id),
            &mv(&g2.seats["A"], 0, "e7-e6"),
        )
        .await
        .expect("POST");
    let refused: ErrorBody = refused.json().expect("json");
    assert!(refused.rule.is_some());
    spec.assert_valid(
        "ErrorBody",
        &serde_json::to_value(&refused).expect("json"),
        &mut used,
    );
    let unknown = c.get("/games/nope").await.expect("GET");
    spec.assert_valid("ErrorBody", &unknown.json().expect("json"), &mut used);

    let mut w = ws(server.addr, &id).await;
    let first = next(&mut w).await;
    spec.assert_valid(
        "ServerMessage",
        &serde_json::to_value(&first).expect("json"),
        &mut used,
    );
    send(&mut w, "{}".into()).await;
    let answer = next(&mut w).await;
    assert!(matches!(answer, ServerMessage::Answer { status: 400, .. }));
    spec.assert_valid(
        "ServerMessage",
        &serde_json::to_value(&answer).expect("json"),
        &mut used,
    );

    // Requests, as the types write them, all optional fields given.
    for m in [
        MoveRequest {
            token: "t".into(),
            version: 3,
            mv: MoveText::Path(vec!["c1".into(), "c3".into()]),
            idempotency_key: Some("key".into()),
        },
        mv("t", 0, "a1-a2"),
    ] {
        spec.assert_valid(
            "MoveRequest",
            &serde_json::to_value(&m).expect("json"),
            &mut used,
        );
    }
    spec.assert_valid(
        "UndoRequest",
        &serde_json::to_value(&undo).expect("json"),
        &mut used,
    );
    // A draw offered, then a game resigned: their requests and states.
    let fg_id = fg.state.id.clone();
    let offer = DrawRequest {
        token: fg.seats["FOX"].clone(),
        version: 0,
        draw: DrawAction::Offer,
    };
    spec.assert_valid(
        "DrawRequest",
        &serde_json::to_value(&offer).expect("json"),
        &mut used,
    );
    let offered = c
        .post(&format!("/games/{fg_id}/draw"), &offer)
        .await
        .expect("POST");
    assert_eq!(offered.status, 200, "{}", offered.text());
    spec.assert_valid("GameState", &offered.json().expect("json"), &mut used);
    let resign = ResignRequest {
        token: fg.seats["FOX"].clone(),
        version: 1,
        resign: true,
    };
    spec.assert_valid(
        "ResignRequest",
        &serde_json::to_value(&resign).expect("json"),
        &mut used,
    );
    let resigned = c
        .post(&format!("/games/{fg_id}/resign"), &resign)
        .await
        .expect("POST");
    assert_eq!(resigned.status, 200, "{}", resigned.text());
    let resigned: Value = resigned.json().expect("json");
    assert_eq!(resigned["end_reason"], "resignation", "{resigned}");
    spec.assert_valid("GameState", &resigned, &mut used);
    let create_req = CreateGame {
        pack: "cats_rabbits".into(),
        options: [("multi_hop".to_string(), OptionJson::Int(1))].into(),
        engine: None,
        clock: Some(TimeControl {
            initial_ms: 60_000,
            increment_ms: 1_000,
        }),
    };
    // A game with clocks: its state.
    let timed = create_timed(&mut c, 60_000, 1_000).await;
    assert_eq!(timed.status, 201, "{}", timed.text());
    let timed: Value = timed.json().expect("json");
    spec.assert_valid("CreatedGame", &timed, &mut used);
    spec.assert_valid("Clocks", &timed["clock"], &mut used);
    spec.assert_valid("TimeControl", &timed["clock"]["control"], &mut used);
    spec.assert_valid(
        "CreateGame",
        &serde_json::to_value(&create_req).expect("json"),
        &mut used,
    );

    // The web board's and the playground's documents.
    let layout = c.get(&format!("/games/{id}/layout")).await.expect("GET");
    spec.assert_valid("Layout", &layout.json().expect("json"), &mut used);
    let jungle_layout = c
        .get(&format!("/games/{}/layout", g2.state.id))
        .await
        .expect("GET");
    spec.assert_valid("Layout", &jungle_layout.json().expect("json"), &mut used);
    let fg_layout = c
        .get(&format!("/games/{}/layout", fg.state.id))
        .await
        .expect("GET");
    spec.assert_valid("Layout", &fg_layout.json().expect("json"), &mut used);
    let history = c.get(&format!("/games/{id}/history")).await.expect("GET");
    assert_eq!(history.status, 200, "{}", history.text());
    spec.assert_valid("History", &history.json().expect("json"), &mut used);
    let page = c
        .get(&format!("/games/{id}/legal?offset=1&limit=3"))
        .await
        .expect("GET");
    spec.assert_valid("LegalPage", &page.json().expect("json"), &mut used);
    let seat = c
        .post(
            &format!("/games/{id}/seat"),
            &SeatRequest {
                token: rabbit.clone(),
            },
        )
        .await
        .expect("POST");
    spec.assert_valid("SeatAnswer", &seat.json().expect("json"), &mut used);
    let text = c.get("/packs/cats_rabbits").await.expect("GET");
    spec.assert_valid("PackText", &text.json().expect("json"), &mut used);
    let pasted = PastedPack {
        text: "extends = \"cats_rabbits.toml\"\n[game]\nname = \"Hares\"\n".into(),
        options: [("multi_hop".to_string(), OptionJson::Bool(true))].into(),
        engine: Some(EngineSeat {
            player: "random".into(),
            seat: Some("CAT".into()),
        }),
        clock: Some(TimeControl {
            initial_ms: 600_000,
            increment_ms: 5_000,
        }),
    };
    spec.assert_valid(
        "PastedPack",
        &serde_json::to_value(&pasted).expect("json"),
        &mut used,
    );
    spec.assert_valid(
        "SeatRequest",
        &serde_json::to_value(SeatRequest { token: "t".into() }).expect("json"),
        &mut used,
    );
    let check = PastedPack {
        engine: None,
        clock: None,
        ..pasted.clone()
    };
    spec.assert_valid(
        "PackToCheck",
        &serde_json::to_value(&check).expect("json"),
        &mut used,
    );
    let ok = c.post("/playground/check", &check).await.expect("POST");
    assert_eq!(ok.status, 200, "{}", ok.text());
    spec.assert_valid("PackCheck", &ok.json().expect("json"), &mut used);
    let broken = PastedPack {
        text: "[game]\nplayers = [\"A\"]\n".into(),
        ..check.clone()
    };
    let bad = c.post("/playground/check", &broken).await.expect("POST");
    spec.assert_valid("PackCheck", &bad.json().expect("json"), &mut used);
    let made = c.post("/playground/games", &pasted).await.expect("POST");
    assert_eq!(made.status, 201, "{}", made.text());
    spec.assert_valid("CreatedGame", &made.json().expect("json"), &mut used);

    // The examples read as the types.
    let paths = spec.doc["paths"].as_object().expect("paths");
    for (path, item) in paths {
        for (method, op) in item.as_object().expect("methods") {
            if let Some(ex) = op.pointer("/requestBody/content/application~1json/example") {
                let ok = match path.as_str() {
                    "/games" => serde_json::from_value::<CreateGame>(ex.clone()).is_ok(),
                    "/games/{id}/moves" => {
                        serde_json::from_value::<MoveRequest>(ex.clone()).is_ok()
                    }
                    "/games/{id}/undo" => serde_json::from_value::<UndoRequest>(ex.clone()).is_ok(),
                    "/games/{id}/resign" => {
                        serde_json::from_value::<ResignRequest>(ex.clone()).is_ok()
                    }
                    "/games/{id}/draw" => serde_json::from_value::<DrawRequest>(ex.clone()).is_ok(),
                    "/games/{id}/seat" => serde_json::from_value::<SeatRequest>(ex.clone()).is_ok(),
                    "/playground/check" | "/playground/games" => {
                        serde_json::from_value::<PastedPack>(ex.clone()).is_ok()
                    }
                    other => panic!("an example for {other} that no type checks"),
                };
                assert!(ok, "the example of {method} {path} does not read: {ex}");
            }
            // Every documented route is served: not the 404 of an unknown route, not 405.
            let real = path.replace("{id}", &id);
            let a = c
                .raw(&method.to_uppercase(), &real, b"{}".to_vec(), &[])
                .await
                .expect("request");
            let body = a.text();
            assert!(
                a.status != 405 && !body.contains("no such route"),
                "{method} {path}: {} {body}",
                a.status
            );
        }
    }

    // Every schema was checked against something real.
    let all: BTreeSet<String> = spec.doc["components"]["schemas"]
        .as_object()
        .expect("schemas")
        .keys()
        .cloned()
        .collect();
    let referenced_only = [
        "Board",
        "EngineSeat",
        "HistoryStep",
        "LayoutCell",
        "LayoutPiece",
        "LayoutPlayer",
        "LayoutZone",
        "PackDiagnostic",
        "MoveText",
        "OptionJson",
        "PackInfo",
        "PackOption",
        "PackRef",
        "UndoOffer",
        "GameStatus",
        "OptionType",
        "UndoAction",
        "DrawAction",
        "EndReason",
    ];
    let unchecked: Vec<&String> = all
        .iter()
        .filter(|n| !used.contains(*n) && !referenced_only.contains(&n.as_str()))
        .collect();
    assert!(
        unchecked.is_empty(),
        "schemas checked against nothing: {unchecked:?}"
    );
}

#[test]
fn the_validator_can_fail() {
    let spec = spec();
    let mut problems = Vec::new();
    let extra = serde_json::json!({"token": "t", "version": 1, "move": "a1-a2", "extra": 1});
    spec.check(spec.schema("MoveRequest"), &extra, "m", &mut problems);
    assert_eq!(problems.len(), 1, "{problems:?}");
    problems.clear();
    let missing = serde_json::json!({"token": "t", "move": 5});
    spec.check(spec.schema("MoveRequest"), &missing, "m", &mut problems);
    assert_eq!(problems.len(), 2, "{problems:?}");
    // A field that no part of a composed (`allOf`) answer names.
    problems.clear();
    let extra = serde_json::json!({"seats": {}, "token": "leaked"});
    spec.check(spec.schema("CreatedGame"), &extra, "c", &mut problems);
    assert!(
        problems.iter().any(|p| p.contains("`token` is in no part")),
        "{problems:?}"
    );
}
