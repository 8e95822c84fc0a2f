"""The engine RNG: §7.7 test vectors, seeding rule and Fisher–Yates."""

from __future__ import annotations

import pytest

from studio.engines.btree.runtime.rng import Rng, seed_state


@pytest.mark.parametrize(
    ("seed", "draws"),
    [
        (0, [5.748588591814041e-06, 0.6551540484651923, 0.30481433868408203]),
        (1, [0.2797326445579529, 0.7938730120658875, 0.4087815284729004]),
        (42, [0.28736361861228943, 0.997032880783081, 0.7104032039642334]),
    ],
)
def test_first_draws_match_the_reference(seed: int, draws: list[float]) -> None:
    rng = Rng()
    rng.seed(seed)
    assert [rng.draw() for _ in range(3)] == draws


def test_seed_7_shuffles_like_the_reference() -> None:
    rng = Rng()
    rng.seed(7)
    items = [0, 1, 2, 3, 4, 5]
    rng.shuffle(items)
    assert items == [5, 2, 4, 3, 0, 1]


def test_shuffle_draws_n_minus_one_times() -> None:
    rng, twin = Rng(), Rng()
    rng.seed(9)
    twin.seed(9)
    rng.shuffle(list(range(5)))
    for _ in range(4):
        twin.draw()
    assert rng.state == twin.state
    rng.shuffle([1])
    rng.shuffle([])
    assert rng.state == twin.state


def test_seeding_rule_zero_discards_nothing_others_discard_ten() -> None:
    assert seed_state(0) == 0.0
    manual = Rng(float(2**31 + 5) % 2**31)
    for _ in range(10):
        manual.draw()
    assert seed_state(2**31 + 5) == manual.state


def test_double_arithmetic_differs_from_integer_arithmetic() -> None:
    # The product exceeds 2**53 and is rounded: exact integers would give another sequence.
    rng = Rng()
    rng.seed(1)
    exact = int(rng.state)
    differs = False
    for _ in range(50):
        rng.draw()
        exact = (1103515245 * exact + 12345) % 2**31
        differs |= rng.state != exact
    assert differs


def test_index_is_floor_of_draw_times_n() -> None:
    rng, twin = Rng(), Rng()
    rng.seed(3)
    twin.seed(3)
    for n in (1, 2, 7, 100):
        assert rng.index(n) == int(twin.draw() * n)


def test_negative_seed_is_rejected() -> None:
    with pytest.raises(ValueError):
        seed_state(-1)
