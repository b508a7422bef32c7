//! The Qwen3-VL vision encoder's forward pass over one image: patch embedding, interpolated learned
//! positions, blocks with two-axis rotary attention, the patch merger and the DeepStack mergers.

use burn::tensor::activation::{gelu, gelu_approximate};
use burn::tensor::module::layer_norm;
use burn::tensor::{Device, Int, Tensor, TensorData};

use crate::attention::burns_attention;
use crate::error::ModelError;
use crate::rope::{RotaryTables, inverse_frequencies};
use crate::vl::config::{VisionActivation, VisionConfig};
use crate::vl::patch_attention::attend_patches;
use crate::vl::processor::ProcessedImage;
use crate::vl::vision_weights::{LayerNormWeights, MergerWeights, VisionBlockWeights, VisionWeights};

/// LayerNorm epsilon of every vision norm.
const LAYER_NORM_EPS: f64 = 1e-6;

/// What the language model receives from one image.
#[derive(Debug, Clone)]
pub(crate) struct ImageFeatures {
    /// `[merged tokens, out_hidden]`: one row per image placeholder token.
    pub embeds: Tensor<2>,
    /// One `[merged tokens, out_hidden]` tensor per DeepStack layer, added after text layer 0, 1, …
    pub deepstack: Vec<Tensor<2>>,
}

/// Patch positions in the processor's order: merge block by merge block, row by row inside each.
fn patch_coordinates(grid_h: usize, grid_w: usize, merge: usize) -> Vec<(usize, usize)> {
    let mut coordinates = Vec::with_capacity(grid_h * grid_w);
    for block_row in 0..grid_h / merge {
        for block_column in 0..grid_w / merge {
            for inner_row in 0..merge {
                for inner_column in 0..merge {
                    coordinates.push((block_row * merge + inner_row, block_column * merge + inner_column));
                }
            }
        }
    }
    coordinates
}

/// The two bilinear taps (corner-aligned) into a table of `side` entries for index `index` of `size`.
fn taps(index: usize, size: usize, side: usize) -> [(usize, f32); 2] {
    let source = index as f32 * (side - 1) as f32 / (size.max(2) - 1) as f32;
    let floor = source.floor();
    let fraction = source - floor;
    let low = (floor as usize).min(side - 1);
    let high = (floor as usize + 1).min(side - 1);
    [(low, 1.0 - fraction), (high, fraction)]
}

/// Checks that `image` fits the encoder: one frame, whole merge blocks and the patch width.
pub(crate) fn check_image(config: &VisionConfig, image: &ProcessedImage) -> Result<(), ModelError> {
    let grid = image.grid;
    let merge = config.spatial_merge_size;
    if grid.t != 1 {
        return Err(ModelError::Input(format!(
            "an image has {} frames; only still images (one frame) are supported",
            grid.t
        )));
    }
    if grid.h == 0 || grid.w == 0 || !grid.h.is_multiple_of(merge) || !grid.w.is_multiple_of(merge) {
        return Err(ModelError::Input(format!(
            "an image grid of {}×{} patches is not made of whole {merge}×{merge} merge blocks",
            grid.h, grid.w
        )));
    }
    let expected = grid.patches() * config.patch_values();
    if image.pixel_values.len() != expected {
        return Err(ModelError::Input(format!(
            "an image of {}×{} patches needs {expected} pixel values ({} per patch), found {}",
            grid.h,
            grid.w,
            config.patch_values(),
            image.pixel_values.len()
        )));
    }
    Ok(())
}

/// Runs one checked image through the encoder.
pub(crate) fn encode_image(
    config: &VisionConfig,
    weights: &VisionWeights,
    image: &ProcessedImage,
    device: &Device,
) -> ImageFeatures {
    let grid = image.grid;
    let patches = grid.patches();
    let coordinates = patch_coordinates(grid.h, grid.w, config.spatial_merge_size);
    // The encoder computes in its weights' dtype (LayerNorm and attention in f32 inside burn's kernels).
    let dtype = weights.pos_embed.dtype();
    let pixels = Tensor::<2>::from_data(
        TensorData::new(image.pixel_values.clone(), [patches, config.patch_values()]),
        (device, dtype),
    );
    // [patches, hidden]
    let mut hidden = weights.patch_embed.forward(pixels)
        + interpolated_positions(config, weights, &coordinates, grid.h, grid.w, device);
    let rotary = patch_rotary(config, &coordinates, device).cast(dtype);
    let mut deepstack = Vec::with_capacity(weights.deepstack_mergers.len());
    for (index, block) in weights.blocks.iter().enumerate() {
        hidden = vision_block(config, block, hidden, &rotary);
        if let Some(slot) = config.deepstack_visual_indexes.iter().position(|&layer| layer == index) {
            deepstack.push(merge_patches(config, &weights.deepstack_mergers[slot], hidden.clone()));
        }
    }
    ImageFeatures {
        embeds: merge_patches(config, &weights.merger, hidden),
        deepstack,
    }
}

/// The learned position table resampled to the image's grid (bilinear, corners aligned): `[patches, hidden]`.
fn interpolated_positions(
    config: &VisionConfig,
    weights: &VisionWeights,
    coordinates: &[(usize, usize)],
    grid_h: usize,
    grid_w: usize,
    device: &Device,
) -> Tensor<2> {
    let side = config.position_grid_side();
    let mut indices = Vec::with_capacity(coordinates.len() * 4);
    let mut tap_weights = Vec::with_capacity(coordinates.len() * 4);
    for &(row, column) in coordinates {
        for (row_tap, row_weight) in taps(row, grid_h, side) {
            for (column_tap, column_weight) in taps(column, grid_w, side) {
                indices.push((row_tap * side + column_tap) as i64);
                tap_weights.push(row_weight * column_weight);
            }
        }
    }
    let count = coordinates.len();
    let hidden = config.hidden_size;
    let indices = Tensor::<1, Int>::from_data(TensorData::new(indices, [count * 4]), device);
    let tap_weights = Tensor::<3>::from_data(
        TensorData::new(tap_weights, [count, 4, 1]),
        (device, weights.pos_embed.dtype()),
    );
    // [patches·4, hidden] → [patches, 4, hidden] → weighted sum over the taps.
    let rows = weights.pos_embed.clone().select(0, indices).reshape([count, 4, hidden]);
    (rows * tap_weights).sum_dim(1).reshape([count, hidden])
}

/// Rotary tables of the patches: the first quarter of each head turns with the row, the second with the column.
fn patch_rotary(config: &VisionConfig, coordinates: &[(usize, usize)], device: &Device) -> RotaryTables {
    let head_dim = config.head_dim();
    let quarter = head_dim / 4;
    let frequencies = inverse_frequencies(quarter, head_dim / 2, config.rope_theta);
    let mut angles = Vec::with_capacity(coordinates.len() * head_dim / 2);
    for &(row, column) in coordinates {
        angles.extend(frequencies.iter().map(|frequency| row as f32 * frequency));
        angles.extend(frequencies.iter().map(|frequency| column as f32 * frequency));
    }
    RotaryTables::from_half_angles(&angles, coordinates.len(), head_dim, device)
}

fn norm<const D: usize>(input: Tensor<D>, weights: &LayerNormWeights) -> Tensor<D> {
    layer_norm(
        input,
        weights.weight.clone(),
        Some(weights.bias.clone()),
        LAYER_NORM_EPS,
    )
}

/// One pre-norm block over `[patches, hidden]`: every patch attends to every patch of its image.
fn vision_block(
    config: &VisionConfig,
    block: &VisionBlockWeights,
    hidden: Tensor<2>,
    rotary: &RotaryTables,
) -> Tensor<2> {
    let [patches, _] = hidden.dims();
    let heads = config.num_heads;
    let head_dim = config.head_dim();
    // [patches, 3·hidden] → [patches, 3, heads, head_dim]
    let qkv = block
        .qkv
        .forward(norm(hidden.clone(), &block.norm1))
        .reshape([patches, 3, heads, head_dim]);
    let part = |index: usize| {
        qkv.clone()
            .slice_dim(1, index..index + 1)
            .reshape([patches, heads, head_dim])
    };
    let (queries, keys, values) = (rotary.apply_inference(part(0)), rotary.apply_inference(part(1)), part(2));
    let attended = attend_patches(&queries, &keys, &values).unwrap_or_else(|| burns_attention(queries, keys, values, false));
    let hidden = hidden + block.proj.forward(attended);
    let inner = block.fc1.forward(norm(hidden.clone(), &block.norm2));
    let activated = match config.hidden_act {
        VisionActivation::GeluTanh => gelu_approximate(inner),
        VisionActivation::Gelu => gelu(inner),
    };
    hidden + block.fc2.forward(activated)
}

/// `[patches, hidden]` → `[patches / merge², out_hidden]`: each merge block's patches side by side,
/// normalised (before or after merging), then a GELU MLP.
fn merge_patches(config: &VisionConfig, merger: &MergerWeights, hidden: Tensor<2>) -> Tensor<2> {
    let [patches, _] = hidden.dims();
    let merged_width = config.merged_width();
    let groups = patches / (config.spatial_merge_size * config.spatial_merge_size);
    let merged = if merger.norm_after_merging {
        norm(hidden.reshape([groups, merged_width]), &merger.norm)
    } else {
        norm(hidden, &merger.norm).reshape([groups, merged_width])
    };
    merger.fc2.forward(gelu(merger.fc1.forward(merged)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patches_run_over_merge_blocks() {
        assert_eq!(
            patch_coordinates(2, 4, 2),
            vec![(0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (0, 3), (1, 2), (1, 3)]
        );
    }

    #[test]
    fn taps_align_the_corners_of_grid_and_table() {
        assert_eq!(taps(0, 6, 4), [(0, 1.0), (1, 0.0)]);
        assert_eq!(taps(5, 6, 4), [(3, 1.0), (3, 0.0)]);
        let [(low, low_weight), (high, high_weight)] = taps(1, 3, 4);
        assert_eq!((low, high), (1, 2));
        assert!((low_weight - 0.5).abs() < 1e-6 && (high_weight - 0.5).abs() < 1e-6);
        // A grid of one patch reads the first table entry.
        assert_eq!(taps(0, 1, 4), [(0, 1.0), (1, 0.0)]);
    }
}
