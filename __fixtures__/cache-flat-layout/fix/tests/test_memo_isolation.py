from quickcache import MemoryStore, memoize


def test_functions_sharing_a_store_keep_their_own_results(clock):
    # Regression #57: price_in_eur(100) answered with the cached price_in_usd(100).
    store = MemoryStore()

    @memoize(ttl=60, store=store, clock=clock)
    def price_in_usd(cents):
        return f"${cents / 100:.2f}"

    @memoize(ttl=60, store=store, clock=clock)
    def price_in_eur(cents):
        return f"€{cents / 100:.2f}"

    assert price_in_usd(100) == "$1.00"
    assert price_in_eur(100) == "€1.00"
    assert len(store) == 2
