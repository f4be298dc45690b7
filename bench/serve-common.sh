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
  # Up to a minute, and no pipe into head under pipefail (grep could die of SIGPIPE): this wait
  # was 10 s, and about one start in 15 of a second run failed it, with the server's log still
  # empty but its database open (cause not found; a server started alone never did, in 150).
  local started=$SECONDS
  until grep -q 'listening on' "$work/serve.log" 2>/dev/null; do
    if ! kill -0 "$server" 2>/dev/null; then
      local status=0
      wait "$server" || status=$?
      echo "serve exited ($status) before listening:" >&2; cat "$work/serve.log" >&2; server=; return 1
    fi
    if ((SECONDS - started >= 60)); then
      echo "serve did not listen within 60 s (/proc/$server/wchan: $(cat "/proc/$server/wchan" 2>/dev/null)):" >&2
      cat "$work/serve.log" >&2; return 1
    fi
    sleep 0.05
  done
  ((SECONDS - started < 5)) || echo "(serve took $((SECONDS - started)) s to listen)" >&2
  url=$(grep -o -m1 'http://[^ ]*' "$work/serve.log")
}
