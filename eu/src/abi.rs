//! The thread ABI (see ABI.md): payload layout and surface addressing.

/// GRF holding the thread header (dwords, see ABI.md).
pub const HEADER_GRF: u32 = 0;
/// First GRF of the per-channel global invocation ids (UD per channel).
pub const IDS_GRF: u32 = 1;

/// Header dword: thread index t.
pub const HDR_THREAD: u32 = 0;
/// Header dword: number of invocations N of the dispatch.
pub const HDR_INVOCATIONS: u32 = 1;
/// Header dword: SIMD width W.
pub const HDR_SIMD: u32 = 2;
/// Header dword: dispatch mask (bit c set when invocation t·W + c < N).
pub const HDR_DISPATCH_MASK: u32 = 3;
/// Header dword: first invocation of the thread (t·W).
pub const HDR_FIRST_INVOCATION: u32 = 4;
/// Header dword: input slots per invocation.
pub const HDR_INPUT_SLOTS: u32 = 5;
/// Header dword: output slots per invocation.
pub const HDR_OUTPUT_SLOTS: u32 = 6;

/// The dispatch width that means SIMD4x2 (the vec4 backend's dispatch):
/// two invocations per thread, each on four channels, one per vector
/// component (channel c is component c % 4 of invocation 2t + c / 4).
pub const SIMD4X2: u32 = 4;

/// Channels of a thread dispatched at width `simd` (8 for SIMD4x2).
pub const fn channels(simd: u32) -> u32 {
    if simd == SIMD4X2 {
        8
    } else {
        simd
    }
}

/// Invocations a thread runs at width `simd` (2 for SIMD4x2).
pub const fn invocations_per_thread(simd: u32) -> u32 {
    if simd == SIMD4X2 {
        2
    } else {
        simd
    }
}

/// The invocation channel `c` of thread `t` runs at width `simd`.
pub const fn invocation_of_channel(t: u32, c: u32, simd: u32) -> u32 {
    if simd == SIMD4X2 {
        2 * t + c / 4
    } else {
        t * simd + c
    }
}

/// Number of GRFs holding the invocation ids for SIMD width `simd`.
pub const fn id_grfs(simd: u32, grf_bytes: u32) -> u32 {
    (4 * channels(simd)).div_ceil(grf_bytes)
}

/// First GRF of the uniform slots (8 bytes per slot, slot k at byte 8k).
pub const fn uniform_grf(simd: u32, grf_bytes: u32) -> u32 {
    IDS_GRF + id_grfs(simd, grf_bytes)
}

/// Number of payload GRFs (header, ids, uniforms); the first free GRF.
pub const fn payload_grfs(simd: u32, uniforms: u32, grf_bytes: u32) -> u32 {
    uniform_grf(simd, grf_bytes) + (8 * uniforms).div_ceil(grf_bytes)
}

/// Where uniform slot `k` lives: (GRF, subregister in UD/D units of 4
/// bytes for the low dword; in Q/UQ/DF units the subregister is `k % (grf_bytes/8)`).
pub const fn uniform_location(k: u32, simd: u32, grf_bytes: u32) -> (u32, u32) {
    let byte = 8 * k;
    (
        uniform_grf(simd, grf_bytes) + byte / grf_bytes,
        (byte % grf_bytes) / 8,
    )
}

/// Byte address of (invocation, slot) in the input surface.
pub const fn input_address(invocation: u32, slot: u32, input_slots: u32) -> u32 {
    invocation * 8 * input_slots + 8 * slot
}

/// Byte address of (invocation, slot) in the output surface.
pub const fn output_address(invocation: u32, slot: u32, output_slots: u32) -> u32 {
    invocation * 8 * output_slots + 8 * slot
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        // 32-byte GRFs: 8 ids per GRF.
        assert_eq!(uniform_grf(8, 32), 2);
        assert_eq!(uniform_grf(16, 32), 3);
        assert_eq!(uniform_grf(32, 32), 5);
        // 64-byte GRFs: 16 ids per GRF.
        assert_eq!(uniform_grf(8, 64), 2);
        assert_eq!(uniform_grf(32, 64), 3);
        // 5 uniforms = 40 bytes = 2 GRFs of 32 bytes.
        assert_eq!(payload_grfs(16, 5, 32), 5);
        assert_eq!(uniform_location(5, 16, 32), (4, 1));
        assert_eq!(input_address(3, 2, 4), 3 * 32 + 16);
        assert_eq!(output_address(0, 1, 1), 8);
        // SIMD4x2: 8 channels (one GRF of ids), two invocations a thread.
        assert_eq!(uniform_grf(SIMD4X2, 32), 2);
        assert_eq!(invocation_of_channel(3, 5, SIMD4X2), 7);
        assert_eq!(invocation_of_channel(3, 5, 8), 29);
    }
}
