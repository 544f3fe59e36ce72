#!/bin/sh
# Writes a site with one deck of N generated cards, for timing PDFs.
#
#   sh tests/bench/gen-deck.sh DIR [N]      N defaults to 10000
#
# The backs cycle through what real decks hold: a sentence or two, a
# list, a code block, a table, a block quote, so every drawing path is
# timed. Output is the same for the same N.
set -eu
dir=${1:?usage: gen-deck.sh DIR [N]}
n=${2:-10000}
mkdir -p "$dir/content/cards"
cat >"$dir/site.toml" <<'TOML'
title = "Benchmark"
author = "quizdeck bench"

[print]
paper = "a4"
card = "a7"
duplex = "long-edge"
TOML
awk -v n="$n" 'BEGIN {
	printf "+++\ntitle = \"Generated deck\"\ndescription = \"%d generated cards.\"\n+++\n\n", n
	split("data tensor pipeline expert sequence context", kind, " ")
	for (i = 1; i <= n; i++) {
		k = kind[(i - 1) % 6 + 1]
		printf "## Card %d: what does %s parallelism split, and what must cross the network? {#c%d}\n\n", i, k, i
		v = (i - 1) % 5
		if (v == 0)
			printf "It splits the **%s** across %d devices; each step they exchange *partial results* with an all-reduce, whose cost grows with the size of what is split.\n\n", k, i % 64 + 2
		else if (v == 1)
			printf "Three things to remember:\n\n1. Partition the %s.\n2. Overlap communication with compute.\n3. Keep `micro_batches >= stages` (card %d).\n\n", k, i
		else if (v == 2)
			printf "```python\nfor step in range(%d):\n    loss = model(batch[step])\n    loss.backward()\n```\n\nThen call `optimizer.step()` on every rank.\n\n", i
		else if (v == 3)
			printf "| devices | traffic |\n| ---: | :--- |\n| 2 | 1 x N |\n| 8 | 1.75 x N |\n| %d | 2(p-1)/p x N |\n\n", i % 512 + 16
		else
			printf "> Splitting the %s is only worth it when the model no longer fits.\n\nSee card %d for the cost model.\n\n", k, (i > 1 ? i - 1 : 1)
	}
}' >"$dir/content/cards/generated.md"
