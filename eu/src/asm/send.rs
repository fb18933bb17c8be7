//! Our messages as Mesa's disassembler shows a Gfx9–11 `send`: the
//! descriptor (and, for a split send, the extended descriptor) encoded as
//! the hardware has them, and the second line `brw_disasm.c` prints from
//! them. Loads and stores are the data-port messages brw emits for SSBO
//! access on Gfx9–11: dword and qword lanes through HDC1 "untyped surface"
//! messages (one or two channels), byte and word lanes through HDC0 "byte
//! scattered" messages; the end of the thread is a thread-spawner message.
//! Spills and fills are the HDC0 OWORD block write and read brw's register
//! allocator emits on Gfx9–11 (`emit_spill`/`emit_unspill`): a one-GRF
//! header, the stateless non-coherent surface (BTI 253), and a block of 2,
//! 4 or 8 owords (one, two or four GRFs: the execution size over 8).
//! Decoding is the inverse, so `farm asm` reads back what is printed.
//!
//! Encodings (`brw_eu.h`, `brw_eu_defines.h`): desc = mlen << 25 |
//! rlen << 20 | msg_type << 14 | msg_control << 8 | binding table index;
//! ex_desc = ex_mlen << 6 | SFID. Untyped surface: msg_control = SIMD mode
//! << 4 | disabled-channel mask (SIMD16 = 1, SIMD8 = 2; the model's SIMD32,
//! which hardware splits, is 3). Byte scattered: msg_control = log2(bytes)
//! << 2 | (SIMD16 or wider). Our surfaces are the Vulkan ABI's bindings:
//! inputs 0, outputs 2 (`docs/vulkan-abi.md`).

use crate::isa::{Message, MsgSize};

/// `HSW_DATAPORT_DC_PORT1_UNTYPED_SURFACE_READ`.
const UNTYPED_READ: u32 = 1;
/// `HSW_DATAPORT_DC_PORT1_UNTYPED_SURFACE_WRITE`.
const UNTYPED_WRITE: u32 = 9;
/// `GFX7_DATAPORT_DC_BYTE_SCATTERED_READ`.
const BYTE_READ: u32 = 4;
/// `GFX7_DATAPORT_DC_BYTE_SCATTERED_WRITE`.
const BYTE_WRITE: u32 = 12;
/// SFIDs of split sends: `GFX7_SFID_DATAPORT_DATA_CACHE` (HDC0) and
/// `HSW_SFID_DATAPORT_DATA_CACHE_1` (HDC1).
const SFID_HDC0: u32 = 10;
const SFID_HDC1: u32 = 12;
/// The descriptor of the compute end-of-thread message: mlen 1, function
/// control bit 4 (end of thread).
const END_DESC: u32 = (1 << 25) | 0x10;
const INPUT_BTI: u32 = 0;
const OUTPUT_BTI: u32 = 2;
/// `GFX7_DATAPORT_DC_OWORD_BLOCK_READ` and `_WRITE`.
const OWORD_BLOCK_READ: u32 = 0;
const OWORD_BLOCK_WRITE: u32 = 8;
/// `GFX8_BTI_STATELESS_NON_COHERENT`: brw's scratch surface on Gfx9–11.
const SCRATCH_BTI: u32 = 253;

/// How a message prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SendText {
    /// `send`, or `sends` for a message with a second (data) payload.
    pub split: bool,
    /// The message descriptor.
    pub desc: u32,
    /// The extended descriptor of a split send.
    pub ex_desc: Option<u32>,
    /// The second line: `SFID MsgDesc: ... mlen M [ex_mlen X] rlen R`.
    pub details: String,
}

fn regs(exec: u8, bytes_per_lane: u32) -> u32 {
    (u32::from(exec) * bytes_per_lane).div_ceil(32).max(1)
}

fn simd_mode(exec: u8) -> (u32, &'static str) {
    match exec {
        0..=8 => (2, "8"),
        9..=16 => (1, "16"),
        _ => (3, "32"),
    }
}

fn untyped_mask(size: MsgSize) -> u32 {
    if size == MsgSize::B64 {
        0xc
    } else {
        0xe
    }
}

fn desc(mlen: u32, rlen: u32, msg_type: u32, ctrl: u32, bti: u32) -> u32 {
    (mlen << 25) | (rlen << 20) | (msg_type << 14) | (ctrl << 8) | bti
}

/// `BRW_DATAPORT_OWORD_BLOCK_DWORDS(exec)`: 2, 4 or 8 owords are the
/// message controls 2, 3 and 4; what `brw_disasm.c` prints for each.
fn oword_block(exec: u8) -> (u32, &'static str) {
    match exec {
        0..=8 => (2, "2"),
        9..=16 => (3, "4"),
        _ => (4, "8"),
    }
}

/// A spill or fill: HDC0 OWORD block write or read with a one-GRF header.
fn scratch_text(write: bool, exec: u8) -> SendText {
    let (ctrl, owords) = oword_block(exec);
    let block = regs(exec, 4);
    let (what, ty, rlen, ex_mlen) = if write {
        ("write", OWORD_BLOCK_WRITE, 0, block)
    } else {
        ("read", OWORD_BLOCK_READ, block, 0)
    };
    let mut details = format!(
        "hdc0 MsgDesc: (DC OWORD block {what}, bti {SCRATCH_BTI}, owords = {owords}, aligned = 0)  mlen 1"
    );
    if write {
        details.push_str(&format!(" ex_mlen {ex_mlen}"));
    }
    details.push_str(&format!(" rlen {rlen}"));
    SendText {
        split: write,
        desc: desc(1, rlen, ty, ctrl, SCRATCH_BTI),
        ex_desc: write.then_some((ex_mlen << 6) | SFID_HDC0),
        details,
    }
}

/// The descriptor and text of `msg` at execution size `exec`.
pub(crate) fn describe(msg: &Message, exec: u8) -> SendText {
    let mlen = regs(exec, 4);
    let (write, size) = match *msg {
        Message::End { .. } => {
            return SendText {
                split: false,
                desc: END_DESC,
                ex_desc: None,
                details: "ts/btd MsgDesc:  mlen 1 rlen 0".into(),
            }
        }
        Message::Load { size, .. } => (false, size),
        Message::Store { size, .. } => (true, size),
        Message::ScratchRead { .. } => return scratch_text(false, exec),
        Message::ScratchWrite { .. } => return scratch_text(true, exec),
    };
    let data = regs(exec, size.payload_bytes());
    let (rlen, ex_mlen) = if write { (0, data) } else { (data, 0) };
    let bti = if write { OUTPUT_BTI } else { INPUT_BTI };
    let (sfid, d, text) = if matches!(size, MsgSize::B32 | MsgSize::B64) {
        let (mode, mode_name) = simd_mode(exec);
        let mask = untyped_mask(size);
        let ctrl = (mode << 4) | mask;
        let ty = if write { UNTYPED_WRITE } else { UNTYPED_READ };
        let what = if write { "write" } else { "read" };
        (
            SFID_HDC1,
            desc(mlen, rlen, ty, ctrl, bti),
            format!(
                "hdc1 MsgDesc: (untyped surface {what}, Surface = {bti}, SIMD{mode_name}, Mask = 0x{mask:x}) "
            ),
        )
    } else {
        let log2 = u32::from(size == MsgSize::B16);
        let ctrl = (log2 << 2) | u32::from(exec > 8);
        let ty = if write { BYTE_WRITE } else { BYTE_READ };
        let what = if write { "write" } else { "read" };
        (
            SFID_HDC0,
            desc(mlen, rlen, ty, ctrl, bti),
            format!("hdc0 MsgDesc: (DC byte scattered {what}, bti {bti}, {ctrl}) "),
        )
    };
    let mut details = text;
    details.push_str(&format!(" mlen {mlen}"));
    if write {
        details.push_str(&format!(" ex_mlen {ex_mlen}"));
    }
    details.push_str(&format!(" rlen {rlen}"));
    SendText {
        split: write,
        desc: d,
        ex_desc: write.then_some((ex_mlen << 6) | sfid),
        details,
    }
}

/// The message a printed send stands for: `sfid` is the first word of the
/// second line, `dst`/`src0`/`src1` the operands' registers (None: null).
/// The error says what does not match a modelled message.
pub(crate) fn decode(
    sfid: &str,
    desc: u32,
    exec: u8,
    dst: Option<u32>,
    src0: u32,
    src1: Option<u32>,
) -> Result<Message, String> {
    let msg = match sfid {
        "ts/btd" => Message::End { payload: src0 },
        "hdc0" if matches!((desc >> 14) & 0x1f, OWORD_BLOCK_READ | OWORD_BLOCK_WRITE) => {
            let write = (desc >> 14) & 0x1f == OWORD_BLOCK_WRITE;
            match (write, dst, src1) {
                (false, Some(dst), None) => Message::ScratchRead { dst, header: src0 },
                (true, None, Some(data)) => Message::ScratchWrite { header: src0, data },
                (false, ..) => {
                    return Err("a block read has a GRF destination and one payload".into())
                }
                (true, ..) => {
                    return Err("a block write has a null destination and two payloads".into())
                }
            }
        }
        "hdc0" | "hdc1" => {
            let msg_type = (desc >> 14) & 0x1f;
            let ctrl = (desc >> 8) & 0x3f;
            let (write, size) = match (sfid, msg_type) {
                ("hdc1", UNTYPED_READ | UNTYPED_WRITE) => {
                    let size = match ctrl & 0xf {
                        0xe => MsgSize::B32,
                        0xc => MsgSize::B64,
                        m => return Err(format!("untyped channel mask 0x{m:x} is not modelled (0xe or 0xc)")),
                    };
                    (msg_type == UNTYPED_WRITE, size)
                }
                ("hdc0", BYTE_READ | BYTE_WRITE) => {
                    let size = match (ctrl >> 2) & 3 {
                        0 => MsgSize::B8,
                        1 => MsgSize::B16,
                        n => return Err(format!("byte scattered data size {n} is not modelled (0: byte, 1: word)")),
                    };
                    (msg_type == BYTE_WRITE, size)
                }
                _ => {
                    return Err(format!(
                        "{sfid} message type {msg_type} is not modelled (untyped surface, byte scattered or OWORD block read/write)"
                    ))
                }
            };
            match (write, dst, src1) {
                (false, Some(dst), None) => Message::Load {
                    size,
                    dst,
                    addr: src0,
                },
                (true, None, Some(data)) => Message::Store {
                    size,
                    addr: src0,
                    data,
                },
                (false, ..) => return Err("a read has a GRF destination and one payload".into()),
                (true, ..) => return Err("a write has a null destination and two payloads".into()),
            }
        }
        _ => {
            return Err(format!(
                "SFID '{sfid}' is not modelled (hdc0, hdc1, ts/btd)"
            ))
        }
    };
    let want = describe(&msg, exec).desc;
    if want != desc {
        return Err(format!(
            "descriptor 0x{desc:08x} does not match the message it names at this execution size (expected 0x{want:08x})"
        ));
    }
    Ok(msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_are_the_hardware_encodings() {
        // A SIMD16 dword read: mlen 2, rlen 2, untyped read (1), SIMD16 with
        // only R enabled (0x1e), surface 0, as brw encodes it.
        let t = describe(
            &Message::Load {
                size: MsgSize::B32,
                dst: 7,
                addr: 3,
            },
            16,
        );
        assert_eq!(t.desc, 0x0420_5e00);
        assert_eq!(
            t.details,
            "hdc1 MsgDesc: (untyped surface read, Surface = 0, SIMD16, Mask = 0xe)  mlen 2 rlen 2"
        );
        // A SIMD8 word write: mlen 1, rlen 0, byte scattered write (12),
        // word data (1 << 2), SIMD8, surface 2; ex_mlen 1 to HDC0 (10).
        let t = describe(
            &Message::Store {
                size: MsgSize::B16,
                addr: 4,
                data: 5,
            },
            8,
        );
        assert_eq!(t.desc, 0x0203_0402);
        assert_eq!(t.ex_desc, Some(0x4a));
        assert!(t.split);
        assert_eq!(
            t.details,
            "hdc0 MsgDesc: (DC byte scattered write, bti 2, 4)  mlen 1 ex_mlen 1 rlen 0"
        );
        assert_eq!(describe(&Message::End { payload: 0 }, 8).desc, 0x0200_0010);
    }

    #[test]
    fn decoding_inverts_describing() {
        for exec in [8u8, 16, 32] {
            for size in [MsgSize::B8, MsgSize::B16, MsgSize::B32, MsgSize::B64] {
                let ld = Message::Load {
                    size,
                    dst: 9,
                    addr: 3,
                };
                let st = Message::Store {
                    size,
                    addr: 3,
                    data: 9,
                };
                for (m, dst, src1) in [(ld, Some(9), None), (st, None, Some(9))] {
                    let t = describe(&m, exec);
                    let sfid = t.details.split(' ').next().unwrap();
                    assert_eq!(decode(sfid, t.desc, exec, dst, 3, src1), Ok(m));
                }
            }
        }
        for exec in [8u8, 16, 32] {
            let rd = Message::ScratchRead { dst: 9, header: 3 };
            let wr = Message::ScratchWrite { header: 3, data: 9 };
            for (m, dst, src1) in [(rd, Some(9), None), (wr, None, Some(9))] {
                let t = describe(&m, exec);
                assert_eq!(decode("hdc0", t.desc, exec, dst, 3, src1), Ok(m));
            }
        }
        // A SIMD32 fill by hand: mlen 1, rlen 4, OWORD block read (0),
        // 8 owords (4), BTI 253.
        assert_eq!(
            describe(&Message::ScratchRead { dst: 9, header: 3 }, 32).desc,
            (1 << 25) | (4 << 20) | (4 << 8) | 253
        );
        assert_eq!(
            decode("hdc0", 0x0220_03fd, 8, Some(9), 3, None),
            Err("descriptor 0x022003fd does not match the message it names at this execution size (expected 0x021002fd)".into())
        );
        assert_eq!(
            decode("hdc1", 0x0420_5e00, 8, Some(9), 3, None),
            Err("descriptor 0x04205e00 does not match the message it names at this execution size (expected 0x02106e00)".into())
        );
    }
}
