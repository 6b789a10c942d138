#!/usr/bin/env bash
# Builds Zapdesk's container image as CI does and checks that it starts healthy, without an image
# registry and without `podman run` (no cgroups here):
#  1. the base image the Containerfile names (debian:trixie-slim) is made from Debian's packages
#     with debootstrap and imported under that name (cached as a tarball in $CACHE);
#  2. `podman build --isolation chroot` builds the image;
#  3. its filesystem (a created, never started container, mounted) is started in a chroot as the
#     image's own user, with the image's environment, command and working directory, and its
#     HEALTHCHECK command must pass, as must /api/health over HTTP.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${ZAPDESK_CI_CACHE:-/var/cache/zapdesk-ci}
BASE=docker.io/library/debian:trixie-slim
IMAGE=localhost/zapdesk:ci
PORT=${IMAGE_CHECK_PORT:-18089}
log() { echo "[image] $*"; }

mkdir -p "$CACHE"
if ! podman image exists "$BASE"; then
  tarball="$CACHE/debian-trixie-minbase.tar"
  if [ ! -s "$tarball" ]; then
    log "building $BASE from Debian's packages (debootstrap, cached in $tarball)"
    rootfs=$(mktemp -d)
    debootstrap --variant=minbase trixie "$rootfs" http://deb.debian.org/debian >/dev/null
    # What the official slim image also leaves out.
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    tar -C "$rootfs" -cf "$tarball.partial" . && mv "$tarball.partial" "$tarball"
    rm -rf "$rootfs"
  fi
  podman import --quiet --change 'CMD ["bash"]' "$tarball" "$BASE" >/dev/null
fi

# A machine that reaches the npm registry through a TLS-inspecting proxy has that proxy's CA among
# its locally added ones (Debian: /usr/local/share/ca-certificates); the build's npm needs them too.
build_args=()
local_cas=$(cat /usr/local/share/ca-certificates/*.crt 2>/dev/null || true)
if [ -n "$local_cas" ]; then build_args+=(--build-arg "EXTRA_CA_CERTS=$local_cas"); fi
log "podman build --isolation chroot"
podman build --isolation chroot --format docker --layers "${build_args[@]}" -t "$IMAGE" -f Containerfile . >"$CACHE/build.log" 2>&1 || {
  tail -40 "$CACHE/build.log"
  exit 1
}

config=$(podman image inspect "$IMAGE" --format '{{json .Config}}')
health=$(podman image inspect "$IMAGE" --format '{{json .HealthCheck}}')
node -e '
  const c = JSON.parse(process.argv[1]);
  const h = JSON.parse(process.argv[2]);
  const fail = (m) => { console.error("[image] " + m); process.exit(1); };
  if (!c.User || /^(0|root)(:|$)/.test(c.User)) fail("the image runs as root: " + c.User);
  if (!c.Volumes || !("/data" in c.Volumes)) fail("DATA_DIR is not a volume");
  if (!c.Env.includes("DATA_DIR=/data")) fail("DATA_DIR is not /data");
  if (!h || !h.Test || h.Test[0] !== "CMD") fail("no HEALTHCHECK (build with --format docker)");
' "$config" "$health"

ctr=$(podman create "$IMAGE")
root=$(podman mount "$ctr")
data=$(mktemp -d)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  for m in "$root/data" "$root/tmp" "$root/proc" "$root/dev"; do umount -l "$m" 2>/dev/null || true; done
  podman umount "$ctr" >/dev/null 2>&1 || true
  podman rm -f "$ctr" >/dev/null 2>&1 || true
  rm -rf "$data"
}
trap cleanup EXIT

user=$(podman image inspect "$IMAGE" --format '{{.Config.User}}')
workdir=$(podman image inspect "$IMAGE" --format '{{.Config.WorkingDir}}')
chown "$user" "$data"
mount --bind "$data" "$root/data"
mount -t tmpfs tmpfs "$root/tmp"
mount --rbind /dev "$root/dev"
mount -t proc proc "$root/proc"

# The image's environment and command, as a container engine would start it.
mapfile -t envs < <(podman image inspect "$IMAGE" --format '{{range .Config.Env}}{{println .}}{{end}}' | sed '/^$/d')
mapfile -t cmd < <(podman image inspect "$IMAGE" --format '{{range .Config.Cmd}}{{println .}}{{end}}' | sed '/^$/d')
secret() { head -c 48 /dev/urandom | base64 | tr -d '\n/+='; }
log "starting the image's command in a chroot as $user: ${cmd[*]}"
env -i "${envs[@]}" PORT="$PORT" HOME=/data JWT_SECRET="$(secret)" JWT_REFRESH_SECRET="$(secret)" \
  ENCRYPTION_KEY="$(secret)" ADMIN_PASSWORD=image-check \
  chroot --userspec="$user" "$root" /bin/sh -c 'cd "$0" && exec "$@"' "$workdir" "${cmd[@]}" >"$CACHE/run.log" 2>&1 &
pid=$!

healthy=""
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$PORT/api/health" 2>/dev/null | grep -q '"ok"'; then healthy=yes; break; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 1
done
if [ -z "$healthy" ]; then
  log "the server did not become healthy"
  tail -40 "$CACHE/run.log"
  exit 1
fi

# The HEALTHCHECK the image declares, run inside it as its user.
mapfile -t check < <(podman image inspect "$IMAGE" --format '{{range .HealthCheck.Test}}{{println .}}{{end}}' | sed '/^$/d')
[ "${check[0]}" = "CMD" ] || { log "unexpected HEALTHCHECK form: ${check[*]}"; exit 1; }
env -i "${envs[@]}" PORT="$PORT" chroot --userspec="$user" "$root" "${check[@]:1}"
[ -n "$(ls -A "$data")" ] || { log "nothing was written to the /data volume"; exit 1; }
[ -z "$(find "$data" -user 0 -print -quit)" ] || { log "files in /data belong to root"; exit 1; }
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
# Old build-stage layers (untagged) would pile up build after build; a week's worth stays as cache.
podman image prune -f --filter until=168h >/dev/null 2>&1 || true
log "healthy on port $PORT as uid ${uid:-?}; data written to the /data volume: $(ls -A "$data" | tr '\n' ' ')"
