#!/usr/bin/env bash
# Installs what the reference clients need, only what is missing:
# Debian's nodejs and npm, Debian's python3-redis (for /usr/bin/python3),
# and the node packages clients/node/package-lock.json pins (npm ci).
set -euo pipefail
cd "$(dirname "$0")"
need=()
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
/usr/bin/python3 -c 'import redis' >/dev/null 2>&1 || need+=(python3-redis)
if [ ${#need[@]} -gt 0 ]; then
  echo "real-clients: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi
echo "real-clients: node $(node --version), npm $(npm --version), $(dpkg-query -W python3-redis 2>/dev/null || echo 'python3-redis (not from Debian)')" >&2
major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 20 ]; then
  echo "real-clients: node $(node --version): ioredis 6 (clients/node) wants node 20 or later" >&2
fi
(cd node && npm ci --no-audit --no-fund --loglevel=error)
