"""Where memoized results live until they expire."""
from typing import Any, Dict, Hashable, Tuple

_MISSING = object()


class MemoryStore:
    """An in-process store: key → (expires_at, value)."""

    def __init__(self) -> None:
        self._entries: Dict[Hashable, Tuple[float, Any]] = {}

    def get(self, key: Hashable, now: float) -> Any:
        """The value stored under key, or MemoryStore.MISSING when absent or expired at `now`."""
        entry = self._entries.get(key)
        if entry is None:
            return _MISSING
        expires_at, value = entry
        if now >= expires_at:
            del self._entries[key]
            return _MISSING
        return value

    def set(self, key: Hashable, value: Any, expires_at: float) -> None:
        self._entries[key] = (expires_at, value)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


MemoryStore.MISSING = _MISSING
