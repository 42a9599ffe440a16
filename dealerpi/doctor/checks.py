"""One line of ``dealerpi doctor``'s answer (its own module so the doctor's parts share it without a cycle)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Check:
    status: str          # OK, WARN, FAIL or SKIP
    what: str
    detail: str

    def __str__(self) -> str:
        return f"{self.status:<4}  {self.what}: {self.detail}"
