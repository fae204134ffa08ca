"""Tests for pw_adaptive.core.stubs: folders whose pages copy one stub."""

from __future__ import annotations

import pytest

from pw_adaptive.core.dedup import Fingerprint, fingerprint
from pw_adaptive.core.stubs import MIN_DUPLICATES, OWN_WORDS, StubFolders, folder_of

SITE = "https://u.edu"


def _words(n: int) -> Fingerprint:
    """The fingerprint of a text of ``n`` words."""
    return fingerprint(" ".join(f"w{i}" for i in range(n)))


def test_folder_of_is_the_path_up_to_its_last_segment() -> None:
    assert folder_of(f"{SITE}/faculties/law/") == ("u.edu", "/faculties/")
    assert folder_of(f"{SITE}/faculties/law.html") == ("u.edu", "/faculties/")
    assert folder_of(f"{SITE}/about") == ("u.edu", "/")
    assert folder_of(f"{SITE}/#/faculties/law") == ("u.edu", "/faculties/")
    assert folder_of(f"{SITE}/") is None


def test_two_copies_among_short_siblings_make_a_stub_folder() -> None:
    stubs = StubFolders()
    stubs.observe_distinct(f"{SITE}/faculties/medicine/", _words(12))  # a stub too
    assert not stubs.observe_duplicate(f"{SITE}/faculties/pharmacy/", f"{SITE}/faculties/medicine/")
    assert not stubs.is_stub(f"{SITE}/faculties/history/")
    assert stubs.observe_duplicate(f"{SITE}/faculties/history/", f"{SITE}/faculties/medicine/")
    assert stubs.is_stub(f"{SITE}/faculties/chemistry/")
    assert not stubs.is_stub(f"{SITE}/housing/")
    assert not stubs.is_stub(f"{SITE}/faculties/")  # the folder's own page sits above it
    assert stubs.stub_folders() == [("u.edu", "/faculties/")]
    # Learnt once: a further copy reports nothing new.
    assert not stubs.observe_duplicate(f"{SITE}/faculties/law/", f"{SITE}/faculties/medicine/")


def test_pages_of_their_own_outweigh_a_few_copies() -> None:
    # Print views of lectures sit beside the lectures: two copies among many
    # lectures make no stub folder.
    stubs = StubFolders()
    for n in range(1, 6):
        stubs.observe_distinct(f"{SITE}/lectures/{n}.html", _words(OWN_WORDS + 200))
    stubs.observe_duplicate(f"{SITE}/lectures/1p.html", f"{SITE}/lectures/1.html")
    stubs.observe_duplicate(f"{SITE}/lectures/2p.html", f"{SITE}/lectures/2.html")
    assert not stubs.is_stub(f"{SITE}/lectures/6.html")
    # A page with content of its own undoes the judgement of a stub folder.
    stubs = StubFolders()
    for name in ("law", "arts"):
        stubs.observe_duplicate(f"{SITE}/faculties/{name}/", f"{SITE}/faculties/medicine/")
    assert stubs.is_stub(f"{SITE}/faculties/x/")
    for name in ("maths", "physics"):
        stubs.observe_distinct(f"{SITE}/faculties/{name}/", _words(OWN_WORDS))
    assert not stubs.is_stub(f"{SITE}/faculties/x/")


def test_copies_across_folders_or_of_one_path_teach_nothing() -> None:
    stubs = StubFolders()
    for n in range(MIN_DUPLICATES + 1):
        # /a/staff/ copying /b/staff/: cousins, not siblings.
        assert not stubs.observe_duplicate(f"{SITE}/c{n}/staff/", f"{SITE}/b/staff/")
        # A variant of one page (a query parameter, a trailing slash).
        assert not stubs.observe_duplicate(f"{SITE}/news/x?sort={n}", f"{SITE}/news/x")
        assert not stubs.observe_duplicate(f"{SITE}/news/y/", f"{SITE}/news/y")
    assert stubs.stub_folders() == []
    assert not stubs.observe_duplicate(f"{SITE}/", f"{SITE}/index")


def test_short_siblings_that_differ_by_their_title_alone_are_copies() -> None:
    # One template, the faculty's name in the title and the breadcrumb:
    # too different for the near-duplicate test of short texts.
    def stub(name: str) -> str:
        return f"Home Faculties {name}\n{name}\nTODO\nLast updated 2021-09-16"

    stubs = StubFolders()
    names = ["Health Sciences", "Law and Administration", "Medicine", "Pharmacy"]
    learnt = [
        stubs.observe_distinct(
            f"{SITE}/faculties/{n}/", fingerprint(stub(name)), title=f"{name} | Guide"
        )
        for n, name in enumerate(names)
    ]
    # The first page is the template's first sighting; the third is the
    # second copy.
    assert learnt == [False, False, True, False]
    assert stubs.is_stub(f"{SITE}/faculties/x/")
    # Short pages of their own (other words beside the title) are no copies.
    other = StubFolders()
    for n, body in enumerate(["Dean: Ann Smith, room 12.", "Open Monday to Friday, 9-17."]):
        assert not other.observe_distinct(
            f"{SITE}/offices/{n}/", fingerprint(f"Office {n}\n{body}"), title=f"Office {n}"
        )
    assert not other.is_stub(f"{SITE}/offices/x/")


def test_state_round_trips_and_min_duplicates_is_checked() -> None:
    stubs = StubFolders()
    stubs.observe_distinct(f"{SITE}/offices/1/", fingerprint("Office 1\nTODO"), title="1")
    for name in ("law", "arts"):
        stubs.observe_duplicate(f"{SITE}/faculties/{name}/", f"{SITE}/faculties/medicine/")
    stubs.observe_distinct(f"{SITE}/faculties/maths/", _words(OWN_WORDS))
    again = StubFolders()
    again.restore(stubs.state())
    again.restore(None)
    assert again.state() == stubs.state()
    assert again.is_stub(f"{SITE}/faculties/x/")
    # The short page's words came back: its sibling's copy is recognised.
    assert not again.observe_distinct(
        f"{SITE}/offices/2/", fingerprint("Office 2\nTODO"), title="2"
    )
    assert again.state()["copies"] != stubs.state()["copies"]
    one = StubFolders(min_duplicates=1)
    assert one.observe_duplicate(f"{SITE}/tag/a/", f"{SITE}/tag/b/")
    with pytest.raises(ValueError, match="min_duplicates"):
        StubFolders(min_duplicates=0)
