"""A Redis persistence module for the eventsourcing library (DESIGN §4).

Selected with ``PERSISTENCE_MODULE=replay.store`` and ``REDIS_URL``.
"""
