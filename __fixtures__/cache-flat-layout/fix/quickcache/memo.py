"""The memoize decorator: a function's results, kept in a store for `ttl` seconds."""
import functools
import time
from typing import Any, Callable, Optional

from quickcache.keys import make_key
from quickcache.store import MemoryStore

default_store = MemoryStore()


def memoize(ttl: float, store: Optional[MemoryStore] = None, clock: Callable[[], float] = time.monotonic):
    """Caches the decorated function's results for `ttl` seconds in `store` (the shared default store)."""
    if ttl <= 0:
        raise ValueError(f"ttl must be positive: {ttl}")

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        backend = default_store if store is None else store
        # Functions share a store, so a key names the function as well as its arguments (#57).
        namespace = (fn.__module__, fn.__qualname__, id(fn))

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            key = (namespace, make_key(args, kwargs))
            now = clock()
            cached = backend.get(key, now)
            if cached is not MemoryStore.MISSING:
                return cached
            value = fn(*args, **kwargs)
            backend.set(key, value, now + ttl)
            return value

        wrapper.cache_store = backend
        return wrapper

    return decorate
