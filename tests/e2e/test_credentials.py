"""Credentials in URLs (``http://user:password@host/``) never reach any output."""

from __future__ import annotations

import base64
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from pw_adaptive.cli import EXIT_OK, main

pytestmark = pytest.mark.e2e

PASSWORD = "s3cr3tPW"
# One --browser-arg is one Chromium argument, spaces and all.
RESOLVER_ARG = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"


@pytest.fixture()
def site() -> Iterator[tuple[int, list[str]]]:
    auth_headers: list[str] = []
    port_box: list[int] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            auth_headers.append(self.headers.get("Authorization", ""))
            port = port_box[0]
            pages = {
                "/": f"""<html><head><title>Student housing</title></head><body><main>
<h1>Student housing</h1><p>Student housing and halls of residence for students.</p>
<a href="http://user:{PASSWORD}@127.0.0.1:{port}/halls">Student housing halls</a>
<a href="//admin:{PASSWORD}@127.0.0.1:{port}/rooms">Housing rooms</a>
</main></body></html>""",
                "/halls": "<html><body><main><h1>Halls</h1><p>Student housing halls cost"
                " 150 pounds a week.</p></main></body></html>",
                "/rooms": "<html><body><main><h1>Rooms</h1><p>Student housing rooms and"
                " flats for students.</p></main></body></html>",
            }
            body = pages.get(self.path.split("?")[0], "<h1>Not found</h1>").encode()
            self.send_response(200 if self.path.split("?")[0] in pages else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port_box.append(server.server_port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_port, auth_headers
    server.shutdown()
    server.server_close()


def test_credentials_in_urls_never_appear_in_any_output(
    site: tuple[int, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port, auth_headers = site
    out, md, state = tmp_path / "out.jsonl", tmp_path / "md", tmp_path / "state.sqlite"
    start = f"http://user:{PASSWORD}@127.0.0.1:{port}/"
    argv = ["crawl", start, "--query", "student housing", "--out", str(out),
            "--markdown-dir", str(md), "--state", str(state), "--max-pages", "5",
            "--concurrency", "1", "--browser-arg", RESOLVER_ARG]  # fmt: skip
    assert main(argv) == EXIT_OK
    console = capsys.readouterr()
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert out in written and state in written and any(p.suffix == ".md" for p in written)
    # The crawl did follow the links that carried credentials.
    assert f"127.0.0.1:{port}/halls" in out.read_text(encoding="utf-8")
    assert f"127.0.0.1:{port}/rooms" in out.read_text(encoding="utf-8")
    for path in written:
        assert PASSWORD.encode() not in path.read_bytes(), path
        assert PASSWORD not in path.name
    assert PASSWORD not in console.out and PASSWORD not in console.err
    # Nor were they sent to the server.
    encoded = base64.b64encode(f"user:{PASSWORD}".encode()).decode()
    assert not any(encoded in header for header in auth_headers)
