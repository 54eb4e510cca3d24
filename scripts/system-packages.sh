#!/usr/bin/env bash
# Install the Debian packages the test suite drives (a headless Chromium for the
# review page's browser test) when they are missing and we may install them.
set -u
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "not installing ${need[*]}: needs root and apt-get; the browser test will be skipped" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
  || echo "could not install ${need[*]}; the browser test will be skipped" >&2
exit 0
