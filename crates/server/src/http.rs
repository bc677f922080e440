//! The HTTP and WebSocket routes, and the listener that bounds the number of connections.

use crate::api::{
    Conflict, CreateGame, CreatedGame, DrawRequest, ErrorBody, GameState, History, Layout,
    LegalPage, LegalQuery, MoveRequest, PackCheck, PackList, PackText, PackToCheck, PastedPack,
    ResignRequest, SeatAnswer, SeatRequest, ServerInfo, ServerMessage, UndoRequest,
};
use crate::games::{Hub, Refusal};
use crate::limits::limited;
use crate::playground::{MAX_PLAYGROUND_BODY, Settings};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::{
    Message, WebSocket, WebSocketUpgrade, rejection::WebSocketUpgradeRejection,
};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::io;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, broadcast};
use tower_http::LatencyUnit;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

/// The seconds a 503 answer asks the client to wait (`Retry-After`).
pub const RETRY_AFTER: &str = "1";

/// What bounds the routes' use of the server.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// The longest request body or WebSocket message, in bytes (but for the playground's).
    pub max_body: usize,
    /// The connections the server may hold: an HTTP connection holds one while it is open, and
    /// a WebSocket takes one of its own for as long as it lives.
    pub connections: Arc<Semaphore>,
    /// The longest a request may take, its body included (408 past it).
    pub request_timeout: Duration,
    /// How long a WebSocket may go without a frame from its client (it is pinged at half that
    /// time, so a live client's pongs keep it open) before it is closed.
    pub ws_idle: Duration,
    /// The hosts the server answers to (see [`crate::guard`]).
    pub hosts: Arc<crate::guard::AllowedHosts>,
    /// The limits on creating games and on the playground.
    pub limits: crate::limits::Limits,
}

#[derive(Clone)]
struct App {
    hub: Arc<Hub>,
    max_body: usize,
    playground: Settings,
    connections: Arc<Semaphore>,
    ws_idle: Duration,
}

/// Answers 408 (with a JSON body) to a request that takes longer than `limit`, its body
/// included. (tower-http's `TimeoutLayer` answers an empty body.)
async fn bounded_request(
    State(limit): State<Duration>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => refusal(Refusal::new(
            408,
            format!(
                "the request took longer than {} s, its body included",
                limit.as_secs_f64()
            ),
        )),
    }
}

/// The routes, over a hub, within `bounds`; the playground's routes take a pack
/// ([`MAX_PLAYGROUND_BODY`]) and are checked with `playground`'s settings.
pub fn router(hub: Arc<Hub>, bounds: Bounds, playground: Settings) -> Router {
    let max_body = bounds.max_body;
    let pasted_max = MAX_PLAYGROUND_BODY.max(max_body);
    let pasted = DefaultBodyLimit::max(pasted_max);
    let limits = bounds.limits;
    let playground_limit = limits.playground;
    let checks = Arc::new(Semaphore::new(limits.playground.at_once.max(1)));
    let games_at_once = limits.games.at_once.max(1);
    Router::new()
        .route("/", get(index))
        .route("/play", get(crate::web::playground))
        .route("/assets/{file}", get(crate::web::asset))
        .route("/packs/{name}", get(pack_text))
        .route("/games/{id}/layout", get(layout))
        .route("/games/{id}/history", get(history))
        .route("/games/{id}/seat", post(seat))
        .route("/games/{id}/record", get(record))
        .route(
            "/playground/check",
            limited(
                post(check).layer(pasted),
                playground_limit,
                checks.clone(),
                pasted_max,
            ),
        )
        .route(
            "/playground/games",
            limited(
                post(create_pasted).layer(pasted),
                playground_limit,
                checks,
                pasted_max,
            ),
        )
        .route("/openapi.json", get(openapi))
        .route("/packs", get(packs))
        .route(
            "/games",
            limited(
                post(create),
                limits.games,
                Arc::new(Semaphore::new(games_at_once)),
                max_body,
            ),
        )
        .route("/games/{id}", get(state))
        .route("/games/{id}/moves", post(play))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/resign", post(resign))
        .route("/games/{id}/draw", post(draw))
        .route("/games/{id}/ws", get(ws))
        .route("/games/{id}/legal", get(legal))
        .fallback(|| async { refusal(Refusal::new(404, "no such route (GET /openapi.json)")) })
        .method_not_allowed_fallback(|| async {
            refusal(Refusal::new(405, "this route does not take that method"))
        })
        .layer(DefaultBodyLimit::max(max_body))
        .layer(axum::middleware::from_fn_with_state(
            bounds.request_timeout,
            bounded_request,
        ))
        .layer(axum::middleware::from_fn_with_state(
            bounds.hosts,
            crate::guard::guard,
        ))
        .layer(axum::middleware::from_fn(crate::guard::json_errors))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        // One line a request, at `info`: its method and path (the span), status and latency.
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
                .on_request(())
                .on_response(
                    DefaultOnResponse::new()
                        .level(Level::INFO)
                        .latency_unit(LatencyUnit::Millis),
                )
                .on_failure(()),
        )
        .with_state(App {
            hub,
            max_body,
            playground,
            connections: bounds.connections,
            ws_idle: bounds.ws_idle,
        })
}

fn json_response(status: u16, body: &impl Serialize) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    match serde_json::to_vec(body) {
        Ok(bytes) => {
            let mut response = (
                code,
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                )],
                bytes,
            )
                .into_response();
            // 503: the store is away or busy for now; say when to try again.
            if code == StatusCode::SERVICE_UNAVAILABLE {
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static(RETRY_AFTER));
            }
            response
        }
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// A refusal's answer: its status and JSON body.
pub(crate) fn refusal(r: Refusal) -> Response {
    json_response(r.status, &r.body)
}

fn answer<T: Serialize>(status: u16, result: Result<T, Refusal>) -> Response {
    match result {
        Ok(v) => json_response(status, &v),
        Err(r) => refusal(r),
    }
}

/// Reads a JSON request body: 415 for one not sent as JSON, a clear 400 for what is not the
/// document, 413 for one too long.
fn body<T: DeserializeOwned>(
    headers: &HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Result<T, Refusal> {
    crate::guard::json_body(headers)?;
    let bytes = raw.map_err(|e| {
        let status = e.status().as_u16();
        if status == 413 {
            Refusal::new(413, "the request body is too long")
        } else {
            Refusal::new(status, format!("the request body cannot be read: {e}"))
        }
    })?;
    parse(&bytes)
}

fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Refusal> {
    serde_json::from_slice(bytes)
        .map_err(|e| Refusal::new(400, format!("the request is not the expected JSON: {e}")))
}

/// `GET /`: the board for a browser (one that accepts `text/html`), else the server's
/// description in JSON.
#[utoipa::path(get, path = "/", tag = "server",
    summary = "The board for a browser; else what the server is.",
    responses((status = 200, description = "A browser's `Accept: text/html` gets the board page; any other client this JSON.",
        content((ServerInfo = "application/json"), (String = "text/html")))))]
async fn index(State(app): State<App>, headers: HeaderMap) -> Response {
    let html = headers
        .get(header::ACCEPT)
        .and_then(|a| a.to_str().ok())
        .is_some_and(|a| a.contains("text/html"));
    if html {
        return crate::web::board().await;
    }
    json_response(
        200,
        &ServerInfo {
            name: "ply serve".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            api: "/openapi.json".into(),
            games_in_memory: app.hub.games_in_memory(),
            packs_in_memory: app.hub.packs_in_memory(),
        },
    )
}

#[utoipa::path(get, path = "/openapi.json", tag = "server",
    summary = "This description of the API (OpenAPI 3.1), generated from the server's types.",
    responses((status = 200, description = "The description.", content_type = "application/json", body = Object)))]
async fn openapi() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        openapi_json(),
    )
        .into_response()
}

#[utoipa::path(get, path = "/packs", tag = "packs",
    summary = "The packs offered, with their options.",
    responses((status = 200, description = "The packs.", body = PackList),
        (status = 500, description = "The packs folder cannot be read.", body = ErrorBody)))]
async fn packs(State(app): State<App>) -> Response {
    let hub = app.hub.clone();
    let listed = tokio::task::spawn_blocking(move || hub.packs())
        .await
        .unwrap_or_else(|_| Err(Refusal::new(500, "listing the packs failed")));
    answer(200, listed)
}

#[utoipa::path(post, path = "/games", tag = "games",
    summary = "Creates a game; answers its state and each seat's secret token.",
    request_body(content = CreateGame, example = json!({"pack": "cats_rabbits", "options": {"multi_hop": true}})),
    responses((status = 201, description = "Created.", body = CreatedGame),
        (status = 404, description = "No pack of that name.", body = ErrorBody),
        (status = 422, description = "The pack, its options or the engine asked for cannot be played.", body = ErrorBody),
        (status = 429, description = "This client creates games too fast (`Retry-After` says when to try again).", body = ErrorBody)))]
async fn create(
    State(app): State<App>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let req: CreateGame = match body(&headers, raw) {
        Ok(r) => r,
        Err(r) => return refusal(r),
    };
    answer(201, app.hub.create(req).await)
}

#[utoipa::path(get, path = "/packs/{name}", tag = "packs",
    summary = "A pack's file as it is in the server's folder.",
    params(("name" = String, Path, pattern = "^[A-Za-z0-9_-]{1,64}$", description = "The pack's name, as `GET /packs` lists it.")),
    responses((status = 200, description = "The pack's text.", body = PackText),
        (status = 404, description = "No pack of that name.", body = ErrorBody)))]
async fn pack_text(State(app): State<App>, Path(name): Path<String>) -> Response {
    let hub = app.hub.clone();
    let found = tokio::task::spawn_blocking(move || hub.pack_text(&name))
        .await
        .unwrap_or_else(|_| Err(Refusal::new(500, "reading the pack failed")));
    answer(200, found)
}

#[utoipa::path(get, path = "/games/{id}/layout", tag = "games",
    summary = "What a board needs to draw the game: cells, zones, pieces, colours and glyphs.",
    params(("id" = String, Path, description = "The game's id (16 hex digits as this server makes them).")),
    responses((status = 200, description = "The layout.", body = Layout),
        (status = 404, description = "No game of that id.", body = ErrorBody),
        (status = 410, description = "The game expired: it went without a move for the server's `--expire-games` and was removed.", body = ErrorBody)))]
async fn layout(State(app): State<App>, Path(id): Path<String>) -> Response {
    answer(200, app.hub.layout(&id).await)
}

#[utoipa::path(get, path = "/games/{id}/history", tag = "games",
    summary = "The board after every move so far, the start first, for stepping through the game.",
    params(("id" = String, Path, description = "The game's id (16 hex digits as this server makes them).")),
    responses((status = 200, description = "The history.", body = History),
        (status = 404, description = "No game of that id.", body = ErrorBody),
        (status = 410, description = "The game expired: it went without a move for the server's `--expire-games` and was removed.", body = ErrorBody)))]
async fn history(State(app): State<App>, Path(id): Path<String>) -> Response {
    answer(200, app.hub.history(&id).await)
}

#[utoipa::path(post, path = "/games/{id}/seat", tag = "games",
    summary = "Which seat a token holds (the token in the body, never in a URL).",
    params(("id" = String, Path, description = "The game's id (16 hex digits as this server makes them).")),
    request_body(content = SeatRequest, example = json!({"token": "00112233445566778899aabbccddeeff"})),
    responses((status = 200, description = "The seat.", body = SeatAnswer),
        (status = 403, description = "The token holds no seat of this game.", body = ErrorBody),
        (status = 404, description = "No game of that id.", body = ErrorBody),
        (status = 410, description = "The game expired.", body = ErrorBody)))]
async fn seat(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let req: crate::api::SeatRequest = match body(&headers, raw) {
        Ok(r) => r,
        Err(r) => return refusal(r),
    };
    answer(200, app.hub.seat(&id, &req.token).await)
}

#[utoipa::path(get, path = "/games/{id}/record", tag = "games",
    summary = "The game as `ply play --record` writes it, to download.",
    params(("id" = String, Path, description = "The game's id (16 hex digits as this server makes them).")),
    responses((status = 200, description = "The record.", content_type = "text/plain", body = String),
        (status = 404, description = "No game of that id.", body = ErrorBody),
        (status = 410, description = "The game expired.", body = ErrorBody)))]
async fn record(State(app): State<App>, Path(id): Path<String>) -> Response {
    match app.hub.record(&id).await {
        Ok(text) => (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/plain; charset=utf-8"),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    HeaderValue::from_str(&format!("attachment; filename=\"ply-{id}.txt\""))
                        .unwrap_or(HeaderValue::from_static("attachment")),
                ),
            ],
            text,
        )
            .into_response(),
        Err(r) => refusal(r),
    }
}

#[utoipa::path(post, path = "/playground/check", tag = "playground",
    summary = "What `ply validate` and `ply show` say of a pasted pack.",
    request_body(content = PackToCheck, example = json!({"text": "extends = \"cats_rabbits.toml\"\n[game]\nname = \"Hares\"\n"})),
    responses((status = 200, description = "The check: `ok` says whether a game may be started from the pack.", body = PackCheck),
        (status = 422, description = "The pack could not be checked within the playground's time or memory.", body = ErrorBody),
        (status = 429, description = "This client checks packs too fast (`Retry-After` says when to try again).", body = ErrorBody),
        (status = 500, description = "The checker could not be run.", body = ErrorBody)))]
async fn check(
    State(app): State<App>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let req: PastedPack = match body(&headers, raw) {
        Ok(r) => r,
        Err(r) => return refusal(r),
    };
    for (given, key) in [
        (req.engine.is_some(), "engine"),
        (req.clock.is_some(), "clock"),
    ] {
        if given {
            return refusal(Refusal::new(
                400,
                format!("a check starts no game: `{key}` belongs to POST /playground/games"),
            ));
        }
    }
    let folder = app.hub.packs_dir().to_path_buf();
    answer(
        200,
        crate::playground::check(folder, req, app.playground).await,
    )
}

#[utoipa::path(post, path = "/playground/games", tag = "playground",
    summary = "Creates a game of a pasted pack.",
    request_body(content = PastedPack, example = json!({"text": "extends = \"cats_rabbits.toml\"\n[game]\nname = \"Hares\"\n", "engine": {"player": "random"}})),
    responses((status = 201, description = "Created.", body = CreatedGame),
        (status = 422, description = "The pack cannot be played, or not within the playground's time or memory.", body = ErrorBody),
        (status = 429, description = "This client creates games too fast (`Retry-After` says when to try again).", body = ErrorBody),
        (status = 500, description = "The checker could not be run.", body = ErrorBody)))]
async fn create_pasted(
    State(app): State<App>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let req: PastedPack = match body(&headers, raw) {
        Ok(r) => r,
        Err(r) => return refusal(r),
    };
    answer(201, app.hub.create_pasted(req, app.playground).await)
}

#[utoipa::path(get, path = "/games/{id}", tag = "games",
    summary = "The game's state (never a token).",
    params(("id" = String, Path, description = "The game's id (16 hex digits as this server makes them).")),
    responses((status = 200, description = "The state.", body = GameState),
        (status = 404, description = "No game of that id.", body = ErrorBody),
        (status = 410, description = "The game expired: it went without a move for the server's `--expire-games` and was removed.", body = ErrorBody),
        (status = 500, description = "The game's stored pack or options are damaged.", body = ErrorBody)))]
async fn state(State(app): State<App>, Path(id): Path<String>) -> Response {
    answer(200, app.hub.state(&id).await)
}

#[utoipa::path(get, path = "/games/{id}/legal", tag = "games",
    summary = "A page of the legal moves of the side to move.",
    params(("id" = String, Path, description = "The game's id (16 hex digits as this server makes them)."), LegalQuery),
    responses((status = 200, description = "The page.", body = LegalPage),
        (status = 404, description = "No game of that id.", body = ErrorBody),
        (status = 410, description = "The game expired.", body = ErrorBody)))]
async fn legal(
    State(app): State<App>,
    Path(id): Path<String>,
    query: Result<
        axum::extract::Query<crate::api::LegalQuery>,
        axum::extract::rejection::QueryRejection,
    >,
) -> Response {
    match query {
        Ok(axum::extract::Query(q)) => answer(200, app.hub.legal(&id, &q).await),
        Err(e) => refusal(Refusal::new(
            400,
            format!("the query is `offset` and `limit`, numbers: {e}"),
        )),
    }
}

/// The `Idempotency-Key` header, as an alternative to the body's field.
fn with_header_key(mut req: MoveRequest, headers: &HeaderMap) -> Result<MoveRequest, Refusal> {
    if let Some(h) = headers.get("idempotency-key") {
        let h = h
            .to_str()
            .map_err(|_| Refusal::new(400, "the Idempotency-Key header is not text"))?;
        match &req.idempotency_key {
            Some(k) if k != h => {
                return Err(Refusal::new(
                    422,
                    "the Idempotency-Key header and the body's idempotency_key differ",
                ));
            }
            _ => req.idempotency_key = Some(h.to_string()),
        }
    }
    Ok(req)
}

#[utoipa::path(post, path = "/games/{id}/moves", tag = "games",
    summary = "A move by the seat whose token is given, made on the version given.",
    params(("id" = String, Path, description = "The game's id (16 hex digits as this server makes them)."),
        ("Idempotency-Key" = Option<String>, Header, pattern = "^[\\x20-\\x7e]{1,128}$", description = "The same as the body's `idempotency_key` (when both are given and differ: 422).")),
    request_body(content = MoveRequest, example = json!({"token": "00112233445566778899aabbccddeeff", "version": 0, "move": "b1-b2"})),
    responses((status = 200, description = "The move was made (or, with an idempotency key used already for the same move, had been): the new state.", body = GameState),
        (status = 403, description = "The token holds no seat of this game.", body = ErrorBody),
        (status = 404, description = "No game of that id.", body = ErrorBody),
        (status = 409, description = "The game is not at that version: the current state to retry from.", body = Conflict),
        (status = 410, description = "The game expired.", body = ErrorBody),
        (status = 422, description = "The move is not legal, or not the seat's turn (`rule` names the rule that refused it, when one did); or the `Idempotency-Key` header and the body's key differ.", body = ErrorBody)))]
async fn play(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let req = match body(&headers, raw).and_then(|r| with_header_key(r, &headers)) {
        Ok(r) => r,
        Err(r) => return refusal(r),
    };
    answer(200, app.hub.play(&id, &req).await)
}

#[utoipa::path(post, path = "/games/{id}/undo", tag = "games",
    summary = "Taking back the last move, by agreement: ask, accept or decline.",
    params(("id" = String, Path, description = "The game's id (16 hex digits as this server makes them).")),
    request_body(content = UndoRequest, example = json!({"token": "00112233445566778899aabbccddeeff", "version": 1, "undo": "ask"})),
    responses((status = 200, description = "Done: the new state.", body = GameState),
        (status = 403, description = "The token holds no seat of this game.", body = ErrorBody),
        (status = 404, description = "No game of that id.", body = ErrorBody),
        (status = 409, description = "The game is not at that version.", body = Conflict),
        (status = 410, description = "The game expired.", body = ErrorBody),
        (status = 422, description = "Nothing to ask, accept or decline now.", body = ErrorBody)))]
async fn undo(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let req: UndoRequest = match body(&headers, raw) {
        Ok(r) => r,
        Err(r) => return refusal(r),
    };
    answer(200, app.hub.undo(&id, &req).await)
}

#[utoipa::path(post, path = "/games/{id}/resign", tag = "games",
    summary = "The seat resigns: the other player wins (`end_reason`: `resignation`).",
    params(("id" = String, Path, description = "The game's id (16 hex digits as this server makes them).")),
    request_body(content = ResignRequest, example = json!({"token": "00112233445566778899aabbccddeeff", "version": 1, "resign": true})),
    responses((status = 200, description = "Done: the new state, over.", body = GameState),
        (status = 403, description = "The token holds no seat of this game.", body = ErrorBody),
        (status = 404, description = "No game of that id.", body = ErrorBody),
        (status = 409, description = "The game is not at that version.", body = Conflict),
        (status = 410, description = "The game expired.", body = ErrorBody),
        (status = 422, description = "The game is over already, or `resign` is not true.", body = ErrorBody)))]
async fn resign(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let req: ResignRequest = match body(&headers, raw) {
        Ok(r) => r,
        Err(r) => return refusal(r),
    };
    answer(200, app.hub.resign(&id, &req).await)
}

#[utoipa::path(post, path = "/games/{id}/draw", tag = "games",
    summary = "A draw by agreement: offer, accept or decline (an offer to a player who offers one already accepts it; a move of the player offered declines it).",
    params(("id" = String, Path, description = "The game's id (16 hex digits as this server makes them).")),
    request_body(content = DrawRequest, example = json!({"token": "00112233445566778899aabbccddeeff", "version": 1, "draw": "offer"})),
    responses((status = 200, description = "Done: the new state (drawn, `end_reason`: `agreement`, once accepted).", body = GameState),
        (status = 403, description = "The token holds no seat of this game, or the seat accepts its own offer.", body = ErrorBody),
        (status = 404, description = "No game of that id.", body = ErrorBody),
        (status = 409, description = "The game is not at that version.", body = Conflict),
        (status = 410, description = "The game expired.", body = ErrorBody),
        (status = 422, description = "Nothing to offer, accept or decline now (the game is over, or no offer stands).", body = ErrorBody)))]
async fn draw(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let req: DrawRequest = match body(&headers, raw) {
        Ok(r) => r,
        Err(r) => return refusal(r),
    };
    answer(200, app.hub.draw(&id, &req).await)
}

/// The permit an HTTP connection holds (see [`serve_connections`]), for the WebSocket it may
/// become to take over.
#[derive(Clone)]
struct ConnectionPermit(Arc<std::sync::Mutex<Option<OwnedSemaphorePermit>>>);

impl ConnectionPermit {
    fn take(&self) -> Option<OwnedSemaphorePermit> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

#[utoipa::path(get, path = "/games/{id}/ws", tag = "games",
    summary = "A WebSocket on the game: the server sends `ServerMessage`s (the state on connecting and after every change); the client may send `MoveRequest`s, `UndoRequest`s, `ResignRequest`s and `DrawRequest`s as text, each answered with an `answer` message.",
    params(("id" = String, Path, description = "The game's id (16 hex digits as this server makes them).")),
    responses((status = 101, description = "Switched to the WebSocket protocol."),
        (status = 400, description = "Not a WebSocket handshake.", body = ErrorBody),
        (status = 404, description = "No game of that id.", body = ErrorBody),
        (status = 410, description = "The game expired.", body = ErrorBody),
        (status = 426, description = "The connection cannot be upgraded.", body = ErrorBody)))]
async fn ws(
    State(app): State<App>,
    Path(id): Path<String>,
    held: Option<axum::Extension<ConnectionPermit>>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(e) => {
            return refusal(Refusal::new(
                e.status().as_u16(),
                format!("this route is a WebSocket: {e}"),
            ));
        }
    };
    // A WebSocket outlives its HTTP connection's task: it takes the connection's permit over
    // (or, on a connection that has none, one of its own).
    let taken = held.and_then(|axum::Extension(p)| p.take());
    let Some(permit) = taken.or_else(|| app.connections.clone().try_acquire_owned().ok()) else {
        return refusal(Refusal::new(
            503,
            "the server holds as many connections as it may; try again",
        ));
    };
    let (first, pushes) = match app.hub.watch(&id).await {
        Ok(w) => w,
        Err(r) => return refusal(r),
    };
    upgrade
        .max_message_size(app.max_body)
        .max_frame_size(app.max_body)
        .read_buffer_size(WS_READ_BUFFER)
        .on_upgrade(move |socket| async move {
            session(app, id, socket, first, pushes).await;
            drop(permit);
        })
}

/// What a WebSocket reads into at a time (tungstenite's default is 128 KiB, allocated for
/// every socket: 50 MB for 400 sockets). A client sends moves of a few hundred bytes; a longer
/// message (up to `--max-body`) still reads whole, in more than one read.
pub const WS_READ_BUFFER: usize = 4096;

/// Sends a message within `limit` (a client that reads nothing cannot hold the session);
/// whether it was sent.
async fn send_within(socket: &mut WebSocket, msg: Message, limit: Duration) -> bool {
    matches!(
        tokio::time::timeout(limit, socket.send(msg)).await,
        Ok(Ok(()))
    )
}

/// Closes a WebSocket with a close code and a reason, within `limit`.
async fn close(socket: &mut WebSocket, code: u16, reason: &str, limit: Duration) {
    let frame = axum::extract::ws::CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = send_within(socket, Message::Close(Some(frame)), limit).await;
}

fn message(msg: &ServerMessage) -> Message {
    Message::Text(serde_json::to_string(msg).unwrap_or_default().into())
}

/// Answers one message a client sent on a game's WebSocket, as the HTTP route would.
async fn ws_request(hub: &Hub, id: &str, text: &str) -> (u16, serde_json::Value) {
    let result = match serde_json::from_str::<serde_json::Value>(text) {
        Err(e) => Err(Refusal::new(400, format!("the message is not JSON: {e}"))),
        Ok(v) if v.get("undo").is_some() => match serde_json::from_value::<UndoRequest>(v) {
            Ok(req) => hub.undo(id, &req).await,
            Err(e) => Err(Refusal::new(400, format!("not an undo request: {e}"))),
        },
        Ok(v) if v.get("resign").is_some() => match serde_json::from_value::<ResignRequest>(v) {
            Ok(req) => hub.resign(id, &req).await,
            Err(e) => Err(Refusal::new(400, format!("not a resign request: {e}"))),
        },
        Ok(v) if v.get("draw").is_some() => match serde_json::from_value::<DrawRequest>(v) {
            Ok(req) => hub.draw(id, &req).await,
            Err(e) => Err(Refusal::new(400, format!("not a draw request: {e}"))),
        },
        Ok(v) => match serde_json::from_value::<MoveRequest>(v) {
            Ok(req) => hub.play(id, &req).await,
            Err(e) => Err(Refusal::new(400, format!("not a move request: {e}"))),
        },
    };
    match result {
        Ok(state) => (200, serde_json::to_value(state).unwrap_or_default()),
        Err(r) => (r.status, r.body),
    }
}

async fn session(
    app: App,
    id: String,
    mut socket: WebSocket,
    first: crate::api::GameState,
    mut pushes: broadcast::Receiver<crate::games::Push>,
) {
    let idle = app.ws_idle;
    let mut shown = first.version;
    let hello = message(&ServerMessage::State {
        state: Box::new(first),
    });
    if !send_within(&mut socket, hello, idle).await {
        return;
    }
    let mut ping = tokio::time::interval((idle / 2).max(Duration::from_millis(100)));
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ping.tick().await;
    let mut heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            _ = ping.tick() => {
                if heard.elapsed() >= idle {
                    let why = format!("no frame from the client in {} s", idle.as_secs_f64());
                    close(&mut socket, CLOSE_IDLE, &why, idle).await;
                    break;
                }
                if !send_within(&mut socket, Message::Ping(Bytes::new()), idle).await {
                    break;
                }
            }
            incoming = socket.recv() => {
                heard = tokio::time::Instant::now();
                let reply = match incoming {
                    None | Some(Ok(Message::Close(_))) => break,
                    Some(Err(e)) => {
                        let why = format!("not a WebSocket frame this server takes: {e}");
                        close(&mut socket, CLOSE_PROTOCOL, &why, idle).await;
                        break;
                    }
                    Some(Ok(Message::Text(t))) => {
                        let (status, body) = ws_request(&app.hub, &id, t.as_str()).await;
                        ServerMessage::Answer { status, body }
                    }
                    Some(Ok(Message::Binary(_))) => {
                        let r = Refusal::new(400, "send requests as text messages of JSON");
                        ServerMessage::Answer { status: r.status, body: r.body }
                    }
                    Some(Ok(_)) => continue,
                };
                if !send_within(&mut socket, message(&reply), idle).await {
                    break;
                }
            }
            push = pushes.recv() => {
                let text = match push {
                    Ok(p) if p.version > shown => {
                        shown = p.version;
                        p.text
                    }
                    Ok(_) => continue,
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        // Fell behind: send the current state instead of the ones missed.
                        match app.hub.state(&id).await {
                            Ok(s) => {
                                shown = s.version;
                                serde_json::to_string(&ServerMessage::State { state: Box::new(s) })
                                    .unwrap_or_default()
                                    .into()
                            }
                            Err(_) => break,
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if !send_within(&mut socket, Message::Text(text.as_ref().into()), idle).await {
                    break;
                }
            }
        }
    }
}

/// The close code of a WebSocket whose client sent nothing (not even a pong) for too long:
/// 1001, going away.
pub const CLOSE_IDLE: u16 = 1001;
/// The close code of a WebSocket whose client broke the protocol (a frame too long, a
/// malformed frame): 1002.
pub const CLOSE_PROTOCOL: u16 = 1002;

/// Serves `router` on `tcp`, holding a connection only with one of `permits` (shared with the
/// WebSockets, see [`Bounds`]): past that, a new connection is closed at once, so a flood of
/// connections cannot take the server's memory or file descriptors. A connection that has not
/// sent a request's whole head within `idle_timeout` (a new one, or a kept-alive one between
/// requests) is closed too; a WebSocket, once open, is closed after `idle_timeout` without a
/// frame from its client instead.
pub async fn serve_connections(
    tcp: TcpListener,
    router: Router,
    permits: Arc<Semaphore>,
    idle_timeout: Duration,
) -> io::Result<()> {
    loop {
        let (stream, peer) = match tcp.accept().await {
            Ok(accepted) => accepted,
            // Out of file descriptors, or a connection reset before it was accepted: wait a
            // little and go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        // The permit goes with each request, so that a WebSocket can take it over.
        let held = ConnectionPermit(Arc::new(std::sync::Mutex::new(Some(permit))));
        let service = TowerToHyperService::new(
            tower::ServiceBuilder::new()
                .map_request({
                    let held = held.clone();
                    move |mut req: hyper::Request<hyper::body::Incoming>| {
                        req.extensions_mut().insert(held.clone());
                        // The client's address, for the per-client rate limits.
                        req.extensions_mut()
                            .insert(axum::extract::ConnectInfo(peer));
                        req
                    }
                })
                .service(router.clone()),
        );
        tokio::spawn(async move {
            let _ = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(idle_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades()
                .await;
            drop(held);
        });
    }
}

/// The API's description, generated from the routes' annotations and the types of
/// [`crate::api`]: what `GET /openapi.json` answers (and `openapi.json` holds, checked by a
/// test).
#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "ply serve",
        description = "Games of any Ply rule pack for remote players. The server judges every \
            move; a move names the version of the game it was made on and is refused (409) when \
            the game has changed since. Every error is answered with a JSON `ErrorBody` that says \
            why."
    ),
    paths(
        index, openapi, packs, pack_text, create, state, legal, play, undo, resign, draw, ws, layout,
        history, seat,
        record, check, create_pasted, crate::web::playground, crate::web::asset
    ),
    components(schemas(ServerMessage)),
    modifiers(&Refusals)
)]
pub struct ApiDoc;

/// Adds to every operation the refusals any route may answer, before or around its own work:
/// the host check, the request timeout, the store away, and for a request that changes
/// something (or opens a WebSocket) the cross-site check, the body's type and length.
struct Refusals;

impl utoipa::Modify for Refusals {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{ContentBuilder, HttpMethod, Ref, ResponseBuilder};
        let error = |why: &str| {
            ResponseBuilder::new()
                .description(why)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("ErrorBody")))
                        .build(),
                )
                .build()
        };
        let every: &[(&str, &str)] = &[
            (
                "400",
                "Not the request expected (its body, query or headers), said in `error`.",
            ),
            (
                "408",
                "The request, its body included, took longer than the server's request timeout.",
            ),
            (
                "421",
                "The request names a host this server does not answer to (`ply serve --allowed-host`).",
            ),
            (
                "503",
                "The game store is not available, or the server does as many of these requests as it may at once; `Retry-After` says when to try again.",
            ),
        ];
        let changes: &[(&str, &str)] = &[
            (
                "403",
                "A request from another site's page may not change games or watch them.",
            ),
            ("413", "The request body is too long."),
            (
                "415",
                "A request body is JSON, sent as `Content-Type: application/json`.",
            ),
        ];
        for (path, item) in doc.paths.paths.iter_mut() {
            let ops = [
                (HttpMethod::Get, item.get.as_mut()),
                (HttpMethod::Post, item.post.as_mut()),
            ];
            for (method, op) in ops {
                let Some(op) = op else { continue };
                let websocket = path.ends_with("/ws");
                let mut add = every.to_vec();
                if method == HttpMethod::Post || websocket {
                    add.extend_from_slice(changes);
                }
                for (status, why) in add {
                    op.responses
                        .responses
                        .entry(status.to_string())
                        .or_insert_with(|| error(why).into());
                }
            }
        }
    }
}

/// The API's description as JSON text (generated once).
pub fn openapi_json() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        use utoipa::OpenApi;
        let text = ApiDoc::openapi()
            .to_pretty_json()
            .unwrap_or_else(|e| format!("{{\"error\": \"the description failed: {e}\"}}"));
        let mut text = plain_links(&text);
        text.push('\n');
        text
    })
}

/// The descriptions utoipa takes from doc comments, without rustdoc's links: a link to a
/// constant is its value (`[`MAX_INLINE_LEGAL`]` is `500`), a link to a type or a field is
/// its name in code (`[`Board::cells`]` is `` `Board.cells` ``, as the API names it), a
/// link with text (`[text](target)`) is its text. Rustdoc links are written only as these;
/// their text holds no `"` or `\`, so the JSON text stays valid.
pub fn plain_links(text: &str) -> String {
    let values: [(&str, String); 3] = [
        (
            "MAX_ENGINE_TIME",
            humantime::format_duration(crate::bots::MAX_ENGINE_TIME).to_string(),
        ),
        ("MAX_INLINE_LEGAL", crate::api::MAX_INLINE_LEGAL.to_string()),
        (
            "MAX_SAFE_INTEGER",
            format!("{} (2^53 - 1)", crate::api::MAX_SAFE_INTEGER),
        ),
    ];
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        // `[`path`]`: a link to an item by its path.
        if let Some(inner) = after.strip_prefix('`')
            && let Some(end) = inner.find("`]")
            && is_path(&inner[..end])
        {
            let path = &inner[..end];
            let mut parts: Vec<&str> = path.split("::").collect();
            // Drop the modules (lower-case segments before a type), keep `Type::field`.
            while parts.len() > 1 && parts[0].starts_with(|c: char| c.is_ascii_lowercase()) {
                parts.remove(0);
            }
            let name = parts.join(".");
            match values.iter().find(|(n, _)| *n == name) {
                Some((_, v)) => out.push_str(v),
                None => {
                    out.push('`');
                    out.push_str(&name);
                    out.push('`');
                }
            }
            rest = &inner[end + 2..];
            continue;
        }
        // `[text](target)`: its text.
        if let Some(close) = after.find(']')
            && let Some(target) = after[close + 1..].strip_prefix('(')
            && let Some(end) = target.find(')')
            && is_path(&target[..end])
        {
            out.push_str(&after[..close]);
            rest = &target[end + 1..];
            continue;
        }
        out.push('[');
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Whether `s` is a Rust path (`crate::api::Board`, `MAX_INLINE_LEGAL`, `Board::cells`).
fn is_path(s: &str) -> bool {
    !s.is_empty()
        && s.split("::").all(|seg| {
            seg.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && seg.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}
