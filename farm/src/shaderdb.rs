//! shader-db compatibility: the per-shader log lines shader-db's `run`
//! collects from brw (`brw_shader_debug_log` in `brw_generator.cpp`), a
//! reader for such logs, and the comparison report shader-db's `report.py`
//! prints, reproduced to the character (wording, the `x -> y (z%)`
//! changes, per-shader `helped`/`HURT` lines padded to column 50, the
//! helped/HURT statistics, the 95% confidence intervals and their verdict,
//! LOST/GAINED, the CPU time). `farm stats --log DIR` writes logs that
//! `report.py` reads; `farm stats --logs A B` reports on any two logs,
//! Mesa's own included.
//!
//! A log line:
//! `corpus/x.sir - CS SIMD8 shader: 42 inst, 0 loops, 61 cycles, 0:0 spills:fills, 3 sends, 9 registers, compacted 672 to 672 bytes.`
//! `report.py` splits the statistics at `, `, keeps the `VALUE NAME` pairs
//! (renaming `inst` to `instructions` and splitting `spills:fills`), and
//! skips the rest.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// The statistics of one compiled shader that a log line carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShaderStats {
    /// Instructions.
    pub instructions: u64,
    /// Loops.
    pub loops: u64,
    /// The static cycle estimate (`compiler::stats::issue_cycles`).
    pub cycles: u64,
    /// Spill messages.
    pub spills: u64,
    /// Fill messages.
    pub fills: u64,
    /// Sends.
    pub sends: u64,
    /// Peak live registers (`compiler::regalloc::register_pressure`).
    pub registers: u64,
}

impl ShaderStats {
    /// The statistics of a compile.
    pub fn of(c: &compiler::Compiled) -> ShaderStats {
        ShaderStats {
            instructions: c.stats.instructions.into(),
            loops: c.stats.loops.into(),
            cycles: c.stats.cycles.into(),
            spills: c.stats.spills.into(),
            fills: c.stats.fills.into(),
            sends: c.stats.sends.into(),
            registers: compiler::regalloc::register_pressure(&c.virt).into(),
        }
    }
}

/// The log line of one shader: `app` names it, `stage` is `CS SIMD8` and
/// the like.
pub fn log_line(app: &str, stage: &str, s: &ShaderStats) -> String {
    format!(
        "{app} - {stage} shader: {} inst, {} loops, {} cycles, {}:{} spills:fills, {} sends, {} registers, compacted {} to {} bytes.",
        s.instructions,
        s.loops,
        s.cycles,
        s.spills,
        s.fills,
        s.sends,
        s.registers,
        s.instructions * 16,
        s.instructions * 16
    )
}

/// The last line of a log: how long compiling took (`report.py` sums the
/// `Thread N took T seconds` lines).
pub fn time_line(seconds: f64, shaders: usize, failed: usize) -> String {
    format!("Thread 0 took {seconds:.2} seconds and compiled {shaders} shaders ({failed} failed)")
}

/// A shader's key: (app, stage).
pub type Key = (String, String);

/// What a log says: every shader's statistics by name, in the order they
/// first appear, and the total time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    /// Seconds, summed over `Thread ... took T seconds` lines.
    pub time: f64,
    order: Vec<Key>,
    stats: HashMap<Key, BTreeMap<String, u64>>,
}

impl Results {
    /// Records (or replaces, keeping its place) one shader's statistics.
    pub fn insert(&mut self, key: Key, stats: BTreeMap<String, u64>) {
        if self.stats.insert(key.clone(), stats).is_none() {
            self.order.push(key);
        }
    }

    /// The statistics of a shader.
    pub fn get(&self, key: &Key) -> Option<&BTreeMap<String, u64>> {
        self.stats.get(key)
    }

    /// The shaders, in the order they first appeared.
    pub fn keys(&self) -> &[Key] {
        &self.order
    }
}

/// The statistics of a log line's `VALUE NAME, ...` part, as `report.py`
/// reads them.
pub fn parse_stats(stats: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for stat in stats.split(", ") {
        let parts: Vec<&str> = stat.split(' ').collect();
        let [val, name] = parts[..] else { continue };
        let name = if name == "inst" { "instructions" } else { name };
        if name == "spills:fills" {
            if let Some((s, f)) = val.split_once(':') {
                if let (Ok(s), Ok(f)) = (s.parse(), f.parse()) {
                    out.insert("spills".into(), s);
                    out.insert("fills".into(), f);
                }
            }
        } else if !val.is_empty() && val.bytes().all(|b| b.is_ascii_digit()) {
            if let Ok(v) = val.parse() {
                out.insert(name.to_string(), v);
            }
        }
    }
    out
}

/// Reads a log: every `APP - STAGE shader: STATS` line and every
/// `Thread ... took T seconds` line; other lines are ignored.
pub fn parse_log(text: &str) -> Results {
    let mut r = Results::default();
    for line in text.split('\n') {
        if let Some(t) = thread_time(line) {
            r.time += t;
            continue;
        }
        let Some((head, stats)) = line.rsplit_once(" shader: ") else {
            continue;
        };
        let Some((app, stage)) = head.split_once(" - ") else {
            continue;
        };
        let app = app.rsplit(' ').next().unwrap_or(app);
        if app.is_empty() {
            continue;
        }
        r.insert((app.to_string(), stage.to_string()), parse_stats(stats));
    }
    r
}

fn thread_time(line: &str) -> Option<f64> {
    let at = line.find("Thread ")?;
    let rest = &line[at + 7..];
    let (_, rest) = rest.split_once(' ')?;
    let rest = rest.strip_prefix("took ")?;
    let (t, rest) = rest.split_once(' ')?;
    rest.starts_with("seconds").then(|| t.parse().ok())?
}

/// What to report, as `report.py`'s options.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// The measurements, in order (`-m`).
    pub measurements: Vec<String>,
    /// No per-shader lines (`-s`).
    pub summary_only: bool,
    /// Only measurements that changed (`-c`).
    pub changes_only: bool,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            measurements: ["instructions", "cycles", "loops", "spills", "fills"]
                .map(String::from)
                .to_vec(),
            summary_only: false,
            changes_only: false,
        }
    }
}

/// `report.py`'s `format_percent`.
pub fn format_percent(frac: f64) -> String {
    if frac.abs() > 0.0 && frac.abs() < 0.0001 {
        "<.01%".to_string()
    } else {
        format!("{:.2}%", frac * 100.0)
    }
}

/// `report.py`'s `format_num`: whole numbers bare, else two decimals.
pub fn format_num(n: f64) -> String {
    if n - n.floor() < 0.01 {
        format!("{}", n.floor() as i128)
    } else {
        format!("{n:.2}")
    }
}

/// `before -> after (change%)`, the change only when both are nonzero.
pub fn change(before: f64, after: f64) -> String {
    let mut s = format!("{} -> {}", format_num(before), format_num(after));
    if before != 0.0 && after != 0.0 {
        let _ = write!(s, " ({})", format_percent(after / before - 1.0));
    }
    s
}

/// A per-shader line: `name: ` padded to 50 columns, then the change.
fn result_string(name: &str, before: u64, after: u64) -> String {
    format!(
        "{:<50}{}",
        format!("{name}: "),
        change(before as f64, after as f64)
    )
}

/// Mean with compensated summation (close to Python's exact mean).
fn mean(xs: &[f64]) -> f64 {
    let (mut sum, mut comp) = (0.0f64, 0.0f64);
    for &x in xs {
        let t = sum + x;
        comp += if sum.abs() >= x.abs() {
            (sum - t) + x
        } else {
            (x - t) + sum
        };
        sum = t;
    }
    (sum + comp) / xs.len() as f64
}

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// (mean, low, high) of the 95% confidence interval of the mean (Student's
/// t with n - 1 degrees of freedom and the sample standard error).
fn mean_confidence_interval(data: &[f64]) -> (f64, f64, f64) {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    let n = data.len() as f64;
    let m = mean(data);
    let var = data.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    let se = var.sqrt() / n.sqrt();
    let t = StudentsT::new(0.0, 1.0, n - 1.0)
        .map(|d| d.inverse_cdf(0.975))
        .unwrap_or(f64::NAN);
    let h = se * t;
    (m, m - h, m + h)
}

/// Why a report could not be made.
#[derive(Debug, PartialEq, Eq)]
pub struct MissingMeasurement {
    /// The measurement.
    pub measurement: String,
    /// The shader that lacks it.
    pub shader: String,
}

impl std::fmt::Display for MissingMeasurement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "measurement `{}` is missing for {}",
            self.measurement, self.shader
        )
    }
}

/// One measurement's comparison.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Measurement {
    /// The measurement's name.
    pub name: String,
    /// Totals over the shaders in both logs (loops unchanged, for the
    /// other measurements), before and after.
    pub total: (u64, u64),
    /// Totals over the shaders whose value changed.
    pub affected: (u64, u64),
    /// Shaders that got better, most improved last.
    pub helped: Vec<Key>,
    /// Shaders that got worse, least hurt first.
    pub hurt: Vec<Key>,
}

/// The whole comparison of two logs.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Comparison {
    /// Per measurement, in the order asked.
    pub measurements: Vec<Measurement>,
    /// Shaders only the first log has, sorted by name.
    pub lost: Vec<String>,
    /// Shaders only the second log has, sorted by name.
    pub gained: Vec<String>,
}

fn val(r: &Results, k: &Key, m: &str) -> Result<u64, MissingMeasurement> {
    r.get(k)
        .and_then(|s| s.get(m).copied())
        .ok_or_else(|| MissingMeasurement {
            measurement: m.to_string(),
            shader: format!("{} {}", k.0, k.1),
        })
}

/// A shader's value of `m` in both runs (0 where missing: callers only ask
/// for shaders `compare` found in both).
fn pair(before: &Results, after: &Results, k: &Key, m: &str) -> (u64, u64) {
    let get = |r: &Results| r.get(k).and_then(|s| s.get(m).copied()).unwrap_or(0);
    (get(before), get(after))
}

/// Compares two logs measurement by measurement, as `report.py` does.
pub fn compare(
    before: &Results,
    after: &Results,
    measurements: &[String],
) -> Result<Comparison, MissingMeasurement> {
    let mut c = Comparison::default();
    for m in measurements {
        let mut x = Measurement {
            name: m.clone(),
            ..Default::default()
        };
        for k in before.keys() {
            let b = val(before, k, m)?;
            if after.get(k).is_none() {
                continue;
            }
            // Unrolled loops would make the other measurements misleading.
            if m != "loops" && val(before, k, "loops")? != val(after, k, "loops")? {
                continue;
            }
            let a = val(after, k, m)?;
            x.total.0 += b;
            x.total.1 += a;
            if b != a {
                x.affected.0 += b;
                x.affected.1 += a;
                let higher_is_better = m == "threads";
                if (a > b) ^ higher_is_better {
                    x.hurt.push(k.clone());
                } else {
                    x.helped.push(k.clone());
                }
            }
        }
        let rel = |k: &Key, sign: f64| -> f64 {
            let (b, a) = pair(before, after, k, m);
            if b == 0 {
                a as f64
            } else {
                sign * (b as f64 - a as f64) / b as f64
            }
        };
        x.helped.sort_by(|p, q| rel(p, 1.0).total_cmp(&rel(q, 1.0)));
        x.hurt.sort_by(|p, q| rel(p, -1.0).total_cmp(&rel(q, -1.0)));
        c.measurements.push(x);
    }
    let name = |k: &Key| format!("{} {}", k.0, k.1);
    c.lost = before
        .keys()
        .iter()
        .filter(|k| after.get(k).is_none())
        .map(name)
        .collect();
    c.gained = after
        .keys()
        .iter()
        .filter(|k| before.get(k).is_none())
        .map(name)
        .collect();
    c.lost.sort();
    c.gained.sort();
    Ok(c)
}

/// (mean abs, median abs, min abs, max abs, mean rel, median rel, min rel,
/// max rel) of the changes of `keys`.
fn gather(keys: &[Key], before: &Results, after: &Results, m: &str) -> [f64; 8] {
    let pairs: Vec<(f64, f64)> = keys
        .iter()
        .map(|k| {
            let (b, a) = pair(before, after, k, m);
            (b as f64, a as f64)
        })
        .collect();
    let abs: Vec<f64> = pairs.iter().map(|(b, a)| (b - a).abs()).collect();
    let rel: Vec<f64> = pairs
        .iter()
        .map(|(b, a)| if *b == 0.0 { 0.0 } else { (b - a).abs() / b })
        .collect();
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    [
        mean(&abs),
        median(&abs),
        min(&abs),
        max(&abs),
        mean(&rel),
        median(&rel),
        min(&rel),
        max(&rel),
    ]
}

fn stats_lines(out: &mut String, who: &str, pad: &str, st: [f64; 8]) {
    let _ = writeln!(
        out,
        "{who} stats (abs) {pad}min: {} max: {} x\u{304}: {:.2} x\u{303}: {}",
        st[2] as u64,
        st[3] as u64,
        st[0],
        st[1].trunc() as u64
    );
    let _ = writeln!(
        out,
        "{who} stats (rel) {pad}min: {} max: {} x\u{304}: {} x\u{303}: {}",
        format_percent(st[6]),
        format_percent(st[7]),
        format_percent(st[4]),
        format_percent(st[5])
    );
}

/// The report `report.py` prints for two logs.
pub fn report(
    before: &Results,
    after: &Results,
    opts: &ReportOptions,
) -> Result<String, MissingMeasurement> {
    let c = compare(before, after, &opts.measurements)?;
    let mut out = String::new();
    let key_name = |k: &Key| format!("{} {}", k.0, k.1);
    for x in &c.measurements {
        if opts.summary_only {
            continue;
        }
        let m = &x.name;
        for k in &x.helped {
            let (b, a) = pair(before, after, k, m);
            let _ = writeln!(out, "{m} helped:   {}", result_string(&key_name(k), b, a));
        }
        if !x.helped.is_empty() {
            out.push('\n');
        }
        for k in &x.hurt {
            let (b, a) = pair(before, after, k, m);
            let _ = writeln!(out, "{m} HURT:   {}", result_string(&key_name(k), b, a));
        }
        if !x.hurt.is_empty() {
            out.push('\n');
        }
    }
    if !opts.summary_only {
        for p in &c.lost {
            let _ = writeln!(out, "LOST:   {p}");
        }
        if !c.lost.is_empty() {
            out.push('\n');
        }
        for p in &c.gained {
            let _ = writeln!(out, "GAINED: {p}");
        }
        if !c.gained.is_empty() {
            out.push('\n');
        }
    }
    let mut any = false;
    for x in &c.measurements {
        let (m, nh, nu) = (&x.name, x.helped.len(), x.hurt.len());
        any |= nh > 0 || nu > 0;
        if nh == 0 && nu == 0 && opts.changes_only {
            continue;
        }
        let _ = writeln!(
            out,
            "total {m} in shared programs: {}\n{m} in affected programs: {}\nhelped: {nh}\nHURT: {nu}",
            change(x.total.0 as f64, x.total.1 as f64),
            change(x.affected.0 as f64, x.affected.1 as f64)
        );
        // Statistics of spills and fills are usually meaningless.
        if m == "spills" || m == "fills" {
            out.push('\n');
            continue;
        }
        if nh > 2 || (nh > 0 && nu > 0) {
            stats_lines(&mut out, "helped", "", gather(&x.helped, before, after, m));
        }
        if nu > 2 || (nu > 0 && nh > 0) {
            stats_lines(&mut out, "HURT", "  ", gather(&x.hurt, before, after, m));
        }
        if nh + nu > 3 {
            confidence(&mut out, m, &x.helped, &x.hurt, before, after);
        }
        out.push('\n');
    }
    if !c.lost.is_empty() || !c.gained.is_empty() || !opts.changes_only {
        let _ = writeln!(out, "LOST:   {}", c.lost.len());
        let _ = writeln!(out, "GAINED: {}", c.gained.len());
    } else if !any {
        out.push_str("No changes.\n");
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "Total CPU time (seconds): {}",
        change(before.time, after.time)
    );
    Ok(out)
}

/// The confidence intervals of the mean change and the mean relative
/// change, and the conservative verdict.
fn confidence(
    out: &mut String,
    m: &str,
    helped: &[Key],
    hurt: &[Key],
    before: &Results,
    after: &Results,
) {
    let pairs: Vec<(f64, f64)> = helped
        .iter()
        .chain(hurt)
        .map(|k| {
            let (b, a) = pair(before, after, k, m);
            (b as f64, a as f64)
        })
        .collect();
    let abs: Vec<f64> = pairs.iter().map(|(b, a)| a - b).collect();
    let rel: Vec<f64> = pairs
        .iter()
        .map(|(b, a)| if *b == 0.0 { 0.0 } else { (a - b) / b })
        .collect();
    let (_, vlo, vhi) = mean_confidence_interval(&abs);
    let (_, plo, phi) = mean_confidence_interval(&rel);
    let _ = writeln!(
        out,
        "95% mean confidence interval for {m} value: {vlo:.2} {vhi:.2}"
    );
    let _ = writeln!(
        out,
        "95% mean confidence interval for {m} %-change: {} {}",
        format_percent(plo),
        format_percent(phi)
    );
    let verdict = if vlo < 0.0 && vhi > 0.0 {
        "Inconclusive result (value mean confidence interval includes 0).".to_string()
    } else if plo < 0.0 && phi > 0.0 {
        "Inconclusive result (%-change mean confidence interval includes 0).".to_string()
    } else if (vlo < 0.0) != (plo < 0.0) {
        "Inconclusive result (value mean confidence interval and %-change mean confidence interval disagree).".to_string()
    } else {
        let mut name = m.to_lowercase();
        if let Some(f) = name.get(..1).map(str::to_uppercase) {
            name.replace_range(..1, &f);
        }
        format!("{name} are {}.", if vlo < 0.0 { "helped" } else { "HURT" })
    };
    let _ = writeln!(out, "{verdict}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(app: &str, inst: u64, loops: u64) -> String {
        let s = ShaderStats {
            instructions: inst,
            loops,
            cycles: 2 * inst,
            spills: 0,
            fills: 0,
            sends: 1,
            registers: 5,
        };
        log_line(app, "CS SIMD8", &s)
    }

    #[test]
    fn log_lines_read_back_as_report_py_reads_them() {
        let l = line("corpus/x.sir", 42, 1);
        assert_eq!(
            l,
            "corpus/x.sir - CS SIMD8 shader: 42 inst, 1 loops, 84 cycles, 0:0 spills:fills, 1 sends, 5 registers, compacted 672 to 672 bytes."
        );
        let r = parse_log(&format!("{l}\n{}\n", time_line(1.25, 1, 0)));
        let key = ("corpus/x.sir".to_string(), "CS SIMD8".to_string());
        let want: BTreeMap<String, u64> = [
            ("instructions", 42),
            ("loops", 1),
            ("cycles", 84),
            ("spills", 0),
            ("fills", 0),
            ("sends", 1),
            ("registers", 5),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(r.get(&key), Some(&want));
        assert_eq!(r.time, 1.25);
        // Mesa's own items that are not `VALUE NAME` pairs are skipped.
        let mesa = parse_stats("26 inst, 0 loops, 118 cycles, 0:0 spills:fills, 3 sends, scheduled with mode top-down, Promoted 0 constants, compacted 416 to 304 bytes.");
        assert_eq!(mesa.get("instructions"), Some(&26));
        assert_eq!(mesa.get("sends"), Some(&3));
        assert_eq!(mesa.len(), 6);
    }

    #[test]
    fn the_report_is_report_pys_to_the_character() {
        let before = [
            line("a", 10, 0),
            line("b", 20, 1),
            line("c", 30, 0),
            line("d", 40, 0),
            line("e", 50, 0),
            line("lost", 5, 0),
            time_line(2.0, 6, 0),
        ]
        .join("\n");
        let after = [
            line("a", 8, 0),
            line("b", 20, 2),
            line("c", 33, 0),
            line("d", 36, 0),
            line("e", 45, 0),
            line("gained", 7, 0),
            time_line(1.0, 6, 0),
        ]
        .join("\n");
        let opts = ReportOptions {
            measurements: vec!["instructions".into(), "loops".into()],
            ..ReportOptions::default()
        };
        let got = report(&parse_log(&before), &parse_log(&after), &opts).unwrap();
        // Worked by hand. b changed its loop count, so only its loops are
        // compared. Helped, sorted by relative change: d and e (-10%, in log
        // order), a (-20%); HURT: c. Changes of helped then HURT:
        // [-4, -5, -2, +3]: mean -2, sample sd sqrt(38/3), se sd/2, t(0.975,
        // 3) = 3.182446, so -2 -+ 5.663 = -7.66 .. 3.66; relative [-.1, -.1,
        // -.2, .1]: mean -.075, se .0629153, so -27.52% .. 12.52%.
        let pad = |s: &str| format!("{s:<50}");
        let want = format!(
            "instructions helped:   {}40 -> 36 (-10.00%)\n\
             instructions helped:   {}50 -> 45 (-10.00%)\n\
             instructions helped:   {}10 -> 8 (-20.00%)\n\
             \n\
             instructions HURT:   {}30 -> 33 (10.00%)\n\
             \n\
             loops HURT:   {}1 -> 2 (100.00%)\n\
             \n\
             LOST:   lost CS SIMD8\n\
             \n\
             GAINED: gained CS SIMD8\n\
             \n\
             total instructions in shared programs: 130 -> 122 (-6.15%)\n\
             instructions in affected programs: 130 -> 122 (-6.15%)\n\
             helped: 3\n\
             HURT: 1\n\
             helped stats (abs) min: 2 max: 5 x\u{304}: 3.67 x\u{303}: 4\n\
             helped stats (rel) min: 10.00% max: 20.00% x\u{304}: 13.33% x\u{303}: 10.00%\n\
             HURT stats (abs)   min: 3 max: 3 x\u{304}: 3.00 x\u{303}: 3\n\
             HURT stats (rel)   min: 10.00% max: 10.00% x\u{304}: 10.00% x\u{303}: 10.00%\n\
             95% mean confidence interval for instructions value: -7.66 3.66\n\
             95% mean confidence interval for instructions %-change: -27.52% 12.52%\n\
             Inconclusive result (value mean confidence interval includes 0).\n\
             \n\
             total loops in shared programs: 1 -> 2 (100.00%)\n\
             loops in affected programs: 1 -> 2 (100.00%)\n\
             helped: 0\n\
             HURT: 1\n\
             \n\
             LOST:   1\n\
             GAINED: 1\n\
             \n\
             Total CPU time (seconds): 2 -> 1 (-50.00%)\n",
            pad("d CS SIMD8: "),
            pad("e CS SIMD8: "),
            pad("a CS SIMD8: "),
            pad("c CS SIMD8: "),
            pad("b CS SIMD8: "),
        );
        assert_eq!(got, want);
        let missing = ReportOptions {
            measurements: vec!["threads".into()],
            ..ReportOptions::default()
        };
        assert_eq!(
            report(&parse_log(&before), &parse_log(&after), &missing)
                .unwrap_err()
                .to_string(),
            "measurement `threads` is missing for a CS SIMD8"
        );
    }

    #[test]
    fn percentages_and_numbers_format_as_report_py() {
        assert_eq!(change(22.0, 22.0), "22 -> 22 (0.00%)");
        assert_eq!(change(6240413.0, 6235841.0), "6240413 -> 6235841 (-0.07%)");
        assert_eq!(change(100000.0, 99999.0), "100000 -> 99999 (<.01%)");
        assert_eq!(change(0.0, 5.0), "0 -> 5");
        assert_eq!(change(5.0, 0.0), "5 -> 0");
        assert_eq!(format_num(0.125), "0.12");
        assert_eq!(format_num(3.004), "3");
    }
}
