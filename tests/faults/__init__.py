"""The long fault scenarios of `make faults` (not part of `make test`)."""
