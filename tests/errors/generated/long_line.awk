# expect: E0207 at 1:9
# A 10 MB single line: a string of ten million letters, then a type error
# at its far end.
BEGIN { printf "let s = \""; for (i = 0; i < 1000000; i++) printf "abcdefghij"; print "\" + 1" }
