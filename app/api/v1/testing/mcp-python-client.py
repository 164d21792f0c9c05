"""The official Python MCP SDK's client against Trellis's MCP server of published workflows.

Run by app/api/v1/mcp/mcp-sdk.test.ts, which starts the server and publishes the workflows; the
endpoint and the API key come in MCP_URL and MCP_API_KEY. The client connects as it would to any
Streamable HTTP server (its default `auto` mode: it probes for the newest protocol era and falls
back to the `initialize` handshake), lists the tools and calls them. Prints one JSON object with
what each step returned, for the test to check.
"""

import json
import os
from importlib.metadata import version

import anyio
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def main():
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {os.environ['MCP_API_KEY']}"})
    out = {"sdk": version("mcp")}
    async with http, Client(streamable_http_client(os.environ["MCP_URL"], http_client=http)) as client:
        out["server"] = dump(client.server_info) if client.server_info else None
        out["protocol_version"] = client.protocol_version
        out["tools"] = [dump(tool) for tool in (await client.list_tools()).tools]
        progress = []

        async def on_progress(value, total, message):
            progress.append({"progress": value, "total": total, "message": message})

        out["ask"] = dump(await client.call_tool("ask", {"question": "Meaning?"}, progress_callback=on_progress))
        out["progress"] = progress
        out["greeter"] = dump(await client.call_tool("greeter", {"name": "Ada"}))
        out["bad_arguments"] = dump(await client.call_tool("greeter", {"excited": "very"}))
        out["ping"] = dump(await client.send_ping())
        out["capabilities"] = dump(client.server_capabilities) if client.server_capabilities else None
        try:
            out["unknown_tool"] = dump(await client.call_tool("nowhere", {}))
        except Exception as error:  # the server may answer a JSON-RPC error instead of a tool error
            out["unknown_tool"] = {"raised": type(error).__name__, "message": str(error)}
    print(json.dumps(out))


anyio.run(main)
