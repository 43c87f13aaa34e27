# expect: E0201 at 1002:9
# A 1,000-deep `extends` chain, deepest record first so that evaluating it
# goes all the way down at once; it evaluates, and the error is in the
# last line.
BEGIN {
  for (i = 1000; i >= 1; i--) printf "record r%d extends r%d { }\n", i, i - 1
  print "record r0 { x = 1 GB }"
  print "let y = r1000.x + 1 s"
}
