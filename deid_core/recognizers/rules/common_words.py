"""Word classes that more than one unit consults.

``FUNCTION_WORDS`` ends a name and a place (names, place_cue);
``CLINICAL_ACRONYMS`` are short forms that are neither a facility nor a
name (names, facility); ``DRUG_SUFFIX`` and ``TITLE_BEFORE_NAME`` keep drugs
and people out of places and facilities; ``PLACE_TAILS`` end a place's name
(place_cue, address); ``FACILITY_TAILS`` end a facility's name (the completion of a name found in part,
organization); ``past_tense`` tells a verb after a name or a place (names, place_cue); ``ANIMAL_BEFORE`` makes
a name a pet's (names, and the check on the model's names).
"""

from __future__ import annotations

import re

from deid_core.recognizers.lexicon import rule_list

#: words that end a name even after a title ("Dr. and Mrs. ...", "Dr. Office")
FUNCTION_WORDS = rule_list("shared", "function_words")
#: clinical short forms that are no facility ("TRANSFER TO MICU") and no part of a name ("ED MD")
CLINICAL_ACRONYMS = rule_list("shared", "clinical_acronyms")
#: last words of a place's name: "saltmarsh point", "cobb hollow", "dunmore county", "MILLBURY FALLS"
PLACE_TAILS = rule_list("place_cues", "place_tail_words")
#: words that end a facility's name and begin nothing else: "BRYAN HEART", "UPMC PRESBYTERIAN", "baptist health"
FACILITY_TAILS = rule_list("shared", "facility_tails")
#: trades and public roles a note names people by ("FAMILY NOTIFIED BY SHERIFF", "RETIRED LOGGER"): no name where case
#: says nothing, and what may stand between a patient's age and where they come from
TRADES = rule_list("names", "public_roles")
#: the last words of a residence's name: "lives at quarry hill", "Bayou Teche Gardens"
RESIDENCE_TAILS = rule_list("facilities", "residence_tails")
#: the type words that name a regimen a patient is enrolled in, not a place ("MED ASSIST PROGRAM")
REGIMEN_TYPES = frozenset({"program", "programs", "programme"})
#: endings of drug names: "in Lasix" is no place, "my son paulo" but not "my son lisinopril"
DRUG_SUFFIX = re.compile(
    r"(?:pine|pril|olol|alol|statin|sartan|mab|nib|azole|cillin|mycin|floxacin|oxetine|azepam|zolam|parin|gliptin|gliflozin|triptan"
    r"|vir|dronate|lukast|tidine|prazole|caine|sone|olone|terol|formin|glutide|xaban|gatran|tropin|dipine|semide|thiazide|profen)$"
)
#: a title just before: what follows is a person, not a place or a facility
TITLE_BEFORE_NAME = re.compile(r"\b(?:Dr|Drs|Mr|Mrs|Ms|Miss|Prof)\.?[ \t]+$", re.IGNORECASE)
#: what a language follows: "prefers Kriolu", "SPEAKS TWI", "language: Tagalog" (names and the model's names)
LANGUAGE_BEFORE = re.compile(r"\b(?:prefers|preferred|speaks?|speaking|spoken|language|lang)[ \t]*:?[ \t]*$", re.IGNORECASE)
#: an animal just before: what follows is a pet's name, no person's ("photo of his dog sadie", "MARE NAMED SUGAR")
#: (names, and the model's names)
ANIMAL_BEFORE = re.compile(
    r"\b(?:dogs?|puppy|pup|cats?|kitten|horses?|mare|gelding|colt|filly|stallion|pony|pets?|parrot|bird|goat|mule|donkey)"
    r"(?:[ \t]+(?:named|called))?[ \t]*,?[ \t]*$",
    re.IGNORECASE,
)

#: irregular past tenses, and words in -ed that are no verb's past ("bed", "red", "shed")
PAST_VERBS = rule_list("names", "past_verbs")
_ED_NOT_PAST = rule_list("names", "ed_not_past")


def past_tense(word: str) -> bool:
    """A lower-case word that reads as a verb's past tense ("came", "changed"; not "bed" or "red")."""
    return word in PAST_VERBS or (word.endswith("ed") and len(word) > 4 and word not in _ED_NOT_PAST)
