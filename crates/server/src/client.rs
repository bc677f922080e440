//! A small HTTP/1.1 client for the API, over one kept-alive connection (reconnecting when it
//! closes): what the tests, the load example and scripts need, without a client library.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::net::SocketAddr;

/// A client of one server.
pub struct Client {
    addr: SocketAddr,
    conn: Option<SendRequest<Full<Bytes>>>,
}

/// A client failure: the connection, or an answer that is not the JSON expected.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Connecting, sending or reading failed.
    #[error("connection: {0}")]
    Io(#[from] std::io::Error),
    /// The HTTP exchange failed.
    #[error("http: {0}")]
    Http(#[from] hyper::Error),
    /// The request could not be built.
    #[error("request: {0}")]
    Request(#[from] hyper::http::Error),
    /// The answer is not the JSON expected.
    #[error("answer {status}: {error}: {body}")]
    Json {
        /// The status.
        status: u16,
        /// What serde said.
        error: String,
        /// The body, as text.
        body: String,
    },
}

/// An answer: its status and body.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub body: Vec<u8>,
    /// The `Retry-After` header, if any (a 503 has one).
    pub retry_after: Option<String>,
}

impl Answer {
    /// The body read as `T`.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, ClientError> {
        serde_json::from_slice(&self.body).map_err(|e| ClientError::Json {
            status: self.status,
            error: e.to_string(),
            body: String::from_utf8_lossy(&self.body).into_owned(),
        })
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

impl Client {
    /// A client of the server at `addr` (no connection is made yet).
    pub fn new(addr: SocketAddr) -> Client {
        Client { addr, conn: None }
    }

    async fn connection(&mut self) -> Result<&mut SendRequest<Full<Bytes>>, ClientError> {
        let alive = self.conn.as_ref().is_some_and(|c| !c.is_closed());
        if !alive {
            let tcp = tokio::net::TcpStream::connect(self.addr).await?;
            tcp.set_nodelay(true)?;
            let (send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tcp)).await?;
            tokio::spawn(async move {
                let _ = conn.await;
            });
            self.conn = Some(send);
        }
        match self.conn.as_mut() {
            Some(c) => Ok(c),
            None => Err(ClientError::Io(std::io::Error::other("no connection"))),
        }
    }

    /// Sends a request with a raw body (and extra headers, which replace the `Host` and the
    /// `Content-Type: application/json` sent by default); answers its status and body.
    pub async fn raw(
        &mut self,
        method: &str,
        path: &str,
        body: Vec<u8>,
        headers: &[(&str, &str)],
    ) -> Result<Answer, ClientError> {
        let given = |name: &str| headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
        let mut req = hyper::Request::builder().method(method).uri(path);
        if !given("host") {
            req = req.header("host", self.addr.to_string());
        }
        if !given("content-type") {
            req = req.header("content-type", "application/json");
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let mut req = req.body(Full::new(Bytes::from(body)))?;
        // A request the connection closed before sending (the server closes a connection
        // after some refusals) is sent once more on a new connection; one that may have been
        // sent is never sent twice.
        let mut tries = 0;
        let res = loop {
            tries += 1;
            let conn = self.connection().await?;
            if conn.ready().await.is_err() {
                self.conn = None;
                if tries < 3 {
                    continue;
                }
            }
            let conn = self.connection().await?;
            match conn.try_send_request(req).await {
                Ok(r) => break r,
                Err(mut e) => {
                    self.conn = None;
                    match e.take_message() {
                        Some(unsent) if tries < 3 => req = unsent,
                        _ => return Err(e.into_error().into()),
                    }
                }
            }
        };
        let status = res.status().as_u16();
        let retry_after = res
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let body = res.into_body().collect().await?.to_bytes().to_vec();
        Ok(Answer {
            status,
            body,
            retry_after,
        })
    }

    /// `GET path`.
    pub async fn get(&mut self, path: &str) -> Result<Answer, ClientError> {
        self.raw("GET", path, Vec::new(), &[]).await
    }

    /// `POST path` with a JSON body.
    pub async fn post(&mut self, path: &str, body: &impl Serialize) -> Result<Answer, ClientError> {
        let bytes = serde_json::to_vec(body).map_err(|e| ClientError::Json {
            status: 0,
            error: e.to_string(),
            body: String::new(),
        })?;
        self.raw("POST", path, bytes, &[]).await
    }
}
