"""`dealerpi doctor`: checks a Pi's install, boot config and hardware, or a sandbox of it."""
