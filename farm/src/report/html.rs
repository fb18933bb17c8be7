//! HTML pieces: escaping, tables, preformatted code and diffs, and the
//! page's stylesheet (inline: the page loads nothing).

use std::fmt::Write;

/// Escapes text for HTML element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A table: a header row and body rows of cells that are already HTML.
/// Numeric columns (`numeric[i]`) are right-aligned. It scrolls sideways
/// inside its own box rather than widening the page.
pub fn table(head: &[&str], numeric: &[bool], rows: &[Vec<String>]) -> String {
    let mut s = String::from("<div class=\"scroll\"><table><thead><tr>");
    for (i, h) in head.iter().enumerate() {
        let class = if numeric.get(i) == Some(&true) {
            " class=\"num\""
        } else {
            ""
        };
        let _ = write!(s, "<th{class}>{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>");
    for row in rows {
        s.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let class = if numeric.get(i) == Some(&true) {
                " class=\"num\""
            } else {
                ""
            };
            let _ = write!(s, "<td{class}>{cell}</td>");
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div>");
    s
}

/// Preformatted code (escaped), scrolling sideways inside its box.
pub fn code(text: &str) -> String {
    format!("<pre class=\"code\">{}</pre>", esc(text.trim_end()))
}

/// A unified diff with its changed lines marked (`ins`/`del`) and hunk
/// headers dimmed.
pub fn diff(text: &str) -> String {
    let mut s = String::from("<pre class=\"code diff\">");
    for line in text.lines() {
        let class = if line.starts_with("+++") || line.starts_with("---") {
            "file"
        } else if line.starts_with('+') {
            "ins"
        } else if line.starts_with('-') {
            "del"
        } else if line.starts_with("@@") {
            "hunk"
        } else {
            "ctx"
        };
        // Block spans: one per line, so no newline between them.
        let _ = write!(
            s,
            "<span class=\"{class}\">{}</span>",
            esc(if line.is_empty() { " " } else { line })
        );
    }
    s.push_str("</pre>");
    s
}

/// Collapsible content.
pub fn details(summary: &str, body: &str) -> String {
    format!(
        "<details><summary>{}</summary>{body}</details>",
        esc(summary)
    )
}

/// The page's stylesheet.
pub const STYLE: &str = r#"
:root { color-scheme: light; --fg: #1d2330; --dim: #5b6475; --line: #d9dde5; --bg2: #f4f6f9; --accent: #2456a6; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 20px 24px 60px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 34px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 17px; margin: 26px 0 8px; overflow-wrap: anywhere; }
p.sub { color: var(--dim); margin: 0 0 16px; overflow-wrap: anywhere; }
a { color: var(--accent); }
.figures { display: flex; flex-wrap: wrap; gap: 10px; margin: 14px 0; }
.figure { background: var(--bg2); border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 130px; }
.figure b { display: block; font-size: 22px; }
.figure span { color: var(--dim); font-size: 13px; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; }
.charts > div { flex: 1 1 320px; max-width: 420px; border: 1px solid var(--line); border-radius: 6px; padding: 4px; }
svg.chart { width: 100%; height: auto; display: block; }
svg .title { font: 600 13px system-ui, sans-serif; fill: var(--fg); }
svg .tick { font: 10px system-ui, sans-serif; fill: var(--dim); }
svg .label { font: 11px system-ui, sans-serif; fill: var(--dim); }
svg .grid { stroke: #eceef3; stroke-width: 1; }
svg .axis { stroke: #9aa3b2; stroke-width: 1; }
svg .line { fill: none; stroke: var(--accent); stroke-width: 2; }
svg .dot { fill: var(--accent); }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 14px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: var(--bg2); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td > code:only-child, a.name code { white-space: nowrap; overflow-wrap: normal; }
.variant { white-space: nowrap; font-size: 13px; }
td code, p code { background: var(--bg2); padding: 0 3px; border-radius: 3px; overflow-wrap: anywhere; }
.bar { display: inline-block; height: 10px; background: var(--accent); opacity: .55; vertical-align: middle; border-radius: 2px; }
pre.code { background: var(--bg2); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; overflow-x: auto; max-width: 100%; font: 12.5px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
pre.diff span { display: block; }
pre.diff .ins { background: #dff5e1; color: #11521c; }
pre.diff .del { background: #fde2e1; color: #8a1a14; }
pre.diff .hunk { color: #6f42c1; }
pre.diff .file { color: var(--dim); }
details { margin: 6px 0; }
summary { cursor: pointer; color: var(--accent); }
.bucket { border-top: 2px solid var(--line); margin-top: 28px; }
.kind { font-size: 12px; padding: 1px 6px; border-radius: 10px; background: #fde2e1; color: #8a1a14; white-space: nowrap; }
.ok { background: #dff5e1; color: #11521c; }
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(esc("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
    }

    #[test]
    fn diffs_mark_their_lines() {
        let d = diff("--- before\n+++ after\n@@ -1,2 +1,2 @@\n mov\n-add <x>\n+add.sat\n");
        assert_eq!(
            d,
            "<pre class=\"code diff\"><span class=\"file\">--- before</span>\
             <span class=\"file\">+++ after</span>\
             <span class=\"hunk\">@@ -1,2 +1,2 @@</span>\
             <span class=\"ctx\"> mov</span>\
             <span class=\"del\">-add &lt;x&gt;</span>\
             <span class=\"ins\">+add.sat</span></pre>"
        );
    }

    #[test]
    fn tables_right_align_numbers() {
        let t = table(
            &["pass", "runs"],
            &[false, true],
            &[vec!["<b>x</b>".into(), "3".into()]],
        );
        assert_eq!(
            t,
            "<div class=\"scroll\"><table><thead><tr><th>pass</th><th class=\"num\">runs</th></tr></thead>\
             <tbody><tr><td><b>x</b></td><td class=\"num\">3</td></tr></tbody></table></div>"
        );
    }
}
