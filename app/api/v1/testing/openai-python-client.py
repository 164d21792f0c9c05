"""The official Python `openai` SDK against Trellis's OpenAI-compatible API.

Run by app/api/v1/chat/completions/openai-python-sdk.test.ts, which starts the API (its fixture:
app/api/v1/testing/openai-api-fixture.ts) and scripts the fake model; the SDK reads the address and
the key from OPENAI_BASE_URL and OPENAI_API_KEY, as it does for any OpenAI-compatible server. Prints
one JSON object with what each call returned, for the test to check.
"""

import json

import openai
from openai import OpenAI


def error_of(call):
    """The SDK's error for a call that must fail: its class, HTTP status and OpenAI error fields."""
    try:
        call()
    except openai.APIStatusError as error:
        return {
            "class": type(error).__name__,
            "status": error.status_code,
            "code": error.code,
            "param": error.param,
            "type": error.type,
        }
    return None


def main():
    client = OpenAI(max_retries=0)
    question = [{"role": "user", "content": "Meaning of life?"}]
    out = {"sdk": openai.__version__}
    out["models"] = [model.id for model in client.models.list()]
    out["retrieved"] = client.models.retrieve("pinned@1").model_dump()
    out["completion"] = client.chat.completions.create(model="ask", messages=question).model_dump()
    stream = client.chat.completions.create(
        model="ask",
        messages=[{"role": "user", "content": "Sky?"}],
        stream=True,
        stream_options={"include_usage": True},
    )
    out["chunks"] = [chunk.model_dump() for chunk in stream]
    pinned = client.chat.completions.create(
        model="pinned@1",
        messages=[{"role": "user", "content": "Earlier"}, {"role": "assistant", "content": "Yes"}]
        + [{"role": "user", "content": "Now?"}],
    )
    out["pinned"] = pinned.choices[0].message.content
    # The SDK's stream helper, as apps use it: content events, then the assembled completion.
    with client.chat.completions.stream(
        model="ask",
        messages=[{"role": "user", "content": "Helper?"}],
        stream_options={"include_usage": True},
    ) as helper:
        deltas = [event.delta for event in helper if event.type == "content.delta"]
        final = helper.get_final_completion()
    out["helper"] = {"deltas": deltas, "final": final.model_dump()}
    raw = client.chat.completions.with_raw_response.create(model="echo", messages=question)
    out["raw"] = {
        "status": raw.status_code,
        "content_type": raw.headers.get("content-type"),
        "content": raw.parse().choices[0].message.content,
    }
    out["not_found"] = error_of(lambda: client.chat.completions.create(model="nowhere", messages=question))
    out["bad_key"] = error_of(lambda: OpenAI(api_key="trl_nope", max_retries=0).models.list())
    print(json.dumps(out))


main()
