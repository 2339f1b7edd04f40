"""The JSON resources (docs/api/index.md): the flask-smorest blueprints, their marshmallow schemas, the one error
shape, the answers' words (:mod:`api.resources.present`) and the write guard every write passes through.
"""
