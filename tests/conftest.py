"""Settings for the whole test suite.

Hypothesis runs without its per-example deadline: the suite asserts no speed (speed is
measured by ``cardtable bench``), and on a loaded machine a 200 ms deadline failed a test
whose examples take a tenth of a millisecond when the machine is idle.
"""

from hypothesis import settings

settings.register_profile("cardtable", deadline=None)
settings.load_profile("cardtable")
