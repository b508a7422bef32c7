//! The key/value cache of one sequence: per layer, keys and values of every position seen so far.
//!
//! Each sequence owns its cache, so sequences can join and leave a batch between steps: a batch is just
//! a list of (tokens, cache) pairs, each cache with its own length and positions.

use burn::tensor::{DType, Device, Tensor};

/// Storage grows by at least this many positions at a time.
const GROWTH_STEP: usize = 64;

/// Keys and values of one layer, token-major: `[capacity, kv_heads, head_dim]`, valid up to `length`,
/// in the dtype of the keys appended (the model's).
#[derive(Debug, Clone)]
pub(crate) struct LayerCache {
    keys: Option<Tensor<3>>,
    values: Option<Tensor<3>>,
    length: usize,
    capacity: usize,
}

impl LayerCache {
    fn new() -> Self {
        Self {
            keys: None,
            values: None,
            length: 0,
            capacity: 0,
        }
    }

    /// Appends `[tokens, kv_heads, head_dim]` keys and values, growing the storage to at most `limit`
    /// positions when there is one (or as far as the tokens need); returns every cached key and value
    /// (`[length, kv_heads, head_dim]`), the new ones included.
    pub fn append(&mut self, keys: Tensor<3>, values: Tensor<3>, limit: Option<usize>) -> (Tensor<3>, Tensor<3>) {
        let [added, kv_heads, head_dim] = keys.dims();
        let device = keys.device();
        let dtype = keys.dtype();
        let end = self.length + added;
        if end > self.capacity {
            let wanted = end.max(self.capacity * 2).next_multiple_of(GROWTH_STEP);
            let capacity = limit.map_or(wanted, |limit| wanted.min(limit).max(end));
            self.keys = Some(grow(
                self.keys.take(),
                dtype,
                self.length,
                capacity,
                kv_heads,
                head_dim,
                &device,
            ));
            self.values = Some(grow(
                self.values.take(),
                dtype,
                self.length,
                capacity,
                kv_heads,
                head_dim,
                &device,
            ));
            self.capacity = capacity;
        }
        let range = [self.length..end, 0..kv_heads, 0..head_dim];
        let stored_keys = self.keys.take().map(|stored| stored.slice_assign(range.clone(), keys));
        let stored_values = self.values.take().map(|stored| stored.slice_assign(range, values));
        self.keys = stored_keys;
        self.values = stored_values;
        self.length = end;
        let visible = [0..end, 0..kv_heads, 0..head_dim];
        let all_keys = self.keys.as_ref().map(|stored| stored.clone().slice(visible.clone()));
        let all_values = self.values.as_ref().map(|stored| stored.clone().slice(visible));
        match (all_keys, all_values) {
            (Some(keys), Some(values)) => (keys, values),
            // `grow` always leaves storage in place once something was appended.
            _ => (
                Tensor::zeros([0, kv_heads, head_dim], (&device, dtype)),
                Tensor::zeros([0, kv_heads, head_dim], (&device, dtype)),
            ),
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
            let (keys, _) = layer.append(step(), step(), limit);
            assert_eq!(keys.dtype(), DType::BF16);
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
}
