//! [`DeviceInfo`]: what the opened device is and what it can do, as plain,
//! serializable data (the farm records it next to every campaign).

use std::fmt;

use ash::vk;
use serde::{Deserialize, Serialize};

/// A Vulkan version number, split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// Major version.
    pub major: u32,
    /// Minor version.
    pub minor: u32,
    /// Patch version.
    pub patch: u32,
}

impl Version {
    /// Splits a packed `VK_MAKE_API_VERSION` value.
    pub fn from_packed(v: u32) -> Self {
        Version {
            major: vk::api_version_major(v),
            minor: vk::api_version_minor(v),
            patch: vk::api_version_patch(v),
        }
    }

    /// Whether this is at least `major.minor`.
    pub fn at_least(&self, major: u32, minor: u32) -> bool {
        (self.major, self.minor) >= (major, minor)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// Subgroup properties (`VkPhysicalDeviceSubgroupProperties` and
/// `VkPhysicalDeviceSubgroupSizeControlProperties`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubgroupInfo {
    /// The default subgroup size (`subgroupSize`).
    pub size: u32,
    /// `minSubgroupSize` (equals `size` without subgroup size control).
    pub min_size: u32,
    /// `maxSubgroupSize` (equals `size` without subgroup size control).
    pub max_size: u32,
    /// `maxComputeWorkgroupSubgroups` (0 without subgroup size control).
    pub max_compute_workgroup_subgroups: u32,
    /// Stages with subgroup operations (`supportedStages`), e.g. `COMPUTE`.
    pub supported_stages: Vec<String>,
    /// Supported operation classes (`supportedOperations`), e.g. `BALLOT`.
    pub supported_operations: Vec<String>,
    /// Stages that accept a required subgroup size
    /// (`requiredSubgroupSizeStages`).
    pub required_size_stages: Vec<String>,
    /// Feature `subgroupSizeControl` (supported, and so enabled).
    pub size_control: bool,
    /// Feature `computeFullSubgroups` (supported, and so enabled).
    pub compute_full_subgroups: bool,
}

/// Shader type and storage features. Each is enabled on the device when the
/// device supports it, so `true` here means a module may use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Features {
    /// `shaderInt8`.
    pub shader_int8: bool,
    /// `shaderInt16`.
    pub shader_int16: bool,
    /// `shaderInt64`.
    pub shader_int64: bool,
    /// `shaderFloat16`.
    pub shader_float16: bool,
    /// `shaderFloat64`.
    pub shader_float64: bool,
    /// `storageBuffer8BitAccess`.
    pub storage_buffer_8bit_access: bool,
    /// `storageBuffer16BitAccess`.
    pub storage_buffer_16bit_access: bool,
}

/// Float-controls properties for one float width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloatModes {
    /// `shaderSignedZeroInfNanPreserveFloatN`.
    pub signed_zero_inf_nan_preserve: bool,
    /// `shaderDenormPreserveFloatN`.
    pub denorm_preserve: bool,
    /// `shaderDenormFlushToZeroFloatN`.
    pub denorm_flush_to_zero: bool,
    /// `shaderRoundingModeRTEFloatN`.
    pub rounding_mode_rte: bool,
    /// `shaderRoundingModeRTZFloatN`.
    pub rounding_mode_rtz: bool,
}

/// `VkPhysicalDeviceFloatControlsProperties` (all false when the device has
/// neither Vulkan 1.2 nor `VK_KHR_shader_float_controls`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloatControls {
    /// Whether the properties were available at all.
    pub available: bool,
    /// `denormBehaviorIndependence`, e.g. `ALL`.
    pub denorm_behavior_independence: String,
    /// `roundingModeIndependence`, e.g. `ALL`.
    pub rounding_mode_independence: String,
    /// 16-bit floats.
    pub f16: FloatModes,
    /// 32-bit floats.
    pub f32: FloatModes,
    /// 64-bit floats.
    pub f64: FloatModes,
}

/// Optional device extensions that matter to subgroup semantics. Each is
/// enabled (with its feature) when present.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extensions {
    /// `VK_KHR_shader_maximal_reconvergence` is present and its feature on.
    pub shader_maximal_reconvergence: bool,
    /// `VK_KHR_shader_subgroup_uniform_control_flow` is present and its
    /// feature on.
    pub shader_subgroup_uniform_control_flow: bool,
    /// `VK_KHR_compute_shader_derivatives` or its NV original is present
    /// and its `computeDerivativeGroupLinear` feature on (derivatives in
    /// compute, quads of four consecutive invocations).
    #[serde(default)]
    pub compute_derivative_group_linear: bool,
    /// ... and it is the NV original (`SPV_NV_compute_shader_derivatives`
    /// in modules).
    #[serde(default)]
    pub compute_derivatives_nv: bool,
}

/// Everything the runner reports about the device it opened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceInfo {
    /// `deviceName`, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub name: String,
    /// `deviceType`, e.g. `CPU`, `INTEGRATED_GPU`.
    pub device_type: String,
    /// `vendorID`.
    pub vendor_id: u32,
    /// `deviceID`.
    pub device_id: u32,
    /// `apiVersion` of the device.
    pub api_version: Version,
    /// `driverVersion`, raw (its encoding is vendor-specific).
    pub driver_version: u32,
    /// `driverID` by name, e.g. `MESA_LLVMPIPE` (empty without driver
    /// properties).
    pub driver_id: String,
    /// `driverName`, e.g. `llvmpipe`.
    pub driver_name: String,
    /// `driverInfo`, e.g. `Mesa 22.3.6 (LLVM 15.0.6)`.
    pub driver_info: String,
    /// `conformanceVersion`, e.g. `1.3.1.1`.
    pub conformance_version: String,
    /// Subgroup properties.
    pub subgroup: SubgroupInfo,
    /// Type and storage features.
    pub features: Features,
    /// Float-controls properties.
    pub float_controls: FloatControls,
    /// Optional extensions.
    pub extensions: Extensions,
    /// `maxComputeWorkGroupSize`.
    pub max_compute_work_group_size: [u32; 3],
    /// `maxComputeWorkGroupInvocations`.
    pub max_compute_work_group_invocations: u32,
}

impl DeviceInfo {
    /// Pretty JSON, for logs and `--print-device`.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("DeviceInfo always serializes")
    }
}

/// Names of the set bits of `bits`, from `table`; unknown bits as hex.
fn flag_names(bits: u32, table: &[(u32, &str)]) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = bits;
    for &(bit, name) in table {
        if bits & bit != 0 {
            names.push(name.to_string());
            rest &= !bit;
        }
    }
    if rest != 0 {
        names.push(format!("{rest:#x}"));
    }
    names
}

/// Shader stage names (the ones a compute runner can meet; others as hex).
pub(crate) fn stage_names(flags: vk::ShaderStageFlags) -> Vec<String> {
    use vk::ShaderStageFlags as S;
    flag_names(
        flags.as_raw(),
        &[
            (S::VERTEX.as_raw(), "VERTEX"),
            (S::TESSELLATION_CONTROL.as_raw(), "TESSELLATION_CONTROL"),
            (
                S::TESSELLATION_EVALUATION.as_raw(),
                "TESSELLATION_EVALUATION",
            ),
            (S::GEOMETRY.as_raw(), "GEOMETRY"),
            (S::FRAGMENT.as_raw(), "FRAGMENT"),
            (S::COMPUTE.as_raw(), "COMPUTE"),
            (S::TASK_EXT.as_raw(), "TASK"),
            (S::MESH_EXT.as_raw(), "MESH"),
            (S::RAYGEN_KHR.as_raw(), "RAYGEN"),
            (S::ANY_HIT_KHR.as_raw(), "ANY_HIT"),
            (S::CLOSEST_HIT_KHR.as_raw(), "CLOSEST_HIT"),
            (S::MISS_KHR.as_raw(), "MISS"),
            (S::INTERSECTION_KHR.as_raw(), "INTERSECTION"),
            (S::CALLABLE_KHR.as_raw(), "CALLABLE"),
        ],
    )
}

/// Subgroup operation class names.
pub(crate) fn subgroup_op_names(flags: vk::SubgroupFeatureFlags) -> Vec<String> {
    use vk::SubgroupFeatureFlags as F;
    flag_names(
        flags.as_raw(),
        &[
            (F::BASIC.as_raw(), "BASIC"),
            (F::VOTE.as_raw(), "VOTE"),
            (F::ARITHMETIC.as_raw(), "ARITHMETIC"),
            (F::BALLOT.as_raw(), "BALLOT"),
            (F::SHUFFLE.as_raw(), "SHUFFLE"),
            (F::SHUFFLE_RELATIVE.as_raw(), "SHUFFLE_RELATIVE"),
            (F::CLUSTERED.as_raw(), "CLUSTERED"),
            (F::QUAD.as_raw(), "QUAD"),
            (F::PARTITIONED_NV.as_raw(), "PARTITIONED_NV"),
            (F::ROTATE_KHR.as_raw(), "ROTATE"),
            (F::ROTATE_CLUSTERED_KHR.as_raw(), "ROTATE_CLUSTERED"),
        ],
    )
}

/// `VkShaderFloatControlsIndependence` by name.
pub(crate) fn independence_name(v: vk::ShaderFloatControlsIndependence) -> String {
    use vk::ShaderFloatControlsIndependence as I;
    match v {
        I::TYPE_32_ONLY => "32_BIT_ONLY".to_string(),
        I::ALL => "ALL".to_string(),
        I::NONE => "NONE".to_string(),
        other => format!("{}", other.as_raw()),
    }
}

/// Reads the float-controls properties into per-width records.
pub(crate) fn float_controls(
    available: bool,
    p: &vk::PhysicalDeviceFloatControlsProperties<'_>,
) -> FloatControls {
    let b = |v: vk::Bool32| v == vk::TRUE;
    FloatControls {
        available,
        denorm_behavior_independence: if available {
            independence_name(p.denorm_behavior_independence)
        } else {
            String::new()
        },
        rounding_mode_independence: if available {
            independence_name(p.rounding_mode_independence)
        } else {
            String::new()
        },
        f16: FloatModes {
            signed_zero_inf_nan_preserve: b(p.shader_signed_zero_inf_nan_preserve_float16),
            denorm_preserve: b(p.shader_denorm_preserve_float16),
            denorm_flush_to_zero: b(p.shader_denorm_flush_to_zero_float16),
            rounding_mode_rte: b(p.shader_rounding_mode_rte_float16),
            rounding_mode_rtz: b(p.shader_rounding_mode_rtz_float16),
        },
        f32: FloatModes {
            signed_zero_inf_nan_preserve: b(p.shader_signed_zero_inf_nan_preserve_float32),
            denorm_preserve: b(p.shader_denorm_preserve_float32),
            denorm_flush_to_zero: b(p.shader_denorm_flush_to_zero_float32),
            rounding_mode_rte: b(p.shader_rounding_mode_rte_float32),
            rounding_mode_rtz: b(p.shader_rounding_mode_rtz_float32),
        },
        f64: FloatModes {
            signed_zero_inf_nan_preserve: b(p.shader_signed_zero_inf_nan_preserve_float64),
            denorm_preserve: b(p.shader_denorm_preserve_float64),
            denorm_flush_to_zero: b(p.shader_denorm_flush_to_zero_float64),
            rounding_mode_rte: b(p.shader_rounding_mode_rte_float64),
            rounding_mode_rtz: b(p.shader_rounding_mode_rtz_float64),
        },
    }
}

/// `VkDeviceType` by name.
pub(crate) fn device_type_name(t: vk::PhysicalDeviceType) -> String {
    use vk::PhysicalDeviceType as T;
    match t {
        T::OTHER => "OTHER".to_string(),
        T::INTEGRATED_GPU => "INTEGRATED_GPU".to_string(),
        T::DISCRETE_GPU => "DISCRETE_GPU".to_string(),
        T::VIRTUAL_GPU => "VIRTUAL_GPU".to_string(),
        T::CPU => "CPU".to_string(),
        other => format!("{}", other.as_raw()),
    }
}

/// `VkDriverId` by name (ash's `Debug` spells the registry name).
pub(crate) fn driver_id_name(id: vk::DriverId) -> String {
    format!("{id:?}")
}

/// `VkConformanceVersion` as `major.minor.subminor.patch`.
pub(crate) fn conformance_string(c: vk::ConformanceVersion) -> String {
    format!("{}.{}.{}.{}", c.major, c.minor, c.subminor, c.patch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_by_name_with_unknown_bits_in_hex() {
        let flags = vk::ShaderStageFlags::COMPUTE | vk::ShaderStageFlags::FRAGMENT;
        assert_eq!(stage_names(flags), vec!["FRAGMENT", "COMPUTE"]);
        assert_eq!(
            subgroup_op_names(vk::SubgroupFeatureFlags::from_raw(0x1 | 0x8 | 0x8000_0000)),
            vec!["BASIC", "BALLOT", "0x80000000"]
        );
    }

    #[test]
    fn names_of_enums() {
        assert_eq!(driver_id_name(vk::DriverId::MESA_LLVMPIPE), "MESA_LLVMPIPE");
        assert_eq!(device_type_name(vk::PhysicalDeviceType::CPU), "CPU");
        assert_eq!(
            independence_name(vk::ShaderFloatControlsIndependence::TYPE_32_ONLY),
            "32_BIT_ONLY"
        );
        let v = Version::from_packed(vk::make_api_version(0, 1, 3, 230));
        assert_eq!(v.to_string(), "1.3.230");
        assert!(v.at_least(1, 3) && v.at_least(1, 1) && !v.at_least(1, 4));
    }
}
