#!/usr/bin/env bash
# Regenerates the README's picture, docs/images/tile-owners-banks.svg, with
# the CLI: the owners of the m16n8 MMA accumulator (`tile show`)
# above the bank lines of a 128B-swizzled f32 tile in shared memory
# (`tile banks`), stacked into one SVG. The ctest repo.readme_picture runs
# it into the build tree and fails when the committed picture differs.
#
#   scripts/readme-picture.sh [LAYOUTKIT] [OUT]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lk="${1:-$root/build/tools/layoutkit}"
out="${2:-$root/docs/images/tile-owners-banks.svg}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$lk" tile show 'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]' '(16,8)' --svg "$tmp/owners.svg" >/dev/null
"$lk" tile banks 'S[(8,32):(32,1)]' '(8,32)' --dtype f32 --swizzle 128B --svg "$tmp/banks.svg" >/dev/null
python3 - "$tmp/owners.svg" "$tmp/banks.svg" "$out" <<'PY'
import re, sys
parts = []
for path, caption in ((sys.argv[1], "owners: the lane and register (m) of each element of a 16x8 MMA accumulator"),
                      (sys.argv[2], "banks: an 8x32 f32 tile with the 128B swizzle: bank lines x 32 banks, one word per cell")):
    text = open(path, encoding="utf-8").read()
    w, h = (int(v) for v in re.search(r'<svg[^>]* width="(\d+)" height="(\d+)"', text).groups())
    body = text[text.index(">", text.index("<svg")) + 1:text.rindex("</svg>")]
    parts.append((w, h, caption, body))
width = max(w for w, _, _, _ in parts) + 8
y, out = 0, []
for w, h, caption, body in parts:
    out.append(f'<text x="4" y="{y + 18}" font-size="16" font-weight="bold">{caption}</text>')
    out.append(f'<svg x="4" y="{y + 28}" width="{w}" height="{h}" viewBox="0 0 {w} {h}">{body}</svg>')
    y += h + 40
with open(sys.argv[3], "w", encoding="utf-8") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    f.write(f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{y}" '
            f'viewBox="0 0 {width} {y}" font-family="monospace" font-size="12">\n')
    f.write('<rect width="100%" height="100%" fill="white"/>\n')
    f.write("\n".join(out) + "\n</svg>\n")
PY
