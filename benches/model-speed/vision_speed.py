"""Makes a random Qwen3-VL checkpoint and a synthetic screenshot, and times `transformers`' vision encoder on it.

Run by aca-bench-model as a subprocess (its interpreter is named by ACA_BENCH_PYTHON):
    python vision_speed.py --out DIR --width 1280 --height 720 --repeats R --threads T [shape options]
It writes to DIR a Qwen3-VL checkpoint with the given vision tower (a text model of the tower's output
width with one layer per DeepStack feature: only the encoder is timed), its preprocessor_config.json, and screenshot.png, a synthetic
console-like image of the given size. The image is processed by the reference image processor (resized to
multiples of 32 pixels within its pixel limits), then run through `model.visual` once untimed and R times
timed. One JSON line reports the best time, the patch grid, and the merged embeddings of the first timed
run (saved as DIR/reference_embeds.safetensors) so that the benchmark can check it computed the same thing.
"""

import argparse
import json
import pathlib
import time

import numpy as np
import PIL.Image
import safetensors.torch
import torch
import transformers
from transformers import Qwen3VLConfig, Qwen3VLForConditionalGeneration

try:
    from transformers import Qwen2VLImageProcessorPil as ImageProcessor
except ImportError:
    from transformers import Qwen2VLImageProcessor as ImageProcessor

PATCH, MERGE, TEMPORAL = 16, 2, 2
VISION_START, VISION_END, IMAGE_TOKEN, VIDEO_TOKEN, EOS = 250, 251, 252, 253, 255


def screenshot(height: int, width: int, seed: int) -> np.ndarray:
    """A light page with a dark header, a navigation pane, table rows and text-like noise."""
    rng = np.random.default_rng(seed)
    pixels = np.full((height, width, 3), 245, dtype=np.float64)
    pixels[: height // 14] = (35, 40, 52)
    pixels[height // 14 :, : width // 7] = (250, 250, 252)
    for row in range(height // 6, height, max(height // 18, 8)):
        pixels[row : row + 1, width // 7 :] = 220
    text = rng.random((height, width)) < 0.04
    pixels[text] = rng.integers(40, 120, size=(int(text.sum()), 1))
    return np.clip(pixels, 0, 255).astype(np.uint8)


def config(args) -> Qwen3VLConfig:
    head_dim = 64
    text_config = {
        "vocab_size": 256,
        "hidden_size": args.out_hidden,
        "intermediate_size": 2 * args.out_hidden,
        # DeepStack adds one intermediate feature to each of the first text layers.
        "num_hidden_layers": max(1, len(args.deepstack)),
        "num_attention_heads": args.out_hidden // head_dim,
        "num_key_value_heads": args.out_hidden // head_dim,
        "head_dim": head_dim,
        "max_position_embeddings": 8192,
        "rms_norm_eps": 1e-6,
        "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [16, 8, 8],
                            "mrope_interleaved": True},
        "eos_token_id": EOS,
    }
    vision_config = {
        "depth": args.depth,
        "hidden_size": args.hidden,
        "intermediate_size": args.intermediate,
        "num_heads": args.heads,
        "in_channels": 3,
        "patch_size": PATCH,
        "spatial_merge_size": MERGE,
        "temporal_patch_size": TEMPORAL,
        "out_hidden_size": args.out_hidden,
        "num_position_embeddings": args.position_embeddings,
        "deepstack_visual_indexes": args.deepstack,
        "hidden_act": "gelu_pytorch_tanh",
    }
    return Qwen3VLConfig(
        text_config=text_config,
        vision_config=vision_config,
        image_token_id=IMAGE_TOKEN,
        video_token_id=VIDEO_TOKEN,
        vision_start_token_id=VISION_START,
        vision_end_token_id=VISION_END,
        tie_word_embeddings=False,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--hidden", type=int, default=512)
    parser.add_argument("--intermediate", type=int, default=1536)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--out-hidden", type=int, default=512)
    parser.add_argument("--position-embeddings", type=int, default=2304)
    parser.add_argument("--deepstack", type=int, nargs="*", default=[2, 4, 6])
    args = parser.parse_args()
    if args.threads > 0:
        torch.set_num_threads(args.threads)

    args.out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    model = Qwen3VLForConditionalGeneration(config(args)).to(torch.float32).eval()
    model.save_pretrained(args.out)
    # The processor's defaults keep a 1280x720 screenshot at its size (rounded to 32-pixel cells).
    processor = ImageProcessor(patch_size=PATCH, temporal_patch_size=TEMPORAL, merge_size=MERGE,
                               image_mean=[0.5, 0.5, 0.5], image_std=[0.5, 0.5, 0.5])
    processor.save_pretrained(args.out)
    image_path = args.out / "screenshot.png"
    PIL.Image.fromarray(screenshot(args.height, args.width, 5), "RGB").save(image_path)

    output = processor(images=[PIL.Image.open(image_path)], return_tensors="pt")
    pixel_values, grid = output["pixel_values"].to(torch.float32), output["image_grid_thw"]
    best, embeds = None, None
    with torch.no_grad():
        model.model.visual(pixel_values, grid_thw=grid)
        for _ in range(args.repeats):
            started = time.perf_counter()
            result = model.model.visual(pixel_values, grid_thw=grid)
            elapsed = time.perf_counter() - started
            best = elapsed if best is None else min(best, elapsed)
            if embeds is None:
                embeds = result.pooler_output
    safetensors.torch.save_file({"embeds": embeds.contiguous()}, args.out / "reference_embeds.safetensors")
    print(json.dumps({
        "seconds": best,
        "grid": [int(v) for v in grid[0]],
        "patches": int(pixel_values.shape[0]),
        "merged_tokens": int(embeds.shape[0]),
        "threads": torch.get_num_threads(),
        "attention": model.config.vision_config._attn_implementation or "default",
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__},
    }))


if __name__ == "__main__":
    main()
