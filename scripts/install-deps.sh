#!/usr/bin/env bash
# Installs every Debian package Tessera needs to build, test and compare against llvmpipe.
# Slurm's controller, node daemon and client commands and MUNGE are for `tessera sweep --slurm`
# and its test, which starts a one-node cluster of its own (no machine-wide Slurm set-up needed).
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config clang-format clang libclang-rt-14-dev
  libgtest-dev libgmock-dev libbenchmark-dev libxbyak-dev
  libassimp-dev nlohmann-json3-dev libcli11-dev libpng-dev
  glmark2-data glslang-dev glslang-tools spirv-tools spirv-headers
  libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri libx11-dev libxext-dev
  xvfb glmark2-es2-x11 chromium apitrace
  slurmctld slurmd slurm-client munge
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
