//! Conditional-modifier propagation, basic form (brw
//! `opt_cmod_propagation`, EU-MODEL §5.1).
//!
//! A **consumer** is an unpredicated instruction with a null destination
//! testing a value against zero: `cmp.z/.nz null, x, 0` (src1 an immediate
//! zero of src0's type) or `mov.z/.nz null, x` (no `.sat`, and either the
//! same type or an integer widening, which keeps zero-ness). `x` must be a
//! GRF without source modifiers.
//!
//! Walking back in the block to the **producer** P, the last instruction
//! writing any byte `x` reads, the pass refuses as soon as an instruction in
//! between writes one of the consumer's flag bytes; reads of those bytes in
//! between forbid moving a cmod. P must be unpredicated, have the same exec
//! size, group and NoMask, write exactly the elements `x` reads (channel c
//! writes what channel c reads) with `x`'s type size (a float producer needs
//! `x` of the same type; an integer one an integer `x`), and have no
//! `.sat`. Then:
//!
//! * P is a CMP/CMPN (cmod = the relation, result 0/~0 in every byte, so
//!   `x` may view it with any type of its size): only a `.nz` consumer on
//!   the same flag subregister, and a destination that is not 64-bit (its
//!   upper dword is undefined), is deleted;
//! * P already writes the same cmod to the same flag: the consumer is
//!   deleted (the flag already holds that value);
//! * P has no cmod, can take one (ADD AND ASR AVG FRC LZD MAD MOV MUL(float)
//!   NOT OR RND* SHL SHR XOR), is not an integer MUL, has no negated
//!   unsigned source, reads no flag, and nothing between P and the consumer
//!   reads the consumer's flag bytes: the cmod and flag register move onto
//!   P (which must still validate) and the consumer is deleted.

use super::cfg::Cfg;
use super::ops::{
    access, covered_by, dst_footprint, dst_offsets, inst_valid, src_footprint, src_offsets,
};
use crate::passes::PassCtx;
use crate::vir::VProgram;
use eu::{CondMod, Instruction, Opcode, SrcKind};

/// The tested source of a consumer, if `c` is one.
fn consumer_src(c: &Instruction) -> Option<eu::Src> {
    if c.pred.is_some()
        || !c.dst.is_null()
        || !matches!(c.cmod, Some(CondMod::Z | CondMod::Nz))
        || !c.writes_flag()
    {
        return None;
    }
    let x = *c.srcs.first()?;
    if !matches!(x.kind, SrcKind::Grf { .. }) || x.neg || x.abs {
        return None;
    }
    let ok = match c.op {
        Opcode::Cmp => {
            let z = c.srcs[1];
            z.ty == x.ty && matches!(z.kind, SrcKind::Imm(0))
        }
        Opcode::Mov => {
            !c.sat
                && (c.dst.ty == x.ty
                    || (c.dst.ty.is_int() && x.ty.is_int() && c.dst.ty.size() >= x.ty.size()))
        }
        _ => false,
    };
    ok.then_some(x)
}

fn can_take_cmod(p: &Instruction) -> bool {
    let ok_op = match p.op {
        Opcode::Add
        | Opcode::And
        | Opcode::Asr
        | Opcode::Avg
        | Opcode::Frc
        | Opcode::Lzd
        | Opcode::Mad
        | Opcode::Mov
        | Opcode::Not
        | Opcode::Or
        | Opcode::Rndd
        | Opcode::Rnde
        | Opcode::Rndz
        | Opcode::Shl
        | Opcode::Shr
        | Opcode::Xor => true,
        Opcode::Mul => p.srcs.iter().all(|s| s.ty.is_float()),
        _ => false,
    };
    ok_op
        && !p
            .srcs
            .iter()
            .any(|s| s.neg && s.ty.is_int() && !s.ty.is_signed_int())
        && !p
            .srcs
            .iter()
            .any(|s| matches!(s.kind, SrcKind::Flag { .. }))
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut VProgram, _ctx: &PassCtx) -> bool {
    let Ok(cfg) = Cfg::build(&p.insts) else {
        return false;
    };
    let machine = p.machine();
    let mut changed = false;
    for blk in &cfg.blocks {
        for j in blk.start..blk.end {
            let c = p.insts[j].clone();
            let Some(x) = consumer_src(&c) else { continue };
            let cflags = access(&c).flag_writes;
            let fx = src_footprint(&x, c.exec_size);
            let mut read_between = false;
            let mut producer = None;
            for k in (blk.start..j).rev() {
                let a = access(&p.insts[k]);
                if a.writes
                    .iter()
                    .any(|&(r, m)| fx.iter().any(|&(r2, m2)| r == r2 && m & m2 != 0))
                {
                    producer = Some(k);
                    break;
                }
                if a.flag_writes & cflags != 0 {
                    break;
                }
                read_between |= (a.flag_lane_reads | a.flag_raw_reads) & cflags != 0;
            }
            let Some(k) = producer else { continue };
            let pi = &p.insts[k];
            let pfp = dst_footprint(&pi.dst, pi.exec_size);
            let same_elems = dst_offsets(&pi.dst, pi.exec_size) == src_offsets(&x, c.exec_size);
            // A CMP result is 0 or ~0 in every byte: any same-size view tests
            // the same; otherwise a float value needs its own type (-0.0).
            let is_cmp = matches!(pi.op, Opcode::Cmp | Opcode::Cmpn);
            let types_ok = pi.dst.ty.size() == x.ty.size()
                && (is_cmp
                    || if pi.dst.ty.is_float() {
                        x.ty == pi.dst.ty
                    } else {
                        x.ty.is_int()
                    });
            if pi.pred.is_some()
                || pi.exec_size != c.exec_size
                || pi.group != c.group
                || pi.we_all != c.we_all
                || pi.sat
                || !same_elems
                || !covered_by(&pfp, &fx)
                || !covered_by(&fx, &pfp)
                || !types_ok
            {
                continue;
            }
            if matches!(pi.op, Opcode::Cmp | Opcode::Cmpn) {
                if c.cmod == Some(CondMod::Nz)
                    && pi.flag == c.flag
                    && !pi.dst.ty.is_64bit()
                    && pi.writes_flag()
                {
                    p.insts[j].op = Opcode::Nop;
                    changed = true;
                }
                continue;
            }
            if pi.cmod.is_some() {
                if pi.writes_flag() && pi.cmod == c.cmod && pi.flag == c.flag {
                    p.insts[j].op = Opcode::Nop;
                    changed = true;
                }
                continue;
            }
            if read_between || !can_take_cmod(pi) {
                continue;
            }
            let mut np = pi.clone();
            np.cmod = c.cmod;
            np.flag = c.flag;
            if inst_valid(&np, &machine) {
                p.insts[k] = np;
                p.insts[j].op = Opcode::Nop;
                changed = true;
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brw::testutil::{canon, check_preserves, vprog};

    const HEAD: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\n";
    const VG: &[(u32, u32)] = &[(2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)];
    const TAIL: &str =
        "(+f0.0) sel(8) g6<1>D g3<8,8,1>D 100D\nsend(8) null g2 g6 st.b32 { align1 1Q EOT };";

    fn golden(body: &str, want: &str) {
        let text = format!("{HEAD}{body}{TAIL}");
        let p = vprog(8, &text, VG);
        // Inputs around zero, INT_MIN and float values with NaN/-0.
        let vals = [
            0u64,
            1,
            0xffff_ffff,
            0x8000_0000,
            0x7fc0_0000,
            0x3f80_0000,
            0xbf80_0000,
            5,
            0xffff_fffb,
            0x0001_0000,
            2,
            3,
        ];
        let q = check_preserves(&p, run, 12, &|k| vals[k as usize % vals.len()]);
        assert_eq!(q.text(), canon(&format!("{HEAD}{want}{TAIL}")));
    }

    #[test]
    fn cmod_moves_onto_the_producer() {
        golden(
            "add(8) g4<1>D g3<8,8,1>D -5D\ncmp.nz.f0.0(8) null<1>D g4<8,8,1>D 0D\n",
            "add.nz.f0.0(8) g4<1>D g3<8,8,1>D -5D\n",
        );
        golden(
            "and(8) g4<1>UD g3<8,8,1>UD 0x00000006UD\nmov.z.f0.0(8) null<1>UD g4<8,8,1>UD\n",
            "and.z.f0.0(8) g4<1>UD g3<8,8,1>UD 0x00000006UD\n",
        );
        // Float: the MOV consumer must read the producer's type.
        golden(
            "mul(8) g4<1>F g3<8,8,1>F 0x40000000F\ncmp.z.f0.0(8) null<1>F g4<8,8,1>F 0x00000000F\n",
            "mul.z.f0.0(8) g4<1>F g3<8,8,1>F 0x40000000F\n",
        );
        // An integer widening MOV keeps zero-ness; an unrelated instruction
        // in between is fine.
        golden(
            "add(8) g4<2>W g3<16,8,2>W 3W\nmov(8) g5<1>D 1D\nmov.nz.f0.0(8) null<1>D g4<16,8,2>W\n",
            "add.nz.f0.0(8) g4<2>W g3<16,8,2>W 3W\nmov(8) g5<1>D 1D\n",
        );
    }

    #[test]
    fn cmp_producer_only_for_nz() {
        golden(
            "cmp.l.f0.0(8) g4<1>D g3<8,8,1>D 3D\nmov.nz.f0.0(8) null<1>D g4<8,8,1>D\n",
            "cmp.l.f0.0(8) g4<1>D g3<8,8,1>D 3D\n",
        );
        // .z would invert (c88b52745c7); another flag register is not the
        // same value.
        // A float compare's result read as D (Bool32 lowering).
        golden(
            "cmp.l.f0.0(8) g4<1>F g3<8,8,1>F 0x00000000F\nmov.nz.f0.0(8) null<1>D g4<8,8,1>D\n",
            "cmp.l.f0.0(8) g4<1>F g3<8,8,1>F 0x00000000F\n",
        );
        let b = "cmp.l.f0.0(8) g4<1>D g3<8,8,1>D 3D\ncmp.z.f0.0(8) null<1>D g4<8,8,1>D 0D\n";
        golden(b, b);
        let b = "cmp.l.f1.0(8) g4<1>D g3<8,8,1>D 3D\ncmp.nz.f0.0(8) null<1>D g4<8,8,1>D 0D\n";
        golden(b, b);
    }

    #[test]
    fn refusals() {
        for b in [
            // A flag read in between.
            "cmp.l.f0.0(8) null<1>D g3<8,8,1>D 1D\nadd(8) g4<1>D g3<8,8,1>D 1D\n(+f0.0) sel(8) g5<1>D g3<8,8,1>D 2D\ncmp.nz.f0.0(8) null<1>D g4<8,8,1>D 0D\n",
            // Predicated producer.
            "cmp.l.f0.0(8) null<1>D g3<8,8,1>D 1D\n(+f0.0) add(8) g4<1>D g3<8,8,1>D 1D\ncmp.nz.f0.0(8) null<1>D g4<8,8,1>D 0D\n",
            // NoMask producer, masked consumer.
            "add(8) g4<1>D g3<8,8,1>D 1D { align1 WE_all 1Q };\ncmp.nz.f0.0(8) null<1>D g4<8,8,1>D 0D\n",
            // Different exec size (the producer writes half).
            "add(4) g4<1>D g3<4,4,1>D 1D\nadd(4) g4.4<1>D g3.4<4,4,1>D 1D { align1 2N };\ncmp.nz.f0.0(8) null<1>D g4<8,8,1>D 0D\n",
            // Saturate, integer MUL, SEL (no flag-writing cmod).
            "add.sat(8) g4<1>F g3<8,8,1>F 0xbf800000F\ncmp.nz.f0.0(8) null<1>F g4<8,8,1>F 0x00000000F\n",
            "mul(8) g4<1>D g3<8,8,1>D 3W\ncmp.nz.f0.0(8) null<1>D g4<8,8,1>D 0D\n",
            "sel.l(8) g4<1>D g3<8,8,1>D 9D\ncmp.nz.f0.0(8) null<1>D g4<8,8,1>D 0D\n",
            // Type change: the MOV converts F to D (0.5 -> 0).
            "mul(8) g4<1>F g3<8,8,1>F 0x3f000000F\nmov.nz.f0.0(8) null<1>D g4<8,8,1>F\n",
            // Float zero test through an integer view (-0.0 is not integer 0).
            "mul(8) g4<1>F g3<8,8,1>F 0xbf800000F\ncmp.nz.f0.0(8) null<1>D g4<8,8,1>D 0D\n",
            // Negated UD source (33-bit intermediate).
            "add(8) g4<1>UD g3<8,8,1>UD -g2<8,8,1>UD\ncmp.z.f0.0(8) null<1>UD g4<8,8,1>UD 0x00000000UD\n",
        ] {
            golden(b, b);
        }
    }
}
