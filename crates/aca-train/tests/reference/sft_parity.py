"""Reference SFT loss and gradients for aca-train, computed by transformers' Qwen3ForCausalLM in float64.

On a committed tiny checkpoint fixture of aca-model, two token sequences are scored with the masked
next-token cross-entropy the trainer uses: position t predicts id t+1, and only ids at or after each
sequence's completion start count; the loss is the sum over those ids divided by their number. The loss
and the gradients of a few named parameters (Hugging Face names and [out, in] layout) are written as JSON
for `tests/sft_parity.rs`.

    pip install torch transformers safetensors
    python crates/aca-train/tests/reference/sft_parity.py
"""

import json
import pathlib

import torch
from transformers import Qwen3ForCausalLM

ROOT = pathlib.Path(__file__).resolve().parents[3]
CHECKPOINT = ROOT / "aca-model" / "tests" / "fixtures" / "tied_gqa"
OUTPUT = pathlib.Path(__file__).resolve().parent / "sft_parity.json"

SEQUENCES = [
    [3, 17, 42, 5, 99, 7, 1, 180, 64, 12],
    [11, 2, 64, 200, 8, 9],
]
COMPLETION_STARTS = [6, 3]
PARAMETERS = [
    "model.embed_tokens.weight",
    "model.layers.0.self_attn.q_proj.weight",
    "model.layers.0.self_attn.k_norm.weight",
    "model.layers.0.input_layernorm.weight",
    "model.layers.1.self_attn.o_proj.weight",
    "model.layers.1.mlp.down_proj.weight",
    "model.norm.weight",
]


def main():
    torch.manual_seed(0)
    model = Qwen3ForCausalLM.from_pretrained(
        CHECKPOINT, torch_dtype=torch.float64, attn_implementation="eager"
    )
    model.train(False)
    total = torch.zeros((), dtype=torch.float64)
    learned = 0
    for ids, start in zip(SEQUENCES, COMPLETION_STARTS):
        logits = model(input_ids=torch.tensor([ids])).logits[0]
        log_probs = torch.log_softmax(logits[:-1], dim=-1)
        targets = torch.tensor(ids[1:])
        picked = log_probs[torch.arange(len(ids) - 1), targets]
        mask = torch.tensor([index + 1 >= start for index in range(len(ids) - 1)])
        total = total - picked[mask].sum()
        learned += int(mask.sum())
    loss = total / learned
    loss.backward()
    named = dict(model.named_parameters())
    gradients = {}
    for name in PARAMETERS:
        grad = named[name].grad
        # Nine significant digits: more than the f32 side can match, and a smaller fixture.
        values = [float(f"{value:.9g}") for value in grad.flatten().tolist()]
        gradients[name] = {"shape": list(grad.shape), "values": values}
    fixture = {
        "checkpoint": "tied_gqa",
        "sequences": SEQUENCES,
        "completion_starts": COMPLETION_STARTS,
        "learned_tokens": learned,
        "loss": loss.item(),
        "gradients": gradients,
        "transformers": __import__("transformers").__version__,
        "torch": torch.__version__,
    }
    OUTPUT.write_text(json.dumps(fixture) + "\n")
    print(f"loss {loss.item():.6f} over {learned} tokens -> {OUTPUT}")


if __name__ == "__main__":
    main()
