//! `farm gen`: print one generated case, or statistics over many.

use crate::output::emit;
use anyhow::{Context, Result};
use generator::Config;
use oracle::{InterpConfig, InterpError};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Options of `farm gen`.
#[derive(clap::Args)]
pub struct Args {
    /// The seed of the (first) case.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Generator config as JSON (fields not given keep their defaults).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Print histograms over `--count` cases instead of one case.
    #[arg(long)]
    stats: bool,
    /// Number of cases for `--stats`.
    #[arg(long, default_value_t = 1000)]
    count: u64,
}

/// Reads a generator config file (JSON); errors name the file, line and column.
pub fn read_config(path: Option<&std::path::Path>) -> Result<Config> {
    let Some(path) = path else {
        return Ok(Config::default());
    };
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    let c: Config =
        serde_json::from_str(&text).map_err(|e| farm::durable::json_error(&name, &e))?;
    c.check().map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    Ok(c)
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    let config = read_config(a.config.as_deref())?;
    if !a.stats {
        emit(&ir::print_case(&generator::generate(a.seed, &config)))?;
        return Ok(ExitCode::SUCCESS);
    }
    emit(&stats(&config, a.seed, a.count))?;
    Ok(ExitCode::SUCCESS)
}

fn bar(out: &mut String, title: &str, hist: &BTreeMap<String, u64>) {
    let total: u64 = hist.values().sum();
    let _ = writeln!(out, "\n{title} (total {total}):");
    let max = hist.values().copied().max().unwrap_or(1).max(1);
    for (k, v) in hist {
        let width = (v * 40).div_ceil(max) as usize;
        let _ = writeln!(out, "  {k:<24} {v:>8}  {}", "#".repeat(width));
    }
}

fn stats(config: &Config, first: u64, count: u64) -> String {
    let mut ops: BTreeMap<String, u64> = BTreeMap::new();
    let mut sizes: BTreeMap<String, u64> = BTreeMap::new();
    let mut depth: BTreeMap<String, u64> = BTreeMap::new();
    let mut instrs: BTreeMap<String, u64> = BTreeMap::new();
    let mut features: BTreeMap<String, u64> = BTreeMap::new();
    let (mut invalid, mut timeout) = (0u64, 0u64);
    let mut gen_time = 0f64;
    let mut interp_time = 0f64;
    for seed in first..first + count {
        let t = Instant::now();
        let (case, s) = generator::generate_with_stats(seed, config);
        gen_time += t.elapsed().as_secs_f64();
        let p = &case.program;
        p.for_each_block(&mut |b| {
            for phi in &b.phis {
                *ops.entry("phi".into()).or_default() += 1;
                *sizes
                    .entry(format!("{:>2}-bit", phi.dest.bits))
                    .or_default() += 1;
            }
            for i in &b.instrs {
                *ops.entry(i.op.name().into()).or_default() += 1;
                if let Some(d) = i.dest {
                    *sizes.entry(format!("{:>2}-bit", d.bits)).or_default() += 1;
                }
            }
        });
        *depth.entry(format!("depth {}", s.max_depth)).or_default() += 1;
        let n = p.num_instrs();
        let bucket = match n {
            0..=15 => "0-15",
            16..=31 => "16-31",
            32..=63 => "32-63",
            64..=127 => "64-127",
            _ => "128+",
        };
        *instrs.entry(bucket.into()).or_default() += 1;
        for (name, hit) in [
            ("divergent subgroup op", s.divergent_subgroup_ops > 0),
            ("mixed-width bool phi", s.mixed_width_bool_phis > 0),
            ("per-lane loop exit", s.non_uniform_loop_exits > 0),
            ("extra break/continue", s.jumps > 0),
            ("quad op in a divergent if", s.divergent_quad_ops > 0),
            ("demote", s.demotes > 0),
            ("terminate", s.terminates > 0),
        ] {
            if hit {
                *features.entry(name.into()).or_default() += 1;
            }
        }
        let d = case
            .dispatch
            .as_ref()
            .expect("generated cases carry a dispatch");
        let simd = [8, 16, 32][(seed % 3) as usize];
        let t = Instant::now();
        match oracle::run(
            p,
            d,
            &InterpConfig {
                simd,
                step_budget: 1_000_000,
            },
        ) {
            Err(InterpError::InvalidCase { .. }) => invalid += 1,
            Err(InterpError::Timeout { .. }) => timeout += 1,
            _ => {}
        }
        interp_time += t.elapsed().as_secs_f64();
    }
    let mut out = String::new();
    let pct = |x: u64| 100.0 * x as f64 / count.max(1) as f64;
    let _ = writeln!(out, "cases: {count} (seeds {first}..{})", first + count);
    let _ = writeln!(out, "InvalidCase: {invalid} ({:.3}%)", pct(invalid));
    let _ = writeln!(out, "Timeout: {timeout} ({:.3}%)", pct(timeout));
    let _ = writeln!(
        out,
        "generation: {:.0} cases/s; interpretation: {:.0} cases/s",
        count as f64 / gen_time.max(1e-9),
        count as f64 / interp_time.max(1e-9)
    );
    bar(&mut out, "cases with feature", &features);
    bar(&mut out, "instructions per case", &instrs);
    bar(&mut out, "nesting depth", &depth);
    bar(&mut out, "value sizes", &sizes);
    bar(&mut out, "ops", &ops);
    out
}
