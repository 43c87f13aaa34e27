# expect: E0701 at 2001:23
# A 100,000-deep `extends` chain, deepest record first: past the
# evaluator's depth limit.
BEGIN {
  for (i = 100000; i >= 1; i--) printf "record r%d extends r%d { }\n", i, i - 1
  print "record r0 { x = 1 }"
}
