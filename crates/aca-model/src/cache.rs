//! The key/value cache of one sequence: per layer, keys and values of every position seen so far.
//!
//! Each sequence owns its cache, so sequences can join and leave a batch between steps: a batch is just
//! a list of (tokens, cache) pairs, each cache with its own length and positions.

use std::sync::Arc;

use burn::tensor::{DType, Device, Tensor, TensorData};
use half::bf16;

use crate::host;

/// Storage grows by at least this many positions at a time.
const GROWTH_STEP: usize = 64;

/// Keys and values of one layer, token-major: `[capacity, kv_heads, head_dim]`, valid up to `length`,
/// in the dtype of the keys appended (the model's). On the CPU, in f32 or bf16, they are host rows that
/// a decoding step reads in place; elsewhere, tensors of the device.
#[derive(Debug, Clone)]
pub(crate) struct LayerCache {
    storage: Storage,
    length: usize,
    capacity: usize,
}

// One per layer, replaced rather than moved about: the tensors' size is no cost here.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
enum Storage {
    Empty,
    Tensors { keys: Tensor<3>, values: Tensor<3> },
    /// Shared between clones until one of them appends.
    Host { keys: Arc<HostRows>, values: Arc<HostRows> },
}

/// Values of a host cache in the model's dtype.
#[derive(Debug, Clone)]
pub(crate) enum HostRows {
    F32(Vec<f32>),
    Bf16(Vec<bf16>),
}

impl HostRows {
    fn empty(dtype: DType) -> Option<Self> {
        match dtype {
            DType::F32 => Some(HostRows::F32(Vec::new())),
            DType::BF16 => Some(HostRows::Bf16(Vec::new())),
            _ => None,
        }
    }

    /// Keeps the first `kept` values, makes room for `room` values in all, and appends `data`'s.
    fn extend(&mut self, kept: usize, room: usize, data: &TensorData) -> Result<(), String> {
        fn put<T: Copy>(rows: &mut Vec<T>, kept: usize, room: usize, new: &[T]) {
            rows.truncate(kept);
            rows.reserve_exact(room.saturating_sub(rows.len()));
            rows.extend_from_slice(new);
        }
        let problem = |error| format!("appending to the cache: {error:?}");
        match self {
            HostRows::F32(rows) => put(rows, kept, room, data.as_slice::<f32>().map_err(problem)?),
            HostRows::Bf16(rows) => put(rows, kept, room, data.as_slice::<bf16>().map_err(problem)?),
        }
        Ok(())
    }

    /// The first `count` values as a tensor of `shape`.
    fn tensor(&self, count: usize, shape: [usize; 3], device: &Device) -> Tensor<3> {
        let (data, dtype) = match self {
            HostRows::F32(rows) => (TensorData::new(rows[..count].to_vec(), shape), DType::F32),
            HostRows::Bf16(rows) => (TensorData::new(rows[..count].to_vec(), shape), DType::BF16),
        };
        Tensor::from_data(data, (device, dtype))
    }
}

/// Every cached key and value of a layer after an append, the new ones included:
/// `[length, kv_heads, head_dim]`.
#[allow(clippy::large_enum_variant)] // Made once per layer and step, read in place.
pub(crate) enum CachedLayer<'a> {
    Tensors { keys: Tensor<3>, values: Tensor<3> },
    /// Host rows, of which the first `length · kv_heads · head_dim` values are the cache.
    Host {
        keys: &'a HostRows,
        values: &'a HostRows,
        shape: [usize; 3],
        device: Device,
    },
}

impl CachedLayer<'_> {
    pub fn dims(&self) -> [usize; 3] {
        match self {
            CachedLayer::Tensors { keys, .. } => keys.dims(),
            CachedLayer::Host { shape, .. } => *shape,
        }
    }

    /// Keys and values as tensors of the device (host rows are copied into them).
    pub fn into_tensors(self) -> (Tensor<3>, Tensor<3>) {
        match self {
            CachedLayer::Tensors { keys, values } => (keys, values),
            CachedLayer::Host {
                keys,
                values,
                shape,
                device,
            } => {
                let count = shape.iter().product();
                (keys.tensor(count, shape, &device), values.tensor(count, shape, &device))
            }
        }
    }
}

impl LayerCache {
    pub(crate) fn new() -> Self {
        Self {
            storage: Storage::Empty,
            length: 0,
            capacity: 0,
        }
    }

    /// Appends `[tokens, kv_heads, head_dim]` keys and values, growing the storage to at most `limit`
    /// positions when there is one (or as far as the tokens need); returns every cached key and value,
    /// the new ones included.
    pub fn append(&mut self, keys: Tensor<3>, values: Tensor<3>, limit: Option<usize>) -> CachedLayer<'_> {
        let [added, kv_heads, head_dim] = keys.dims();
        let device = keys.device();
        let dtype = keys.dtype();
        let end = self.length + added;
        let grown = (end > self.capacity).then(|| {
            let wanted = end.max(self.capacity * 2).next_multiple_of(GROWTH_STEP);
            limit.map_or(wanted, |limit| wanted.min(limit).max(end))
        });
        if matches!(self.storage, Storage::Empty) {
            self.storage = match (HostRows::empty(dtype), host::on_host(&device, &[dtype])) {
                (Some(rows), true) => Storage::Host {
                    keys: Arc::new(rows.clone()),
                    values: Arc::new(rows),
                },
                _ => Storage::Empty,
            };
        }
        let row = kv_heads * head_dim;
        if let Some(capacity) = grown {
            self.capacity = capacity;
        }
        let (kept, room) = (self.length * row, self.capacity * row);
        let (keys, values) = match &mut self.storage {
            Storage::Host {
                keys: stored_keys,
                values: stored_values,
            } => {
                let (key_data, value_data) = (keys.into_data(), values.into_data());
                let appended = Arc::make_mut(stored_keys)
                    .extend(kept, room, &key_data)
                    .and_then(|()| Arc::make_mut(stored_values).extend(kept, room, &value_data));
                match appended {
                    Ok(()) => (None, None),
                    // Keys that cannot be read as the rows' are appended as tensors.
                    Err(_) => (
                        Some(Tensor::from_data(key_data, (&device, dtype))),
                        Some(Tensor::from_data(value_data, (&device, dtype))),
                    ),
                }
            }
            _ => (Some(keys), Some(values)),
        };
        if let (Some(keys), Some(values)) = (keys, values) {
            // Not host rows (another device or dtype): device tensors from here on.
            self.storage = self.tensor_storage(dtype, grown, kv_heads, head_dim, &device);
            let range = [self.length..end, 0..kv_heads, 0..head_dim];
            if let Storage::Tensors {
                keys: stored_keys,
                values: stored_values,
            } = &mut self.storage
            {
                *stored_keys = stored_keys.clone().slice_assign(range.clone(), keys);
                *stored_values = stored_values.clone().slice_assign(range, values);
            }
        }
        self.length = end;
        let visible = [0..end, 0..kv_heads, 0..head_dim];
        match &self.storage {
            Storage::Host { keys, values } => CachedLayer::Host {
                keys,
                values,
                shape: [end, kv_heads, head_dim],
                device,
            },
            Storage::Tensors { keys, values } => CachedLayer::Tensors {
                keys: keys.clone().slice(visible.clone()),
                values: values.clone().slice(visible),
            },
            Storage::Empty => CachedLayer::Tensors {
                keys: Tensor::zeros([0, kv_heads, head_dim], (&device, dtype)),
                values: Tensor::zeros([0, kv_heads, head_dim], (&device, dtype)),
            },
        }
    }

    /// The storage as device tensors of `capacity` positions, holding what it held.
    fn tensor_storage(
        &mut self,
        dtype: DType,
        grown: Option<usize>,
        kv_heads: usize,
        head_dim: usize,
        device: &Device,
    ) -> Storage {
        let shape = [self.length, kv_heads, head_dim];
        let count = shape.iter().product();
        let (old_keys, old_values) = match std::mem::replace(&mut self.storage, Storage::Empty) {
            Storage::Tensors { keys, values } if grown.is_none() => return Storage::Tensors { keys, values },
            Storage::Tensors { keys, values } => (Some(keys), Some(values)),
            Storage::Host { keys, values } => (
                Some(keys.tensor(count, shape, device)),
                Some(values.tensor(count, shape, device)),
            ),
            Storage::Empty => (None, None),
        };
        let grow = |old| grow(old, dtype, self.length, self.capacity, kv_heads, head_dim, device);
        Storage::Tensors {
            keys: grow(old_keys),
            values: grow(old_values),
        }
    }
}

/// New storage of `capacity` positions holding the first `length` positions of `old`.
fn grow(
    old: Option<Tensor<3>>,
    dtype: DType,
    length: usize,
    capacity: usize,
    kv_heads: usize,
    head_dim: usize,
    device: &Device,
) -> Tensor<3> {
    let fresh = Tensor::zeros([capacity, kv_heads, head_dim], (device, dtype));
    match old {
        Some(old) if length > 0 => {
            let kept = old.slice([0..length, 0..kv_heads, 0..head_dim]);
            fresh.slice_assign([0..length, 0..kv_heads, 0..head_dim], kept)
        }
        _ => fresh,
    }
}

/// The cache of one sequence across all layers. Create it with [`crate::Qwen3Model::new_cache`].
///
/// Cloning is cheap and copy-on-write: a prompt prefilled once can be cloned for several continuations
/// (`n` choices), and each clone copies the storage only when it first appends.
#[derive(Debug, Clone)]
pub struct KvCache {
    pub(crate) layers: Vec<LayerCache>,
    length: usize,
    /// The most positions a layer's storage grows to (it doubles otherwise, so a sequence could hold
    /// nearly twice the positions it uses).
    pub(crate) capacity_limit: Option<usize>,
    /// `(from, shift)`: the rotary position of the token at index `i ≥ from` is `i + shift`, until the next
    /// entry. Empty for text, whose positions are the indexes; a Qwen3-VL image, which takes fewer positions
    /// than tokens, adds an entry for the tokens after it.
    position_shifts: Vec<(usize, i64)>,
}

impl KvCache {
    pub(crate) fn new(layers: usize) -> Self {
        Self {
            layers: (0..layers).map(|_| LayerCache::new()).collect(),
            length: 0,
            capacity_limit: None,
            position_shifts: Vec::new(),
        }
    }

    /// Grows the storage to no more than `positions` positions (more only if more tokens are appended),
    /// so a sequence of at most that many tokens holds exactly what a memory budget counted for it.
    pub fn limit_capacity(&mut self, positions: usize) {
        self.capacity_limit = Some(positions);
    }

    /// How many positions the cache holds: the position the next token will take.
    pub fn len(&self) -> usize {
        self.length
    }

    pub fn is_empty(&self) -> bool {
        self.length == 0
    }

    /// Forgets every token from index `length` on (nothing happens if the cache is shorter); the next token
    /// takes index `length`. Storage is kept for reuse.
    pub fn truncate(&mut self, length: usize) {
        if length < self.length {
            self.length = length;
            for layer in &mut self.layers {
                layer.length = layer.length.min(length);
            }
            self.position_shifts.retain(|&(from, _)| from <= length);
        }
    }

    /// The rotary position of the token at `index` (the index itself unless an image came before it).
    pub(crate) fn position_of(&self, index: usize) -> usize {
        let shift = self
            .position_shifts
            .iter()
            .rev()
            .find(|&&(from, _)| from <= index)
            .map_or(0, |&(_, shift)| shift);
        index.saturating_add_signed(shift as isize)
    }

    /// Tokens from index `from` on take rotary position `index + shift`.
    pub(crate) fn shift_positions_from(&mut self, from: usize, shift: i64) {
        self.position_shifts.retain(|&(start, _)| start < from);
        if self.position_shifts.last().map_or(0, |&(_, last)| last) != shift {
            self.position_shifts.push((from, shift));
        }
    }

    pub(crate) fn advance(&mut self, tokens: usize) {
        self.length += tokens;
    }

    /// Number of layers this cache was made for.
    pub(crate) fn layer_count(&self) -> usize {
        self.layers.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn append_one_by_one(layer: &mut LayerCache, tokens: usize, limit: Option<usize>) {
        let device = Device::flex();
        for _ in 0..tokens {
            let step = || Tensor::<3>::zeros([1, 2, 4], (&device, DType::BF16));
            let cached = layer.append(step(), step(), limit);
            assert!(matches!(cached, CachedLayer::Host { keys: HostRows::Bf16(_), .. }));
        }
    }

    #[test]
    fn storage_doubles_unless_limited_and_keeps_the_appended_dtype() {
        let mut doubling = LayerCache::new();
        append_one_by_one(&mut doubling, 100, None);
        assert_eq!((doubling.length, doubling.capacity), (100, 128));
        let mut limited = LayerCache::new();
        append_one_by_one(&mut limited, 100, Some(100));
        assert_eq!((limited.length, limited.capacity), (100, 100));
        // Tokens past the limit still fit: the storage grows to exactly what they need.
        append_one_by_one(&mut limited, 3, Some(100));
        assert_eq!((limited.length, limited.capacity), (103, 103));
    }

    fn rows(cached: CachedLayer<'_>) -> Vec<f32> {
        let (keys, _) = cached.into_tensors();
        keys.into_data().convert::<f32>().try_into_vec::<f32>().unwrap()
    }

    fn keys(values: &[f32], dtype: DType) -> Tensor<3> {
        Tensor::<3>::from_data(TensorData::new(values.to_vec(), [values.len(), 1, 1]), (&Device::flex(), dtype))
    }

    #[test]
    fn host_rows_are_shared_by_clones_until_one_appends_and_truncation_rewrites_them() {
        for dtype in [DType::F32, DType::BF16] {
            let mut cache = KvCache::new(1);
            let (a, b) = (keys(&[1.0, 2.0], dtype), keys(&[3.0], dtype));
            assert!(matches!(cache.layers[0].append(a.clone(), a, None), CachedLayer::Host { .. }));
            cache.advance(2);
            let mut clone = cache.clone();
            let shared = |one: &KvCache, other: &KvCache| match (&one.layers[0].storage, &other.layers[0].storage) {
                (Storage::Host { keys: x, .. }, Storage::Host { keys: y, .. }) => Arc::ptr_eq(x, y),
                _ => false,
            };
            assert!(shared(&cache, &clone));
            assert_eq!(rows(clone.layers[0].append(b.clone(), b, None)), [1.0, 2.0, 3.0]);
            assert!(!shared(&cache, &clone), "{dtype:?}: the clone copies before it appends");
            cache.truncate(1);
            let c = keys(&[4.0], dtype);
            let cached = cache.layers[0].append(c.clone(), c, None);
            let (tensor, _) = cached.into_tensors();
            assert_eq!(tensor.dtype(), dtype);
            assert_eq!(tensor.into_data().convert::<f32>().try_into_vec::<f32>().unwrap(), [1.0, 4.0]);
        }
    }

    #[test]
    fn a_dtype_the_host_does_not_hold_stays_in_tensors() {
        let mut layer = LayerCache::new();
        for value in [1.0, 2.0] {
            let k = keys(&[value], DType::F16);
            assert!(matches!(layer.append(k.clone(), k, None), CachedLayer::Tensors { .. }));
        }
        let k = keys(&[3.0], DType::F16);
        assert_eq!(rows(layer.append(k.clone(), k, None)), [1.0, 2.0, 3.0]);
    }
}
