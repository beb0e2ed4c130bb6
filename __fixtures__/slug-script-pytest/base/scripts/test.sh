#!/bin/sh
# The tests run from tests/ with the configuration in config/ (pythonpath, strict markers).
cd "$(dirname "$0")/../tests" && exec python3 -m pytest -c ../config/pytest.ini "$@"
