"""``python -m bench <name> [--quick] [--json FILE]``: run one benchmark, print its table."""

from __future__ import annotations

import argparse
import importlib
import sys

BENCHMARKS = {
    "ai": "bench.ai",
    "engines": "bench.engines",
    "exploit": "bench.exploit",
    "scale": "bench.scale",
    "service": "bench.service",
    "soak": "bench.soak",
    "tournament": "bench.tournament",
    "traffic": "bench.traffic",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("name", choices=sorted(BENCHMARKS), help="which benchmark")
    parser.add_argument("--quick", action="store_true", help="a short run (under a minute)")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON to FILE")
    args, rest = parser.parse_known_args(argv)
    module = importlib.import_module(BENCHMARKS[args.name])
    code: int = module.main(rest, quick=args.quick, json_path=args.json)
    return code


if __name__ == "__main__":
    sys.exit(main())
