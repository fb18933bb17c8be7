//! Config and dispatch minimization: fewer invocations, a 1-minimal pass
//! subset, the first strategy that works, the smallest SIMD width, and
//! simpler input values.

use super::Session;
use compiler::{PassSet, PASSES};
use ir::{Case, SlotType};

/// Removes invocations, ddmin-style: chunks of half the lanes, then
/// quarters, ... down to single lanes, the last chunk first (so the first
/// success is a plain truncation).
pub(super) fn reduce_lanes(s: &mut Session) {
    let Some(n) = s.case.dispatch.as_ref().map(|d| d.invocations as usize) else {
        return;
    };
    let mut chunk = n.div_ceil(2);
    while chunk >= 1 && !s.exhausted() {
        let lanes = s
            .case
            .dispatch
            .as_ref()
            .map_or(0, |d| d.invocations as usize);
        // Chunk starts, last first; after a success the later chunks are
        // gone and the walk continues downward.
        let mut end = lanes;
        while end > 0 && !s.exhausted() {
            let start = end.saturating_sub(chunk);
            let count = s
                .case
                .dispatch
                .as_ref()
                .map_or(0, |d| d.invocations as usize);
            if count - (end - start) >= 1 {
                let cand = without_lanes(&s.case, start, end);
                s.try_case(cand);
            }
            end = start;
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2).min(chunk - 1).max(1);
    }
}

/// The case without invocations `start..end`.
fn without_lanes(case: &Case, start: usize, end: usize) -> Case {
    let mut out = case.clone();
    if let Some(d) = out.dispatch.as_mut() {
        let n = d.invocations as usize;
        for col in &mut d.inputs {
            col.truncate(n);
            let end = end.min(col.len());
            if start < end {
                col.drain(start..end);
            }
        }
        d.invocations = (n - (end.min(n) - start.min(n))) as u32;
    }
    out
}

/// Whether the case's compile under `config` spills registers.
pub(super) fn spills(case: &Case, config: &oracle::Config) -> bool {
    compiler::compile(&case.program, &config.options()).is_ok_and(|c| c.stats.spills > 0)
}

/// A pass set with exactly the given passes (table indices), keeping the
/// bitfield pass's mode and the spilling mode.
pub(super) fn pass_subset(indices: &[usize], like: &PassSet) -> PassSet {
    let mut set = if indices.is_empty() {
        PassSet::none()
    } else {
        let names: Vec<String> = indices.iter().map(|&i| PASSES[i].full_name()).collect();
        PassSet::parse(&names.join(",")).expect("full pass names always parse")
    };
    set.bitfield = like.bitfield;
    set.spill_all = like.spill_all;
    set
}

/// The config: a 1-minimal pass subset (ddmin over the passes that are on,
/// all of them at once first), then the first of bool32, bool16, native,
/// flag that keeps the bug, then the smallest SIMD width that does.
pub(super) fn reduce_config(s: &mut Session) {
    reduce_passes(s);
    // Another backend is another compiler: the strategies of the config's own.
    for strategy in s.config.strategy.backend().strategies() {
        if strategy == s.config.strategy || s.exhausted() {
            break;
        }
        let mut c = s.config.clone();
        c.strategy = strategy;
        if s.try_config(c) {
            break;
        }
    }
    for simd in [8, 16, 32] {
        if simd >= s.config.simd || s.exhausted() {
            break;
        }
        let mut c = s.config.clone();
        c.simd = simd;
        if s.try_config(c) {
            break;
        }
    }
}

fn reduce_passes(s: &mut Session) {
    let on = |s: &Session| -> Vec<usize> { s.config.passes.iter().map(|(i, _)| i).collect() };
    let mut chunk = on(s).len();
    while chunk >= 1 && !s.exhausted() {
        let mut start = 0;
        loop {
            let cur = on(s);
            if start >= cur.len() || s.exhausted() {
                break;
            }
            let end = (start + chunk).min(cur.len());
            let keep: Vec<usize> = cur[..start].iter().chain(&cur[end..]).copied().collect();
            let mut c = s.config.clone();
            c.passes = pass_subset(&keep, &s.config.passes);
            if !s.try_config(c) {
                start += chunk;
            }
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2).min(chunk - 1);
    }
}

/// The simple values of a slot type, simplest first.
pub(super) fn simple_values(t: SlotType) -> Vec<u64> {
    let bits = t.bits();
    if t.is_float() {
        [0.0, 1.0, -1.0, 2.0, 0.5]
            .iter()
            .map(|&x| ir::float::from_f64(x, bits))
            .collect()
    } else if t == SlotType::Bool {
        vec![0, 1]
    } else {
        vec![0, 1, ir::types::mask(bits), 2]
    }
}

/// How complex an input value is: its position among [`simple_values`],
/// or one past them.
pub(super) fn value_rank(t: SlotType, v: u64) -> usize {
    let s = simple_values(t);
    s.iter().position(|&x| x == v).unwrap_or(s.len())
}

/// Moves input values toward simple ones: per input slot, chunks of lanes
/// (all, halves, ... single lanes) set to each simple value in turn; then
/// each uniform.
pub(super) fn reduce_inputs(s: &mut Session) {
    let nslots = s.case.program.inputs.len();
    for slot in 0..nslots {
        let t = s.case.program.inputs[slot];
        let simple = simple_values(t);
        let n = s
            .case
            .dispatch
            .as_ref()
            .map_or(0, |d| d.invocations as usize);
        let mut chunk = n;
        while chunk >= 1 && !s.exhausted() {
            let mut start = 0;
            while start < n && !s.exhausted() {
                let end = (start + chunk).min(n);
                for (rank, &c) in simple.iter().enumerate() {
                    let mut cand = s.case.clone();
                    let Some(d) = cand.dispatch.as_mut() else {
                        return;
                    };
                    let mut changed = false;
                    for v in &mut d.inputs[slot][start..end] {
                        if value_rank(t, *v) > rank {
                            *v = c;
                            changed = true;
                        }
                    }
                    if changed && s.try_case(cand) {
                        break;
                    }
                }
                start = end;
            }
            if chunk == 1 {
                break;
            }
            chunk = chunk.div_ceil(2).min(chunk - 1);
        }
    }
    for slot in 0..s.case.program.uniforms.len() {
        let t = s.case.program.uniforms[slot];
        let Some(cur) = s.case.dispatch.as_ref().map(|d| d.uniforms[slot]) else {
            return;
        };
        let rank = value_rank(t, cur);
        for c in simple_values(t).into_iter().take(rank) {
            if s.exhausted() {
                return;
            }
            let mut cand = s.case.clone();
            if let Some(d) = cand.dispatch.as_mut() {
                d.uniforms[slot] = c;
            }
            if s.try_case(cand) {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_subsets_keep_the_bitfield_mode() {
        let like = PassSet::parse("all,bitfield=expand").unwrap();
        let bitfield = PASSES.iter().position(|p| p.name == "bitfield").unwrap();
        let dce = PASSES
            .iter()
            .position(|p| p.full_name() == "ir:dce")
            .unwrap();
        assert_eq!(
            pass_subset(&[bitfield, dce], &like).to_string(),
            "ir:dce,bitfield=expand"
        );
        assert_eq!(pass_subset(&[], &like).to_string(), "none");
    }

    #[test]
    fn removing_lanes_keeps_the_columns_aligned() {
        let case = ir::parse_case(
            "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	@store_output (%0) (slot=0)
}
dispatch 5 {
	input 0: 10 11 12 13 14
}
",
        )
        .unwrap();
        let d = without_lanes(&case, 1, 3).dispatch.unwrap();
        assert_eq!(d.invocations, 3);
        assert_eq!(d.inputs, vec![vec![10, 13, 14]]);
    }

    #[test]
    fn value_ranks() {
        assert_eq!(value_rank(SlotType::I32, 0), 0);
        assert_eq!(value_rank(SlotType::I32, 0xffff_ffff), 2);
        assert_eq!(value_rank(SlotType::F32, 0x3f80_0000), 1);
        assert_eq!(value_rank(SlotType::F32, 0xbf80_0000), 2);
        assert_eq!(value_rank(SlotType::F32, 0x3f00_0000), 4);
        assert_eq!(value_rank(SlotType::F32, 7), 5);
        assert_eq!(value_rank(SlotType::Bool, 1), 1);
    }
}
