"""One crawl: the API (``api``), the loop that composes the core and the
renderer (``loop``), one crawl's state (``run``), persistence
(``checkpoint``, ``output``), and what a crawl does towards the sites it
visits (``robots``, ``retry``, ``attachments``; how it names itself and the
private-address guard are shared with ``render/``: ``pw_adaptive.identity``,
``pw_adaptive.netguard``).
``overrides`` reads settings given without Python.
"""
