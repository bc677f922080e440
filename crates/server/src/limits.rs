//! The limits on the routes that cost the most: creating games (`POST /games`) and the
//! playground (`POST /playground/check`, `POST /playground/games`). Each has a per-client rate
//! limit (`tower_governor`, keyed by the client's IP address: past it, 429 with `Retry-After`)
//! and a limit on how many run at once, all clients together (tower's concurrency limit with
//! load shedding: past it, 503 with `Retry-After`, at once rather than queued).

use crate::games::Refusal;
use axum::BoxError;
use axum::body::Body;
use axum::error_handling::HandleErrorLayer;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Response, header};
use axum::middleware::Next;
use axum::response::IntoResponse;
use axum::routing::MethodRouter;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use tower::ServiceBuilder;
use tower::limit::GlobalConcurrencyLimitLayer;
use tower::load_shed::LoadShedLayer;
use tower_governor::GovernorError;
use tower_governor::GovernorLayer;
use tower_governor::governor::GovernorConfigBuilder;

/// A per-client rate and a limit at once, for one kind of costly request.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limit {
    /// How many requests a client (an IP address) may make a minute, in a burst or spread
    /// out; 0: no rate limit.
    pub per_minute: u32,
    /// How many may run at once, all clients together (at least 1).
    pub at_once: usize,
}

/// The limits of the costly routes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `POST /games`.
    pub games: Limit,
    /// `POST /playground/check` and `POST /playground/games`, together.
    pub playground: Limit,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            games: Limit {
                per_minute: 120,
                at_once: 32,
            },
            playground: Limit {
                per_minute: 30,
                at_once: 4,
            },
        }
    }
}

fn too_many(error: GovernorError) -> Response<Body> {
    let (status, why, wait) = match error {
        GovernorError::TooManyRequests { wait_time, .. } => (
            429,
            "this client has made too many of these requests; wait before the next".to_string(),
            wait_time.max(1),
        ),
        GovernorError::UnableToExtractKey => (
            500,
            "the client's address is not known, so its rate cannot be limited".to_string(),
            1,
        ),
        GovernorError::Other { msg, .. } => (
            500,
            msg.unwrap_or_else(|| "the rate limit failed".into()),
            1,
        ),
    };
    let mut response = crate::http::refusal(Refusal::new(status, why));
    if let Ok(v) = HeaderValue::from_str(&wait.to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, v);
    }
    response
}

async fn busy(_: BoxError) -> axum::response::Response {
    crate::http::refusal(Refusal::new(
        503,
        "the server is doing as many of these requests as it may at once; try again",
    ))
    .into_response()
}

/// Reads the whole body (at most `max` bytes, else 413) before the request takes one of the
/// slots: a slow body holds a connection, never a slot.
async fn buffered(State(max): State<usize>, request: Request, next: Next) -> Response<Body> {
    let (parts, body) = request.into_parts();
    match axum::body::to_bytes(body, max).await {
        Ok(bytes) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Err(_) => crate::http::refusal(Refusal::new(413, "the request body is too long")),
    }
}

/// `route` within `limit`: the rate per client, then its body read whole (at most `max_body`
/// bytes), then the number at once (shared by every route given the same `slots`): past it,
/// 503 at once.
pub fn limited<S: Clone + Send + Sync + 'static>(
    route: MethodRouter<S>,
    limit: Limit,
    slots: Arc<Semaphore>,
    max_body: usize,
) -> MethodRouter<S> {
    let route = route
        .layer(
            ServiceBuilder::new()
                .layer(HandleErrorLayer::new(busy))
                .layer(LoadShedLayer::new())
                .layer(GlobalConcurrencyLimitLayer::with_semaphore(slots)),
        )
        .layer(axum::middleware::from_fn_with_state(max_body, buffered));
    if limit.per_minute == 0 {
        return route;
    }
    let every = Duration::from_secs(60) / limit.per_minute;
    let config = GovernorConfigBuilder::default()
        .period(every.max(Duration::from_millis(1)))
        .burst_size(limit.per_minute)
        .finish();
    match config {
        Some(config) => {
            let config = Arc::new(config);
            // Forget the clients that have not come for a while, so that the table of clients
            // stays small.
            let limiter = Arc::downgrade(config.limiter());
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(Duration::from_secs(60)).await;
                    let Some(limiter) = limiter.upgrade() else {
                        break;
                    };
                    limiter.retain_recent();
                    limiter.shrink_to_fit();
                }
            });
            route.layer(GovernorLayer::new(config).error_handler(too_many))
        }
        None => route,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::routing::post;
    use tower::ServiceExt;

    fn request() -> Request {
        let mut r = Request::post("/").body(Body::from("{}")).expect("request");
        r.extensions_mut()
            .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
                [10, 0, 0, 1],
                5000,
            ))));
        r
    }

    #[tokio::test]
    async fn past_the_slots_a_request_is_refused_at_once_and_a_slot_freed_is_taken() {
        let gate = Arc::new(tokio::sync::Notify::new());
        let held = gate.clone();
        let slow = post(move || {
            let held = held.clone();
            async move {
                held.notified().await;
                "done"
            }
        });
        let unlimited = Limit {
            per_minute: 0,
            at_once: 1,
        };
        let app = Router::new().route(
            "/",
            limited(slow, unlimited, Arc::new(Semaphore::new(1)), 1024),
        );
        let first = tokio::spawn(app.clone().oneshot(request()));
        tokio::time::sleep(Duration::from_millis(50)).await;
        let started = std::time::Instant::now();
        let second = app.clone().oneshot(request()).await.expect("answer");
        assert!(started.elapsed() < Duration::from_millis(500));
        assert_eq!(second.status(), 503);
        assert_eq!(second.headers()[header::RETRY_AFTER], "1");
        let body = axum::body::to_bytes(second.into_body(), 4096)
            .await
            .expect("body");
        let v: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
        assert!(v["error"].as_str().expect("error").contains("at once"));
        gate.notify_one();
        assert_eq!(first.await.expect("task").expect("answer").status(), 200);
        let gate2 = gate.clone();
        let third = tokio::spawn(app.oneshot(request()));
        tokio::time::sleep(Duration::from_millis(50)).await;
        gate2.notify_one();
        assert_eq!(third.await.expect("task").expect("answer").status(), 200);
    }

    #[tokio::test]
    async fn a_client_past_its_rate_is_answered_429_with_retry_after_and_others_are_not() {
        let limit = Limit {
            per_minute: 3,
            at_once: 8,
        };
        let app = Router::new().route(
            "/",
            limited(
                post(|| async { "ok" }),
                limit,
                Arc::new(Semaphore::new(8)),
                1024,
            ),
        );
        for _ in 0..3 {
            assert_eq!(
                app.clone()
                    .oneshot(request())
                    .await
                    .expect("answer")
                    .status(),
                200
            );
        }
        let refused = app.clone().oneshot(request()).await.expect("answer");
        assert_eq!(refused.status(), 429);
        let wait: u64 = refused.headers()[header::RETRY_AFTER]
            .to_str()
            .expect("text")
            .parse()
            .expect("seconds");
        assert!((1..=20).contains(&wait), "{wait}");
        let body = axum::body::to_bytes(refused.into_body(), 4096)
            .await
            .expect("body");
        let v: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
        assert!(v["error"].as_str().expect("error").contains("too many"));
        // Another client has its own allowance.
        let mut other = request();
        other
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
                [10, 0, 0, 2],
                5000,
            ))));
        assert_eq!(app.oneshot(other).await.expect("answer").status(), 200);
    }
}
