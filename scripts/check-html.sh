#!/usr/bin/env bash
# Renders a report in headless Chromium and checks it: the page loads with no
# console errors (a content-security violation, a broken image, a script error)
# and its DOM holds the verdict table (id="verdicts").
#
#   scripts/check-html.sh REPORT.html [SCREENSHOT.png]
#
# Exits 0 when the page is fine, 1 when it is not, 2 on bad usage. Without
# Chromium it prints "skipped: chromium not installed" and exits 0, so nothing
# depends on a browser being present (Debian: apt-get install chromium).
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
    echo "usage: $0 REPORT.html [SCREENSHOT.png]" >&2
    exit 2
fi
report=$1
shot=${2:-}
if [[ ! -f $report ]]; then
    echo "error: $report: no such file" >&2
    exit 2
fi

browser=""
for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then
        browser=$candidate
        break
    fi
done
if [[ -z $browser ]]; then
    echo "skipped: chromium not installed"
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
url="file://$(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
    --disable-background-networking --disable-component-update --disable-sync
    --hide-scrollbars --enable-logging=stderr --v=0)

# The DOM after loading, with the console on stderr.
"$browser" "${flags[@]}" --user-data-dir="$work/profile-dom" --dump-dom "$url" \
    >"$work/dom.html" 2>"$work/console.log" || {
    echo "FAIL: $browser could not render $report" >&2
    tail -n 20 "$work/console.log" >&2
    exit 1
}
if [[ -n $shot ]]; then
    "$browser" "${flags[@]}" --user-data-dir="$work/profile-shot" --window-size=1280,2400 \
        --screenshot="$(realpath -m "$shot")" "$url" >/dev/null 2>>"$work/console.log" || {
        echo "FAIL: $browser could not take a screenshot of $report" >&2
        exit 1
    }
fi

status=0
# Console messages from the page itself (not the browser's own chatter).
if grep -E 'CONSOLE|Content.Security.Policy|Refused to|Failed to load|Uncaught' "$work/console.log" \
    >"$work/errors.log"; then
    echo "FAIL: console errors while rendering $report:" >&2
    cat "$work/errors.log" >&2
    status=1
fi
if ! grep -q 'id="verdicts"' "$work/dom.html"; then
    echo "FAIL: the rendered page has no verdict table (id=\"verdicts\")" >&2
    status=1
fi
count() { { grep -o "$1" "$work/dom.html" || true; } | wc -l; }
images=$(count '<img ')
embedded=$(count '<img src="data:image/png;base64,')
if [[ $images -ne $embedded ]]; then
    echo "FAIL: $((images - embedded)) of $images images are not embedded" >&2
    status=1
fi
if [[ $status -eq 0 ]]; then
    rows=$(count '<tr>')
    echo "ok: $report renders in $browser with no console errors ($images embedded images, $rows table rows${shot:+, screenshot $shot})"
fi
exit $status
