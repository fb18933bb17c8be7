//! Taints: how certain one lane's value is, and how an op's operands pass
//! their uncertainty on (the module doc's "Operands" paragraph).

use super::float::{lowering, Lowering};
use super::Relaxation;
use ir::op::{Op, ValueKind};

/// What is uncertain about a tainted value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Anything.
    Any,
    /// Certainly a NaN; its bits are not.
    NanBits,
    /// Certainly a zero; its sign is not.
    ZeroSign,
}

/// One lane's value: clean, or uncertain in some way with its first cause.
/// Packed: low nibble = cause index + 1 (0 = clean), high nibble = kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Taint(u8);

impl Taint {
    /// A value a conforming driver computes exactly.
    pub(crate) const CLEAN: Taint = Taint(0);

    fn make(r: Relaxation, kind: Kind) -> Taint {
        let k = match kind {
            Kind::Any => 0,
            Kind::NanBits => 1,
            Kind::ZeroSign => 2,
        };
        Taint((r.index() as u8 + 1) | k << 4)
    }

    /// Anything, because of `r`.
    pub(crate) fn any(r: Relaxation) -> Taint {
        Taint::make(r, Kind::Any)
    }

    /// A NaN whose bits are uncertain because of `r`.
    pub(crate) fn nan_bits(r: Relaxation) -> Taint {
        Taint::make(r, Kind::NanBits)
    }

    /// A zero whose sign is uncertain because of `r`.
    pub(crate) fn zero_sign(r: Relaxation) -> Taint {
        Taint::make(r, Kind::ZeroSign)
    }

    /// An optional cause as a taint of kind any.
    pub(crate) fn any_of(r: Option<Relaxation>) -> Taint {
        r.map_or(Taint::CLEAN, Taint::any)
    }

    /// Whether the value is certain.
    pub(crate) fn is_clean(self) -> bool {
        self.0 == 0
    }

    /// The first cause.
    pub(crate) fn cause(self) -> Option<Relaxation> {
        match self.0 & 0xf {
            0 => None,
            i => Some(Relaxation::from_index(i as usize - 1)),
        }
    }

    /// What is uncertain (meaningless for a clean value).
    pub(crate) fn kind(self) -> Kind {
        match self.0 >> 4 {
            1 => Kind::NanBits,
            2 => Kind::ZeroSign,
            _ => Kind::Any,
        }
    }

    /// The same cause, anything uncertain.
    pub(crate) fn hard(self) -> Taint {
        Taint(self.0 & 0xf)
    }

    /// Whether anything about the value is uncertain (not a soft taint).
    pub(crate) fn is_hard(self) -> bool {
        !self.is_clean() && self.kind() == Kind::Any
    }

    /// Both uncertainties at once; `self`'s cause comes first.
    pub(crate) fn or(self, o: Taint) -> Taint {
        if self.is_clean() {
            o
        } else if o.is_clean() || self.kind() == o.kind() {
            self
        } else {
            self.hard()
        }
    }
}

/// How one operand's taint reaches the result of `op` (the caller combines
/// operands in source order). `result_zero` says whether the result is a
/// float zero; `src` is the operand's index.
pub(crate) fn through(op: Op, src: usize, t: Taint, result_zero: bool) -> Taint {
    if t.is_clean() || t.is_hard() {
        return t;
    }
    let soft_zero = t.kind() == Kind::ZeroSign;
    match op {
        // Integer operations on the bits.
        Op::Fneg => t,
        Op::Fabs if soft_zero => Taint::CLEAN,
        Op::Fabs => t,
        Op::Fsign if soft_zero => t,
        Op::Fsign => t.hard(),
        // Bits passed through: the picked value's taint (the condition is
        // read as a boolean).
        Op::Bcsel if src > 0 => t,
        Op::ReadFirstInvocation => t,
        Op::ReadInvocation if src == 0 => t,
        _ if op.info().kinds.src == ValueKind::Float && lowering(op) != Lowering::Bits => {
            if soft_zero && result_zero && !lowering(op).clears_zero_sign() {
                t
            } else {
                // A NaN operand decides the result by its class alone; the
                // sign of an operand zero only decides that of a zero result.
                Taint::CLEAN
            }
        }
        _ => t.hard(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing() {
        let t = Taint::nan_bits(Relaxation::NanBits);
        assert_eq!(t.cause(), Some(Relaxation::NanBits));
        assert_eq!(t.kind(), Kind::NanBits);
        assert!(!t.is_hard() && t.hard().is_hard());
        assert_eq!(Taint::CLEAN.cause(), None);
        let z = Taint::zero_sign(Relaxation::SignedZero);
        assert_eq!(t.or(z), Taint::any(Relaxation::NanBits));
        assert_eq!(z.or(z), z);
        assert_eq!(Taint::CLEAN.or(z), z);
        assert_eq!(
            Taint::any(Relaxation::Tangle).cause(),
            Some(Relaxation::Tangle)
        );
    }

    #[test]
    fn operands() {
        let nan = Taint::nan_bits(Relaxation::NanBits);
        let zero = Taint::zero_sign(Relaxation::SignedZero);
        // Float readers: NaN-ness decides.
        assert_eq!(through(Op::Fadd, 0, nan, false), Taint::CLEAN);
        assert_eq!(through(Op::Flt, 1, nan, false), Taint::CLEAN);
        assert_eq!(through(Op::Fmul, 0, zero, true), zero);
        assert_eq!(through(Op::Fadd, 0, zero, false), Taint::CLEAN);
        assert_eq!(through(Op::Fsat, 0, zero, true), Taint::CLEAN);
        // Bit readers.
        assert_eq!(through(Op::Iand, 0, nan, false), nan.hard());
        assert_eq!(through(Op::VoteIeq, 0, nan, false), nan.hard());
        assert_eq!(through(Op::Fneg, 0, nan, false), nan);
        assert_eq!(through(Op::Fabs, 0, zero, false), Taint::CLEAN);
        assert_eq!(through(Op::Fsign, 0, nan, false), nan.hard());
        // Pass-through of the picked value; the condition is a boolean.
        assert_eq!(through(Op::Bcsel, 1, nan, false), nan);
        assert_eq!(through(Op::Bcsel, 0, zero, false), zero.hard());
        assert_eq!(through(Op::ReadFirstInvocation, 0, nan, false), nan);
        assert_eq!(through(Op::ReadInvocation, 1, nan, false), nan.hard());
    }
}
