//! The web board (`GET /`) and the playground (`GET /play`): plain HTML, CSS and JavaScript,
//! embedded in the binary at build time, with no build step, framework or CDN. The pages
//! draw any pack from what the API says about it (`GET /games/{id}/layout`) and ask the
//! server for everything about the rules: legal moves, refusals, the end.

use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

/// The files of the pages, by the name they are served under (`/assets/NAME`), with their
/// content types.
pub const ASSETS: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../web/style.css"),
    ),
    (
        "common.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/common.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/board.js"),
    ),
    (
        "play.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/play.js"),
    ),
];

/// The board's page.
pub const BOARD_HTML: &str = include_str!("../web/index.html");
/// The playground's page.
pub const PLAYGROUND_HTML: &str = include_str!("../web/play.html");

fn page(html: &'static str) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            // The pages load nothing from elsewhere, and nothing may frame them.
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(
                    "default-src 'self'; style-src 'self'; img-src 'self' data:; \
                     frame-ancestors 'none'",
                ),
            ),
            (
                header::REFERRER_POLICY,
                HeaderValue::from_static("no-referrer"),
            ),
        ],
        html,
    )
        .into_response()
}

/// `GET /` for a browser.
pub async fn board() -> Response {
    page(BOARD_HTML)
}

/// `GET /play`.
#[utoipa::path(get, path = "/play", tag = "web",
    summary = "The playground: a page to write a pack and play it.",
    responses((status = 200, description = "The page.", content_type = "text/html", body = String)))]
pub async fn playground() -> Response {
    page(PLAYGROUND_HTML)
}

/// `GET /assets/{file}`.
#[utoipa::path(get, path = "/assets/{file}", tag = "web",
    summary = "A file of the board's and the playground's pages.",
    params(("file" = String, Path, description = "The file's name (`board.js`...).")),
    responses((status = 200, description = "The file.", content(
            (String = "text/javascript"), (String = "text/css"))),
        (status = 404, description = "No such file.", body = crate::api::ErrorBody)))]
pub async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, ty, body)) => (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(ty)),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            *body,
        )
            .into_response(),
        None => crate::http::refusal(crate::games::Refusal::new(
            404,
            format!("there is no asset `{}`", file.escape_debug()),
        )),
    }
}
