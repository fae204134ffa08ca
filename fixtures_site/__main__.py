"""``python -m fixtures_site serve [--portal NAME] [--port N]``."""

from __future__ import annotations

import argparse
import sys
import time

from fixtures_site.server import load_portals, serve_portals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fixtures_site")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the fixture portals on 127.0.0.1 until interrupted")
    serve.add_argument("--portal", action="append", help="portal name (repeatable; default: all)")
    serve.add_argument("--port", type=int, default=0, help="first port (default: free ports)")
    sub.add_parser("list", help="list the portals")
    args = parser.parse_args(argv)
    portals = load_portals(fault_injection=True)
    if args.command == "list":
        for name, portal in portals.items():
            print(f"{name}\t{portal.description}")
        return 0
    try:
        with serve_portals(args.portal, base_port=args.port) as sites:
            for name, running in sites.portals.items():
                print(f"{name} {running.url}/", flush=True)
            while True:
                time.sleep(3600)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
