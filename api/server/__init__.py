"""The server: the ``heronlog`` command line, the gunicorn runtime and its tuning (worker balance, CPU
pinning, garbage collection, unread bodies), observability (request ids, logs, metrics) and the table of
environment variables.

This room runs the application that :func:`api.app.create_app` builds; nothing in the resources or the pages
knows which server runs them.
"""
