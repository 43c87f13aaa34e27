# expect: E0702 at 707:8
# A 3,000-deep `extends` chain in which every level adds a typed field:
# each record holds every field it inherits, 4.5 million in all, past the
# 250,000 that all records together may hold (kMaxFieldsHeld). It used to
# take 22.6 s and 4.6 GB; the limit stops it at r706.
BEGIN {
  print "record r0 { f0: count = 1 }"
  for (i = 1; i <= 3000; i++) printf "record r%d extends r%d { f%d: count = f0 + %d }\n", i, i - 1, i, i
}
