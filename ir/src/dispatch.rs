//! Dispatches (how many invocations, with which inputs) and cases
//! (a program plus an optional dispatch, i.e. one `.sir` file).

use crate::program::Program;
use crate::types::{mask, SlotType};

/// The invocations a program runs over and their inputs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Dispatch {
    /// Number of invocations, 1..=1024.
    pub invocations: u32,
    /// Per input slot, per invocation: raw bits.
    pub inputs: Vec<Vec<u64>>,
    /// Per uniform slot: raw bits.
    pub uniforms: Vec<u64>,
}

/// The largest dispatch.
pub const MAX_INVOCATIONS: u32 = 1024;

/// A program and, optionally, the dispatch it is meant to run over.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Case {
    /// The program.
    pub program: Program,
    /// The dispatch, if the file gave one.
    pub dispatch: Option<Dispatch>,
}

impl Dispatch {
    /// The default dispatch: input slot values equal to the invocation index
    /// (converted to the slot's type: `i` for integers, `i as float` for
    /// floats, `i & 1` for booleans) and zero uniforms.
    pub fn default_for(program: &Program, invocations: u32) -> Dispatch {
        let inputs = program
            .inputs
            .iter()
            .map(|&ty| {
                (0..invocations as u64)
                    .map(|i| index_value(ty, i))
                    .collect()
            })
            .collect();
        Dispatch {
            invocations,
            inputs,
            uniforms: vec![0; program.uniforms.len()],
        }
    }

    /// Checks the dispatch against a program's declarations.
    pub fn check(&self, program: &Program) -> Result<(), String> {
        if self.invocations == 0 || self.invocations > MAX_INVOCATIONS {
            return Err(format!(
                "invocations must be in 1..={MAX_INVOCATIONS}, not {}",
                self.invocations
            ));
        }
        if self.inputs.len() != program.inputs.len() {
            return Err(format!(
                "the program declares {} input slots but the dispatch gives {}",
                program.inputs.len(),
                self.inputs.len()
            ));
        }
        if self.uniforms.len() != program.uniforms.len() {
            return Err(format!(
                "the program declares {} uniform slots but the dispatch gives {}",
                program.uniforms.len(),
                self.uniforms.len()
            ));
        }
        for (slot, (vals, ty)) in self.inputs.iter().zip(&program.inputs).enumerate() {
            if vals.len() < self.invocations as usize {
                return Err(format!(
                    "input slot {slot} has {} values for {} invocations",
                    vals.len(),
                    self.invocations
                ));
            }
            if vals.iter().any(|v| v & !mask(ty.bits()) != 0) {
                return Err(format!("input slot {slot} has a value wider than {ty}"));
            }
        }
        for (slot, (v, ty)) in self.uniforms.iter().zip(&program.uniforms).enumerate() {
            if v & !mask(ty.bits()) != 0 {
                return Err(format!("uniform slot {slot} has a value wider than {ty}"));
            }
        }
        Ok(())
    }

    /// A copy limited to the first `n` invocations.
    pub fn truncated(&self, n: u32) -> Dispatch {
        Dispatch {
            invocations: n,
            inputs: self
                .inputs
                .iter()
                .map(|v| v.iter().copied().take(n as usize).collect())
                .collect(),
            uniforms: self.uniforms.clone(),
        }
    }
}

fn index_value(ty: SlotType, i: u64) -> u64 {
    match ty {
        SlotType::Bool => i & 1,
        SlotType::F16 => crate::float::f64_to_f16(i as f64) as u64,
        SlotType::F32 => (i as f32).to_bits() as u64,
        SlotType::F64 => (i as f64).to_bits(),
        _ => i & mask(ty.bits()),
    }
}
