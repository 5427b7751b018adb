#!/usr/bin/env bash
# Installs whatever occ needs that is missing, from Debian's archive and npm.
# Idempotent and quiet when everything is present. Usage: scripts/bootstrap.sh [--native-only]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NATIVE_ONLY=0
[[ "${1:-}" == "--native-only" ]] && NATIVE_ONLY=1

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi

# Debian packages: native build + tests (llvm-14 and llvm-19: llc-14/llc-19, the oracle of the AMD
# differential test tests/amd; llc-19 knows gfx942 and RDNA3/RDNA4, llc-14 gfx908/gfx90a/gfx1030)
PKGS=(cmake g++ make pkg-config nlohmann-json3-dev libcli11-dev doctest-dev libbenchmark-dev liblz4-dev libzstd-dev zlib1g-dev libtomlplusplus-dev
      clang libclang-rt-14-dev clang-format dpkg-dev
      llvm-14 llvm-19
      pybind11-dev python3-dev python3-numpy python3-venv python3-pip)
if [[ $NATIVE_ONLY -eq 0 ]]; then
  # desktop app + its headless test, web build, browser tests
  PKGS+=(libglfw3-dev libgl-dev libstb-dev xvfb xauth libgl1-mesa-dri fonts-dejavu-core python3-fonttools emscripten terser nodejs npm chromium gzip python3)
fi

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# npm may come from another source (nodesource); accept any working npm
if [[ " ${missing[*]} " == *" npm "* ]] && command -v npm >/dev/null; then
  missing=("${missing[@]/npm}")
fi
if [[ " ${missing[*]} " == *" nodejs "* ]] && command -v node >/dev/null; then
  missing=("${missing[@]/nodejs}")
fi
read -r -a missing <<< "${missing[*]:-}"

apt_updated=0
apt_update() {
  if [[ $apt_updated -eq 0 ]]; then
    echo "bootstrap: apt-get update" >&2
    $SUDO apt-get update -qq >/dev/null
    apt_updated=1
  fi
}

if (( ${#missing[@]} )); then
  echo "bootstrap: installing Debian packages: ${missing[*]}" >&2
  apt_update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ $NATIVE_ONLY -eq 0 ]]; then
  # Dear ImGui: Debian source package, unpacked under third_party/imgui (git-ignored).
  if [[ ! -f "$ROOT/third_party/imgui/imgui.h" ]]; then
    echo "bootstrap: fetching Dear ImGui (Debian source package 'imgui') into third_party/imgui" >&2
    if ! grep -rqs "deb-src\|Types:.*deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
      echo "bootstrap: adding a deb-src entry for bookworm (/etc/apt/sources.list.d/occ-deb-src.sources)" >&2
      $SUDO tee /etc/apt/sources.list.d/occ-deb-src.sources >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
      apt_updated=0
    fi
    apt_update
    tmp="$(mktemp -d)"
    (cd "$tmp" && apt-get source -qq imgui >/dev/null 2>&1)
    src="$(find "$tmp" -maxdepth 1 -mindepth 1 -type d -name 'imgui-*' | head -1)"
    [[ -n "$src" && -f "$src/imgui.h" ]] || { echo "bootstrap: apt-get source imgui failed" >&2; exit 1; }
    mkdir -p "$ROOT/third_party"
    rm -rf "$ROOT/third_party/imgui"
    mv "$src" "$ROOT/third_party/imgui"
    rm -rf "$tmp"
  fi
  # playwright-core for browser tests (uses Debian's /usr/bin/chromium, never downloads a browser)
  if [[ ! -d "$ROOT/tests/web/node_modules/playwright-core" ]]; then
    echo "bootstrap: npm install playwright-core (tests/web)" >&2
    (cd "$ROOT/tests/web" && npm install --no-audit --no-fund --silent >/dev/null)
  fi
fi
# The official MCP TypeScript SDK, whose client drives `occ mcp` in tests/mcp (CTest mcp.sdk_client,
# part of the native suite: installed with --native-only too, wherever npm is).
if [[ ! -d "$ROOT/tests/mcp/node_modules/@modelcontextprotocol/sdk" ]] && { [[ $NATIVE_ONLY -eq 0 ]] || command -v npm >/dev/null; }; then
  echo "bootstrap: npm install @modelcontextprotocol/sdk (tests/mcp)" >&2
  (cd "$ROOT/tests/mcp" && npm install --no-audit --no-fund --silent >/dev/null)
fi
