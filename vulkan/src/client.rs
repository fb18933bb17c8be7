//! [`Runner`]: the farm's side of the worker protocol. It owns one worker
//! process, sends it jobs, and replaces it whenever it crashes, hangs or
//! loses its device, so such a failure costs at most the job that caused it.

use std::io::BufReader;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use crate::info::DeviceInfo;
use crate::job::{ExitInfo, Job, JobError, JobResult};
use crate::protocol::{
    encode_job, read_frame, write_frame, Fault, ProtocolError, Request, Response,
};

/// How a [`Runner`] starts and watches its worker.
#[derive(Clone, Debug)]
pub struct RunnerConfig {
    /// Device selector passed to the worker (see [`crate::Device::open`]).
    pub selector: Option<String>,
    /// Added to a job's timeout to get the deadline for its answer: covers
    /// pipeline creation, transfer and the worker's own bookkeeping. A job
    /// with no answer by then is [`JobError::Timeout`] and the worker is
    /// killed.
    pub grace: Duration,
    /// How long starting a worker and opening its device may take.
    pub open_timeout: Duration,
}

impl Default for RunnerConfig {
    /// First device, 2 s grace, 30 s to open.
    fn default() -> Self {
        RunnerConfig {
            selector: None,
            grace: Duration::from_secs(2),
            open_timeout: Duration::from_secs(30),
        }
    }
}

/// A live worker process and the threads that talk to it.
struct Worker {
    child: Child,
    /// Frames for the writer thread; dropping it closes the worker's stdin.
    requests: Sender<Vec<u8>>,
    /// Payloads from the reader thread; disconnected at the worker's EOF.
    responses: Receiver<Result<Vec<u8>, ProtocolError>>,
}

/// Runs jobs in a child process, restarting it as needed.
///
/// The child is `command` with stdin and stdout replaced by pipes; its stderr
/// is whatever `command` says (inherited by default), so driver messages go
/// to the caller's stderr or log and never mix with the protocol. Anything
/// else about the environment (`MESA_SHADER_CACHE_DISABLE`,
/// `VK_ICD_FILENAMES`) is the caller's to set on `command`.
///
/// Fault handling:
/// - the worker dies while a job is in flight (EOF, broken pipe):
///   [`JobError::Crashed`] with its exit code or signal;
/// - no answer within `job.timeout + grace`: the worker is killed,
///   [`JobError::Timeout`];
/// - the worker answers `Timeout` or `DeviceLost` itself: that answer is
///   returned and the worker is killed (its device is unusable);
/// - stray bytes on the worker's stdout: the worker is killed,
///   [`JobError::Protocol`].
///
/// The next job after any of these starts a new worker, which must open a
/// device with the same [`DeviceInfo`] as the first one. A worker found dead
/// before a job is sent (killed between jobs) is replaced before the job
/// runs, so that job is not lost; [`Runner::idle_deaths`] counts these.
pub struct Runner {
    command: Command,
    config: RunnerConfig,
    info: DeviceInfo,
    worker: Option<Worker>,
    starts: u32,
    idle_deaths: u32,
}

impl Runner {
    /// Starts the worker (`command`, e.g. `current_exe() vk-worker`) and
    /// opens its device. Errors are [`JobError::DeviceOpen`].
    pub fn new(command: Command, config: RunnerConfig) -> Result<Runner, JobError> {
        let mut command = command;
        let (worker, info) = start(&mut command, &config)?;
        Ok(Runner {
            command,
            config,
            info,
            worker: Some(worker),
            starts: 1,
            idle_deaths: 0,
        })
    }

    /// The device the first worker opened (every later one must match).
    pub fn device_info(&self) -> &DeviceInfo {
        &self.info
    }

    /// How many worker processes were started, the first included.
    pub fn starts(&self) -> u32 {
        self.starts
    }

    /// How many workers were found dead (or writing stray output) between
    /// jobs and replaced before the next job was sent.
    pub fn idle_deaths(&self) -> u32 {
        self.idle_deaths
    }

    /// The current worker's process id, if one is running.
    pub fn worker_pid(&self) -> Option<u32> {
        self.worker.as_ref().map(|w| w.child.id())
    }

    /// Runs `job` in the worker (starting one if needed).
    pub fn run(&mut self, job: &Job) -> Result<JobResult, JobError> {
        self.ensure_worker()?;
        let deadline = job.timeout.saturating_add(self.config.grace);
        match self.exchange(encode_job(job), deadline)? {
            Response::Job(result) => {
                if let Err(e) = &result {
                    if e.is_fatal_to_device() || matches!(e, JobError::DeviceOpen(_)) {
                        self.kill();
                    }
                }
                result
            }
            Response::Hello(_) => {
                self.kill();
                Err(JobError::Protocol(
                    "worker answered a job with a hello".to_string(),
                ))
            }
        }
    }

    /// Tells the worker to fail as `fault` says (tests use this to stand in
    /// for a crashing or hanging driver) and returns the error the failure
    /// produced, exactly as a job in flight would have seen it. `timeout`
    /// plays the job's timeout ([`Fault::Hang`] ends after it plus grace).
    pub fn inject(&mut self, fault: Fault, timeout: Duration) -> JobError {
        if let Err(e) = self.ensure_worker() {
            return e;
        }
        let deadline = timeout.saturating_add(self.config.grace);
        match self.exchange(Request::Fault(fault).encode(), deadline) {
            Err(e) => e,
            Ok(_) => {
                self.kill();
                JobError::Protocol("worker answered a fault".to_string())
            }
        }
    }

    /// Starts a worker if there is none or the current one has died.
    fn ensure_worker(&mut self) -> Result<(), JobError> {
        if let Some(w) = &mut self.worker {
            // Between jobs the worker sends nothing: EOF means it is dying
            // (its exit status may lag the EOF a little), and a frame means
            // it broke the protocol. Either way it is replaced.
            let probe = w.responses.try_recv();
            let exited = match w.child.try_wait() {
                Ok(status) => status.is_some(),
                Err(e) => return Err(JobError::Other(format!("waiting on the worker: {e}"))),
            };
            if !exited && matches!(probe, Err(TryRecvError::Empty)) {
                return Ok(());
            }
            let dying = exited || matches!(probe, Err(TryRecvError::Disconnected));
            let mut w = self.worker.take().expect("checked above");
            drop(w.requests);
            let within = if dying {
                Duration::from_secs(2)
            } else {
                Duration::ZERO
            };
            let status = wait_for_exit(&mut w.child, within);
            eprintln!(
                "vulkan runner: worker {} between jobs ({}); restarting",
                if dying { "died" } else { "wrote stray output" },
                ExitInfo::from_status(status)
            );
            self.idle_deaths += 1;
        }
        let (worker, info) = start(&mut self.command, &self.config)?;
        self.starts += 1;
        self.worker = Some(worker);
        if info != self.info {
            self.kill();
            return Err(JobError::DeviceOpen(format!(
                "the restarted worker opened {:?} ({}), not {:?} ({})",
                info.name, info.driver_info, self.info.name, self.info.driver_info
            )));
        }
        Ok(())
    }

    /// Sends one frame and waits for one response, mapping every way the
    /// worker can fail to answer.
    fn exchange(&mut self, frame: Vec<u8>, deadline: Duration) -> Result<Response, JobError> {
        let w = self.worker.as_mut().expect("ensure_worker ran");
        // A send error means the writer thread quit on a broken pipe; the
        // reader then reports the EOF below.
        let _ = w.requests.send(frame);
        match w.responses.recv_timeout(deadline) {
            Ok(Ok(payload)) => Response::decode(&payload).map_err(|e| {
                self.kill();
                JobError::Protocol(e.to_string())
            }),
            // EOF in the middle of a frame: the worker died while answering.
            Ok(Err(ProtocolError::Io(_))) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.reap_crashed())
            }
            Ok(Err(e)) => {
                self.kill();
                Err(JobError::Protocol(e.to_string()))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(JobError::Timeout)
            }
        }
    }

    /// Collects the exit status of a worker whose stdout closed.
    fn reap_crashed(&mut self) -> JobError {
        let Some(mut w) = self.worker.take() else {
            return JobError::Other("no worker".to_string());
        };
        drop(w.requests);
        // The pipe closed, so the process is exiting; give it a moment and
        // then make sure.
        let status = wait_for_exit(&mut w.child, Duration::from_secs(2));
        JobError::Crashed {
            status: ExitInfo::from_status(status),
        }
    }

    /// Kills and reaps the worker, if any.
    fn kill(&mut self) {
        if let Some(mut w) = self.worker.take() {
            drop(w.requests);
            let _ = w.child.kill();
            let _ = w.child.wait();
        }
    }
}

impl Drop for Runner {
    /// Closes the worker's stdin (it exits at EOF) and reaps it, killing it
    /// if it has not exited within a second.
    fn drop(&mut self) {
        if let Some(mut w) = self.worker.take() {
            drop(w.requests);
            wait_for_exit(&mut w.child, Duration::from_secs(1));
        }
    }
}

/// Waits up to `within` for `child` to exit, then kills it; returns its
/// status.
fn wait_for_exit(child: &mut Child, within: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return status,
            Ok(None) if start.elapsed() < within => thread::sleep(Duration::from_millis(1)),
            _ => {
                let _ = child.kill();
                return child.wait().expect("waiting on a killed child");
            }
        }
    }
}

/// Spawns a worker, sends `Hello`, and waits for the device.
fn start(command: &mut Command, config: &RunnerConfig) -> Result<(Worker, DeviceInfo), JobError> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| JobError::DeviceOpen(format!("cannot start the worker {command:?}: {e}")))?;
    let stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");

    let (requests, to_write) = mpsc::channel::<Vec<u8>>();
    thread::Builder::new()
        .name("vk-runner-writer".to_string())
        .spawn(move || {
            let mut stdin = stdin;
            for frame in to_write {
                if write_frame(&mut stdin, &frame).is_err() {
                    break;
                }
            }
            // Dropping stdin here is the worker's EOF.
        })
        .map_err(|e| JobError::Other(format!("spawning a thread: {e}")))?;
    let (sender, responses) = mpsc::channel();
    thread::Builder::new()
        .name("vk-runner-reader".to_string())
        .spawn(move || {
            let mut stdout = BufReader::new(stdout);
            loop {
                match read_frame(&mut stdout) {
                    Ok(Some(payload)) => {
                        if sender.send(Ok(payload)).is_err() {
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        let _ = sender.send(Err(e));
                        break;
                    }
                }
            }
        })
        .map_err(|e| JobError::Other(format!("spawning a thread: {e}")))?;

    let mut worker = Worker {
        child,
        requests,
        responses,
    };
    let hello = Request::Hello {
        selector: config.selector.clone(),
    };
    let _ = worker.requests.send(hello.encode());
    let failure = match worker.responses.recv_timeout(config.open_timeout) {
        Ok(Ok(payload)) => match Response::decode(&payload) {
            Ok(Response::Hello(Ok(info))) => return Ok((worker, *info)),
            Ok(Response::Hello(Err(e))) => e,
            Ok(Response::Job(_)) => {
                JobError::DeviceOpen("the worker answered hello with a job result".to_string())
            }
            Err(e) => JobError::DeviceOpen(format!("the worker's hello answer: {e}")),
        },
        Ok(Err(e)) => JobError::DeviceOpen(format!("the worker's hello answer: {e}")),
        Err(RecvTimeoutError::Timeout) => JobError::DeviceOpen(format!(
            "the worker did not open the device within {:?}",
            config.open_timeout
        )),
        Err(RecvTimeoutError::Disconnected) => {
            drop(worker.requests);
            let status = wait_for_exit(&mut worker.child, Duration::from_secs(2));
            return Err(JobError::DeviceOpen(format!(
                "the worker exited while opening the device ({})",
                ExitInfo::from_status(status)
            )));
        }
    };
    drop(worker.requests);
    let _ = worker.child.kill();
    let _ = worker.child.wait();
    Err(failure)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_runner_can_move_to_another_thread() {
        fn send<T: Send>() {}
        send::<super::Runner>();
        send::<crate::JobError>();
    }
}
