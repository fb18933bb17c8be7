//! The page: sections in reading order, each from [`CampaignData`].

use super::html::{code, details, diff, esc, table, STYLE};
use super::svg::Chart;
use super::{BucketData, CampaignData, Reduced};
use ir::SlotType;
use std::fmt::Write;

/// The whole page. `links` prefixes links to finding files (empty:
/// relative to the campaign directory).
pub fn render(d: &CampaignData, links: &str) -> String {
    let mut s = String::new();
    let title = format!("shaderfarm campaign {}", d.dir.display());
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body><main>",
        esc(&title)
    );
    header(&mut s, d);
    config(&mut s, d);
    history(&mut s, d);
    verdicts(&mut s, d);
    bucket_table(&mut s, d, links);
    passes(&mut s, d);
    points(&mut s, d);
    driver(&mut s, d);
    for (i, b) in d.buckets.iter().enumerate() {
        bucket_section(&mut s, i + 1, b, links);
    }
    s.push_str("</main></body></html>\n");
    s
}

fn header(s: &mut String, d: &CampaignData) {
    let _ = write!(
        s,
        "<h1>Campaign report</h1><p class=\"sub\"><code>{}</code>",
        esc(&d.dir.display().to_string())
    );
    if let Some(st) = &d.stats {
        let state = if st.finished {
            "finished"
        } else {
            "running, or stopped before it finished"
        };
        let _ = write!(s, " · {state}");
    }
    if let Some(v) = d.campaign.as_ref().and_then(|c| c["version"].as_str()) {
        let _ = write!(s, " · farm {}", esc(v));
    }
    s.push_str("</p><div class=\"figures\">");
    let fig = |s: &mut String, value: String, what: &str| {
        let _ = write!(
            s,
            "<div class=\"figure\"><b>{}</b><span>{}</span></div>",
            esc(&value),
            esc(what)
        );
    };
    if let Some(st) = &d.stats {
        let c = &st.counters;
        fig(s, group(c.cases), "cases");
        fig(s, group(c.config_runs), "config-runs");
        fig(s, duration(st.elapsed_s), "of work");
        fig(
            s,
            format!("{:.0}", st.config_runs_per_s / st.jobs.max(1) as f64),
            &format!(
                "config-runs/s per core ({} job{})",
                st.jobs,
                if st.jobs == 1 { "" } else { "s" }
            ),
        );
        fig(s, group(c.failing_runs()), "failing config-runs");
    }
    let reduced = d.buckets.iter().filter(|b| b.bucket.reduced).count();
    fig(s, d.buckets.len().to_string(), "buckets (bugs)");
    fig(s, format!("{reduced}/{}", d.buckets.len()), "reduced");
    s.push_str("</div>");
}

fn config(s: &mut String, d: &CampaignData) {
    let Some(c) = &d.campaign else { return };
    s.push_str("<h2 id=\"config\">Config</h2>");
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(t) => t.clone(),
        serde_json::Value::Array(a) => a
            .iter()
            .map(|x| x.as_str().map_or(x.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(", "),
        serde_json::Value::Null => "-".into(),
        other => other.to_string(),
    };
    let rows: Vec<Vec<String>> = [
        ("targets", "targets"),
        ("seed", "seed (case g uses seed + g)"),
        ("strategies", "strategies"),
        ("passes", "pass sets"),
        ("simd", "SIMD widths"),
        ("inject", "injected bugs"),
        ("shards", "shards"),
    ]
    .iter()
    .filter(|(k, _)| !c[*k].is_null())
    .map(|(k, label)| vec![esc(label), format!("<code>{}</code>", esc(&text(&c[*k])))])
    .collect();
    s.push_str(&table(&["setting", "value"], &[], &rows));
    if !c["generator"].is_null() {
        let pretty = serde_json::to_string_pretty(&c["generator"]).unwrap_or_default();
        s.push_str(&details(
            "generator config (JSON, as --config reads it)",
            &code(&pretty),
        ));
    }
}

fn history(s: &mut String, d: &CampaignData) {
    s.push_str("<h2 id=\"history\">Over time</h2><div class=\"charts\">");
    let h = &d.history;
    // Counts start at (0, 0); a rate has no value before the first checkpoint.
    let series = |origin: bool,
                  f: &dyn Fn(&crate::campaign::stats::HistoryPoint) -> f64|
     -> Vec<(f64, f64)> {
        let start = (origin && !h.is_empty()).then_some((0.0, 0.0));
        start
            .into_iter()
            .chain(h.iter().map(|p| (p.elapsed_s, f(p))))
            .collect()
    };
    for (title, y, points) in [
        (
            "Throughput",
            "config-runs/s",
            series(false, &|p| p.config_runs_per_s),
        ),
        ("Cases done", "cases", series(true, &|p| p.cases as f64)),
        (
            "Buckets (bugs) found",
            "buckets",
            series(true, &|p| p.buckets as f64),
        ),
    ] {
        let chart = Chart {
            title,
            x_label: "elapsed (s)",
            y_label: y,
            points: &points,
        };
        let _ = write!(s, "<div>{}</div>", chart.svg());
    }
    s.push_str("</div>");
}

fn verdicts(s: &mut String, d: &CampaignData) {
    let Some(st) = &d.stats else { return };
    let c = &st.counters;
    if c.per_strategy.is_empty() {
        return;
    }
    let kinds: Vec<&String> = c.verdicts.keys().collect();
    s.push_str("<h2 id=\"verdicts\">Verdicts</h2>");
    let mut head = vec!["config-runs of"];
    head.extend(kinds.iter().map(|k| k.as_str()));
    let mut numeric = vec![false];
    numeric.extend(kinds.iter().map(|_| true));
    let mut rows: Vec<Vec<String>> = c
        .per_strategy
        .iter()
        .map(|(strategy, m)| {
            let mut row = vec![format!("<code>{}</code>", esc(strategy))];
            row.extend(kinds.iter().map(|k| group(m.get(*k).copied().unwrap_or(0))));
            row
        })
        .collect();
    let mut total = vec!["<b>all</b>".to_string()];
    total.extend(
        kinds
            .iter()
            .map(|k| format!("<b>{}</b>", group(c.verdicts[*k]))),
    );
    rows.push(total);
    s.push_str(&table(&head, &numeric, &rows));
    if c.oracle_suspect > 0 {
        let _ = write!(
            s,
            "<p>{} cases failed the same way under every config: a bug in an IR pass does \
             this, and so would a bug in the oracle or the simulator.</p>",
            c.oracle_suspect
        );
    }
}

fn bucket_table(s: &mut String, d: &CampaignData, links: &str) {
    s.push_str("<h2 id=\"buckets\">Buckets: one per bug</h2>");
    if d.buckets.is_empty() {
        s.push_str("<p>Nothing found.</p>");
        return;
    }
    s.push_str(
        "<p>A bucket is one bug: verdict kind, culprit and detail. The configs it showed up \
         under are its variants, with their failing config-runs.</p>",
    );
    let rows: Vec<Vec<String>> = d
        .buckets
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let variants = variant_lines(&b.bucket.variants);
            vec![
                (i + 1).to_string(),
                format!(
                    "<a class=\"name\" href=\"#b{}\"><code>{}</code></a>",
                    i + 1,
                    esc(&b.name)
                ),
                group(b.bucket.hits),
                b.bucket.first_case.to_string(),
                variants,
                reduced_size(b),
                format!(
                    "<a href=\"{links}findings/{0}/\">finding</a>{1}",
                    esc(&b.name),
                    if b.bucket.reduced {
                        format!(
                            "<br><a href=\"{links}findings/{}/reduced/report.md\">report.md</a>",
                            esc(&b.name)
                        )
                    } else {
                        String::new()
                    }
                ),
            ]
        })
        .collect();
    s.push_str(&table(
        &[
            "#",
            "bucket (kind-culprit-detail)",
            "hits",
            "first case",
            "variants: hits per SIMD width",
            "reduced (instrs)",
            "files",
        ],
        &[true, false, true, true, false, false, false],
        &rows,
    ));
}

/// A bucket's variants, one line per target and strategy with its hits per
/// SIMD width: `model bool16: simd8 × 3, simd16 × 2`.
fn variant_lines(variants: &std::collections::BTreeMap<String, u64>) -> String {
    let mut lines: Vec<(String, Vec<String>)> = Vec::new();
    for (key, n) in variants {
        let (head, width) = key.rsplit_once(' ').unwrap_or(("", key));
        let item = format!("{} × {n}", esc(width));
        match lines.last_mut() {
            Some((h, items)) if h == head => items.push(item),
            _ => lines.push((head.to_string(), vec![item])),
        }
    }
    lines
        .iter()
        .map(|(head, items)| {
            format!(
                "<div class=\"variant\"><code>{}</code> {}</div>",
                esc(head),
                items.join(", ")
            )
        })
        .collect()
}

/// Kind, culprit and detail of a bucket, from its reduced report or its
/// verdict (or, failing both, its name).
fn parts(b: &BucketData) -> (String, String, String) {
    let sig = match &b.reduced {
        Some(Reduced::Model(r)) => Some(&r.signature),
        Some(Reduced::Driver(r)) => Some(&r.signature),
        None => None,
    };
    if let Some(sig) = sig {
        return (
            sig.kind.clone(),
            sig.culprit.clone().unwrap_or_default(),
            sig.detail.clone().unwrap_or_default(),
        );
    }
    match &b.verdict {
        Some(v) => (
            v.kind.clone(),
            v.culprit.clone().unwrap_or_default(),
            String::new(),
        ),
        None => (b.name.clone(), String::new(), String::new()),
    }
}

fn reduced_size(b: &BucketData) -> String {
    match (&b.reduced, &b.bucket.reduce_error) {
        (Some(r), _) => match (b.case_instrs, r.instrs()) {
            (Some(from), Some(to)) => format!("{from} → {to}"),
            (_, Some(to)) => to.to_string(),
            _ => "yes".into(),
        },
        (None, Some(e)) => format!("failed: {}", esc(e)),
        (None, None) if b.bucket.reduced => "report unreadable".into(),
        (None, None) => "queued".into(),
    }
}

fn passes(s: &mut String, d: &CampaignData) {
    let Some(st) = &d.stats else { return };
    let c = &st.counters;
    if c.cases == 0 || c.pass_changed.is_empty() {
        return;
    }
    s.push_str(
        "<h2 id=\"passes\">Passes</h2><p>How often each pass changed the program: in how many \
         config-runs, and in how many cases (under at least one of a case's configs).</p>",
    );
    // Campaigns of older farms counted config-runs only.
    let have_cases = !c.pass_cases.is_empty();
    let max = c.pass_cases.values().copied().max().unwrap_or(1).max(1);
    let rows: Vec<Vec<String>> = compiler::PASSES
        .iter()
        .map(|p| {
            let name = p.full_name();
            let runs = c.pass_changed.get(&name).copied().unwrap_or(0);
            let cases = c.pass_cases.get(&name).copied().unwrap_or(0);
            let width = (cases as f64 / max as f64 * 120.0).round();
            let (cases, share, bar) = if have_cases {
                (
                    group(cases),
                    format!("{:.1}%", cases as f64 * 100.0 / c.cases as f64),
                    format!("<span class=\"bar\" style=\"width:{width}px\"></span>"),
                )
            } else {
                ("-".into(), "-".into(), String::new())
            };
            vec![
                format!("<code>{}</code>", esc(&name)),
                group(runs),
                cases,
                share,
                bar,
                esc(p.doc),
            ]
        })
        .collect();
    s.push_str(&table(
        &[
            "pass",
            "config-runs",
            "cases",
            "of cases",
            "",
            "what it does",
        ],
        &[false, true, true, true, false, false],
        &rows,
    ));
}

/// Decision points per stage: how many the campaign reached, the rarest
/// reached ones, and the ones never reached.
fn points(s: &mut String, d: &CampaignData) {
    let Some(st) = &d.stats else { return };
    let reached = &st.counters.decision_points;
    if reached.is_empty() {
        return;
    }
    let catalogue = compiler::coverage::catalogue();
    s.push_str(
        "<h2 id=\"points\">Decision points</h2><p>The rewrites each pass applied and the \
         reasons it refused one, lowering's choices and register allocation's events, as the \
         compiler reports them: how many of each stage's points the campaign reached.</p>",
    );
    let stage_of = |name: &str| name.split('/').next().unwrap_or("").to_string();
    let mut stages: Vec<(String, usize, usize, Vec<&str>)> = Vec::new();
    for p in &catalogue {
        let stage = stage_of(p.name());
        if stages.last().is_none_or(|x| x.0 != stage) {
            stages.push((stage.clone(), 0, 0, vec![]));
        }
        let row = stages.last_mut().expect("pushed above");
        row.2 += 1;
        if reached.contains_key(p.name()) {
            row.1 += 1;
        } else {
            row.3.push(p.name());
        }
    }
    let rows: Vec<Vec<String>> = stages
        .iter()
        .map(|(stage, hit, total, never)| {
            vec![
                format!("<code>{}</code>", esc(stage)),
                format!("{hit} / {total}"),
                never
                    .iter()
                    .map(|n| format!("<code>{}</code>", esc(n.split_once('/').map_or(n, |x| x.1))))
                    .collect::<Vec<_>>()
                    .join(" "),
            ]
        })
        .collect();
    s.push_str(&table(
        &["stage", "reached", "never reached"],
        &[false, true, false],
        &rows,
    ));
    let mut rare: Vec<(&String, &crate::campaign::stats::PointCount)> = reached.iter().collect();
    rare.sort_by_key(|(name, c)| (c.cases, name.as_str()));
    let rows: Vec<Vec<String>> = rare
        .iter()
        .take(15)
        .map(|(name, c)| {
            vec![
                format!("<code>{}</code>", esc(name)),
                group(c.cases),
                group(c.hits),
                c.first_case.to_string(),
            ]
        })
        .collect();
    s.push_str(&details(
        "the rarest points reached",
        &table(
            &["point", "cases", "hits", "first case"],
            &[false, true, true, true],
            &rows,
        ),
    ));
}

fn driver(s: &mut String, d: &CampaignData) {
    let Some(st) = &d.stats else { return };
    let c = &st.counters;
    let t = &c.driver_time;
    if t.runs == 0 {
        return;
    }
    s.push_str("<h2 id=\"driver\">Driver runs</h2>");
    let per = |secs: f64| format!("{:.2} ms", secs * 1e3 / t.runs as f64);
    let rows = vec![
        vec!["SPIR-V export (in-process)".into(), per(t.export_s)],
        vec!["pipeline creation".into(), per(t.pipeline_s)],
        vec![
            "dispatch and wait (lavapipe compiles here)".into(),
            per(t.dispatch_s),
        ],
        vec!["whole job, as the farm saw it".into(), per(t.job_s)],
    ];
    let _ = write!(
        s,
        "<p>{} cases ran on a driver. Time per case:</p>",
        group(t.runs)
    );
    s.push_str(&table(&["part", "mean"], &[false, true], &rows));
    if !c.excluded.is_empty() {
        s.push_str(
            "<p>Output pairs not compared because the Vulkan spec lets a driver compute them \
             differently (see the design document's relaxations):</p>",
        );
        let rows: Vec<Vec<String>> = c
            .excluded
            .iter()
            .map(|(k, n)| vec![format!("<code>{}</code>", esc(k)), group(*n)])
            .collect();
        s.push_str(&table(&["relaxation", "pairs"], &[false, true], &rows));
    }
}

fn bucket_section(s: &mut String, n: usize, b: &BucketData, links: &str) {
    let (kind, _, _) = parts(b);
    let _ = write!(
        s,
        "<section class=\"bucket\" id=\"b{n}\"><h3>{n}. <code>{}</code> <span class=\"kind\">{}</span></h3>",
        esc(&b.name),
        esc(&kind)
    );
    let _ = write!(
        s,
        "<p>{} failing config-runs; first case {}.</p>",
        group(b.bucket.hits),
        b.bucket.first_case
    );
    match &b.reduced {
        Some(Reduced::Model(r)) => model_bucket(s, r),
        Some(Reduced::Driver(r)) => driver_bucket(s, r),
        None => {
            if let Some(e) = &b.bucket.reduce_error {
                let _ = write!(s, "<p>Not reduced: {}</p>", esc(e));
            } else {
                s.push_str("<p>Not reduced yet.</p>");
            }
            if let Some(v) = &b.verdict {
                s.push_str(&code(&v.text));
            }
            if let Some(c) = &b.case {
                s.push_str(&details("the case as found (case.sir)", &code(c)));
            }
        }
    }
    let _ = write!(
        s,
        "<p><a href=\"{links}findings/{}/\">finding directory</a> · <a href=\"#buckets\">back to the table</a></p></section>",
        esc(&b.name)
    );
}

fn model_bucket(s: &mut String, r: &triage::report::Report) {
    let _ = write!(s, "<p>{}</p>", esc(&r.signature.verdict));
    reduced_case(s, &r.repro, &r.case, &r.lanes, "got");
    if let Some(c) = &r.culprit {
        if c.diffable() {
            let _ = write!(
                s,
                "<p>What <code>{}</code> did (its input → its output):</p>",
                esc(&c.stage)
            );
            s.push_str(&diff(&c.diff()));
        } else {
            let _ = write!(s, "<p>The culprit: <code>{}</code>.</p>", esc(&c.stage));
            s.push_str(&details(&c.before.label, &code(&c.before.code)));
            match (&c.after, &c.error) {
                (Some(a), _) => s.push_str(&details(&a.label, &code(&a.code))),
                (None, Some(e)) => {
                    let _ = write!(s, "<p>It produced nothing: {}</p>", esc(e));
                }
                (None, None) => {}
            }
        }
    }
    if let Some(f) = &r.final_code {
        s.push_str(&details(&f.label, &code(&f.code)));
    }
    if !r.trail.is_empty() {
        let rows: Vec<Vec<String>> = r
            .trail
            .iter()
            .map(|t| {
                vec![
                    format!("<code>{}</code>", esc(&t.stage)),
                    esc(t.divergence.as_deref().unwrap_or("agrees")),
                ]
            })
            .collect();
        s.push_str(&details(
            "localization trail",
            &table(&["stage", "outputs"], &[], &rows),
        ));
    }
}

fn driver_bucket(s: &mut String, r: &triage::driver_report::DriverReport) {
    let _ = write!(s, "<p>{}</p>", esc(&r.signature.verdict));
    let dv = &r.device;
    s.push_str(&table(
        &[
            "device",
            "driver",
            "driver ID",
            "Vulkan",
            "conformance",
            "subgroup size",
        ],
        &[false, false, false, false, false, true],
        &[vec![
            esc(&dv.name),
            esc(&dv.driver),
            esc(&dv.driver_id),
            esc(&dv.api_version),
            esc(&dv.conformance),
            dv.subgroup_size.to_string(),
        ]],
    ));
    reduced_case(s, &r.repro.join("\n"), &r.case, &r.lanes, "driver");
    if !r.excluded.is_empty() {
        let _ = write!(
            s,
            "<p>Not compared (the Vulkan spec allows a difference): {}.</p>",
            esc(&r.excluded)
        );
    }
    s.push_str(&details("SPIR-V (reduced.spvasm)", &code(&r.spvasm)));
    s.push_str(&details(
        "VkRunner reproducer (repro.shader_test)",
        &code(&r.shader_test),
    ));
}

/// How to reproduce, the minimized case and its differing lanes.
fn reduced_case(
    s: &mut String,
    repro: &str,
    case: &str,
    rows: &[triage::report::LaneRow],
    got: &str,
) {
    s.push_str("<p>Reproduce (in <code>reduced/</code>):</p>");
    s.push_str(&code(repro));
    s.push_str("<p>Minimized case:</p>");
    s.push_str(&code(case));
    lanes(
        s,
        case,
        rows.iter().map(|l| (l.lane, l.slot, &l.expected, &l.got)),
        got,
    );
}

/// The differing lanes, with each value's bits in hex (values are printed
/// as the slot's type; the bits show what a bit pattern bug did).
fn lanes<'a>(
    s: &mut String,
    case: &str,
    rows: impl Iterator<Item = (u32, usize, &'a String, &'a String)>,
    got: &str,
) {
    let outputs = ir::parse_case(case)
        .map(|c| c.program.outputs)
        .unwrap_or_default();
    let rows: Vec<Vec<String>> = rows
        .map(|(lane, slot, want, have)| {
            let ty = outputs.get(slot).copied();
            vec![
                lane.to_string(),
                slot.to_string(),
                ty.map_or("?".into(), |t| t.name().to_string()),
                esc(want),
                esc(have),
                bits(ty, want),
                bits(ty, have),
            ]
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    s.push_str(&table(
        &[
            "invocation",
            "slot",
            "type",
            "expected",
            got,
            "expected bits",
            &format!("{got} bits"),
        ],
        &[true, true, false, true, true, true, true],
        &rows,
    ));
}

/// A value's bits in hex at its slot's width (empty when the text is not
/// a value of the type, e.g. `-` for never written).
pub fn bits(ty: Option<SlotType>, text: &str) -> String {
    let Some(ty) = ty.filter(|t| *t != SlotType::Bool) else {
        return String::new();
    };
    match ir::value::parse_value(ty, text) {
        Ok(v) => format!("<code>0x{v:0w$x}</code>", w = ty.bits() as usize / 4),
        Err(_) => String::new(),
    }
}

/// A count with thin groups (`12 345`).
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    out
}

/// Seconds as `42 s`, `3 min 20 s`, `2 h 05 min`.
pub fn duration(secs: f64) -> String {
    let t = secs.max(0.0).round() as u64;
    match t {
        0..=59 => format!("{t} s"),
        60..=3599 => format!("{} min {:02} s", t / 60, t % 60),
        _ => format!("{} h {:02} min", t / 3600, t % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_show_their_bits_at_the_slot_width() {
        assert_eq!(
            bits(Some(SlotType::I32), "-65535"),
            "<code>0xffff0001</code>"
        );
        assert_eq!(bits(Some(SlotType::I16), "-32768"), "<code>0x8000</code>");
        assert_eq!(bits(Some(SlotType::F32), "1.5"), "<code>0x3fc00000</code>");
        assert_eq!(bits(Some(SlotType::F16), "0x7e01"), "<code>0x7e01</code>");
        assert_eq!(bits(Some(SlotType::I8), "-"), "");
        assert_eq!(bits(Some(SlotType::Bool), "true"), "");
        assert_eq!(bits(None, "3"), "");
    }

    #[test]
    fn counts_and_durations_read_easily() {
        assert_eq!(group(7), "7");
        assert_eq!(group(1234), "1\u{2009}234");
        assert_eq!(group(1_234_567), "1\u{2009}234\u{2009}567");
        assert_eq!(duration(42.4), "42 s");
        assert_eq!(duration(200.0), "3 min 20 s");
        assert_eq!(duration(7500.0), "2 h 05 min");
    }
}
