//! The README's lists of strategies, passes, generator knobs and ops are
//! generated from the tables they describe (`compiler::Strategy`,
//! `compiler::PASSES`, `generator::config::knobs()`, `ir::op::OPS`) and
//! checked here, like `ir/OPS.md`: a section between
//! `<!-- generated: NAME -->` and `<!-- end generated -->` must equal its
//! table's rendering. `UPDATE_README=1 cargo test -p farm --test readme`
//! rewrites them.

use generator::config::{knobs, Swarm};
use std::fmt::Write;

fn strategies() -> String {
    let mut s = String::from("| `--strategy` | booleans |\n|---|---|\n");
    for st in compiler::Strategy::ALL {
        let _ = writeln!(s, "| `{}` | {} |", st.name(), st.doc());
    }
    s
}

fn passes() -> String {
    let mut s = String::from("| pass | what it does |\n|---|---|\n");
    let mut lowered = false;
    for p in compiler::PASSES {
        if p.stage == compiler::Stage::Eu && !lowered {
            lowered = true;
            s.push_str("| `lowering` | IR to EU code on virtual registers under the strategy |\n");
        }
        let _ = writeln!(s, "| `{}` | {} |", p.full_name(), p.doc);
    }
    s.push_str("| `regalloc` | virtual registers onto the 128 GRFs (linear scan), spilling to scratch what does not fit (brw's spill_reg) |\n");
    s
}

fn knob_table() -> String {
    let mut s = String::from(
        "| knob | default | legal values | under swarm | what it does |\n|---|---|---|---|---|\n",
    );
    for k in knobs() {
        let swarm = match k.swarm {
            Swarm::Fixed => "fixed".to_string(),
            Swarm::Keep => "kept with p = 3/4".to_string(),
            Swarm::UpTo(lo) => format!("drawn from {lo}..=value"),
            Swarm::SomeSizes => "32, others with p = 2/3".to_string(),
        };
        let doc = k.doc.split_whitespace().collect::<Vec<_>>().join(" ");
        let _ = writeln!(
            s,
            "| `{}` | `{}` | {} | {} | {} |",
            k.name, k.default, k.bounds, swarm, doc
        );
    }
    s
}

fn ops() -> String {
    let names: Vec<String> = ir::op::OPS
        .iter()
        .map(|i| format!("`{}`", i.name))
        .collect();
    format!(
        "{} ops ([`ir/OPS.md`](ir/OPS.md) gives each one's exact meaning): {}.\n",
        names.len(),
        names.join(", ")
    )
}

/// A generated section: its marker name and its renderer.
type Section = (&'static str, fn() -> String);

/// Replaces every generated section of `text` with its rendering.
fn render(text: &str) -> String {
    let sections: [Section; 4] = [
        ("strategies", strategies),
        ("passes", passes),
        ("knobs", knob_table),
        ("ops", ops),
    ];
    let mut out = text.to_string();
    for (name, f) in sections {
        let open = format!("<!-- generated: {name} -->\n");
        let close = "<!-- end generated -->";
        let start = out
            .find(&open)
            .unwrap_or_else(|| panic!("README.md has no `{}` marker", open.trim()))
            + open.len();
        let end = start
            + out[start..]
                .find(close)
                .unwrap_or_else(|| panic!("README.md: `{name}` section is not closed"));
        out.replace_range(start..end, &f());
    }
    out
}

#[test]
fn readme_lists_are_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let have = std::fs::read_to_string(path).unwrap();
    let want = render(&have);
    if std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(path, &want).unwrap();
        return;
    }
    assert!(
        have == want,
        "README.md's generated lists are stale: run UPDATE_README=1 cargo test -p farm --test readme"
    );
}
