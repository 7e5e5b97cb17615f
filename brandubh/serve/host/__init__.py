"""The old place of ``brandubh host``'s package, kept for one release: the
network server is :mod:`brandubh.host` now, beside :mod:`brandubh.serve`.
Only :mod:`.client` was named for import (docs/host.md); it warns and
hands out :mod:`brandubh.host.client`'s names. Removed in 0.3.0."""
