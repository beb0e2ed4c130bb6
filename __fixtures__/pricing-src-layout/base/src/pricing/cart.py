"""A cart of line items, priced with the volume tiers and an optional coupon."""
from dataclasses import dataclass, field
from decimal import Decimal
from typing import List, Optional

from pricing.discounts import Coupon, apply_discount
from pricing.money import to_cents


@dataclass(frozen=True)
class LineItem:
    sku: str
    unit_price: Decimal
    quantity: int

    @property
    def total(self) -> Decimal:
        return to_cents(self.unit_price * self.quantity)


@dataclass
class Cart:
    items: List[LineItem] = field(default_factory=list)
    coupon: Optional[Coupon] = None

    def add(self, sku: str, unit_price: Decimal, quantity: int = 1) -> None:
        if quantity < 1:
            raise ValueError(f"quantity must be at least 1: {quantity}")
        self.items.append(LineItem(sku, Decimal(unit_price), quantity))

    def subtotal(self) -> Decimal:
        return to_cents(sum((item.total for item in self.items), Decimal("0")))

    def total(self) -> Decimal:
        return apply_discount(self.subtotal(), self.coupon)
