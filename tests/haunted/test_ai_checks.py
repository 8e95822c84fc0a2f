"""Load tests, syntax checks, starter files and the team-list import (sessions below the UI)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.engines.haunted.ai.js_engine import parse_error
from studio.engines.haunted.maps import builtin_maps
from studio.engines.haunted.match import MatchConfig
from studio.sessions.haunted.ai_files import import_team_list, write_starter
from studio.sessions.haunted.checks import check_syntax, run_load_test
from studio.storage import ProjectError
from studio.storage.haunted.teams_csv import teams_from_csv
from tests.haunted.hostile import HAS_JS, NO_JS_REASON, fixture

DEFAULT = builtin_maps()["Default"]
FAST = MatchConfig(time_limit=0.3, load_limit=5.0)
needs_js = pytest.mark.skipif(not HAS_JS, reason=NO_JS_REASON)


def test_a_load_test_of_a_good_ai_shows_its_answer() -> None:
    result = run_load_test("builtin:greedy", FAST, DEFAULT)
    assert result.ok and result.moves == ("south", "south", "south")
    assert result.answer == ["south", "south", "south"] and result.load_ms > 0
    assert "answered ['south', 'south', 'south']" in result.details()[0]


@pytest.mark.parametrize(("name", "stage", "failure", "reason"), [
    ("raising.py", "move", "exception", "boom from the AI"),
    ("syntax_error.py", "load", "exception", "SyntaxError"),
    ("sleeper.py", "move", "timeout", "no answer within 0.30 s"),
    ("missing.py", "start", "error", "no such AI file"),
])
def test_a_load_test_of_a_broken_ai_says_where_and_why(name, stage, failure, reason) -> None:
    result = run_load_test(str(fixture(name)), FAST, DEFAULT)
    assert (result.ok, result.stage, result.failure) == (False, stage, failure)
    assert reason in "\n".join(result.details())
    assert result.summary() == f"✗ {failure}"
    assert "worker.py" not in result.error  # the studio's own loader is not the AI's fault
    if reason == "SyntaxError":  # file, line and message, nothing before them
        assert result.error.startswith(f'File "{fixture(name)}", line')
        assert result.error.splitlines()[-1].startswith("SyntaxError: ")


def test_a_load_test_reads_the_answer_as_the_referee_does(tmp_path: Path) -> None:
    two = tmp_path / "two.py"
    two.write_text("def main(state, side):\n    return ['north', 'up']\n")
    result = run_load_test(str(two), FAST, DEFAULT)
    assert (result.ok, result.failure, result.answer) == (False, "bad_shape", ["north", "up"])
    assert result.error == "expected a list of 3 moves, got a list of 2"
    jumper = tmp_path / "jumper.py"
    jumper.write_text("def main(state, side):\n    print('hello')\n    return ['up', 'none', 'none']\n")
    result = run_load_test(str(jumper), FAST, DEFAULT)
    assert result.ok and result.moves == ("none", "none", "none")
    assert any("'up'" in line for line in result.details())
    assert "printed: hello" in result.details()


def test_python_syntax_is_compiled_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    assert check_syntax(f"open({str(marker)!r}, 'w')\n", js=False) is None
    assert not marker.exists()
    problem = check_syntax("def main(state, side):\n    return [\n", js=False)
    assert problem is not None and problem.line == 2 and "SyntaxError" in problem.message
    problem = check_syntax("x = 1\n  y = 2\n", js=False)
    assert problem is not None and problem.line == 2 and problem.column
    assert problem.message.startswith("IndentationError")


@needs_js
def test_javascript_syntax_is_parsed_in_a_worker_not_run() -> None:
    assert check_syntax(fixture("js_counter.js").read_text(), js=True) is None
    assert check_syntax("while (true) {}\n", js=True) is None  # parsed, never run: no hang
    problem = check_syntax("var a = 1;\nvar b = [1, 2;\n", js=True)
    assert problem is not None and (problem.line, problem.column) == (2, 14)
    assert "Unexpected token" in problem.message
    problem = check_syntax(fixture("js_syntax.js").read_text(), js=True)
    assert problem is not None and problem.line == 2  # the end of input, after the last line
    assert check_syntax("return 1;\n", js=True).message.endswith("Illegal return statement")


def test_v8_parse_errors_give_line_and_column_of_the_users_script() -> None:
    text = "<anonymous>:3: SyntaxError: Unexpected token ';'\n\tx(é, ;\n       ^\n\nSyntaxError: …"
    assert parse_error(text) == {"error": "SyntaxError: Unexpected token ';'", "line": 2,
                                 "column": 8}
    assert parse_error("odd") == {"error": "odd"}


def test_starters_are_written_beside_the_project_and_never_overwrite(tmp_path: Path) -> None:
    first = write_starter(tmp_path, "My Bot")
    assert first == Path("ais/My_Bot.py")
    text = (tmp_path / first).read_text()
    assert "def main(game_state, side)" in text and "ais/My_Bot.py" in text
    (tmp_path / first).write_text("mine")
    second = write_starter(tmp_path, "My Bot")
    assert second == Path("ais/My_Bot-2.py") and (tmp_path / first).read_text() == "mine"
    assert "ais/My_Bot-2.py" in (tmp_path / second).read_text()
    assert write_starter(tmp_path, "ghost", js=True) == Path("ais/ghost.js")


def test_the_python_starter_plays(tmp_path: Path) -> None:
    result = run_load_test(str(tmp_path / write_starter(tmp_path, "bot")), FAST, DEFAULT)
    assert result.ok and len(result.moves) == 3


FORM = ("ID,Start time,Completion time,Email,Name,Team Name,School,Home Monster Choice,"
        "Away Monster Choice,URL/Code\n"
        '1,t,t,ann@example.edu,Ann Lee,Byte Ghosts,CSM,Bobo,Pinky,"function main(s, side) {\n'
        "  return ['south', 'south', 'south'];\n}\"\n"
        "2,t,t,bob@example.edu,Bob Roe,Link Team,Mines,SPIKE,Dragon,https://example.com/ai.js\n")


def test_the_team_list_keeps_teams_schools_monsters_and_code_only() -> None:
    rows = teams_from_csv("\ufeff" + FORM)
    assert [(r.team, r.school, r.monster, r.alternate) for r in rows] == [
        ("Byte Ghosts", "CSM", "bobo", "pinky"), ("Link Team", "Mines", "spike", "pinky")]
    assert "return ['south'" in rows[0].code and rows[0].url == ""
    assert rows[1].url == "https://example.com/ai.js" and rows[1].code == ""
    assert rows[1].notes == ("Link Team: unknown away monster 'Dragon', using pinky",)
    assert "ann@example.edu" not in repr(rows) and "Ann Lee" not in repr(rows)


def test_a_csv_that_is_not_the_team_list_is_refused() -> None:
    with pytest.raises(ProjectError, match="no column 'team name'") as info:
        teams_from_csv("a,b\n1,2\n")
    assert info.value.line == 1


def test_importing_the_team_list_writes_code_files_and_fetches_nothing(tmp_path: Path) -> None:
    csv_file = tmp_path / "teams.csv"
    csv_file.write_text(FORM)
    (tmp_path / "ais").mkdir()
    (tmp_path / "ais" / "Byte_Ghosts.js").write_text("// someone's own file")
    result = import_team_list(csv_file, tmp_path, {"Byte Ghosts"})
    assert [t["name"] for t in result.tables] == ["Byte Ghosts (2)", "Link Team"]
    assert result.tables[0] == {"name": "Byte Ghosts (2)", "team": "Byte Ghosts", "school": "CSM",
                                "runtime": "js", "source": "ais/Byte_Ghosts-2.js",
                                "monster": "bobo", "alternate": "pinky"}
    assert (tmp_path / "ais" / "Byte_Ghosts.js").read_text() == "// someone's own file"
    assert "return ['south'" in (tmp_path / "ais" / "Byte_Ghosts-2.js").read_text()
    stub = (tmp_path / result.files[1]).read_text()
    assert "https://example.com/ai.js" in stub and "not downloaded" in stub
    assert any("not downloaded" in note for note in result.notes)
    assert "ann@example.edu" not in repr(result) + "".join(
        (tmp_path / f).read_text() for f in result.files)
    assert sorted(os.listdir(tmp_path / "ais")) == ["Byte_Ghosts-2.js", "Byte_Ghosts.js",
                                                    "Link_Team.js"]


@needs_js
def test_an_imported_url_team_fails_its_load_test_saying_why(tmp_path: Path) -> None:
    csv_file = tmp_path / "teams.csv"
    csv_file.write_text(FORM)
    result = import_team_list(csv_file, tmp_path, set())
    tested = run_load_test(str(tmp_path / result.files[1]), FAST, DEFAULT)
    assert not tested.ok and "not downloaded yet: https://example.com/ai.js" in tested.error
    assert run_load_test(str(tmp_path / result.files[0]), FAST, DEFAULT).ok


def test_the_starters_fit_the_ai_editor_at_80_columns() -> None:
    from studio.sessions.haunted.ai_files import TEMPLATE_WIDTH, starter_text

    for js in (False, True):
        text = starter_text("Bot", "ais/bot.js" if js else "ais/bot.py", js)
        assert max(len(line) for line in text.splitlines()) <= TEMPLATE_WIDTH == 70
