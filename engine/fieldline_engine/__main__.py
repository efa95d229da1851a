from fieldline_engine.cli import main

raise SystemExit(main())
