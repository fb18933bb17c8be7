//! `ir_text`: the IR text format under arbitrary input.

/// Parses `data` as a `.sir` case. The parser and the validator must not
/// panic; a case that parses must print, re-parse and re-print to the same
/// text. Panics on a violation.
pub fn ir_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(case) = ir::parse_case(text) else {
        return;
    };
    let _ = ir::validate_all(&case.program);
    let printed = ir::print_case(&case);
    let again = match ir::parse_case(&printed) {
        Ok(c) => c,
        Err(e) => panic!("the printed case does not parse: {e}\n--- printed:\n{printed}"),
    };
    let reprinted = ir::print_case(&again);
    assert!(
        printed == reprinted,
        "print → parse → print changed the text\n--- first:\n{printed}\n--- second:\n{reprinted}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz_targets::smoke;

    #[test]
    fn random_bytes() {
        for data in smoke::random_inputs(1, 4000, 256) {
            ir_text(&data);
        }
    }

    /// Every corpus file, whole and cut at every 7th byte, and with every
    /// 13th byte replaced: the parser sees near-valid text.
    #[test]
    fn corpus_and_its_mutations() {
        let mut parsed = 0;
        for (_, bytes) in smoke::corpus("ir_text") {
            let text = std::str::from_utf8(&bytes).expect("utf-8 corpus");
            parsed += ir::parse_case(text).is_ok() as usize;
            ir_text(&bytes);
            for m in smoke::mutations(&bytes, 7, b"x0%{}=.:,\n -") {
                ir_text(&m);
            }
        }
        assert!(parsed > 0, "no corpus file parses");
    }
}
