"""A stand-in for `claude -p PROMPT --output-format stream-json --verbose
--mcp-config JSON [--strict-mcp-config]` that uses the MCP configuration as
Claude Code does: it expands ${VAR} in the server's headers from its own
environment, connects over streamable HTTP and reads its own session through
the read_session tool. Usage: fake_claude_mcp.py RECORD [claude's args...];
each turn appends one JSON line to RECORD."""

import asyncio
import json
import os
import re
import sys

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


def expand(text: str) -> str:
    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: os.environ.get(m.group(1), ""), text)


async def read_own_session(server: dict) -> dict:
    headers = {name: expand(value) for name, value in server.get("headers", {}).items()}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        async with streamable_http_client(server["url"], http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                result = await session.call_tool("read_session", {"sessionId": os.environ["APP_SESSION_ID"]})
                return {"isError": bool(result.is_error), "session": result.structured_content}


def main() -> None:
    record, args = sys.argv[1], sys.argv[2:]
    config = json.loads(args[args.index("--mcp-config") + 1])
    server = config["mcpServers"]["switchboard"]
    token = os.environ.get("APP_CLI_TOKEN", "")
    call = asyncio.run(read_own_session(server))
    with open(record, "a", encoding="utf-8") as out:
        out.write(
            json.dumps(
                {
                    "server": server,
                    "strict": "--strict-mcp-config" in args,
                    "tokenInArgv": bool(token) and any(token in arg for arg in sys.argv),
                    "call": call,
                }
            )
            + "\n"
        )
    print(json.dumps({"type": "system", "subtype": "init", "session_id": "c-1", "model": "m"}))
    print(json.dumps({"type": "result", "subtype": "success", "is_error": False, "result": "done",
                      "session_id": "c-1", "num_turns": 1, "total_cost_usd": 0}))


if __name__ == "__main__":
    main()
