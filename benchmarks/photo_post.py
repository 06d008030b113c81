"""A photo posted to the trainer's reader (``POST /api/read``), as the photo and live pages do.

Shared by the benchmark scripts that post photos (``web_load.py``, ``live.py``) and the tests that
post them as raw bodies (``tests/web/test_limits.py``, ``tests/e2e/test_live.py``).
"""

from __future__ import annotations

import urllib.request

BOUNDARY = "benchmarkphoto"


def read_request(
    url: str, image: bytes, filename: str, content_type: str, fields: dict[str, str] | None = None
) -> urllib.request.Request:
    """``POST url/api/read`` of ``image`` as the form's file, with ``fields`` before it.

    >>> request = read_request("http://t", b"GIF", "a.gif", "image/gif", {"rules": "six-card"})
    >>> request.full_url, request.get_method(), b'name="rules"' in request.data
    ('http://t/api/read', 'POST', True)
    """
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in (fields or {}).items()
    ]
    parts += [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="{filename}"\r\n'
        f"Content-Type: {content_type}\r\n\r\n".encode(),
        image,
        f"\r\n--{BOUNDARY}--\r\n".encode(),
    ]
    headers = {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"}
    return urllib.request.Request(f"{url}/api/read", b"".join(parts), headers, method="POST")
