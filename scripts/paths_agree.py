"""Do `deid run` and `deid detect` find the same spans?  One line per notes file and chunk size.

    python scripts/paths_agree.py [--chunk-sizes 1,8,100] [FILES...]

Without FILES: every notes file under eval/heldout and eval/dev.  The mix is
whatever both commands would use here (``DEID_DETECT_MIX`` or the default);
the command exits 1 when any note differs, and names the first few.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from deid_core.cli.main import main as deid

REPO = Path(__file__).resolve().parent.parent


def _spans(path: Path) -> dict[str, list[tuple[int, int, str]]]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if "spans" in row:
            out[row["id"]] = sorted((s["start"], s["end"], s["label"]) for s in row["spans"])
    return out


def notes_files() -> list[Path]:
    found = sorted((REPO / "eval" / "heldout").glob("*.jsonl")) + sorted((REPO / "eval" / "dev").glob("*.jsonl"))
    return [p for p in found if not p.name.endswith(".known.jsonl")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--chunk-sizes", default="1,8,100")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.chunk_sizes.split(",")]
    differing = 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        key = work / "k.key.json"
        deid(["keygen", "--study", "paths", "--out", str(key)])
        for notes in args.files or notes_files():
            if deid(["detect", "--in", str(notes), "--out", str(work / "d.jsonl")]) not in (0, 1):
                print(f"{notes}: deid detect failed", file=sys.stderr)
                return 2
            want = _spans(work / "d.jsonl")
            for size in sizes:
                deid(["run", "--in", str(notes), "--out", str(work / "o.jsonl"), "--key-file", str(key),
                      "--chunk-size", str(size), "--spans-out", str(work / "r.jsonl")])
                got = _spans(work / "r.jsonl")
                bad = sorted(n for n in want.keys() | got.keys() if want.get(n) != got.get(n))
                differing += len(bad)
                name = notes.relative_to(REPO) if notes.is_relative_to(REPO) else notes
                print(f"{name}  chunk {size:>3}: {len(want)} notes, {len(bad)} differ" + (f" ({', '.join(bad[:5])})" if bad else ""))
    print(f"notes whose spans differ between `deid run` and `deid detect`: {differing}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
