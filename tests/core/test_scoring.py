from __future__ import annotations

from pw_adaptive.core.links import Link, Region
from pw_adaptive.core.query import Query
from pw_adaptive.core.scoring import AnchorScorer, BreadthFirstScorer, UrlKeywordScorer

QUERY = Query("student housing")
OPTS = {"inherit": 0.3, "floors": None, "weights": None, "inherit_min": 0.15}


def test_breadth_first_scores_every_link_alike_and_none_blind() -> None:
    scorer = BreadthFirstScorer()
    a = scorer.score(Link("http://u.test/a", text="Housing"), QUERY, 0.9, **OPTS)  # type: ignore[arg-type]
    b = scorer.score(Link("http://u.test/b", region=Region.FOOTER), QUERY, 0.0, **OPTS)  # type: ignore[arg-type]
    assert a.score == b.score and not a.blind and not b.blind


def test_url_keyword_scorer_reads_only_the_url() -> None:
    scorer = UrlKeywordScorer()
    by_text = scorer.score(Link("http://u.test/x", text="Student housing"), QUERY, 0.0, **OPTS)  # type: ignore[arg-type]
    by_url = scorer.score(
        Link("http://u.test/accommodation", text="Where to stay"), QUERY, 0.0, **OPTS
    )  # type: ignore[arg-type]
    assert by_text.blind and by_text.score == 0.0
    assert not by_url.blind and by_url.score == 0.5


def test_anchor_scorer_is_pw_adaptives_own() -> None:
    link = Link("http://u.test/x", text="Learn more", context_heading="Student accommodation")
    assert not AnchorScorer().score(link, QUERY, 0.0, **OPTS).blind  # type: ignore[arg-type]
