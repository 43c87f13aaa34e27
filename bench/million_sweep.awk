# Writes the largest sweep napkin allows: exercise 1's decode scenario over
# 1,000 batch sizes x 1,000 context lengths (64 to 64,000 tokens), two
# columns. bench/compare.sh times it; tests/cli/hostile_test.sh bounds it.
#   awk -v ex=/abs/path/examples/exercise1_size_a_model.napkin -f bench/million_sweep.awk
BEGIN {
  printf "import \"%s\"\nsweep decode\n  over batch in [", ex
  for (i = 1; i <= 1000; i++) printf "%s%d", (i > 1 ? ", " : ""), i
  printf "],\n       context in ["
  for (i = 1; i <= 1000; i++) printf "%s%d token", (i > 1 ? ", " : ""), 64 * i
  print "]\n  show tokens_per_s, tokens_per_s_with_kv"
}
