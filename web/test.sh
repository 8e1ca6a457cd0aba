#!/usr/bin/env bash
# The browser code's checks (web/README.md): installs the pinned tools with
# `npm ci` when node_modules is missing or package-lock.json changed since
# the last install, then type-checks and runs the tests. Node 18 or later
# (client/install-deps installs Debian's when node is missing).
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "web/test.sh: node and npm are missing: run client/install-deps" >&2
    exit 1
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if ((major < 18)); then
    echo "web/test.sh: node $(node --version) is too old: 18 or later" >&2
    exit 1
fi

# The lock file's hash at the last install, kept inside node_modules so that
# removing node_modules forgets it too.
stamp=node_modules/.gloam-package-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [[ ! -d node_modules || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    # No install scripts: esbuild and tsc run without theirs.
    npm ci --no-audit --no-fund --ignore-scripts
    echo "$want" >"$stamp"
fi

npm run --silent typecheck
npm test
