//! The libFuzzer driver: any byte string, including an empty or short one,
//! gives a valid, UB-free program (running out of bytes picks the smallest
//! choices, which still make a program).

use arbitrary::Unstructured;
use generator::{generate_from_bytes, Config};
use oracle::{run, InterpConfig, InterpError};

fn check(bytes: &[u8], config: &Config) {
    let mut u = Unstructured::new(bytes);
    let case = generate_from_bytes(&mut u, config);
    ir::validate(&case.program).unwrap_or_else(|e| panic!("{e}\n{}", ir::print_case(&case)));
    let text = ir::print_case(&case);
    assert_eq!(ir::parse_case(&text).as_ref(), Ok(&case));
    let d = case.dispatch.as_ref().expect("dispatch");
    match run(
        &case.program,
        d,
        &InterpConfig {
            simd: 16,
            step_budget: 1_000_000,
        },
    ) {
        Ok(_) => {}
        Err(
            e @ (InterpError::InvalidCase { .. }
            | InterpError::BadDispatch(_)
            | InterpError::InvalidProgram(_)),
        ) => {
            panic!("{e}\n{text}")
        }
        Err(InterpError::Timeout { .. }) => panic!("timeout\n{text}"),
    }
}

#[test]
fn empty_and_short_inputs_give_valid_programs() {
    let config = Config::default();
    check(&[], &config);
    for n in 0..64u8 {
        check(&vec![n; n as usize], &config);
    }
}

#[test]
fn random_bytes_give_valid_programs() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let config = Config::default();
    for _ in 0..3000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = (state % 2048) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|i| (state.rotate_left(i as u32 % 64) >> 3) as u8 ^ i as u8)
            .collect();
        check(&bytes, &config);
    }
}

#[test]
fn arbitrary_configs_drive_valid_programs() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..1000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let bytes: Vec<u8> = (0..512)
            .map(|i| (state.rotate_left(i % 64) >> 5) as u8 ^ (i as u8))
            .collect();
        let mut u = Unstructured::new(&bytes);
        let config: Config = u.arbitrary().unwrap_or_default();
        assert_eq!(config.check(), Ok(()));
        check(u.take_rest(), &config);
    }
}
