"""The server: the ``heronlog`` command line, the gunicorn runtime and its tuning, observability (request ids, logs,
metrics) and the table of environment variables.
"""
