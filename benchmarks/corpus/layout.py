"""Lay the real corpus's sites out on disk from repository snapshots.

Each site of the real corpus is described by a manifest,
``benchmarks/corpus/sites/<name>.json`` (repository, commit, the folder that is
the web root, licence, languages). Site content is never committed to this
repository: this script extracts it from a snapshot of the site's public
repository (a bare git directory, as the tool library's ``fetch`` leaves it in
``/work/.mirror/<owner>+<name>/repo``) into ``$PW_ADAPTIVE_CORPUS/<name>/``
(default ``benchmarks/corpus/build/<name>/``). The benchmarks skip a site that
is not laid out. Sites with ``"source": "shared"`` live in
``../shared/data/real-sites/`` and need no lay-out.

    python benchmarks/corpus/layout.py [NAME ...] [--mirror DIR] [--out DIR] [--force]

Exit 0 when every site asked for is laid out (or shared), 1 when some could not
be: their snapshot is missing (the message says which repository to fetch), a
Debian package or npm that their build needs is not installed (the message
says what to install; checked before anything is extracted, so a site laid
out before stays as it was), or their extraction or build failed (its
folder is removed: the benchmarks then skip the site instead of serving
half of it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
SITES_DIR = HERE / "sites"
DEFAULT_OUT = HERE / "build"
CORPUS_ENV = "PW_ADAPTIVE_CORPUS"
MIRROR_ENV = "PW_ADAPTIVE_MIRROR"
DEFAULT_MIRROR = Path("/work/.mirror")


def corpus_dir() -> Path:
    """Where mirror sites are laid out: ``$PW_ADAPTIVE_CORPUS`` or ``build/``."""
    return Path(os.environ.get(CORPUS_ENV) or DEFAULT_OUT)


def manifests() -> list[dict[str, object]]:
    """Every site manifest, sorted by name."""
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(SITES_DIR.glob("*.json"))]


def git_dir(mirror: Path, repo: str) -> Path | None:
    """The git directory of ``repo`` ("owner/name") under ``mirror``, if fetched:
    a bare one, or the ``.git`` of a clone (some snapshots come as clones)."""
    base = mirror / repo.replace("/", "+")
    for candidate in (base / "repo", base / "repo" / ".git", base, base.with_suffix(".git")):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def _deb_installed(package: str) -> bool:
    """Whether the Debian package is installed; True where dpkg is not there to
    ask (not Debian: the build itself then says what it lacks)."""
    if shutil.which("dpkg-query") is None:
        return True
    answer = subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True
    )
    return answer.returncode == 0 and answer.stdout.strip().endswith(" installed")


def missing_tools(site: dict[str, object]) -> list[str]:
    """What the site's build needs and this machine lacks: the Debian packages of
    its manifest's ``build.apt``, and ``npm`` when ``build.npm`` is set."""
    build = site.get("build")
    if not isinstance(build, dict):
        return []
    missing = [str(p) for p in build.get("apt", []) if not _deb_installed(str(p))]
    if build.get("npm") and shutil.which("npm") is None:
        missing.append("npm")
    return missing


def _extract_blobs(source: Path, commit: str, subdir: str, into: Path) -> tuple[int, list[str]]:
    """Write the commit's files under ``subdir`` to ``into``, blob by blob;
    returns (files written, paths whose blob the snapshot lacks). Snapshots
    leave out files of 4 MiB and more, and ``git archive`` fails on them."""
    listing = subprocess.run(
        [
            "git",
            f"--git-dir={source}",
            "ls-tree",
            "-r",
            "-z",
            commit,
            *([subdir] if subdir else []),
        ],
        check=True,
        capture_output=True,
    ).stdout.decode("utf-8", "surrogateescape")
    strip = len(PurePosixPath(subdir).parts) if subdir else 0
    written, missing = 0, []
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        mode, kind, sha = meta.split()
        parts = PurePosixPath(path).parts[strip:]
        if kind != "blob" or mode == "120000" or not parts or ".." in parts:
            continue  # submodules, symlinks, anything out of the tree
        blob = subprocess.run(
            ["git", f"--git-dir={source}", "cat-file", "blob", sha], capture_output=True
        )
        if blob.returncode != 0:
            missing.append(path)
            continue
        target = into.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob.stdout)
        written += 1
    return written, missing


def lay_out(site: dict[str, object], mirror: Path, out: Path, *, force: bool = False) -> str:
    """Extract (and build, when the manifest says how) one site; returns a
    one-line status. Raises LookupError when its snapshot is missing."""
    name = str(site["name"])
    target = out / name
    stamp = target / ".laid-out"
    commit = str(site["commit"])
    if stamp.is_file() and stamp.read_text().strip() == commit and not force:
        return f"{name}: already laid out at {commit[:10]}"
    source = git_dir(mirror, str(site["repo"]))
    if source is None:
        raise LookupError(f"{name}: no snapshot of {site['repo']} under {mirror} (fetch it first)")
    missing = missing_tools(site)
    if missing:
        raise LookupError(
            f"{name}: its build needs {', '.join(missing)}, not installed"
            f" (apt-get install -y {' '.join(missing)})"
        )
    subdir = str(site.get("subdir") or "").strip("/")
    base_path = str(site.get("base_path") or "/").strip("/")
    if target.exists():
        shutil.rmtree(target)
    root = target / base_path if base_path else target
    build = site.get("build")
    try:
        with tempfile.TemporaryDirectory(prefix=f"layout-{name}-") as tmp:
            tree = Path(tmp) / "src" if build else root
            tree.mkdir(parents=True)
            files, missing = _extract_blobs(source, commit, subdir, tree)
            if isinstance(build, dict):
                root.mkdir(parents=True, exist_ok=True)
                for command in build.get("commands", []):
                    subprocess.run(
                        ["bash", "-euo", "pipefail", "-c", str(command)],
                        cwd=tree,
                        check=True,
                        env={**os.environ, "OUT": str(root)},
                    )
    except (subprocess.CalledProcessError, OSError):
        # A half-extracted or half-built folder would pass for a laid-out
        # site (the benchmarks serve what is there): leave none.
        shutil.rmtree(target, ignore_errors=True)
        raise
    stamp.write_text(commit + "\n")
    note = f", {len(missing)} files absent from the snapshot" if missing else ""
    built = ", built" if build else ""
    return (
        f"{name}: laid out {files} files from {site['repo']}@{commit[:10]}{built}{note} in {target}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("names", nargs="*", help="sites to lay out (default: all)")
    parser.add_argument(
        "--mirror", type=Path, default=Path(os.environ.get(MIRROR_ENV) or DEFAULT_MIRROR)
    )
    parser.add_argument("--out", type=Path, default=corpus_dir())
    parser.add_argument("--force", action="store_true", help="lay out again even if up to date")
    args = parser.parse_args(argv)
    sites = manifests()
    known = {str(s["name"]) for s in sites}
    unknown = sorted(set(args.names) - known)
    if unknown:
        print(
            f"unknown site(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}",
            file=sys.stderr,
        )
        return 2
    failed = 0
    for site in sites:
        if args.names and site["name"] not in args.names:
            continue
        if site.get("source") == "shared":
            print(f"{site['name']}: shared (../shared/data/real-sites/{site['name']})")
            continue
        try:
            print(lay_out(site, args.mirror, args.out, force=args.force))
        except (LookupError, subprocess.CalledProcessError, OSError) as exc:
            failed += 1
            print(f"{site['name']}: not laid out: {exc}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
