#!/usr/bin/env python3
"""Exercise 1 (size a model from its spec) in plain Python, the way a student
would write it: floats in SI base units, no unit checking, no derivations.

    python3 bench/reference.py exercise   # every question, 1(a) to 6(c)
    python3 bench/reference.py sweep      # decode over 100 batches x 100 contexts

It is the baseline that bench/compare.sh times napkin against, so it computes
the same formulas as examples/exercise1_size_a_model.napkin and
bench/decode_sweep.napkin, and prints every result.
"""
import sys

GB = 1e9
GiB = 2**30
KiB = 2**10
TB = 1e12
TFLOP = 1e12

# ---- the spec ----------------------------------------------------------------
model = {
    "layers": 48,
    "d_model": 6144,
    "heads": 48,
    "kv_heads": 8,
    "d_ffn": 16384,
    "mlp_matrices": 3,  # swiglu: gate, up, down
    "vocab": 64000,
    "tied": False,
    "bytes_per_param": 2,  # fp16
    "kv_bytes_per_value": 2,
    "norm_params_per_dim": 0,
}

mi300x = {"bandwidth": 5.3 * TB, "capacity": 192 * GB, "peak_bf16": 1307.4 * TFLOP}
h100 = {"bandwidth": 3.35 * TB, "capacity": 80 * GB, "peak_bf16": 989.4 * TFLOP}

MAX_CONTEXT = 8192


def head_dim(m):
    return m["d_model"] / m["heads"]


def kv_dim(m):
    return m["kv_heads"] * head_dim(m)


def q_params(m):
    return m["d_model"] * m["heads"] * head_dim(m)


def kv_params(m):
    return m["d_model"] * m["kv_heads"] * 2 * head_dim(m)


def o_params(m):
    return m["heads"] * head_dim(m) * m["d_model"]


def attention_params(m):
    return q_params(m) + kv_params(m) + o_params(m)


def mlp_params(m):
    return m["mlp_matrices"] * m["d_model"] * m["d_ffn"]


def layer_params(m):
    norms = 2 * m["norm_params_per_dim"] * m["d_model"]
    return attention_params(m) + mlp_params(m) + norms


def layer_matmul_params(m):
    return attention_params(m) + mlp_params(m)


def params(m):
    embedding = m["vocab"] * m["d_model"]
    head = 0 if m["tied"] else m["vocab"] * m["d_model"]
    final_norm = m["norm_params_per_dim"] * m["d_model"]
    return m["layers"] * layer_params(m) + embedding + head + final_norm


def block_matmul_params(m):
    return m["layers"] * layer_matmul_params(m)


def matmul_params(m):
    return block_matmul_params(m) + m["vocab"] * m["d_model"]


def weight_bytes(m):
    return params(m) * m["bytes_per_param"]


def kv_bytes_per_token(m):
    return m["layers"] * m["kv_heads"] * 2 * head_dim(m) * m["kv_bytes_per_value"]


def kv_cache_bytes(m, context, batch=1):
    return kv_bytes_per_token(m) * context * batch


def attention_flops_causal(m, context):
    return 2 * m["layers"] * context * m["d_model"]


def attention_flops_last(m, context):
    return 4 * m["layers"] * context * m["d_model"]


def prefill_flops(m, prompt):
    return prompt * (2 * matmul_params(m) + attention_flops_causal(m, prompt))


def decode_flops_per_token(m, context):
    return 2 * matmul_params(m) + attention_flops_last(m, context)


def intensity_matmul(rows, k, n, bytes_per_value):
    return 2 * rows * k * n / (bytes_per_value * (rows * k + k * n + rows * n))


def decode(m, gpu, batch, context):
    weight_read_time = weight_bytes(m) / gpu["bandwidth"]
    tokens_per_s = batch / weight_read_time
    kv_read_time = batch * kv_cache_bytes(m, context) / gpu["bandwidth"]
    tokens_per_s_with_kv = batch / (weight_read_time + kv_read_time)
    return {
        "weight_read_time": weight_read_time,
        "tokens_per_s": tokens_per_s,
        "kv_read_time": kv_read_time,
        "tokens_per_s_with_kv": tokens_per_s_with_kv,
        "kv_slowdown": 1 - tokens_per_s_with_kv / tokens_per_s,
    }


def exercise():
    m = model
    d = m["d_model"]
    print("1a d_head", head_dim(m))
    print("1a d_kv", kv_dim(m))
    print("1b q_proj", q_params(m), "param")
    print("1b kv_proj", kv_params(m), "param")
    print("1b o_proj", o_params(m), "param")
    print("1b ffn", mlp_params(m), "param")
    print("1b layer", layer_params(m), "param", layer_params(m) / d**2, "d^2")
    print("1c total", params(m), "param")
    with_norms = dict(m, norm_params_per_dim=1)
    print("1c total with rmsnorm", params(with_norms), "param")
    print("1d textbook 12d^2", 12 * d**2, "param, overestimate", 12 * d**2 / layer_params(m))

    fp16 = weight_bytes(m)
    int8 = weight_bytes(dict(m, bytes_per_param=1))
    print("2a fp16", fp16 / GB, "GB", fp16 / GiB, "GiB")
    print("2b int8", int8 / GB, "GB")
    print("2c mi300x fits", fp16 <= mi300x["capacity"], (mi300x["capacity"] - fp16) / GB, "GB left")
    print("2c h100 fits", fp16 <= h100["capacity"], (h100["capacity"] - fp16) / GB, "GB left")

    t = MAX_CONTEXT
    prefill_linear = 2 * matmul_params(m) * t
    prefill_attention = t * attention_flops_causal(m, t)
    prefill_total = prefill_flops(m, t)
    print("3a blocks per token", 2 * block_matmul_params(m) / 1e9, "GFLOP/token")
    print("3b training", 6 * params(m) * 1.5e12, "FLOP")
    print("3c prefill", prefill_linear, prefill_attention, prefill_total, "FLOP")
    print("3c attention share", 100 * prefill_attention / prefill_total, "%")
    print("3c without head", 100 * prefill_attention / (2 * block_matmul_params(m) * t + prefill_attention), "%")
    print("3d decode", 2 * matmul_params(m) / 1e9, attention_flops_last(m, t) / 1e9,
          decode_flops_per_token(m, t) / 1e9, "GFLOP/token")
    print("3e prefill per token", prefill_total / t / 1e9, "GFLOP/token")

    per_token = kv_bytes_per_token(m)
    per_sequence = kv_cache_bytes(m, t)
    mha = dict(m, kv_heads=m["heads"])
    print("4a kv per token", per_token / KiB, "KiB/token")
    print("4b kv per sequence", per_sequence / GiB, "GiB")
    print("4c mha", kv_cache_bytes(mha, t) / GiB, "GiB", kv_cache_bytes(mha, t) / per_sequence, "x")

    dec = decode(m, mi300x, 1, t)
    print("5a weight read", dec["weight_read_time"] * 1e3, "ms", dec["tokens_per_s"], "token/s")
    print("5b with kv", dec["tokens_per_s_with_kv"], "token/s, slowdown", 100 * dec["kv_slowdown"], "%")
    print("5c int8", decode(dict(m, bytes_per_param=1), mi300x, 1, t)["tokens_per_s"], "token/s")
    print("5d h100", decode(m, h100, 1, t)["tokens_per_s"], "token/s")

    ridge = mi300x["peak_bf16"] / mi300x["bandwidth"]
    one = intensity_matmul(1, d, d, m["bytes_per_param"])
    full = intensity_matmul(8192, d, d, m["bytes_per_param"])
    print("6a ridge", ridge, "FLOP/B")
    print("6a one token", one, "memory" if one < ridge else "compute")
    print("6a full prompt", full, "memory" if full < ridge else "compute")
    print("6b batch for compute bound", ridge / (2 / m["bytes_per_param"]))
    print("6c capacity used", 100 * fp16 / mi300x["capacity"], "%")


def sweep():
    batches = range(1, 101)
    contexts = [256 * k for k in range(1, 101)]
    print("batch context tokens_per_s tokens_per_s_with_kv")
    for batch in batches:
        for context in contexts:
            r = decode(model, mi300x, batch, context)
            print(f"{batch} {context} {r['tokens_per_s']:.4g} {r['tokens_per_s_with_kv']:.4g}")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "exercise"
    if what == "sweep":
        sweep()
    else:
        exercise()
