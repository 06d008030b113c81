"""``python -m crib``: the same as the ``crib`` console script."""

import sys

try:
    from crib.cli import main
except KeyboardInterrupt:  # Ctrl-C as the command loads: as quiet as after (crib.cli.main)
    sys.exit(130)
sys.exit(main())
