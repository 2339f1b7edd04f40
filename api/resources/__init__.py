"""The JSON resources (docs/api/index.md): the flask-smorest blueprints, their marshmallow schemas, the one error
shape, the answers' words (:mod:`api.resources.present`) and the write guard that every write passes through
(rate limit and idempotency).

Nothing here knows about the web pages or the server process; the composition root (:mod:`api.app`)
registers these blueprints.
"""
