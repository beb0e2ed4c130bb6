"""Cache keys from call arguments."""
from typing import Any, Dict, Hashable, Tuple


def make_key(args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Hashable:
    """A hashable key: positional arguments, then keyword arguments in name order."""
    return (args, tuple(sorted(kwargs.items())))
