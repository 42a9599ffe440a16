"""docs/blinds-and-button.md: its example runs as written, and it covers every rule this part implements."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "blinds-and-button.md"


def test_the_example_runs_as_written() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert blocks, "the doc has no python example"
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(blocks[0], str(DOC), "exec"), {})
    assert "missed-blind button" in out.getvalue()


def test_every_rule_has_a_section() -> None:
    headings = [line for line in DOC.read_text(encoding="utf-8").splitlines() if line.startswith(("#", "- **"))]
    for rule in ("BLD-1", "BLD-2", "BLD-3", "BLD-4", "BLD-5", "BLD-6", "BLD-7", "BLD-8", "BLD-9", "BLD-10",
                 "DEAL-9", "POT-12", "TRN-1", "TRN-2", "TRN-4", "TRN-9"):
        assert any(re.search(rf"\b{rule}\b", line) for line in headings), f"no heading for {rule}"
