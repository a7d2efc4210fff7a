//! The handlers of `/api/v1`: thin, each one parses, checks, hands a search to the pool, and
//! answers JSON (or server-sent events for `/search`).

use std::collections::HashMap;
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Json;
use axum::extract::{Request, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use pjlab_core::{Game, GameKit};
use pjlab_registry::{GameName, with_kit};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_stream::{Stream, StreamExt};

use crate::engine::{self, Players, Report, StopOnDrop};
use crate::games::{self, PositionRequest};
use crate::pool::Pool;
pub use crate::request::{ApiRequest, MAX_BODY, body};
use crate::{ApiError, runs};

/// The version of the API, the `v1` of its paths.
pub const API_VERSION: u32 = 1;

/// What every handler shares.
pub struct App<P: Players> {
    /// Builds the players.
    pub players: Arc<P>,
    /// The search workers.
    pub pool: Pool,
    /// `--runs`: where recorded games are read from.
    pub runs: Option<PathBuf>,
    /// The players of the page's menu: (label, spec).
    pub menu: Vec<(String, String)>,
    /// Searches that may be stopped by id.
    searches: Mutex<HashMap<u64, Arc<AtomicBool>>>,
    next_id: AtomicU64,
}

impl<P: Players> App<P> {
    /// The shared state of a server.
    pub fn new(
        players: P,
        pool: Pool,
        runs: Option<PathBuf>,
        menu: Vec<(String, String)>,
    ) -> App<P> {
        App {
            players: Arc::new(players),
            pool,
            runs,
            menu,
            searches: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
        }
    }
}

/// `GET /api/v1/health`.
pub async fn health<P: Players>(State(app): State<Arc<App<P>>>) -> Json<Value> {
    Json(json!({
        "status": "ok",
        "api": API_VERSION,
        "version": env!("CARGO_PKG_VERSION"),
        "workers": app.pool.workers(),
        "searches": app.pool.busy(),
    }))
}

/// `GET /api/v1/games`: each game's variants and sides, and the players' menu.
pub async fn games_info<P: Players>(State(app): State<Arc<App<P>>>) -> Json<Value> {
    let games: Vec<Value> = GameName::all()
        .iter()
        .map(|&g| with_kit!(g, |K| games::info_json::<K>()))
        .collect();
    let players: Vec<Value> = app
        .menu
        .iter()
        .map(|(label, spec)| json!({ "label": label, "spec": spec }))
        .collect();
    Json(json!({ "games": games, "players": players, "runs": app.runs.is_some() }))
}

/// `POST /api/v1/legal`: `{"moves": [...]}`.
pub async fn legal(request: Request) -> Result<Json<Value>, ApiError> {
    let req = body(request).await?;
    let moves = with_kit!(req.game()?, |K| {
        let line = games::line::<K>(&req.at())?;
        games::legal_texts(&line.position)
    });
    Ok(Json(json!({ "moves": moves })))
}

/// `POST /api/v1/state`: the position, its legal moves with their cells, the board, the record.
pub async fn state(request: Request) -> Result<Json<Value>, ApiError> {
    let req = body(request).await?;
    let state = with_kit!(req.game()?, |K| games::state_json::<K>(&games::line::<K>(
        &req.at()
    )?));
    Ok(Json(state))
}

/// The state of a record's game, read from `record` or a start and moves.
fn record_state<K: GameKit>(record: &str, at: &PositionRequest) -> Result<Value, ApiError> {
    let (start, moves) = games::read_record::<K>(record, at)?;
    let line = games::Line::<K> {
        position: moves.iter().fold(start.clone(), |mut p, &mv| {
            p.play_unchecked(mv);
            p
        }),
        start,
        moves,
    };
    Ok(games::state_json::<K>(&line))
}

/// `POST /api/v1/record`: a pasted record read (every move checked), as `/state` answers.
pub async fn record(request: Request) -> Result<Json<Value>, ApiError> {
    let req = body(request).await?;
    let text = req
        .record
        .as_deref()
        .ok_or_else(|| ApiError::Bad("record: the game in its notation".into()))?;
    let state = with_kit!(req.game()?, |K| record_state::<K>(text, &req.at())?);
    Ok(Json(state))
}

/// A search started on the pool: its id, its reports, and the guard that stops it when dropped.
struct Started {
    id: u64,
    reports: mpsc::UnboundedReceiver<Report>,
    _guard: Forget,
}

/// Stops a search, forgets its id and ends its watchdog when the handler (or the stream) that
/// waits is dropped.
struct Forget {
    id: u64,
    searches: Arc<dyn Fn(u64) + Send + Sync>,
    timer: tokio::task::AbortHandle,
    _stop: StopOnDrop,
}

impl Drop for Forget {
    fn drop(&mut self) {
        (self.searches)(self.id);
        self.timer.abort();
    }
}

/// What a worker runs for a request: a search, or a ranking of the moves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Work {
    Search,
    Rank,
}

fn start_search<P: Players>(app: &Arc<App<P>>, req: &ApiRequest) -> Result<Started, ApiError> {
    start(app, req, Work::Search)
}

fn start<P: Players>(app: &Arc<App<P>>, req: &ApiRequest, work: Work) -> Result<Started, ApiError> {
    let spec = req.player()?;
    let limits = engine::limits(req.movetime_ms, req.depth, req.nodes)?;
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, reports) = mpsc::unbounded_channel();
    let seed = req.player_seed.unwrap_or(0);
    let depth = req.depth.unwrap_or(3);
    if work == Work::Rank && depth > engine::MAX_RANK_DEPTH {
        return Err(ApiError::Bad(format!(
            "depth must be from 1 to {} to rank moves",
            engine::MAX_RANK_DEPTH
        )));
    }
    let count = req.count.unwrap_or(5).clamp(1, 50);
    let job: Box<dyn FnOnce() + Send> = with_kit!(req.game()?, |K| {
        let line = games::line::<K>(&req.at())?;
        if line.position.outcome().is_some() {
            return Err(ApiError::Bad("the game is over: nothing to search".into()));
        }
        let players = Arc::clone(&app.players);
        let flag = Arc::clone(&stop);
        match work {
            Work::Search => Box::new(engine::search_job::<K, P>(
                players,
                spec,
                seed,
                line.position,
                limits,
                flag,
                tx,
            )),
            Work::Rank => Box::new(engine::rank_job::<K, P>(
                players,
                spec,
                seed,
                line.position,
                depth,
                count,
                flag,
                tx,
            )),
        }
    });
    app.pool.submit(job)?;
    let id = app.next_id.fetch_add(1, Ordering::SeqCst);
    if let Ok(mut map) = app.searches.lock() {
        map.insert(id, Arc::clone(&stop));
    }
    // No search outlives its budget: the limit asked for and a grace, or the longest allowed.
    let cap = limits
        .and_then(|l| l.time)
        .map_or(Duration::from_millis(engine::MAX_MOVETIME_MS), |t| {
            t + Duration::from_secs(2)
        });
    let watchdog = Arc::clone(&stop);
    let timer = tokio::spawn(async move {
        tokio::time::sleep(cap).await;
        watchdog.store(true, Ordering::SeqCst);
    })
    .abort_handle();
    let weak = Arc::downgrade(app);
    let forget: Arc<dyn Fn(u64) + Send + Sync> = Arc::new(move |id| {
        if let Some(app) = weak.upgrade()
            && let Ok(mut map) = app.searches.lock()
        {
            map.remove(&id);
        }
    });
    Ok(Started {
        id,
        reports,
        _guard: Forget {
            id,
            searches: forget,
            timer,
            _stop: StopOnDrop(stop),
        },
    })
}

/// `POST /api/v1/bestmove`: `{"move", "score", "pv", ...}` once the search ends.
pub async fn bestmove<P: Players>(
    State(app): State<Arc<App<P>>>,
    request: Request,
) -> Result<Json<Value>, ApiError> {
    let req = body(request).await?;
    let mut started = start_search(&app, &req)?;
    // Dropped with this future when the client goes away: the guard stops the search.
    while let Some(report) = started.reports.recv().await {
        match report {
            Report::Info(_) => {}
            Report::Done(decision) => return Ok(Json(decision)),
            Report::Failed(e) => return Err(e),
        }
    }
    Err(ApiError::Internal(
        "the search ended without an answer".into(),
    ))
}

/// `POST /api/v1/rank`: the best `count` moves (5 by default), each searched `depth - 1` plies
/// deep after it by `player` (`alphabeta` by default; depth 3 by default, at most 5).
pub async fn rank<P: Players>(
    State(app): State<Arc<App<P>>>,
    request: Request,
) -> Result<Json<Value>, ApiError> {
    let mut req = body(request).await?;
    if req.player.is_none() {
        req.player = Some("alphabeta".into());
    }
    if req.movetime_ms.is_some() || req.nodes.is_some() {
        return Err(ApiError::Bad(
            "rank takes depth and count, not movetime_ms or nodes".into(),
        ));
    }
    let mut started = start(&app, &req, Work::Rank)?;
    while let Some(report) = started.reports.recv().await {
        match report {
            Report::Info(_) => {}
            Report::Done(ranked) => return Ok(Json(ranked)),
            Report::Failed(e) => return Err(e),
        }
    }
    Err(ApiError::Internal(
        "the ranking ended without an answer".into(),
    ))
}

/// `POST /api/v1/search`: server-sent events, `start` (`{"id"}`), `info` (each report), then
/// `done` (the decision) or `error`.
pub async fn search<P: Players>(
    State(app): State<Arc<App<P>>>,
    request: Request,
) -> Result<Response, ApiError> {
    let req = body(request).await?;
    let started = start_search(&app, &req)?;
    let stream = events(started);
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(5)))
        .into_response())
}

fn events(started: Started) -> impl Stream<Item = Result<Event, Infallible>> {
    let Started {
        id,
        reports,
        _guard: guard,
    } = started;
    let start = Event::default()
        .event("start")
        .data(json!({ "id": id }).to_string());
    // The guard lives in the stream: when the client goes away the stream is dropped, and the
    // search stops.
    let reports = UnboundedReceiverStream::new(reports).map(move |report| {
        let _ = &guard;
        let event = match report {
            Report::Info(v) => Event::default().event("info").data(v.to_string()),
            Report::Done(v) => Event::default().event("done").data(v.to_string()),
            Report::Failed(err) => Event::default().event("error").data(
                json!({ "error": err.to_string(), "status": err.status().as_u16() }).to_string(),
            ),
        };
        Ok(event)
    });
    tokio_stream::once(Ok(start)).chain(reports)
}

/// `POST /api/v1/stop` `{"id"}`: stops that search, which then answers with its best move.
pub async fn stop<P: Players>(
    State(app): State<Arc<App<P>>>,
    request: Request,
) -> Result<Json<Value>, ApiError> {
    let req = body(request).await?;
    let id = req
        .id
        .ok_or_else(|| ApiError::Bad("id: the search's id".into()))?;
    let flag = app.searches.lock().ok().and_then(|m| m.get(&id).cloned());
    if let Some(flag) = &flag {
        flag.store(true, Ordering::SeqCst);
    }
    Ok(Json(json!({ "stopped": flag.is_some() })))
}

/// `GET /api/v1/runs`: the record files under `--runs`.
pub async fn runs_list<P: Players>(
    State(app): State<Arc<App<P>>>,
) -> Result<Json<Value>, ApiError> {
    let root = app
        .runs
        .clone()
        .ok_or_else(|| ApiError::NotFound("the server was started without --runs".into()))?;
    let listing = tokio::task::spawn_blocking(move || runs::list_json(&root))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Json(listing))
}

/// `POST /api/v1/runs/game` `{"path", "index", "game"}`: a recorded game, as `/state` answers.
pub async fn runs_game<P: Players>(
    State(app): State<Arc<App<P>>>,
    request: Request,
) -> Result<Json<Value>, ApiError> {
    let req = body(request).await?;
    let root = app
        .runs
        .clone()
        .ok_or_else(|| ApiError::NotFound("the server was started without --runs".into()))?;
    let rel = req
        .path
        .clone()
        .ok_or_else(|| ApiError::Bad("path: a file under --runs".into()))?;
    let index = req.index.unwrap_or(0);
    let recorded = tokio::task::spawn_blocking(move || {
        let path = runs::resolve(&root, &rel)?;
        runs::read(&path, index)
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))??;
    let game: GameName = match recorded.game.as_deref().or(req.game.as_deref()) {
        Some(name) => name
            .parse()
            .map_err(|e: pjlab_registry::UnknownGame| ApiError::Bad(e.to_string()))?,
        None => GameName::default(),
    };
    let at = PositionRequest {
        position: recorded.start.clone(),
        variant: recorded.variant.clone(),
        seed: recorded.seed,
        moves: recorded.moves.clone(),
    };
    let mut state = with_kit!(game, |K| match &recorded.record {
        Some(text) => record_state::<K>(
            text,
            &PositionRequest {
                position: None,
                ..at
            }
        )?,
        None => games::state_json::<K>(&games::line::<K>(&PositionRequest {
            variant: None,
            ..at
        })?),
    });
    state["title"] = json!(recorded.title);
    state["count"] = json!(recorded.count);
    Ok(Json(state))
}

/// An unknown `/api/...` path: a JSON 404.
pub async fn not_found() -> Response {
    ApiError::NotFound("no such endpoint: see the README's API section".into()).into_response()
}
