"""Certificates for the TLS tests, made in the test with the ``cryptography`` package (its X.509 tutorial,
cryptography.io/en/latest/x509/tutorial/): a CA, and a server certificate it signs for 127.0.0.1 and
localhost (Python's ``ssl.create_default_context`` checks the name the client dialled against the
certificate's subjectAltName). Elliptic-curve keys: quick to make."""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@dataclass(frozen=True)
class Certs:
    ca: Path              # the CA's certificate (what a client trusts: [mqtt] tls_ca)
    cert: Path            # the server's certificate, signed by the CA
    key: Path             # the server's private key


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _pem(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def make_ca(folder: Path, common: str) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(_name(common)).issuer_name(_name(common))
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                         crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    return key, cert, _pem(folder / f"{common}.crt", cert.public_bytes(serialization.Encoding.PEM))


def make_certs(folder: Path) -> Certs:
    """A CA "room-ca" and the broker's certificate for 127.0.0.1 / localhost, in ``folder``."""
    ca_key, ca_cert, ca_path = make_ca(folder, "room-ca")
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(_name("localhost")).issuer_name(ca_cert.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    return Certs(ca_path, _pem(folder / "broker.crt", cert.public_bytes(serialization.Encoding.PEM)),
                 _pem(folder / "broker.key", key_pem))
