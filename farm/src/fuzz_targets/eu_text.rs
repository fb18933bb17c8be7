//! `eu_text`: the assembly parser and the validator under arbitrary input.

use eu::MachineConfig;

/// Parses `data` as EU assembly and validates what parses. Neither may
/// panic; a program that parses must print and re-parse to the same
/// program, with the same validation result. Panics on a violation.
pub fn eu_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(program) = eu::parse_program(text) else {
        return;
    };
    let verdict = eu::validate(&program, &MachineConfig::GFX11);
    let printed = eu::print_program(&program);
    let again = match eu::parse_program(&printed) {
        Ok(p) => p,
        Err(e) => panic!("the printed program does not parse: {e}\n--- printed:\n{printed}"),
    };
    assert!(
        again == program,
        "print → parse changed the program\n--- printed:\n{printed}\n--- reprinted:\n{}",
        eu::print_program(&again)
    );
    assert_eq!(
        eu::validate(&again, &MachineConfig::GFX11),
        verdict,
        "validation differs after a round trip"
    );
    assert_eq!(
        eu::validate(&again, &MachineConfig::VEC4),
        eu::validate(&program, &MachineConfig::VEC4),
        "Align16 validation differs after a round trip"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz_targets::smoke;

    #[test]
    fn random_bytes() {
        for data in smoke::random_inputs(2, 4000, 256) {
            eu_text(&data);
        }
    }

    /// Every corpus file, whole and cut at every 5th byte, and with every
    /// 5th byte replaced.
    #[test]
    fn corpus_and_its_mutations() {
        let mut parsed = 0;
        for (_, bytes) in smoke::corpus("eu_text") {
            let text = std::str::from_utf8(&bytes).expect("utf-8 corpus");
            parsed += eu::parse_program(text).is_ok() as usize;
            eu_text(&bytes);
            for m in smoke::mutations(&bytes, 5, b"g0<>;,.:1(8)-@\n") {
                eu_text(&m);
            }
        }
        assert!(parsed > 0, "no corpus file parses");
    }
}
