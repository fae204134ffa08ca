"""One module per fixture portal; each defines PORTAL (see fixtures_site.common)."""
