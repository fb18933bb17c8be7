//! The buffer pool: one host-visible, host-coherent storage buffer per
//! binding, persistently mapped, grown (never shrunk) as jobs need more.
//! Jobs run one at a time on a device, so one buffer per binding suffices and
//! a steady stream of small jobs allocates nothing.

use ash::vk;

use crate::job::{JobError, BINDINGS, MIN_BUFFER_BYTES};

/// Capacity of a freshly created slot, in bytes (covers N = 1024 lanes of the
/// `lanes` binding: 16 KiB).
const INITIAL_CAPACITY: u64 = 16 * 1024;

/// One binding's buffer.
struct Slot {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    /// Start of the persistent mapping of `memory` (whole allocation).
    mapped: *mut u32,
    /// Usable bytes (the buffer's size).
    capacity: u64,
}

impl Slot {
    const EMPTY: Slot = Slot {
        buffer: vk::Buffer::null(),
        memory: vk::DeviceMemory::null(),
        mapped: std::ptr::null_mut(),
        capacity: 0,
    };
}

/// The per-device pool of binding buffers.
pub(crate) struct BufferPool {
    slots: [Slot; BINDINGS],
    memory_properties: vk::PhysicalDeviceMemoryProperties,
}

/// Bytes bound for a binding given `words` initial words.
pub(crate) fn bound_bytes(words: usize) -> u64 {
    (4 * words).max(MIN_BUFFER_BYTES) as u64
}

fn vk_other(call: &str, r: vk::Result) -> JobError {
    if r == vk::Result::ERROR_DEVICE_LOST {
        JobError::DeviceLost
    } else {
        JobError::Other(format!("{call} returned {r:?}"))
    }
}

impl BufferPool {
    /// An empty pool; slots are created on first use.
    pub(crate) fn new(memory_properties: vk::PhysicalDeviceMemoryProperties) -> Self {
        BufferPool {
            slots: [Slot::EMPTY, Slot::EMPTY, Slot::EMPTY, Slot::EMPTY],
            memory_properties,
        }
    }

    /// The buffer of binding `k` (null before its first [`Self::ensure`]).
    pub(crate) fn buffer(&self, k: usize) -> vk::Buffer {
        self.slots[k].buffer
    }

    /// Makes binding `k`'s buffer hold at least `bytes`. Returns whether the
    /// buffer was replaced (the descriptor must then be rewritten; the caller
    /// rewrites it every job anyway, for the range).
    pub(crate) fn ensure(
        &mut self,
        device: &ash::Device,
        k: usize,
        bytes: u64,
    ) -> Result<bool, JobError> {
        if self.slots[k].capacity >= bytes {
            return Ok(false);
        }
        let capacity = bytes.next_power_of_two().max(INITIAL_CAPACITY);
        let fresh = self.create_slot(device, capacity)?;
        let old = std::mem::replace(&mut self.slots[k], fresh);
        destroy_slot(device, old);
        Ok(true)
    }

    fn create_slot(&self, device: &ash::Device, capacity: u64) -> Result<Slot, JobError> {
        let info = vk::BufferCreateInfo::default()
            .size(capacity)
            .usage(vk::BufferUsageFlags::STORAGE_BUFFER)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: `device` is a live device and `info` a valid create-info
        // with no pNext chain.
        let buffer = unsafe { device.create_buffer(&info, None) }
            .map_err(|r| vk_other("vkCreateBuffer", r))?;
        let mut slot = Slot {
            buffer,
            ..Slot::EMPTY
        };
        // SAFETY: `buffer` was just created on `device`.
        let req = unsafe { device.get_buffer_memory_requirements(buffer) };
        let wanted = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let props = &self.memory_properties;
        let Some(type_index) = (0..props.memory_type_count).find(|&i| {
            req.memory_type_bits & (1 << i) != 0
                && props.memory_types[i as usize]
                    .property_flags
                    .contains(wanted)
        }) else {
            destroy_slot(device, slot);
            return Err(JobError::Other(
                "no host-visible, host-coherent memory type for storage buffers".to_string(),
            ));
        };
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(type_index);
        // SAFETY: valid allocate-info; the type index comes from the device's
        // own memory properties and the buffer's requirements.
        match unsafe { device.allocate_memory(&alloc, None) } {
            Ok(memory) => slot.memory = memory,
            Err(r) => {
                destroy_slot(device, slot);
                return Err(vk_other("vkAllocateMemory", r));
            }
        }
        // SAFETY: buffer and memory belong to `device`, the memory type is
        // allowed by the requirements, offset 0 is aligned, and the buffer has
        // no memory bound yet.
        if let Err(r) = unsafe { device.bind_buffer_memory(slot.buffer, slot.memory, 0) } {
            destroy_slot(device, slot);
            return Err(vk_other("vkBindBufferMemory", r));
        }
        // SAFETY: host-visible memory, not mapped yet, whole range.
        match unsafe {
            device.map_memory(slot.memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
        } {
            // minMemoryMapAlignment is at least 64, so the pointer is aligned
            // for u32.
            Ok(ptr) => slot.mapped = ptr.cast::<u32>(),
            Err(r) => {
                destroy_slot(device, slot);
                return Err(vk_other("vkMapMemory", r));
            }
        }
        slot.capacity = capacity;
        Ok(slot)
    }

    /// Writes `words` at the start of binding `k` and zeroes the rest of its
    /// bound range (`bound_bytes(words.len())`), so stale data from an
    /// earlier job never shows through. The slot must have been ensured.
    pub(crate) fn write(&mut self, k: usize, words: &[u32]) {
        let slot = &self.slots[k];
        let bound_words = (bound_bytes(words.len()) / 4) as usize;
        assert!(4 * bound_words as u64 <= slot.capacity && !slot.mapped.is_null());
        // SAFETY: `mapped` points at a live mapping of `capacity` bytes (just
        // asserted to cover `bound_words` words), no other reference to it
        // exists, and the device is idle (jobs run one at a time and the last
        // fence was waited on).
        unsafe {
            std::ptr::copy_nonoverlapping(words.as_ptr(), slot.mapped, words.len());
            std::ptr::write_bytes(slot.mapped.add(words.len()), 0, bound_words - words.len());
        }
    }

    /// Reads the first `len` words of binding `k`.
    pub(crate) fn read(&self, k: usize, len: usize) -> Vec<u32> {
        let slot = &self.slots[k];
        assert!(4 * len as u64 <= slot.capacity && (len == 0 || !slot.mapped.is_null()));
        if len == 0 {
            return Vec::new();
        }
        // SAFETY: the mapping covers `len` words (asserted); the dispatch that
        // wrote them has completed (fence waited) and its writes were made
        // available to the host by a barrier; the memory is host-coherent.
        unsafe { std::slice::from_raw_parts(slot.mapped, len) }.to_vec()
    }

    /// Frees every slot. The device must be idle.
    pub(crate) fn destroy(&mut self, device: &ash::Device) {
        for slot in &mut self.slots {
            destroy_slot(device, std::mem::replace(slot, Slot::EMPTY));
        }
    }
}

/// Destroys a slot's buffer and memory (null handles are skipped by Vulkan).
fn destroy_slot(device: &ash::Device, slot: Slot) {
    // SAFETY: both handles belong to `device` (or are null, which the destroy
    // and free calls accept), nothing in flight uses them (the device is idle
    // between jobs), and freeing memory unmaps it.
    unsafe {
        device.destroy_buffer(slot.buffer, None);
        device.free_memory(slot.memory, None);
    }
}

#[cfg(test)]
mod tests {
    use super::bound_bytes;

    #[test]
    fn every_binding_is_at_least_16_bytes() {
        assert_eq!(bound_bytes(0), 16);
        assert_eq!(bound_bytes(3), 16);
        assert_eq!(bound_bytes(4), 16);
        assert_eq!(bound_bytes(5), 20);
        assert_eq!(bound_bytes(1024), 4096);
    }
}
