# expect: E0700 at 1:265
# 100,000 opening parentheses on one line.
BEGIN { printf "let x = "; for (i = 0; i < 100000; i++) printf "("; print "1" }
