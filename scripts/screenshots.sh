#!/usr/bin/env bash
# Takes the docs' screenshots that the GUI's command-line options can reach, on a virtual X display:
#   scripts/screenshots.sh [--size WxH] [--build DIR] [NAME ...]
# Each shot starts irlens with fresh settings on ../shared's generated models, waits for it to settle,
# and saves the whole screen as docs/screenshots/NAME.png. Without NAME, every shot of the table below.
# Needs Xvfb and ImageMagick's import (apt-get install xvfb imagemagick) and a build with the GUI.
# The shots that need a hand on the GUI (the tour, the exercises, an AOTInductor package's dialog, a
# step with its before / after window, a browser) are not here: take them by hand and look at them.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
size=1366x768
build="$here/build"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --size) size="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
cd "$here" # the shots name the fixtures by paths relative to the checkout, as the panes then show them
shared="${IRLENS_SHARED_DIR:-../shared}"
gen="$shared/fixtures/generated"
[[ -d "$gen" ]] || { echo "screenshots: $gen is missing: the shots are of ../shared's generated models" >&2; exit 2; }
irlens="$build/app/irlens"
[[ -x "$irlens" ]] || { echo "screenshots: $irlens is missing: build first (scripts/irlens-dev build)" >&2; exit 2; }
command -v Xvfb >/dev/null && command -v import >/dev/null || { echo "screenshots: needs Xvfb and import (xvfb, imagemagick)" >&2; exit 2; }

# the model's own sources
source_root="$shared/tools"

# name | seconds to settle | arguments (the model first) | files opened before, each in a run of its own with
# the same settings (the recent files of the start page)
shots() {
  cat <<EOF
start-page-1366x768|5|$models/notes.pt2|$models/resnet18.pt2 $models/tiny_gpt.pt2
resnet18-run-1366x768|14|$gen/resnet18/model.pt2 --run --dock profile
tiny_gpt-run-1366x768|10|$gen/tiny_gpt/model.pt2 --run --dock profile
memory-overlay-resnet18-1366x768|14|$gen/resnet18/model.pt2 --run --memory-overlay --dock memory
memory-overlay-tiny_gpt-1366x768|10|$gen/tiny_gpt/model.pt2 --run --memory-overlay --dock memory
critical-path-whatif-tiny_gpt-1366x768|10|$gen/tiny_gpt/model.pt2 --run --dock path --what-if bmm=0
critical-path-whatif-resnet18-1366x768|14|$gen/resnet18/model.pt2 --run --dock path --what-if convolution=0.5
flame-graph-resnet18-1366x768|14|$gen/resnet18/model.pt2 --run --dock flame
timeline-memory-tiny_gpt-1366x768|10|$gen/tiny_gpt/model.pt2 --run --dock timeline
source-tiny_gpt-1366x768|10|$gen/tiny_gpt/model.pt2 --run --dock lines --source-root $source_root
source-resnet18-1366x768|14|$gen/resnet18/model.pt2 --run --dock lines
roofline-resnet18|14|$gen/resnet18/model.pt2 --run --dock roofline
roofline-tiny-gpt|10|$gen/tiny_gpt/model.pt2 --run --dock roofline
fx-code-1366x768|6|$gen/tiny_mlp/model.pt2 --fx code --select addmm_1
fx-table-1366x768|6|$gen/tiny_mlp/model.pt2 --fx table --select relu
fx-placeholders-1366x768|6|$gen/tiny_mlp/model.pt2 --fx-placeholders
llama_deep-folded-1366x768|20|$gen/llama_deep/model.pt2
llama_deep-layer57-1366x768|20|$gen/llama_deep/model.pt2 --select _softmax_57
llama_deep-expand-all-folded-1366x768|25|$gen/llama_deep/model.pt2 --expand-all
tiny_gpt-stepped-1366x768|10|$gen/tiny_gpt/model.pt2 --run-to native_layer_norm_default_4
EOF
}

display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
work="$(mktemp -d)"
trap 'kill "$xvfb" 2>/dev/null || true; rm -rf "$work"' EXIT
# the start page's files: two models and a file that is not a ZIP archive, in a folder of their own
models="$work/models"
mkdir -p "$models"
ln -s "$(cd "$gen" && pwd)/resnet18/model.pt2" "$models/resnet18.pt2"
ln -s "$(cd "$gen" && pwd)/tiny_gpt/model.pt2" "$models/tiny_gpt.pt2"
echo "notes on the models, not a program" >"$models/notes.pt2"
sleep 1
taken=0
while IFS='|' read -r name settle args before; do
  if [[ $# -gt 0 ]] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  rm -rf "$work/config" && mkdir -p "$work/config"
  for file in $before; do
    DISPLAY="$display" XDG_CONFIG_HOME="$work/config" "$irlens" -geometry "${size}+0+0" "$file" >"$work/log" 2>&1 &
    app=$!
    sleep 6
    kill "$app" 2>/dev/null || true
    wait "$app" 2>/dev/null || true
  done
  # shellcheck disable=SC2086 # the arguments are words of the table
  DISPLAY="$display" XDG_CONFIG_HOME="$work/config" "$irlens" -geometry "${size}+0+0" $args >"$work/log" 2>&1 &
  app=$!
  sleep "$settle"
  DISPLAY="$display" import -window root "$here/docs/screenshots/$name.png"
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  echo "docs/screenshots/$name.png"
  taken=$((taken + 1))
done < <(shots)
[[ $taken -gt 0 ]] || { echo "screenshots: no shot named ${*}" >&2; exit 2; }
