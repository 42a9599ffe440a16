"""DealerPi: the controller of a physical poker table (rules engine, devices, daemon, simulator)."""
