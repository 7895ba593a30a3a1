#!/usr/bin/env python3
"""Writes one user of a canonical log as the text of `adb shell dumpsys usagestats`.

    python3 Benchmarks/usagestats-dump.py big.csv user-0001 > dump.txt
    fetchsched import --from usagestats --user user-0001 --utc-offset +01:00 dump.txt --out back.csv

A phone-sized dump with what a real one carries around the opens: the launcher between apps,
pauses and stops, an app's second screen, the keyboard, the lock screen, configuration
changes, and the events printed again under an older Android's weekly section. Used to time
`import` and to check that a dump goes through `import` and `bench`. Standard library only.
"""
import csv
import random
import sys
from datetime import datetime, timedelta, timezone

LAUNCHER = "com.google.android.apps.nexuslauncher"
KEYBOARD = "com.google.android.inputmethod.latin"


def local(ts):
    t = datetime.fromisoformat(ts)
    return t, t.strftime("%Y-%m-%d %H:%M:%S")


def line(t, kind, package, cls=None, extra=""):
    _, text = local(t.isoformat()) if isinstance(t, datetime) else local(t)
    c = f" class={cls}" if cls else ""
    return f'    time="{text}" type={kind} package={package}{c}{extra} flags=0x0'


def main():
    path, user = sys.argv[1], sys.argv[2]
    rng = random.Random(7)
    out, current = [], None
    for row in csv.DictReader(open(path)):
        if row["user"] != user:
            continue
        t = datetime.fromisoformat(row["timestamp"])
        event, app = row["event"], row["app"]
        if event == "screen_on":
            out.append(line(t, "SCREEN_INTERACTIVE", "android"))
            out.append(line(t + timedelta(seconds=1), "KEYGUARD_HIDDEN", "android"))
        elif event == "screen_off":
            if current:
                out.append(line(t, "ACTIVITY_PAUSED", current, f"{current}.MainActivity"))
            out.append(line(t, "SCREEN_NON_INTERACTIVE", "android"))
            out.append(line(t, "KEYGUARD_SHOWN", "android"))
            current = None
        elif event == "open":
            if current:
                out.append(line(t - timedelta(seconds=3), "ACTIVITY_PAUSED", current, f"{current}.MainActivity"))
                out.append(line(t - timedelta(seconds=3), "ACTIVITY_RESUMED", LAUNCHER, f"{LAUNCHER}.NexusLauncherActivity"))
                out.append(line(t - timedelta(seconds=2), "ACTIVITY_STOPPED", current, f"{current}.MainActivity"))
            out.append(line(t, "ACTIVITY_RESUMED", app, f"{app}.MainActivity", f" instanceId={rng.randrange(1 << 20)} taskRootPackage={app}"))
            if rng.random() < 0.3:  # a second screen of the same app
                out.append(line(t + timedelta(seconds=4), "ACTIVITY_RESUMED", app, f"{app}.DetailActivity"))
            if rng.random() < 0.1:  # the keyboard over it
                out.append(line(t + timedelta(seconds=6), "ACTIVITY_RESUMED", KEYBOARD, "com.android.inputmethod.latin.LatinIME"))
                out.append(line(t + timedelta(seconds=9), "ACTIVITY_RESUMED", app, f"{app}.DetailActivity"))
            if rng.random() < 0.05:
                out.append(line(t + timedelta(seconds=5), "USER_INTERACTION", app))
            current = app
        if rng.random() < 0.01:
            out.append(line(t, "CONFIGURATION_CHANGE", "android", None, " config=en-rUS-ldltr-sw411dp-w411dp-h868dp-port"))
    print("user=0")
    print('Last 24 hour events (timeRange="all")')
    print("\n".join(out))
    print("In-memory daily stats")
    print('  timeRange="today"')
    print("  packages")
    print("In-memory weekly stats")
    print("  events")
    print("\n".join(out[-200:]))  # an older Android prints events again per interval


if __name__ == "__main__":
    main()
