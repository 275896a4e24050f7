"""Per-action cost against script length and installed plugins (should stay flat).

    python bench/scaling.py [--deals N] [--runs R]

Plays fantan/pagat three ways side by side, alternating within each run: as
shipped; with a rule script padded by 300 extra statements and if-blocks; and
with 50 extra plugins listening to deal events. Reports actions/s medians and
the ratios to the plain run (1.0 = no slowdown).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from tapete import build_registry, load_variant

sys.path.insert(0, str(Path(__file__).parent))
from actions import _Idle, play_deals


def padded_variant(reg, folder: Path):
    lines = []
    for i in range(100):
        lines.append(f"if wins_to > {i % 7} {{\n  see hand own\n}} else {{\n  see row all\n}}")
        lines.append(f"see row all   # padding {i}")
    (folder / "pad.rules").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "pad.yaml").write_text("extends: fantan/pagat\nname: pad\nscripts: [pad.rules]\n", encoding="utf-8")
    return load_variant(folder / "pad.yaml", reg)


def main(argv=None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args(argv)
    plain_reg = build_registry()
    many_reg = build_registry([_Idle() for _ in range(50)])
    with tempfile.TemporaryDirectory() as tmp:
        setups = {
            "plain": load_variant("fantan/pagat", plain_reg),
            "script_padded_300": padded_variant(plain_reg, Path(tmp)),
            "plugins_50": load_variant("fantan/pagat", many_reg),
        }
        rates = {k: [] for k in setups}
        for r in range(args.runs):
            for k, v in setups.items():
                actions, seconds = play_deals(v, 4, args.deals, seed=r)
                rates[k].append(actions / seconds)
    med = {k: statistics.median(v) for k, v in rates.items()}
    json.dump(
        {
            "actions_per_second_median": {k: round(v) for k, v in med.items()},
            "ratio_to_plain": {k: round(v / med["plain"], 3) for k, v in med.items()},
        },
        sys.stdout,
        indent=2,
    )
    print()


if __name__ == "__main__":
    main()
