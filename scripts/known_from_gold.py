"""Write the known-identifier file a warehouse would hold for a hand-written gold set.

    python scripts/known_from_gold.py eval/heldout/set_b.jsonl   # writes eval/heldout/set_b.known.jsonl

Per patient id, from the gold spans of that patient's notes:

* names: the people marked PATIENT, grouped into persons by their name
  tokens; the person named after a header label (``Patient:``, ``Pt:``,
  ``RE:``), else the one mentioned most often, is the patient (``names``,
  with a preferred name written after "goes by"), the others are next of
  kin and contacts (``relatives``).  Each person is written once, in their
  longest written form, titles dropped;
* ids: identifiers written after a record label (MRN, SSN, account,
  insurance, member, NHS and health-card numbers), not run, order or
  device numbers, which a patient record does not hold;
* dates: dates written after a date-of-birth label;
* phones: numbers of the patient or a relative (after home, cell, mobile,
  a relation word or the patient), not those of a clinic, pager or fax;
* addresses: street addresses after a home or pickup label.

The result is a draft to review by hand before it is committed: the
heuristics above are about labels, and a hand-written note may label
things in ways they do not know.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deid_core.known import KnownPatient, write_known  # noqa: E402
from deid_core.recognizers.known import fold  # noqa: E402

_TOKEN = re.compile(r"[^\W\d_]{2,}(?:['’-][^\W\d_]+)*")
_TITLES = re.compile(r"^(?:mr|mrs|ms|miss|mx|dr|sr|sra)\.?\s+", re.I)
_ID_LABEL = re.compile(
    r"(?:MRN|MR#|MR\s*No|medical record|record|SSN|social|acct|account|insurance|member|policy|medicaid|medicare|NHS|"
    r"health ?card|HCN|patient id|pt id|chart|hospital (?:no|number)|unit (?:no|number)|NHI|CHI|PPS|subscriber)"
    r"[^\n]{0,25}$",
    re.I,
)
_DOB_LABEL = re.compile(r"(?:DOB|D\.O\.B\.?|date of birth|born|birth ?date|geb\.?)[^\n]{0,15}$", re.I)
_PHONE_OWN = re.compile(
    r"(?:home|cell|mobile|mob|tel|contact|pt|patient|wife|husband|son|daughter|mother|father|mom|dad|sister|brother|"
    r"partner|niece|nephew|guardian|caregiver|kin|friend|neighbou?r|aunt|uncle|grand\w*)[^\n]{0,30}$",
    re.I,
)
_PHONE_NOT_OWN = re.compile(r"(?:fax|pager|page|office|clinic|dr\.?|desk|nurse|station|ward|unit|line|pharmacy|ext)[^\n]{0,20}$", re.I)
_HEADER_LABEL = re.compile(r"(?:^|\n)[^\n]{0,40}?\b(?:patient|pt|pt name|name|re|candidate|veteran|client)\s*:\s*$", re.I)
_GOES_BY = re.compile(r"(?:goes by|prefers|preferred name|known as)[^\n]{0,12}$", re.I)
_HOME_LABEL = re.compile(r"(?:address|addr|lives|home|residence|pickup|pick-up|resides|res\.?)[^\n]{0,25}$", re.I)


def _tokens(text: str) -> frozenset[str]:
    return frozenset(fold(t) for t in _TOKEN.findall(text))


def _persons(forms: Counter[str], headed: set[str]) -> list[str]:
    """The longest form of each person; the patient (named after a header label, else most mentioned) first."""
    people: list[dict] = []
    for form in sorted(forms, key=lambda f: (-len(_tokens(f)), -len(f))):
        toks = _tokens(form)
        if not toks:
            continue
        home = next((p for p in people if toks <= p["tokens"]), None)
        if home is None:
            people.append({"form": form, "tokens": set(toks), "mentions": forms[form], "headed": form in headed})
        else:
            home["mentions"] += forms[form]
            home["headed"] |= form in headed
    people.sort(key=lambda p: (not p["headed"], -p["mentions"]))
    return [p["form"] for p in people]


def known_from_gold(rows: list[dict]) -> list[KnownPatient]:
    by_patient: dict[str, dict] = {}
    for row in rows:
        pid, text = row.get("patient_id"), row["text"]
        if pid is None:
            continue
        got = by_patient.setdefault(
            pid, {"names": Counter(), "headed": set(), "nicknames": [], "ids": [], "dates": [], "phones": [], "addresses": []}
        )
        for s in row.get("spans", []):
            value = text[s["start"] : s["end"]]
            before = text[max(0, s["start"] - 60) : s["start"]]
            label = s["label"]
            if label == "PATIENT":
                form = _TITLES.sub("", value.strip())
                if _GOES_BY.search(before):
                    got["nicknames"].append(form)  # a preferred name, which the record keeps beside the legal one
                    continue
                got["names"][form] += 1
                if _HEADER_LABEL.search(before):
                    got["headed"].add(form)
            elif label == "ID" and _ID_LABEL.search(before):
                got["ids"].append(value)
            elif label == "DATE" and _DOB_LABEL.search(before):
                got["dates"].append(value)
            elif label == "PHONE" and _PHONE_OWN.search(before) and not _PHONE_NOT_OWN.search(before[-25:]):
                got["phones"].append(value)
            elif label == "LOCATION" and re.match(r"\d", value) and _HOME_LABEL.search(before):
                got["addresses"].append(value.replace("\n", ", "))
    out: list[KnownPatient] = []
    for pid, got in by_patient.items():
        people = _persons(got["names"], got["headed"])
        out.append(
            KnownPatient(
                pid,
                names=tuple(dict.fromkeys(people[:1] + got["nicknames"])),
                relatives=tuple(people[1:]),
                ids=tuple(dict.fromkeys(got["ids"])),
                dates=tuple(dict.fromkeys(got["dates"])),
                phones=tuple(dict.fromkeys(got["phones"])),
                addresses=tuple(dict.fromkeys(got["addresses"])),
            )
        )
    return out


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    for name in argv:
        path = Path(name)
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        target = path.with_name(path.stem + ".known.jsonl")
        n = write_known(target, known_from_gold(rows))
        print(f"wrote the known identifiers of {n} patients to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
