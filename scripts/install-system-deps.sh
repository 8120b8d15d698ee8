#!/usr/bin/env bash
# Installs the Debian packages the test suite needs, only those missing; safe to run again.
#   git        the isolated working copies, delivery branches and test repositories
#   bubblewrap confinement of direct-CLI agents (tests of the sandbox)
#   chromium   the end-to-end UI suite (driven by playwright-core; never a downloaded browser)
#   util-linux `script`, to run the CLI under a real pseudo-terminal
#   procps     `ps`, to prove agent processes are gone
#   gcc, libc6-dev  `cc`, for the read-only-storage fault test's small preload library
set -euo pipefail
need=()
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
for pkg in git bubblewrap chromium util-linux procps gcc libc6-dev; do
  have "$pkg" || need+=("$pkg")
done
if [ ${#need[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi
echo "system packages: installing ${need[*]}"
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
