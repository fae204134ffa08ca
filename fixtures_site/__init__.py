"""Local JavaScript-heavy university portals with ground truth, for tests and benchmarks."""

from fixtures_site.server import RunningSites, load_portals, serve_portals

__all__ = ["RunningSites", "load_portals", "serve_portals"]
