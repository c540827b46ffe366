"""An MCP client that is not ours: the official Python SDK's, over streamable
HTTP. Usage: mcp_client.py URL TOKEN SOURCE CALLS: SOURCE is the session the
caller acts from (sent as X-App-Source-Session-Id, as the CLI does), CALLS a
JSON list of [tool, arguments]. Prints one JSON object: the server's name, the tools it
lists, and each call's result (is_error, structured content, text)."""

import asyncio
import json
import sys

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def main(url: str, token: str, source: str, calls: list) -> dict:
    headers = {"Authorization": f"Bearer {token}", "X-App-Source-Session-Id": source}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                listed = await session.list_tools()
                results = []
                for name, arguments in calls:
                    result = await session.call_tool(name, arguments)
                    results.append(
                        {
                            "isError": bool(result.is_error),
                            "structured": result.structured_content,
                            "text": [c.text for c in result.content if c.type == "text"],
                        }
                    )
                return {
                    "server": init.server_info.name,
                    "protocol": init.protocol_version,
                    "tools": {t.name: t.input_schema for t in listed.tools},
                    "results": results,
                }


if __name__ == "__main__":
    url, token, source, calls = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    print(json.dumps(asyncio.run(main(url, token, source, calls))))
