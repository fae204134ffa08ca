

@pytest.mark.parametrize(
    ("candidate", "before", "new"),
    [
        ("http://a.test/tour", "http://a.test/", True),
        ("http://a.test/#/open-day", "http://a.test/", True),
        ("http://a.test/#!/fees", "http://a.test/#!/home", True),
        ("http://a.test/x#doc-copyright", "http://a.test/x", False),  # an in-page anchor
        ("http://a.test/x", "http://a.test/x", False),
        ("about:blank", "http://a.test/x", False),
    ],
)
def test_what_counts_as_a_navigation(candidate: str, before: str, new: bool) -> None:
    from pw_adaptive.render.clicks import _is_new

    assert _is_new(candidate, before) is new
