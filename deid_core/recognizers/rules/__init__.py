"""The rule units: one table of every rule recognizer the ``rules`` kind can run.

Each unit is named in ``[detect] recognizers``; that list chooses which units
run and in which order, and a unit left out of it is switched off.  A unit's
code is ``module``, its word lists (if any) are the ``.txt`` files under
``deid_core/data/rules/<data>/``, and its tests are ``tests/rules/test_<name>.py``.
docs/detection.md ("Rule units") shows the same table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from deid_core.recognizers.base import Recognizer
from deid_core.recognizers.gazetteer import GazetteerRecognizer, GazetteerResources
from deid_core.recognizers.rules.addresses import LocationPatternRecognizer
from deid_core.recognizers.rules.ages import age_recognizer
from deid_core.recognizers.rules.dates import DateRecognizer
from deid_core.recognizers.rules.facilities import FacilityRecognizer
from deid_core.recognizers.rules.ids import id_recognizer
from deid_core.recognizers.rules.names import NameRecognizer
from deid_core.recognizers.rules.organizations import OrganizationRecognizer
from deid_core.recognizers.rules.phones import phone_recognizer
from deid_core.recognizers.rules.place_cues import PlaceCueRecognizer
from deid_core.recognizers.rules.web import web_recognizer
from deid_core.recognizers.tables import TableColumnRecognizer


@dataclass(frozen=True)
class RuleUnit:
    """One rule recognizer as ``[detect] recognizers`` names it."""

    name: str
    #: builds the recognizer; units that consult the name and place lists share the pipeline's resources
    build: Callable[[GazetteerResources], Recognizer]
    finds: str
    module: str
    #: folder of its word lists under ``deid_core/data/rules/``; None: the unit has none of its own
    data: str | None = None


#: every unit, in the default order: shapes first, then lists, then context
RULE_UNITS: dict[str, RuleUnit] = {
    u.name: u
    for u in (
        RuleUnit("date", lambda res: DateRecognizer(), "calendar dates, yearless dates after a cue, holidays", "rules/dates.py", "dates"),
        RuleUnit("age", lambda res: age_recognizer(), "ages with a unit, after a cue or against the sex", "rules/ages.py"),
        RuleUnit("phone", lambda res: phone_recognizer(), "telephone, fax and pager numbers", "rules/phones.py"),
        RuleUnit("id", lambda res: id_recognizer(), "record, account, device and licence numbers, SSNs", "rules/ids.py", "ids"),
        RuleUnit("web", lambda res: web_recognizer(), "e-mail addresses, URLs, IP addresses, user names", "rules/web.py"),
        RuleUnit("address", lambda res: LocationPatternRecognizer(res.lexicon), "street addresses, cities with a state, postcodes, rooms", "rules/addresses.py", "addresses"),
        RuleUnit("gazetteer", GazetteerRecognizer, "names, places and facilities from the shipped and site lists", "gazetteer.py"),
        RuleUnit("facility", FacilityRecognizer, "facility names with their type words, chain stores", "rules/facilities.py", "facilities"),
        RuleUnit("place_cue", PlaceCueRecognizer, "towns after lives in, moved from, born in", "rules/place_cues.py", "place_cues"),
        RuleUnit("organization", OrganizationRecognizer, "congregations by name, employers after a cue of work", "rules/organizations.py", "organizations"),
        RuleUnit("names", NameRecognizer, "PATIENT and DOCTOR names from cues and the name lists", "rules/names.py", "names"),
        RuleUnit("table", lambda res: TableColumnRecognizer(), "names in a table column headed by a role", "tables.py"),
    )
}
#: the unit names, in the order they run by default
RULE_NAMES: tuple[str, ...] = tuple(RULE_UNITS)
