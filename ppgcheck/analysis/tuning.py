"""The constants the scenario searches are tuned with, in one place.

Each was measured on the bundled packs and on the synthetic packs ten times
their size that bench/run builds; the figures are in bench/README.md
("Where the time goes → check").  None changes what a search finds, only
how long it takes: the tests that compare the strategies set them to force
one or the other.
"""
from __future__ import annotations

# clasp's heuristic for the check's own searches (Berkmin, kept for `diff`,
# took much longer to refute them)
HEURISTIC = "Vsids"
# restarts in the default monotonicity search's proofs (no model: there is no break):
# without them fab's took ~60 % of the time, and the heaviest-permitted search after it
# on the same control a third (bench/README.md); its candidate search keeps restarts
# (without, ffg's took 30 s)
PROOF_RESTARTS = "no"
# restarts in the heaviest-permitted search's candidate searches, taken in turns, each turn
# bounded in conflicts (the bound doubling once every policy had a turn): Luby's sequence,
# then dynamic restarts (D,100,0.7).  clasp's default took dci's first candidate 3.9 s /
# 4,980 conflicts, Luby 0.3 s / 283, dynamic 221; no restarts 0.3 s on dci but 30+ s on ffg.
# A dci program that differed by one core rule took Luby 2,032 conflicts, dynamic 2,475, the
# turns 1,266.  The bounded searches for other breaks use the first: it finds ffg's second
# break (tardiness -> absence), which the default missed.  The first turn's bound: ffg's
# program since its stated spectator gap needs Luby's 1,609 conflicts from the start; with
# turns of 1,000 it took Luby 1,000, dynamic 1,000, Luby 843 more (~4 s under load; 2,000:
# ~1.6 s); dci's first candidate takes 283 either way.
CANDIDATE_RESTARTS = ("L,128", "D,100,0.7")
CANDIDATE_TURN_CONFLICTS = 2000

# A pack with at least this many rules (with a body) counts as large: its
# scenario space may be split by a header (space.py) and its monotonicity is
# proven on a slice first (monotonicity.py).  Both cost up front and pay only
# on large packs (bench/README.md, "check").
LARGE_PACK_RULES = 600

# A header a large pack compares with at least this many values is tried as a
# split, and split by when one of its parts grounds to under this share of
# the whole space's atoms.
SPLIT_MIN_VALUES = 3
SPLIT_SHARE = 1 / 3

# A one-observation space (not split by a header) grounding to at least this many atoms
# is split into KIND_GROUPS parts by observation kind (space.py): every solve assigns each
# variable of its part, and the check makes ~100-200 of them.  dci's (~20,000 atoms) pays
# (its main process ~9 -> ~6 s); fab's, ffg's and yugioh's (5,000-11,000) did not: each part
# finds again what every kind finds (bench/README.md).
KIND_SPLIT_MIN_ATOMS = 15_000
KIND_GROUPS = 4

# More than this many rules no one-observation scenario fires, for each part
# of the space, are searched for with two observations together (one search
# for a scenario firing any of them, within one time slice for all); fewer,
# one search each, each within its own slice.  Measured again on the bundled
# packs (bench/README.md): one search each saves little there and lets a busy
# machine cut one short.
MANY_UNFIRED = 2

# time slices, in seconds: of one two-observation search per rule, of one REL
# search per REL, and the bounds of the monotonicity proof's slice
TWO_OBSERVATIONS_SLICE = 3.0
REL_SLICE = 0.5
MONOTONICITY_SLICE = (2.0, 30.0)
# the search for the smallest witness of each break of the heaviest permitted penalty
HEAVIEST_WITNESS_SLICE = 1.5
# once one such break is found, the candidate searches for others: how many, and each
# one's bound in conflicts (an effort, where a time slice made the findings differ
# between runs and machines)
HEAVIEST_MORE_CANDIDATES = 8
HEAVIEST_MORE_CONFLICTS = 500

# `diff`: the share of its time bound the brave pass may take (the rest is
# for the witnesses), and the share of that its first round gives every
# observation kind
DIFF_BRAVE_SHARE = 0.75
DIFF_FIRST_ROUND = 0.3
