//! [`Device`]: the Vulkan loader, one instance, one device with one compute
//! queue, and the objects every job shares (layouts, pools, fence, buffers).
//! Opening it costs tens of milliseconds, so a process opens one and runs
//! many jobs on it (see `run.rs`).

use std::ffi::{CStr, CString};

use ash::vk;

use crate::buffers::BufferPool;
use crate::info::{self, DeviceInfo, Extensions, Features, SubgroupInfo, Version};
use crate::job::{JobError, BINDINGS};

/// An opened Vulkan device ready to run [`crate::Job`]s, one at a time.
///
/// Mesa drivers write a shader cache under `~/.cache/mesa_shader_cache`
/// unless `MESA_SHADER_CACHE_DISABLE=true` is in the environment when the
/// device is opened; setting it is the caller's business (the farm sets it
/// on the worker's command).
///
/// Not `Send`: the buffer pool holds mapped pointers. A process that wants
/// several devices opens one per thread.
pub struct Device {
    /// Keeps the loader library loaded while the instance lives.
    _entry: ash::Entry,
    pub(crate) instance: ash::Instance,
    pub(crate) device: ash::Device,
    pub(crate) queue: vk::Queue,
    pub(crate) info: DeviceInfo,
    /// What a required subgroup size may be.
    pub(crate) size_control: SizeControl,
    /// Objects every job reuses.
    pub(crate) shared: Shared,
    pub(crate) buffers: BufferPool,
    /// Set after a timeout or device loss: the device may still be executing
    /// the job, so nothing may be destroyed and no job may run.
    pub(crate) broken: Option<JobError>,
}

/// Limits on `VkPipelineShaderStageRequiredSubgroupSizeCreateInfo`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SizeControl {
    /// The `subgroupSizeControl` feature was enabled.
    pub(crate) enabled: bool,
    pub(crate) min: u32,
    pub(crate) max: u32,
    pub(crate) stages: vk::ShaderStageFlags,
}

fn open_err(what: impl std::fmt::Display) -> JobError {
    JobError::DeviceOpen(what.to_string())
}

fn vk_open_err(call: &str, r: vk::Result) -> JobError {
    JobError::DeviceOpen(format!("{call} returned {r:?}"))
}

/// A device extension the runner enables when present and not already core.
struct OptionalExtension {
    name: &'static CStr,
    /// The API version that made it core, if any.
    core_in: Option<(u32, u32)>,
}

/// Extensions whose features or properties the runner uses.
const OPTIONAL_EXTENSIONS: &[OptionalExtension] = &[
    OptionalExtension {
        name: vk::KHR_DRIVER_PROPERTIES_NAME,
        core_in: Some((1, 2)),
    },
    OptionalExtension {
        name: vk::KHR_SHADER_FLOAT_CONTROLS_NAME,
        core_in: Some((1, 2)),
    },
    // SPIR-V 1.4+ modules on a 1.1 device.
    OptionalExtension {
        name: vk::KHR_SPIRV_1_4_NAME,
        core_in: Some((1, 2)),
    },
    OptionalExtension {
        name: vk::KHR_SHADER_FLOAT16_INT8_NAME,
        core_in: Some((1, 2)),
    },
    OptionalExtension {
        name: vk::KHR_8BIT_STORAGE_NAME,
        core_in: Some((1, 2)),
    },
    OptionalExtension {
        name: vk::EXT_SUBGROUP_SIZE_CONTROL_NAME,
        core_in: Some((1, 3)),
    },
    OptionalExtension {
        name: vk::KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_NAME,
        core_in: None,
    },
    OptionalExtension {
        name: vk::KHR_SHADER_MAXIMAL_RECONVERGENCE_NAME,
        core_in: None,
    },
    OptionalExtension {
        name: KHR_COMPUTE_SHADER_DERIVATIVES_NAME,
        core_in: None,
    },
    OptionalExtension {
        name: vk::NV_COMPUTE_SHADER_DERIVATIVES_NAME,
        core_in: None,
    },
];

/// `VK_KHR_compute_shader_derivatives` (newer than the headers of `ash`
/// 0.38, which know its NV original; the feature struct is the NV one, whose
/// structure type the KHR extension kept).
const KHR_COMPUTE_SHADER_DERIVATIVES_NAME: &CStr = c"VK_KHR_compute_shader_derivatives";

/// What the physical device offers: core version plus extension list.
struct Offer {
    api: Version,
    extensions: Vec<CString>,
}

impl Offer {
    fn has_extension(&self, name: &CStr) -> bool {
        self.extensions.iter().any(|e| e.as_c_str() == name)
    }

    /// Core in the device's version, or present as the extension `name`.
    fn has(&self, core_in: Option<(u32, u32)>, name: &CStr) -> bool {
        core_in.is_some_and(|(major, minor)| self.api.at_least(major, minor))
            || self.has_extension(name)
    }

    /// Extensions to enable: present ones that the device version does not
    /// already include.
    fn to_enable(&self) -> Vec<&'static CStr> {
        OPTIONAL_EXTENSIONS
            .iter()
            .filter(|e| {
                let core = e
                    .core_in
                    .is_some_and(|(major, minor)| self.api.at_least(major, minor));
                !core && self.has_extension(e.name)
            })
            .map(|e| e.name)
            .collect()
    }
}

impl Device {
    /// Loads the Vulkan loader, creates an instance and opens a device.
    ///
    /// `selector`: `None` takes the first physical device; `Some(s)` the
    /// first whose device name or driver name (`driverName`) contains `s`,
    /// ignoring case and reading spaces as `-` (`"llvmpipe"`, `"intel"`,
    /// `"intel-open-source-mesa-driver"`).
    /// Every optional feature the runner knows (see [`crate::Features`],
    /// subgroup size control, the reconvergence extensions) is enabled when
    /// the device has it. Errors are [`JobError::DeviceOpen`].
    pub fn open(selector: Option<&str>) -> Result<Device, JobError> {
        // SAFETY: loading the system loader runs its initialisers; the entry
        // is kept in the `Device` for as long as any Vulkan object lives.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| {
            open_err(format!(
                "cannot load the Vulkan loader (libvulkan1): {e}; install libvulkan1 and a driver \
                 (mesa-vulkan-drivers for lavapipe)"
            ))
        })?;
        // SAFETY: `entry` is a loaded loader.
        let loader_version = match unsafe { entry.try_enumerate_instance_version() } {
            Ok(v) => v.unwrap_or(vk::API_VERSION_1_0),
            Err(r) => return Err(vk_open_err("vkEnumerateInstanceVersion", r)),
        };
        if !Version::from_packed(loader_version).at_least(1, 1) {
            return Err(open_err(format!(
                "the Vulkan loader is {}, the runner needs 1.1",
                Version::from_packed(loader_version)
            )));
        }
        let app = vk::ApplicationInfo::default()
            .application_name(c"shaderfarm")
            .engine_name(c"shaderfarm-vulkan")
            // The highest version the runner uses; a 1.1+ loader accepts it
            // for devices of any version.
            .api_version(vk::API_VERSION_1_3);
        let instance_info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: valid create-info without layers or extensions.
        let instance = unsafe { entry.create_instance(&instance_info, None) }
            .map_err(|r| vk_open_err("vkCreateInstance", r))?;
        // The clone shares the loaded library, which must outlive the
        // instance even when `open_on` fails.
        match Self::open_on(entry.clone(), instance.clone(), selector) {
            Ok(device) => Ok(device),
            Err(e) => {
                // SAFETY: `open_on` destroyed everything it created on this
                // instance before failing; no child object remains.
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    /// The rest of [`Device::open`], once the instance exists. On error,
    /// everything created here is destroyed (the caller destroys the
    /// instance).
    fn open_on(
        entry: ash::Entry,
        instance: ash::Instance,
        selector: Option<&str>,
    ) -> Result<Device, JobError> {
        // SAFETY: `instance` is live.
        let physicals = unsafe { instance.enumerate_physical_devices() }
            .map_err(|r| vk_open_err("vkEnumeratePhysicalDevices", r))?;
        let mut names = Vec::new();
        for &pd in &physicals {
            // SAFETY: `pd` was enumerated from `instance`.
            let props = unsafe { instance.get_physical_device_properties(pd) };
            names.push(
                props
                    .device_name_as_c_str()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            );
        }
        let chosen = match selector.map(selection_key) {
            None => (!physicals.is_empty()).then_some(0),
            Some(want) => physicals.iter().zip(&names).position(|(&pd, name)| {
                selection_key(name).contains(&want)
                    || probe(&instance, pd)
                        .is_ok_and(|p| selection_key(&p.info.driver_name).contains(&want))
            }),
        };
        let Some(index) = chosen else {
            return Err(open_err(match selector {
                None => "no Vulkan physical device (for lavapipe install mesa-vulkan-drivers)"
                    .to_string(),
                Some(s) => {
                    format!("no Vulkan device or driver name contains {s:?}; devices: {names:?}")
                }
            }));
        };
        let pd = physicals[index];
        let probe = probe(&instance, pd)?;
        let offer = &probe.offer;

        let queue_family = {
            // SAFETY: `pd` was enumerated from `instance`.
            let families = unsafe { instance.get_physical_device_queue_family_properties(pd) };
            families
                .iter()
                .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
                .ok_or_else(|| open_err(format!("{} has no compute queue", names[index])))?
                as u32
        };

        // Enable exactly what the device offers of what a module may need.
        let f = &probe.info.features;
        let sg = &probe.info.subgroup;
        let x = &probe.info.extensions;
        let base = vk::PhysicalDeviceFeatures::default()
            .shader_int16(f.shader_int16)
            .shader_int64(f.shader_int64)
            .shader_float64(f.shader_float64);
        let mut storage16 = vk::PhysicalDevice16BitStorageFeatures::default()
            .storage_buffer16_bit_access(f.storage_buffer_16bit_access);
        let mut float16_int8 = vk::PhysicalDeviceShaderFloat16Int8Features::default()
            .shader_float16(f.shader_float16)
            .shader_int8(f.shader_int8);
        let mut storage8 = vk::PhysicalDevice8BitStorageFeatures::default()
            .storage_buffer8_bit_access(f.storage_buffer_8bit_access);
        let mut size_control = vk::PhysicalDeviceSubgroupSizeControlFeatures::default()
            .subgroup_size_control(sg.size_control)
            .compute_full_subgroups(sg.compute_full_subgroups);
        let mut uniform_cf =
            vk::PhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR::default()
                .shader_subgroup_uniform_control_flow(true);
        let mut reconvergence = vk::PhysicalDeviceShaderMaximalReconvergenceFeaturesKHR::default()
            .shader_maximal_reconvergence(true);
        let mut derivatives = vk::PhysicalDeviceComputeShaderDerivativesFeaturesNV::default()
            .compute_derivative_group_linear(true);
        let mut features2 = vk::PhysicalDeviceFeatures2::default()
            .features(base)
            .push_next(&mut storage16);
        if x.compute_derivative_group_linear {
            features2 = features2.push_next(&mut derivatives);
        }
        if probe.float16_int8 {
            features2 = features2.push_next(&mut float16_int8);
        }
        if probe.storage8 {
            features2 = features2.push_next(&mut storage8);
        }
        if probe.size_control {
            features2 = features2.push_next(&mut size_control);
        }
        if x.shader_subgroup_uniform_control_flow {
            features2 = features2.push_next(&mut uniform_cf);
        }
        if x.shader_maximal_reconvergence {
            features2 = features2.push_next(&mut reconvergence);
        }
        let extension_ptrs: Vec<_> = offer.to_enable().iter().map(|e| e.as_ptr()).collect();
        let priorities = [1.0f32];
        let queue_infos = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(queue_family)
            .queue_priorities(&priorities)];
        let device_info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queue_infos)
            .enabled_extension_names(&extension_ptrs)
            .push_next(&mut features2);
        // SAFETY: every chained feature struct is supported by `pd` (core in
        // its version or its extension is enabled here), only supported
        // features are set, and the extension names are NUL-terminated
        // statics.
        let device = unsafe { instance.create_device(pd, &device_info, None) }
            .map_err(|r| vk_open_err("vkCreateDevice", r))?;
        // SAFETY: family `queue_family` with one queue was requested above.
        let queue = unsafe { device.get_device_queue(queue_family, 0) };
        // SAFETY: `pd` was enumerated from `instance`.
        let memory_properties = unsafe { instance.get_physical_device_memory_properties(pd) };

        let shared = match Shared::create(&device, queue_family) {
            Ok(shared) => shared,
            Err(e) => {
                // SAFETY: `Shared::create` destroyed its partial objects; the
                // device has no other children yet.
                unsafe { device.destroy_device(None) };
                return Err(e);
            }
        };
        Ok(Device {
            _entry: entry,
            instance,
            device,
            queue,
            size_control: SizeControl {
                enabled: probe.info.subgroup.size_control,
                min: probe.info.subgroup.min_size,
                max: probe.info.subgroup.max_size,
                stages: probe.required_size_stages,
            },
            info: probe.info,
            shared,
            buffers: BufferPool::new(memory_properties),
            broken: None,
        })
    }

    /// What was opened.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// `false` after a job timed out or lost the device: such a device
    /// refuses further jobs, and the process should exit (dropping it leaks
    /// its objects on purpose, since the driver may still be running them).
    pub fn is_usable(&self) -> bool {
        self.broken.is_none()
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        if self.broken.is_some() {
            // The driver may still be executing the timed-out job; destroying
            // anything could hang or crash. The process is about to exit.
            return;
        }
        // SAFETY: waiting for idle is always allowed on a live device. A
        // failure (device lost) leaves nothing better to do than destroying
        // anyway.
        let _ = unsafe { self.device.device_wait_idle() };
        self.shared.destroy(&self.device);
        self.buffers.destroy(&self.device);
        // SAFETY: every child of the device is destroyed above and the device
        // is idle; the device was the only child of the instance.
        unsafe {
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// The per-device objects every job reuses: layouts, the descriptor set,
/// the command buffer and the fence.
pub(crate) struct Shared {
    pub(crate) set_layout: vk::DescriptorSetLayout,
    pub(crate) pipeline_layout: vk::PipelineLayout,
    pub(crate) descriptor_pool: vk::DescriptorPool,
    pub(crate) descriptor_set: vk::DescriptorSet,
    pub(crate) command_pool: vk::CommandPool,
    pub(crate) command_buffer: vk::CommandBuffer,
    pub(crate) fence: vk::Fence,
}

impl Shared {
    /// Creates them all, or destroys the ones made so far and fails.
    fn create(d: &ash::Device, queue_family: u32) -> Result<Shared, JobError> {
        let mut s = Shared {
            set_layout: vk::DescriptorSetLayout::null(),
            pipeline_layout: vk::PipelineLayout::null(),
            descriptor_pool: vk::DescriptorPool::null(),
            descriptor_set: vk::DescriptorSet::null(),
            command_pool: vk::CommandPool::null(),
            command_buffer: vk::CommandBuffer::null(),
            fence: vk::Fence::null(),
        };
        match s.fill(d, queue_family) {
            Ok(()) => Ok(s),
            Err(e) => {
                s.destroy(d);
                Err(e)
            }
        }
    }

    fn fill(&mut self, d: &ash::Device, queue_family: u32) -> Result<(), JobError> {
        let bindings: Vec<_> = (0..BINDINGS as u32)
            .map(|b| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let layout_info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
        // SAFETY: valid create-infos on a live device, here and below; each
        // handle is stored in `self` at once so `destroy` frees it.
        unsafe {
            self.set_layout = d
                .create_descriptor_set_layout(&layout_info, None)
                .map_err(|r| vk_open_err("vkCreateDescriptorSetLayout", r))?;
            let set_layouts = [self.set_layout];
            self.pipeline_layout = d
                .create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                    None,
                )
                .map_err(|r| vk_open_err("vkCreatePipelineLayout", r))?;
            let sizes = [vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(BINDINGS as u32)];
            self.descriptor_pool = d
                .create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(1)
                        .pool_sizes(&sizes),
                    None,
                )
                .map_err(|r| vk_open_err("vkCreateDescriptorPool", r))?;
            self.descriptor_set = d
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(self.descriptor_pool)
                        .set_layouts(&set_layouts),
                )
                .map_err(|r| vk_open_err("vkAllocateDescriptorSets", r))?[0];
            // One command buffer, re-recorded per job after resetting the
            // whole pool.
            self.command_pool = d
                .create_command_pool(
                    &vk::CommandPoolCreateInfo::default()
                        .queue_family_index(queue_family)
                        .flags(vk::CommandPoolCreateFlags::TRANSIENT),
                    None,
                )
                .map_err(|r| vk_open_err("vkCreateCommandPool", r))?;
            self.command_buffer = d
                .allocate_command_buffers(
                    &vk::CommandBufferAllocateInfo::default()
                        .command_pool(self.command_pool)
                        .level(vk::CommandBufferLevel::PRIMARY)
                        .command_buffer_count(1),
                )
                .map_err(|r| vk_open_err("vkAllocateCommandBuffers", r))?[0];
            self.fence = d
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .map_err(|r| vk_open_err("vkCreateFence", r))?;
        }
        Ok(())
    }

    /// Destroys them (null handles are fine). The device must be idle.
    fn destroy(&mut self, d: &ash::Device) {
        // SAFETY: every handle was created on `d` or is null (accepted by the
        // destroy calls); the device is idle; the pools free their set and
        // command buffer; the handles are nulled below so nothing reuses them.
        unsafe {
            d.destroy_fence(self.fence, None);
            d.destroy_command_pool(self.command_pool, None);
            d.destroy_descriptor_pool(self.descriptor_pool, None);
            d.destroy_pipeline_layout(self.pipeline_layout, None);
            d.destroy_descriptor_set_layout(self.set_layout, None);
        }
        self.fence = vk::Fence::null();
        self.command_pool = vk::CommandPool::null();
        self.command_buffer = vk::CommandBuffer::null();
        self.descriptor_pool = vk::DescriptorPool::null();
        self.descriptor_set = vk::DescriptorSet::null();
        self.pipeline_layout = vk::PipelineLayout::null();
        self.set_layout = vk::DescriptorSetLayout::null();
    }
}

/// What [`probe`] learns about a physical device.
struct Probe {
    offer: Offer,
    info: DeviceInfo,
    required_size_stages: vk::ShaderStageFlags,
    /// Which feature structs may be chained at device creation.
    float16_int8: bool,
    storage8: bool,
    size_control: bool,
}

/// A device or driver name as selectors match it: lowercase, spaces as `-`
/// (the form of a driver in target names, `vulkan:intel-open-source-mesa-driver`).
fn selection_key(name: &str) -> String {
    name.to_lowercase().replace(' ', "-")
}

/// Reads properties, features and extensions of `pd` into a [`DeviceInfo`].
/// Only structs the device supports are chained (its version or extension).
fn probe(instance: &ash::Instance, pd: vk::PhysicalDevice) -> Result<Probe, JobError> {
    // SAFETY: `pd` was enumerated from `instance`.
    let base = unsafe { instance.get_physical_device_properties(pd) };
    let api = Version::from_packed(base.api_version);
    let name = base
        .device_name_as_c_str()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !api.at_least(1, 1) {
        return Err(open_err(format!(
            "{name} supports Vulkan {api}; the runner needs 1.1 (subgroups)"
        )));
    }
    // SAFETY: `pd` was enumerated from `instance`.
    let extensions = unsafe { instance.enumerate_device_extension_properties(pd) }
        .map_err(|r| vk_open_err("vkEnumerateDeviceExtensionProperties", r))?
        .iter()
        .filter_map(|e| e.extension_name_as_c_str().ok().map(CStr::to_owned))
        .collect();
    let offer = Offer { api, extensions };

    let has_driver = offer.has(Some((1, 2)), vk::KHR_DRIVER_PROPERTIES_NAME);
    let has_float_controls = offer.has(Some((1, 2)), vk::KHR_SHADER_FLOAT_CONTROLS_NAME);
    let has_size_control = offer.has(Some((1, 3)), vk::EXT_SUBGROUP_SIZE_CONTROL_NAME);
    let has_float16_int8 = offer.has(Some((1, 2)), vk::KHR_SHADER_FLOAT16_INT8_NAME);
    let has_storage8 = offer.has(Some((1, 2)), vk::KHR_8BIT_STORAGE_NAME);
    let has_uniform_cf = offer.has_extension(vk::KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_NAME);
    let has_reconvergence = offer.has_extension(vk::KHR_SHADER_MAXIMAL_RECONVERGENCE_NAME);
    let derivatives_khr = offer.has_extension(KHR_COMPUTE_SHADER_DERIVATIVES_NAME);
    let derivatives_nv = offer.has_extension(vk::NV_COMPUTE_SHADER_DERIVATIVES_NAME);
    let has_derivatives = derivatives_khr || derivatives_nv;

    let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
    let mut driver = vk::PhysicalDeviceDriverProperties::default();
    let mut float_controls = vk::PhysicalDeviceFloatControlsProperties::default();
    let mut size_props = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
    let limits = {
        let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut subgroup);
        if has_driver {
            props2 = props2.push_next(&mut driver);
        }
        if has_float_controls {
            props2 = props2.push_next(&mut float_controls);
        }
        if has_size_control {
            props2 = props2.push_next(&mut size_props);
        }
        // SAFETY: every chained struct is supported by `pd` (checked above),
        // and the loader is at least 1.1, so the core entry point exists.
        unsafe { instance.get_physical_device_properties2(pd, &mut props2) };
        props2.properties.limits
    };

    let mut storage16 = vk::PhysicalDevice16BitStorageFeatures::default();
    let mut float16_int8 = vk::PhysicalDeviceShaderFloat16Int8Features::default();
    let mut storage8 = vk::PhysicalDevice8BitStorageFeatures::default();
    let mut size_features = vk::PhysicalDeviceSubgroupSizeControlFeatures::default();
    let mut uniform_cf = vk::PhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR::default();
    let mut reconvergence = vk::PhysicalDeviceShaderMaximalReconvergenceFeaturesKHR::default();
    let mut derivatives = vk::PhysicalDeviceComputeShaderDerivativesFeaturesNV::default();
    let core_features = {
        let mut features2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut storage16);
        if has_float16_int8 {
            features2 = features2.push_next(&mut float16_int8);
        }
        if has_storage8 {
            features2 = features2.push_next(&mut storage8);
        }
        if has_size_control {
            features2 = features2.push_next(&mut size_features);
        }
        if has_uniform_cf {
            features2 = features2.push_next(&mut uniform_cf);
        }
        if has_reconvergence {
            features2 = features2.push_next(&mut reconvergence);
        }
        if has_derivatives {
            features2 = features2.push_next(&mut derivatives);
        }
        // SAFETY: as for the properties above.
        unsafe { instance.get_physical_device_features2(pd, &mut features2) };
        features2.features
    };

    let b = |v: vk::Bool32| v == vk::TRUE;
    let c_string = |r: Result<&CStr, _>| {
        r.map(|s: &CStr| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let size_control_on = has_size_control && b(size_features.subgroup_size_control);
    let (min_size, max_size, max_wg_subgroups, required_size_stages) = if has_size_control {
        (
            size_props.min_subgroup_size,
            size_props.max_subgroup_size,
            size_props.max_compute_workgroup_subgroups,
            size_props.required_subgroup_size_stages,
        )
    } else {
        let s = subgroup.subgroup_size;
        (s, s, 0, vk::ShaderStageFlags::empty())
    };
    let info = DeviceInfo {
        name,
        device_type: info::device_type_name(base.device_type),
        vendor_id: base.vendor_id,
        device_id: base.device_id,
        api_version: api,
        driver_version: base.driver_version,
        driver_id: if has_driver {
            info::driver_id_name(driver.driver_id)
        } else {
            String::new()
        },
        driver_name: c_string(driver.driver_name_as_c_str()),
        driver_info: c_string(driver.driver_info_as_c_str()),
        conformance_version: if has_driver {
            info::conformance_string(driver.conformance_version)
        } else {
            String::new()
        },
        subgroup: SubgroupInfo {
            size: subgroup.subgroup_size,
            min_size,
            max_size,
            max_compute_workgroup_subgroups: max_wg_subgroups,
            supported_stages: info::stage_names(subgroup.supported_stages),
            supported_operations: info::subgroup_op_names(subgroup.supported_operations),
            required_size_stages: info::stage_names(required_size_stages),
            size_control: size_control_on,
            compute_full_subgroups: has_size_control && b(size_features.compute_full_subgroups),
        },
        features: Features {
            shader_int8: has_float16_int8 && b(float16_int8.shader_int8),
            shader_int16: b(core_features.shader_int16),
            shader_int64: b(core_features.shader_int64),
            shader_float16: has_float16_int8 && b(float16_int8.shader_float16),
            shader_float64: b(core_features.shader_float64),
            storage_buffer_8bit_access: has_storage8 && b(storage8.storage_buffer8_bit_access),
            storage_buffer_16bit_access: b(storage16.storage_buffer16_bit_access),
        },
        float_controls: info::float_controls(has_float_controls, &float_controls),
        extensions: Extensions {
            shader_maximal_reconvergence: has_reconvergence
                && b(reconvergence.shader_maximal_reconvergence),
            shader_subgroup_uniform_control_flow: has_uniform_cf
                && b(uniform_cf.shader_subgroup_uniform_control_flow),
            compute_derivative_group_linear: has_derivatives
                && b(derivatives.compute_derivative_group_linear),
            compute_derivatives_nv: !derivatives_khr && derivatives_nv,
        },
        max_compute_work_group_size: limits.max_compute_work_group_size,
        max_compute_work_group_invocations: limits.max_compute_work_group_invocations,
    };
    Ok(Probe {
        offer,
        info,
        required_size_stages: if size_control_on {
            required_size_stages
        } else {
            vk::ShaderStageFlags::empty()
        },
        float16_int8: has_float16_int8,
        storage8: has_storage8,
        size_control: has_size_control,
    })
}
