"""The corner-index crop classifier network (torch; used by training code only)."""

from __future__ import annotations

import torch
from torch import nn


def _block(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.SiLU(inplace=True),
        nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.SiLU(inplace=True),
    )


class IndexNet(nn.Module):
    """Small CNN: 64x64 BGR crop (float 0..1, NCHW) -> logits over 52 cards + "none".

    Args:
        n_classes (int): Output classes.
        width (int): Channels of the first stage (doubled at each of 4 stages).
    """

    def __init__(self, n_classes: int = 53, width: int = 32) -> None:
        super().__init__()
        w = width
        self.features = nn.Sequential(
            _block(3, w, 1),
            _block(w, 2 * w, 2),
            _block(2 * w, 4 * w, 2),
            _block(4 * w, 8 * w, 2),
            _block(8 * w, 8 * w, 2),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(8 * w, n_classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Return logits (N, n_classes)."""
        return self.head(self.features(x))
