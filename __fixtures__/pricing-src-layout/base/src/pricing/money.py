"""Money is Decimal, rounded half-up to the cent at the edges (never float)."""
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def to_cents(amount: Decimal) -> Decimal:
    """Rounds to whole cents, half-up, as the invoices do."""
    return Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP)
