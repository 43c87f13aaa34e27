#!/usr/bin/env bash
# napkin's step time on each published Megatron-LM run of
# bench/validation/megatron_runs.napkin beside what the run measured, and
# the error of each, napkin's parts of the step beside it.
#   bench/validation/compare.sh [path/to/napkin]
# Korthikanti et al.'s eight runs are printed again beside calculon
# (calculon-ai/calculon, SC23), a performance model of the same runs: its
# figures are what its own validation (`calculon llm-validation`, test
# seqsel_tab5) printed at commit caa4b11 (2024-02-22), recorded here;
# bench/validation/calculon_tab5.sh reruns it from a calculon checkout.
set -eu
napkin=${1:-build/napkin}
here=$(dirname "$0")
"$napkin" run "$here/megatron_runs.napkin" --format json | NAPKIN="$napkin" FILE="$here/megatron_runs.napkin" python3 -c '
import json, os, subprocess, sys
values = json.load(sys.stdin)["values"]
runs = []
for key in values:
    name, _, field = key.partition(".")
    if field == "error" and "si" in values[key]:
        runs.append(name)
def si(run, field): return values[run + "." + field]["si"]
print("run               measured     napkin    error   compute   tp comm    bubble  hand-off   dp comm optimizer (s)")
errors = {"n": [], "k": []}
for r in runs:
    e = si(r, "error")
    errors[r[0]].append(abs(e))
    parts = "".join(f"{si(r, p):>10.2f}" for p in ("compute", "tp_comm", "bubble", "handoff", "dp_comm", "optimizer"))
    measured, predicted = si(r, "measured_step"), si(r, "predicted_step")
    print(f"{r:<15} {measured:>9.2f}s {predicted:>9.2f}s {100 * e:>+7.1f}% {parts}")
every = errors["n"] + errors["k"]
for label, xs in (("Narayanan 2021 Table 1", errors["n"]), ("Korthikanti 2022 Table 5", errors["k"]), ("all 18", every)):
    print(f"{label}: mean |error| {100 * sum(xs) / len(xs):.1f}%, worst {100 * max(xs):.1f}%")
# The step (s) calculon gives and its error, (calculon − measured)/measured, as
# its validation printed them (it prints the negative of the error).
calculon = {"k_22b_full": (1.40, -1.72), "k_22b_seqsel": (1.14, 3.33),
            "k_175b_full": (18.03, -0.56), "k_175b_seqsel": (13.64, -0.81),
            "k_530b_full": (49.89, 1.72), "k_530b_seqsel": (34.47, -8.87),
            "k_1t_full": (90.08, -4.60), "k_1t_seqsel": (66.04, -7.62)}
print()
print("run               measured     napkin    error   calculon    error")
for r in runs:
    if r in calculon:
        c, ce = calculon[r]
        measured, predicted, e = si(r, "measured_step"), si(r, "predicted_step"), si(r, "error")
        print(f"{r:<15} {measured:>9.2f}s {predicted:>9.2f}s {100 * e:>+7.1f}% {c:>9.2f}s {ce:>+7.1f}%")
ks, cs = errors["k"], [abs(e) for _, e in calculon.values()]
print(f"Korthikanti 2022 Table 5: napkin mean |error| {100 * sum(ks) / len(ks):.1f}%, worst {100 * max(ks):.1f}%;"
      f" calculon mean |error| {sum(cs) / len(cs):.2f}%, worst {max(cs):.2f}%")
# Where napkin layout ranks each published layout among every layout of
# its cluster run with the same software, and how much faster napkin
# thinks its first choice is.
print()
worst = max(every)
print("run             published layout valid and fits   rank   first choice faster by   top 3 or within worst error")
for r in runs:
    ok = values[r + ".plan_ok"]["value"]
    # The software of the run: its ZeRO stage and recomputation, the only
    # ones the Megatron-LM of its paper had or used.
    software = ["--zero", str(int(si(r, "zero_stage"))),
                "--recompute", ("none", "selective", "full")[int(si(r, "recompute"))]]
    out = subprocess.run([os.environ["NAPKIN"], "layout", os.environ["FILE"], r + ".plan", "--format", "json",
                          "--top", "100000"] + software, capture_output=True, text=True)
    ranked = json.loads(out.stdout)["ranked"] if out.stdout else []
    mine = {k: si(r, k) for k in ("tp", "pp", "vpp", "dp", "micro_batch")}
    rank = next((i + 1 for i, x in enumerate(ranked) if all(x[k] == v for k, v in mine.items()) and x["cp"] == 1
                 and x["zero_stage"] == si(r, "zero_stage")), None)
    gap = 1 - ranked[0]["step_time"]["si"] / si(r, "predicted_step") if ranked else float("nan")
    verdict = "yes" if ok else "NO"
    where = str(rank) if rank else "-"
    close = "yes" if rank and (rank <= 3 or gap <= worst) else "NO"
    print(f"{r:<15} {verdict:>30} {where:>6} {100 * gap:>21.1f}% {close:>29}")
'
