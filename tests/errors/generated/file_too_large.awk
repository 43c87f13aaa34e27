# expect: E0702 at 1:1
# A file one byte over the 16 MiB napkin reads: comments only.
BEGIN { line = "#"; for (i = 1; i < 1023; i++) line = line "#"; for (i = 0; i < 16384; i++) print line; print "" }
