"""Volume discount tiers and coupons.

An order's subtotal picks a volume tier: "orders of $250.00 or more get 10% off". The tier discount comes
first, then a coupon applies to what is left.
"""
from bisect import bisect_left
from dataclasses import dataclass
from decimal import Decimal
from typing import Optional

from pricing.money import to_cents

# (threshold, rate): an order at or above a threshold gets that rate. Sorted by threshold.
VOLUME_TIERS = (
    (Decimal("0.00"), Decimal("0.00")),
    (Decimal("100.00"), Decimal("0.05")),
    (Decimal("250.00"), Decimal("0.10")),
    (Decimal("500.00"), Decimal("0.15")),
)
_THRESHOLDS = [threshold for threshold, _ in VOLUME_TIERS]


@dataclass(frozen=True)
class Coupon:
    code: str
    percent_off: Decimal = Decimal("0")
    amount_off: Decimal = Decimal("0")


def volume_rate(subtotal: Decimal) -> Decimal:
    """The discount rate of the highest tier whose threshold the subtotal reaches."""
    if subtotal < 0:
        raise ValueError(f"subtotal must not be negative: {subtotal}")
    index = bisect_left(_THRESHOLDS, to_cents(subtotal)) - 1
    return VOLUME_TIERS[max(index, 0)][1]


def apply_discount(subtotal: Decimal, coupon: Optional[Coupon] = None) -> Decimal:
    """The amount to pay: the volume tier first, then the coupon; never below zero."""
    after_tier = to_cents(subtotal * (1 - volume_rate(subtotal)))
    if coupon is None:
        return after_tier
    after_coupon = after_tier * (1 - coupon.percent_off / 100) - coupon.amount_off
    return max(to_cents(after_coupon), Decimal("0.00"))
