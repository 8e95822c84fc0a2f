"""The fast path (indexes, packed tile words, numpy) against the plain-Python reference path.

Every game of the other engine tests is already compared round by round (``build.run``); here
random games and random inputs do the same, including large ones that take the numpy branch on
their own. The records use every attribute (Include, Include′, Exclude, a direction) at every
position, the centre included: the fast path tests the centre on a branch of its own.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.engines.tilecode.model import BUTTONS, DIRECTIONS, TRANSFORMS
from tests.tilecode.build import game, rec, rule, run

KINDS = ["b0", "b1", "b2", "b3", "s0", "s1", "s2", "s3"]
EDGES = [(2, 1), (1, 2), (3, 2), (2, 3)]
OTHERS = EDGES + [(1, 1), (3, 1), (1, 3), (3, 3)]
ANY_DIRS = ["any", "resting", "moving", *DIRECTIONS]


@st.composite
def attributes(draw, sprite_weights, background_weights):
    """(include, include2, exclude) over the 8 kinds: attribute codes as in §3.1."""
    attrs = [draw(st.sampled_from(background_weights)) for _ in range(4)]
    attrs += [draw(st.sampled_from(sprite_weights)) for _ in range(4)]
    return tuple([k for k, a in zip(KINDS, attrs) if a == code] for code in (1, 2, 3))


@st.composite
def centre_record(draw, rule_type: str):
    """The centre with every attribute kind, not only Include.

    Include2 and Exclude at the centre are tested on the centre sprite's own tile by a separate
    branch of the fast path; backgrounds in a press/change/smash centre Include are redundant
    (§3.4 warning 4) and smash ignores everything at the centre but the sprite kinds (§6.9), so
    both paths must agree on ignoring them too. Never rules may only name sprites there (§3.4).
    """
    if draw(st.booleans()):
        # half the centres only Include sprites: a constrained centre fires less often, and the
        # rest of the rule still needs firings to be compared
        include_bg, include_sprite = [0], [0, 1]
    else:
        include_bg = [0, 0, 0, 2, 3] if rule_type == "never" else [0, 0, 1, 2, 3]
        include_sprite = [0, 1, 1, 1, 2, 3]
    include, include2, exclude = draw(attributes(include_sprite, include_bg))
    if not any(k[0] == "s" for k in include):
        sprite = draw(st.sampled_from(["s0", "s1", "s2", "s3"]))
        include.append(sprite)
        include2 = [k for k in include2 if k != sprite]
        exclude = [k for k in exclude if k != sprite]
    if rule_type == "smash":
        centre_dir = draw(st.sampled_from(DIRECTIONS))
    else:
        centre_dir = draw(st.sampled_from(["any", "any", "resting", "moving", *DIRECTIONS]))
    return include, include2, exclude, centre_dir


@st.composite
def records(draw, rule_type: str):
    include, include2, exclude, centre_dir = draw(centre_record(rule_type))
    centre = rec(2, 2, include=include, include2=include2, exclude=exclude, dir=centre_dir,
                 do=draw(commands(rule_type, (2, 2), True)))
    positions = draw(st.lists(st.sampled_from(OTHERS), max_size=3, unique=True))
    collide = None
    if rule_type == "smash":
        # the collide tile (the centre's neighbour in the centre direction) must be there;
        # the other records are ignored by smash rules (§6.9), and both paths must ignore them
        collide = {"left": (1, 2), "up": (2, 1), "right": (3, 2), "down": (2, 3)}[centre_dir]
        positions = [collide, *(p for p in positions if p != collide)]
    result = [centre]
    for position in positions:
        include, include2, exclude = draw(attributes([0, 1, 1, 2, 3], [0, 1, 1, 2, 3]))
        if position == collide and not include:
            include = [draw(st.sampled_from(KINDS))]
            include2 = [k for k in include2 if k not in include]
            exclude = [k for k in exclude if k not in include]
        sprite_only = bool(include) and all(k[0] == "s" for k in include)
        witness = position in EDGES and sprite_only
        # a dir on a record without a witness is ignored (§3.4 warning 3): drawn there too
        dir_ = draw(st.sampled_from(ANY_DIRS if witness else ["any", "any", "any", *ANY_DIRS]))
        commanded = position in EDGES and (rule_type != "smash" or position == collide)
        do = draw(commands(rule_type, position, witness)) if commanded else []
        result.append(rec(*position, include=include, include2=include2, exclude=exclude,
                          dir=dir_, do=do))
    return result


@st.composite
def commands(draw, rule_type: str, position, witness: bool):
    if rule_type == "never":
        pool = ["game score"] * 6 + ["game win", "game lose", "block s1", "block s2"]
        return draw(st.lists(st.sampled_from(pool), max_size=2, unique=True))
    out = []
    if witness and draw(st.booleans()):
        if rule_type == "smash":
            out.append(draw(st.sampled_from(["move stop", "move stop", "destroy"])))
        else:
            out.append(draw(st.sampled_from([*(f"move {d}" for d in DIRECTIONS), "destroy"])))
    pool = ["paint b0", "paint b1", "paint b3", "create s1", "create s3", "portal b2",
            "portal b3", "game score", "block s2"]
    tail = draw(st.lists(st.sampled_from(pool), max_size=2, unique_by=lambda c: c.split()[0]))
    for command in tail:
        if command.split()[0] in {c.split()[0] for c in out}:
            continue
        out.append(command)
        if command.startswith("create") and rule_type != "smash" and draw(st.booleans()):
            out.append(f"move {draw(st.sampled_from(DIRECTIONS))}")
    return out[:4]


@st.composite
def games(draw, size=None, sprites=None):
    width = size or draw(st.integers(8, 10))
    height = size or draw(st.integers(8, 10))
    bg = [[draw(st.sampled_from([0, 0, 0, 1, 2, 3])) for _ in range(width)]
          for _ in range(height)]
    count = sprites if sprites is not None else draw(st.integers(0, 14))
    placed = [(draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)),
               draw(st.integers(0, 3))) for _ in range(count)]
    rules = []
    for rule_id in range(draw(st.integers(1, 7))):
        rule_type = draw(st.sampled_from(["press", "press", "change", "change", "smash",
                                          "smash", "never"]))
        rules.append(rule(
            rule_id * 2 + 1, rule_type, *draw(records(rule_type)),
            button=draw(st.sampled_from(BUTTONS)) if rule_type == "press" else None,
            transforms=draw(st.sampled_from(TRANSFORMS)),
        ))
    # a wanderer rule keeps sprites moving, so smash rules get collisions to look at
    wander_kinds = draw(st.sets(st.sampled_from(["s0", "s1", "s2", "s3"]), min_size=1))
    rules.append(rule(99, "change", rec(2, 2, include=sorted(wander_kinds),
                                        do=[f"move {draw(st.sampled_from(DIRECTIONS))}"]),
                      transforms=draw(st.sampled_from(["none", "rotate-3-way"]))))
    return game(background=["".join(str(k) for k in row) for row in bg],
                sprites=["." * width] * height, rules=rules, extra=placed)


buttons = st.lists(st.sets(st.sampled_from(BUTTONS), max_size=2).map(tuple), max_size=10)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(games(), buttons, st.integers(0, 2**63 - 1))
def test_random_small_games_agree(g, inputs, seed) -> None:
    run(g, inputs, seed=seed)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(games(size=20, sprites=150), buttons, st.integers(0, 2**63 - 1))
def test_random_crowded_games_agree(g, inputs, seed) -> None:
    # more than VECTOR_MIN candidates: the default fast path takes its numpy branch too
    run(g, inputs, seed=seed)
