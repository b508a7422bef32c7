"""Writes the Qwen3 tokenizer and chat-template reference values that aca-model's text tests compare against.

Run once from crates/aca-model with `transformers` and `tokenizers` installed (no torch needed):
    python3 tests/reference/qwen3_text.py
It reads the committed tokenizer in tests/fixtures/text/qwen3/ and writes
tests/fixtures/text/qwen3_token_ids.json and tests/fixtures/text/qwen3_chat.json.
"""

import gzip
import json
import pathlib
import shutil
import tempfile

import tokenizers
import transformers

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures" / "text"
QWEN3 = FIXTURES / "qwen3"

STRINGS = [
    "Hello, world!",
    "  leading spaces and\ttabs\n\nnew lines  ",
    "Create a VPC named vpc-test in cn-hangzhou with CIDR 192.168.0.0/16.",
    "在杭州地域创建一个专有网络，网段为 192.168.0.0/16。",
    "云服务器 ECS 实例的状态为“运行中”。",
    "Emoji: 👍🏽 🇨🇳 👨‍👩‍👧‍👦 ✅",
    "fn main() {\n    println!(\"{}\", 1 + 2);\n}\n",
    "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n",
    "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>",
    "<think>\nreasoning\n</think>\n\nanswer",
    "I'm sure they'll say it's done, we've seen THEY'RE right.",
    "Ünïcödé café naïve – “quotes” — ½ ² ∑",
]

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "create_vpc",
            "description": "Create a VPC in a region.",
            "parameters": {
                "type": "object",
                "properties": {
                    "RegionId": {"type": "string", "description": "Region, e.g. cn-hangzhou"},
                    "CidrBlock": {"type": "string"},
                    "VpcName": {"type": "string", "description": "名称，2-128 个字符"},
                    "DryRun": {"type": "boolean", "default": False},
                },
                "required": ["RegionId", "CidrBlock"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "describe_vpcs",
            "description": "List VPCs.",
            "parameters": {
                "type": "object",
                "properties": {"RegionId": {"type": "string"}, "PageSize": {"type": "integer", "maximum": 50}},
                "required": ["RegionId"],
            },
        },
    },
]

TOOL_CONVERSATION = [
    {"role": "system", "content": "You operate the Alibaba Cloud console."},
    {"role": "user", "content": "Create a VPC called vpc-test in Hangzhou with 192.168.0.0/16."},
    {
        "role": "assistant",
        "content": "",
        "reasoning_content": "The user wants a VPC. I will call create_vpc.",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {
                    "name": "create_vpc",
                    "arguments": {"RegionId": "cn-hangzhou", "CidrBlock": "192.168.0.0/16", "VpcName": "vpc-test"},
                },
            },
            {
                "id": "call_2",
                "type": "function",
                "function": {"name": "describe_vpcs", "arguments": {"RegionId": "cn-hangzhou", "PageSize": 10}},
            },
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "{\"VpcId\": \"vpc-bp1abc\", \"RequestId\": \"R1\"}"},
    {"role": "tool", "tool_call_id": "call_2", "content": "{\"TotalCount\": 1}"},
    {"role": "assistant", "content": "<think>\nThe VPC exists now.\n</think>\n\nDone: vpc-bp1abc (已创建)."},
    {"role": "user", "content": "Thanks! Now check it again."},
]

PLAIN_CONVERSATION = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "你好 👋"},
    {"role": "assistant", "content": "你好！"},
    {"role": "user", "content": "What is 2+2?"},
]

TOOL_CALL_WITH_TEXT = [
    {"role": "user", "content": "List my VPCs."},
    {
        "role": "assistant",
        "content": "Let me look.",
        "tool_calls": [{"type": "function", "function": {"name": "describe_vpcs", "arguments": "{\"RegionId\":\"cn-beijing\"}"}}],
    },
    {"role": "tool", "content": "[]"},
]

JSON_EDGE_VALUES = [
    {"role": "user", "content": "Edge values, please."},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "type": "function",
                "function": {
                    "name": "set_values",
                    "arguments": {
                        "ratio": 0.5,
                        "whole": 5.0,
                        "tiny": 1e-07,
                        "big": 1e20,
                        "precise": 0.1 + 0.2,
                        "negative": -3,
                        "list": [1, "quote \" backslash \\ newline \n", None, True, False],
                        "empty_object": {},
                        "empty_list": [],
                        "control": "\u0001\t\u007f",
                        "unicode": "杭州 👍 \u2028",
                    },
                },
            }
        ],
    },
]

CASES = [
    {"name": "tools_multi_turn", "messages": TOOL_CONVERSATION, "tools": TOOLS, "add_generation_prompt": True},
    {"name": "tools_no_generation_prompt", "messages": TOOL_CONVERSATION[:-1], "tools": TOOLS, "add_generation_prompt": False},
    {"name": "plain", "messages": PLAIN_CONVERSATION, "tools": None, "add_generation_prompt": True},
    {"name": "plain_thinking_off", "messages": PLAIN_CONVERSATION, "tools": None, "add_generation_prompt": True, "enable_thinking": False},
    {"name": "plain_thinking_on", "messages": PLAIN_CONVERSATION, "tools": None, "add_generation_prompt": True, "enable_thinking": True},
    {"name": "tool_call_with_text_last", "messages": TOOL_CALL_WITH_TEXT, "tools": TOOLS[1:], "add_generation_prompt": True},
    {"name": "json_edge_values", "messages": JSON_EDGE_VALUES, "tools": None, "add_generation_prompt": False},
    {"name": "single_user", "messages": [{"role": "user", "content": "hi"}], "tools": None, "add_generation_prompt": True},
]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        checkpoint = pathlib.Path(tmp)
        with gzip.open(QWEN3 / "tokenizer.json.gz", "rb") as src, open(checkpoint / "tokenizer.json", "wb") as dst:
            shutil.copyfileobj(src, dst)
        shutil.copy(QWEN3 / "tokenizer_config.json", checkpoint / "tokenizer_config.json")

        fast = tokenizers.Tokenizer.from_file(str(checkpoint / "tokenizer.json"))
        token_ids = [{"text": s, "ids": fast.encode(s, add_special_tokens=False).ids} for s in STRINGS]

        tokenizer = transformers.AutoTokenizer.from_pretrained(str(checkpoint))
        chat = []
        for case in CASES:
            kwargs = {}
            if "enable_thinking" in case:
                kwargs["enable_thinking"] = case["enable_thinking"]
            prompt = tokenizer.apply_chat_template(
                case["messages"],
                tools=case["tools"],
                add_generation_prompt=case["add_generation_prompt"],
                tokenize=False,
                **kwargs,
            )
            ids = fast.encode(prompt, add_special_tokens=False).ids
            chat.append({**case, "prompt": prompt, "prompt_ids": ids})

    versions = {"transformers": transformers.__version__, "tokenizers": tokenizers.__version__}
    (FIXTURES / "qwen3_token_ids.json").write_text(
        json.dumps({"generated_with": versions, "cases": token_ids}, ensure_ascii=False, indent=1) + "\n"
    )
    (FIXTURES / "qwen3_chat.json").write_text(
        json.dumps({"generated_with": versions, "cases": chat}, ensure_ascii=False, indent=1) + "\n"
    )


if __name__ == "__main__":
    main()
