"""The browser-free core: what a query is, how much a page and a link say
about it, when to stop, and which URL to render next.

``query`` (terms, synonyms, hits), ``relevance`` (a page's score),
``links`` and ``scoring`` (a link's promise), ``stopper`` (the adaptive
stop), ``urls``, ``scope``, ``frontier`` with ``frontier_state`` and
``politeness``, and the filters a URL or a page passes: ``traps``
(with ``url_dates``), ``variants``, ``dedup`` and ``soft404``. Nothing here
imports Playwright or starts a browser.
"""
