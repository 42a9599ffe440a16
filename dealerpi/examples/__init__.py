"""Example data shipped with DealerPi: hand histories (``hands/*.phh``) for ``dealerpi replay``."""
