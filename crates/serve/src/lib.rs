//! `pjlab serve`: a local web app to play and analyse against the lab's players, and the
//! versioned JSON engine API (`/api/v1`) it talks to, which other frontends may call too.
//!
//! The page, its script and its styles are inside the binary (no CDN: it works offline). The
//! handlers are thin ([`api`]): they parse and check a request, hand a search to the bounded
//! worker [`pool::Pool`] (at most one search a worker, a bounded queue, 503 beyond), and
//! answer JSON; errors are JSON with a 4xx status ([`ApiError`]). Players come from the
//! [`Players`] the caller passes: the binary's builds networks too, [`BuiltinPlayers`] the
//! agents of `pjlab-agents`, so this crate links no network code.
//!
//! Safe by default: it listens on loopback unless told otherwise, answers only requests
//! addressed to a loopback name while it does (against DNS rebinding), takes POST bodies only as
//! `application/json` (so other sites' pages cannot post to it without CORS, which it never
//! grants) and of at most [`api::MAX_BODY`] bytes, bounds positions, moves and search limits,
//! refuses players that would start external programs (`ugi:`), stops a search when its
//! client goes away, and reads no file outside `--runs` ([`runs::resolve`]).
//!
//! ```no_run
//! use pjlab_serve::{BuiltinPlayers, Config};
//! let config = Config::default(); // 127.0.0.1:8040
//! let runtime = tokio::runtime::Runtime::new().unwrap();
//! runtime.block_on(pjlab_serve::serve(config, BuiltinPlayers)).unwrap();
//! ```

pub mod api;
pub mod engine;
mod error;
pub mod games;
pub mod pool;
mod request;
pub mod runs;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

pub use engine::{BuiltinPlayers, Players};
pub use error::{ApiError, ServeError};

/// How the server is started.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (loopback by default).
    pub host: IpAddr,
    /// The port (0: any free port).
    pub port: u16,
    /// Where recorded games are read from.
    pub runs: Option<PathBuf>,
    /// Search workers: at most one search each at a time.
    pub workers: usize,
    /// Searches that may wait for a worker before requests are refused with 503.
    pub queue: usize,
    /// The page's menu of players: (label, spec).
    pub menu: Vec<(String, String)>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            host: IpAddr::from([127, 0, 0, 1]),
            port: 8040,
            runs: None,
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            queue: 64,
            menu: default_menu(),
        }
    }
}

/// The menu every server offers: random, alpha-beta at a few depths, MCTS with rollouts.
pub fn default_menu() -> Vec<(String, String)> {
    [
        ("random", "random"),
        ("alpha-beta, depth 1", "alphabeta:depth=1"),
        ("alpha-beta, depth 2", "alphabeta:depth=2"),
        ("alpha-beta, depth 4", "alphabeta:depth=4"),
        ("alpha-beta, depth 6", "alphabeta:depth=6"),
        ("alpha-beta (time a move)", "alphabeta"),
        ("MCTS, 800 rollouts", "mcts:sims=800"),
    ]
    .into_iter()
    .map(|(l, s)| (l.to_string(), s.to_string()))
    .collect()
}

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// Answers only requests whose `Host` is a loopback name (the server listens on loopback).
async fn loopback_host(request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    };
    if matches!(name, "localhost" | "127.0.0.1" | "[::1]") {
        next.run(request).await
    } else {
        ApiError::WrongHost("localhost".into()).into_response()
    }
}

/// The server's routes over `app`; `loopback` adds the Host check.
pub fn router<P: Players>(app: Arc<api::App<P>>, loopback: bool) -> Router {
    let api = Router::new()
        .route("/health", get(api::health::<P>))
        .route("/games", get(api::games_info::<P>))
        .route("/legal", post(api::legal))
        .route("/state", post(api::state))
        .route("/record", post(api::record))
        .route("/bestmove", post(api::bestmove::<P>))
        .route("/rank", post(api::rank::<P>))
        .route("/search", post(api::search::<P>))
        .route("/stop", post(api::stop::<P>))
        .route("/runs", get(api::runs_list::<P>))
        .route("/runs/game", post(api::runs_game::<P>))
        .fallback(api::not_found);
    let mut router = Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .nest("/api/v1", api)
        .fallback(api::not_found)
        .with_state(app)
        .layer(tower_http::set_header::SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(tower_http::set_header::SetResponseHeaderLayer::overriding(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
            ),
        ));
    if loopback {
        router = router.layer(middleware::from_fn(loopback_host));
    }
    router
}

/// Runs the server until Ctrl-C: binds, prints where it listens (and a warning for a host
/// other than loopback), serves.
///
/// # Errors
/// [`ServeError::Bind`] when the address is taken, [`ServeError::Runs`] for a `--runs` that is
/// no directory.
pub async fn serve<P: Players>(config: Config, players: P) -> Result<(), ServeError> {
    let listener = bind(&config).await?;
    let addr = listener.local_addr()?;
    eprintln!("pjlab serve: http://{addr}/ (Ctrl-C stops it)");
    run(listener, config, players, shutdown_signal()).await
}

/// Binds the configured address, checking `--runs`, and warns when it is not loopback.
///
/// # Errors
/// As [`serve`].
pub async fn bind(config: &Config) -> Result<tokio::net::TcpListener, ServeError> {
    if let Some(dir) = &config.runs
        && !dir.is_dir()
    {
        return Err(ServeError::Runs(dir.display().to_string()));
    }
    if !config.host.is_loopback() {
        eprintln!(
            "warning: listening on {}: anyone who can reach this address can use the engine and \
             read the games under --runs",
            config.host
        );
    }
    let addr = SocketAddr::new(config.host, config.port);
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Bind {
            addr: addr.to_string(),
            source,
        })
}

/// Serves on `listener` until `shutdown` completes.
///
/// # Errors
/// [`ServeError::Io`] when the server fails.
pub async fn run<P: Players>(
    listener: tokio::net::TcpListener,
    config: Config,
    players: P,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let pool = pool::Pool::new(config.workers, config.queue);
    let app = Arc::new(api::App::new(
        players,
        pool,
        config.runs.clone(),
        config.menu.clone(),
    ));
    let router = router(app, config.host.is_loopback());
    axum::serve(listener, router)
        .with_graceful_shutdown(shutdown)
        .await?;
    Ok(())
}

async fn shutdown_signal() {
    let _ = tokio::signal::ctrl_c().await;
}
