# Shared settings for the project's scripts (sourced, not run).
# Build output and the SDK environment live outside the checkout, so clean clones reuse them.
export ACA_CACHE_DIR="${ACA_CACHE_DIR:-$HOME/.cache/aliyun-console-agent}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ACA_CACHE_DIR/target}"
export ACA_VENV="${ACA_VENV:-$ACA_CACHE_DIR/venv}"
export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-line-tables-only}"
[ -f "$HOME/.cargo/env" ] && source "$HOME/.cargo/env"
# Tests run `python3`: make it the one with the SDKs.
export PATH="$ACA_VENV/bin:$PATH"
# Incremental caches are large and clean clones rarely reuse them; the disk is the scarcer resource.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
