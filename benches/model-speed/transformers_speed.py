"""Times prefill and greedy decode of a Qwen3 checkpoint with `transformers` on the CPU, for aca-bench-model.

Run by the benchmark as a subprocess (its interpreter is named by ACA_BENCH_PYTHON):
    python transformers_speed.py --checkpoint DIR --prompt PROMPT.json --decode N --repeats R
PROMPT.json holds the prompt's token ids. The protocol is the benchmark's own: one untimed warm-up, then
per repeat a fresh cache, the prompt in one forward call (prefill, only the last position's logits), then
N single-token forward calls, each followed by an argmax (decode). The best prefill and the best decode
time over the repeats are reported, with the greedy tokens of the first repeat, as one JSON line.
"""

import argparse
import json
import time

import torch
import transformers


def forward(model, ids, past):
    try:
        return model(input_ids=ids, past_key_values=past, use_cache=True, logits_to_keep=1)
    except TypeError:
        # Older transformers name the argument num_logits_to_keep.
        return model(input_ids=ids, past_key_values=past, use_cache=True, num_logits_to_keep=1)


def run_once(model, prompt, decode_steps):
    ids = torch.tensor([prompt], dtype=torch.long)
    started = time.perf_counter()
    output = forward(model, ids, None)
    prefill = time.perf_counter() - started
    past = output.past_key_values
    token = int(torch.argmax(output.logits[0, -1]))
    greedy = [token]
    started = time.perf_counter()
    for _ in range(decode_steps):
        output = forward(model, torch.tensor([[token]], dtype=torch.long), past)
        past = output.past_key_values
        token = int(torch.argmax(output.logits[0, -1]))
        greedy.append(token)
    decode = time.perf_counter() - started
    return prefill, decode, greedy


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--prompt", required=True)
    parser.add_argument("--decode", type=int, required=True)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with open(args.prompt) as file:
        prompt = json.load(file)
    model = transformers.AutoModelForCausalLM.from_pretrained(args.checkpoint, torch_dtype=torch.float32)
    model.eval()
    with torch.inference_mode():
        run_once(model, prompt[:16], 4)
        runs = [run_once(model, prompt, args.decode) for _ in range(max(1, args.repeats))]
    print(
        json.dumps(
            {
                "prefill_seconds": min(run[0] for run in runs),
                "decode_seconds": min(run[1] for run in runs),
                "greedy": runs[0][2],
                "torch": torch.__version__,
                "transformers": transformers.__version__,
                "threads": torch.get_num_threads(),
            }
        )
    )


if __name__ == "__main__":
    main()
