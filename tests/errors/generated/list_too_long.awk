# expect: E0702 at 1:300011
# A list of 100,001 numbers, one more than a list may hold.
BEGIN { printf "let xs = ["; for (i = 0; i < 100001; i++) printf "1, "; print "]" }
