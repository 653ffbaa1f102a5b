#!/usr/bin/env python3
"""Play whole matches on an Arbiter server with a bot's decide() function.

    python3 play.py --server 127.0.0.1:7000 --ruleset tae --name alice --password pw \
        --games 1 [--house-bot random] [--queue] [--tournament ID] [--bot mybot.py]

Prints one line per game; exits 0 when every game ended with an outcome and your
seat was not ejected, 1 otherwise.
"""

import argparse
import importlib.util
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arbiter_kit import ArbiterError, Client, ConnectionLost  # noqa: E402


BOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bots")


def kit_rulesets():
    """The rulesets the kit has a bot for: bots/<ruleset>.py."""
    return sorted(name[:-3] for name in os.listdir(BOTS) if name.endswith(".py") and not name.startswith("_"))


def load_bot(path):
    """A bot file defines decide(view, legal, prompt), and optionally fallback(...)."""
    if not os.path.isfile(path):
        sys.exit(f"no bot file {path}: pass one with --bot FILE (the kit has bots for "
                 f"{', '.join(kit_rulesets())})")
    spec = importlib.util.spec_from_file_location("bot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.decide, getattr(module, "fallback", None)


def address(text, default_port):
    host, _, port = text.rpartition(":")
    return (host or "127.0.0.1"), int(port or default_port)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", default="127.0.0.1:7000", help="native TCP address (HOST:PORT)")
    p.add_argument("--http", help="HTTP address, to read the outcome of a match that ended while disconnected")
    p.add_argument("--ruleset", required=True, help="the kit has bots for " + ", ".join(kit_rulesets()))
    p.add_argument("--name", required=True)
    p.add_argument("--password", required=True)
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--house-bot", default="random", help="house bot filling the table's other seats")
    p.add_argument("--queue", action="store_true", help="join the matchmaking queue instead of a table")
    p.add_argument("--tournament", type=int, help="enter tournament ID (or come back to it) and play its games until it ends")
    p.add_argument("--wait", type=float, help="seconds to wait for a game to start (queue: default 600; tournament: until it ends)")
    p.add_argument("--reconnect-for", type=float, default=120.0,
                   help="seconds to keep trying to reconnect after a lost connection (default 120)")
    p.add_argument("--seats", type=int, help="seats per match (default: the ruleset's smallest >= 2)")
    p.add_argument("--config", help="the ruleset's configuration, as JSON (missing fields default)")
    p.add_argument("--deadline-ms", type=int, help="table only: time per decision")
    p.add_argument("--bot", help="bot file (default: bots/<ruleset>.py)")
    p.add_argument("--drop-after", type=int, help="testing: drop the connection after N answers, once per game")
    p.add_argument("-v", "--verbose", action="store_true", help="print every message")
    args = p.parse_args()

    decide, fallback = load_bot(args.bot or os.path.join(BOTS, args.ruleset + ".py"))
    host, port = address(args.server, 7000)
    config = json.loads(args.config) if args.config else None
    client = Client(host, port, args.name, args.password, http=args.http, verbose=args.verbose,
                    reconnect_for=args.reconnect_for)
    try:
        client.connect()
    except (OSError, ConnectionLost, ArbiterError) as e:
        print("cannot log in to %s: %s" % (args.server, e))
        return 1

    if args.tournament is not None:
        return play_tournament(client, args, decide, fallback)

    failures = 0
    for game in range(1, args.games + 1):
        started = time.monotonic()
        try:
            if args.queue:
                match = client.queue(args.ruleset, config=config, seats=args.seats,
                                     timeout=600.0 if args.wait is None else args.wait)
            else:
                match = client.create_table(args.ruleset, seats=args.seats or 2, house_bot=args.house_bot,
                                            config=config, deadline_ms=args.deadline_ms)
            client.drop_after = args.drop_after
            result = client.play(match, decide, fallback)
            line = result.line()
            ok = result.ok
        except (OSError, ConnectionLost, ArbiterError) as e:
            line, ok = "failed after %.1f s: %s" % (time.monotonic() - started, e), False
        failures += 0 if ok else 1
        print("game %d/%d: %s %s" % (game, args.games, "ok" if ok else "FAILED", line), flush=True)
    return 0 if failures == 0 else 1


def play_tournament(client, args, decide, fallback):
    """Play every game the tournament pairs us in, one line each, until it ends."""
    failures = games = 0
    started = time.monotonic()
    try:
        while True:
            match = client.tournament_game(args.tournament, timeout=args.wait)
            if match is None:
                break
            games += 1
            client.drop_after = args.drop_after
            result = client.play(match, decide, fallback)
            failures += 0 if result.ok else 1
            print("game %d (tournament %d): %s %s" % (games, args.tournament, "ok" if result.ok else "FAILED",
                                                      result.line()), flush=True)
    except (OSError, ConnectionLost, ArbiterError) as e:
        print("tournament %d: FAILED after %.1f s: %s" % (args.tournament, time.monotonic() - started, e))
        return 1
    print("tournament %d is over: %d games, %d failed" % (args.tournament, games, failures), flush=True)
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
