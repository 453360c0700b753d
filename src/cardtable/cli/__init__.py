"""The ``cardtable`` command line: the I/O layer over the game contract and the table."""
