//! The worker process and the `Runner` on lavapipe: round trips, many jobs,
//! and every way a worker can fail costing exactly one job.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::*;
use vulkan::{ExitInfo, Fault, JobError, Runner, RunnerConfig};

/// The worker binary of this crate, with Mesa's disk cache off.
fn worker_command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_vk-worker"));
    c.env("MESA_SHADER_CACHE_DISABLE", "true");
    c
}

fn config() -> RunnerConfig {
    RunnerConfig {
        selector: Some("llvmpipe".to_string()),
        // Small, so hang tests stay fast; lavapipe answers a small job in
        // ~15 ms.
        grace: Duration::from_millis(500),
        open_timeout: Duration::from_secs(20),
    }
}

fn runner() -> Runner {
    Runner::new(worker_command(), config()).unwrap_or_else(|e| panic!("{NEED_LAVAPIPE}: {e}"))
}

/// Runs the ABI shader with `n` lanes and checks every word.
fn check_round_trip(runner: &mut Runner, n: u32, k: u32, u: u32) {
    let result = runner
        .run(&abi_job(abi_shader(n, k), n as usize, u))
        .unwrap();
    let (outputs, lanes) = abi_expect(n as usize, k, u, 8);
    assert_eq!(result.buffers[2], outputs);
    assert_eq!(result.buffers[3], lanes);
}

#[test]
fn round_trip_through_the_worker() {
    let mut r = runner();
    assert!(r.device_info().name.contains("llvmpipe"));
    assert_eq!(r.device_info().driver_id, "MESA_LLVMPIPE");
    let result = r.run(&abi_job(abi_shader(13, 1000), 13, 7)).unwrap();
    let (outputs, lanes) = abi_expect(13, 1000, 7, 8);
    assert_eq!(
        result.buffers,
        vec![
            (0..13).flat_map(|i| [100 + i, 0xA000_0000 | i]).collect(),
            vec![7, 0],
            outputs,
            lanes
        ]
    );
    assert_eq!(&result.buffers[3][48..52], &[1, 4, 8, 1]);
    let t = result.timings;
    assert!(t.total >= t.pipeline_create + t.dispatch && t.total > Duration::ZERO);
    assert_eq!(r.starts(), 1);
}

#[test]
fn many_distinct_jobs_in_one_worker() {
    let mut r = runner();
    let template = abi_shader(13, 0x5EED_0000);
    let start = Instant::now();
    for j in 0..100u32 {
        let mut spirv = template.clone();
        patch_constant(&mut spirv, 0x5EED_0000, j);
        let result = r.run(&abi_job(spirv, 13, j * 3)).unwrap();
        assert_eq!(result.buffers[2], abi_expect(13, j, j * 3, 8).0, "job {j}");
    }
    eprintln!("100 distinct jobs in {:?}", start.elapsed());
    assert_eq!(r.starts(), 1);
    assert_eq!(r.idle_deaths(), 0);
}

#[test]
fn compile_failures_and_subgroup_sizes_come_back_as_errors() {
    let mut r = runner();
    let good = abi_shader(8, 0);
    let truncated = good[..good.len() - 12].to_vec();
    assert_eq!(
        r.run(&abi_job(truncated, 8, 0)),
        Err(JobError::CompileFailed(
            "vkCreateComputePipelines returned ERROR_UNKNOWN".to_string()
        ))
    );
    let mut job = abi_job(good, 8, 0);
    job.required_subgroup_size = Some(16);
    assert_eq!(
        r.run(&job),
        Err(JobError::Unsupported(
            "required subgroup size 16: the device supports powers of two in [8, 8]".to_string()
        ))
    );
    job.required_subgroup_size = Some(8);
    let result = r.run(&job).unwrap();
    assert_eq!(result.buffers[3], abi_expect(8, 0, 0, 8).1);
    // None of that needed a new worker.
    assert_eq!(r.starts(), 1);
}

#[test]
fn an_injected_abort_costs_one_job() {
    let mut r = runner();
    check_round_trip(&mut r, 5, 1, 2);
    assert_eq!(
        r.inject(Fault::Abort, Duration::from_secs(5)),
        JobError::Crashed {
            status: ExitInfo {
                code: None,
                signal: Some(6)
            }
        }
    );
    check_round_trip(&mut r, 5, 1, 2);
    assert_eq!(r.starts(), 2);
}

#[test]
fn an_injected_exit_is_a_crash_with_its_code() {
    let mut r = runner();
    assert_eq!(
        r.inject(Fault::Exit(7), Duration::from_secs(5)),
        JobError::Crashed {
            status: ExitInfo {
                code: Some(7),
                signal: None
            }
        }
    );
    check_round_trip(&mut r, 3, 0, 0);
    assert_eq!(r.starts(), 2);
}

#[test]
fn an_injected_hang_times_out_after_timeout_plus_grace() {
    let mut r = runner();
    let start = Instant::now();
    assert_eq!(
        r.inject(Fault::Hang, Duration::from_millis(200)),
        JobError::Timeout
    );
    let took = start.elapsed();
    // 200 ms timeout + 500 ms grace, then the kill.
    assert!(
        took >= Duration::from_millis(700) && took < Duration::from_secs(3),
        "{took:?}"
    );
    check_round_trip(&mut r, 9, 2, 3);
    assert_eq!(r.starts(), 2);
}

#[test]
fn stray_output_on_stdout_is_a_protocol_error() {
    let mut r = runner();
    match r.inject(Fault::Garbage, Duration::from_secs(5)) {
        // "driv" read as a little-endian magic.
        JobError::Protocol(m) => assert_eq!(
            m,
            "bad frame magic 0x76697264 (stray output on the protocol stream?)"
        ),
        other => panic!("{other:?}"),
    }
    check_round_trip(&mut r, 4, 0, 1);
    assert_eq!(r.starts(), 2);
}

#[test]
fn a_slow_shader_times_out_in_the_worker() {
    // A long grace: a Timeout well before timeout + grace can only be the
    // worker's own answer, not the client's deadline.
    let config = RunnerConfig {
        grace: Duration::from_secs(5),
        ..config()
    };
    let mut r = Runner::new(worker_command(), config).expect(NEED_LAVAPIPE);
    // ~4 s of work (see `slow_shader`) against a 300 ms timeout.
    let mut job = abi_job(slow_shader(256), 1024, 1);
    job.timeout = Duration::from_millis(300);
    let start = Instant::now();
    // The worker's own fence wait expires and it answers Timeout (before
    // the client's deadline of timeout + grace); the client then kills it,
    // busy driver threads and all.
    assert_eq!(r.run(&job), Err(JobError::Timeout));
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(3),
        "{took:?}"
    );
    // The same shader returns at once when the uniform is 0.
    job.buffers[1] = vec![0, 0];
    job.timeout = Duration::from_secs(5);
    let result = r.run(&job).unwrap();
    assert_eq!(result.buffers[2], vec![0; 4 * 1024]);
    assert_eq!(r.starts(), 2);
}

/// Whether process `pid` has exited entirely (reaped, or a zombie whose
/// threads are all gone).
fn fully_dead(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return true;
    };
    let threads = std::fs::read_dir(format!("/proc/{pid}/task")).map_or(0, |d| d.count());
    stat.contains(") Z ") && threads <= 1
}

#[test]
fn kill_9_between_jobs_costs_no_job() {
    let mut r = runner();
    check_round_trip(&mut r, 6, 0, 0);
    let pid = r.worker_pid().expect("a worker runs");
    let status = Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // Wait until it is dead: a zombie (the runner has not reaped it) with
    // no thread left but the leader. Before that, waitpid would not report
    // it yet and the job below would go to a dying worker.
    let start = Instant::now();
    while !fully_dead(pid) {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "kill -9 did not take"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    check_round_trip(&mut r, 6, 0, 0);
    assert_eq!((r.starts(), r.idle_deaths()), (2, 1));
    assert_ne!(r.worker_pid(), Some(pid));
}

#[test]
fn kill_9_during_a_job_is_a_crash() {
    let mut r = runner();
    let pid = r.worker_pid().unwrap();
    // ~4 s of work; killed 200 ms in.
    let mut job = abi_job(slow_shader(256), 1024, 1);
    job.timeout = Duration::from_secs(10);
    let killer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .unwrap()
    });
    assert_eq!(
        r.run(&job),
        Err(JobError::Crashed {
            status: ExitInfo {
                code: None,
                signal: Some(9)
            }
        })
    );
    assert!(killer.join().unwrap().success());
    check_round_trip(&mut r, 2, 0, 0);
    assert_eq!(r.starts(), 2);
}

#[test]
fn a_device_that_is_not_there_fails_to_start() {
    let config = RunnerConfig {
        selector: Some("no-such-gpu".to_string()),
        ..config()
    };
    match Runner::new(worker_command(), config) {
        Err(JobError::DeviceOpen(m)) => {
            assert!(
                m.starts_with("no Vulkan device or driver name contains \"no-such-gpu\""),
                "{m}"
            )
        }
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("started"),
    }
    match Runner::new(
        Command::new("/nonexistent/vk-worker"),
        RunnerConfig::default(),
    ) {
        Err(JobError::DeviceOpen(m)) => assert!(m.starts_with("cannot start the worker"), "{m}"),
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("started"),
    }
}

#[test]
fn a_wrong_entry_point_is_not_fatal_to_the_farm() {
    let mut r = runner();
    let mut job = abi_job(abi_shader(2, 0), 2, 0);
    job.entry = "nope".to_string();
    // lavapipe reports it like any other bad module.
    assert_eq!(
        r.run(&job),
        Err(JobError::CompileFailed(
            "vkCreateComputePipelines returned ERROR_UNKNOWN".to_string()
        ))
    );
    check_round_trip(&mut r, 2, 0, 0);
}

#[test]
fn planned_faults_crash_every_worker_at_the_same_job() {
    let mut c = worker_command();
    c.env(vulkan::FAULTS_VAR, "abort@2");
    let mut r = Runner::new(c, config()).unwrap_or_else(|e| panic!("{NEED_LAVAPIPE}: {e}"));
    let mut outcomes = Vec::new();
    for j in 0..5u32 {
        outcomes.push(match r.run(&abi_job(abi_shader(8, j), 8, 0)) {
            Ok(_) => "ok".to_string(),
            Err(JobError::Crashed { status }) => format!("crashed ({status})"),
            Err(e) => format!("{e}"),
        });
    }
    // Each worker's 2nd job aborts (SIGABRT = 6); the next job starts a new one.
    assert_eq!(
        outcomes,
        ["ok", "crashed (signal 6)", "ok", "crashed (signal 6)", "ok"]
    );
    assert_eq!(r.starts(), 3);
    // A plan that does not parse stops the worker before it opens anything.
    let mut c = worker_command();
    c.env(vulkan::FAULTS_VAR, "explode@1");
    assert!(matches!(
        Runner::new(c, config()),
        Err(JobError::DeviceOpen(_))
    ));
}
