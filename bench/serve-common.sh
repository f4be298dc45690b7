# Sourced by the benchmarks that run `tradeport serve` (push.sh, serve-uploads.sh), from the
# package root: the binary ($BIN, else the release build, built when missing), a work folder
# removed at exit with the server, and start_serve.
bin=${BIN:-$PWD/.build/release/tradeport}
[[ -x $bin ]] || swift build -c release --product tradeport

work=$(mktemp -d)
server=
cleanup() {
  [[ -n $server ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# start_serve [SERVE OPTIONS...]: a server on a free port over a fresh database in $work; sets
# $server (its pid) and $url (its base URL, with the context path).
start_serve() {
  rm -f "$work"/balances.sqlite* "$work"/jwt-secret
  "$bin" serve --port 0 --database "$work/balances.sqlite" "$@" 2>"$work/serve.log" &
  server=$!
  for _ in $(seq 200); do grep -q 'listening on' "$work/serve.log" && break; sleep 0.05; done
  url=$(grep -o 'http://[^ ]*' "$work/serve.log" | head -1)
  [[ -n $url ]] || { cat "$work/serve.log" >&2; return 1; }
}
