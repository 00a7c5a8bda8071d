"""What the --json schema tests of the tools share (tests/cli/<tool>/schemas_test.py): the
schemas/<name>.v0.1.0.json validators, loaded once and checked to be valid draft 2020-12 schemas
(Python's jsonschema, Debian's), and a hand-broken copy of a real output.

Import it from a test under tests/cli/<tool>/ with
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
"""
import copy
import json
import os

import jsonschema


class Schemas:
    def __init__(self, directory):
        self.directory = directory
        self._validators = {}

    def errors(self, name, doc):
        """The errors of `doc` against schemas/<name>.v0.1.0.json; empty when it matches."""
        if name not in self._validators:
            with open(os.path.join(self.directory, name + ".v0.1.0.json")) as f:
                s = json.load(f)
            jsonschema.Draft202012Validator.check_schema(s)
            self._validators[name] = jsonschema.Draft202012Validator(s)
        return list(self._validators[name].iter_errors(doc))


def describe(error):
    """One line for a failure: the message (cut short: a oneOf message repeats the document) and where."""
    return "%s at %s" % (error.message[:200], list(error.absolute_path))


def mutated(doc, change):
    """A deep copy of `doc` after `change(copy)`."""
    d = copy.deepcopy(doc)
    change(d)
    return d
