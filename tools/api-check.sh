#!/usr/bin/env bash
# Checks docs/openapi.json against a live `switchboard serve` with
# Schemathesis (`make api-check`): every response must be documented, match
# its schema and never be a 5xx. What it finds is fixed in the server or the
# document, never excluded.
#
# The server runs on a fresh data directory with `--manual-clock`, so the
# test-only `POST /test/clock` is served and checked like any route. Four
# runs, each within a time budget (the first three side by side, about three
# minutes in all on two cores):
#   1. the API on the control server, with the owner's cli token, less
#      `GET /stream` (an event stream stays open until the server stops, so a
#      request/response tool cannot check it; the integration tests do) and
#      the UI server's own routes;
#   2. the UI server's own routes under /api with the browser cookie, less
#      the Restart button, which ends the server;
#   3. the login link at the UI server's root, without a credential;
#   4. the Restart button alone, last.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
bin=${SWITCHBOARD_BIN:-$repo/target/debug/switchboard}
schemathesis=$repo/target/pyenv/bin/schemathesis
document=$repo/docs/openapi.json
work=$(mktemp -d)
data=$work/data

"$bin" serve --data-dir "$data" --control-port 0 --ui-port 0 --manual-clock \
    >"$work/server.log" 2>&1 &
server=$!
cleanup() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

for _ in $(seq 200); do
    [ -f "$data/server.json" ] && break
    sleep 0.1
done
if [ ! -f "$data/server.json" ]; then
    cat "$work/server.log" >&2
    echo "api-check: the server did not start" >&2
    exit 1
fi
url() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$data/server.json" "$1"; }
control=$(url controlUrl)
ui=$(url uiUrl)
token=$(cat "$data/cli-token")
# Python's standard library rather than curl, which a fresh machine may lack.
# The login link answers 303; http.client does not follow it, so its
# Set-Cookie is read here.
cookie=$(python3 - "$ui" "$token" <<'PY'
import http.client, sys, urllib.parse
ui = urllib.parse.urlsplit(sys.argv[1])
connection = http.client.HTTPConnection(ui.hostname, ui.port)
connection.request("GET", "/login?" + urllib.parse.urlencode({"token": sys.argv[2], "next": "/"}))
print((connection.getresponse().getheader("Set-Cookie") or "").split(";")[0])
PY
)
if [ -z "$cookie" ]; then
    echo "api-check: no browser cookie from /login" >&2
    exit 1
fi

# The document served is the one checked in.
python3 - "$control/openapi.json" "$token" "$document" <<'PY' ||
import json, sys, urllib.request
request = urllib.request.Request(sys.argv[1], headers={"Authorization": "Bearer " + sys.argv[2]})
served = json.load(urllib.request.urlopen(request))
sys.exit(served != json.load(open(sys.argv[3])))
PY
    { echo "api-check: /openapi.json is not docs/openapi.json" >&2; exit 1; }

ui_only='^/(session|ui/presence|app/user-restart)$'
checks=not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance
run() {
    "$schemathesis" run "$document" --checks "$checks" --workers 2 --seed 1 \
        --suppress-health-check all --request-timeout 25 "$@"
}

# The control server's run takes the longest; the UI server's two short
# runs go beside it (the same server, other routes), each run's output
# printed whole once it ends.
run --url "$control" -H "Authorization: Bearer $token" \
    --max-examples 12 --max-time 150 \
    --exclude-path /stream --exclude-path /login --exclude-path-regex "$ui_only" \
    >"$work/control.log" 2>&1 &
control_run=$!

status=0
{
    echo "api-check: UI server $ui/api"
    run --url "$ui/api" -H "Cookie: $cookie" --max-examples 12 --max-time 30 \
        --include-path-regex "$ui_only" --exclude-path /app/user-restart || status=1
    echo "api-check: the login link at the UI server's root"
    run --url "$ui" --max-examples 12 --max-time 20 --include-path /login || status=1
} >"$work/ui.log" 2>&1
wait "$control_run" || status=1
echo "api-check: control server $control"
cat "$work/control.log"
cat "$work/ui.log"
if [ "$status" -ne 0 ]; then
    echo "api-check: a run failed (its output is above)" >&2
    exit 1
fi

echo "api-check: the Restart button, last"
run --url "$ui/api" -H "Cookie: $cookie" --max-examples 1 --phases examples,fuzzing \
    --include-path /app/user-restart
