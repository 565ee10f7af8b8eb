#!/usr/bin/env bash
# Everything secret the compose cluster needs, made offline with openssl, never overwriting what exists:
#  - .env beside docker-compose.yml (or $ENV_FILE): the superuser's and each service's database password, each
#    service's NATS password, INTERNAL_ASSERTION_SECRET and BETTER_AUTH_SECRET;
#  - infra/nats/tls/ (or $TLS_DIR): a certificate authority and NATS's server certificate for the name `nats`,
#    valid 825 days; the services trust the authority (NATS_CA). FORCE_TLS=1 makes new ones.
# Both stay out of git and out of images (.gitignore, .dockerignore).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
env_file=${ENV_FILE:-$root/.env}
tls=${TLS_DIR:-$root/infra/nats/tls}
services=(GATEWAY BODY_METRICS NUTRITION WORKOUTS COACH INSIGHTS IMPORTS)

if [ ! -e "$env_file" ]; then
  (
    umask 077
    {
      echo "POSTGRES_PASSWORD=$(openssl rand -hex 16)"
      for s in "${services[@]}"; do echo "POSTGRES_PASSWORD_$s=$(openssl rand -hex 16)"; done
      # NATS reads a $VARIABLE in its configuration as a configuration value, so one that starts with a digit is
      # lexed as a number and the server refuses to start: the leading letter keeps every password a string.
      for s in "${services[@]}"; do echo "NATS_PASSWORD_$s=n$(openssl rand -hex 16)"; done
      echo "INTERNAL_ASSERTION_SECRET=$(openssl rand -hex 32)"
      echo "BETTER_AUTH_SECRET=$(openssl rand -hex 32)"
    } >"$env_file"
  )
  echo "wrote $env_file"
fi

if [ ! -e "$tls/server.crt" ] || [ "${FORCE_TLS:-}" = 1 ]; then
  mkdir -p "$tls"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  openssl req -x509 -newkey rsa:3072 -nodes -days 825 -subj "/CN=fitness-platform NATS CA" \
    -keyout "$work/ca.key" -out "$tls/ca.crt" 2>/dev/null
  openssl req -newkey rsa:3072 -nodes -subj "/CN=nats" -keyout "$tls/server.key" -out "$work/server.csr" 2>/dev/null
  printf 'subjectAltName=DNS:nats,DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$work/ext"
  openssl x509 -req -in "$work/server.csr" -CA "$tls/ca.crt" -CAkey "$work/ca.key" -CAcreateserial -CAserial "$work/ca.srl" -days 825 \
    -extfile "$work/ext" -out "$tls/server.crt" 2>/dev/null
  # The NATS container runs without DAC_OVERRIDE, so it reads the key as any other user would: keep this folder
  # on a machine only its operators use (a server elsewhere takes its key from its own secret store).
  chmod 0644 "$tls/server.key" "$tls/server.crt" "$tls/ca.crt"
  echo "wrote $tls (the authority's key is not kept: new certificates mean a new authority)"
fi
