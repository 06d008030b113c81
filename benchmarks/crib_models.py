"""How close the crib models come to published discard tables.

Run: ``python benchmarks/crib_models.py``. Compares the average crib by the two ranks thrown,
averaged as Hessel's are (over every hand that throws the pair, its other cards out of the
pack), with the other player's two cards uniform or weighted (:mod:`trainer.throws`), against
Craig Hessel's published tables (Michael Schell's Cribbage Forum): the whole to-opponent's-crib
table (``tests/trainer/data/hessel_opp_crib.txt``) and the to-own-crib values quoted in
http://cribbageforum.com/AnalyzeDiscardsPart2.htm (7-9: 4.06, J-Q: 4.90).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from trainer.throws import crib_by_throw, throw_model, uniform_crib_table

HESSEL_OPP_CRIB = Path(__file__).parents[1] / "tests" / "trainer" / "data" / "hessel_opp_crib.txt"
HESSEL_OWN_CRIB = {(6, 8): 4.06, (10, 11): 4.90}
"""To one's own crib, by 0-based ranks: 7-9 and J-Q."""


def _figures(found: npt.NDArray[np.float64], published: npt.NDArray[np.float64]) -> str:
    diff = (found - published)[np.triu_indices(13)]  # each of the 91 pairs once
    return (
        f"mean abs diff {np.abs(diff).mean():.3f}, max abs diff {np.abs(diff).max():.3f}, "
        f"mean diff {diff.mean():+.3f}"
    )


def main() -> None:
    """Print the figures."""
    published = np.loadtxt(HESSEL_OPP_CRIB, skiprows=4, usecols=range(1, 14))
    model = throw_model()
    print(f"throw model: fixed point after {model.rounds} rounds")
    pairs = tuple(zip(*HESSEL_OWN_CRIB, strict=True))
    quoted = " ".join(f"{v:.2f}" for v in HESSEL_OWN_CRIB.values())
    for name, found in (("uniform", None), ("weighted", model)):
        opponent = crib_by_throw(dealer=False, model=found)
        print(f"to opponent's crib, 91 pairs, {name}: {_figures(opponent, published)}")
        mine = crib_by_throw(dealer=True, model=found)[pairs]
        found_own = " ".join(f"{v:.2f}" for v in mine)
        print(f"to own crib, 7-9 and J-Q, {name}: {found_own} (Hessel {quoted})")
    print(
        f"(the tables the players decide by, not averaged over the hands that throw each pair: "
        f"uniform {_figures(uniform_crib_table(), published)}; "
        f"weighted {_figures(model.to_opponent_crib, published)})"
    )


if __name__ == "__main__":
    main()
