"""Tiny TileCode games built in code for the engine tests (8×8 maps unless stated)."""

from __future__ import annotations

from studio.engines.tilecode.engine import dump_state, load
from studio.engines.tilecode.model import (
    ArtKind, Command, Game, Rule, SpritePlacement, TileMap, TileRecord,
)

FLOOR8 = ["00000000"] * 8
EMPTY8 = ["........"] * 8


def rec(col: int, row: int, include=(), include2=(), exclude=(), dir: str = "any",
        do=()) -> TileRecord:
    """A tile record; ``do`` is a list of command strings (``"move right"``)."""
    return TileRecord(
        col, row, frozenset(include), frozenset(include2), frozenset(exclude), dir,
        tuple(Command.parse(c) for c in do),
    )


def rule(rule_id: int, type: str, *tiles: TileRecord, button: str | None = None,
         transforms: str = "none", enabled: bool = True) -> Rule:
    return Rule(rule_id, type, tuple(tiles), button, transforms, enabled)


def game(background=None, sprites=None, rules=(), extra=()) -> Game:
    """Background rows of hex digits, sprite rows ('.' = none); ``extra`` = [(x, y, kind)]."""
    background = background or FLOOR8
    sprites = sprites or ["." * len(background[0])] * len(background)
    placements = []
    for y, row in enumerate(sprites):
        for x, ch in enumerate(row):
            if ch != ".":
                placements.append(SpritePlacement(x, y, int(ch)))
                placements.extend(SpritePlacement(ex, ey, k) for ex, ey, k in extra
                                  if (ex, ey) == (x, y))
    placements += [SpritePlacement(ex, ey, k) for ex, ey, k in extra
                   if sprites[ey][ex] == "."]
    placements.sort(key=lambda p: (p.y, p.x))
    return Game(
        name="test",
        backgrounds=tuple(ArtKind(f"b{i}") for i in range(4)),
        sprites=tuple(ArtKind(f"s{i}") for i in range(4)),
        map=TileMap(len(background[0]), len(background),
                    tuple(tuple(int(c, 16) for c in row) for row in background),
                    tuple(placements)),
        rules=tuple(sorted(rules, key=lambda r: r.id)),
    )


PATHS = {"reference": {"reference": True}, "fast": {}, "numpy": {"vector_min": 0}}
"""The reference path, the fast path, and the fast path forced onto its numpy kernels."""


def run(g: Game, inputs=(), seed: int = 0, rounds: int | None = None, cap: int = 400):
    """Round 0 plus one round per input (a button tuple) on every path.

    Asserts that all paths give identical states and events round by round (so every test
    game is also a fast-path conformance case); returns (final state, events per round).
    Stops early once more than ``cap`` sprites live (random games can breed exponentially).
    """
    inputs = [tuple(b) for b in inputs]
    if rounds is not None:
        inputs += [()] * (rounds - 1 - len(inputs))
    runs = {}
    for name, options in PATHS.items():
        tg = load(g, **options)
        state = tg.initial_state(seed)
        states, history = [], []
        for buttons in [(), *inputs]:
            if state.status != "play" or len(state.ids) > cap:
                break
            state, events = tg.step(state, buttons)
            states.append(state)
            history.append(events)
        runs[name] = (states, history)
    ref_states, ref_history = runs["reference"]
    for name, (states, history) in runs.items():
        for number, (a, b) in enumerate(zip(ref_states, states)):
            assert dump_state(a) == dump_state(b), f"{name} path differs at round {number}"
            assert a == b, f"{name} path state differs at round {number}"
        assert history == ref_history, f"{name} path events differ"
    return ref_states[-1], ref_history


def scores(g: Game, inputs=(), seed: int = 0, rounds: int | None = None) -> list[int]:
    """Score after each round (round 0 first)."""
    inputs = [tuple(b) for b in inputs]
    if rounds is not None:
        inputs += [()] * (rounds - 1 - len(inputs))
    tg = load(g)
    state = tg.initial_state(seed)
    out = []
    for buttons in [(), *inputs]:
        state, _ = tg.step(state, buttons)
        out.append(state.score)
    run(g, inputs, seed)  # and the paths agree
    return out


def firings(events, phase: str | None = None):
    from studio.engines.tilecode.events import Firing

    return [e for e in events if isinstance(e, Firing) and (phase is None or e.phase == phase)]


def sprites_of(state) -> list[tuple[int, int, int, int, str]]:
    return [tuple(s) for s in state.sprites]


__all__ = ["rec", "rule", "game", "run", "scores", "firings", "sprites_of", "dump_state", "load"]
