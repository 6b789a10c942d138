/**
 * The shell that starts the postmaster and outlives nothing. It takes an OS lock on the data
 * folder (flock: also seen by a second container on the same volume, where PostgreSQL's own
 * postmaster.pid check cannot see the other pid namespace), holds it for as long as the
 * postmaster lives (the postmaster inherits it), and watches its standard input, a pipe from
 * Zapdesk: when Zapdesk dies, even by kill -9, the pipe closes and the postmaster is told to
 * shut down fast (SIGINT), so no orphan keeps the data folder. It exits with the postmaster's code.
 *
 * Arguments: the lock file ("" for none), then the postmaster's command line.
 * Exit 75: the lock is held by another process.
 */
export const GUARDIAN_SCRIPT = [
  'lock="$1"; shift',
  'if [ -n "$lock" ] && command -v flock >/dev/null 2>&1; then',
  '  exec 4>>"$lock" || exit 74',
  "  flock -n 4 || exit 75",
  "fi",
  "exec 3<&0",
  // A background job reads /dev/null unless told otherwise: the watcher reads the pipe through fd 3.
  '"$@" </dev/null 3<&- &',
  "pm=$!",
  '{ while read -r _ <&3; do :; done; kill -INT "$pm" 2>/dev/null; } &',
  "watcher=$!",
  "exec 3<&-",
  'wait "$pm"; code=$?',
  'kill "$watcher" 2>/dev/null',
  'exit "$code"',
].join("\n");

export const LOCK_BUSY_EXIT = 75;
