#!/usr/bin/env python3
"""readme_names_test.py can fail: a README with one wrong name of each kind
(path, config key in prose and in a YAML block, subcommand, flag, metric and
`_suffix` shorthand) beside the right ones must be refused, naming each wrong
name and none of the right ones.

Usage: readme_names_planted_test.py --source DIR --opticsd BIN
"""

import argparse
import os
import subprocess
import sys
import tempfile

README = """# planted

Right: `drivers/sample.hpp`, `poll.keep_stale_for`, `opticsd history --since 1h`,
`opticsd_target_up`, `opticsd_lane_rx_power_dbm`, `_tx_power_dbm`, `sample.hpp`.

Wrong: `drivers/no_such_file_planted.hpp`, `poll.keep_stale_forever`,
`opticsd history --sinse 1h`, `opticsd frobnicate`, `opticsd_target_upp`,
`opticsd_lane_rx_power_dbm` with `_rx_powder_dbm`, `planted_missing.cpp`.

```yaml
poll: {interval: 30s}
storage: {retension: 14d}
```
"""
WRONG = ["no_such_file_planted.hpp", "keep_stale_forever", "--sinse", "frobnicate", "opticsd_target_upp",
         "opticsd_lane_rx_powder_dbm", "planted_missing.cpp", "retension"]
RIGHT = ["drivers/sample.hpp`", "poll.keep_stale_for`", "--since", "opticsd_target_up`", "_tx_power_dbm",
         "`sample.hpp`"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--opticsd", required=True)
    args = parser.parse_args()
    checker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "readme_names_test.py")
    with tempfile.TemporaryDirectory() as tmp:
        readme = os.path.join(tmp, "README.md")
        with open(readme, "w") as f:
            f.write(README)
        run = subprocess.run([sys.executable, checker, "--source", args.source, "--opticsd", args.opticsd, readme],
                             capture_output=True, text=True, timeout=240)
    out = run.stdout + run.stderr
    print(out)
    problems = []
    if run.returncode != 1:
        problems.append(f"the checker exited {run.returncode}, expected 1")
    for name in WRONG:
        if name not in out:
            problems.append(f"the planted wrong name {name!r} was not refused")
    for name in RIGHT:
        if any(name in line for line in out.splitlines()):
            problems.append(f"the right name {name!r} was refused")
    if len([l for l in out.splitlines() if ": " in l and l.startswith(readme)]) != len(WRONG):
        problems.append(f"expected exactly {len(WRONG)} refusals")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
