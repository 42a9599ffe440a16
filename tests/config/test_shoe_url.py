"""Issue 23 item 5: a network shoe (pyserial ``socket://`` or ``rfc2217://``) cannot work under dealerpi.service
(PrivateNetwork=yes, RestrictAddressFamilies=AF_UNIX; the table daemon stays off the network): check-config
refuses it, naming the key, instead of a daemon that says "shoe offline" for ever."""

from __future__ import annotations

from pathlib import Path

import pytest
from config_kit import MINIMAL, errors_of, write

from dealerpi.config import load, main


@pytest.mark.parametrize("url", ["socket://192.168.1.20:7000", "rfc2217://shoe.local:2217"])
def test_network_shoe_is_refused_with_the_key(tmp_path: Path, url: str) -> None:
    errors = errors_of(tmp_path, MINIMAL + f'\n[shoe]\nport = "{url}"\n')
    assert errors == [f"{tmp_path / 'table.toml'}: shoe.port: {url!r} is a network shoe, which dealerpi.service "
                      "cannot reach (PrivateNetwork=yes, RestrictAddressFamilies=AF_UNIX: the table daemon stays "
                      "off the network); plug the shoe into the Pi's USB (/dev/dealerpi-shoe), or use loop:// to "
                      "run without one"]


@pytest.mark.parametrize("port", ["/dev/dealerpi-shoe", "/dev/ttyACM0", "loop://", "spy:///dev/ttyACM0"])
def test_local_shoes_are_accepted(tmp_path: Path, port: str) -> None:
    assert load(write(tmp_path, MINIMAL + f'\n[shoe]\nport = "{port}"\n')).shoe_port == port


def test_check_config_prints_it_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, MINIMAL + '\n[shoe]\nport = "socket://127.0.0.1:7000"\n')
    assert main([str(path)]) == 1
    assert "shoe.port: 'socket://127.0.0.1:7000' is a network shoe" in capsys.readouterr().err
