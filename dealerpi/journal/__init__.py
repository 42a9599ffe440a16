"""The journal of inputs on disk: one file (``file``), a folder of segments and checkpoints (``folder``),
its checks (``verify``)."""
