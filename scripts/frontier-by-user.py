#!/usr/bin/env python3
"""Per-user frontiers from one `fetchsched bench --per user` run: what each family rescues at
the energy of each point of a baseline, user by user and summed, the worst user named.

Usage: scripts/frontier-by-user.py --bin BIN [--scenario F] [--budget-share 0.6] LOG... \
         --families ev-learned,adaptive --baselines counts,appm [--default ev-learned] [--hindsight oracle:hindsight]

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


def family(policy, known):
    """The longest of `known` family names that `policy` is, or that is followed there by `:` or `@`
    (`oracle:hindsight@0.1` is `oracle:hindsight`, `adaptive@0.1` is `adaptive`)."""
    found = [k for k in known if policy == k or (policy.startswith(k) and policy[len(k)] in ":@")]
    return max(found, key=len) if found else None


def curve(pol, f, known):
    """The envelope of family `f`'s points among one user's policies."""
    return envelope([(e, r) for p, (e, r, _) in pol.items() if family(p, known) == f])


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
    ap.add_argument("--hindsight", help="a reference family (oracle:hindsight): each family's curve as a multiple of its "
                    "curve at the baseline points, the learning regret")
    ap.add_argument("--csv", help="read this `bench --per user --format csv` output instead of running bench")
    ap.add_argument("logs", nargs="*")
    a = ap.parse_args()
    fams, bases = a.families.split(","), a.baselines.split(",")
    refs = [a.hindsight] if a.hindsight else []
    known = fams + bases + refs
    extra = [a.default] if a.default else []
    cmd = [a.bin, "bench", *a.logs, "--scenario", a.scenario, "--policies", ",".join(extra + ["oracle", "oracle:opens"]),
           "--frontier", "--sweep", ",".join(dict.fromkeys(fams + bases + refs)), "--format", "csv", "--per", "user"]
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
            fc = curve(pol, f, known)
            for b in bases:
                ratios = [read(fc, e) / r for p, (e, r, _) in pol.items()
                          if family(p, known) == b and r > 0 and a.least_share * budget <= e <= a.budget_share * budget]
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
            fc = curve(pol, f, known)
            e, r, _ = pol["oracle:opens"]
            v = read(fc, e) / r if r > 0 else float("nan")
            cells.append(f"{v:.2f}")
            fig[f"{f}@oracle:opens"] = v
        if a.hindsight:
            ref = curve(pol, a.hindsight, known)
            for f in fams:
                fc = curve(pol, f, known)
                ratios = [read(fc, e) / read(ref, e) for p, (e, r, _) in pol.items() if family(p, known) in bases
                          and r > 0 and read(ref, e) > 0 and a.least_share * budget <= e <= a.budget_share * budget]
                if ratios:
                    fig[f"{f}/{a.hindsight}#geo"] = math.exp(sum(math.log(max(1e-3, x)) for x in ratios) / len(ratios))
                    fig[f"{f}/{a.hindsight}#min"] = min(ratios)
        print(f"| {u} | {days} | " + " | ".join(cells) + " |")
        figures["users"][u] = fig
    print("\nGeometric mean over each user's points, then the users' mean and the worst user's:")
    for key in sorted({k for u in users for k in figures["users"][u] if "/" in k and "#" not in k}):
        per = {u: figures["users"][u][key + "#geo"] for u in users if key + "#geo" in figures["users"][u]}
        if per:
            mean = math.exp(sum(math.log(v) for v in per.values()) / len(per))
            w = min(per, key=per.get)
            print(f"  {key}: {mean:.3f} (worst {per[w]:.3f}, {w})")
    if a.hindsight:
        print(f"\nEach family's curve as a multiple of {a.hindsight}'s at the baseline points (the learning regret), "
              "per user: geometric mean (lowest)")
        for f in fams:
            key = f"{f}/{a.hindsight}"
            per = {u: figures["users"][u][key + "#geo"] for u in users if key + "#geo" in figures["users"][u]}
            if per:
                mean = math.exp(sum(math.log(v) for v in per.values()) / len(per))
                cells = ", ".join(f"{u} {per[u]:.3f} ({figures['users'][u][key + '#min']:.2f})" for u in sorted(per))
                print(f"  {key}: {mean:.3f} over users; {cells}")
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
