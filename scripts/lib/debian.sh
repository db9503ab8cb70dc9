# Sourced by scripts/setup.sh and scripts/bench-octagon-ppl.sh: installs the
# Debian packages given as arguments that are not installed yet (as root, or
# with sudo), quietly, with the log's tail shown on failure. Idempotent:
# installs nothing and prints nothing when every package is there.
#
#   ensure_debian_packages WHO PKG...    (WHO prefixes the messages)

ensure_debian_packages() {
  local who="$1"
  shift
  local missing=() pkg
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "$who: installing Debian packages: ${missing[*]}" >&2
  local log
  log="$(mktemp -t cpa-apt-XXXXXX.log)"
  if ! { $sudo apt-get update && $sudo env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    echo "$who: FAILED to install ${missing[*]} (full log: $log)" >&2
    return 1
  fi
  rm -f "$log"
}
