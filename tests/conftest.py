"""The suite's shared fixtures: the databases (:mod:`tests.databases`)."""

pytest_plugins = ["tests.databases"]
