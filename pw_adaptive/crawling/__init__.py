"""One crawl: the API (``api``), the loop that composes the core and the
renderer (``loop``), one crawl's state (``run``), persistence
(``checkpoint``, ``output``), and what a crawl does towards the sites it
visits (``robots``, ``identity``, ``netguard``, ``retry``, ``attachments``).
``overrides`` reads settings given without Python.
"""
