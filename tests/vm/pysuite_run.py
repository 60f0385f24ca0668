#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Run rdma-core's Python test suite and record each test's outcome.

    pysuite_run.py SUITE_DIR OUTCOMES [SUITE ARGS...]

SUITE_DIR is an unpacked copy of the suite that python3-pyverbs ships
(its tests/ directory, no file compressed).  SUITE ARGS go to the suite's
own argument parser (--dev rxe0, --gid N, ...), as its run_tests.py would
take them.  Each test appends "ID start" to OUTCOMES when it starts and
"ID OUTCOME" when it ends, flushed at once, so that a run that crashes
(a test can take the interpreter down) tells which test did it; OUTCOME
is pass, skip, fail, error, xfail or xpass.  Tests already named in
OUTCOMES are not run again: running the same command after a crash
goes on after the test that crashed.  Python's random is seeded with
each test's id as it starts, so that two runs draw the same values for
the same test.  unittest's usual report goes to stderr.  Exits 0 when the suite ran, whatever the outcomes: comparing
them is the caller's job.
"""

import importlib.util
import os
import random
import sys
import unittest


class Recorder(unittest.TextTestResult):
    """unittest's text result that also writes every outcome to a file."""

    sink = None

    def startTest(self, test):
        # The suite draws QP sizes, lengths and keys from random: seeded
        # by the test's id, the reference and ours draw the same values
        # for the same test, whatever ran before it, so that an outcome
        # that differs is the library's doing and not the dice's.
        random.seed(test.id())
        self._note(test, 'start')
        super().startTest(test)

    def _note(self, test, outcome):
        self.sink.write('%s %s\n' % (test.id(), outcome))
        self.sink.flush()

    def addSuccess(self, test):
        super().addSuccess(test)
        self._note(test, 'pass')

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._note(test, 'skip')

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._note(test, 'fail')

    def addError(self, test, err):
        super().addError(test, err)
        self._note(test, 'error')

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._note(test, 'xfail')

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._note(test, 'xpass')

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        # A failed subtest fails its test, which then reports no success.
        if err is not None:
            self._note(test, 'fail')


def load_suite(suite_dir):
    """Import SUITE_DIR as the package "tests", as the suite expects."""
    sys.path.insert(0, suite_dir)
    spec = importlib.util.spec_from_file_location(
        'tests', os.path.join(suite_dir, '__init__.py'),
        submodule_search_locations=[suite_dir])
    module = importlib.util.module_from_spec(spec)
    sys.modules['tests'] = module
    spec.loader.exec_module(module)
    return module


def flatten(suite):
    """The tests of a nested TestSuite, in order."""
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from flatten(item)
        else:
            yield item


def seen(outcomes):
    """The ids that OUTCOMES already names."""
    try:
        with open(outcomes) as f:
            return {line.split()[0] for line in f if line.strip()}
    except FileNotFoundError:
        return set()


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    suite_dir, outcomes = sys.argv[1], sys.argv[2]
    # The suite's parser reads sys.argv and keeps what it knows.
    sys.argv = [sys.argv[0]] + sys.argv[3:]
    sys.path.insert(0, suite_dir)
    from args_parser import parser
    parser.parse_args()
    package = load_suite(suite_dir)
    done = seen(outcomes)
    tests = unittest.TestSuite(
        t for t in flatten(unittest.TestLoader().loadTestsFromModule(package))
        if t.id() not in done)
    with open(outcomes, 'a') as sink:
        Recorder.sink = sink
        runner = unittest.TextTestRunner(resultclass=Recorder, verbosity=2)
        runner.run(tests)


if __name__ == '__main__':
    main()
