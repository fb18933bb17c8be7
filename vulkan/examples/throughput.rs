//! Jobs per second through the worker, for distinct small shaders.
//!
//! ```text
//! MESA_SHADER_CACHE_DISABLE=true cargo run --release -p vulkan --example throughput -- \
//!     [--jobs 300] [--lanes 64] [--ops 0] [--workers 1] [--selector llvmpipe]
//! ```
//!
//! Every job is a distinct module (a constant patched per job, so nothing can
//! be cached), `--lanes` invocations, and `--ops` extra dependent integer
//! operations per lane (0: just the ABI's lane records and a copy). Each job's
//! results are checked. `--workers W` runs W runners (W worker processes) on
//! W threads. The example re-executes itself as the worker
//! (`throughput vk-worker`), the way the farm does. Needs `spirv-as`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use vulkan::{protocol, Job, Runner, RunnerConfig, Timings};

/// The sentinel constant patched per job.
const SENTINEL: u32 = 0x5EED_5EED;

struct Args {
    jobs: usize,
    lanes: u32,
    ops: usize,
    workers: usize,
    selector: Option<String>,
}

fn parse_args() -> Args {
    let mut args = Args {
        jobs: 300,
        lanes: 64,
        ops: 0,
        workers: 1,
        selector: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--jobs" => args.jobs = value().parse().expect("--jobs N"),
            "--lanes" => args.lanes = value().parse().expect("--lanes N"),
            "--ops" => args.ops = value().parse().expect("--ops N"),
            "--workers" => args.workers = value().parse().expect("--workers N"),
            "--selector" => args.selector = Some(value()),
            other => panic!("unknown argument {other}"),
        }
    }
    args
}

/// Per-job numbers one runner collected.
#[derive(Default)]
struct Samples {
    timings: Vec<Timings>,
    /// Client-side wall time per job (encode, pipes, decode included).
    wall: Vec<Duration>,
}

fn run_worker(args: &Args, template: &[u32], first: u32) -> Samples {
    let mut command = Command::new(std::env::current_exe().expect("own path"));
    command.arg("vk-worker");
    let config = RunnerConfig {
        selector: args.selector.clone(),
        ..RunnerConfig::default()
    };
    let mut runner = Runner::new(command, config).expect("start the worker");
    let mut samples = Samples::default();
    let n = args.lanes as usize;
    for j in 0..args.jobs as u32 {
        let k = first + j;
        let mut spirv = template.to_vec();
        common::patch_constant(&mut spirv, SENTINEL, k);
        let job = common::abi_job(spirv, n, j);
        let start = Instant::now();
        let result = runner.run(&job).unwrap_or_else(|e| panic!("job {j}: {e}"));
        samples.wall.push(start.elapsed());
        samples.timings.push(result.timings);
        for i in 0..n {
            let x = 100 + i as u32;
            let expect = if args.ops == 0 {
                x.wrapping_add(j).wrapping_add(k)
            } else {
                common::chain_expect(x, j, args.ops, k)
            };
            assert_eq!(result.buffers[2][4 * i], expect, "job {j} lane {i}");
        }
    }
    assert_eq!(
        runner.starts(),
        1,
        "a worker restarted during the benchmark"
    );
    samples
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Mean, median and 90th percentile in ms.
fn summary(mut v: Vec<Duration>) -> String {
    v.sort();
    let mean = v.iter().sum::<Duration>() / v.len() as u32;
    let p = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    format!(
        "mean {:7.3} ms  p50 {:7.3} ms  p90 {:7.3} ms",
        ms(mean),
        ms(p(0.5)),
        ms(p(0.9))
    )
}

/// Encode + decode cost of a job request, binary framing vs serde_json.
fn protocol_costs(job: &Job) {
    let rounds = 200;
    let start = Instant::now();
    let mut bytes = 0;
    for _ in 0..rounds {
        let frame = protocol::encode_job(job);
        bytes = frame.len();
        let payload = protocol::read_frame(&mut &frame[..]).unwrap().unwrap();
        let decoded = protocol::Request::decode(&payload).unwrap();
        std::hint::black_box(decoded);
    }
    let binary = start.elapsed() / rounds;
    let start = Instant::now();
    let mut json_bytes = 0;
    for _ in 0..rounds {
        let text = serde_json::to_vec(job).unwrap();
        json_bytes = text.len();
        let decoded: Job = serde_json::from_slice(&text).unwrap();
        std::hint::black_box(decoded);
    }
    let json = start.elapsed() / rounds;
    println!(
        "protocol, one request ({} spirv words, {} buffer words): binary {} B in {:.1} us, \
         serde_json {} B in {:.1} us (encode + decode)",
        job.spirv.len(),
        job.buffers.iter().map(Vec::len).sum::<usize>(),
        bytes,
        binary.as_secs_f64() * 1e6,
        json_bytes,
        json.as_secs_f64() * 1e6
    );
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("vk-worker") {
        std::process::exit(vulkan::worker_main());
    }
    let args = parse_args();
    if std::env::var_os("MESA_SHADER_CACHE_DISABLE").is_none() {
        eprintln!("note: MESA_SHADER_CACHE_DISABLE is not set; Mesa's disk cache may skew this");
    }
    let text = if args.ops == 0 {
        common::abi_text(args.lanes, SENTINEL)
    } else {
        common::chain_text(args.lanes, args.ops, SENTINEL)
    };
    let template = common::assemble(&text);
    println!(
        "{} jobs x {} worker(s), {} lanes, {} extra ops, {} SPIR-V words per module",
        args.jobs,
        args.workers,
        args.lanes,
        args.ops,
        template.len()
    );
    protocol_costs(&common::abi_job(template.clone(), args.lanes as usize, 0));

    let start = Instant::now();
    let all: Vec<Samples> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..args.workers)
            .map(|w| {
                let (args, template) = (&args, &template);
                s.spawn(move || run_worker(args, template, (w * args.jobs) as u32))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let elapsed = start.elapsed();
    let total_jobs = args.jobs * args.workers;
    let timings: Vec<Timings> = all.iter().flat_map(|s| s.timings.clone()).collect();
    let wall: Vec<Duration> = all.iter().flat_map(|s| s.wall.clone()).collect();
    let overhead: Vec<Duration> = wall
        .iter()
        .zip(&timings)
        .map(|(w, t)| w.saturating_sub(t.total))
        .collect();
    println!(
        "{total_jobs} jobs in {:.2} s: {:.1} jobs/s ({:.1} jobs/s per worker), worker start included",
        elapsed.as_secs_f64(),
        total_jobs as f64 / elapsed.as_secs_f64(),
        total_jobs as f64 / elapsed.as_secs_f64() / args.workers as f64
    );
    println!(
        "pipeline create:  {}",
        summary(timings.iter().map(|t| t.pipeline_create).collect())
    );
    println!(
        "dispatch:         {}",
        summary(timings.iter().map(|t| t.dispatch).collect())
    );
    println!(
        "job in worker:    {}",
        summary(timings.iter().map(|t| t.total).collect())
    );
    println!("job at client:    {}", summary(wall));
    println!("client overhead:  {}", summary(overhead));
}
