import pytest

from quickcache import MemoryStore, memoize


def test_returns_the_cached_result_within_the_ttl(clock):
    calls = []

    @memoize(ttl=10, store=MemoryStore(), clock=clock)
    def square(x):
        calls.append(x)
        return x * x

    assert square(3) == 9
    clock.advance(9.5)
    assert square(3) == 9
    assert calls == [3]


def test_calls_again_once_the_ttl_has_passed(clock):
    calls = []

    @memoize(ttl=10, store=MemoryStore(), clock=clock)
    def square(x):
        calls.append(x)
        return x * x

    square(3)
    clock.advance(10)
    square(3)
    assert calls == [3, 3]


def test_keyword_arguments_in_any_order_share_an_entry(clock):
    @memoize(ttl=10, store=MemoryStore(), clock=clock)
    def area(width, height):
        return width * height

    assert area(width=2, height=3) == area(height=3, width=2) == 6
    assert len(area.cache_store) == 1


def test_rejects_a_ttl_that_is_not_positive():
    with pytest.raises(ValueError, match="ttl must be positive"):
        memoize(ttl=0)
