from quickcache.store import MemoryStore


def test_an_entry_expires_at_its_deadline():
    store = MemoryStore()
    store.set("k", "v", expires_at=5.0)
    assert store.get("k", now=4.9) == "v"
    assert store.get("k", now=5.0) is MemoryStore.MISSING
    assert len(store) == 0
