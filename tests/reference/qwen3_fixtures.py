#!/usr/bin/env python3
"""Builds tiny random Qwen3 checkpoints and their reference logits with Hugging Face `transformers`.

The output, committed under crates/aca-model/tests/fixtures/, is what aca-model's parity tests compare
against: each fixture directory holds a checkpoint saved with `save_pretrained` (config.json +
safetensors) and `reference.json` with, for fixed prompts, the last-position logits and the greedy
continuation, and for the first prompt the logits at every position of prompt + continuation.

The reference loads the saved checkpoint back with `from_pretrained` in float64 (for the bf16 fixture:
the bf16 weights upcast), so the comparison measures aca-model's own f32 error.

Usage (needs torch, transformers and safetensors; nothing of this runs at test time):
    python tests/reference/qwen3_fixtures.py crates/aca-model/tests/fixtures
"""

import json
import math
import shutil
import sys
from pathlib import Path

import torch
from transformers import Qwen3Config, Qwen3ForCausalLM

NEW_TOKENS = 8

# Each fixture varies what the architecture depends on: heads vs kv heads (GQA ratio), a head_dim
# that is not hidden/heads, tied or untied embeddings, rope theta, norm eps, attention bias, the dtype
# of the saved weights, single-file or sharded safetensors, and the config.json style.
FIXTURES = [
    {
        "name": "tied_gqa",
        "config": dict(vocab_size=320, hidden_size=48, intermediate_size=64, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=2, head_dim=16, rope_theta=10000.0,
                       rms_norm_eps=1e-6, tie_word_embeddings=True),
        "dtype": torch.float32,
        "max_shard_size": None,
        "legacy_config": False,
    },
    {
        "name": "untied_sharded",
        "config": dict(vocab_size=384, hidden_size=48, intermediate_size=64, num_hidden_layers=2,
                       num_attention_heads=8, num_key_value_heads=2, head_dim=12, rope_theta=1000000.0,
                       rms_norm_eps=1e-6, tie_word_embeddings=False),
        "dtype": torch.float32,
        "max_shard_size": "60KB",
        "legacy_config": True,
    },
    {
        "name": "bf16_untied",
        "config": dict(vocab_size=256, hidden_size=32, intermediate_size=80, num_hidden_layers=2,
                       num_attention_heads=2, num_key_value_heads=1, head_dim=32, rope_theta=500000.0,
                       rms_norm_eps=1e-6, tie_word_embeddings=False),
        "dtype": torch.bfloat16,
        "max_shard_size": None,
        "legacy_config": False,
    },
    {
        "name": "mha_bias",
        "config": dict(vocab_size=288, hidden_size=40, intermediate_size=72, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=4, head_dim=8, rope_theta=20000.0,
                       rms_norm_eps=1e-5, tie_word_embeddings=True, attention_bias=True),
        "dtype": torch.float32,
        "max_shard_size": None,
        "legacy_config": True,
    },
]

PROMPTS = [
    [17, 3, 250, 99, 42, 7],
    [5],
    [200, 1, 1, 64, 128, 31, 77, 150, 12, 9, 240],
]


def randomize(model: Qwen3ForCausalLM, seed: int) -> None:
    """Replaces the tiny default init with weights large enough that logits are far from uniform."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if name.endswith("norm.weight"):
                values = 1.0 + 0.2 * torch.randn(parameter.shape, generator=generator)
            elif name.endswith(".bias"):
                values = 0.1 * torch.randn(parameter.shape, generator=generator)
            elif "embed_tokens" in name:
                values = torch.randn(parameter.shape, generator=generator)
            else:
                fan_in = parameter.shape[1]
                values = torch.randn(parameter.shape, generator=generator) * (1.5 / math.sqrt(fan_in))
            parameter.copy_(values.to(parameter.dtype))


def greedy(model: Qwen3ForCausalLM, prompt: list[int]) -> list[int]:
    ids = torch.tensor([prompt])
    output = model.generate(ids, max_new_tokens=NEW_TOKENS, do_sample=False, eos_token_id=None,
                            pad_token_id=0, attention_mask=torch.ones_like(ids))
    return output[0, len(prompt):].tolist()


def all_logits(model: Qwen3ForCausalLM, ids: list[int]) -> list[list[float]]:
    with torch.no_grad():
        logits = model(torch.tensor([ids])).logits[0]
    return [[float(f"{value:.7g}") for value in row.tolist()] for row in logits]


def rewrite_as_legacy_config(path: Path) -> None:
    """Writes config.json as released Qwen3 checkpoints have it: `rope_theta` at the top level."""
    config = json.loads(path.read_text())
    parameters = config.pop("rope_parameters", {})
    config["rope_theta"] = parameters.get("rope_theta", 10000.0)
    config["rope_scaling"] = None
    config.pop("layer_types", None)
    path.write_text(json.dumps(config, indent=2) + "\n")


def build(fixture: dict, out: Path, seed: int) -> None:
    directory = out / fixture["name"]
    shutil.rmtree(directory, ignore_errors=True)
    config = Qwen3Config(max_position_embeddings=128, eos_token_id=2, bos_token_id=1, **fixture["config"])
    config._attn_implementation = "eager"
    torch.manual_seed(seed)
    model = Qwen3ForCausalLM(config).eval()
    randomize(model, seed)
    model = model.to(fixture["dtype"])
    save_options = {"safe_serialization": True}
    if fixture["max_shard_size"]:
        save_options["max_shard_size"] = fixture["max_shard_size"]
    model.save_pretrained(directory, **save_options)
    (directory / "generation_config.json").unlink(missing_ok=True)
    if fixture["legacy_config"]:
        rewrite_as_legacy_config(directory / "config.json")

    # The reference loads what was saved, as a user of the checkpoint would, in float64. (Casting the
    # in-memory model instead would also cast its rotary inverse frequencies, which `transformers`
    # otherwise keeps in float32: for the bf16 fixture that would be a different model.)
    reference_model = Qwen3ForCausalLM.from_pretrained(directory, dtype=torch.float64, attn_implementation="eager").eval()
    assert reference_model.model.rotary_emb.inv_freq.dtype == torch.float32
    prompts = []
    for prompt in PROMPTS:
        continuation = greedy(reference_model, prompt)
        prompts.append({"ids": prompt, "greedy": continuation, "last_logits": all_logits(reference_model, prompt)[-1]})
    full_ids = PROMPTS[0] + prompts[0]["greedy"]
    reference = {
        "fixture": fixture["name"],
        "saved_dtype": str(fixture["dtype"]).removeprefix("torch."),
        "reference_dtype": "float64",
        "new_tokens": NEW_TOKENS,
        "prompts": prompts,
        "full": {"ids": full_ids, "logits": all_logits(reference_model, full_ids)},
    }
    (directory / "reference.json").write_text(json.dumps(reference, separators=(",", ":")) + "\n")
    margins = greedy_margins(reference_model, prompts)
    files = sorted(path.name for path in directory.iterdir())
    print(f"{fixture['name']}: {files}; smallest top-1/top-2 logit gap along greedy paths {min(margins):.4f}")


def greedy_margins(model: Qwen3ForCausalLM, prompts: list[dict]) -> list[float]:
    """The gap between the best and second-best logit at each greedy step (a tiny gap would make the test fragile)."""
    margins = []
    for prompt in prompts:
        ids = prompt["ids"] + prompt["greedy"]
        with torch.no_grad():
            logits = model(torch.tensor([ids])).logits[0]
        for position in range(len(prompt["ids"]) - 1, len(ids) - 1):
            top = torch.topk(logits[position], 2).values
            margins.append(float(top[0] - top[1]))
    return margins


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for seed, fixture in enumerate(FIXTURES, start=1):
        build(fixture, out, seed)


if __name__ == "__main__":
    main()
