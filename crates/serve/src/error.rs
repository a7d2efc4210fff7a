//! The one error type of the API: each variant a status code, each answer a JSON body
//! `{"error": "..."}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// What a request gets instead of its answer.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed or names something impossible (400).
    #[error("{0}")]
    Bad(String),
    /// A path or record that does not exist (404).
    #[error("{0}")]
    NotFound(String),
    /// A body over the size limit (413).
    #[error("request body over {0} bytes")]
    TooLarge(usize),
    /// A POST without `Content-Type: application/json` (415).
    #[error("the body must be sent as application/json")]
    NotJson,
    /// The player spec is refused or cannot be built (422).
    #[error("{0}")]
    Player(String),
    /// Every worker busy and the queue full (503).
    #[error("all {workers} search workers are busy and {queued} searches wait: try again")]
    Busy {
        /// Search workers.
        workers: usize,
        /// Searches the queue holds.
        queued: usize,
    },
    /// The Host header names another site (421, against DNS rebinding).
    #[error("this server answers only requests addressed to {0}")]
    WrongHost(String),
    /// A bug: the search panicked (500).
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// The status code of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Bad(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Player(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::WrongHost(_) => StatusCode::MISDIRECTED_REQUEST,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.to_string() });
        (self.status(), axum::Json(body)).into_response()
    }
}

/// What starting the server can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address cannot be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
    /// The runs directory does not exist or is no directory.
    #[error("--runs {0}: not a directory")]
    Runs(String),
    /// The server stopped with an I/O error.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}
