"""cardtable: Royal Casino, Czech Rummy and Royal Mastheads, with bots and a CLI.

The layers, from the bottom: :mod:`cardtable.cards`, :mod:`cardtable.core` (the game
contract), :mod:`cardtable.games` (pure rules), :mod:`cardtable.bots`,
:mod:`cardtable.tables` and :mod:`cardtable.cli`.
"""

__version__ = "0.1.0"
