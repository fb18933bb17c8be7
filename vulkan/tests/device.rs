//! The in-process `Device` on lavapipe.

mod common;

use std::sync::{Mutex, Once};
use std::time::Duration;

use common::*;
use vulkan::{Device, Features, FloatModes, Job, JobError};

/// Sets `MESA_SHADER_CACHE_DISABLE` once, before any test touches Vulkan
/// (every test calls this first, so no thread reads the environment while it
/// changes).
fn open() -> Device {
    static ENV: Once = Once::new();
    ENV.call_once(|| std::env::set_var("MESA_SHADER_CACHE_DISABLE", "true"));
    Device::open(Some("llvmpipe")).unwrap_or_else(|e| panic!("{NEED_LAVAPIPE}: {e}"))
}

/// lavapipe runs every queue on its own threads; two devices dispatching at
/// once on 2 cores only slow each other down, so the tests take turns.
static TURN: Mutex<()> = Mutex::new(());

#[test]
fn device_info_on_lavapipe() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let device = open();
    let info = device.info();
    println!("{}", info.to_json_pretty());
    assert!(info.name.starts_with("llvmpipe ("), "{}", info.name);
    assert_eq!(info.device_type, "CPU");
    assert_eq!(info.vendor_id, 0x10005); // VK_VENDOR_ID_MESA
    assert_eq!(info.driver_id, "MESA_LLVMPIPE");
    assert_eq!(info.driver_name, "llvmpipe");
    assert!(
        info.driver_info.starts_with("Mesa "),
        "{}",
        info.driver_info
    );
    assert!(info.api_version.at_least(1, 3), "{}", info.api_version);
    let sg = &info.subgroup;
    assert_eq!((sg.size, sg.min_size, sg.max_size), (8, 8, 8));
    assert_eq!(sg.max_compute_workgroup_subgroups, 32);
    assert!(sg.size_control && sg.compute_full_subgroups);
    assert_eq!(sg.supported_stages, ["FRAGMENT", "COMPUTE"]);
    assert_eq!(sg.required_size_stages, ["FRAGMENT", "COMPUTE"]);
    assert_eq!(
        sg.supported_operations,
        [
            "BASIC",
            "VOTE",
            "ARITHMETIC",
            "BALLOT",
            "SHUFFLE",
            "SHUFFLE_RELATIVE",
            "QUAD"
        ]
    );
    assert_eq!(
        info.features,
        Features {
            shader_int8: true,
            shader_int16: true,
            shader_int64: true,
            shader_float16: true,
            shader_float64: true,
            storage_buffer_8bit_access: true,
            storage_buffer_16bit_access: true,
        }
    );
    let fc = &info.float_controls;
    assert!(fc.available);
    assert_eq!(fc.denorm_behavior_independence, "ALL");
    assert_eq!(fc.rounding_mode_independence, "ALL");
    let modes = FloatModes {
        signed_zero_inf_nan_preserve: true,
        denorm_preserve: false,
        denorm_flush_to_zero: false,
        rounding_mode_rte: true,
        rounding_mode_rtz: false,
    };
    assert_eq!((fc.f16, fc.f32, fc.f64), (modes, modes, modes));
    assert_eq!(info.max_compute_work_group_invocations, 1024);
    assert_eq!(info.max_compute_work_group_size, [1024, 1024, 1024]);
    // Neither extension exists in Mesa 22.3's lavapipe.
    assert!(!info.extensions.shader_maximal_reconvergence);
    assert!(!info.extensions.shader_subgroup_uniform_control_flow);
    assert!(device.is_usable());
}

#[test]
fn a_job_round_trips_exact_words() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let mut device = open();
    let result = device.run(&abi_job(abi_shader(13, 1000), 13, 7)).unwrap();
    let (outputs, lanes) = abi_expect(13, 1000, 7, 8);
    assert_eq!(result.buffers.len(), 4);
    // Read-only bindings come back as they went.
    assert_eq!(result.buffers[1], vec![7, 0]);
    assert_eq!(result.buffers[2], outputs);
    assert_eq!(result.buffers[3], lanes);
    // Invocation 12: subgroup 1, lane 4, size 8, ran.
    assert_eq!(&result.buffers[3][48..52], &[1, 4, 8, 1]);
    assert_eq!(
        &result.buffers[2][48..52],
        &[100 + 12 + 7 + 1000, 0xA000_000C, 1, 0]
    );
    let t = result.timings;
    assert!(t.total >= t.pipeline_create + t.dispatch, "{t:?}");
}

#[test]
fn a_longer_shader_computes_what_the_host_does() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let mut device = open();
    let spirv = assemble(&chain_text(32, 120, 0x1234_5678));
    let result = device.run(&abi_job(spirv, 32, 0x0F0F_0F0F)).unwrap();
    for i in 0..32u32 {
        assert_eq!(
            result.buffers[2][4 * i as usize],
            chain_expect(100 + i, 0x0F0F_0F0F, 120, 0x1234_5678),
            "lane {i}"
        );
    }
    assert_eq!(result.buffers[3], abi_expect(32, 0, 0, 8).1);
}

#[test]
fn required_subgroup_size_8_runs_and_16_is_unsupported() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let mut device = open();
    let spirv = abi_shader(16, 0);
    let mut job = abi_job(spirv, 16, 0);
    job.required_subgroup_size = Some(8);
    let result = device.run(&job).unwrap();
    assert_eq!(result.buffers[3], abi_expect(16, 0, 0, 8).1);
    for size in [16, 4, 6] {
        job.required_subgroup_size = Some(size);
        assert_eq!(
            device.run(&job),
            Err(JobError::Unsupported(format!(
                "required subgroup size {size}: the device supports powers of two in [8, 8]"
            )))
        );
    }
    assert!(device.is_usable());
}

#[test]
fn invalid_modules_fail_to_compile_and_the_device_goes_on() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let mut device = open();
    let good = abi_shader(4, 0);
    // Cut in the middle of the function: the header is fine, the rest not.
    let truncated = good[..good.len() - 12].to_vec();
    assert_eq!(
        device.run(&abi_job(truncated, 4, 0)),
        Err(JobError::CompileFailed(
            "vkCreateComputePipelines returned ERROR_UNKNOWN".to_string()
        ))
    );
    assert_eq!(
        device.run(&abi_job(vec![1, 2, 3], 4, 0)),
        Err(JobError::CompileFailed(
            "not a SPIR-V module (3 words, first word 0x00000001)".to_string()
        ))
    );
    let wrong_count = Job {
        buffers: vec![vec![0; 4]; 3],
        ..abi_job(good.clone(), 4, 0)
    };
    assert_eq!(
        device.run(&wrong_count),
        Err(JobError::InvalidJob(
            "3 buffers given, the ABI binds 4".to_string()
        ))
    );
    let result = device.run(&abi_job(good, 4, 5)).unwrap();
    assert_eq!(result.buffers[2], abi_expect(4, 0, 5, 8).0);
}

#[test]
fn buffers_grow_and_padding_never_shows_stale_words() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let mut device = open();
    // 1024 lanes, and 40 KiB of inputs: past the pool's first buffer size
    // (16 KiB), so the inputs' buffer is replaced by a larger one.
    let big = abi_shader(1024, 3);
    let mut job = abi_job(big, 1024, 1);
    job.buffers[0].extend(std::iter::repeat_n(0xDEAD_BEEF, 8192));
    let result = device.run(&job).unwrap();
    let (outputs, lanes) = abi_expect(1024, 3, 1, 8);
    assert_eq!(result.buffers[2], outputs);
    assert_eq!(result.buffers[3], lanes);
    assert_eq!(result.buffers[0].len(), 2048 + 8192);
    // A small job after it: the shader reads only its own words; outputs
    // beyond them would show stale data if the pool did not zero.
    let small = abi_shader(2, 0);
    let result = device.run(&abi_job(small, 2, 0)).unwrap();
    assert_eq!(result.buffers[2], abi_expect(2, 0, 0, 8).0);
    assert_eq!(result.buffers[3], abi_expect(2, 0, 0, 8).1);
}

#[test]
fn empty_buffers_are_bound_as_16_bytes() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let mut device = open();
    // One lane writes outputs[0..3] and lanes[0..4]: 16 bytes each. The
    // caller gives no words for inputs and uniforms (reads see zero
    // padding) and exactly 4 for the written bindings.
    let job = Job {
        buffers: vec![vec![], vec![], vec![9; 4], vec![9; 4]],
        ..abi_job(abi_shader(1, 5), 1, 0)
    };
    let result = device.run(&job).unwrap();
    assert_eq!(
        result.buffers,
        vec![vec![], vec![], vec![5, 0, 1, 9], vec![0, 0, 8, 1]]
    );
}

#[test]
fn a_selector_that_matches_nothing_says_what_there_is() {
    static ENV: Once = Once::new();
    ENV.call_once(|| std::env::set_var("MESA_SHADER_CACHE_DISABLE", "true"));
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    match Device::open(Some("no-such-gpu")) {
        Err(JobError::DeviceOpen(m)) => {
            assert!(
                m.starts_with("no Vulkan device or driver name contains \"no-such-gpu\""),
                "{m}"
            );
            assert!(m.contains("llvmpipe"), "{m}");
        }
        Err(e) => panic!("wrong error {e:?}"),
        Ok(_) => panic!("opened a device for a selector that matches nothing"),
    }
    // Case-insensitive, and spaces read as `-` on both sides.
    assert!(Device::open(Some("LLVMPIPE")).is_ok(), "{NEED_LAVAPIPE}");
    assert!(
        Device::open(Some("llvmpipe-(LLVM")).is_ok(),
        "{NEED_LAVAPIPE}"
    );
    assert!(
        Device::open(Some("llvmpipe (llvm")).is_ok(),
        "{NEED_LAVAPIPE}"
    );
}

#[test]
fn a_timeout_of_zero_in_process_breaks_the_device() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let mut device = open();
    // A 1024-lane dispatch cannot finish (LLVM compiles at the first
    // dispatch) before a zero-length wait returns.
    let mut job = abi_job(abi_shader(1024, 0), 1024, 0);
    job.timeout = Duration::ZERO;
    assert_eq!(device.run(&job), Err(JobError::Timeout));
    assert!(!device.is_usable());
    job.timeout = Duration::from_secs(5);
    match device.run(&job) {
        Err(JobError::Other(m)) => assert!(m.starts_with("device unusable"), "{m}"),
        other => panic!("{other:?}"),
    }
    // Dropping it leaks its objects instead of racing the driver.
}
