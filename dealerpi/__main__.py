import sys

from dealerpi.cli import main

sys.exit(main())
