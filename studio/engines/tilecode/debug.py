"""The play debugger (spec tilecode.md §8.10 ``tab``): why one sprite did what it did.

The original designed this (issues #8, #26) but never shipped it. Everything comes from the
round's events (§6.13) and the states before and after the round, so the panel can explain any
round of a play run or of a replay without re-running it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .compiled import STEP
from .events import Commit, Draw, Event, Firing, Issued, MoveResolved, StopPass
from .model import DIRECTIONS, Command, Game
from .state import Sprite, State

CENTRE = (2, 2)


def sprites_at(state: State, x: int, y: int) -> list[Sprite]:
    """Live sprites on a tile, topmost first (lowest kind, then lowest id), as drawn (§7).

    Args:
        state: the state to look in.
        x: tile column.
        y: tile row.

    Returns:
        The sprites, possibly none.
    """
    here = [s for s in state.sprites if s.x == x and s.y == y]
    here.sort(key=lambda s: (s.kind, s.id))
    return here


@dataclass(frozen=True)
class FiringNote:
    """A firing that involved the sprite."""

    phase: str
    rule: int
    view: str
    """The view's transform (``none`` = the rule as written)."""
    roles: tuple[str, ...]
    """How it was involved: ``centre``, ``witness``, ``collider``, ``created``, ``target``."""
    commands: tuple[Issued, ...]
    """Every command the firing issued, in execution order."""
    smash_pass: int | None = None
    """For smash firings: the fixpoint pass it fired in (1 = the first)."""


@dataclass(frozen=True)
class LogEntry:
    """A command addressed to the sprite: move, stop or destroy, in execution order."""

    command: Command
    rule: int
    phase: str


@dataclass(frozen=True)
class Resolution:
    """What the end of the round made of the sprite's logs."""

    moves: tuple[str, ...] = ()
    """Directions logged for it, in execution order."""
    chosen: str | None = None
    """The move resolution picked (None: no move logged)."""
    draw: tuple[int, int] | None = None
    """(choice index, candidate count) when several moves were logged and the RNG chose."""
    cancelled: bool = False
    """The chosen move led off the map."""
    stop_pass: int | None = None
    """The smash fixpoint pass that stopped it."""
    stopped_by: tuple[int, ...] = ()
    """Rules that sent it ``move stop``."""
    destroyed_by: tuple[int, ...] = ()
    """Rules that sent it ``destroy``."""
    created_by: int | None = None
    """The rule that created it this round."""
    created_phase: str | None = None
    kept: str = "rested"
    """In one word: ``moved``, ``cancelled``, ``stopped``, ``destroyed`` or ``rested``."""


@dataclass(frozen=True)
class Outcome:
    """The sprite at commit."""

    kind: str
    """``moved``, ``rested``, ``destroyed``, ``created`` or ``absent`` (no such sprite)."""
    start: tuple[int, int] | None = None
    """Its tile at round start (for created sprites: where it was created)."""
    end: tuple[int, int] | None = None
    """Its tile after the round (None when destroyed or absent)."""
    direction: str | None = None
    """The direction it moved, if it moved."""


@dataclass(frozen=True)
class SpriteReport:
    """One sprite in one round: firings, command log, resolution and outcome."""

    sprite: int
    round: int
    """The round index that ran."""
    kind: int | None
    dir: str | None
    """Its ``dir`` at round start (how it moved in the round before)."""
    firings: tuple[FiringNote, ...]
    log: tuple[LogEntry, ...]
    resolution: Resolution
    outcome: Outcome

    @property
    def involved(self) -> bool:
        """Did any rule fire with it, address it or create it this round?"""
        return bool(self.firings or self.log or self.resolution.moves)


def sprite_report(events: Sequence[Event], sprite_id: int, before: State,
                  after: State) -> SpriteReport:
    """Explain one round for one sprite.

    Args:
        events: the round's events (recorded; without them only the outcome is known).
        sprite_id: the sprite to explain.
        before: the state the round started from.
        after: the state the round produced.

    Returns:
        The report; for a sprite that neither existed nor was created, outcome ``absent``.
    """
    sid = sprite_id
    firings: list[FiringNote] = []
    log: list[LogEntry] = []
    smash_pass = 1
    draw: tuple[int, int] | None = None
    chosen, cancelled, stop_pass = None, False, None
    created_by = created_phase = created_kind = None
    created_at: tuple[int, int] | None = None
    commit: Commit | None = None
    previous: Event | None = None
    for event in events:
        if isinstance(event, Firing):
            note = _firing_note(event, sid, smash_pass if event.phase == "smash" else None)
            if note is not None:
                firings.append(note)
                for issued in event.commands:
                    if issued.created == sid:
                        created_by, created_phase = event.rule, event.phase
                        created_kind = int(issued.command.arg[1:])
                        created_at = issued.target  # type: ignore[assignment]
                    elif issued.target == sid and issued.command.verb in ("move", "destroy"):
                        log.append(LogEntry(issued.command, event.rule, event.phase))
        elif isinstance(event, MoveResolved) and event.sprite == sid:
            chosen, cancelled = event.direction, event.cancelled
            if isinstance(previous, Draw) and previous.site == "move":
                draw = (previous.choice, len(previous.candidates))
        elif isinstance(event, StopPass):
            if sid in event.stopped:
                stop_pass = event.index
            smash_pass = event.index + 1
        elif isinstance(event, Commit):
            commit = event
        previous = event

    start_sprite = next((s for s in before.sprites if s.id == sid), None)
    end_sprite = next((s for s in after.sprites if s.id == sid), None)
    kind = start_sprite.kind if start_sprite else (
        end_sprite.kind if end_sprite else created_kind)
    moves = tuple(e.command.arg or "" for e in log
                  if e.command.verb == "move" and e.command.arg != "stop")
    stopped_by = tuple(e.rule for e in log if e.command.arg == "stop")
    destroyed_by = tuple(e.rule for e in log if e.command.verb == "destroy")
    outcome = _outcome(sid, commit, start_sprite, end_sprite, created_at)
    if outcome.kind == "destroyed":
        kept = "destroyed"
    elif stop_pass is not None or (stopped_by and chosen and not cancelled):
        kept = "stopped"
    elif cancelled:
        kept = "cancelled"
    elif chosen is not None:
        kept = "moved"
    else:
        kept = "rested"
    resolution = Resolution(moves, chosen, draw, cancelled, stop_pass, stopped_by, destroyed_by,
                            created_by, created_phase, kept)
    return SpriteReport(sid, before.round, kind, start_sprite.dir if start_sprite else None,
                        tuple(firings), tuple(log), resolution, outcome)


def _firing_note(event: Firing, sid: int, smash_pass: int | None) -> FiringNote | None:
    roles: list[str] = []
    if event.centre == sid:
        roles.append("centre")
    for position, witness in event.witnesses:
        if witness == sid and position != CENTRE:
            roles.append("collider" if event.phase == "smash" else "witness")
    if any(issued.created == sid for issued in event.commands):
        roles.append("created")
    if not roles and any(_addressed(issued, sid) for issued in event.commands):
        roles.append("target")
    if not roles:
        return None
    return FiringNote(event.phase, event.rule, event.view, tuple(roles), event.commands,
                      smash_pass)


def _addressed(issued: Issued, sid: int) -> bool:
    # Tiles are tuples and sprites ints: only an int target names a sprite.
    return isinstance(issued.target, int) and issued.target == sid


def _outcome(sid: int, commit: Commit | None, start: Sprite | None, end: Sprite | None,
             created_at: tuple[int, int] | None) -> Outcome:
    origin = (start.x, start.y) if start else created_at
    if commit is not None:
        for new_id, _, x, y in commit.created:
            if new_id == sid:
                origin = (x, y)
    if origin is None:
        if end is None:
            return Outcome("absent")
        origin = (end.x, end.y)  # created, but unrecorded events hide where exactly
    if end is None or (commit is not None and sid in commit.destroyed):
        return Outcome("destroyed", origin)
    moved = (end.x, end.y) != origin
    direction = None
    if moved:
        dx, dy = end.x - origin[0], end.y - origin[1]
        direction = next((d for d, step in zip(DIRECTIONS, STEP) if step == (dx, dy)), None)
    if start is None:
        return Outcome("created", origin, (end.x, end.y), direction)
    return Outcome("moved" if moved else "rested", origin, (end.x, end.y), direction)


# ------------------------------------------------------------------------------------ wording


def describe(report: SpriteReport, game: Game) -> list[str]:
    """Plain-English lines for the debug panel, shortest wording first.

    Args:
        report: from :func:`sprite_report`.
        game: the game, for rule types and buttons and the art names of kinds.

    Returns:
        Lines the screen can show verbatim (about 36 columns wide where possible).
    """
    out = report.outcome
    if out.kind == "absent":
        return [f"#{report.sprite}: no such sprite this round"]
    name = game.kind_name(f"s{report.kind}") if report.kind is not None else "sprite"
    if out.kind == "created" or (report.dir is None and report.resolution.created_by is not None):
        lines = [f"#{report.sprite} {name}, new this round"]
    else:
        how = "resting" if report.dir == "resting" else f"was moving {report.dir}"
        lines = [f"#{report.sprite} {name} at {_xy(out.start)}, {how}"]
    for note in report.firings:
        lines.append(_firing_line(note, report.sprite, game))
    res = report.resolution
    if res.moves:
        logged = f"{'moves' if len(res.moves) > 1 else 'move'} logged: {', '.join(res.moves)}"
        if res.draw is not None:
            logged += f" → drew {res.chosen} ({res.draw[0] + 1} of {res.draw[1]})"
        else:
            logged += f" → kept {res.chosen}"
        if res.cancelled:
            logged += ", off the map: cancelled"
        lines.append(logged)
    if res.stop_pass is not None:
        lines.append(f"stopped by {_rules(res.stopped_by)} in pass {res.stop_pass}")
    elif res.stopped_by:
        lines.append(f"stop from {_rules(res.stopped_by)}: it was not moving")
    if not report.involved:
        lines.append("nothing involved it this round")
    lines.append(_outcome_line(report))
    return lines


def _firing_line(note: FiringNote, sid: int, game: Game) -> str:
    rule = game.rule(note.rule)
    what = rule.type if rule is not None else note.phase
    if rule is not None and rule.type == "press" and rule.button:
        what += f" {rule.button}"
    if note.view != "none":
        what += f", view {note.view}"
    if note.smash_pass is not None and note.smash_pass > 1:
        what += f", pass {note.smash_pass}"
    roles = [r for r in note.roles if r not in ("created", "target")]
    if roles:
        verb = f"fired with it as {' and '.join(roles)}"
    elif "created" in note.roles:
        verb = "created it"
    else:
        verb = "fired at it"
    commands = ", ".join(_command_text(issued, sid, game) for issued in note.commands)
    return f"rule {note.rule} ({what}) {verb}: {commands or 'no commands'}"


def _command_text(issued: Issued, sid: int, game: Game) -> str:
    command = issued.command
    if command.verb == "move" and command.arg == "stop":
        text = "stop"
    elif command.arg is not None and command.arg[0] in "bs" and command.arg[1:].isdigit():
        text = f"{command.verb} {game.kind_name(command.arg)}"
    elif command.verb == "game":
        text = "+10" if command.arg == "score" else command.arg or "game"
    else:
        text = command.text
    if command.verb in ("move", "destroy"):
        if issued.target is None:
            return f"{text} (no one)"
        if issued.target != sid:
            return f"{text} #{issued.target}"
    elif command.verb in ("paint", "create", "portal") and issued.target is None:
        return f"{text} (skipped)"
    elif command.verb == "portal":
        return f"{text} → {_xy(issued.target)}"  # type: ignore[arg-type]
    return text


def _outcome_line(report: SpriteReport) -> str:
    out = report.outcome
    if out.kind == "destroyed":
        by = f" by {_rules(report.resolution.destroyed_by)}" if report.resolution.destroyed_by \
            else ""
        return f"destroyed at {_xy(out.start)}{by}"
    if out.kind == "created":
        line = f"created at {_xy(out.start)}"
        if out.direction is not None:
            line += f", moved {out.direction} to {_xy(out.end)}"
        return line
    if out.kind == "moved":
        return f"moved {out.direction} from {_xy(out.start)} to {_xy(out.end)}"
    if report.dir not in (None, "resting"):
        return f"came to rest at {_xy(out.end)}"
    return f"rested at {_xy(out.end)}"


def _rules(ids: tuple[int, ...]) -> str:
    unique = list(dict.fromkeys(ids))
    return ("rule " if len(unique) == 1 else "rules ") + ", ".join(map(str, unique))


def _xy(tile: tuple[int, int] | None) -> str:
    return "(?)" if tile is None else f"({tile[0]},{tile[1]})"
