#!/usr/bin/env python3
"""Choose one constant by leave-one-user-out, from `frontier-by-user.py --json` runs, one per
candidate value: for each tuning user, the value that does best on the other tuning users, and
how that choice does on the user left out; users held apart are never used to choose and are
reported apart, as the check of the protocol.

Usage: scripts/leave-one-user-out.py --figure adaptive/counts#geo \
         --candidates 0=k0.json,4=k4.json ... [--apart nextapp-i,nextapp-t]

A figure is a key of the JSON's per-user objects (a geometric mean over a baseline's points,
`<family>/<baseline>#geo`, or a family's multiple at oracle:opens' energy); higher is better.

Candidates that are families of one run (a predictor under the one rule, say) name the family
after a colon, and `{}` in a figure stands for it:
  --figure '{}/counts#geo' --candidates habits=dev.json:adaptive,counts=dev.json:ev-counts
A candidate may join runs of several sources with `+` (dev.json+g1.json:adaptive); users are
then named source/user, and `--by-source` also leaves out one source at a time, each source
weighing as one fold whatever its number of users, and the value chosen on all sources so weighed.

`--incumbent V` applies the rule that decides (docs/metrics.md, "Choosing across users"): V, the
value in use, stays unless another leads it both on the mean and on the worst, of the sources
with `--by-source`, else of the tuning users.
"""
import argparse, json, math, sys


def gmean(xs):
    return math.exp(sum(math.log(max(1e-9, x)) for x in xs) / len(xs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--figure", required=True, action="append", help="higher is better; several are multiplied (geometric mean)")
    ap.add_argument("--candidates", required=True, help="value=file.json,...")
    ap.add_argument("--apart", default="", help="users held out of every choice, reported apart")
    ap.add_argument("--by-source", action="store_true", help="also leave out one source (a JSON file) at a time")
    ap.add_argument("--incumbent", help="the value in use: it stays unless another leads it both on the mean and on the worst "
                                        "(of the sources with --by-source, else of the tuning users); docs/metrics.md")
    a = ap.parse_args()
    runs, families = {}, {}
    for item in a.candidates.split(","):
        value, spec = item.split("=", 1)
        paths, _, families[value] = spec.partition(":")
        paths = paths.split("+")
        runs[value] = {}
        for path in paths:
            with open(path) as f:
                users = json.load(f)["users"]
            prefix = path.rsplit("/", 1)[-1].removesuffix(".json") + "/" if len(paths) > 1 else ""
            runs[value].update({prefix + u: row for u, row in users.items()})
    values = list(runs)
    users = sorted(set.intersection(*(set(r) for r in runs.values())))
    apart = [u for u in a.apart.split(",") if u]
    if any(u not in users for u in apart):
        sys.exit(f"--apart: no such user in every run: {', '.join(u for u in apart if u not in users)}")
    tuning = [u for u in users if u not in apart]
    if a.incumbent is not None and a.incumbent not in values:
        sys.exit(f"--incumbent: {a.incumbent} is not a candidate ({', '.join(values)})")

    def score(value, user):
        return gmean([runs[value][user][f.replace("{}", families[value] or value)] for f in a.figure])

    print(f"Figure: {' × '.join(a.figure)}; candidates {', '.join(values)}; {len(tuning)} tuning users, {len(apart)} held apart\n")
    print("| value | " + " | ".join(["mean over tuning users", "worst tuning user"] + [f"{u} (apart)" for u in apart]) + " |")
    print("|---|" + "---:|" * (2 + len(apart)))
    for v in values:
        per = [score(v, u) for u in tuning]
        print("| " + " | ".join([v, f"{gmean(per):.3f}", f"{min(per):.3f}"] + [f"{score(v, u):.3f}" for u in apart]) + " |")
    chosen, left_out = {}, []
    for u in tuning:
        others = [o for o in tuning if o != u]
        best = max(values, key=lambda v: gmean([score(v, o) for o in others]))
        chosen[best] = chosen.get(best, 0) + 1
        left_out.append(score(best, u))
    final = max(values, key=lambda v: gmean([score(v, o) for o in tuning]))
    print(f"\nLeft out in turn: the value chosen on the other tuning users, on the user left out: mean {gmean(left_out):.3f}, "
          f"worst {min(left_out):.3f}; chosen {', '.join(f'{v} ({n}×)' for v, n in chosen.items())}.")
    print(f"On all tuning users: {final}" + (f"; on the users held apart: " + ", ".join(f"{u} {score(final, u):.3f}" for u in apart)
                                             if apart else ""))
    units = {u: [u] for u in tuning}
    if a.by_source:
        sources = sorted({u.split("/", 1)[0] for u in tuning if "/" in u})
        if not sources:
            sys.exit("--by-source: the candidates name one source; join several with + (dev.json+g1.json:adaptive)")

        def source_score(v, s):
            return gmean([score(v, u) for u in tuning if u.startswith(s + "/")])
        print("\nBy source (the geometric mean over its tuning users):\n")
        print("| value | " + " | ".join(sources) + " |")
        print("|---|" + "---:|" * len(sources))
        for v in values:
            print(f"| {v} | " + " | ".join(f"{source_score(v, s):.3f}" for s in sources) + " |")
        picks = []
        for s in sources:
            best = max(values, key=lambda v: gmean([source_score(v, o) for o in sources if o != s]))
            picks.append(f"{s}: {best} ({source_score(best, s):.3f})")
        print("\nEach source left out in turn, the value chosen on the others and how it does there: " + "; ".join(picks) + ".")
        # Pooled by user, the source with the most users outvotes the rest (two generated
        # populations of 200 against a handful of real people); here each source is one vote.
        final = max(values, key=lambda v: gmean([source_score(v, s) for s in sources]))
        print(f"On all sources, each weighing as one: {final} (worst source {min(source_score(final, s) for s in sources):.3f}).")
        # Where the sources' mean barely tells two values apart, the one whose worst source is best.
        safest = max(values, key=lambda v: min(source_score(v, s) for s in sources))
        print(f"By the worst source: {safest} ({min(source_score(safest, s) for s in sources):.3f}; "
              f"on all sources {gmean([source_score(safest, s) for s in sources]):.3f}, against {final}'s "
              f"{gmean([source_score(final, s) for s in sources]):.3f}).")
        units = {s: [u for u in tuning if u.startswith(s + "/")] for s in sources}
    if a.incumbent is not None:
        choose(a.incumbent, values, units, score, "sources" if a.by_source else "tuning users")


def choose(incumbent, values, units, score, what):
    """The rule of docs/metrics.md, "Choosing across users": the value in use stays unless another
    leads it both on the mean over `units` (each weighing as one) and on the worst of them."""
    def unit(v, us):
        return gmean([score(v, u) for u in us])

    def mean(v):
        return gmean([unit(v, us) for us in units.values()])

    def worst(v):
        return min(unit(v, us) for us in units.values())
    rivals = [v for v in values if v != incumbent and mean(v) > mean(incumbent) and worst(v) > worst(incumbent)]
    chosen = max(rivals, key=mean) if rivals else incumbent
    head = f"\nThe choice ({incumbent} in use; a rival must lead it on the mean over the {what} and on the worst of them): "
    if chosen == incumbent:
        print(head + f"{incumbent} stays (mean {mean(incumbent):.3f}, worst {worst(incumbent):.3f}); the best rival by the mean, "
              f"{max((v for v in values if v != incumbent), key=mean, default=incumbent)}.")
    else:
        print(head + f"{chosen} (mean {mean(chosen):.3f}, worst {worst(chosen):.3f}; {incumbent} {mean(incumbent):.3f}, "
              f"{worst(incumbent):.3f}).")


if __name__ == "__main__":
    sys.exit(main())
