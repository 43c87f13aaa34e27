#!/usr/bin/env bash
# calculon's step time for the published layouts napkin does not rank near
# its first choice (bench/README.md, "Training plans against published
# runs") and for napkin's first choice of each: a second model's view of
# the same trade. Run from a checkout of calculon-ai/calculon (caa4b11
# gave the figures in bench/README.md) with Python 3, numpy and pandas
# (Debian: python3-numpy, python3-pandas); ctest does not run it.
#   bench/validation/calculon_layouts.sh path/to/calculon
# Each execution is written as Megatron-LM ran in those papers: fp16,
# full recomputation, no sequence parallelism, tensor parallelism inside
# a node (network 0), the rest across nodes (network 1; the 22B's 8 GPUs
# are one node), nothing overlapped; the optimizer sharded only where
# napkin's plan shards it (Korthikanti's runs are ZeRO 1, which shards
# only where dp is above 1). calculon's A100 system is the one its Table
# 5 validation uses (systems/a100_80g.json).
set -eu
dir=$(cd "${1:?usage: bench/validation/calculon_layouts.sh path/to/calculon}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

model() { # name hidden heads blocks
  printf '{"hidden": %s, "feedforward": %s, "seq_size": 2048, "attn_heads": %s, "attn_size": %s, "num_blocks": %s}\n' \
    "$2" $(($2 * 4)) "$3" $(($2 / $3)) "$4" >"$work/$1.json"
}
# run label model procs tp pp dp batch micro_batch interleaving pp_net dp_net sharded
run() {
  cat >"$work/$1.exe.json" <<JSON
{"num_procs": $3, "tensor_par": $4, "pipeline_par": $5, "data_par": $6,
 "tensor_par_net": 0, "pipeline_par_net": ${10}, "data_par_net": ${11},
 "batch_size": $7, "microbatch_size": $8, "datatype": "float16", "fused_activation": false,
 "attention_type": "multihead", "activation_recompute": "full", "pipeline_interleaving": $9,
 "optimizer_sharding": ${12}, "tensor_par_comm_type": "ar", "tensor_par_overlap": "none",
 "seq_par_ag_redo": false, "data_par_overlap": false, "weight_offload": false,
 "activations_offload": false, "optimizer_offload": false, "training": true}
JSON
  (cd "$dir" && PYTHONPATH=. python3 bin/calculon llm "$work/$2.json" "$work/$1.exe.json" systems/a100_80g.json "$work/$1.out.json" >/dev/null)
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); t, m = d["total_time"], d["proc_mem_tier1_cap_req"] / 1e9; print(f"{sys.argv[2]:<40} {t:8.3f} s {m:7.1f} GB")' \
    "$work/$1.out.json" "$1"
}

model gpt_18b 6144 48 40
model gpt_39b 8192 64 48
model gpt_22b 6144 64 48
echo "layout                                       step     memory"
run "18B tp 8 · dp 32 (published)" gpt_18b 256 8 1 32 1024 1 1 1 1 false
run "18B tp 2 · pp 4 · vpp 2 · dp 32" gpt_18b 256 2 4 32 1024 1 2 1 1 false
run "39B tp 8 · pp 2 · dp 32 (published)" gpt_39b 512 8 2 32 1536 1 1 1 1 false
run "39B tp 2 · pp 8 · vpp 6 · dp 32" gpt_39b 512 2 8 32 1536 1 6 1 1 false
run "22B tp 8, micro-batch 4 (published)" gpt_22b 8 8 1 1 4 4 1 1 1 false
run "22B tp 2 · pp 2 · vpp 8 · dp 2" gpt_22b 8 2 2 2 4 1 8 0 0 true
