//! Qwen3-VL: the image processor, the vision encoder, multimodal rotary positions and the model that
//! prefills sequences holding images into the text decoder's caches.

pub mod config;
mod model;
mod patch_attention;
mod positions;
pub mod processor;
mod resample;
mod vision;
pub mod vision_weights;

pub use config::{Qwen3VlConfig, VisionActivation, VisionConfig};
pub use model::Qwen3VlModel;
pub use processor::{ImageGrid, ImageProcessor, ImageProcessorConfig, ProcessedImage, smart_resize};
