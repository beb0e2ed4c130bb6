"""Order pricing in exact decimal money."""
from pricing.cart import Cart, LineItem
from pricing.discounts import Coupon, apply_discount, volume_rate
from pricing.money import to_cents

__all__ = ["Cart", "LineItem", "Coupon", "apply_discount", "volume_rate", "to_cents"]
