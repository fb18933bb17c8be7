//! The worker protocol: requests on the worker's stdin, responses on its
//! stdout, one response per request, in order.
//!
//! A frame is `magic: u32 LE = "SFVK"`, `len: u32 LE`, then `len` payload
//! bytes. The magic makes stray bytes on stdout (a driver that prints there)
//! a detected [`ProtocolError`] rather than a misread length.
//!
//! Payloads are a compact little-endian binary encoding: the hot path (jobs
//! and results) is word arrays, which travel as a `u32` count plus raw
//! words, with no per-word formatting. Rare messages (device info, errors)
//! carry serde_json inside a string field. The `throughput` example measures
//! this against serde_json for whole jobs.
//!
//! | payload | tag | fields |
//! |---|---|---|
//! | request Hello | 1 | selector: opt str |
//! | request Job | 2 | spirv: words, entry: str, n: u32, n x words, required size: opt u32, timeout ns: u64 |
//! | request Fault | 3 | kind: u8 (1 abort, 2 hang, 3 exit + code: i32, 4 garbage) |
//! | response Hello ok | 1 | DeviceInfo as JSON: str |
//! | response Hello err | 2 | JobError as JSON: str |
//! | response Job ok | 3 | n: u32, n x words, pipeline/dispatch/total ns: 3 x u64 |
//! | response Job err | 4 | JobError as JSON: str |
//!
//! `words` is `count: u32` then `count` words; `str` is `len: u32` then UTF-8
//! bytes; `opt T` is a `u8` (0 none, 1 some) then `T`.

use std::io::{self, Read, Write};
use std::time::Duration;

use crate::info::DeviceInfo;
use crate::job::{Job, JobError, JobResult, Timings};

/// First four bytes of every frame: `SFVK`.
pub const FRAME_MAGIC: u32 = u32::from_le_bytes(*b"SFVK");

/// Largest payload accepted (a corrupt length must not allocate gigabytes).
pub const MAX_FRAME: usize = 256 << 20;

/// A malformed frame or payload.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    /// Reading or writing the pipe failed (other than a clean EOF).
    #[error("i/o: {0}")]
    Io(#[from] io::Error),
    /// A frame did not start with [`FRAME_MAGIC`].
    #[error("bad frame magic {0:#010x} (stray output on the protocol stream?)")]
    BadMagic(u32),
    /// A frame declared more than [`MAX_FRAME`] bytes.
    #[error("frame of {0} bytes is too large")]
    TooLarge(usize),
    /// The payload does not decode.
    #[error("malformed payload: {0}")]
    Malformed(String),
}

/// A fault the worker injects on request, so tests can make "the driver
/// crashed" and "the driver hung" happen deterministically.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// `std::process::abort()`: dies by SIGABRT without answering.
    Abort,
    /// Sleeps forever without answering.
    Hang,
    /// Exits with this code without answering.
    Exit(i32),
    /// Writes bytes that are not a frame to stdout, then waits for the next
    /// request.
    Garbage,
}

/// What the client asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Open the device (`selector` as in [`crate::Device::open`]) and
    /// report it. Answered by [`Response::Hello`].
    Hello {
        /// Device name substring, or `None` for the first device.
        selector: Option<String>,
    },
    /// Run a job. Answered by [`Response::Job`].
    Job(Job),
    /// Inject a fault (never answered).
    Fault(Fault),
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// The device opened, or why not (boxed: it is large and rare).
    Hello(Result<Box<DeviceInfo>, JobError>),
    /// A job's outcome.
    Job(Result<JobResult, JobError>),
}

/// Starts a frame: header placeholder, payload appended by the caller, then
/// [`finish_frame`].
fn start_frame(tag: u8, capacity: usize) -> Vec<u8> {
    let mut buf = Vec::with_capacity(8 + 1 + capacity);
    buf.extend_from_slice(&FRAME_MAGIC.to_le_bytes());
    buf.extend_from_slice(&[0; 4]);
    buf.push(tag);
    buf
}

/// Fills in the payload length.
fn finish_frame(mut buf: Vec<u8>) -> Vec<u8> {
    let len = (buf.len() - 8) as u32;
    buf[4..8].copy_from_slice(&len.to_le_bytes());
    buf
}

fn put_u32(buf: &mut Vec<u8>, v: u32) {
    buf.extend_from_slice(&v.to_le_bytes());
}

fn put_u64(buf: &mut Vec<u8>, v: u64) {
    buf.extend_from_slice(&v.to_le_bytes());
}

fn put_words(buf: &mut Vec<u8>, words: &[u32]) {
    put_u32(buf, words.len() as u32);
    buf.reserve(4 * words.len());
    for w in words {
        buf.extend_from_slice(&w.to_le_bytes());
    }
}

fn put_str(buf: &mut Vec<u8>, s: &str) {
    put_u32(buf, s.len() as u32);
    buf.extend_from_slice(s.as_bytes());
}

fn put_duration(buf: &mut Vec<u8>, d: Duration) {
    put_u64(buf, u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("protocol types always serialize")
}

/// Bytes of the word arrays, for capacity hints.
fn words_bytes<'a>(arrays: impl Iterator<Item = &'a Vec<u32>>) -> usize {
    arrays.map(|a| 4 + 4 * a.len()).sum()
}

/// Encodes a job request frame (header included) without cloning the job.
pub fn encode_job(job: &Job) -> Vec<u8> {
    let cap =
        4 + 4 * job.spirv.len() + 4 + job.entry.len() + 4 + words_bytes(job.buffers.iter()) + 13;
    let mut buf = start_frame(2, cap);
    put_words(&mut buf, &job.spirv);
    put_str(&mut buf, &job.entry);
    put_u32(&mut buf, job.buffers.len() as u32);
    for b in &job.buffers {
        put_words(&mut buf, b);
    }
    match job.required_subgroup_size {
        None => buf.push(0),
        Some(s) => {
            buf.push(1);
            put_u32(&mut buf, s);
        }
    }
    put_duration(&mut buf, job.timeout);
    finish_frame(buf)
}

impl Request {
    /// The whole frame, header included.
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Request::Hello { selector } => {
                let mut buf = start_frame(1, 8);
                match selector {
                    None => buf.push(0),
                    Some(s) => {
                        buf.push(1);
                        put_str(&mut buf, s);
                    }
                }
                finish_frame(buf)
            }
            Request::Job(job) => encode_job(job),
            Request::Fault(fault) => {
                let mut buf = start_frame(3, 5);
                match fault {
                    Fault::Abort => buf.push(1),
                    Fault::Hang => buf.push(2),
                    Fault::Exit(code) => {
                        buf.push(3);
                        buf.extend_from_slice(&code.to_le_bytes());
                    }
                    Fault::Garbage => buf.push(4),
                }
                finish_frame(buf)
            }
        }
    }

    /// Decodes a payload (the bytes after the frame header).
    pub fn decode(payload: &[u8]) -> Result<Request, ProtocolError> {
        let mut r = Reader { buf: payload };
        let req = match r.u8()? {
            1 => Request::Hello {
                selector: if r.u8()? == 1 {
                    Some(r.string()?)
                } else {
                    None
                },
            },
            2 => {
                let spirv = r.words()?;
                let entry = r.string()?;
                let n = r.u32()? as usize;
                let mut buffers = Vec::with_capacity(n.min(64));
                for _ in 0..n {
                    buffers.push(r.words()?);
                }
                let required_subgroup_size = if r.u8()? == 1 { Some(r.u32()?) } else { None };
                let timeout = Duration::from_nanos(r.u64()?);
                Request::Job(Job {
                    spirv,
                    entry,
                    buffers,
                    required_subgroup_size,
                    timeout,
                })
            }
            3 => Request::Fault(match r.u8()? {
                1 => Fault::Abort,
                2 => Fault::Hang,
                3 => Fault::Exit(r.u32()? as i32),
                4 => Fault::Garbage,
                k => return Err(ProtocolError::Malformed(format!("fault kind {k}"))),
            }),
            t => return Err(ProtocolError::Malformed(format!("request tag {t}"))),
        };
        r.end()?;
        Ok(req)
    }
}

impl Response {
    /// The whole frame, header included.
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Response::Hello(Ok(info)) => {
                let s = json(info);
                let mut buf = start_frame(1, 4 + s.len());
                put_str(&mut buf, &s);
                finish_frame(buf)
            }
            Response::Hello(Err(e)) => {
                let s = json(e);
                let mut buf = start_frame(2, 4 + s.len());
                put_str(&mut buf, &s);
                finish_frame(buf)
            }
            Response::Job(Ok(result)) => {
                let mut buf = start_frame(3, 4 + words_bytes(result.buffers.iter()) + 24);
                put_u32(&mut buf, result.buffers.len() as u32);
                for b in &result.buffers {
                    put_words(&mut buf, b);
                }
                put_duration(&mut buf, result.timings.pipeline_create);
                put_duration(&mut buf, result.timings.dispatch);
                put_duration(&mut buf, result.timings.total);
                finish_frame(buf)
            }
            Response::Job(Err(e)) => {
                let s = json(e);
                let mut buf = start_frame(4, 4 + s.len());
                put_str(&mut buf, &s);
                finish_frame(buf)
            }
        }
    }

    /// Decodes a payload (the bytes after the frame header).
    pub fn decode(payload: &[u8]) -> Result<Response, ProtocolError> {
        let mut r = Reader { buf: payload };
        let resp = match r.u8()? {
            1 => Response::Hello(Ok(r.json()?)),
            2 => Response::Hello(Err(r.json()?)),
            3 => {
                let n = r.u32()? as usize;
                let mut buffers = Vec::with_capacity(n.min(64));
                for _ in 0..n {
                    buffers.push(r.words()?);
                }
                let timings = Timings {
                    pipeline_create: Duration::from_nanos(r.u64()?),
                    dispatch: Duration::from_nanos(r.u64()?),
                    total: Duration::from_nanos(r.u64()?),
                };
                Response::Job(Ok(JobResult { buffers, timings }))
            }
            4 => Response::Job(Err(r.json()?)),
            t => return Err(ProtocolError::Malformed(format!("response tag {t}"))),
        };
        r.end()?;
        Ok(resp)
    }
}

/// A cursor over a payload.
struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ProtocolError> {
        if self.buf.len() < n {
            return Err(ProtocolError::Malformed(format!(
                "needed {n} more bytes, {} left",
                self.buf.len()
            )));
        }
        let (head, tail) = self.buf.split_at(n);
        self.buf = tail;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8, ProtocolError> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, ProtocolError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> Result<u64, ProtocolError> {
        let b = self.take(8)?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    fn words(&mut self) -> Result<Vec<u32>, ProtocolError> {
        let n = self.u32()? as usize;
        let bytes = self.take(
            n.checked_mul(4)
                .ok_or_else(|| ProtocolError::Malformed(format!("word count {n} overflows")))?,
        )?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    fn string(&mut self) -> Result<String, ProtocolError> {
        let n = self.u32()? as usize;
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec())
            .map_err(|e| ProtocolError::Malformed(format!("string: {e}")))
    }

    fn json<T: serde::de::DeserializeOwned>(&mut self) -> Result<T, ProtocolError> {
        let s = self.string()?;
        serde_json::from_str(&s).map_err(|e| ProtocolError::Malformed(format!("json: {e}")))
    }

    fn end(&self) -> Result<(), ProtocolError> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(ProtocolError::Malformed(format!(
                "{} trailing bytes",
                self.buf.len()
            )))
        }
    }
}

/// Reads one frame's payload. `Ok(None)` on a clean EOF before the frame.
pub fn read_frame(r: &mut impl Read) -> Result<Option<Vec<u8>>, ProtocolError> {
    let mut header = [0u8; 8];
    let mut got = 0;
    while got < header.len() {
        match r.read(&mut header[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(io::Error::from(io::ErrorKind::UnexpectedEof).into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    let magic = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
    if magic != FRAME_MAGIC {
        return Err(ProtocolError::BadMagic(magic));
    }
    let len = u32::from_le_bytes([header[4], header[5], header[6], header[7]]) as usize;
    if len > MAX_FRAME {
        return Err(ProtocolError::TooLarge(len));
    }
    let mut payload = vec![0; len];
    r.read_exact(&mut payload)?;
    Ok(Some(payload))
}

/// Writes a whole frame (from an `encode`) and flushes.
pub fn write_frame(w: &mut impl Write, frame: &[u8]) -> io::Result<()> {
    w.write_all(frame)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::ExitInfo;

    fn round_trip_request(req: Request) {
        let frame = req.encode();
        let payload = read_frame(&mut &frame[..]).unwrap().unwrap();
        assert_eq!(Request::decode(&payload).unwrap(), req);
    }

    #[test]
    fn requests_round_trip() {
        round_trip_request(Request::Hello { selector: None });
        round_trip_request(Request::Hello {
            selector: Some("llvmpipe".to_string()),
        });
        round_trip_request(Request::Job(Job {
            spirv: vec![0x0723_0203, 0x10300, 7, 42, 0, 0xffff_ffff],
            entry: "main".to_string(),
            buffers: vec![vec![1, 2, 3], vec![], vec![0; 5], vec![u32::MAX]],
            required_subgroup_size: Some(8),
            timeout: Duration::from_millis(1500),
        }));
        for fault in [Fault::Abort, Fault::Hang, Fault::Exit(-3), Fault::Garbage] {
            round_trip_request(Request::Fault(fault));
        }
    }

    #[test]
    fn responses_round_trip() {
        let cases = [
            Response::Job(Ok(JobResult {
                buffers: vec![vec![9, 8], vec![], vec![7; 3], vec![0x8000_0000]],
                timings: Timings {
                    pipeline_create: Duration::from_nanos(123),
                    dispatch: Duration::from_micros(456),
                    total: Duration::from_millis(789),
                },
            })),
            Response::Job(Err(JobError::CompileFailed("boom".to_string()))),
            Response::Job(Err(JobError::Crashed {
                status: ExitInfo {
                    code: None,
                    signal: Some(9),
                },
            })),
            Response::Hello(Err(JobError::DeviceOpen("none".to_string()))),
        ];
        for resp in cases {
            let frame = resp.encode();
            let payload = read_frame(&mut &frame[..]).unwrap().unwrap();
            assert_eq!(Response::decode(&payload).unwrap(), resp);
        }
    }

    #[test]
    fn the_job_frame_layout_is_as_documented() {
        let frame = encode_job(&Job {
            spirv: vec![0x0723_0203],
            entry: "m".to_string(),
            buffers: vec![vec![5]],
            required_subgroup_size: None,
            timeout: Duration::from_nanos(2),
        });
        let expect: Vec<u8> = [
            &b"SFVK"[..],
            &35u32.to_le_bytes(),
            &[2],
            &1u32.to_le_bytes(),
            &0x0723_0203u32.to_le_bytes(),
            &1u32.to_le_bytes(),
            b"m",
            &1u32.to_le_bytes(),
            &1u32.to_le_bytes(),
            &5u32.to_le_bytes(),
            &[0],
            &2u64.to_le_bytes(),
        ]
        .concat();
        assert_eq!(frame, expect);
    }

    #[test]
    fn bad_frames_are_errors_not_misreads() {
        let mut garbage = &b"hello world, not a frame"[..];
        assert!(matches!(
            read_frame(&mut garbage),
            Err(ProtocolError::BadMagic(0x6c6c_6568))
        ));
        let mut empty = &b""[..];
        assert!(read_frame(&mut empty).unwrap().is_none());
        let mut cut = &b"SFVK\x10\0\0\0abc"[..];
        assert!(matches!(read_frame(&mut cut), Err(ProtocolError::Io(_))));
        let mut huge = &b"SFVK\xff\xff\xff\xff"[..];
        assert!(matches!(
            read_frame(&mut huge),
            Err(ProtocolError::TooLarge(0xffff_ffff))
        ));
        assert!(matches!(
            Request::decode(&[2, 200, 0, 0, 0]),
            Err(ProtocolError::Malformed(_))
        ));
        assert!(matches!(
            Request::decode(&[1, 0, 99]),
            Err(ProtocolError::Malformed(m)) if m == "1 trailing bytes"
        ));
    }
}
