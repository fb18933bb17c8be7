//! Expected-outputs files (`NAME.expected` beside `NAME.sir`): the outputs a
//! case must produce, per SIMD width, written by hand.
//!
//! ```text
//! // comments explain how each value was derived
//! [simd 8,16,32]
//! 0: 3 -1.5 -
//! 1: 4 2.0 true
//! ```
//! A section header names the subgroup widths it holds for; each line gives
//! one invocation's output slots in declaration order, as typed values
//! (`ir::value` syntax), `-` for a slot never written. Every invocation of
//! the case's dispatch must have a line in every section.

use crate::interp::Outputs;
use ir::value::{format_value, parse_value, values_agree};
use ir::SlotType;

/// One section: the widths it applies to and the outputs per invocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedSection {
    /// SIMD widths.
    pub simd: Vec<u32>,
    /// Per invocation, per slot.
    pub rows: Vec<Vec<Option<u64>>>,
}

/// Parses an expected-outputs file for a program with `types` outputs.
pub fn parse_expected(text: &str, types: &[SlotType]) -> Result<Vec<ExpectedSection>, String> {
    let mut sections: Vec<ExpectedSection> = Vec::new();
    for (no, raw) in text.lines().enumerate() {
        let line = raw.split("//").next().unwrap_or("").trim();
        let at = |msg: String| format!("{}: {msg}", no + 1);
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("[simd").and_then(|r| r.strip_suffix(']')) {
            let simd = rest
                .split(',')
                .map(|w| {
                    w.trim()
                        .parse::<u32>()
                        .ok()
                        .filter(|w| matches!(w, 8 | 16 | 32))
                })
                .collect::<Option<Vec<u32>>>()
                .ok_or_else(|| at(format!("bad section header `{line}`")))?;
            sections.push(ExpectedSection { simd, rows: vec![] });
            continue;
        }
        let section = sections
            .last_mut()
            .ok_or_else(|| at("expected a `[simd ...]` header first".into()))?;
        let (inv, vals) = line
            .split_once(':')
            .ok_or_else(|| at(format!("expected `N: values`, found `{line}`")))?;
        let inv: usize = inv
            .trim()
            .parse()
            .map_err(|_| at(format!("bad invocation `{inv}`")))?;
        if inv != section.rows.len() {
            return Err(at(format!(
                "expected invocation {}, found {inv}",
                section.rows.len()
            )));
        }
        let words: Vec<&str> = vals.split_whitespace().collect();
        if words.len() != types.len() {
            return Err(at(format!(
                "expected {} values, found {}",
                types.len(),
                words.len()
            )));
        }
        let row = words
            .iter()
            .zip(types)
            .map(|(w, t)| {
                if *w == "-" {
                    Ok(None)
                } else {
                    parse_value(*t, w).map(Some).map_err(&at)
                }
            })
            .collect::<Result<Vec<_>, String>>()?;
        section.rows.push(row);
    }
    if sections.is_empty() {
        return Err("no `[simd ...]` section".into());
    }
    Ok(sections)
}

/// Prints an expected section (the format `parse_expected` reads).
pub fn print_expected(simd: &[u32], outputs: &Outputs) -> String {
    let widths: Vec<String> = simd.iter().map(|w| w.to_string()).collect();
    let mut s = format!("[simd {}]\n", widths.join(","));
    for inv in 0..outputs.invocations {
        let vals: Vec<String> = (0..outputs.types.len())
            .map(|k| {
                outputs
                    .get(inv, k)
                    .map_or("-".to_string(), |v| format_value(outputs.types[k], v))
            })
            .collect();
        s.push_str(&format!("{inv}: {}\n", vals.join(" ")));
    }
    s
}

/// Compares outputs with one expected section; returns the differences as text.
pub fn compare(expected: &ExpectedSection, got: &Outputs) -> Vec<String> {
    let mut diffs = Vec::new();
    if expected.rows.len() != got.invocations as usize {
        diffs.push(format!(
            "expected {} invocations, got {}",
            expected.rows.len(),
            got.invocations
        ));
        return diffs;
    }
    for (inv, row) in expected.rows.iter().enumerate() {
        for (slot, want) in row.iter().enumerate() {
            let ty = got.types[slot];
            let have = got.get(inv as u32, slot);
            let same = match (want, have) {
                (Some(a), Some(b)) => values_agree(ty, *a, b),
                (None, None) => true,
                _ => false,
            };
            if !same {
                let show = |v: Option<u64>| v.map_or("-".to_string(), |v| format_value(ty, v));
                diffs.push(format!(
                    "invocation {inv} slot {slot}: expected {}, got {}",
                    show(*want),
                    show(have)
                ));
            }
        }
    }
    diffs
}
