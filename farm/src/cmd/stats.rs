//! `farm stats`: shader-db for the model. `farm stats DIR --vs A B` compiles
//! every .sir under DIR with two configs at SIMD8 and SIMD16 and prints the
//! comparison exactly as shader-db's `report.py` prints it for the two runs
//! (see [`farm::shaderdb`]); `--log OUT` also writes the two runs as
//! shader-db logs (`OUT/a.log`, `OUT/b.log`) that `report.py` reads.
//! `farm stats --logs BEFORE AFTER` reports on any two shader-db logs.
//! `farm stats DIR --backend vec4` (no `--vs`) is seed 002's comparison:
//! the vec4 backend with conservative (whole-flag) against per-channel flag
//! liveness; vec4 code is compiled once, SIMD4x2 (`VS vec4` in the log).

use crate::output::emit;
use anyhow::{bail, Context, Result};
use compiler::{Backend, PassSet, Strategy};
use farm::shaderdb::{self, ReportOptions, Results, ShaderStats};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Options of `farm stats`.
#[derive(clap::Args)]
pub struct Args {
    /// A directory of .sir files (searched recursively).
    #[arg(required_unless_present = "logs", conflicts_with = "logs")]
    dir: Option<PathBuf>,
    /// Two configs, `STRATEGY[:PASSES]` (e.g. `bool32 bool16`, `flag:all,-cse`,
    /// `vec4:all,flag-liveness=conservative vec4`).
    #[arg(long, num_args = 2, value_names = ["CONFIG_A", "CONFIG_B"], required_unless_present_any = ["logs", "backend"])]
    vs: Vec<String>,
    /// The backend whose configs `--vs` names (an error if they are
    /// another's). Without `--vs`, `--backend vec4` compares conservative
    /// with per-channel flag liveness (`vec4:all,flag-liveness=conservative`
    /// against `vec4:all`), the comparison of seed 002.
    #[arg(long, value_parser = |s: &str| s.parse::<Backend>(), conflicts_with = "logs")]
    backend: Option<Backend>,
    /// Also write the two runs as shader-db logs: OUT/a.log and OUT/b.log.
    #[arg(long, value_name = "OUT", conflicts_with = "logs")]
    log: Option<PathBuf>,
    /// Compare two shader-db logs instead (ours, or Mesa's shader-db `run` output).
    #[arg(long, num_args = 2, value_names = ["BEFORE", "AFTER"])]
    logs: Vec<PathBuf>,
    /// Comma-separated measurements to report (report.py's `-m`).
    #[arg(
        long,
        short = 'm',
        value_delimiter = ',',
        default_value = "instructions,cycles,loops,spills,fills"
    )]
    measurements: Vec<String>,
    /// No per-shader helped/HURT lines (report.py's `-s`).
    #[arg(long, short = 's')]
    summary_only: bool,
    /// Only measurements that changed (report.py's `-c`).
    #[arg(long, short = 'c')]
    changes_only: bool,
    /// Print the comparison as JSON.
    #[arg(long)]
    json: bool,
}

/// A `STRATEGY[:PASSES]` config.
fn parse_config(s: &str) -> Result<(Strategy, PassSet)> {
    let (strategy, passes) = s.split_once(':').unwrap_or((s, "all"));
    let strategy: Strategy = strategy
        .parse()
        .map_err(|e: String| anyhow::anyhow!("--vs {s}: {e}"))?;
    let passes = PassSet::parse(passes).map_err(|e| anyhow::anyhow!("--vs {s}: {e}"))?;
    Ok((strategy, passes))
}

fn sir_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read directory {}", dir.display()))?;
    for e in entries {
        let p = e?.path();
        if p.is_dir() {
            sir_files(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "sir") {
            out.push(p);
        }
    }
    Ok(())
}

/// The shader-db log of compiling `programs` with one config at SIMD8 and
/// SIMD16: a line per shader that compiled, then the time.
fn run_log(programs: &[(String, ir::Program)], config: &(Strategy, PassSet), name: &str) -> String {
    let mut log = format!("# farm stats: {name}\n");
    let start = Instant::now();
    let (mut compiled, mut failed) = (0, 0);
    // vec4 code is dispatched SIMD4x2 only.
    let widths: &[u32] = if config.0.is_vec4() { &[8] } else { &[8, 16] };
    for &simd in widths {
        let stage = if config.0.is_vec4() {
            "VS vec4".to_string()
        } else {
            format!("CS SIMD{simd}")
        };
        for (app, p) in programs {
            let c = oracle::Config::new(config.0, simd, config.1.clone());
            match oracle::Session::run(p, &c, oracle::Capture::Stages).result {
                Ok(c) => {
                    compiled += 1;
                    let s = ShaderStats::of(&c);
                    log.push_str(&shaderdb::log_line(app, &stage, &s));
                    log.push('\n');
                }
                Err(_) => failed += 1,
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(log, "{}", shaderdb::time_line(secs, compiled, failed));
    log
}

fn read_log(path: &Path) -> Result<Results> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--logs: cannot read {}", path.display()))?;
    Ok(shaderdb::parse_log(&text))
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    let opts = ReportOptions {
        measurements: a.measurements.clone(),
        summary_only: a.summary_only,
        changes_only: a.changes_only,
    };
    let (before, after, programs, names) = if a.logs.len() == 2 {
        let names = [0, 1].map(|k| a.logs[k].display().to_string());
        (read_log(&a.logs[0])?, read_log(&a.logs[1])?, None, names)
    } else {
        let Some(dir) = &a.dir else {
            bail!("give a directory and --vs A B, or --logs BEFORE AFTER");
        };
        let vs: Vec<String> = match (a.vs.len(), a.backend) {
            (2, _) => a.vs.clone(),
            (_, Some(Backend::Vec4)) => vec![
                "vec4:all,flag-liveness=conservative".into(),
                "vec4:all".into(),
            ],
            _ => bail!("--backend {} needs --vs A B", Backend::Scalar),
        };
        let (ca, cb) = (parse_config(&vs[0])?, parse_config(&vs[1])?);
        if let Some(b) = a.backend {
            for (text, c) in [(&vs[0], &ca), (&vs[1], &cb)] {
                if c.0.backend() != b {
                    bail!(
                        "--vs {text}: strategy {} is not a strategy of --backend {b}",
                        c.0
                    );
                }
            }
        }
        let mut files = Vec::new();
        sir_files(dir, &mut files)?;
        files.sort();
        if files.is_empty() {
            bail!("no .sir files under {}", dir.display());
        }
        let programs: Vec<(String, ir::Program)> = files
            .iter()
            .map(|f| {
                let c = crate::inputs::read_case(f)?;
                Ok((f.display().to_string(), c.program))
            })
            .collect::<Result<_>>()?;
        if let Some(out) = &a.log {
            std::fs::create_dir_all(out)
                .with_context(|| format!("--log: cannot create {}", out.display()))?;
        }
        let log_a = run_log(&programs, &ca, &vs[0]);
        let log_b = run_log(&programs, &cb, &vs[1]);
        if let Some(out) = &a.log {
            for (name, text) in [("a.log", &log_a), ("b.log", &log_b)] {
                let path = out.join(name);
                farm::durable::write_atomic(&path, text.as_bytes())
                    .with_context(|| format!("--log: cannot write {}", path.display()))?;
            }
        }
        (
            shaderdb::parse_log(&log_a),
            shaderdb::parse_log(&log_b),
            Some(programs.len()),
            [vs[0].clone(), vs[1].clone()],
        )
    };
    if a.json {
        let c = shaderdb::compare(&before, &after, &opts.measurements)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let doc = serde_json::json!({
            "a": names[0],
            "b": names[1],
            "programs": programs,
            "comparison": c,
        });
        emit(&(serde_json::to_string_pretty(&doc)? + "\n"))?;
    } else {
        let text = shaderdb::report(&before, &after, &opts).map_err(|e| anyhow::anyhow!("{e}"))?;
        emit(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}
