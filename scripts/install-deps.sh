#!/usr/bin/env bash
# Installs every Debian package Tessera needs to build, test and compare against llvmpipe.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config clang-format
  libgtest-dev libgmock-dev libbenchmark-dev
  libassimp-dev nlohmann-json3-dev libcli11-dev libpng-dev
  glmark2-data glslang-dev glslang-tools spirv-tools spirv-headers
  libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri libx11-dev
  xvfb glmark2-es2-x11 chromium apitrace
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
