"""Writes the Qwen3-VL fixtures that aca-model's vision tests compare against: processor outputs and a tiny model.

Run once from crates/aca-model with torch, torchvision, pillow, safetensors and transformers 5.24 installed:
    python3 tests/reference/qwen3_vl.py
It writes, from fixed seeds:
  tests/fixtures/vl_processor/  images of several sizes and formats, a preprocessor_config.json, the pixel values
                                and grids the reference image processor makes of them (reference.safetensors and
                                reference.json), and smart_resize targets for a table of sizes;
  tests/fixtures/vl_tiny/       a tiny random Qwen3-VL checkpoint (config.json, model.safetensors,
                                preprocessor_config.json), two images, and for three prompts (text and one image,
                                text and two images, text only) the M-RoPE position ids, greedy tokens and the
                                float64 logits at every position of prompt plus continuation.
"""

import json
import pathlib

import numpy as np
import PIL.Image
import safetensors.torch
import torch
import transformers
from transformers import Qwen2VLImageProcessor, Qwen3VLConfig, Qwen3VLForConditionalGeneration
from transformers.models.qwen2_vl.image_processing_qwen2_vl import smart_resize

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures"
PROCESSOR_DIR = FIXTURES / "vl_processor"
MODEL_DIR = FIXTURES / "vl_tiny"

PATCH, MERGE, TEMPORAL = 16, 2, 2
FACTOR = PATCH * MERGE
# Small pixel limits keep the fixtures small while every branch of smart_resize is taken.
MIN_PIXELS, MAX_PIXELS = 4 * FACTOR * FACTOR, 16 * FACTOR * FACTOR

VISION_START, VISION_END, IMAGE_TOKEN, VIDEO_TOKEN, EOS = 250, 251, 252, 253, 255
NEW_TOKENS = 6


def image_processor() -> Qwen2VLImageProcessor:
    return Qwen2VLImageProcessor(
        patch_size=PATCH,
        temporal_patch_size=TEMPORAL,
        merge_size=MERGE,
        image_mean=[0.5, 0.5, 0.5],
        image_std=[0.5, 0.5, 0.5],
        size={"shortest_edge": MIN_PIXELS, "longest_edge": MAX_PIXELS},
    )


def synthetic(height: int, width: int, seed: int, channels: int = 3) -> np.ndarray:
    """Smooth gradients, a few hard edges and some noise: resizing differences show up in all of them."""
    rng = np.random.default_rng(seed)
    rows = np.linspace(0.0, 1.0, height)[:, None]
    cols = np.linspace(0.0, 1.0, width)[None, :]
    planes = []
    for channel in range(channels):
        phase = rng.uniform(0, 2 * np.pi)
        plane = 0.5 + 0.35 * np.sin(6 * rows * (channel + 1) + 4 * cols + phase)
        plane += 0.25 * ((rows * 5 + cols * 3 + channel) % 1.0 > 0.5)
        plane += rng.normal(0.0, 0.05, size=(height, width))
        planes.append(plane)
    pixels = np.stack(planes, axis=-1)
    return (np.clip(pixels, 0.0, 1.0) * 255).round().astype(np.uint8)


def write_processor_fixtures() -> None:
    PROCESSOR_DIR.mkdir(parents=True, exist_ok=True)
    processor = image_processor()
    processor.save_pretrained(PROCESSOR_DIR)
    images = [
        # (file, height, width, seed, mode): no resize, downscale, above max_pixels with alpha, below min_pixels.
        ("exact.png", 64, 96, 1, "RGB"),
        ("downscaled.jpg", 77, 150, 2, "RGB"),
        ("large_rgba.png", 200, 300, 3, "RGBA"),
        ("small.png", 20, 30, 4, "RGB"),
    ]
    tensors = {}
    entries = []
    for file, height, width, seed, mode in images:
        pixels = synthetic(height, width, seed, channels=4 if mode == "RGBA" else 3)
        if mode == "RGBA":
            pixels[..., 3] = np.clip(pixels[..., 3].astype(np.int32) + 60, 0, 255).astype(np.uint8)
        image = PIL.Image.fromarray(pixels, mode)
        path = PROCESSOR_DIR / file
        if file.endswith(".jpg"):
            image.save(path, quality=92)
            # The reference decoder's pixels, losslessly: the Rust processor must turn them into exactly
            # the reference's pixel values, whatever its own JPEG decoder does differently.
            PIL.Image.open(path).convert("RGB").save(path.with_suffix(".decoded.png"))
        else:
            image.save(path)
        output = processor(images=[PIL.Image.open(path)], return_tensors="pt")
        grid = output["image_grid_thw"][0].tolist()
        tensors[f"pixel_values.{file}"] = output["pixel_values"].to(torch.float32).contiguous()
        resized = smart_resize(height, width, factor=FACTOR, min_pixels=MIN_PIXELS, max_pixels=MAX_PIXELS)
        entries.append({"file": file, "height": height, "width": width, "resized": list(resized), "grid_thw": grid})
    safetensors.torch.save_file(tensors, PROCESSOR_DIR / "reference.safetensors")

    sizes = [(1, 1), (20, 30), (48, 48), (80, 80), (16, 3000), (3000, 16), (4000, 3000), (1080, 1920),
             (77, 150), (100, 1), (33, 47), (112, 112), (240, 16), (400, 2)]
    resize_cases = []
    for height, width in sizes:
        for min_pixels, max_pixels in [(MIN_PIXELS, MAX_PIXELS), (65536, 16777216)]:
            try:
                target = list(smart_resize(height, width, factor=FACTOR, min_pixels=min_pixels, max_pixels=max_pixels))
            except ValueError:
                target = None
            resize_cases.append({"height": height, "width": width, "min_pixels": min_pixels,
                                 "max_pixels": max_pixels, "factor": FACTOR, "resized": target})
    reference = {"generated_with": versions(), "images": entries, "smart_resize": resize_cases}
    (PROCESSOR_DIR / "reference.json").write_text(json.dumps(reference, indent=1) + "\n")


def tiny_config() -> Qwen3VLConfig:
    text_config = {
        "vocab_size": 256,
        "hidden_size": 64,
        "intermediate_size": 128,
        "num_hidden_layers": 3,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "head_dim": 16,
        "max_position_embeddings": 512,
        "rms_norm_eps": 1e-6,
        "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [4, 2, 2],
                            "mrope_interleaved": True},
        "eos_token_id": EOS,
    }
    vision_config = {
        "depth": 3,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_heads": 2,
        "in_channels": 3,
        "patch_size": PATCH,
        "spatial_merge_size": MERGE,
        "temporal_patch_size": TEMPORAL,
        "out_hidden_size": 64,
        "num_position_embeddings": 16,
        "deepstack_visual_indexes": [0, 2],
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


def randomise(model: torch.nn.Module) -> None:
    """Weights large enough that every part of the network moves the logits (the default init is near zero)."""
    generator = torch.Generator().manual_seed(7)
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            shape = parameter.shape
            if name.endswith("norm.weight") or ".norm1." in name or ".norm2." in name:
                if name.endswith("weight"):
                    values = 1.0 + 0.2 * torch.randn(shape, generator=generator)
                else:
                    values = 0.1 * torch.randn(shape, generator=generator)
            elif name.endswith("bias"):
                values = 0.1 * torch.randn(shape, generator=generator)
            elif "embed_tokens" in name or "pos_embed" in name:
                values = torch.randn(shape, generator=generator)
            else:
                fan_in = int(np.prod(shape[1:]))
                values = torch.randn(shape, generator=generator) / np.sqrt(fan_in)
            parameter.copy_(values)


def prompt_parts() -> dict[str, list]:
    """Each prompt as text id runs and image files, in order."""
    return {
        "one_image": [[11, 42, 7], "wide.png", [99, 3, 150, 21]],
        "two_images": [[5], "tall.png", [77, 12], "wide.png", [200, 31, 9]],
        "text_only": [[17, 3, 240, 99, 42, 7, 64]],
    }


def expand(parts: list, image_tokens: dict[str, int]) -> tuple[list[int], list[str]]:
    ids, images = [], []
    for part in parts:
        if isinstance(part, str):
            ids += [VISION_START] + [IMAGE_TOKEN] * image_tokens[part] + [VISION_END]
            images.append(part)
        else:
            ids += part
    return ids, images


def write_model_fixtures() -> None:
    MODEL_DIR.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    config = tiny_config()
    model = Qwen3VLForConditionalGeneration(config).to(torch.float32)
    randomise(model)
    model.save_pretrained(MODEL_DIR)
    processor = image_processor()
    processor.save_pretrained(MODEL_DIR)

    pixels_of, grid_of, image_tokens = {}, {}, {}
    for file, height, width, seed in [("wide.png", 64, 96, 11), ("tall.png", 128, 64, 12)]:
        PIL.Image.fromarray(synthetic(height, width, seed), "RGB").save(MODEL_DIR / file)
        output = processor(images=[PIL.Image.open(MODEL_DIR / file)], return_tensors="pt")
        pixels_of[file] = output["pixel_values"]
        grid_of[file] = output["image_grid_thw"]
        image_tokens[file] = int(output["image_grid_thw"][0].prod()) // (MERGE * MERGE)

    reference_model = Qwen3VLForConditionalGeneration.from_pretrained(
        MODEL_DIR, dtype=torch.float64, attn_implementation="eager"
    ).eval()

    tensors = {}
    cases = []
    for name, parts in prompt_parts().items():
        ids, images = expand(parts, image_tokens)
        pixel_values = torch.cat([pixels_of[file] for file in images]).to(torch.float64) if images else None
        grid = torch.cat([grid_of[file] for file in images]) if images else None

        def run(sequence: list[int]) -> torch.Tensor:
            input_ids = torch.tensor([sequence])
            kwargs = {"input_ids": input_ids, "mm_token_type_ids": (input_ids == IMAGE_TOKEN).int()}
            if images:
                kwargs.update(pixel_values=pixel_values, image_grid_thw=grid)
            with torch.no_grad():
                return reference_model(**kwargs, use_cache=False).logits[0]

        greedy = []
        sequence = list(ids)
        for _ in range(NEW_TOKENS):
            token = int(run(sequence)[-1].argmax())
            greedy.append(token)
            sequence.append(token)
        logits = run(sequence)
        input_ids = torch.tensor([sequence])
        positions, delta = reference_model.model.get_rope_index(
            input_ids, mm_token_type_ids=(input_ids == IMAGE_TOKEN).int(), image_grid_thw=grid
        )
        tensors[f"{name}.logits"] = logits.to(torch.float32).contiguous()
        tensors[f"{name}.position_ids"] = positions[:, 0, :].to(torch.int64).contiguous()
        cases.append({"name": name, "prompt_ids": ids, "images": images, "greedy": greedy,
                      "rope_delta": int(delta.reshape(-1)[0])})
    for file in pixels_of:
        tensors[f"pixel_values.{file}"] = pixels_of[file].to(torch.float32).contiguous()
    safetensors.torch.save_file(tensors, MODEL_DIR / "reference.safetensors")
    reference = {
        "generated_with": versions(),
        "reference_dtype": "float64",
        "image_grids": {file: grid[0].tolist() for file, grid in grid_of.items()},
        "cases": cases,
    }
    (MODEL_DIR / "reference.json").write_text(json.dumps(reference, indent=1) + "\n")


def versions() -> dict:
    return {"transformers": transformers.__version__, "torch": torch.__version__, "pillow": PIL.__version__}


if __name__ == "__main__":
    write_processor_fixtures()
    write_model_fixtures()
