#!/bin/sh
# layers: the pipeline runs one way (tests/layers.py): no module calls one
# later in the pipeline, no circle of calls, no callbacks in the model.
cd "$(dirname "$0")/../.." || exit 2
exec python3 tests/layers.py gen
