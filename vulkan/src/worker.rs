//! The worker side of the protocol: a process that owns the device, so a
//! driver crash or hang takes down only the worker.

use std::io::{self, Write};
use std::time::Duration;

use crate::device::Device;
use crate::job::JobError;
use crate::protocol::{read_frame, write_frame, Fault, Request, Response};

/// Exit code: stdin reached EOF (the client closed the pipe).
pub const EXIT_OK: i32 = 0;
/// Exit code: a frame could not be read or decoded, or stdout broke.
pub const EXIT_PROTOCOL: i32 = 2;
/// Exit code: the device could not be opened (the answer said why).
pub const EXIT_OPEN_FAILED: i32 = 3;
/// Exit code: a job timed out or lost the device (the answer said which);
/// the device may still be busy, so the worker does not run more jobs.
pub const EXIT_DEVICE_BROKEN: i32 = 4;

/// Bytes the [`Fault::Garbage`] fault writes: not a frame.
const GARBAGE: &[u8] = b"driver chatter on stdout\n";

/// Runs the worker loop on this process's stdin/stdout and returns the
/// process exit code. A binary's `main` calls it, e.g.
/// `std::process::exit(vulkan::worker_main())`.
///
/// It reads [`Request`] frames until EOF and answers each
/// ([`Fault`]s excepted). The device is opened by the first `Hello` (with its
/// selector) or, failing that, by the first job (first device). Driver
/// messages go to stderr, which the client leaves to the caller; stdout
/// carries only frames. The process ends after answering a job that timed
/// out or lost the device ([`EXIT_DEVICE_BROKEN`]) and after a failed open
/// ([`EXIT_OPEN_FAILED`]).
pub fn worker_main() -> i32 {
    let mut stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    let mut device: Option<Device> = None;
    let plan = match planned_faults() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("vk-worker: {FAULTS_VAR}: {e}");
            return EXIT_PROTOCOL;
        }
    };
    let mut jobs = 0usize;
    loop {
        let payload = match read_frame(&mut stdin) {
            Ok(Some(payload)) => payload,
            Ok(None) => return EXIT_OK,
            Err(e) => {
                eprintln!("vk-worker: reading a request: {e}");
                return EXIT_PROTOCOL;
            }
        };
        let request = match Request::decode(&payload) {
            Ok(request) => request,
            Err(e) => {
                eprintln!("vk-worker: decoding a request: {e}");
                return EXIT_PROTOCOL;
            }
        };
        let (response, exit) = match request {
            Request::Hello { selector } => match &device {
                Some(d) => (Response::Hello(Ok(Box::new(d.info().clone()))), None),
                None => match Device::open(selector.as_deref()) {
                    Ok(d) => {
                        let info = Box::new(d.info().clone());
                        device = Some(d);
                        (Response::Hello(Ok(info)), None)
                    }
                    Err(e) => (Response::Hello(Err(e)), Some(EXIT_OPEN_FAILED)),
                },
            },
            Request::Job(job) => {
                jobs += 1;
                if let Some((_, fault)) = plan.at_job.iter().find(|(at, _)| *at == jobs) {
                    inject(*fault, &mut stdout);
                }
                if device.is_none() {
                    match Device::open(None) {
                        Ok(d) => device = Some(d),
                        Err(e) => {
                            let frame = Response::Job(Err(e)).encode();
                            let _ = write_frame(&mut stdout, &frame);
                            return EXIT_OPEN_FAILED;
                        }
                    }
                }
                let d = device.as_mut().expect("opened above");
                let mut result = if plan.reject.contains(&jobs) {
                    Err(JobError::CompileFailed(format!(
                        "rejected as planned by {FAULTS_VAR} (job {jobs} of this worker)"
                    )))
                } else {
                    d.run(&job)
                };
                if let Ok(r) = &mut result {
                    plan.miscompile(&job.spirv, &mut r.buffers);
                }
                let exit = match &result {
                    Err(e) if e.is_fatal_to_device() => Some(EXIT_DEVICE_BROKEN),
                    _ => None,
                };
                (Response::Job(result), exit)
            }
            Request::Fault(fault) => {
                inject(fault, &mut stdout);
                continue;
            }
        };
        if let Err(e) = write_frame(&mut stdout, &response.encode()) {
            eprintln!("vk-worker: writing a response: {e}");
            return EXIT_PROTOCOL;
        }
        if let Some(code) = exit {
            // A broken device is dropped without destroying anything (see
            // `Device`'s Drop); the client kills this process anyway.
            return code;
        }
    }
}

/// The environment variable that plans faults for tests of fault handling
/// in a whole campaign, a comma-separated list:
/// - `abort@3`, `hang@7`, `garbage@2`: every worker process aborts when
///   its 3rd job arrives, hangs at its 7th, writes garbage at its 2nd (a
///   restarted worker counts from 1 again);
/// - `reject@4`: every worker answers its 4th job with a compile failure
///   (as a driver rejecting the module would) without running it;
/// - `miscompile@132`: a simulated miscompile, deterministic whatever the
///   driver: after every job whose module contains an instruction with
///   SPIR-V opcode 132 (`OpIMul`), the lowest bit of every written output
///   record (binding 2: value low word, high word, written flag, pad) is
///   flipped.
///
/// Unset in normal use.
pub const FAULTS_VAR: &str = "SHADERFARM_VK_FAULTS";

/// What [`FAULTS_VAR`] plans.
#[derive(Debug, Default, PartialEq, Eq)]
struct Plan {
    /// (job number, fault).
    at_job: Vec<(usize, Fault)>,
    /// Job numbers answered with a compile failure.
    reject: Vec<usize>,
    /// SPIR-V opcodes whose presence corrupts the outputs.
    miscompile: Vec<u32>,
}

impl Plan {
    /// Applies the planned miscompiles to a finished job's buffers.
    fn miscompile(&self, spirv: &[u32], buffers: &mut [Vec<u32>]) {
        if !self.miscompile.iter().any(|&op| contains_opcode(spirv, op)) {
            return;
        }
        if let Some(outputs) = buffers.get_mut(2) {
            for record in outputs.chunks_exact_mut(4) {
                if record[2] == 1 {
                    record[0] ^= 1;
                }
            }
        }
    }
}

/// Whether a module (header of 5 words, then instructions whose first word
/// is `count << 16 | opcode`) has an instruction with `opcode`.
fn contains_opcode(words: &[u32], opcode: u32) -> bool {
    let mut at = 5;
    while at < words.len() {
        if words[at] & 0xffff == opcode {
            return true;
        }
        at += ((words[at] >> 16) as usize).max(1);
    }
    false
}

/// The faults [`FAULTS_VAR`] plans.
fn planned_faults() -> Result<Plan, String> {
    let Ok(text) = std::env::var(FAULTS_VAR) else {
        return Ok(Plan::default());
    };
    parse_plan(&text)
}

/// Reads a [`FAULTS_VAR`] value.
fn parse_plan(text: &str) -> Result<Plan, String> {
    let mut plan = Plan::default();
    for item in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let (name, at) = item
            .split_once('@')
            .ok_or_else(|| format!("`{item}` is not FAULT@NUMBER"))?;
        let at: usize = at
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("`{at}` is not a number (1, 2, ...)"))?;
        let fault = match name {
            "abort" => Fault::Abort,
            "hang" => Fault::Hang,
            "garbage" => Fault::Garbage,
            "reject" => {
                plan.reject.push(at);
                continue;
            }
            "miscompile" => {
                plan.miscompile.push(at as u32);
                continue;
            }
            other => {
                return Err(format!(
                    "unknown fault `{other}` (abort, hang, garbage, reject, miscompile)"
                ))
            }
        };
        plan.at_job.push((at, fault));
    }
    Ok(plan)
}

/// Makes the requested fault happen.
fn inject(fault: Fault, stdout: &mut impl Write) {
    match fault {
        Fault::Abort => std::process::abort(),
        Fault::Hang => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
        Fault::Exit(code) => std::process::exit(code),
        Fault::Garbage => {
            let _ = stdout.write_all(GARBAGE).and_then(|()| stdout.flush());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fault_plans_parse_or_say_why_not() {
        assert_eq!(
            parse_plan("abort@2, hang@7,miscompile@132,reject@4").unwrap(),
            Plan {
                at_job: vec![(2, Fault::Abort), (7, Fault::Hang)],
                reject: vec![4],
                miscompile: vec![132],
            }
        );
        assert_eq!(parse_plan("").unwrap(), Plan::default());
        assert_eq!(
            parse_plan("explode@1").unwrap_err(),
            "unknown fault `explode` (abort, hang, garbage, reject, miscompile)"
        );
        assert_eq!(
            parse_plan("abort").unwrap_err(),
            "`abort` is not FAULT@NUMBER"
        );
        assert_eq!(
            parse_plan("abort@0").unwrap_err(),
            "`0` is not a number (1, 2, ...)"
        );
    }

    #[test]
    fn a_planned_miscompile_flips_written_outputs_of_matching_modules() {
        let plan = Plan {
            miscompile: vec![132],
            ..Plan::default()
        };
        // Header, then `OpIMul` (4 words: 4 << 16 | 132) among others.
        let with = [
            0x0723_0203,
            0,
            0,
            9,
            0,
            2 << 16 | 17,
            1,
            4 << 16 | 132,
            1,
            2,
            3,
        ];
        let without = [0x0723_0203, 0, 0, 9, 0, 2 << 16 | 17, 132];
        let records = vec![6, 0, 1, 0, 6, 0, 0, 0, 0xff, 0, 1, 0];
        let mut buffers = vec![vec![], vec![], records.clone(), vec![]];
        plan.miscompile(&without, &mut buffers);
        assert_eq!(buffers[2], records, "132 as an operand is not OpIMul");
        plan.miscompile(&with, &mut buffers);
        assert_eq!(buffers[2], [7, 0, 1, 0, 6, 0, 0, 0, 0xfe, 0, 1, 0]);
    }
}
