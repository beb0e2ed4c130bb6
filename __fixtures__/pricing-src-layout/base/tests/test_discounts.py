from decimal import Decimal

import pytest

from pricing.discounts import Coupon, apply_discount, volume_rate


class TestVolumeRate:
    @pytest.mark.parametrize(
        "subtotal, rate",
        [("0.00", "0.00"), ("99.99", "0.00"), ("180.00", "0.05"), ("260.00", "0.10"), ("1200.00", "0.15")],
    )
    def test_picks_the_tier_of_the_subtotal(self, subtotal, rate):
        assert volume_rate(Decimal(subtotal)) == Decimal(rate)

    def test_rejects_a_negative_subtotal(self):
        with pytest.raises(ValueError, match="must not be negative"):
            volume_rate(Decimal("-1"))


class TestApplyDiscount:
    def test_tier_then_coupon(self):
        coupon = Coupon("SPRING", percent_off=Decimal("10"))
        # 300.00 → 270.00 after the 10% tier → 243.00 after the coupon.
        assert apply_discount(Decimal("300.00"), coupon) == Decimal("243.00")

    def test_never_below_zero(self):
        coupon = Coupon("GIFT", amount_off=Decimal("50"))
        assert apply_discount(Decimal("20.00"), coupon) == Decimal("0.00")
