"""Settings shared by the whole suite."""

from hypothesis import settings

# Property tests assert behaviour, never speed: on a loaded 2-core CI runner a
# single example can take longer than hypothesis' default 200 ms deadline.
settings.register_profile("pw_adaptive", deadline=None, print_blob=True)
settings.load_profile("pw_adaptive")
