"""pw_adaptive: focused, adaptive crawling of JavaScript-heavy sites with a real browser."""

__version__ = "0.1.0"
