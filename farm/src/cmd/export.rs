//! `farm export FILE.sir`: the case as a SPIR-V compute module (the real
//! driver target's form of it), in binary or as SPIR-V assembly.

use crate::inputs::read_case;
use anyhow::{Context, Result};
use spirv_export::{ExportOptions, FloatControls, Reconvergence};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Which float-controls modes the module requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Modes {
    /// Every mode at every width (what the IR's semantics need).
    All,
    /// What lavapipe supports: SignedZeroInfNanPreserve and RTE, no
    /// DenormPreserve.
    Lavapipe,
    /// None (no SPV_KHR_float_controls).
    None,
}

/// Which reconvergence the module requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Converge {
    /// No request (Vulkan's rules: subgroup operations in control flow that
    /// is not workgroup-uniform see an unspecified set of invocations).
    Default,
    /// SubgroupUniformControlFlowKHR.
    SubgroupUniform,
    /// MaximallyReconvergesKHR.
    Maximal,
}

/// Options of `farm export`.
#[derive(clap::Args)]
pub struct Args {
    /// The .sir case.
    file: PathBuf,
    /// Write SPIR-V assembly (what `spirv-as` reads and a person can read)
    /// instead of the binary module.
    #[arg(long)]
    spvasm: bool,
    /// Where to write (default: FILE.spv, or FILE.spvasm with --spvasm; `-`
    /// for standard output).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Invocations (the module's local size; default: the case's dispatch,
    /// else 16).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=ir::dispatch::MAX_INVOCATIONS as i64))]
    lanes: Option<u32>,
    /// The float-controls modes to request.
    #[arg(long, value_enum, default_value = "all")]
    float_controls: Modes,
    /// The reconvergence to request (the device must offer its extension).
    #[arg(long, value_enum, default_value = "default")]
    reconvergence: Converge,
    /// The extension a module with derivatives declares: nv
    /// (SPV_NV_compute_shader_derivatives, which SPIR-V tools before 2024
    /// know) or khr (SPV_KHR_compute_shader_derivatives, for devices that
    /// offer only VK_KHR_compute_shader_derivatives).
    #[arg(long, value_enum, default_value = "nv")]
    derivatives: Derivatives,
}

/// `--derivatives`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Derivatives {
    Nv,
    Khr,
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    let case = read_case(&a.file)?;
    let invocations = a
        .lanes
        .or(case.dispatch.as_ref().map(|d| d.invocations))
        .unwrap_or(16);
    let float_controls = match a.float_controls {
        Modes::All => FloatControls::all(),
        Modes::Lavapipe => FloatControls::lavapipe(),
        Modes::None => FloatControls::none(),
    };
    let module = spirv_export::export(
        &case.program,
        &ExportOptions {
            invocations,
            float_controls,
            reconvergence: match a.reconvergence {
                Converge::Default => Reconvergence::Default,
                Converge::SubgroupUniform => Reconvergence::SubgroupUniform,
                Converge::Maximal => Reconvergence::Maximal,
            },
            derivatives: match a.derivatives {
                Derivatives::Khr => spirv_export::DerivativeExtension::Khr,
                Derivatives::Nv => spirv_export::DerivativeExtension::Nv,
            },
        },
    )
    .with_context(|| format!("cannot export {}", a.file.display()))?;
    let bytes: Vec<u8> = if a.spvasm {
        spirv_export::disassemble(&module.words).into_bytes()
    } else {
        module.words.iter().flat_map(|w| w.to_le_bytes()).collect()
    };
    let out = a.out.unwrap_or_else(|| {
        a.file
            .with_extension(if a.spvasm { "spvasm" } else { "spv" })
    });
    if out.as_os_str() == "-" {
        std::io::stdout()
            .write_all(&bytes)
            .context("cannot write to standard output")?;
    } else {
        farm::durable::write_atomic(&out, &bytes)?;
        eprintln!(
            "wrote {} ({} words; needs {})",
            out.display(),
            module.words.len(),
            module.features.names().join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}
