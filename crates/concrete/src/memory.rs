//! The concrete memory: objects with ids, sizes and typed cells.
//!
//! A pointer is the integer `id·2³² + offset` ([`cfa::POINTER_TYPE`]); object
//! ids start at 1, so NULL (0) never points to an object. An object holds
//! the values written to it as cells (byte offset → size and value), so a
//! million-element array costs only the cells written. Every access is
//! checked: a null, dangling or out-of-bounds pointer, a use after `free`,
//! a double or invalid `free`, and a read of bytes written as a value of
//! another size stop the run with a [`MemoryError`] — the interpreter never
//! invents a value. Reading a cell nobody wrote gives 0 in a zeroed object
//! (globals, `calloc`) and the next input otherwise.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Why a memory access has no defined result; the run stops there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum MemoryError {
    /// The pointer is NULL.
    NullPointer,
    /// The pointer does not point into any object that was ever allocated.
    InvalidPointer,
    /// The access does not fit in the object.
    OutOfBounds {
        /// Byte offset of the access.
        offset: u64,
        /// Bytes accessed.
        bytes: u64,
        /// Size of the object in bytes.
        size: u64,
    },
    /// The object was freed before.
    UseAfterFree,
    /// `free` of an object that was already freed.
    DoubleFree,
    /// `free` of a pointer that is not the start of a heap object.
    InvalidFree,
    /// A read of bytes that were written as a value of another size (mini-C
    /// does not reinterpret memory).
    MixedSizes,
    /// An allocation above 2³² − 1 bytes, or more objects than ids.
    TooLarge,
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::NullPointer => f.write_str("dereference of a null pointer"),
            MemoryError::InvalidPointer => f.write_str("dereference of a pointer that points to no object"),
            MemoryError::OutOfBounds { offset, bytes, size } => {
                write!(f, "out-of-bounds access: {bytes} bytes at offset {offset} of an object of {size} bytes")
            }
            MemoryError::UseAfterFree => f.write_str("use of memory after it was freed"),
            MemoryError::DoubleFree => f.write_str("memory freed twice"),
            MemoryError::InvalidFree => f.write_str("`free` of a pointer that does not point to the start of a heap block"),
            MemoryError::MixedSizes => f.write_str("read of bytes written as a value of another type"),
            MemoryError::TooLarge => f.write_str("allocation too large"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Object {
    size: u64,
    zeroed: bool,
    heap: bool,
    freed: bool,
    /// Byte offset → (bytes, value).
    cells: BTreeMap<u64, (u64, i128)>,
}

/// What a read found: a value, or nothing written yet (the caller takes an input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// The value stored in the cell (0 for an unwritten cell of a zeroed object).
    Value(i128),
    /// Nobody wrote the cell and the object is not zeroed.
    Unwritten,
}

/// All objects of a run: the concrete memory the interpreter (and the
/// transformation's explorer, for its concrete part) reads and writes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Memory {
    objects: Vec<Object>,
}

const OFFSET_BITS: u32 = 32;

/// The object id a pointer points into (`addr >> 32`; 0 for NULL).
pub fn object_of(addr: i128) -> i128 {
    addr >> OFFSET_BITS
}

impl Memory {
    /// A new object of `size` bytes; its address.
    pub fn alloc(&mut self, size: i128, zeroed: bool, heap: bool) -> Result<i128, MemoryError> {
        let size = u64::try_from(size).map_err(|_| MemoryError::TooLarge)?;
        if size >= 1 << OFFSET_BITS || self.objects.len() >= (1 << 30) {
            return Err(MemoryError::TooLarge);
        }
        self.objects.push(Object { size, zeroed, heap, freed: false, cells: BTreeMap::new() });
        Ok((self.objects.len() as i128) << OFFSET_BITS)
    }

    /// The object and offset `addr` points to, checked for an access of `bytes`.
    fn locate(&mut self, addr: i128, bytes: u64) -> Result<(&mut Object, u64), MemoryError> {
        if addr == 0 {
            return Err(MemoryError::NullPointer);
        }
        if !(0..1i128 << 64).contains(&addr) {
            return Err(MemoryError::InvalidPointer);
        }
        let id = (addr >> OFFSET_BITS) as usize;
        let offset = (addr & ((1 << OFFSET_BITS) - 1)) as u64;
        let obj = id.checked_sub(1).and_then(|i| self.objects.get_mut(i)).ok_or(MemoryError::InvalidPointer)?;
        if obj.freed {
            return Err(MemoryError::UseAfterFree);
        }
        if offset.checked_add(bytes).is_none_or(|end| end > obj.size) {
            return Err(MemoryError::OutOfBounds { offset, bytes, size: obj.size });
        }
        Ok((obj, offset))
    }

    /// Reads `bytes` bytes at `addr`.
    pub fn load(&mut self, addr: i128, bytes: u64) -> Result<Cell, MemoryError> {
        let (obj, offset) = self.locate(addr, bytes)?;
        if let Some(&(b, v)) = obj.cells.get(&offset) {
            return if b == bytes { Ok(Cell::Value(v)) } else { Err(MemoryError::MixedSizes) };
        }
        if overlapping(obj, offset, bytes).next().is_some() {
            return Err(MemoryError::MixedSizes);
        }
        Ok(if obj.zeroed { Cell::Value(0) } else { Cell::Unwritten })
    }

    /// Writes `value` as `bytes` bytes at `addr`.
    pub fn store(&mut self, addr: i128, bytes: u64, value: i128) -> Result<(), MemoryError> {
        let (obj, offset) = self.locate(addr, bytes)?;
        let stale: Vec<u64> = overlapping(obj, offset, bytes).collect();
        for k in stale {
            obj.cells.remove(&k);
        }
        obj.cells.insert(offset, (bytes, value));
        Ok(())
    }

    /// The objects not freed: each one's address (offset 0) and size in
    /// bytes — every address an access can use without a [`MemoryError`]
    /// lies in one of them.
    pub fn live_objects(&self) -> impl Iterator<Item = (i128, u64)> + '_ {
        self.objects.iter().enumerate().filter(|(_, o)| !o.freed).map(|(i, o)| ((i as i128 + 1) << OFFSET_BITS, o.size))
    }

    /// Frees the heap object `addr` points to the start of (`free(NULL)` does nothing).
    pub fn free(&mut self, addr: i128) -> Result<(), MemoryError> {
        if addr == 0 {
            return Ok(());
        }
        let (obj, offset) = match self.locate(addr, 0) {
            Err(MemoryError::UseAfterFree) => return Err(MemoryError::DoubleFree),
            Err(MemoryError::OutOfBounds { .. } | MemoryError::InvalidPointer) => return Err(MemoryError::InvalidFree),
            other => other?,
        };
        if offset != 0 || !obj.heap {
            return Err(MemoryError::InvalidFree);
        }
        obj.freed = true;
        obj.cells.clear();
        Ok(())
    }
}

/// Offsets of the cells that share a byte with `[offset, offset + bytes)`.
fn overlapping(obj: &Object, offset: u64, bytes: u64) -> impl Iterator<Item = u64> + '_ {
    // A cell is at most 8 bytes long, so only cells starting 7 bytes before can reach in.
    let from = offset.saturating_sub(7);
    obj.cells
        .range(from..offset.saturating_add(bytes.max(1)))
        .filter(move |(k, (b, _))| **k + (*b).max(1) > offset && **k < offset + bytes.max(1))
        .map(|(k, _)| *k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accesses_are_checked() {
        let mut m = Memory::default();
        let p = m.alloc(8, false, true).unwrap();
        assert!(matches!(m.load(p, 4), Ok(Cell::Unwritten)));
        m.store(p + 4, 4, 7).unwrap();
        assert!(matches!(m.load(p + 4, 4), Ok(Cell::Value(7))));
        assert_eq!(m.load(p + 6, 4).err(), Some(MemoryError::OutOfBounds { offset: 6, bytes: 4, size: 8 }));
        assert_eq!(m.load(p + 4, 2).err(), Some(MemoryError::MixedSizes));
        assert_eq!(m.load(0, 4).err(), Some(MemoryError::NullPointer));
        assert_eq!(m.free(p + 4), Err(MemoryError::InvalidFree));
        m.free(p).unwrap();
        assert_eq!(m.load(p, 4).err(), Some(MemoryError::UseAfterFree));
        assert_eq!(m.free(p), Err(MemoryError::DoubleFree));
        let g = m.alloc(4, true, false).unwrap();
        assert!(matches!(m.load(g, 4), Ok(Cell::Value(0))));
        assert_eq!(m.free(g), Err(MemoryError::InvalidFree));
    }
}
