//! Structured control-flow analysis and the JIP/UIP helper.
//!
//! Loops have no DO instruction (Gfx6+): a loop is the range from a WHILE's
//! JIP (the first instruction of the body) to the WHILE itself. IF/ELSE/ENDIF
//! and loops must nest properly. See ISA.md for the JIP/UIP conventions.

use crate::isa::{Instruction, Opcode};
use std::cell::RefCell;
use std::rc::Rc;

/// A control-flow structure error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfError {
    /// Stable rule name (`cf-nesting`, `cf-while-jip`, `cf-break-outside-loop`,
    /// `halt-target`).
    pub rule: &'static str,
    /// Offending instruction index.
    pub index: usize,
    /// Human-readable detail.
    pub msg: String,
}

#[derive(Clone, Copy, Debug)]
enum FrameKind {
    If {
        else_idx: Option<usize>,
        endif: usize,
    },
    Loop {
        end: usize,
    },
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    kind: FrameKind,
    parent: Option<usize>,
}

/// Result of the structural analysis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CfInfo {
    /// Expected JIP of each instruction (None for non-CF).
    pub jip: Vec<Option<u32>>,
    /// Expected UIP of each instruction.
    pub uip: Vec<Option<u32>>,
    /// Structure nesting depth on arrival at each instruction (before any
    /// loop that starts there is entered); `depth[n]` is for the end.
    pub depth: Vec<u32>,
    /// For each instruction index: the WHILE indices of loops starting
    /// there, outermost first.
    pub loop_starts: Vec<Vec<u32>>,
    /// Maximum number of simultaneously open structures.
    pub max_depth: u32,
}

/// What [`analyze`] reads of a program: its length, and the index and
/// opcode of each control-flow instruction with a WHILE's JIP and a HALT's
/// UIP. Other instructions only take the depth of where they stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skeleton {
    len: usize,
    marks: Vec<(usize, Opcode, Option<u32>, Option<u32>)>,
}

impl Skeleton {
    /// The skeleton of `insts`.
    pub fn of(insts: &[Instruction]) -> Skeleton {
        Skeleton {
            len: insts.len(),
            marks: insts
                .iter()
                .enumerate()
                .filter(|(_, i)| i.op.is_cf())
                .map(|(k, i)| Skeleton::mark(k, i))
                .collect(),
        }
    }

    /// What the skeleton keeps of control-flow instruction `i` at index `k`.
    fn mark(k: usize, i: &Instruction) -> (usize, Opcode, Option<u32>, Option<u32>) {
        let jip = (i.op == Opcode::While).then_some(i.jip).flatten();
        let uip = (i.op == Opcode::Halt).then_some(i.uip).flatten();
        (k, i.op, jip, uip)
    }
}

/// What [`analyze`] finds: the structure, shared, or the first error.
pub type Analysis = Result<Rc<CfInfo>, CfError>;

thread_local! {
    /// The last skeleton analysed on this thread, and the result: the
    /// compiler's passes rarely touch control flow, and compaction,
    /// validation, the CFG and the simulator each ask about every program.
    static LAST: RefCell<Option<(Skeleton, Analysis)>> =
        const { RefCell::new(None) };
}

/// Analyse the structure. WHILE JIPs (loop starts) and HALT UIPs (halt
/// target) are inputs; everything else is computed. The result depends on
/// the control-flow instructions alone, so this thread's last result is
/// handed out again (shared, not copied) while they stand where they
/// stood.
pub fn analyze(insts: &[Instruction]) -> Analysis {
    let skeleton = Skeleton::of(insts);
    let known = LAST.with(|l| {
        l.borrow()
            .as_ref()
            .filter(|(s, _)| *s == skeleton)
            .map(|(_, r)| r.clone())
    });
    if let Some(r) = known {
        return r;
    }
    let r = analyze_uncached(insts).map(Rc::new);
    LAST.with(|l| *l.borrow_mut() = Some((skeleton, r.clone())));
    r
}

/// [`analyze`] without the thread's memory.
fn analyze_uncached(insts: &[Instruction]) -> Result<CfInfo, CfError> {
    let n = insts.len();
    let mut info = CfInfo {
        jip: vec![None; n],
        uip: vec![None; n],
        depth: vec![0; n + 1],
        loop_starts: vec![Vec::new(); n + 1],
        max_depth: 0,
    };
    for (w, inst) in insts.iter().enumerate() {
        if inst.op == Opcode::While {
            match inst.jip {
                Some(s) if (s as usize) <= w => info.loop_starts[s as usize].push(w as u32),
                Some(s) => {
                    return Err(CfError {
                        rule: "cf-while-jip",
                        index: w,
                        msg: format!("WHILE must jump backward to its loop start, not to {s}"),
                    })
                }
                None => {
                    return Err(CfError {
                        rule: "cf-while-jip",
                        index: w,
                        msg: "WHILE needs a JIP (the loop start)".into(),
                    })
                }
            }
        }
    }
    for l in &mut info.loop_starts {
        l.sort_unstable_by(|a, b| b.cmp(a));
    }
    // Pass 1: build frames; record the innermost frame at each
    // control-flow instruction (only those have targets: pass 2 visits
    // them alone).
    let mut frames: Vec<Frame> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut marks: Vec<Mark> = Vec::new();
    let nest_err = |index: usize, msg: &str| CfError {
        rule: "cf-nesting",
        index,
        msg: msg.to_string(),
    };
    for (i, inst) in insts.iter().enumerate() {
        info.depth[i] = stack.len() as u32;
        for &w in &info.loop_starts[i] {
            frames.push(Frame {
                kind: FrameKind::Loop { end: w as usize },
                parent: stack.last().copied(),
            });
            stack.push(frames.len() - 1);
        }
        info.max_depth = info.max_depth.max(stack.len() as u32);
        if !inst.op.is_cf() {
            continue;
        }
        let encl = stack.last().copied();
        marks.push(Mark {
            index: i,
            encl,
            frame: None,
        });
        match inst.op {
            Opcode::If => {
                frames.push(Frame {
                    kind: FrameKind::If {
                        else_idx: None,
                        endif: usize::MAX,
                    },
                    parent: stack.last().copied(),
                });
                stack.push(frames.len() - 1);
                set_frame(&mut marks, frames.len() - 1);
                info.max_depth = info.max_depth.max(stack.len() as u32);
            }
            Opcode::Else => {
                let Some(&top) = stack.last() else {
                    return Err(nest_err(i, "ELSE without IF"));
                };
                match &mut frames[top].kind {
                    FrameKind::If { else_idx, .. } if else_idx.is_none() => *else_idx = Some(i),
                    FrameKind::If { .. } => return Err(nest_err(i, "second ELSE for one IF")),
                    FrameKind::Loop { .. } => {
                        return Err(nest_err(i, "ELSE inside a loop opened after its IF"))
                    }
                }
            }
            Opcode::Endif => {
                let Some(top) = stack.pop() else {
                    return Err(nest_err(i, "ENDIF without IF"));
                };
                match &mut frames[top].kind {
                    FrameKind::If { endif, .. } => *endif = i,
                    FrameKind::Loop { .. } => {
                        return Err(nest_err(i, "ENDIF closes an IF around an open loop"))
                    }
                }
                set_frame(&mut marks, top);
            }
            Opcode::While => {
                let Some(top) = stack.pop() else {
                    return Err(nest_err(i, "WHILE without loop"));
                };
                match frames[top].kind {
                    FrameKind::Loop { end } if end == i => {}
                    _ => return Err(nest_err(i, "WHILE closes a loop around an open IF")),
                }
                set_frame(&mut marks, top);
            }
            Opcode::Break | Opcode::Cont if innermost_loop(&frames, encl).is_none() => {
                return Err(CfError {
                    rule: "cf-break-outside-loop",
                    index: i,
                    msg: format!("{} outside of any loop", inst.op.name()),
                });
            }
            _ => {}
        }
    }
    info.depth[n] = stack.len() as u32;
    if let Some(&top) = stack.last() {
        let what = match frames[top].kind {
            FrameKind::If { .. } => "IF without ENDIF",
            FrameKind::Loop { .. } => "loop not closed",
        };
        return Err(nest_err(n.saturating_sub(1), what));
    }
    // Pass 2: expected targets (the other instructions have none).
    for &Mark {
        index: i,
        encl,
        frame,
    } in &marks
    {
        let inst = &insts[i];
        let (j, u) = match inst.op {
            Opcode::If => match frame.map(|f| frames[f].kind) {
                Some(FrameKind::If { else_idx, endif }) => {
                    (Some(else_idx.map_or(endif, |e| e + 1)), Some(endif))
                }
                _ => (None, None),
            },
            Opcode::Else => match encl.map(|f| frames[f].kind) {
                Some(FrameKind::If { endif, .. }) => (Some(endif), Some(endif)),
                _ => (None, None),
            },
            Opcode::Endif => {
                let parent = frame.and_then(|f| frames[f].parent);
                let end = match parent {
                    Some(p) => block_end(&frames[p].kind, i),
                    None => i + 1,
                };
                (Some(end), None)
            }
            Opcode::While => (inst.jip.map(|s| s as usize), None),
            Opcode::Break | Opcode::Cont => {
                let end = encl.map(|f| block_end(&frames[f].kind, i));
                let lp = innermost_loop(&frames, encl);
                (end, lp)
            }
            Opcode::Halt => {
                let Some(t) = inst.uip else {
                    return Err(CfError {
                        rule: "halt-target",
                        index: i,
                        msg: "HALT needs a UIP (the halt target)".into(),
                    });
                };
                let t = t as usize;
                if t <= i || t >= n || info.depth[t] != 0 {
                    return Err(CfError {
                        rule: "halt-target",
                        index: i,
                        msg: format!(
                            "HALT target {t} must be a later instruction outside all control flow"
                        ),
                    });
                }
                let end = encl.map_or(t, |f| block_end(&frames[f].kind, i));
                (Some(end), Some(t))
            }
            _ => (None, None),
        };
        info.jip[i] = j.map(|x| x as u32);
        info.uip[i] = u.map(|x| x as u32);
    }
    Ok(info)
}

/// A control-flow instruction as pass 1 of [`analyze_uncached`] found it.
#[derive(Clone, Copy)]
struct Mark {
    index: usize,
    /// The innermost frame open at it.
    encl: Option<usize>,
    /// The frame it opens (IF) or closes (ENDIF, WHILE).
    frame: Option<usize>,
}

/// Records the frame the last mark opens or closes.
fn set_frame(marks: &mut [Mark], frame: usize) {
    if let Some(m) = marks.last_mut() {
        m.frame = Some(frame);
    }
}

fn block_end(kind: &FrameKind, at: usize) -> usize {
    match *kind {
        FrameKind::If { else_idx, endif } => match else_idx {
            Some(e) if at < e => e,
            _ => endif,
        },
        FrameKind::Loop { end } => end,
    }
}

fn innermost_loop(frames: &[Frame], mut f: Option<usize>) -> Option<usize> {
    while let Some(id) = f {
        if let FrameKind::Loop { end } = frames[id].kind {
            return Some(end);
        }
        f = frames[id].parent;
    }
    None
}

/// Whether `insts` has a control-flow instruction. Without one there is no
/// structure to break ([`analyze`] has nothing to say: every error it
/// reports names a control-flow instruction) and no jump to resolve.
pub fn has_control_flow(insts: &[Instruction]) -> bool {
    insts.iter().any(|i| i.op.is_cf())
}

/// Fill in the JIP/UIP of every IF, ELSE, ENDIF, BREAK, CONT and HALT from
/// the structure. Inputs: each WHILE's `jip` must already hold the index of
/// its loop's first instruction, and each HALT's `uip` the halt target.
pub fn resolve_control_flow(insts: &mut [Instruction]) -> Result<(), CfError> {
    if !has_control_flow(insts) {
        return Ok(());
    }
    let info = analyze(insts)?;
    for (i, inst) in insts.iter_mut().enumerate() {
        if inst.op.is_cf() {
            inst.jip = info.jip[i];
            inst.uip = info.uip[i];
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::parse_program;

    fn ops(text: &str) -> Vec<Instruction> {
        parse_program(text).unwrap().insts
    }

    #[test]
    fn if_else_endif_targets() {
        // 0 if, 1 mov, 2 else, 3 mov, 4 endif, 5 nop
        let mut p = ops(
            "if(8) JIP: @0 UIP: @0\nmov(8) g2<1>UD 0D\nelse(8) JIP: @0 UIP: @0\nmov(8) g2<1>UD 1D\nendif(8) JIP: @0\nnop",
        );
        resolve_control_flow(&mut p).unwrap();
        assert_eq!((p[0].jip, p[0].uip), (Some(3), Some(4)));
        assert_eq!((p[2].jip, p[2].uip), (Some(4), Some(4)));
        assert_eq!(p[4].jip, Some(5));
    }

    #[test]
    fn loop_break_cont_targets() {
        // 0 mov | 1 if | 2 break | 3 endif | 4 cont | 5 (+) while JIP:1 | 6 nop
        let mut p = ops(
            "mov(8) g2<1>UD 0D\n(+f0.0) if(8) JIP: @0 UIP: @0\nbreak(8) JIP: @0 UIP: @0\nendif(8) JIP: @0\n(+f0.0) cont(8) JIP: @0 UIP: @0\n(+f0.0) while(8) JIP: @1\nnop",
        );
        resolve_control_flow(&mut p).unwrap();
        assert_eq!((p[1].jip, p[1].uip), (Some(3), Some(3)));
        assert_eq!((p[2].jip, p[2].uip), (Some(3), Some(5)));
        assert_eq!(p[3].jip, Some(5));
        assert_eq!((p[4].jip, p[4].uip), (Some(5), Some(5)));
        assert_eq!(p[5].jip, Some(1));
    }

    #[test]
    fn analysis_is_remembered_for_the_same_control_flow_only() {
        // 0 mov | 1 if | 2 break | 3 endif | 4 while JIP:1 | 5 halt UIP:6 | 6 nop
        let text = "mov(8) g2<1>UD 0D\n(+f0.0) if(8) JIP: @0 UIP: @0\nbreak(8) JIP: @0 UIP: @0\nendif(8) JIP: @0\n(+f0.0) while(8) JIP: @1\nhalt(8) JIP: @0 UIP: @6\nnop";
        let p = ops(text);
        let mut other_alu = p.clone();
        other_alu[0] = ops("add(8) g3<1>D g4<8,8,1>D 1D")[0];
        // The loop starts at 0, the halt target moves, an instruction is
        // inserted, the IF becomes an ELSE: each analysed afresh.
        let mut loop_at_0 = p.clone();
        loop_at_0[4].jip = Some(0);
        let mut halt_to_5 = p.clone();
        halt_to_5[5].uip = Some(5);
        let mut longer = p.clone();
        longer.insert(0, p[0]);
        let mut if_to_else = p.clone();
        if_to_else[1].op = Opcode::Else;
        for q in [
            &p,
            &other_alu,
            &p,
            &loop_at_0,
            &p,
            &halt_to_5,
            &longer,
            &if_to_else,
            &p,
        ] {
            assert_eq!(analyze(q), analyze_uncached(q).map(Rc::new));
        }
        // An answer was found: the program's own.
        let info = analyze(&p).unwrap();
        assert_eq!((info.jip[2], info.uip[2]), (Some(3), Some(4)));
        assert_eq!(info.loop_starts[1], [4]);
        assert_ne!(analyze(&loop_at_0), analyze(&p));
    }

    #[test]
    fn nesting_errors() {
        let e = analyze(&ops("endif(8) JIP: @1\nnop")).unwrap_err();
        assert_eq!((e.rule, e.index), ("cf-nesting", 0));
        let e = analyze(&ops("break(8) JIP: @1 UIP: @1\nnop")).unwrap_err();
        assert_eq!(e.rule, "cf-break-outside-loop");
        let e = analyze(&ops("nop\nwhile(8) JIP: @5")).unwrap_err();
        assert_eq!(e.rule, "cf-while-jip");
        // Loop crossing an IF: 0 if | 1 nop | 2 endif | 3 while JIP:1
        let e = analyze(&ops(
            "if(8) JIP: @2 UIP: @2\nnop\nendif(8) JIP: @3\nwhile(8) JIP: @1",
        ))
        .unwrap_err();
        assert_eq!((e.rule, e.index), ("cf-nesting", 2));
        let e = analyze(&ops("if(8) JIP: @1 UIP: @1\nnop")).unwrap_err();
        assert_eq!(e.rule, "cf-nesting");
    }
}
