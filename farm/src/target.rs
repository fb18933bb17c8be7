//! Compilers under test: the model (our brw backend on the EU simulator) or
//! a Vulkan driver (the case exported to SPIR-V, run by a child worker
//! process: `farm vk-worker`).

use std::fmt;
use std::path::Path;
use std::process::Command;
use std::str::FromStr;

/// A compiler under test.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// The model: every config of the campaign's mix.
    Model,
    /// A Vulkan device: the first one, or the first whose device or driver
    /// name contains the selector (ignoring case, spaces read as `-`; a
    /// finding's `vulkan:DRIVER` target name selects its driver again).
    Vulkan {
        /// Part of the device or driver name (`llvmpipe`, `Intel`), if any.
        selector: Option<String>,
    },
}

impl Target {
    /// Whether this is a driver target.
    pub fn is_driver(&self) -> bool {
        matches!(self, Target::Vulkan { .. })
    }
}

impl fmt::Display for Target {
    /// `model`, `vulkan` or `vulkan:NAME`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Model => f.write_str("model"),
            Target::Vulkan { selector: None } => f.write_str("vulkan"),
            Target::Vulkan { selector: Some(s) } => write!(f, "vulkan:{s}"),
        }
    }
}

impl FromStr for Target {
    type Err = String;

    /// Reads `model`, `vulkan` or `vulkan:NAME`.
    fn from_str(s: &str) -> Result<Target, String> {
        match s.split_once(':') {
            None if s == "model" => Ok(Target::Model),
            None if s == "vulkan" => Ok(Target::Vulkan { selector: None }),
            Some(("vulkan", name)) if !name.is_empty() => Ok(Target::Vulkan {
                selector: Some(name.to_string()),
            }),
            _ => Err(format!(
                "unknown target `{s}` (expected model, vulkan or vulkan:NAME)"
            )),
        }
    }
}

/// The command that starts a Vulkan worker: `EXE vk-worker` (EXE a farm
/// binary), with Mesa's shader cache off unless the environment says
/// otherwise (honest timings, and no cache growing in `$HOME`).
pub fn worker_command(exe: &Path) -> Command {
    let mut c = Command::new(exe);
    c.arg("vk-worker");
    if std::env::var_os("MESA_SHADER_CACHE_DISABLE").is_none() {
        c.env("MESA_SHADER_CACHE_DISABLE", "true");
    }
    c
}

/// The worker command of the running farm binary.
pub fn own_worker_command() -> std::io::Result<Command> {
    Ok(worker_command(&std::env::current_exe()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_read_back_what_they_print() {
        for t in ["model", "vulkan", "vulkan:llvmpipe", "vulkan:Intel(R) UHD"] {
            assert_eq!(t.parse::<Target>().unwrap().to_string(), t);
        }
        assert!(!Target::Model.is_driver());
        assert_eq!(
            "vulkan:".parse::<Target>(),
            Err("unknown target `vulkan:` (expected model, vulkan or vulkan:NAME)".into())
        );
        assert!("gpu".parse::<Target>().is_err());
    }
}
