"""The corner-index crop classifier network (torch; used by training code only).

torch is imported when the network is built, not with the module: serving, the doctests and
the type checks import ``vision`` without the train extra.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from torch import nn


def index_net(n_classes: int = 53, width: int = 32) -> nn.Module:
    """Small CNN: 64x64 BGR crop (float 0..1, NCHW) -> logits over 52 cards + "none".

    Its two parts are named ``features`` and ``head``, the names the exported weights use.

    Args:
        n_classes (int): Output classes.
        width (int): Channels of the first stage (doubled at each of 4 stages).
    """
    from torch import nn

    def block(cin: int, cout: int, stride: int) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.SiLU(inplace=True),
            nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.SiLU(inplace=True),
        )

    w = width
    features = nn.Sequential(
        block(3, w, 1),
        block(w, 2 * w, 2),
        block(2 * w, 4 * w, 2),
        block(4 * w, 8 * w, 2),
        block(8 * w, 8 * w, 2),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
    )
    head = nn.Sequential(nn.Dropout(0.2), nn.Linear(8 * w, n_classes))
    return nn.Sequential(OrderedDict(features=features, head=head))
