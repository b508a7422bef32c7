"""Reads a dataset folder written by `aca train collect` as verl and TRL read it, and prints what it found.

Usage: python3 read_dataset.py DIR
Prints one JSON object: per file, the row count and column names; the first verl row's prompt roles,
reward style and ground truth; and the TRL messages config as the `datasets` library loads it.
"""

import json
import pathlib
import sys

import datasets
import pyarrow.parquet as pq

root = pathlib.Path(sys.argv[1])
out = {"files": {}}
for path in sorted(root.rglob("*.parquet")):
    table = pq.read_table(path)
    out["files"][str(path.relative_to(root))] = {"rows": table.num_rows, "columns": table.column_names}

verl = pq.read_table(root / "verl" / "train.parquet").to_pylist()
first = verl[0]
out["verl"] = {
    "prompt_roles": [m["role"] for m in first["prompt"]],
    "reward_style": first["reward_model"]["style"],
    "ground_truth": first["reward_model"]["ground_truth"],
    "answer_ends_with_action": first["extra_info"]["answer"].rstrip().endswith(first["reward_model"]["ground_truth"]),
    "data_source": first["data_source"],
}

trl = datasets.load_dataset(
    "parquet",
    data_files={
        "train": str(root / "trl" / "messages" / "train.parquet"),
        "validation": str(root / "trl" / "messages" / "validation.parquet"),
    },
)
out["trl_messages"] = {
    "train": trl["train"].num_rows,
    "validation": trl["validation"].num_rows,
    "roles": [m["role"] for m in trl["train"][0]["messages"]],
}
pc = datasets.load_dataset("parquet", data_files=str(root / "trl" / "prompt-completion" / "train.parquet"))["train"]
out["trl_prompt_completion"] = {
    "rows": pc.num_rows,
    "prompt_roles": [m["role"] for m in pc[0]["prompt"]],
    "completion_roles": [m["role"] for m in pc[0]["completion"]],
}
json.dump(out, sys.stdout)
