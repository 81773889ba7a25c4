"""The level studio: a local web page to edit, ask, play and save levels (``gridsolve studio``;
see docs/studio.md and :mod:`gridsolve.studio.server`)."""
