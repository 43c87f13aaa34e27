#!/usr/bin/env bash
# import_json and std/hf from the command line: a Hugging Face config.json
# becomes a model (`napkin quick --config`), and every way a JSON file can be
# wrong is a coded error naming its key and place, never a crash or a guess.
set -u
napkin=$1
. "$(dirname "$0")/../lib/expect.sh"
configs=tests/stdlib/hf_configs

# 1. quick --config: the serving report of the model the config describes.
expect_match quick.config_params 0 '^  params += 8,030,261,248 param$' out -- \
  "$napkin" quick --config "$configs/llama3_1_8b.json" --gpu a10g
expect_match quick.config_named 0 '^scenario quick = serving with \{ model = qwen2_5_7b, gpu = a10g' out -- \
  "$napkin" quick --config "$configs/qwen2_5_7b.json" --gpu a10g
expect_match quick.config_moe 1 '^  params += 30,532,122,624 param$' out -- \
  "$napkin" quick --config "$configs/qwen3_30b_a3b.json" --gpu a10g
expect_match quick.config_unfit 1 'does not fit: .*qwen3_30b_a3b.json at batch 1 and context 2048 needs' err -- \
  "$napkin" quick --config "$configs/qwen3_30b_a3b.json" --gpu a10g
expect_match quick.config_json 0 '"display": "124,439,808 param"' out -- \
  "$napkin" quick --config "$configs/gpt2.json" --gpu a10g --format json
expect_match quick.neither 2 'error\[E0800\]: napkin quick needs a model: --model NAME or --config FILE' err -- \
  "$napkin" quick --gpu a10g
expect_match quick.both 2 'error\[E0800\]: napkin quick takes --model or --config, not both' err -- \
  "$napkin" quick --model llama3_8b --config "$configs/gpt2.json" --gpu a10g
mkdir -p "$tmp/Llama-3.1-8B"
cp "$configs/llama3_1_8b.json" "$tmp/Llama-3.1-8B/config.json"
expect_match quick.folder_name 0 'model = Llama_3_1_8B,' out -- \
  "$napkin" quick --config "$tmp/Llama-3.1-8B/config.json" --gpu a10g
# A missing config is the command line's error, not a place in quick's own source.
expect_match quick.config_missing 2 '^error\[E0602\]: --config .*/none\.json: no such file$' err -- \
  "$napkin" quick --config "$tmp/none.json" --gpu a10g
expect_match quick.config_folder 2 '^error\[E0602\]: --config .*: not a regular file$' err -- \
  "$napkin" quick --config "$tmp" --gpu a10g

# 2. import_json: JSON as records, lists, numbers, strings and booleans.
cat >"$tmp/doc.json" <<'JSON'
{
  "n": 3, "x": -2.5e-3, "s": "a \"b\"", "t": true, "l": [1, [2, 3], {"k": 4}],
  "o": {"deep": {"er": 5}}, "nothing": null, "huge": 18446744073709551615,
  "0": "no name", "with": 1, "tab\u0001": 2, "ctl": "a\u0001b",
  "json_object_1": 7
}
JSON
cat >"$tmp/doc.napkin" <<'NAPKIN'
let d = import_json("doc.json")
check d.n == 3
check d.x == -0.0025
check d.s == "a \"b\""
check d.t
check len(d.l) == 3
check d.o.deep.er == 5
check d.json_object_1 == 7
check get(d, "nothing", 42) == 42
check get(d, "absent", 1 GB) == 1 GB
check get(d, "n", 0) == 3
check count(["a", "b", "a"], "a") == 2
NAPKIN
expect_match json.values 0 '11 passed, 0 failed' out -- "$napkin" check "$tmp/doc.napkin"
printf 'let d = import_json("doc.json")\nlet v = d.nothing\n' >"$tmp/null.napkin"
expect_match json.null 2 'error\[E0605\]: .*doc.json:3:29: `nothing` is null: napkin has no null' err -- \
  "$napkin" run "$tmp/null.napkin"
expect_match json.null_help 2 'get\(record, "nothing", default\) reads a null or missing key as its default' err -- \
  "$napkin" run "$tmp/null.napkin"
printf 'let d = import_json("doc.json")\nlet v = d.huge\n' >"$tmp/huge.napkin"
expect_match json.huge 2 'error\[E0605\]: .*doc.json:3:46: `huge` is 18446744073709551615, past 2\^53' err -- \
  "$napkin" run "$tmp/huge.napkin"
expect_match json.huge_not_default 2 'E0605' err -- \
  "$napkin" eval 'get(import_json("'"$tmp"'/doc.json"), "huge", 0)'
printf 'let d = import_json("doc.json")\nlet v = d.ctl\n' >"$tmp/ctl.napkin"
expect_match json.control 2 'error\[E0605\]: .*`ctl` is a string holding the control character 0x01' err -- \
  "$napkin" run "$tmp/ctl.napkin"
printf '{"a": {"b": [1, null]}}\n' >"$tmp/inner.json"
printf 'let v = import_json("inner.json").a.b\n' >"$tmp/inner.napkin"
expect_match json.key_path 2 'error\[E0605\]: .*inner.json:1:8: `a.b` holds \[1\], which is null' err -- \
  "$napkin" run "$tmp/inner.napkin"
printf '{"a": 1,\n "b": }\n' >"$tmp/bad.json"
printf 'let v = import_json("bad.json")\n' >"$tmp/bad.napkin"
expect_match json.syntax 2 'bad.napkin:1:21: error\[E0605\]: .*bad.json is not JSON napkin reads: parse error at line 2, column 7' err -- \
  "$napkin" run "$tmp/bad.napkin"
printf '{"a": 1, "a": 2}\n' >"$tmp/twice.json"
printf 'let v = import_json("twice.json").a\n' >"$tmp/twice.napkin"
expect_match json.twice 2 'error\[E0605\]: .*`a` is given twice in one object' err -- "$napkin" run "$tmp/twice.napkin"
{ head -c 100000 /dev/zero | tr '\0' '['; head -c 100000 /dev/zero | tr '\0' ']'; } >"$tmp/deep.json"
printf 'let v = import_json("deep.json")\n' >"$tmp/deep.napkin"
expect_match json.deep 2 'error\[E0605\]: .*nested deeper than 64 levels' err -- "$napkin" run "$tmp/deep.napkin"
printf 'let v = import_json("doc.napkin")\n' >"$tmp/named.napkin"
expect_match json.not_json 2 'error\[E0603\]: "doc.napkin" is not JSON: its name does not end in .json' err -- \
  "$napkin" run "$tmp/named.napkin"
mkdir -p "$tmp/dir.json"
printf 'let v = import_json("dir.json")\n' >"$tmp/dir.napkin"
expect_match json.directory 2 'error\[E0602\]: cannot read the file "dir.json": Is a directory' err -- "$napkin" run "$tmp/dir.napkin"
printf 'let v = import_json("missing.json")\n' >"$tmp/missing.napkin"
expect_match json.missing 2 'error\[E0600\]: cannot find the file "missing.json"' err -- "$napkin" run "$tmp/missing.napkin"
printf '\x00\x01' >"$tmp/binary.json"
printf 'let v = import_json("binary.json")\n' >"$tmp/binary.napkin"
expect_match json.binary 2 'error\[E0603\]: "binary.json" is not JSON: it holds a NUL byte' err -- "$napkin" run "$tmp/binary.napkin"
mkdir -p "$tmp/sub"
printf 'let v = import_json("../doc.json")\n' >"$tmp/sub/up.napkin"
expect_match json.restricted 2 'error\[E0604\]' err -- "$napkin" run --restricted "$tmp/sub/up.napkin"
head -c 5000000 /dev/zero | tr '\0' ' ' >"$tmp/big.json"
printf 'let v = import_json("big.json")\n' >"$tmp/big.napkin"
expect_match json.too_big 2 'error\[E0702\]: .*import_json reads files of at most 4194304 bytes' err -- "$napkin" run "$tmp/big.napkin"

# 3. std/hf: what it cannot map is an error that names the key.
sed 's/"model_type": "llama"/"model_type": "llamax"/' "$configs/llama3_1_8b.json" >"$tmp/unknown.json"
printf 'import "std/hf"\nmodel m = from_hf_config(import_json("unknown.json"))\nlet p = m.params\n' >"$tmp/unknown.napkin"
expect_match hf.unknown_family 2 'error\[E0203\]: .*model_type` must be a model_type std/hf maps: llama, .* but it is "llamax"' err -- \
  "$napkin" run "$tmp/unknown.napkin"
sed 's/"LlamaForCausalLM"/"LlamaForSequenceClassification"/' "$configs/llama3_1_8b.json" >"$tmp/head.json"
printf 'import "std/hf"\nmodel m = from_hf_config(import_json("head.json"))\nlet p = m.params\n' >"$tmp/head.napkin"
expect_match hf.architecture 2 'error\[E0203\]: .*architectures` must be a list that names the family.s causal LM' err -- \
  "$napkin" run "$tmp/head.napkin"
sed 's/"mlp_only_layers": \[\]/"mlp_only_layers": [0, 1]/' "$configs/qwen3_30b_a3b.json" >"$tmp/dense.json"
printf 'import "std/hf"\nmodel m = from_hf_config(import_json("dense.json"))\nlet p = m.params\n' >"$tmp/dense.napkin"
expect_match hf.dense_between 2 'error\[E0203\]: .*mlp_only_layers` must be empty: std/hf places no dense layer among MoE ones' err -- \
  "$napkin" run "$tmp/dense.napkin"
grep -v '"num_hidden_layers"' "$configs/llama3_1_8b.json" >"$tmp/nolayers.json"
printf 'import "std/hf"\nmodel m = from_hf_config(import_json("nolayers.json"))\nlet p = m.params\n' >"$tmp/nolayers.napkin"
expect_match hf.missing_key 2 'error\[E0301\]: m.config has no field `num_hidden_layers`' err -- "$napkin" run "$tmp/nolayers.napkin"

finish
