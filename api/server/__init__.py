"""The server: the ``heronlog`` command line (its settings checked before anything starts), the gunicorn runtime
and its tuning (requests read whole before a thread serves them, worker balance, CPU pinning, workers that end
with their master, garbage collection, unread bodies), observability (request ids, logs, metrics) and the table of
environment variables.

This room runs the application that :func:`api.app.create_app` builds; nothing in the resources or the pages
knows which server runs them.
"""
