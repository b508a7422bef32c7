"""The official OpenAI Python client against `aca serve`, unchanged: chat, streaming with usage,
tools (offered and forced), json_schema output, logprobs and the client's error classes. Prints one JSON object."""

import json
import sys

import openai

base_url, token, model = sys.argv[1], sys.argv[2], sys.argv[3]
client = openai.OpenAI(base_url=base_url, api_key=token, max_retries=0)
messages = [{"role": "user", "content": "Name a colour."}]
out = {}

chat = client.chat.completions.create(model=model, messages=messages, max_tokens=6, temperature=0, seed=7)
out["chat"] = {
    "content": chat.choices[0].message.content,
    "finish_reason": chat.choices[0].finish_reason,
    "prompt_tokens": chat.usage.prompt_tokens,
    "completion_tokens": chat.usage.completion_tokens,
}

pieces, usage, finish = [], None, None
for chunk in client.chat.completions.create(
    model=model, messages=messages, max_tokens=6, temperature=0, seed=7,
    stream=True, stream_options={"include_usage": True},
):
    if chunk.usage is not None:
        usage = chunk.usage.completion_tokens
    for choice in chunk.choices:
        if choice.delta.content:
            pieces.append(choice.delta.content)
        if choice.finish_reason:
            finish = choice.finish_reason
out["stream"] = {"content": "".join(pieces), "completion_tokens": usage, "finish_reason": finish}

tools = [{
    "type": "function",
    "function": {
        "name": "create_vpc",
        "description": "Create a VPC",
        "parameters": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
    },
}]
with_tools = client.chat.completions.create(model=model, messages=messages, max_tokens=2, temperature=0, tools=tools)
out["tools"] = {"prompt_tokens": with_tools.usage.prompt_tokens, "finish_reason": with_tools.choices[0].finish_reason}

regions = [{
    "type": "function",
    "function": {
        "name": "pick_region",
        "description": "Choose a region",
        "parameters": {
            "type": "object",
            "properties": {"region": {"type": "string", "enum": ["cn-hangzhou", "cn-beijing"]}},
            "required": ["region"],
            "additionalProperties": False,
        },
    },
}]
forced = client.chat.completions.create(
    model=model, messages=messages, max_tokens=60, temperature=1.0, seed=2,
    tools=tools + regions, tool_choice={"type": "function", "function": {"name": "pick_region"}},
)
call = forced.choices[0].message.tool_calls[0]
out["forced"] = {
    "name": call.function.name,
    "arguments": json.loads(call.function.arguments),
    "calls": len(forced.choices[0].message.tool_calls),
    "finish_reason": forced.choices[0].finish_reason,
}

schema = {
    "type": "object",
    "properties": {"size": {"type": "string", "enum": ["small", "large"]}, "count": {"type": "integer", "minimum": 1, "maximum": 9}},
    "required": ["size", "count"],
    "additionalProperties": False,
}
structured = client.chat.completions.create(
    model=model, messages=messages, max_tokens=40, temperature=0.8, seed=3,
    response_format={"type": "json_schema", "json_schema": {"name": "order", "schema": schema, "strict": True}},
)
out["json_schema"] = {"content": structured.choices[0].message.content, "finish_reason": structured.choices[0].finish_reason}

scored = client.chat.completions.create(model=model, messages=messages, max_tokens=3, temperature=0, logprobs=True, top_logprobs=2)
out["logprobs"] = [
    {"logprob": t.logprob, "top": [a.logprob for a in t.top_logprobs]} for t in scored.choices[0].logprobs.content
]

try:
    client.chat.completions.create(model="no-such-model", messages=messages, max_tokens=2)
    out["wrong_model"] = "accepted"
except openai.NotFoundError as error:
    out["wrong_model"] = error.body.get("code") if isinstance(error.body, dict) else str(error.body)

try:
    openai.OpenAI(base_url=base_url, api_key="wrong", max_retries=0).models.list()
    out["wrong_token"] = "accepted"
except openai.AuthenticationError:
    out["wrong_token"] = "refused"

print(json.dumps(out))
