"""An MCP server built with the official Python SDK (`mcp` 2.x, `MCPServer`), for
lib/tools/mcp/mcp-python-server.test.ts: Trellis's MCP tool source against a server it did not
write. Tools with a pydantic model argument (its schema under `$defs`), an optional argument
(`anyOf` with null), a structured result, a primitive result, and one that raises.

Usage: python python-mcp-server.py <streamable-http|sse> <port>  (port 0: any free port; uvicorn
logs the one it took).
"""

import sys
from typing import Optional

from pydantic import BaseModel, Field

try:
    from mcp.server.mcpserver import MCPServer
except ImportError:  # mcp 1.x named it FastMCP
    from mcp.server.fastmcp import FastMCP as MCPServer


class Address(BaseModel):
    city: str = Field(description="City name")
    country: Optional[str] = None


class Forecast(BaseModel):
    city: str
    country: Optional[str]
    temperature_c: float
    summary: str


mcp = MCPServer("py-weather")


@mcp.tool()
def forecast(address: Address, days: int = 1) -> Forecast:
    """Forecast for an address."""
    return Forecast(city=address.city, country=address.country, temperature_c=21.5, summary=f"Sunny for {days} day(s)")


@mcp.tool()
def add(a: int, b: int) -> int:
    """Adds two numbers."""
    return a + b


@mcp.tool()
def shout(text: str, times: Optional[int] = None) -> str:
    """Upper-cases text."""
    return text.upper() * (times or 1)


@mcp.tool()
def explode() -> str:
    """Always fails."""
    raise ValueError("the tool exploded")


if __name__ == "__main__":
    mcp.run(sys.argv[1], host="127.0.0.1", port=int(sys.argv[2]))
