//! Stages of a compile: the one name every snapshot, error, localization
//! step, signature and report uses for a point in the pipeline.
//!
//! The pipeline is `input`, the IR passes (`ir:NAME`), `lowering`, the EU
//! passes (`eu:NAME`) and `regalloc`. [`StageId`]'s derived order is the
//! pipeline's order, and its `Display` form is the only place the text
//! names are made; [`StageId::from_str`](std::str::FromStr) reads them back.

use crate::passes::{Stage, PASSES};
use std::fmt;
use std::str::FromStr;

/// A point in the compile pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StageId {
    /// The input program (before any pass).
    Input,
    /// An IR pass, by its index in [`PASSES`].
    IrPass(usize),
    /// Lowering from IR to EU code on virtual registers.
    Lowering,
    /// An EU pass, by its index in [`PASSES`].
    EuPass(usize),
    /// Register allocation.
    Regalloc,
}

impl StageId {
    /// The stage of pass `index` of [`PASSES`] (an IR or an EU pass, as the
    /// table says).
    ///
    /// # Panics
    /// If `index` is not a row of the table.
    pub fn pass(index: usize) -> StageId {
        match PASSES[index].stage {
            Stage::Ir => StageId::IrPass(index),
            Stage::Eu | Stage::Vec4 => StageId::EuPass(index),
        }
    }

    /// The pass-table index of a pass stage.
    pub fn pass_index(self) -> Option<usize> {
        match self {
            StageId::IrPass(i) | StageId::EuPass(i) => Some(i),
            _ => None,
        }
    }

    /// Whether the program after this stage is IR (input and IR passes).
    pub fn is_ir(self) -> bool {
        matches!(self, StageId::Input | StageId::IrPass(_))
    }
}

impl fmt::Display for StageId {
    /// `input`, `ir:NAME`, `lowering`, `eu:NAME` or `regalloc`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StageId::Input => f.write_str("input"),
            StageId::IrPass(i) | StageId::EuPass(i) => {
                let p = &PASSES[*i];
                write!(f, "{}:{}", p.stage.name(), p.name)
            }
            StageId::Lowering => f.write_str("lowering"),
            StageId::Regalloc => f.write_str("regalloc"),
        }
    }
}

impl FromStr for StageId {
    type Err = String;

    /// Reads the `Display` form back.
    fn from_str(s: &str) -> Result<StageId, String> {
        match s {
            "input" => return Ok(StageId::Input),
            "lowering" => return Ok(StageId::Lowering),
            "regalloc" => return Ok(StageId::Regalloc),
            _ => {}
        }
        PASSES
            .iter()
            .position(|p| p.full_name() == s)
            .map(StageId::pass)
            .ok_or_else(|| {
                format!("unknown stage `{s}` (stages: input, ir:PASS, lowering, eu:PASS, regalloc)")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_order_follow_the_pipeline() {
        let mut all = vec![StageId::Input, StageId::Lowering, StageId::Regalloc];
        all.extend((0..PASSES.len()).map(StageId::pass));
        all.sort();
        let names: Vec<String> = all.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            names.join(" "),
            "input ir:const-fold ir:algebraic ir:copy-prop ir:cse ir:peephole-select ir:gcm \
             ir:bitfield ir:dce lowering eu:bool-cleanup eu:copy-prop eu:cse eu:cmod-prop \
             eu:dce eu:sat-prop eu:register-coalesce vec4:dce vec4:cmod-prop \
             vec4:register-coalesce regalloc"
        );
        for s in all {
            assert_eq!(s.to_string().parse::<StageId>(), Ok(s));
        }
    }

    #[test]
    fn bare_pass_names_are_not_stages() {
        assert_eq!(
            "cmod-prop".parse::<StageId>(),
            Err(
                "unknown stage `cmod-prop` (stages: input, ir:PASS, lowering, eu:PASS, regalloc)"
                    .into()
            )
        );
        assert_eq!(StageId::pass(0), StageId::IrPass(0));
        assert_eq!(StageId::pass(0).pass_index(), Some(0));
        assert!(StageId::Input.is_ir() && !StageId::Lowering.is_ir());
    }
}
