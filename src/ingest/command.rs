//! Decks read from the output of programs run by the tool: `jobs` copies of a
//! command, each asked for its share of the decks with its own seed, read in
//! parallel (one thread per worker) and merged in worker order.

use super::driver::{Chunker, EAGER_BLOCK, Fail, Source, Streams, Truncated};
use super::{Decks, Ingested, Items, Options, Plan, Resume, ingest};
use crate::error::{Error, ErrorKind, Result};
use crate::pacing::Progress;
use crate::source::splitmix64;
use crate::tally::Tally;
#[cfg(unix)]
use libc::{SIGKILL, SIGTERM};
use std::collections::VecDeque;
use std::io::Read;
#[cfg(unix)]
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A command to run for decks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSpec {
    /// Run by `sh -c` after substituting `{n}`, `{count}`, `{seed}` and
    /// `{worker}` (see [`substitute`]). It must print `{count}` decks of
    /// `{n}` items to stdout (more are fine: reading stops at the share).
    pub template: String,
    /// Copies run at once, each with its own seed and share of the decks.
    pub jobs: usize,
    /// A worker that prints nothing for this long is killed and the run
    /// fails (`--cmd-timeout`).
    pub timeout: Duration,
}

/// One worker as run: what it was asked for and the exact command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerRun {
    /// Its number, from 0.
    pub worker: usize,
    /// Its `{seed}`: [`worker_seed`] of the run's seed.
    pub seed: u64,
    /// Its `{count}`: its share of the decks ([`shares`]).
    pub count: u64,
    /// The command after substitution.
    pub command: String,
}

/// The `{seed}` of worker `worker` of a run seeded `seed`: the high 32 bits
/// of output number `worker` (from 0) of a SplitMix64 generator started at
/// `seed`, that is `splitmix64(seed + worker * 0x9E3779B97F4A7C15) >> 32`.
///
/// Stable (part of the reproducibility contract: a program deterministic for
/// its seed gives the same decks on a rerun), different for every worker,
/// and below 2^32 so that every language's seeding function accepts it
/// (numpy's legacy `seed`, C's `srand`, Java's `int`, JavaScript numbers).
pub fn worker_seed(seed: u64, worker: usize) -> u64 {
    splitmix64(seed.wrapping_add((worker as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))) >> 32
}

/// Each worker's share of `trials` decks: `trials / jobs`, plus one for the
/// first `trials % jobs` workers. The shares sum to `trials`; workers with a
/// share of 0 (when `trials < jobs`) are not started.
pub fn shares(trials: u64, jobs: usize) -> Vec<u64> {
    let jobs = jobs.max(1) as u64;
    (0..jobs)
        .map(|w| trials / jobs + u64::from(w < trials % jobs))
        .collect()
}

/// Whether `template` uses `{n}` (or its spelling `{N}`), so that n must be
/// known before the command runs.
pub fn uses_n(template: &str) -> bool {
    template.contains("{n}") || template.contains("{N}")
}

/// `template` with `{n}`, `{count}`, `{seed}` and `{worker}` replaced.
/// `{N}` means `{n}` too: command-line help cannot display `{n}` (clap
/// turns it into a line break), so the help spells it `{N}`.
pub fn substitute(template: &str, n: usize, count: u64, seed: u64, worker: usize) -> String {
    template
        .replace("{n}", &n.to_string())
        .replace("{N}", &n.to_string())
        .replace("{count}", &count.to_string())
        .replace("{seed}", &seed.to_string())
        .replace("{worker}", &worker.to_string())
}

/// The workers a run would start (those with a share above 0), with their
/// seeds, shares and commands: what [`run_command`] runs, for showing first.
pub fn worker_runs(cmd: &CommandSpec, n: usize, trials: u64, seed: u64) -> Vec<WorkerRun> {
    shares(trials, cmd.jobs)
        .into_iter()
        .enumerate()
        .filter(|&(_, count)| count > 0)
        .map(|(worker, count)| {
            let seed = worker_seed(seed, worker);
            WorkerRun {
                worker,
                seed,
                count,
                command: substitute(&cmd.template, n, count, seed, worker),
            }
        })
        .collect()
}

/// Runs `cmd.jobs` copies of the command and counts `trials` decks of `n`
/// items from their stdout; with `n` = `None`, of as many items as the first
/// deck holds (as when reading a file), which every worker must print (a
/// template using `{n}` is then refused: it would have no value to give).
///
/// Worker w runs `sh -c` on the template with `{seed}` = [`worker_seed`]`(seed,
/// w)` and `{count}` = its share, in its own process group, with stdin
/// closed. Its stdout is parsed as `opts.format` (text or binary, `opts.n`
/// must be `n` or unset; `opts.max_records` is ignored: `trials` is the
/// count).
/// Once it has given its share the tool stops reading and ends its whole
/// process group (SIGTERM, then SIGKILL after half a second). A worker's
/// output is one stream of deals for the serial test (its triples run on
/// across the blocks its pipe happens to be read in, and never into another
/// worker's decks), so a worker's tally, serial counts included, depends
/// only on its command and seed, not on timing; tallies are merged in
/// worker order, so a program deterministic for its seed gives identical
/// counts, and every test the same statistic and p-value, on a rerun.
/// `progress` receives deck counts as they arrive.
///
/// The run fails, after ending every other worker, if a worker cannot be
/// started, prints a bad line, prints nothing for `cmd.timeout`, exits with
/// a failure status before giving its share, or exits successfully having
/// printed fewer decks than its share (an error too: the shares were meant
/// to add up to `trials`, and a short count usually means the program
/// ignored `{count}` or died quietly). Messages name the worker and its
/// command, and end with the last lines of its stderr. The workers must also
/// all print the same items (with the same base for integers).
pub fn run_command(
    cmd: &CommandSpec,
    n: Option<usize>,
    trials: u64,
    seed: u64,
    opts: &Options<Decks>,
    progress: Progress<'_>,
) -> Result<(Ingested<Tally, Items>, Vec<WorkerRun>)> {
    if cmd.template.trim().is_empty() {
        return Err(Error::bad_input("the command is empty"));
    }
    if cmd.jobs == 0 {
        return Err(Error::out_of_range("jobs must be at least 1 (got 0)"));
    }
    if trials == 0 {
        return Err(Error::out_of_range("trials must be at least 1 (got 0)"));
    }
    if let (Some(m), Some(n)) = (opts.n, n)
        && m != n
    {
        return Err(Error::out_of_range(format!(
            "n = {m} was given for the decks but the command is run with n = {n}"
        )));
    }
    if n.is_none() && uses_n(&cmd.template) {
        return Err(Error::unsupported(format!(
            "the command uses {{n}} but no n was given: {}",
            cmd.template
        )));
    }
    if let Some(n) = n {
        crate::values::check_n(n)?;
    }
    let opts = Options {
        n,
        max_records: None,
        ..opts.clone()
    };
    let plan = Plan::new(&opts)?;
    // Without {n} in the template the value substituted is never used.
    let runs = worker_runs(cmd, n.unwrap_or(0), trials, seed);
    let read = |src: &mut dyn Source, count: u64| {
        ingest(
            src,
            "stdout",
            &opts,
            &plan,
            count,
            Streams::Whole,
            false,
            progress,
            Resume::default(),
        )
    };
    let results = run_workers(cmd, &runs, plan.record, Unit::DECK, &read)?;
    let first = &results[0];
    let n = first.tally.n();
    for (run, result) in runs.iter().zip(&results).skip(1) {
        if result.tally.n() != n {
            return Err(Error::bad_input(format!(
                "worker {} ({}): its decks hold {} items but worker 0's hold {n}: all workers \
                 must print decks of the same size",
                run.worker,
                run.command,
                result.tally.n()
            )));
        }
        if result.items != first.items {
            return Err(Error::bad_input(format!(
                "worker {} ({}): its decks hold {} but worker 0's hold {}: all workers must \
                 print the same items",
                run.worker,
                run.command,
                result.items.describe(n),
                first.items.describe(n)
            )));
        }
    }
    let mut tally = Tally::collecting(n, opts.reading.collect_at(n));
    for result in &results {
        tally.merge(&result.tally);
    }
    let ingested = Ingested {
        tally,
        counted: results.iter().map(|r| r.counted).sum(),
        items: first.items.clone(),
        stopped_early: false,
    };
    Ok((ingested, runs))
}

/// What a worker reads: decks or samples, named in its messages.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Unit {
    /// `deck`, `sample`.
    pub one: &'static str,
    /// `decks`, `samples`.
    pub many: &'static str,
}

impl Unit {
    /// Shuffled decks.
    pub(crate) const DECK: Unit = Unit {
        one: "deck",
        many: "decks",
    };

    /// Samples.
    pub(crate) const SAMPLE: Unit = Unit {
        one: "sample",
        many: "samples",
    };

    fn of(self, count: u64) -> &'static str {
        if count == 1 { self.one } else { self.many }
    }
}

/// How one worker's output is read: from its stdout cut into blocks
/// (`record`-byte records, or lines when `None`), counting at most the
/// share it is given.
pub(crate) type ReadShare<'a, T, M> =
    dyn Fn(&mut dyn Source, u64) -> Result<Ingested<T, M>, Fail> + Sync + 'a;

/// Runs the workers `runs` of `cmd` at once, each read by `read`, and
/// returns their results in worker order; the first failure ends every
/// other worker and is returned (see [`run_command`] for the rules).
pub(crate) fn run_workers<T: Send, M: Send>(
    cmd: &CommandSpec,
    runs: &[WorkerRun],
    record: Option<usize>,
    unit: Unit,
    read: &ReadShare<'_, T, M>,
) -> Result<Vec<Ingested<T, M>>> {
    let abort = AtomicBool::new(false);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let results: Vec<Option<Ingested<T, M>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = runs
            .iter()
            .map(|run| {
                let (abort, failure) = (&abort, &failure);
                scope.spawn(move || {
                    let worker = Worker {
                        run,
                        record,
                        unit,
                        read,
                        timeout: cmd.timeout,
                        abort,
                    };
                    match worker.run() {
                        Ok(result) => Some(result),
                        Err(Ended::Failed(error)) => {
                            let mut first = failure.lock().unwrap_or_else(|e| e.into_inner());
                            first.get_or_insert(error);
                            abort.store(true, Ordering::SeqCst);
                            None
                        }
                        Err(Ended::Aborted) => None,
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(None))
            .collect()
    });
    if let Some(error) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error);
    }
    results
        .into_iter()
        .map(|r| {
            r.ok_or_else(|| Error::of_kind(ErrorKind::Other, "a worker stopped without saying why"))
        })
        .collect()
}

/// How a worker ended, short of success.
enum Ended {
    /// It failed: the run fails with this.
    Failed(Error),
    /// It was stopped because another worker failed.
    Aborted,
}

/// The watchdog's verdict.
const QUIET: u8 = 0;
const TIMED_OUT: u8 = 1;
const ABORTED: u8 = 2;

/// When a worker's stdout last brought bytes.
struct Activity {
    start: Instant,
    last_ms: AtomicU64,
}

impl Activity {
    fn touch(&self) {
        self.last_ms
            .store(self.start.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    fn idle(&self) -> Duration {
        let now = self.start.elapsed().as_millis() as u64;
        Duration::from_millis(now.saturating_sub(self.last_ms.load(Ordering::Relaxed)))
    }
}

/// A reader that records when it last read something.
struct Tracked<'a, R> {
    inner: R,
    activity: &'a Activity,
}

impl<R: Read> Read for Tracked<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.inner.read(buf)?;
        if k > 0 {
            self.activity.touch();
        }
        Ok(k)
    }
}

/// The last lines a child wrote to stderr.
#[derive(Default)]
struct Tail {
    lines: VecDeque<String>,
    partial: Vec<u8>,
}

/// Lines of stderr kept, and characters kept per line.
const TAIL_LINES: usize = 20;
const TAIL_WIDTH: usize = 300;

impl Tail {
    fn push_line(&mut self, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        let text = text.trim_end_matches('\r');
        let mut kept: String = text.chars().take(TAIL_WIDTH).collect();
        if text.chars().count() > TAIL_WIDTH {
            kept.push('…');
        }
        if self.lines.len() == TAIL_LINES {
            self.lines.pop_front();
        }
        self.lines.push_back(kept);
    }

    fn push(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            let mut line = std::mem::take(&mut self.partial);
            line.extend_from_slice(&rest[..i]);
            self.push_line(&line);
            rest = &rest[i + 1..];
        }
        let room = (4 * TAIL_WIDTH).saturating_sub(self.partial.len());
        self.partial
            .extend_from_slice(&rest[..rest.len().min(room)]);
    }

    fn finish(&mut self) {
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.push_line(&line);
        }
    }

    /// `; its stderr ends:\n    line...`, or a note that it was empty.
    fn render(&self) -> String {
        if self.lines.is_empty() {
            return "; it wrote nothing to stderr".to_string();
        }
        let mut out = String::from("; its stderr ends:");
        for line in &self.lines {
            out.push_str("\n    ");
            out.push_str(line);
        }
        out
    }
}

/// Sends `signal` to the whole process group `pgid`.
fn signal_group(pgid: i32, signal: i32) {
    // SAFETY: kill(2) with a negative pid signals a process group; it has no
    // memory-safety preconditions.
    #[cfg(unix)]
    unsafe {
        libc::kill(-pgid, signal);
    }
    #[cfg(not(unix))]
    let _ = (pgid, signal);
}

/// The signals' numbers where there are no signals (WebAssembly, which
/// cannot run programs: the library compiles there without this feature).
#[cfg(not(unix))]
const SIGTERM: i32 = 15;
#[cfg(not(unix))]
const SIGKILL: i32 = 9;

/// Ends a child's process group (SIGTERM, then SIGKILL after half a second)
/// and reaps the child.
fn terminate(child: &mut Child, pgid: i32) -> Option<ExitStatus> {
    signal_group(pgid, SIGTERM);
    let deadline = Instant::now() + Duration::from_millis(500);
    let mut status = None;
    while Instant::now() < deadline {
        match child.try_wait() {
            Ok(Some(s)) => {
                status = Some(s);
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break,
        }
    }
    // Also ends members of the group that ignored SIGTERM.
    signal_group(pgid, SIGKILL);
    status.or_else(|| child.wait().ok())
}

/// `status 3` or `signal 9`.
fn describe_status(status: ExitStatus) -> String {
    #[cfg(unix)]
    let signal = status.signal();
    #[cfg(not(unix))]
    let signal: Option<i32> = None;
    match (status.code(), signal) {
        (Some(code), _) => format!("status {code}"),
        (None, Some(signal)) => format!("signal {signal}"),
        _ => status.to_string(),
    }
}

/// `60 s`, `1.5 s` (a whole number of seconds has no fraction).
fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// One worker: runs its command and counts its share.
struct Worker<'a, T, M> {
    run: &'a WorkerRun,
    record: Option<usize>,
    unit: Unit,
    read: &'a ReadShare<'a, T, M>,
    timeout: Duration,
    abort: &'a AtomicBool,
}

impl<T, M> Worker<'_, T, M> {
    fn label(&self) -> String {
        format!("worker {} ({})", self.run.worker, self.run.command)
    }

    fn fail(&self, message: String) -> Ended {
        Ended::Failed(Error::bad_input(format!("{}: {message}", self.label())))
    }

    fn run(&self) -> Result<Ingested<T, M>, Ended> {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(&self.run.command)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        command.process_group(0);
        let mut child = command.spawn().map_err(|e| {
            Ended::Failed(Error::io(format!(
                "{}: cannot start `sh -c`: {e}",
                self.label()
            )))
        })?;
        let pgid = child.id() as i32;
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");

        // Stderr is read by a thread of its own, not joined: a grandchild
        // that escaped the process group may keep it open forever.
        let tail = Arc::new(Mutex::new(Tail::default()));
        let (tail_done_tx, tail_done) = mpsc::channel::<()>();
        {
            let tail = Arc::clone(&tail);
            std::thread::spawn(move || {
                let mut buf = [0u8; 8192];
                while let Ok(k) = stderr.read(&mut buf) {
                    if k == 0 {
                        break;
                    }
                    tail.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(&buf[..k]);
                }
                tail.lock().unwrap_or_else(|e| e.into_inner()).finish();
                drop(tail_done_tx);
            });
        }
        let stderr_tail = || {
            let _ = tail_done.recv_timeout(Duration::from_secs(1));
            tail.lock().unwrap_or_else(|e| e.into_inner()).render()
        };

        let activity = Activity {
            start: Instant::now(),
            last_ms: AtomicU64::new(0),
        };
        let verdict = AtomicU8::new(QUIET);
        let (done_tx, done_rx) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let (activity, verdict, abort, timeout) =
                (&activity, &verdict, self.abort, self.timeout);
            scope.spawn(move || {
                let tick = (timeout / 4).clamp(Duration::from_millis(1), Duration::from_millis(50));
                loop {
                    match done_rx.recv_timeout(tick) {
                        Err(RecvTimeoutError::Timeout) => {}
                        _ => return,
                    }
                    let fired = if abort.load(Ordering::SeqCst) {
                        ABORTED
                    } else if activity.idle() >= timeout {
                        TIMED_OUT
                    } else {
                        continue;
                    };
                    verdict.store(fired, Ordering::SeqCst);
                    signal_group(pgid, SIGTERM);
                    if let Err(RecvTimeoutError::Timeout) =
                        done_rx.recv_timeout(Duration::from_millis(500))
                    {
                        signal_group(pgid, SIGKILL);
                    }
                    return;
                }
            });

            let reader = Tracked {
                inner: stdout,
                activity,
            };
            let mut src = Chunker::new(reader, EAGER_BLOCK, self.record, true);
            let read = (self.read)(&mut src, self.run.count);
            // Closing our end makes a child still writing get EPIPE.
            drop(src);
            let outcome = self.settle(read, &mut child, pgid, verdict, &stderr_tail);
            drop(done_tx);
            outcome
        })
    }

    /// Decides how the worker ended once its output was read.
    fn settle(
        &self,
        read: Result<Ingested<T, M>, Fail>,
        child: &mut Child,
        pgid: i32,
        verdict: &AtomicU8,
        stderr_tail: &dyn Fn() -> String,
    ) -> Result<Ingested<T, M>, Ended> {
        let count = self.run.count;
        let fired = || verdict.load(Ordering::SeqCst);
        let timed_out = || {
            self.fail(format!(
                "no output for {} (--cmd-timeout){}",
                seconds(self.timeout),
                stderr_tail()
            ))
        };
        let (decks, problem) = match read {
            Ok(result) if result.counted >= count => {
                terminate(child, pgid);
                return Ok(result);
            }
            Ok(result) => (result.counted, None),
            Err(fail) if fail.truncated == Truncated::Empty => (fail.decks, None),
            Err(fail) if fail.truncated == Truncated::MidDeck => (fail.decks, Some(fail.error)),
            Err(fail) => {
                terminate(child, pgid);
                return Err(match fired() {
                    TIMED_OUT => timed_out(),
                    ABORTED => Ended::Aborted,
                    _ => {
                        // Stderr is worth showing with a bad line only if
                        // the program said something.
                        let tail = stderr_tail();
                        let tail = if tail.starts_with("; its") {
                            tail
                        } else {
                            String::new()
                        };
                        self.fail(format!("{}{tail}", fail.error))
                    }
                });
            }
        };
        // The output ended early: wait for the child (the watchdog still
        // ends it if it hangs) and say how it ended.
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if fired() == QUIET => std::thread::sleep(Duration::from_millis(5)),
                _ => break terminate(child, pgid),
            }
        };
        signal_group(pgid, SIGKILL);
        match fired() {
            TIMED_OUT => return Err(timed_out()),
            ABORTED => return Err(Ended::Aborted),
            _ => {}
        }
        let status = status.map_or("an unknown status".to_string(), describe_status);
        let exited_ok = status == "status 0";
        Err(match problem {
            Some(error) if exited_ok => self.fail(error.to_string()),
            _ if exited_ok => self.fail(format!(
                "exited with status 0 after printing only {decks} of its {count} {}{}",
                self.unit.many,
                stderr_tail()
            )),
            _ => self.fail(format!(
                "exited with {status} after {decks} {}{}",
                self.unit.of(decks),
                stderr_tail()
            )),
        })
    }
}
