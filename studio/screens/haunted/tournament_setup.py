"""What the tournament screen edits (haunted.md §4.1, §13.7), as functions from a model to a new
model: the ``[[tournament]]`` tables (entrants, mode, seeding, third place, seed, pace) and the
match settings every tournament of the project plays with (the project's ``[match]`` defaults).

No Textual here: each function returns the edited :class:`HauntedModel` (the screen records it
as one undoable edit) or raises :class:`SetupError` with what to tell the user.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from studio.engines.common.inert import name_problem
from studio.engines.haunted.maps import DEFAULT_ROTATION
from studio.engines.haunted.tournament import DOUBLE_ROUND_ROBIN, MODES, ROUND_ROBIN, SINGLE
from studio.storage.folder import slug
from studio.storage.haunted.tournaments import MAX_PACE, SEEDINGS, new_match_swaps
from studio.storage.haunted.project import HauntedModel

MODE_NAMES = {SINGLE: "single elimination", ROUND_ROBIN: "round robin",
              DOUBLE_ROUND_ROBIN: "double round robin"}
SWAP_NAMES = {True: "yes, every round", False: "no (fixed home)"}
"""Home acts first in each phase: swapping gives each team that turn in every other round."""
SEEDING_NAMES = {"registration": "registration order", "school-size": "school size"}
PACES = (0.0, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
"""Seconds per turn offered by left/right (0: full speed; up to 60 can be typed)."""
TIME_LIMITS = (0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
"""Seconds per move offered by left/right (any value from 0.05 to 60 can be typed)."""
MAX_ROUNDS = 99
SEED_LIMIT = 2**63


class SetupError(ValueError):
    """An edit that cannot be made, with the reason in words."""


def tournament(model: HauntedModel, index: int) -> dict[str, Any]:
    """Tournament ``index`` with the defaults of §4.1 filled in (even while it is invalid)."""
    table = model.tournament_tables[index]
    teams = [t.name for t in model.teams()]
    return {"name": table.get("name", ""), "mode": table.get("mode", SINGLE),
            "seeding": table.get("seeding", "registration"),
            "entrants": list(table.get("entrants", teams)),
            "third_place": table.get("third_place", False), "seed": table.get("seed", 0),
            "swap_sides": table.get("swap_sides", model.config().swap_sides),
            **({"pace": table["pace"]} if "pace" in table else {})}  # written once it is set


def _with(model: HauntedModel, index: int, **changes: Any) -> HauntedModel:
    tables = model.tournament_tables
    tables[index] = {**tournament(model, index), **changes}
    return model.with_table("tournament", tables)


# ----------------------------------------------------------------------- tournaments


def _check_name(model: HauntedModel, name: str, index: int | None) -> str:
    name = name.strip()
    if not name:
        raise SetupError("a tournament needs a name")
    problem = name_problem(name)
    if problem is not None:
        raise SetupError(f"a tournament name is one line of visible text: this one contains "
                         f"{problem}")
    taken = [t.get("name") for i, t in enumerate(model.tournament_tables) if i != index]
    if name in taken:
        raise SetupError(f"there is already a tournament called {name!r}")
    # Results are kept in a folder named after the tournament: two names of one folder
    # ("Spring Cup", "spring cup") would run over each other's replays.
    clash = next((other for other in taken if isinstance(other, str)
                  and slug(other) == slug(name)), None)
    if clash is not None:
        raise SetupError(f"{name!r} would keep its results in the folder of {clash!r} "
                         f"(replays/{slug(name)}/): choose another name")
    return name


def new_tournament(model: HauntedModel, name: str = "",
                   results: Callable[[str], bool] = lambda name: False) -> tuple[HauntedModel, int]:
    """A new single-elimination tournament of every team, with a random seed; and its index.

    ``results(name)`` says whether results are kept under a name already: the suggested name
    skips those too, or a tournament discarded after its run (results stay beside the project)
    would lend its bracket to the next new one.
    """
    teams = [t.name for t in model.teams()]
    if len(teams) < 2:
        raise SetupError("a tournament needs at least two teams: add them in Teams & AIs")
    taken = {t.get("name") for t in model.tournament_tables}
    number = len(taken) + 1
    while not name and (f"Tournament {number}" in taken or results(f"Tournament {number}")):
        number += 1
    name = _check_name(model, name or f"Tournament {number}", None)
    table = {"name": name, "mode": SINGLE, "seeding": "registration", "entrants": teams,
             "third_place": False, "seed": secrets.randbits(31),
             "swap_sides": new_match_swaps(model.body)}
    tables = [*model.tournament_tables, table]
    return model.with_table("tournament", tables), len(tables) - 1


def rename(model: HauntedModel, index: int, name: str) -> HauntedModel:
    return _with(model, index, name=_check_name(model, name, index))


def delete(model: HauntedModel, index: int) -> HauntedModel:
    tables = model.tournament_tables
    del tables[index]
    return model.with_table("tournament", tables)


# -------------------------------------------------------------------------- entrants


def add_entrant(model: HauntedModel, index: int, team: str) -> HauntedModel:
    entrants = tournament(model, index)["entrants"]
    if team in entrants:
        raise SetupError(f"{team} is entered already")
    return _with(model, index, entrants=[*entrants, team])


def remove_entrant(model: HauntedModel, index: int, position: int) -> HauntedModel:
    entrants = tournament(model, index)["entrants"]
    if len(entrants) <= 2:
        raise SetupError("a tournament needs at least two entrants")
    del entrants[position]
    return _with(model, index, entrants=entrants)


def move_entrant(model: HauntedModel, index: int, position: int, step: int) -> HauntedModel:
    """Move an entrant up (``step`` -1) or down (+1) in the registration order."""
    entrants = tournament(model, index)["entrants"]
    target = position + step
    if not 0 <= target < len(entrants):
        raise SetupError("already first" if step < 0 else "already last")
    entrants[position], entrants[target] = entrants[target], entrants[position]
    return _with(model, index, entrants=entrants)


# -------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class Field:
    """One line of the settings pane."""

    key: str
    label: str
    value: str
    applies: bool = True
    """False for what the mode ignores (seeding and third place in a round robin)."""


def fields(model: HauntedModel, index: int) -> list[Field]:
    table = tournament(model, index)
    config = model.config()
    single = table["mode"] == SINGLE
    maps = " → ".join(config.maps)
    return [
        Field("mode", "mode", MODE_NAMES.get(table["mode"], str(table["mode"]))),
        Field("seeding", "seeding", _seeding_name(model, index, table["seeding"]), single),
        Field("third_place", "3rd place", "yes" if table["third_place"] else "no", single),
        Field("seed", "seed", str(table["seed"])),
        Field("pace", "pace", pace_name(table.get("pace", 0.0))),
        Field("rounds", "rounds", f"best of {config.rounds} (max {config.max_rounds})"),
        Field("time_limit", "time limit", f"{config.time_limit:g} s per move"),
        Field("maps", "maps", f"{len(config.maps)}: {maps}"),
        Field("swap_sides", "swap sides", SWAP_NAMES[bool(table["swap_sides"])]),
    ]


def pace_name(pace: Any) -> str:
    """``full speed`` or ``0.2 s per turn`` (what spectators get to follow)."""
    return "full speed" if not pace else f"{pace:g} s per turn"


def sizes_unused(model: HauntedModel, index: int) -> str:
    """Why seeding by school size would seed as registration order does ("" when it would not):
    the sort by size keeps registration order among equal sizes."""
    sizes = {t.name: t.school_size for t in model.teams()}
    entered = {sizes.get(name, 0) for name in tournament(model, index)["entrants"]}
    if entered == {0}:
        return "no entrant has a school size: enter them in Teams & AIs (a on the hub)"
    if len(entered) == 1:
        return "every entrant's school has the same size"
    return ""


def _seeding_name(model: HauntedModel, index: int, seeding: str) -> str:
    name = SEEDING_NAMES.get(seeding, str(seeding))
    if seeding == "school-size" and sizes_unused(model, index):
        return name + (" (none)" if "no entrant" in sizes_unused(model, index) else " (equal)")
    return name


def _cycle(values: list[Any], current: Any, step: int) -> Any:
    position = values.index(current) if current in values else -1
    return values[(position + step) % len(values)]


def _with_match(model: HauntedModel, **changes: Any) -> HauntedModel:
    return model.with_table("match", {**model.body.get("match", {}), **changes})


def rotations(model: HauntedModel) -> list[tuple[str, ...]]:
    """The rotations left/right go through: the current one, the default, every single map."""
    maps = list(model.maps())
    offered = [tuple(model.config().maps)]
    if set(DEFAULT_ROTATION) <= set(maps):
        offered.append(DEFAULT_ROTATION)
    offered += [(name,) for name in maps]
    return list(dict.fromkeys(offered))


def step_field(model: HauntedModel, index: int, key: str, step: int) -> HauntedModel:
    """The value of ``key`` moved one ``step`` (-1 or +1) through its choices."""
    table = tournament(model, index)
    config = model.config()
    if key == "mode":
        return _with(model, index, mode=_cycle(list(MODES), table["mode"], step))
    if key in ("seeding", "third_place") and table["mode"] != SINGLE:
        raise SetupError(f"{key.replace('_', ' ')} applies to single elimination only")
    if key == "seeding":
        seeding = _cycle(list(SEEDINGS), table["seeding"], step)
        unused = sizes_unused(model, index)
        if seeding == "school-size" and unused:
            raise SetupError(f"seeding by school size would change nothing: {unused}")
        return _with(model, index, seeding=seeding)
    if key == "third_place":
        return _with(model, index, third_place=not table["third_place"])
    if key == "seed":
        return _with(model, index, seed=(table["seed"] + step) % SEED_LIMIT)
    if key == "swap_sides":
        return _with(model, index, swap_sides=not table["swap_sides"])
    if key == "pace":
        return _with(model, index, pace=_cycle(list(PACES), table.get("pace", 0.0), step))
    if key == "rounds":
        rounds = min(MAX_ROUNDS, max(1, config.rounds + 2 * step))
        return _with_match(model, rounds=rounds, max_rounds=max(config.max_rounds, rounds))
    if key == "time_limit":
        return _with_match(model, time_limit=_cycle(list(TIME_LIMITS), config.time_limit, step))
    if key == "maps":
        return _with_match(model, maps=list(_cycle(rotations(model), tuple(config.maps), step)))
    raise SetupError(f"no setting {key!r}")


def typed_value(model: HauntedModel, index: int, key: str) -> str:
    """What the ``e`` dialog starts with for ``key``."""
    config = model.config()
    table = tournament(model, index)
    return {"seed": str(table["seed"]), "pace": f"{table.get('pace', 0.0):g}",
            "rounds": str(config.rounds),
            "time_limit": f"{config.time_limit:g}", "maps": ", ".join(config.maps)}.get(key, "")


def set_typed(model: HauntedModel, index: int, key: str, text: str) -> HauntedModel:
    """``key`` set from typed text (seed, pace, rounds, time limit, maps)."""
    text = text.strip()
    if key == "seed":
        if not text.isdigit() or int(text) >= SEED_LIMIT:
            raise SetupError("the seed is a whole number from 0 to 2^63 - 1")
        return _with(model, index, seed=int(text))
    if key == "pace":
        try:
            seconds = float(text)
        except ValueError:
            seconds = -1.0
        if not 0 <= seconds <= MAX_PACE:
            raise SetupError(f"the pace is from 0 (full speed) to {MAX_PACE:g} seconds per turn")
        return _with(model, index, pace=seconds)
    if key == "rounds":
        if not text.isdigit() or int(text) % 2 == 0 or not 1 <= int(text) <= MAX_ROUNDS:
            raise SetupError(f"rounds is an odd number from 1 to {MAX_ROUNDS}")
        rounds = int(text)
        return _with_match(model, rounds=rounds, max_rounds=max(model.config().max_rounds, rounds))
    if key == "time_limit":
        try:
            seconds = float(text)
        except ValueError:
            seconds = -1.0
        if not 0.05 <= seconds <= 60:
            raise SetupError("the time limit is from 0.05 to 60 seconds per move")
        return _with_match(model, time_limit=seconds)
    if key == "maps":
        names = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in names if name not in model.maps()]
        if not names or unknown:
            raise SetupError(f"no map called {unknown[0]!r}" if unknown
                             else "name at least one map")
        return _with_match(model, maps=names)
    raise SetupError("type a value for the seed, pace, rounds, time limit or maps")
