"""Time-to-live memoization."""
from quickcache.memo import default_store, memoize
from quickcache.store import MemoryStore

__all__ = ["memoize", "default_store", "MemoryStore"]
