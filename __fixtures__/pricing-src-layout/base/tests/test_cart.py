from decimal import Decimal

import pytest

from pricing import Cart, Coupon


def test_total_of_a_small_order_has_no_discount():
    cart = Cart()
    cart.add("PEN", Decimal("1.99"), quantity=3)
    assert cart.subtotal() == Decimal("5.97")
    assert cart.total() == Decimal("5.97")


def test_total_applies_the_volume_tier_and_the_coupon():
    cart = Cart(coupon=Coupon("WELCOME", amount_off=Decimal("5")))
    cart.add("CHAIR", Decimal("149.50"), quantity=2)
    # 299.00 → 269.10 after the 10% tier → 264.10 after the coupon.
    assert cart.total() == Decimal("264.10")


def test_rejects_a_zero_quantity():
    with pytest.raises(ValueError):
        Cart().add("PEN", Decimal("1.99"), quantity=0)
