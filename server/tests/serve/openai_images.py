"""The official OpenAI Python client sending an image to `aca serve`: a PNG as a base64 data: URL between
two text parts, greedy with logprobs; the model list's input modalities; a remote URL refused as the
client's BadRequestError. Prints one JSON object."""

import base64
import json
import sys

import openai

base_url, token, model, image_path, before, after = sys.argv[1:7]
client = openai.OpenAI(base_url=base_url, api_key=token, max_retries=0)
with open(image_path, "rb") as file:
    url = "data:image/png;base64," + base64.b64encode(file.read()).decode()


def message(image_url):
    return [{
        "role": "user",
        "content": [
            {"type": "text", "text": before},
            {"type": "image_url", "image_url": {"url": image_url}},
            {"type": "text", "text": after},
        ],
    }]


reply = client.chat.completions.create(
    model=model, messages=message(url), max_tokens=6, temperature=0, logprobs=True,
)
details = reply.usage.prompt_tokens_details
out = {
    "content": reply.choices[0].message.content,
    "tokens": [entry.token for entry in reply.choices[0].logprobs.content],
    "prompt_tokens": reply.usage.prompt_tokens,
    "image_tokens": getattr(details, "image_tokens", None),
    "modalities": client.models.list().data[0].model_extra.get("input_modalities"),
}

try:
    client.chat.completions.create(model=model, messages=message("https://example.com/shot.png"), max_tokens=2)
    out["remote"] = {"status": 200}
except openai.BadRequestError as error:
    out["remote"] = {"status": error.status_code, "code": error.code}

print(json.dumps(out))
