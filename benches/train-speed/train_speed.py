"""One SFT step of transformers' Qwen3ForCausalLM (forward, backward over the reply tokens, AdamW) on
the checkpoint and batch aca-bench-train wrote, timed as the Rust side times its own.

Usage: python3 train_speed.py CHECKPOINT_DIR WORKLOAD_JSON
Prints one JSON line: seconds_per_step, first_loss, last_loss, peak_rss_bytes, versions, threads.
"""

import json
import resource
import sys
import time

import torch
import transformers

checkpoint, workload_path = sys.argv[1], sys.argv[2]
workload = json.load(open(workload_path))
torch.set_num_threads(workload["threads"])
model = transformers.Qwen3ForCausalLM.from_pretrained(checkpoint, torch_dtype=torch.float32)
model.train()
optimizer = torch.optim.AdamW(model.parameters(), lr=workload["learning_rate"], weight_decay=0.0)

ids = torch.tensor(workload["sequences"], dtype=torch.long)
start = workload["reply_start"]
# Position t predicts id t + 1: only the reply ids are learned.
labels = ids.clone()
labels[:, :start] = -100

losses = []
timed = 0.0
for step in range(workload["warmup"] + workload["steps"]):
    began = time.perf_counter()
    optimizer.zero_grad(set_to_none=True)
    loss = model(input_ids=ids, labels=labels).loss
    loss.backward()
    optimizer.step()
    if step >= workload["warmup"]:
        timed += time.perf_counter() - began
    losses.append(loss.item())

print(
    json.dumps(
        {
            "seconds_per_step": timed / workload["steps"],
            "first_loss": losses[0],
            "last_loss": losses[-1],
            "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            "threads": torch.get_num_threads(),
        }
    )
)
