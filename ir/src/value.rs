//! Typed value text: how inputs, uniforms and outputs are written in `.sir`
//! dispatch sections, input files and output tables.
//!
//! Integers print as signed decimal; floats as the shortest decimal that
//! reads back exactly (`1.5`, `-0.0`, `inf`), NaNs as raw hex bits so their
//! payload survives; booleans as `true`/`false`. Reading also accepts raw
//! hex bits (`0x7fc00001`) for any type and `nan` for the canonical NaN.

use crate::float;
use crate::types::{mask, sext, SlotType};

/// Formats raw bits as a value of `ty`.
pub fn format_value(ty: SlotType, v: u64) -> String {
    let bits = ty.bits();
    match ty {
        SlotType::Bool => (if v & 1 == 1 { "true" } else { "false" }).to_string(),
        SlotType::F16 | SlotType::F32 | SlotType::F64 => {
            if float::is_nan(v, bits) {
                format!("0x{:0w$x}", v, w = bits as usize / 4)
            } else if ty == SlotType::F64 {
                format!("{:?}", f64::from_bits(v))
            } else {
                format!("{:?}", float::to_f64(v, bits) as f32)
            }
        }
        _ => sext(v, bits).to_string(),
    }
}

/// Reads a value of `ty` from text; the error says what was expected.
pub fn parse_value(ty: SlotType, s: &str) -> Result<u64, String> {
    let bits = ty.bits();
    let expected = || format!("expected a {ty} value, found `{s}`");
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        let v = u64::from_str_radix(hex, 16).map_err(|_| expected())?;
        if v & !mask(bits) != 0 {
            return Err(format!("`{s}` does not fit in {bits} bits"));
        }
        return Ok(v);
    }
    match ty {
        SlotType::Bool => match s {
            "true" | "1" => Ok(1),
            "false" | "0" => Ok(0),
            _ => Err(expected()),
        },
        SlotType::F16 | SlotType::F32 | SlotType::F64 => {
            let x: f64 = match s {
                "nan" | "NaN" => return Ok(float::canonical_nan(bits)),
                "inf" | "+inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                _ => s.parse::<f64>().map_err(|_| expected())?,
            };
            Ok(match ty {
                SlotType::F16 => float::f64_to_f16(x) as u64,
                SlotType::F32 => {
                    // Parse as f32 directly so decimal input is rounded once.
                    let y: f32 = if x.is_infinite() {
                        x as f32
                    } else {
                        s.parse().map_err(|_| expected())?
                    };
                    y.to_bits() as u64
                }
                _ => x.to_bits(),
            })
        }
        _ => {
            let v: i128 = s.parse().map_err(|_| expected())?;
            let lo = -(1i128 << (bits - 1));
            let hi = (1i128 << bits) - 1;
            if v < lo || v > hi {
                return Err(format!("`{s}` is out of range for {ty}"));
            }
            Ok((v as u64) & mask(bits))
        }
    }
}

/// Whether two output values of `ty` agree: bit-exact, except that two NaNs
/// of a float type agree whatever their payloads.
pub fn values_agree(ty: SlotType, a: u64, b: u64) -> bool {
    if ty.is_float() && float::is_nan(a, ty.bits()) && float::is_nan(b, ty.bits()) {
        return true;
    }
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints() {
        assert_eq!(format_value(SlotType::I8, 0xff), "-1");
        assert_eq!(parse_value(SlotType::I8, "-1"), Ok(0xff));
        assert_eq!(parse_value(SlotType::I8, "255"), Ok(0xff));
        assert!(parse_value(SlotType::I8, "256").is_err());
        assert!(parse_value(SlotType::I8, "-129").is_err());
        assert_eq!(
            parse_value(SlotType::I64, "-9223372036854775808"),
            Ok(1 << 63)
        );
        assert_eq!(parse_value(SlotType::I32, "0xffffffff"), Ok(0xffff_ffff));
        assert!(parse_value(SlotType::I16, "0x10000").is_err());
        assert!(parse_value(SlotType::I32, "1.5").is_err());
    }

    #[test]
    fn floats() {
        assert_eq!(format_value(SlotType::F32, 0x3fc0_0000), "1.5");
        assert_eq!(format_value(SlotType::F32, 0x8000_0000), "-0.0");
        assert_eq!(format_value(SlotType::F32, 0x7f80_0000), "inf");
        assert_eq!(format_value(SlotType::F32, 0x7fc0_0001), "0x7fc00001");
        assert_eq!(format_value(SlotType::F16, 0x3c00), "1.0");
        assert_eq!(format_value(SlotType::F64, 0x3ff8_0000_0000_0000), "1.5");
        assert_eq!(parse_value(SlotType::F32, "1.5"), Ok(0x3fc0_0000));
        assert_eq!(parse_value(SlotType::F32, "-0.0"), Ok(0x8000_0000));
        assert_eq!(parse_value(SlotType::F32, "-inf"), Ok(0xff80_0000));
        assert_eq!(parse_value(SlotType::F16, "nan"), Ok(0x7e00));
        assert_eq!(parse_value(SlotType::F16, "65504"), Ok(0x7bff));
        // The smallest f32 denormal round-trips through its shortest decimal.
        let s = format_value(SlotType::F32, 1);
        assert_eq!(s, "1e-45");
        assert_eq!(parse_value(SlotType::F32, &s), Ok(1));
    }

    #[test]
    fn every_f16_round_trips() {
        for v in 0u64..=0xffff {
            let s = format_value(SlotType::F16, v);
            assert_eq!(parse_value(SlotType::F16, &s), Ok(v), "{s}");
        }
    }

    #[test]
    fn agreement() {
        assert!(values_agree(SlotType::F32, 0x7fc0_0000, 0xffc0_0001));
        assert!(!values_agree(SlotType::I32, 0x7fc0_0000, 0xffc0_0001));
        assert!(!values_agree(SlotType::F32, 0x8000_0000, 0));
    }
}
