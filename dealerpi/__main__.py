from dealerpi.cli import main; import sys; sys.exit(main())
