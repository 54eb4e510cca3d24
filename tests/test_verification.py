import json

from deid_core.cli.main import main
from deid_core.config import AnonymizerConfig
from deid_core.keys import StudyKey
from deid_core.verification import collision_rate, verify


def test_collision_rate_counts_every_value_sharing_a_surrogate():
    assert collision_rate({"a": "x", "b": "x", "c": "y", "d": "z"}) == 50.0
    assert collision_rate({"a": "x", "b": "y"}) == 0.0


def test_ff3_1_mode_meets_the_same_guarantees():
    rows = verify(
        StudyKey.generate("v"),
        StudyKey.generate("v"),
        config=AnonymizerConfig(fpe_mode="ff3-1"),
        n=200,
        name_counts=(500,),
        short_id_lengths=(3,),
    )
    failed = [(r.property, r.result) for r in rows if not r.passed]
    assert not failed


def test_verify_anonymizer_json_meets_every_target(capsys):
    assert main(["verify-anonymizer", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {r["property"]: r for r in report["rows"]}
    for prop in ("Determinism (same key)", "Remapping (rotated key)", "Cross-note consistency", "Interval preservation"):
        assert rows[prop]["result"] == 100.0
    for digits in (3, 4, 5, 8):
        assert rows[f"ID collisions, {digits} digits"]["result"] == 0.0
    assert rows["ID collisions, 5 digits"]["n"] == 100_000
    assert rows["Name collisions, 20,000 names"]["result"] == 0.0
    assert rows["Name token collisions"]["result"] == 0.0 and rows["Name token collisions"]["n"] > 30_000
    assert rows["Same-note name clashes"]["result"] == 0.0
    assert rows["Name tokens mapped to themselves"]["result"] == 0.0
    styles = {r["style"]: r for r in report["date_styles"]}
    assert set(styles) == {"mm/dd/yyyy", "yyyy-mm-dd", "dd-Mon-yyyy", "Mon dd, yyyy", "Month d, yyyy"}
    assert all(r["interval"] == 100.0 and r["format_kept_shown"] == 100.0 and r["passed"] for r in styles.values())
