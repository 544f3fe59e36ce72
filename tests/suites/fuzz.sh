#!/bin/sh
# A brief run of every fuzz target over its seeds (make fuzz runs longer).
FUZZ_BRIEF=1 exec sh "$(dirname "$0")/../fuzz/run.sh"
