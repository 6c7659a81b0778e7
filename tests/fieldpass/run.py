#!/usr/bin/env python3
"""The field pass: seeded round trips and injection attempts against this checkout, as tables.

    python3 tests/fieldpass/run.py                       # everything: 2,500 round trips, every attempt
    python3 tests/fieldpass/run.py --trips 250 --seed 7  # fewer trips, another seed
    python3 tests/fieldpass/run.py --only inject --quick # two payloads per channel
    python3 tests/fieldpass/run.py --only roundtrip --shells bash,tcsh --keep

Prints markdown tables (round trips per shell; injection attempts per channel and consumer;
bad inputs, when tests/fieldpass/badinput.py is there) and the failures with what to look at.
Exit status 1 when anything failed (a diff, an empty entry, an executed payload, a broken
attempt), 0 otherwise. A shell or tool that is not installed is named and skipped (under
CI=true it counts as a failure, as in the test suite).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fpcommon as fp  # noqa: E402


def _badinput():
    """tests/fieldpass/badinput.py (another part of the pass): ``run(seed, quick)`` and ``table(results)``."""
    try:
        import badinput
    except ImportError:
        return None
    return badinput


def _bad_failed(mod, results) -> bool:
    """Whether the bad-input part failed: its own ``failures(results)`` if it has one, else the results' fields."""
    if hasattr(mod, "failures"):
        return bool(mod.failures(results))
    return any(getattr(r, "ok", True) is False
               or str(getattr(r, "outcome", getattr(r, "status", ""))).lower() in ("fail", "failed", "executed",
                                                                                  "broken", "traceback")
               for r in results)



def _end_part(bad: list[str], missing, root) -> bool:
    """Print a part's failures and where its files were kept; True when the part failed."""
    if bad:
        print("\nFailures:\n\n```\n" + "\n".join(bad) + "\n```")
    if root:
        print(f"\n(kept {root})")
    print()
    return bool(bad) or bool(missing and fp.helpers.IN_CI)

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trips", type=int, default=2500, help="round trips in all (spread over the shells)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=["roundtrip", "inject", "badinput"])
    ap.add_argument("--quick", action="store_true", help="injection: two payloads per channel, one consumer each")
    ap.add_argument("--shells", default=",".join(fp.SHELLS), help="comma-separated (default: all five)")
    ap.add_argument("--channels", default=None, help="injection channels, comma-separated (default: all)")
    ap.add_argument("--jobs", type=int, default=1, help="shells run side by side in the round trips")
    ap.add_argument("--keep", action="store_true", help="keep the working directories (printed)")
    args = ap.parse_args(argv)
    shells = tuple(s for s in args.shells.split(",") if s)
    failed = False
    print(f"# cudaenv field pass (seed {args.seed})\n")

    if args.only in (None, "roundtrip"):
        import roundtrip

        root = fp.new_root() if args.keep else None
        t0 = time.time()
        results, missing = roundtrip.run(seed=args.seed, trips=args.trips, shells=shells, jobs=args.jobs, root=root,
                                         keep=args.keep)
        print(f"## Round trips ({time.time() - t0:.0f} s)\n")
        print(roundtrip.table(results, missing))
        if any(x.refusals for x in results):
            print("\nRefused switches (one stderr line, nothing on stdout, nothing changed; a trip counts as refused "
                  "when one of its three calls was), by cause and shell:\n")
            print(roundtrip.refusal_table(results))
        print("\nWhat the trips exercised:\n")
        print(roundtrip.coverage_table(results))
        failed = _end_part(roundtrip.failures(results), missing, root) or failed

    if args.only in (None, "inject"):
        import inject

        root = fp.new_root("cudaenv-fieldpass-inject-") if args.keep else None
        channels = tuple(args.channels.split(",")) if args.channels else inject.CHANNELS
        t0 = time.time()
        results, missing = inject.run(seed=args.seed, quick=args.quick, shells=shells, channels=channels, root=root,
                                      keep=args.keep)
        print(f"## Injection attempts ({time.time() - t0:.0f} s)\n")
        print(inject.summary(results))
        print("\nPer consumer:\n")
        print(inject.table(results, missing))
        why = inject.refusals(results)
        if why:
            print("\nRefusals, by channel and message [payloads]:\n")
            print("\n".join(f"- {w}" for w in why))
        failed = _end_part(inject.failures(results, limit=60), missing, root) or failed

    if args.only in (None, "badinput"):
        mod = _badinput()
        if mod is None:
            print("## Bad inputs\n\n(tests/fieldpass/badinput.py is not here: skipped)\n")
        else:
            t0 = time.time()
            results = mod.run(args.seed, args.quick)
            print(f"## Bad inputs ({time.time() - t0:.0f} s)\n")
            print(mod.table(results))
            if _bad_failed(mod, results):
                failed = True
                if hasattr(mod, "failures") and hasattr(mod, "describe"):
                    print("\nFailures:\n\n```\n" + "\n".join(mod.describe(r) for r in mod.failures(results)[:30])
                          + "\n```")
            print()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
