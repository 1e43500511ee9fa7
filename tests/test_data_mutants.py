"""The data mutation audit's tool (tests/data_mutants.py): it must make the mutants it says it
makes, hand them to the test process, and tell a killed mutant from a refused one."""

from __future__ import annotations

import copy

import yaml

from aoi_env.data import DATA_DIR
from tests import data_mutants as m


def _components() -> dict:
    return yaml.safe_load((DATA_DIR / "components.yaml").read_text(encoding="utf-8"))


def test_mutants_cover_every_number_flag_and_component_part() -> None:
    """Each integer gets a + 1 (a 1 also a 1 -> 0), each component part a deletion; the shipped
    data is left as it was by ``apply``."""
    raw = _components()
    found = {(tuple(path), what) for path, what, _ in m.mutants(raw)}
    assert (("palace_tiles", 17, "once", "vp"), "10 -> 11") in found
    assert (("palace_tiles", 6, "income", "books"), "1 -> 0") in found
    assert (("palace_tiles", 6, "income"), "deleted") in found
    assert (("palace_tiles", 6), "deleted") not in found  # a whole component is a table row, not a part
    before = copy.deepcopy(raw)
    out = m.apply(raw, ("palace_tiles", 6, "income"), m.DELETE)
    assert raw == before and "income" not in out["palace_tiles"][6]
    assert m.apply(raw, ("palace_tiles", 17, "once", "vp"), 11)["palace_tiles"][17]["once"]["vp"] == 11
    assert [m.kind(w) for w in ("10 -> 11", "1 -> 0", "deleted", "True -> False")] == ["plus", "off", "delete", "plus"]


def test_a_mutant_reaches_the_test_process_and_a_refused_one_is_named() -> None:
    """Palace 17's 10 VP raised to 11 fails its test in the child process (so the mutant was
    loaded there), the shipped data passes it, and a schema the loader refuses is reported as
    refused without running tests."""
    test = ["tests/components/test_palace_tiles.py::test_r137_palace17_gives_10_vp"]
    mutant = {"file": "components.yaml", "path": ["palace_tiles", 17, "once", "vp"], "value": 11}
    assert m.run_tests(mutant, test) == test
    assert m.run_tests({**mutant, "value": 10}, test) == []
    assert m.loads({"file": "components.yaml", "path": ["schema_version"], "value": 2}).startswith("DataError")
    assert m.loads(mutant) == ""


def test_tests_option_names_paths_or_a_data_files_own_tests() -> None:
    """``--tests components maps`` runs the component and rule tests plus the board's on a maps
    mutant (the twenty-third session's audit); a path stays a path; ``audit`` runs the tests it
    is given instead of the file's own."""
    both = m.selected_tests(["components", "maps"])
    assert both == m.BEHAVIOUR_TESTS["components.yaml"] + m.BEHAVIOUR_TESTS["maps.yaml"]
    assert "tests/components" in both and "tests/test_board.py" in both
    assert m.selected_tests(["tests/test_board.py"]) == ["tests/test_board.py"]
    test = ["tests/components/test_palace_tiles.py::test_r137_palace17_gives_10_vp"]
    mutant = {"file": "components.yaml", "path": ["palace_tiles", 17, "once", "vp"], "value": 11}
    assert m.audit(mutant, oracles=False, tests=test)["behaviour"] == test
