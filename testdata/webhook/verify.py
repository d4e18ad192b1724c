"""Verify a Dragoman webhook delivery (README example).

Run as a script with a vectors file to check the example against the
recorded vectors: python3 verify.py vectors.json
"""
import hashlib
import hmac
import json
import sys
from typing import Optional


def verify(secret: str, body: bytes, header: Optional[str]) -> bool:
    """True only if header is the signature of the raw body under secret."""
    if not header or not header.startswith("sha256="):
        return False
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        vectors = json.load(f)
    failures = 0
    for v in vectors:
        got = verify(v["secret"], v["body"].encode("utf-8"), v["header"] or None)
        if got != v["valid"]:
            failures += 1
            print(f"FAIL {v['name']}: got {got}, want {v['valid']}")
    print("python: %d vectors, %d failures" % (len(vectors), failures))
    sys.exit(1 if failures else 0)
