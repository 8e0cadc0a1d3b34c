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
    "web": "bench.web",
    "traffic": "bench.traffic",
}


COMMON = """options every benchmark takes:
  --quick      a short run (under a minute)
  --json FILE  write the figures as JSON to FILE
"""


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark named in ``argv``. ``python -m bench <name> --help`` prints that
    benchmark's own options (and the two every one takes); ``python -m bench --help`` the list."""
    args_in = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__, add_help=False)
    parser.add_argument("name", nargs="?", choices=sorted(BENCHMARKS), help="which benchmark")
    parser.add_argument("--quick", action="store_true", help="a short run (under a minute)")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON to FILE")
    parser.add_argument("-h", "--help", action="store_true", help="show this help (with a name: that benchmark's)")
    args, rest = parser.parse_known_args(args_in)
    if args.name is None:
        if args.help:
            parser.print_help()
            return 0
        parser.error("name a benchmark")
    module = importlib.import_module(BENCHMARKS[args.name])
    if args.help:
        try:
            module.main(["--help"], quick=args.quick, json_path=None)
        except SystemExit as exc:  # argparse's help
            print(COMMON, end="")
            return int(exc.code or 0)
    code: int = module.main(rest, quick=args.quick, json_path=args.json)
    return code


if __name__ == "__main__":
    sys.exit(main())
