import json
import os
import stat

import pytest

from deid_core.cli.main import main
from deid_core.keys import KeyFileError, Purpose, StudyKey


def test_keygen_writes_0600_file_and_refuses_overwrite(tmp_path, capsys):
    path = tmp_path / "s.key"
    assert main(["keygen", "--study", "s1", "--out", str(path)]) == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    first = path.read_bytes()
    assert main(["keygen", "--study", "s1", "--out", str(path)]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert path.read_bytes() == first


def test_key_file_round_trips_and_records_id(tmp_path):
    key = StudyKey.generate("s1")
    path = tmp_path / "k.json"
    key.write(path)
    loaded = StudyKey.read(path)
    assert loaded.key_id == key.key_id
    assert loaded.subkey(Purpose.DATES) == key.subkey(Purpose.DATES)
    raw = json.loads(path.read_text())
    assert len(bytes.fromhex(raw["salt"])) == 32 and len(bytes.fromhex(raw["key"])) == 32


def test_generated_keys_are_random():
    a, b = StudyKey.generate("s"), StudyKey.generate("s")
    assert a.salt != b.salt and a.key != b.key and a.key_id != b.key_id


def test_world_readable_key_file_is_refused(tmp_path):
    path = tmp_path / "k.json"
    StudyKey.generate("s").write(path)
    os.chmod(path, 0o644)
    with pytest.raises(KeyFileError, match="readable by other users"):
        StudyKey.read(path)


def test_tampered_key_file_is_refused(tmp_path):
    path = tmp_path / "k.json"
    StudyKey.generate("s").write(path)
    raw = json.loads(path.read_text())
    raw["key"] = "00" * 32
    path.write_text(json.dumps(raw))
    os.chmod(path, 0o600)
    with pytest.raises(KeyFileError, match="does not match"):
        StudyKey.read(path)


def test_subkeys_differ_per_purpose_and_need_both_salt_and_key():
    key = StudyKey.generate("s")
    purposes = [v for k, v in vars(Purpose).items() if k.isupper()]
    subkeys = {key.subkey(p) for p in purposes}
    assert len(subkeys) == len(purposes)
    same_key_other_salt = StudyKey("s", salt=bytes(32), key=key.key)
    same_salt_other_key = StudyKey("s", salt=key.salt, key=bytes(32))
    assert same_key_other_salt.subkey(Purpose.NAMES) != key.subkey(Purpose.NAMES)
    assert same_salt_other_key.subkey(Purpose.NAMES) != key.subkey(Purpose.NAMES)


def test_repr_never_shows_material():
    key = StudyKey.generate("s")
    text = repr(key) + str(key)
    assert key.key.hex() not in text and key.salt.hex() not in text
