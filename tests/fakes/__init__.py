"""Fakes of the layers below, for tests of the layers above (fakes over mocks)."""
