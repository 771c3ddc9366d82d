"""Money as the table writes it: one function for every amount the bank shows or says.

Amounts are integers; a per-share dividend may be a fraction (1830's $67 run pays $6.7 a share),
written as a decimal. The title's currency is a symbol written before the amount ('$120', '£120',
'ƒ120') or letters written after it ('120fr').
"""

from __future__ import annotations

from fractions import Fraction


def decimal(amount) -> str:
    """'120', '6.7', '27.5' (a fraction with a finite decimal; otherwise two places)."""
    value = Fraction(amount)
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return text


def format_money(amount, currency: str) -> str:
    value = Fraction(amount)
    sign, text = ("-" if value < 0 else ""), decimal(abs(value))
    if currency and (len(currency) == 1 or not currency.isalpha()):  # 'ƒ' is a letter, and a symbol
        return f"{sign}{currency}{text}"
    return f"{sign}{text}{currency}"
