# expect: E0702 at 6:1
# A sweep of 1,001 × 1,000 points, just over the million a sweep may have.
BEGIN {
  print "record link {"
  print "  a: count"
  print "  b: count"
  print "  c = a * b"
  print "}"
  printf "sweep link\n  over a in ["
  for (i = 1; i <= 1001; i++) printf "%d, ", i
  printf "],\n       b in ["
  for (i = 1; i <= 1000; i++) printf "%d, ", i
  print "]"
  print "  show c"
}
