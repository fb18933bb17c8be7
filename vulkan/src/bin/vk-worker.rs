//! The worker process the crate's tests and examples spawn: it only runs
//! [`vulkan::worker_main`]. The farm does the same from its own binary
//! (`farm vk-worker`).

fn main() {
    std::process::exit(vulkan::worker_main());
}
