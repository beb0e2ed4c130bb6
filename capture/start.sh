# The capture's root (src/launch/capture.ts), run as `sh start.sh <test command>`: notes the environment
# the command starts with (to tell what the script itself set), puts the shims first on PATH, then
# runs the command in a shell, keeping this process id (the root of `via`).
env -0 > "$RTG_CAPTURE_START_ENV" 2>/dev/null || :
RTG_CAPTURE_ROOT=$$
export RTG_CAPTURE_ROOT
# The shims (node, python, pytest) go first on PATH, each running the program its name meant.
RTG_CAPTURE_NODE=$(command -v node) || RTG_CAPTURE_NODE=
export RTG_CAPTURE_NODE
PATH="$RTG_CAPTURE_SHIMS:$PATH"
export PATH
exec /bin/sh -c "$1"
