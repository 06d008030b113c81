"""``python -m crib``: the same as the ``crib`` console script."""

import sys

from crib.cli import main

sys.exit(main())
