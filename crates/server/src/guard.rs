//! What every request passes before a route sees it: the `Host` it names must be one the
//! server answers to (so that a page on another name, resolved to this server by DNS
//! rebinding, cannot drive it), a request that changes something must come from the server's
//! own pages or from a client that is not a browser (never a cross-site form or `fetch`), and
//! every error is answered in JSON.

use crate::games::Refusal;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::Response;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The host names a server answers to whatever its flags: the loopback names.
pub const LOOPBACK_HOSTS: &[&str] = &["localhost", "127.0.0.1", "::1"];

/// The hosts a server answers to: the loopback names, the address it listens on, and those
/// the operator adds (`--allowed-host`). A server listening on every address (`0.0.0.0`,
/// `::`) answers to any address written as an IP (a rebinding page always names a host by
/// name), and `*` answers to any host.
#[derive(Clone, Debug)]
pub struct AllowedHosts {
    names: Vec<String>,
    any_ip: bool,
    any: bool,
}

/// A host as compared: lower case, without a port, brackets or a final dot.
fn normal(host: &str) -> String {
    let h = host.trim();
    let bare = if let Some(rest) = h.strip_prefix('[') {
        rest.split(']').next().unwrap_or(rest)
    } else {
        match h.rsplit_once(':') {
            // One colon: a port. More: an IPv6 address without brackets.
            Some((name, port))
                if !name.contains(':') && port.bytes().all(|b| b.is_ascii_digit()) =>
            {
                name
            }
            _ => h,
        }
    };
    bare.trim_end_matches('.').to_ascii_lowercase()
}

impl AllowedHosts {
    /// The hosts a server listening on `addr` answers to, with `extra` ones.
    pub fn new(addr: SocketAddr, extra: &[String]) -> AllowedHosts {
        let mut names: Vec<String> = LOOPBACK_HOSTS.iter().map(|h| h.to_string()).collect();
        names.push(addr.ip().to_string());
        names.extend(extra.iter().map(|h| normal(h)));
        AllowedHosts {
            any: extra.iter().any(|h| h.trim() == "*"),
            any_ip: addr.ip().is_unspecified(),
            names,
        }
    }

    /// Whether a `Host` header (a name or an address, with or without a port) is allowed.
    pub fn allows(&self, host: &str) -> bool {
        let h = normal(host);
        if self.any || self.names.contains(&h) {
            return true;
        }
        match h.parse::<IpAddr>() {
            Ok(ip) => self.any_ip || self.names.contains(&ip.to_string()),
            Err(_) => false,
        }
    }

    /// Whether an `Origin` header names the server itself: the same host and port as the
    /// request's `Host`, or a host named by the loopback names or `--allowed-host` (never one
    /// allowed only as "any address").
    fn allows_origin(&self, origin: &str, host: Option<&str>) -> bool {
        let Some((_, authority)) = origin.split_once("://") else {
            return false;
        };
        let authority = authority.trim_end_matches('/');
        if host.is_some_and(|h| h.eq_ignore_ascii_case(authority)) {
            return true;
        }
        self.any || self.names.contains(&normal(authority))
    }
}

fn header(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Refuses what no route should see: a `Host` not allowed (421), a cross-site request that
/// changes something or opens a WebSocket (403), a `POST` whose body is not JSON (415).
pub async fn guard(
    State(hosts): State<Arc<AllowedHosts>>,
    request: Request,
    next: Next,
) -> Response {
    match check(&hosts, &request) {
        Ok(()) => next.run(request).await,
        Err(r) => crate::http::refusal(r),
    }
}

fn check(hosts: &AllowedHosts, request: &Request) -> Result<(), Refusal> {
    let headers = request.headers();
    let host = request
        .uri()
        .authority()
        .map(|a| a.as_str())
        .or_else(|| header(headers, header::HOST));
    let Some(host) = host else {
        return Err(Refusal::new(
            400,
            "the request names no host (a Host header)",
        ));
    };
    if !hosts.allows(host) {
        return Err(Refusal::new(
            421,
            format!(
                "this server does not answer to the host `{}` (`ply serve --allowed-host NAME` \
                 adds one)",
                host.escape_debug()
            ),
        ));
    }
    let changes = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let websocket = headers.contains_key(header::UPGRADE);
    if !(changes || websocket) {
        return Ok(());
    }
    if let Some(site) = header(headers, header::HeaderName::from_static("sec-fetch-site"))
        && matches!(site, "cross-site" | "same-site")
    {
        return Err(Refusal::new(
            403,
            format!("a request from another site ({site}) may not change games or watch them"),
        ));
    }
    if let Some(origin) = header(headers, header::ORIGIN)
        && !hosts.allows_origin(origin, Some(host))
    {
        return Err(Refusal::new(
            403,
            format!(
                "a request from the page of another origin (`{}`) may not change games or \
                 watch them",
                origin.escape_debug()
            ),
        ));
    }
    Ok(())
}

/// 415 unless the request's body is sent as JSON (`Content-Type: application/json`): checked by
/// every route that reads a body, before it reads it, so that a cross-site page cannot send
/// one as a form or as `text/plain` (a "simple" request that no preflight guards).
pub fn json_body(headers: &axum::http::HeaderMap) -> Result<(), Refusal> {
    let json = header(headers, header::CONTENT_TYPE)
        .and_then(|t| t.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
    if json {
        Ok(())
    } else {
        Err(Refusal::new(
            415,
            "a request body is JSON, sent as `Content-Type: application/json`",
        ))
    }
}

/// The longest error body of another layer (axum's rejections) turned into JSON.
const MAX_ERROR_TEXT: usize = 4096;

/// Answers every error in JSON: an error that a route or a layer answered otherwise (a path
/// that is not UTF-8, an extractor's rejection) becomes an error body with the same status
/// and its text as the sentence.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, MAX_ERROR_TEXT).await {
        Ok(b) if !b.is_empty() => String::from_utf8_lossy(&b).trim().to_string(),
        _ => status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_string(),
    };
    let refusal = Refusal::new(status.as_u16(), text);
    let bytes = serde_json::to_vec(&refusal.body).unwrap_or_default();
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_compared_without_port_case_or_brackets() {
        let h = AllowedHosts::new("127.0.0.1:8080".parse().unwrap(), &["Games.Example".into()]);
        for ok in [
            "localhost",
            "localhost:8080",
            "LOCALHOST.",
            "127.0.0.1:8080",
            "[::1]:8080",
            "::1",
            "games.example:443",
        ] {
            assert!(h.allows(ok), "{ok}");
        }
        for no in [
            "evil.example",
            "evil.example:8080",
            "10.0.0.1",
            "localhost.evil",
            "",
        ] {
            assert!(!h.allows(no), "{no}");
        }
        let any = AllowedHosts::new("0.0.0.0:80".parse().unwrap(), &[]);
        assert!(any.allows("10.0.0.1:80") && any.allows("[fe80::1]"));
        assert!(!any.allows("rebind.example"));
        // A page on another address is not the server's own, even when any address is.
        assert!(!any.allows_origin("http://10.9.9.9", Some("10.0.0.1:80")));
        assert!(any.allows_origin("http://10.0.0.1:80", Some("10.0.0.1:80")));
        assert!(!h.allows_origin("null", Some("localhost:8080")));
    }
}
