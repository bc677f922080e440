//! The playground's checks: a pack pasted into a page, loaded and tried as `ply validate`
//! does, its problems returned located (line and column) for the editor to mark.
//!
//! A pasted pack is untrusted. Before the loader sees it, its size and its nesting of `[` and
//! `{` are bounded ([`MAX_PACK_TEXT`], [`MAX_NESTING`]); the loader bounds the board (the
//! kernel's 16x16), expressions ([`ply_lang::MAX_EXPR_DEPTH`]) and hop chains, and once loaded
//! its kinds, move patterns and zones are counted ([`MAX_KINDS`], [`MAX_PATTERNS`],
//! [`MAX_ZONES`]) before it is played; its `extends`
//! may only name a pack of the server's folder ([`ply_lang::load_str_confined`]). Loading and
//! trying it run on a blocking thread, at most [`MAX_CHECKS_AT_ONCE`] at once, and the answer
//! waits at most [`CHECK_TIME`]: past it the request is answered 422 (the thread finishes
//! its bounded work on its own and is not waited for).

use crate::api::{PackCheck, PackDiagnostic, PastedPack};
use crate::games::{Refusal, check_resolved, options_of, pack_options};
use ply_kernel::{Outcome, Position, Rng, Status};
use ply_lang::{Diagnostic, Pack, Severity, Sources};
use std::io::Read;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The name a pasted pack is shown by in its diagnostics (`pasted.toml:3:7`), and the pack
/// name of its games.
pub const PASTED_NAME: &str = "pasted";
/// The longest pasted pack, in bytes.
pub const MAX_PACK_TEXT: usize = 64 * 1024;
/// The longest request body of the playground's routes (the pack as a JSON string, escaped).
pub const MAX_PLAYGROUND_BODY: usize = 4 * MAX_PACK_TEXT;
/// The deepest nesting of `[` and `{` a pasted pack may have.
pub const MAX_NESTING: usize = 32;
/// The longest a check (loading and trying the pack) may take.
pub const CHECK_TIME: Duration = Duration::from_secs(3);
/// How many checks may run at once; more wait for their turn (within [`CHECK_TIME`]).
pub const MAX_CHECKS_AT_ONCE: usize = 2;
/// How many random games a check plays, and how long each may be.
pub const SMOKE_PLAYOUTS: u32 = 5;
/// The most moves of each random game of a check.
pub const SMOKE_MAX_PLIES: u32 = 300;
/// The most move sequences a check counts from the start.
pub const SMOKE_NODES: u64 = 20_000;
/// The most kinds of piece a pasted pack may have.
pub const MAX_KINDS: usize = 64;
/// The most move patterns a pasted pack may have, all kinds together.
pub const MAX_PATTERNS: usize = 256;
/// The most zones a pasted pack may have.
pub const MAX_ZONES: usize = 64;

static CHECKS: Semaphore = Semaphore::const_new(MAX_CHECKS_AT_ONCE);

/// What `ply show` prints of a pack under its board (the CLI gives its own; without one the
/// playground shows the board only).
pub type Summary = fn(&Pack) -> String;

/// How the playground checks pasted packs.
#[derive(Copy, Clone, Debug)]
pub struct Settings {
    /// What the playground shows of a pack under its board.
    pub summary: Option<Summary>,
    /// The longest a check may take ([`CHECK_TIME`] by default).
    pub time: Duration,
    /// The worker process that loads and tries each pasted pack, if any; without one, the
    /// check runs on a thread of the server (bounded in time only).
    pub worker: Option<&'static Worker>,
}

/// A program that checks one pasted pack: started for each check with `args`, it reads a
/// [`WorkerRequest`] on its standard input, calls [`worker_main`] and writes a
/// [`WorkerAnswer`] on its standard output (`ply` re-executes itself: `ply pack-worker`).
#[derive(Clone, Debug)]
pub struct Worker {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
}

/// The most memory (address space) a worker may take, in bytes.
pub const WORKER_MEMORY: u64 = 1024 * 1024 * 1024;

/// What a worker is asked: a pack, and the folder its `extends` may name.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct WorkerRequest {
    /// The packs folder.
    pub folder: PathBuf,
    /// The pasted pack.
    pub pack: PastedPack,
    /// The CPU seconds it may use.
    pub cpu_seconds: u64,
}

/// What a worker answers: the report and, when the pack plays, its resolved text; or a
/// refusal.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct WorkerAnswer {
    /// The report, unless refused.
    pub report: Option<PackCheck>,
    /// The resolved text, when the pack loads and plays.
    pub resolved: Option<String>,
    /// A refusal's status and sentence.
    pub refused: Option<(u16, String)>,
}

/// The worker's side: limits its own CPU time and memory (before it reads the pack), reads a
/// [`WorkerRequest`] from `input`, checks the pack and writes a [`WorkerAnswer`] to `output`.
pub fn worker_main(
    input: &mut dyn std::io::Read,
    output: &mut dyn std::io::Write,
    summary: Option<Summary>,
) -> std::io::Result<()> {
    use nix::sys::resource::{Resource, setrlimit};
    let mut text = String::new();
    std::io::Read::take(input, (MAX_PLAYGROUND_BODY * 2) as u64).read_to_string(&mut text)?;
    let req: WorkerRequest = serde_json::from_str(&text).map_err(std::io::Error::other)?;
    setrlimit(Resource::RLIMIT_CPU, req.cpu_seconds, req.cpu_seconds + 1)
        .map_err(std::io::Error::other)?;
    setrlimit(Resource::RLIMIT_AS, WORKER_MEMORY, WORKER_MEMORY).map_err(std::io::Error::other)?;
    let answer = match check_now(&req.folder, &req.pack, summary) {
        Ok((report, pack)) => WorkerAnswer {
            report: Some(report),
            resolved: pack.map(|p| p.resolved),
            refused: None,
        },
        Err(r) => WorkerAnswer {
            report: None,
            resolved: None,
            refused: Some((
                r.status,
                r.body["error"].as_str().unwrap_or_default().to_string(),
            )),
        },
    };
    serde_json::to_writer(&mut *output, &answer).map_err(std::io::Error::other)?;
    output.flush()
}

/// Checks a pasted pack in a worker process, killed at `time`: the report, and the pack when
/// it plays (loaded here again from its resolved text, which loaded in the worker).
async fn in_worker(
    worker: &Worker,
    folder: PathBuf,
    req: PastedPack,
    time: Duration,
) -> Result<(PackCheck, Option<Pack>), Refusal> {
    use std::os::unix::process::ExitStatusExt;
    use tokio::io::AsyncWriteExt;
    let failed = |why: String| {
        tracing::error!("pack worker: {why}");
        Refusal::new(500, "the pack's checker could not be run")
    };
    let request = WorkerRequest {
        folder,
        pack: req,
        cpu_seconds: time.as_secs_f64().ceil() as u64 + 1,
    };
    let mut child = tokio::process::Command::new(&worker.program)
        .args(&worker.args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| failed(format!("cannot start {}: {e}", worker.program.display())))?;
    let bytes = serde_json::to_vec(&request).map_err(|e| failed(e.to_string()))?;
    let too_long = || {
        Refusal::new(
            422,
            format!(
                "loading and trying the pack took longer than {:.1} s, the limit for a pasted pack",
                time.as_secs_f64()
            ),
        )
    };
    let run = async {
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(&bytes).await?;
        }
        child.wait_with_output().await
    };
    // Past the deadline the child is dropped, and so killed.
    let out = tokio::time::timeout(time, run)
        .await
        .map_err(|_| too_long())?
        .map_err(|e| failed(e.to_string()))?;
    if !out.status.success() {
        return Err(match out.status.signal() {
            Some(s) if s == nix::libc::SIGXCPU || s == nix::libc::SIGKILL => too_long(),
            _ => Refusal::new(
                422,
                format!(
                    "loading and trying the pack needed more than the {} MiB of memory a pasted                      pack may use (or its checker failed: {})",
                    WORKER_MEMORY / (1024 * 1024),
                    out.status
                ),
            ),
        });
    }
    let answer: WorkerAnswer =
        serde_json::from_slice(&out.stdout).map_err(|e| failed(e.to_string()))?;
    if let Some((status, why)) = answer.refused {
        return Err(Refusal::new(status, why));
    }
    let report = answer
        .report
        .ok_or_else(|| failed("no report".to_string()))?;
    let pack = match answer.resolved {
        Some(text) => Some(
            tokio::task::spawn_blocking(move || crate::games::load_resolved(PASTED_NAME, &text))
                .await
                .map_err(|e| failed(e.to_string()))??,
        ),
        None => None,
    };
    Ok((report, pack))
}

/// Refuses a text too long (413) or nested too deeply (422), before any parser sees it.
pub fn bounds(text: &str) -> Result<(), Refusal> {
    if text.len() > MAX_PACK_TEXT {
        return Err(Refusal::new(
            413,
            format!(
                "the pack is {} bytes; a pasted pack may have at most {MAX_PACK_TEXT}",
                text.len()
            ),
        ));
    }
    let (mut depth, mut deepest) = (0usize, 0usize);
    for b in text.bytes() {
        match b {
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if deepest > MAX_NESTING {
        return Err(Refusal::new(
            422,
            format!(
                "the pack nests `[` and `{{` {deepest} deep; a pasted pack may nest them at most \
                 {MAX_NESTING} deep"
            ),
        ));
    }
    Ok(())
}

/// A diagnostic, located as `ply validate --json` locates it.
pub fn diagnostic(d: &Diagnostic, sources: &Sources) -> PackDiagnostic {
    let mut out = PackDiagnostic {
        severity: match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
        .to_string(),
        message: d.message.clone(),
        file: None,
        line: None,
        column: None,
        end_line: None,
        end_column: None,
        label: d.label.clone(),
        help: d.help.clone(),
        rendered: d.render_with(sources, false),
    };
    if let Some(loc) = d.loc
        && let Some(file) = sources.get(loc.file)
    {
        let (line, column) = sources.line_col(loc.file, loc.start);
        let (end_line, end_column) = sources.line_col(loc.file, loc.end.max(loc.start));
        out.file = Some(file.name.clone());
        out.line = Some(line);
        out.column = Some(column);
        out.end_line = Some(end_line);
        out.end_column = Some(end_column);
    }
    out
}

/// Loads and tries a pasted pack: the report, and the pack when it loads and plays.
fn check_now(
    folder: &std::path::Path,
    req: &PastedPack,
    summary: Option<Summary>,
) -> Result<(PackCheck, Option<Pack>), Refusal> {
    let name = format!("{PASTED_NAME}.toml");
    let options = options_of(&req.options);
    let loaded = catch_unwind(AssertUnwindSafe(|| {
        ply_lang::load_str_confined(&name, &req.text, &options, folder)
    }));
    let failed = |d: PackDiagnostic| PackCheck {
        ok: false,
        diagnostics: vec![d],
        show: None,
        options: Vec::new(),
    };
    let pack = match loaded {
        Err(_) => {
            let d = Diagnostic::error(None, "the loader crashed on this pack");
            return Ok((failed(diagnostic(&d, &Sources::default())), None));
        }
        Ok(Err(e)) => {
            let report = PackCheck {
                ok: false,
                diagnostics: e
                    .diagnostics
                    .iter()
                    .map(|d| diagnostic(d, &e.sources))
                    .collect(),
                show: None,
                options: Vec::new(),
            };
            return Ok((report, None));
        }
        Ok(Ok(p)) => p,
    };
    let core = pack.rules.core();
    for (what, n, max) in [
        ("kinds of piece", core.kind_count(), MAX_KINDS),
        ("move patterns", pack.rules.pattern_count(), MAX_PATTERNS),
        ("zones", core.zones().len(), MAX_ZONES),
    ] {
        if n > max {
            return Err(Refusal::new(
                422,
                format!("the pack has {n} {what}; a pasted pack may have at most {max}"),
            ));
        }
    }
    let mut diagnostics: Vec<PackDiagnostic> = pack
        .warnings
        .iter()
        .map(|d| diagnostic(d, &pack.sources))
        .collect();
    let smoked = smoke(&pack)
        .and_then(|()| check_resolved(PASTED_NAME, &pack).map_err(|r| r.body["error"].to_string()));
    let show = show(&pack, summary);
    let ok = match smoked {
        Ok(()) => true,
        Err(why) => {
            let d = Diagnostic::error(None, format!("the pack loads, but {why}"));
            diagnostics.insert(0, diagnostic(&d, &pack.sources));
            false
        }
    };
    let report = PackCheck {
        ok,
        diagnostics,
        show: Some(show),
        options: pack_options(&pack),
    };
    Ok((report, ok.then_some(pack)))
}

/// `ply show`'s text: the name, the board, the position string, then the summary.
fn show(pack: &Pack, summary: Option<Summary>) -> String {
    let start = Position::start(pack.rules.clone());
    let mut out = format!(
        "{}\n\n{}Position: {}\n",
        pack.rules.core().name(),
        start.render(),
        start.to_position_string()
    );
    if let Some(f) = summary {
        out.push('\n');
        out.push_str(&f(pack));
    }
    out
}

/// Plays the pack a little, as `ply validate` does (fewer games): the start must be a
/// position with a move, its string must read back, and random games must stay within the
/// kernel's limits.
fn smoke(pack: &Pack) -> Result<(), String> {
    let rules = pack.rules.clone();
    let run = catch_unwind(AssertUnwindSafe(|| {
        let mut start = Position::start(rules.clone());
        let text = start.to_position_string();
        match Position::from_position_string(rules.clone(), &text) {
            Ok(back) if back.to_position_string() == text => {}
            _ => {
                return Err(format!(
                    "the start's position string `{text}` does not read back"
                ));
            }
        }
        match start.status() {
            Status::ToMove(_) => {}
            Status::Over(o) => {
                let result = match o {
                    Outcome::Win(p) => format!("{} wins", rules.player_name(p)),
                    Outcome::Draw => "a draw".to_string(),
                };
                return Err(format!(
                    "the game is over before the first move ({result}): check [setup] and [end]"
                ));
            }
            Status::Stuck(p) => {
                return Err(format!(
                    "{} has no legal move in the starting position: check [setup]",
                    rules.player_name(p)
                ));
            }
        }
        let limit =
            |e: ply_kernel::MoveLimit| format!("a position reached in play is refused: {e}");
        let first = start.perft(1).map_err(limit)?;
        if first.saturating_mul(first) <= SMOKE_NODES {
            start.perft(2).map_err(limit)?;
        }
        let mut rng = Rng::new(0x5EED);
        for _ in 0..SMOKE_PLAYOUTS {
            start
                .playout(&mut |n| rng.below(n), SMOKE_MAX_PLIES)
                .map_err(limit)?;
        }
        Ok(())
    }));
    run.unwrap_or_else(|_| Err("playing it crashed the kernel".to_string()))
}

/// Checks a pasted pack within the limits: the report (200), or 413/422/503 with why.
pub async fn check(
    folder: PathBuf,
    req: PastedPack,
    settings: Settings,
) -> Result<PackCheck, Refusal> {
    run_bounded(folder, req, settings).await.map(|(r, _)| r)
}

/// Loads a pasted pack to start a game of it: the pack, or 422 with every problem.
pub async fn load_checked(
    folder: PathBuf,
    req: &PastedPack,
    settings: Settings,
) -> Result<Pack, Refusal> {
    let settings = Settings {
        summary: None,
        ..settings
    };
    let (report, pack) = run_bounded(folder, req.clone(), settings).await?;
    pack.ok_or_else(|| {
        let text: String = report
            .diagnostics
            .iter()
            .filter(|d| d.severity == "error")
            .map(|d| d.rendered.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        Refusal::new(422, format!("the pack cannot be played:\n{text}"))
    })
}

async fn run_bounded(
    folder: PathBuf,
    req: PastedPack,
    settings: Settings,
) -> Result<(PackCheck, Option<Pack>), Refusal> {
    bounds(&req.text)?;
    if let Some(worker) = settings.worker {
        let _permit = CHECKS.acquire().await.map_err(|_| {
            Refusal::new(
                503,
                "the server is checking other packs; try again in a moment",
            )
        })?;
        return in_worker(worker, folder, req, settings.time).await;
    }
    let busy = || {
        Refusal::new(
            503,
            "the server is checking other packs; try again in a moment",
        )
    };
    let work = async {
        let permit = CHECKS.acquire().await.map_err(|_| busy())?;
        let folder = Arc::new(folder);
        let task = tokio::task::spawn_blocking(move || {
            let out = check_now(&folder, &req, settings.summary);
            drop(permit);
            out
        });
        task.await
            .map_err(|_| Refusal::new(500, "checking the pack failed"))?
    };
    match tokio::time::timeout(settings.time, work).await {
        Ok(r) => r,
        Err(_) => Err(Refusal::new(
            422,
            format!(
                "loading and trying the pack took longer than {:.1} s, the limit for a pasted pack",
                settings.time.as_secs_f64()
            ),
        )),
    }
}
