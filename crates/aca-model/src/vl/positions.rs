//! Qwen3-VL's multimodal rotary positions (the reference's `get_rope_index`): text tokens count up on all
//! three axes; an image's merged tokens share one temporal position and take their row and column on the
//! other two, and the text after it resumes past the image's longer side.

/// Where one image's merged tokens sit in a prompt and how they are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ImageSpan {
    /// Index of the image's first placeholder token in the prompt.
    pub first: usize,
    /// Placeholder tokens: `rows × columns`.
    pub tokens: usize,
    /// Merged rows and columns (the patch grid divided by the merge size).
    pub rows: usize,
    pub columns: usize,
}

/// The positions of a prompt's tokens and what they imply for the tokens that follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PositionLayout {
    /// `[temporal, height, width]` per token.
    pub positions: Vec<[usize; 3]>,
    /// For each image: the prompt index just after it, and `position − index` for text from there on.
    pub shifts_after_images: Vec<(usize, i64)>,
}

/// Positions for a prompt of `length` tokens holding `images` (in order, not overlapping), whose first
/// token takes position `first_position`.
pub(crate) fn multimodal_positions(length: usize, images: &[ImageSpan], first_position: usize) -> PositionLayout {
    let mut positions = Vec::with_capacity(length);
    let mut shifts_after_images = Vec::with_capacity(images.len());
    let mut next = first_position;
    let mut index = 0;
    let text_until = |end: usize, index: &mut usize, next: &mut usize, positions: &mut Vec<[usize; 3]>| {
        while *index < end {
            positions.push([*next; 3]);
            *next += 1;
            *index += 1;
        }
    };
    for image in images {
        text_until(image.first, &mut index, &mut next, &mut positions);
        for row in 0..image.rows {
            for column in 0..image.columns {
                positions.push([next, next + row, next + column]);
            }
        }
        next += image.rows.max(image.columns);
        index += image.tokens;
        shifts_after_images.push((index, next as i64 - index as i64));
    }
    text_until(length, &mut index, &mut next, &mut positions);
    PositionLayout {
        positions,
        shifts_after_images,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_takes_its_longer_side_of_positions() {
        // Two text tokens, a 2×3 image, one text token.
        let image = ImageSpan {
            first: 2,
            tokens: 6,
            rows: 2,
            columns: 3,
        };
        let layout = multimodal_positions(9, &[image], 0);
        let axis = |axis: usize| layout.positions.iter().map(|p| p[axis]).collect::<Vec<_>>();
        assert_eq!(axis(0), vec![0, 1, 2, 2, 2, 2, 2, 2, 5]);
        assert_eq!(axis(1), vec![0, 1, 2, 2, 2, 3, 3, 3, 5]);
        assert_eq!(axis(2), vec![0, 1, 2, 3, 4, 2, 3, 4, 5]);
        assert_eq!(layout.shifts_after_images, vec![(8, -3)]);
    }

    #[test]
    fn text_alone_counts_up_from_the_first_position() {
        let layout = multimodal_positions(3, &[], 7);
        assert_eq!(layout.positions, vec![[7; 3], [8; 3], [9; 3]]);
        assert!(layout.shifts_after_images.is_empty());
    }
}
