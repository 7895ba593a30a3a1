#!/usr/bin/env python3
"""Per-user frontiers from one `fetchsched bench --per user` run: what each family rescues at
the energy of each point of a baseline, user by user and summed, the worst user named.

Usage: scripts/frontier-by-user.py --bin BIN [--scenario F] [--budget-share 0.6] LOG... \
         --families ev-learned,adaptive --baselines counts,appm [--default ev-learned]

Each family's and baseline's sweep comes from `bench --frontier --sweep` (the registry's
lists); the oracles run beside them. A baseline point counts where it spends at most
--budget-share of that user's budget (the scenario's daily budget times the user's days).
"""
import argparse, csv, io, json, math, subprocess, sys


def envelope(points):
    """The upper envelope from (0, 0): points by energy, keeping each that rescues more."""
    curve, best = [(0.0, 0.0)], 0.0
    for e, r in sorted(points):
        if r > best:
            curve.append((e, r))
            best = r
    return curve


def read(curve, energy):
    (e0, r0) = curve[0]
    for e1, r1 in curve[1:]:
        if energy <= e1:
            return r1 if e1 == e0 else r0 + (r1 - r0) * (energy - e0) / (e1 - e0)
        e0, r0 = e1, r1
    return r0


def family(policy):
    for sep in ":@":
        policy = policy.split(sep, 1)[0]
    return policy


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--scenario", default="data/scenarios/default.json")
    ap.add_argument("--families", required=True)
    ap.add_argument("--baselines", default="counts,appm")
    ap.add_argument("--default", help="a policy whose share of the oracle and of the budget is shown per user")
    ap.add_argument("--budget-share", type=float, default=0.6)
    ap.add_argument("--least-share", type=float, default=0.0, help="count only baseline points spending at least this share")
    ap.add_argument("--json", help="also write the figures as JSON to this file")
    ap.add_argument("--csv", help="read this `bench --per user --format csv` output instead of running bench")
    ap.add_argument("logs", nargs="*")
    a = ap.parse_args()
    fams, bases = a.families.split(","), a.baselines.split(",")
    extra = [a.default] if a.default else []
    cmd = [a.bin, "bench", *a.logs, "--scenario", a.scenario, "--policies", ",".join(extra + ["oracle", "oracle:opens"]),
           "--frontier", "--sweep", ",".join(dict.fromkeys(fams + bases)), "--format", "csv", "--per", "user"]
    if a.csv:
        with open(a.csv) as f:
            out = f.read()
    else:
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=3600).stdout
    with open(a.scenario) as f:
        s = json.load(f)
    day_budget = s["battery"]["capacityWh"] * 3600 * s["budgets"]["energyPercentPerDay"] / 100
    rows = list(csv.DictReader(io.StringIO(out)))
    users = sorted({r["user"] for r in rows})
    by = {}
    for r in rows:
        by.setdefault(r["user"], {})[r["policy"]] = (float(r["energyJoules"]), float(r["rescuedOpens"]), int(r["days"]))
    figures = {"users": {}, "worst": {}}
    print(f"Per user, each family's rescued opens at the energy of each baseline point spending at most "
          f"{a.budget_share:.0%} of the user's budget, as a multiple of the point's (min … max over points):\n")
    header = "| user | days | " + " | ".join(f"{f} ÷ {b}" for f in fams for b in bases) + " | " + \
        " | ".join(f"{f} at oracle:opens J ÷ its rescues" for f in fams) + " |"
    print(header)
    print("|---|---:|" + "---:|" * (len(fams) * len(bases) + len(fams)))
    worst = {}
    for u in users:
        pol = by[u]
        days = next(iter(pol.values()))[2]
        budget = day_budget * days
        cells, fig = [], {"days": days}
        for f in fams:
            curve = envelope([(e, r) for p, (e, r, _) in pol.items() if family(p) == f])
            for b in bases:
                ratios = [read(curve, e) / r for p, (e, r, _) in pol.items()
                          if family(p) == b and r > 0 and a.least_share * budget <= e <= a.budget_share * budget]
                if ratios:
                    cells.append(f"{min(ratios):.2f} … {max(ratios):.2f}")
                    fig[f"{f}/{b}"] = [min(ratios), max(ratios)]
                    fig[f"{f}/{b}#geo"] = math.exp(sum(math.log(max(1e-3, x)) for x in ratios) / len(ratios))
                    key = f"{f}/{b}"
                    if key not in worst or min(ratios) < worst[key][0]:
                        worst[key] = (min(ratios), u)
                else:
                    cells.append("-")
        for f in fams:
            curve = envelope([(e, r) for p, (e, r, _) in pol.items() if family(p) == f])
            e, r, _ = pol["oracle:opens"]
            v = read(curve, e) / r if r > 0 else float("nan")
            cells.append(f"{v:.2f}")
            fig[f"{f}@oracle:opens"] = v
        print(f"| {u} | {days} | " + " | ".join(cells) + " |")
        figures["users"][u] = fig
    print("\nGeometric mean over each user's points, then the users' mean and the worst user's:")
    for key in sorted({k for u in users for k in figures["users"][u] if "/" in k and "#" not in k}):
        per = {u: figures["users"][u][key + "#geo"] for u in users if key + "#geo" in figures["users"][u]}
        if per:
            mean = math.exp(sum(math.log(v) for v in per.values()) / len(per))
            w = min(per, key=per.get)
            print(f"  {key}: {mean:.3f} (worst {per[w]:.3f}, {w})")
    print("\nWorst user, lowest multiple: " + "; ".join(f"{k}: {v[0]:.2f} ({v[1]})" for k, v in worst.items()))
    figures["worst"] = {k: {"ratio": v[0], "user": v[1]} for k, v in worst.items()}
    if a.default:
        print(f"\n`{a.default}` per user: share of the oracle's rescues, share of the budget spent:\n")
        print("| user | rescued | oracle rescued | × oracle | energy J | budget J | share of budget |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for u in users:
            pol = by[u]
            e, r, days = pol[a.default]
            oe, orr, _ = pol["oracle"]
            budget = day_budget * days
            print(f"| {u} | {r:.0f} | {orr:.0f} | {r / max(1, orr):.2f} | {e:.0f} | {budget:.0f} | {e / budget:.2f} |")
            figures["users"][u]["default"] = {"xOracle": r / max(1, orr), "budgetShare": e / budget}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(figures, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
