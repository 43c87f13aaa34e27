# expect: E0701 at 2002:12
# A record whose 100,000 fields each need the next one down, the first
# needing all the others.
BEGIN {
  print "record r {"
  for (i = 100000; i >= 1; i--) printf "  a%d = a%d\n", i, i - 1
  print "  a0 = 1"
  print "}"
}
