"""The studio RNG against the spec's test vectors."""

import pytest

from studio.engines.common.splitmix import SplitMix64


def test_vectors_seed_0_and_42() -> None:
    rng = SplitMix64(0)
    assert [rng.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    rng = SplitMix64(42)
    assert [rng.next64() for _ in range(3)] == [0xBDD732262FEB6E95, 0x28EFE333B266F103, 0x47526757130F9F52]


def test_below_vector_and_no_draw_for_one() -> None:
    rng = SplitMix64(42)
    assert [rng.below(6) for _ in range(10)] == [1, 1, 0, 0, 4, 0, 1, 2, 1, 2]
    before = rng.state
    assert rng.below(1) == 0 and rng.state == before


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        SplitMix64(-1)
    with pytest.raises(ValueError):
        SplitMix64(0).below(0)
