//! The campaign report (`farm report`, and `report.html` at the end of
//! `farm fuzz`): what the page holds, that it loads nothing from anywhere,
//! and how it looks in a real browser: headless Chromium (Debian's
//! `chromium`, which `.ci/run` installs) driven over the DevTools protocol
//! on a pipe, failing on a console error, an exception, a failed load, a
//! page wider than the window, or a blank screenshot.

use base64::Engine;
use command_fds::{CommandFdExt, FdMapping};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::OnceLock;
use std::time::Duration;

fn farm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_farm"))
        .args(args)
        .output()
        .expect("farm runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// One campaign with three bugs injected, shared by the tests.
fn campaign() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("farm-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let o = farm(&[
            "fuzz",
            "--cases",
            "80",
            "--seed",
            "9",
            "--jobs",
            "1",
            "--inject",
            "bitfield-expand-edge,bool16-zero-extend,dce-flag-halves",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
        let out = text(&o.stdout);
        assert!(
            out.ends_with(&format!("report: {}\n", dir.join("report.html").display())),
            "{out}"
        );
        dir
    })
}

#[test]
fn the_page_holds_every_bucket_and_loads_nothing() {
    let dir = campaign();
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    // Self-contained: no scripts, nothing fetched.
    for banned in ["<script", "http://", "https://", "<link", "@import", "<img"] {
        assert!(!html.contains(banned), "the page contains {banned:?}");
    }
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    // The bucket index names three bugs; each has a row, a section and a
    // diff of its culprit pass (lowering translates, so it has none).
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("buckets.json")).unwrap()).unwrap();
    let names: Vec<&String> = index["buckets"].as_object().unwrap().keys().collect();
    assert_eq!(
        names,
        [
            "mismatch-eu_dce",
            "mismatch-ir_bitfield",
            "mismatch-lowering"
        ]
    );
    for (i, name) in names.iter().enumerate() {
        let n = i + 1;
        assert!(
            html.contains(&format!(
                "<a class=\"name\" href=\"#b{n}\"><code>{name}</code></a>"
            )),
            "no row for {name}"
        );
        assert!(html.contains(&format!("<section class=\"bucket\" id=\"b{n}\">")));
        assert!(html.contains(&format!("<a href=\"findings/{name}/reduced/report.md\">")));
    }
    assert_eq!(html.matches("<pre class=\"code diff\">").count(), 2);
    assert!(html.contains("What <code>eu:dce</code> did (its input → its output):"));
    assert!(html.contains("What <code>ir:bitfield</code> did (its input → its output):"));
    assert!(html.contains("The culprit: <code>lowering</code>."));
    // Three charts from stats.jsonl, and the pass table with every pass.
    assert_eq!(html.matches("<svg class=\"chart\"").count(), 3);
    for p in compiler::PASSES {
        assert!(html.contains(&format!("<td><code>{}</code></td>", p.full_name())));
    }
    // Written elsewhere, the page links the campaign by absolute address.
    let elsewhere = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("farm-report-{}-copy.html", std::process::id()));
    let o = farm(&[
        "report",
        dir.to_str().unwrap(),
        "--out",
        elsewhere.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let copy = std::fs::read_to_string(&elsewhere).unwrap();
    let base = format!(
        "file://{}/findings/",
        std::fs::canonicalize(dir).unwrap().display()
    );
    assert!(
        copy.contains(&format!("<a href=\"{base}mismatch-eu_dce/\">")),
        "{base}"
    );
    // Not a campaign: a clear error.
    let o = farm(&["report", std::env::temp_dir().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("is not a campaign directory"),
        "{}",
        text(&o.stderr)
    );
}

/// Headless Chromium with the DevTools protocol on fds 3 (commands in) and
/// 4 (answers and events out), NUL-separated JSON messages.
struct Browser {
    child: std::process::Child,
    to: std::io::PipeWriter,
    from: Receiver<serde_json::Value>,
    next_id: u64,
    /// Every event seen so far.
    events: Vec<serde_json::Value>,
    profile: PathBuf,
}

impl Browser {
    fn start() -> Browser {
        let profile = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("farm-report-chromium-{}", std::process::id()));
        let (cmd_read, cmd_write) = std::io::pipe().unwrap();
        let (out_read, out_write) = std::io::pipe().unwrap();
        let mut c = Command::new("chromium");
        c.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--hide-scrollbars",
            "--remote-debugging-pipe",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .fd_mappings(vec![
            FdMapping {
                parent_fd: cmd_read.into(),
                child_fd: 3,
            },
            FdMapping {
                parent_fd: out_write.into(),
                child_fd: 4,
            },
        ])
        .unwrap();
        let child = c
            .spawn()
            .unwrap_or_else(|e| panic!("chromium (Debian's package) must be installed: {e}"));
        // The command holds the child's ends; drop it so EOF can happen.
        drop(c);
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(out_read);
            let mut buf = Vec::new();
            while r.read_until(0, &mut buf).is_ok_and(|n| n > 0) {
                buf.pop();
                if let Ok(v) = serde_json::from_slice(&buf) {
                    if tx.send(v).is_err() {
                        break;
                    }
                }
                buf.clear();
            }
        });
        Browser {
            child,
            to: cmd_write,
            from: rx,
            next_id: 0,
            events: Vec::new(),
            profile,
        }
    }

    /// Sends a command (to the page's session, if given) and waits for its
    /// answer; events that arrive meanwhile are kept.
    fn call(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: serde_json::Value,
    ) -> serde_json::Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = serde_json::json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = s.into();
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.to.write_all(&bytes).unwrap();
        loop {
            let v = self.recv(method);
            if v["id"] == id {
                assert!(v.get("error").is_none(), "{method} failed: {v}");
                return v["result"].clone();
            }
            self.events.push(v);
        }
    }

    fn recv(&mut self, waiting_for: &str) -> serde_json::Value {
        self.from
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("Chromium did not answer {waiting_for} within 60 s"))
    }

    /// Waits for an event of the page's session.
    fn wait_for(&mut self, method: &str) {
        if self.events.iter().any(|e| e["method"] == method) {
            return;
        }
        loop {
            let v = self.recv(method);
            let done = v["method"] == method;
            self.events.push(v);
            if done {
                return;
            }
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// What the page looked like at one window width.
struct Look {
    /// Console errors, exceptions and failed loads.
    problems: Vec<String>,
    /// `[scrollWidth, innerWidth, visible text length, charts, tables]`.
    layout: Vec<u64>,
    /// The screenshot (PNG).
    png: Vec<u8>,
}

fn look(page: &Path, width: u32) -> Look {
    let mut b = Browser::start();
    let target = b.call(
        None,
        "Target.createTarget",
        serde_json::json!({"url": "about:blank"}),
    );
    let attached = b.call(
        None,
        "Target.attachToTarget",
        serde_json::json!({"targetId": target["targetId"], "flatten": true}),
    );
    let session = attached["sessionId"].as_str().unwrap().to_string();
    let s = Some(session.as_str());
    for domain in ["Runtime.enable", "Log.enable", "Page.enable"] {
        b.call(s, domain, serde_json::json!({}));
    }
    b.call(
        s,
        "Emulation.setDeviceMetricsOverride",
        serde_json::json!({"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
    );
    let url = format!("file://{}", page.display());
    b.call(s, "Page.navigate", serde_json::json!({"url": url}));
    b.wait_for("Page.loadEventFired");
    let layout = b.call(
        s,
        "Runtime.evaluate",
        serde_json::json!({
            "expression": "JSON.stringify([document.documentElement.scrollWidth, window.innerWidth, \
                           document.body.innerText.trim().length, \
                           document.querySelectorAll('svg.chart').length, \
                           document.querySelectorAll('table').length])",
            "returnByValue": true,
        }),
    );
    let layout: Vec<u64> =
        serde_json::from_str(layout["result"]["value"].as_str().unwrap()).unwrap();
    let shot = b.call(
        s,
        "Page.captureScreenshot",
        serde_json::json!({"format": "png"}),
    );
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().unwrap())
        .unwrap();
    let problems = b
        .events
        .iter()
        .filter_map(|e| {
            let p = &e["params"];
            match e["method"].as_str()? {
                "Runtime.consoleAPICalled" if p["type"] == "error" || p["type"] == "warning" => {
                    Some(format!("console {}: {}", p["type"], p["args"]))
                }
                "Runtime.exceptionThrown" => Some(format!("exception: {}", p["exceptionDetails"])),
                "Log.entryAdded" if p["entry"]["level"] == "error" => {
                    Some(format!("log: {}", p["entry"]["text"]))
                }
                _ => None,
            }
        })
        .collect();
    Look {
        problems,
        layout,
        png,
    }
}

/// Distinct colours and the share of pixels that are not white.
fn picture_stats(png_bytes: &[u8]) -> (usize, f64, (u32, u32)) {
    let decoder = png::Decoder::new(png_bytes);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(channels).collect();
    let colours: BTreeSet<&[u8]> = pixels.iter().copied().collect();
    let ink = pixels.iter().filter(|p| p[..3] != [255, 255, 255]).count();
    (
        colours.len(),
        ink as f64 / pixels.len() as f64,
        (info.width, info.height),
    )
}

#[test]
fn the_page_renders_in_chromium_without_errors_and_fits_the_window() {
    let page = campaign().join("report.html");
    for width in [1280u32, 800] {
        let l = look(&page, width);
        assert_eq!(l.problems, Vec::<String>::new(), "at {width} px");
        let [scroll, inner, visible, charts, tables] = l.layout[..] else {
            panic!("layout {:?}", l.layout)
        };
        assert_eq!(inner, width as u64);
        assert!(
            scroll <= inner,
            "the page is {scroll} px wide in a {inner} px window"
        );
        assert!(visible > 2000, "only {visible} characters of text show");
        assert_eq!((charts, tables), (3, 12));
        let (colours, ink, size) = picture_stats(&l.png);
        assert_eq!(size, (width, 900));
        assert!(colours > 50, "{colours} colours: a blank page?");
        assert!(
            ink > 0.03,
            "{:.1}% of the pixels are not white: a blank page?",
            ink * 100.0
        );
        let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("report-{width}.png"));
        std::fs::write(&shot, &l.png).unwrap();
    }
}
