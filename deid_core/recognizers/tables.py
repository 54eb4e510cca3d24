"""Table columns whose header names a role: staff, a patient, an identifier, a date.

Rosters, logs, invoices and exports put names and numbers in cells with no
cue beside them; the cue is the column's header ("Given by", "Vaccinator",
"Patient / MRN", "Emp ID").  :func:`table_cells` finds pipe- or tab-separated
tables (and comma-separated ones whose header and rows agree on the number
of fields), reads the role of each column from its header, and returns the
cells under a role header: the name recognizer types the names it finds in
them (or the name-shaped cells it missed) by their column, and
:class:`TableColumnRecognizer` reports the identifiers and the short dates
("10/01" under "Date") that have no year to show what they are.

A header cell may name two roles joined by a slash ("Patient / MRN"); its
cells are then split at " / " the same way.  Nothing is guessed from a
column without a role header.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from deid_core.recognizers.base import NoteContext, RuleRecognizer
from deid_core.recognizers.lexicon import CREDENTIALS, NAME_PARTICLES, alternation
from deid_core.spans import Category, Span

_STAFF = re.compile(
    r"\b(?:staff|provider|clinician|nurse|rn|lpn|md|np|physician|doctor|by|vaccinator|interpreter|translator|therapist"
    r"|tech|technician|technologist|author|signed|signature|attending|resident|pharmacist|caseworker|reviewer|verifier"
    r"|witness|entered|administered|given|performed|collected|ordering|prescriber|counsell?or|coordinator|initials)\b",
    re.I,
)
_PERSON = re.compile(
    r"\b(?:patient|pt|name|client|member|resident|donor|recipient|participant|subject|guardian|parent|contact|caller"
    r"|student|employee|child|mother|father|insured)\b",
    re.I,
)
_IDENT = re.compile(r"\b(?:mrn|id|identifier|number|no|acct|account|policy|claim|specimen|accession|record)\b|#", re.I)
# numbers that are not identifiers (phones, lots, rooms, doses) and columns of times and amounts
_NO_ROLE = re.compile(
    r"\b(?:phone|tel|telephone|fax|pager|cell|mobile|ext|lot|room|rm|bed|dose|vial|step|qty|quantity|time|date|rate"
    r"|amount|total|cost|fee|price|count|score|page)\b|#[ \t]*of\b",
    re.I,
)
_DATE_HEAD = re.compile(r"^[ \t]*(?:date|dates|dos|edd|day|service[ \t]+date|visit[ \t]+date|date[ \t]+of[ \t]+\w+)[ \t]*$", re.I)
#: a date too short for the date patterns to be sure of: "10/01", "4/2", "12-03"
_SHORT_DATE_CELL = re.compile(r"^(?:1[0-2]|0?[1-9])[/-](?:3[01]|[12]\d|0?[1-9])$")
_SEPARATOR_ROW = re.compile(r"^[\s|:+-]*$")
_TRAILING_CREDENTIAL = re.compile(
    r"(?:,?[ \t]+(?:" + alternation(CREDENTIALS) + r"))+[ \t]*$"
)
# a name in a cell: capitalised words, initials, particles, "Last, First"
_NAME_WORD = r"(?:[A-Z][\w'’-]*\.?|[A-Z]\.|" + alternation(NAME_PARTICLES) + ")"
_NAME_CELL = re.compile(rf"^{_NAME_WORD}(?:(?:[ \t]+|,[ \t]*){_NAME_WORD}){{0,4}}$")
# a header cell is a short label ("Given by", "Vial 1 (mL/arm)", "Patient / MRN", "Lot #"), not data or prose
_LABEL_CELL = re.compile(r"^(?=.{1,32}$)(?=[^A-Za-z]*[A-Za-z])[\w#()/&.' -]+$")
_INITIALS = re.compile(r"^[A-Z]{2,3}$")
_ID_CELL = re.compile(r"^(?=[\w/.-]*\d{3})[A-Za-z0-9][\w/.-]{2,30}$")


@dataclass(frozen=True, slots=True)
class Cell:
    """The trimmed content ``[start, end)`` of one cell under a header of ``role``."""

    start: int
    end: int
    role: Category


def _roles(header: str) -> list[Category | None]:
    """One role per slash-separated part of a header cell ("Patient / MRN")."""
    out: list[Category | None] = []
    for part in header.split("/"):
        if _DATE_HEAD.search(part):
            out.append(Category.DATE)
        elif _NO_ROLE.search(part):
            out.append(None)
        elif _IDENT.search(part):
            out.append(Category.ID)
        elif _STAFF.search(part):
            out.append(Category.DOCTOR)
        elif _PERSON.search(part):
            out.append(Category.PATIENT)
        else:
            out.append(None)
    return out


def _split(line: str, offset: int, sep: str) -> list[tuple[int, int]]:
    """Field boundaries of one row, outer pipes dropped, each trimmed."""
    bounds, pos = [], 0
    for field in line.split(sep):
        start, end = pos, pos + len(field)
        pos = end + len(sep)
        lead = len(field) - len(field.lstrip())
        trail = len(field.rstrip())
        bounds.append((offset + start + lead, offset + start + max(lead, trail)))
    if sep == "|":
        if bounds and bounds[0][0] == bounds[0][1]:
            bounds = bounds[1:]
        if bounds and bounds[-1][0] == bounds[-1][1]:
            bounds = bounds[:-1]
    return bounds


def _separator(line: str) -> str | None:
    if line.count("|") >= 2:
        return "|"
    if line.count("\t") >= 2:
        return "\t"
    if line.count(",") >= 2:
        return ","
    return None


@lru_cache(maxsize=64)
def table_cells(text: str) -> tuple[Cell, ...]:
    """Cells under role headers, for every table in ``text``."""
    lines, pos = [], 0
    for line in text.split("\n"):
        lines.append((pos, line))
        pos += len(line) + 1
    out: list[Cell] = []
    i = 0
    while i < len(lines):
        offset, line = lines[i]
        sep = _separator(line)
        if sep is None:
            i += 1
            continue
        first = i
        i += 1
        while i < len(lines) and _separator(lines[i][1]) == sep:
            i += 1
        header = _split(line, offset, sep)
        roles = [_roles(text[a:b]) for a, b in header]
        # a header is the first row of its block, has three columns or more (two are a
        # key-value list, whose keys are no header), one of them a role, and only labels
        if len(header) < 3 or not any(r for parts in roles for r in parts) or not all(
            _LABEL_CELL.match(text[a:b]) for a, b in header
        ):
            continue
        for k in range(first + 1, i):
            row_offset, row = lines[k]
            if _SEPARATOR_ROW.match(row):
                continue
            fields = _split(row, row_offset, sep)
            if len(fields) != len(header) and not (sep == "|" and abs(len(fields) - len(header)) <= 1):
                if sep == ",":
                    i = k + 1  # a comma list that does not keep the header's shape is prose
                    break
                continue
            for (a, b), parts in zip(fields, roles):
                out.extend(_cells(text, a, b, parts))
    return tuple(out)


#: a column header naming a pair of readings: "Ears R/L", "Pupils OD/OS", "BP sys/dia"
_PAIRED_HEAD = re.compile(r"(?<![\w/])[A-Za-z]{1,3}/[A-Za-z]{1,3}(?![\w/])")
#: ... unless the header says the column holds dates ("D/C date")
_DATE_WORD = re.compile(r"\b(?:dates?|dos|edd|days?)\b", re.I)


def in_paired_column(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` a whole cell under a header naming a pair of readings (``Ears R/L | 2/1``), not a date?
    Only pipe and tab tables count: a line of prose with two commas is no row."""
    header = _column_header(text, start, end, ("|", "\t"))
    return bool(header) and bool(_PAIRED_HEAD.search(header)) and not _DATE_WORD.search(header)


def _column_header(text: str, start: int, end: int, separators: tuple[str, ...]) -> str | None:
    """The header of the table, split by one of ``separators``, whose column has ``text[start:end]`` as a whole cell."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    sep = _separator(line)
    if sep not in separators:
        return None
    column = next((k for k, (a, b) in enumerate(_split(line, line_start, sep)) if (a, b) == (start, end)), None)
    if column is None:
        return None
    header_start = line_start
    while header_start > 0:
        prev_start = text.rfind("\n", 0, header_start - 1) + 1
        if _separator(text[prev_start : header_start - 1]) != sep:
            break
        header_start = prev_start
    header_end = text.find("\n", header_start)
    header = _split(text[header_start : header_end if header_end >= 0 else len(text)], header_start, sep)
    if header_start == line_start or column >= len(header):
        return None
    a, b = header[column]
    return text[a:b]


def _cells(text: str, a: int, b: int, parts: list[Category | None]) -> Iterable[Cell]:
    pieces = [(a, b)]
    if len(parts) > 1:
        value = text[a:b]
        chunks = value.split(" / ")
        if len(chunks) != len(parts):
            return []
        pieces, pos = [], a
        for chunk in chunks:
            pieces.append((pos, pos + len(chunk)))
            pos += len(chunk) + 3
    out = []
    for (s, e), role in zip(pieces, parts):
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if role is not None and e > s:
            out.append(Cell(s, e, role))
    return out


def name_in_cell(text: str, cell: Cell) -> tuple[int, int] | None:
    """The name a staff or patient cell holds, its credentials left out, or None."""
    value = text[cell.start : cell.end]
    cred = _TRAILING_CREDENTIAL.search(value)
    if cred and cred.start() > 0:
        value = value[: cred.start()]
    value = value.rstrip(" ,")
    if not value:
        return None
    if _NAME_CELL.match(value) or (cell.role is Category.DOCTOR and _INITIALS.match(value)):
        return cell.start, cell.start + len(value)
    return None


class TableColumnRecognizer(RuleRecognizer):
    """Identifiers and short dates in the cells of a column headed as one ("MRN", "Patient / MRN", "Date")."""

    name = "table"
    version = "2"
    categories = frozenset({Category.ID, Category.DATE})

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        out = []
        for c in table_cells(text):
            value = text[c.start : c.end]
            if c.role is Category.ID and _ID_CELL.match(value):
                out.append(Span(c.start, c.end, Category.ID, 0.85, "table/id_column"))
            elif c.role is Category.DATE and _SHORT_DATE_CELL.match(value):
                out.append(Span(c.start, c.end, Category.DATE, 0.8, "table/date_column"))
        return out
