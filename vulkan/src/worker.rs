//! The worker side of the protocol: a process that owns the device, so a
//! driver crash or hang takes down only the worker.

use std::io::{self, Write};
use std::time::Duration;

use crate::device::Device;
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
                let result = d.run(&job);
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
