"""A small competition with submissions, for the ladder's tests: teams whose submitted files say
which built-in AI they stand for, played in process (the sandbox is tested on its own)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from studio.engines.haunted.match import Entrant, MatchConfig
from studio.sessions.haunted.entrants import resolve_entrant
from studio.storage.haunted.kind import new_body
from studio.storage.haunted.project import HauntedModel
from studio.storage.haunted.submissions import Submission, store_submission

T0 = datetime(2026, 11, 10, 9, 0, tzinfo=timezone.utc)
TEAMS = ("Ghosts", "Ghouls", "Wraiths")


def ai_text(builtin: str) -> bytes:
    return f"# stands for builtin:{builtin}\ndef main(game_state, side):\n    return []\n".encode()


def competition(folder: Path, *, enabled: bool = True, games: int = 1, seed: int = 5,
                maps: tuple[str, ...] = ("Default", "WaffleTown")) -> HauntedModel:
    """Three teams with their own AI files, one-round matches, the ladder on."""
    body = new_body("Cup")
    body["match"] = {**body["match"], "rounds": 1, "max_rounds": 1, "maps": list(maps)}
    body["ladder"] = {"enabled": enabled, "games_per_pair": games, "seed": seed}
    (folder / "ais").mkdir(exist_ok=True)
    for name in TEAMS:
        (folder / "ais" / f"{name}.py").write_bytes(ai_text("idle"))
        body["team"].append({"name": name, "runtime": "python", "source": f"ais/{name}.py"})
    return HauntedModel("Cup", body, folder.resolve())


def hand_in(model: HauntedModel, team: str, builtin: str, minutes: int) -> Submission:
    assert model.folder is not None
    return store_submission(model.folder, team, ai_text(builtin), ".py",
                            T0 + timedelta(minutes=minutes))


def builtin_entrant(submission: Submission, config: MatchConfig) -> Entrant:
    """The built-in a test submission stands for, in process, under the team's name."""
    first = submission.path.read_text().splitlines()[0]
    return resolve_entrant(first.split()[-1], config, name=submission.team, in_process=True)
